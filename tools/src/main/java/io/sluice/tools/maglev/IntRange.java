package io.sluice.tools.maglev;

import io.sluice.common.cli.CommandLines;
import picocli.CommandLine.Model.CommandSpec;

/**
 * The range check of the tools' integer options, worded as they always were:
 * {@code --iterations must be an integer in [1, 1000000], got '0'}.
 */
final class IntRange
{
    private IntRange()
    {
    }

    static int check(final CommandSpec spec, final String name, final int value, final long min, final long max)
    {
        if (value < min || value > max)
        {
            throw CommandLines.usageError(spec, name + " must be an integer in [" + min + ", " + max + "], got '" +
                value + "'");
        }
        return value;
    }
}
