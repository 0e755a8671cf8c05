package io.sluice.tools.maglev;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One run of a tool with its output captured, for tests.
 *
 * @param status exit status.
 * @param out    standard output.
 * @param err    standard error.
 */
record ToolRun(int status, String out, String err)
{
    @FunctionalInterface
    interface Tool
    {
        int run(String[] args, PrintStream out, PrintStream err);
    }

    static ToolRun of(final Tool tool, final String... args)
    {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        final int status = tool.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
        return new ToolRun(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    /**
     * Reads a number or string field from a flat JSON object line.
     */
    static String field(final String jsonLine, final String key)
    {
        final Matcher matcher = Pattern.compile("\"" + Pattern.quote(key) + "\":(\"([^\"]*)\"|[-0-9.eE]+)")
            .matcher(jsonLine);
        if (!matcher.find())
        {
            throw new AssertionError("no " + key + " in " + jsonLine);
        }
        return matcher.group(2) != null ? matcher.group(2) : matcher.group(1);
    }

    static double number(final String jsonLine, final String key)
    {
        return Double.parseDouble(field(jsonLine, key));
    }
}
