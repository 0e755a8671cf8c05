package io.sluice.tools.maglev;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * The command line of a tool: {@code --name value} options and {@code --name} flags, each given at most once.
 * Every problem becomes a {@link BadArgumentException} whose message names the option and the reason; the tool
 * prints it with its usage line and exits with {@link #EXIT_USAGE}.
 */
final class ToolArguments
{
    /**
     * Exit status for a bad command line, as in sysexits-style tools and the C reference.
     */
    static final int EXIT_USAGE = 2;

    private final Map<String, String> values = new HashMap<>();
    private final Set<String> flags = new HashSet<>();
    private final boolean help;

    private ToolArguments(final boolean help)
    {
        this.help = help;
    }

    /**
     * Splits a command line into options and flags.
     *
     * @param args         the arguments.
     * @param valueOptions names (with "--") that take a value.
     * @param flagOptions  names (with "--") that take none.
     * @return the parsed arguments.
     * @throws BadArgumentException on an unknown, repeated or valueless option.
     */
    static ToolArguments parse(final String[] args, final Set<String> valueOptions, final Set<String> flagOptions)
    {
        for (final String arg : args)
        {
            if ("--help".equals(arg) || "-h".equals(arg))
            {
                return new ToolArguments(true);
            }
        }
        final ToolArguments parsed = new ToolArguments(false);
        for (int i = 0; i < args.length; i++)
        {
            final String name = args[i];
            if (flagOptions.contains(name))
            {
                if (!parsed.flags.add(name))
                {
                    throw new BadArgumentException(name + " is given twice");
                }
            }
            else if (valueOptions.contains(name))
            {
                if (i + 1 >= args.length || args[i + 1].startsWith("--"))
                {
                    throw new BadArgumentException(name + " needs a value");
                }
                if (parsed.values.put(name, args[++i]) != null)
                {
                    throw new BadArgumentException(name + " is given twice");
                }
            }
            else
            {
                throw new BadArgumentException("unknown option: " + name);
            }
        }
        return parsed;
    }

    /**
     * Tells whether help was asked for.
     *
     * @return true when --help or -h was given.
     */
    boolean help()
    {
        return help;
    }

    /**
     * Tells whether a flag was given.
     *
     * @param name the flag, with "--".
     * @return true when present.
     */
    boolean flag(final String name)
    {
        return flags.contains(name);
    }

    /**
     * Returns a required integer option.
     *
     * @param name option name.
     * @param min  smallest accepted value.
     * @param max  largest accepted value.
     * @return the value.
     */
    int requiredInt(final String name, final int min, final int max)
    {
        if (!values.containsKey(name))
        {
            throw new BadArgumentException(name + " is required");
        }
        return (int)longInRange(name, values.get(name), min, max);
    }

    /**
     * Returns an optional integer option.
     *
     * @param name         option name.
     * @param defaultValue value when absent.
     * @param min          smallest accepted value.
     * @param max          largest accepted value.
     * @return the value.
     */
    int optionalInt(final String name, final int defaultValue, final int min, final int max)
    {
        final String text = values.get(name);
        return text == null ? defaultValue : (int)longInRange(name, text, min, max);
    }

    /**
     * Returns an optional 64-bit option, any signed value.
     *
     * @param name         option name.
     * @param defaultValue value when absent.
     * @return the value.
     */
    long optionalLong(final String name, final long defaultValue)
    {
        final String text = values.get(name);
        return text == null ? defaultValue : longInRange(name, text, Long.MIN_VALUE, Long.MAX_VALUE);
    }

    private static long longInRange(final String name, final String text, final long min, final long max)
    {
        final long value;
        try
        {
            value = Long.parseLong(text);
        }
        catch (final NumberFormatException ex)
        {
            throw outOfRange(name, text, min, max);
        }
        if (value < min || value > max)
        {
            throw outOfRange(name, text, min, max);
        }
        return value;
    }

    private static BadArgumentException outOfRange(final String name, final String text, final long min,
        final long max)
    {
        return new BadArgumentException(name + " must be an integer in [" + min + ", " + max + "], got '" +
            text + "'");
    }

    /**
     * A command line the tool cannot run with; the message names the option and the reason.
     */
    static final class BadArgumentException extends RuntimeException
    {
        private static final long serialVersionUID = 1L;

        BadArgumentException(final String message)
        {
            super(message);
        }
    }
}
