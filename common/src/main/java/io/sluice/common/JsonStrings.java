package io.sluice.common;

/**
 * Writes JSON string literals (RFC 8259 section 7) for the tools that print JSON by hand.
 */
public final class JsonStrings
{
    private JsonStrings()
    {
    }

    /**
     * Appends {@code text} as a quoted, escaped JSON string.
     *
     * @param out  where to append.
     * @param text the string.
     */
    public static void quote(final StringBuilder out, final String text)
    {
        out.append('"');
        for (int i = 0; i < text.length(); i++)
        {
            final char c = text.charAt(i);
            switch (c)
            {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                case '\b' -> out.append("\\b");
                case '\f' -> out.append("\\f");
                default ->
                {
                    // control characters must be escaped (RFC 8259 §7); U+2028/9 and lone surrogates are escaped so
                    // the line stays valid for JavaScript and for strict UTF-8 consumers
                    if (c < 0x20 || c == '\u2028' || c == '\u2029' || Character.isSurrogate(c) && !pairedSurrogate(
                        text, i))
                    {
                        out.append(String.format("\\u%04x", (int)c));
                    }
                    else
                    {
                        out.append(c);
                    }
                }
            }
        }
        out.append('"');
    }


    private static boolean pairedSurrogate(final String text, final int i)
    {
        final char c = text.charAt(i);
        if (Character.isHighSurrogate(c))
        {
            return i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1));
        }
        return i > 0 && Character.isHighSurrogate(text.charAt(i - 1));
    }
}
