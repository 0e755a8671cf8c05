package io.sluice.controller.bgp;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A small JSON reader (RFC 8259) for ExaBGP's API messages: objects become {@link Map}s in key order, arrays
 * {@link List}s, numbers {@link Double}s, and {@code null} a {@code null}. Enough for one line of ExaBGP output;
 * not a general-purpose library.
 */
final class JsonReader
{
    private final String text;
    private int position;

    private JsonReader(final String text)
    {
        this.text = text;
    }

    /**
     * Reads one JSON value that makes up the whole text.
     *
     * @param text the JSON text.
     * @return the value.
     * @throws IllegalArgumentException with the position when the text is not one JSON value.
     */
    static Object read(final String text)
    {
        final JsonReader reader = new JsonReader(text);
        final Object value = reader.value();
        reader.skipBlanks();
        if (reader.position != text.length())
        {
            throw reader.error("trailing text");
        }
        return value;
    }

    private Object value()
    {
        skipBlanks();
        if (position >= text.length())
        {
            throw error("value expected");
        }
        final char c = text.charAt(position);
        switch (c)
        {
            case '{':
                return object();
            case '[':
                return array();
            case '"':
                return string();
            case 't':
                return literal("true", Boolean.TRUE);
            case 'f':
                return literal("false", Boolean.FALSE);
            case 'n':
                return literal("null", null);
            default:
                return number();
        }
    }

    private Map<String, Object> object()
    {
        final Map<String, Object> object = new LinkedHashMap<>();
        position++;
        skipBlanks();
        if (peek('}'))
        {
            position++;
            return object;
        }
        while (true)
        {
            skipBlanks();
            if (!peek('"'))
            {
                throw error("member name expected");
            }
            final String name = string();
            skipBlanks();
            expect(':');
            object.put(name, value());
            skipBlanks();
            if (peek(','))
            {
                position++;
            }
            else
            {
                expect('}');
                return object;
            }
        }
    }

    private List<Object> array()
    {
        final List<Object> array = new ArrayList<>();
        position++;
        skipBlanks();
        if (peek(']'))
        {
            position++;
            return array;
        }
        while (true)
        {
            array.add(value());
            skipBlanks();
            if (peek(','))
            {
                position++;
            }
            else
            {
                expect(']');
                return array;
            }
        }
    }

    private String string()
    {
        position++;
        final StringBuilder value = new StringBuilder();
        while (position < text.length())
        {
            final char c = text.charAt(position++);
            if (c == '"')
            {
                return value.toString();
            }
            if (c != '\\')
            {
                value.append(c);
                continue;
            }
            if (position >= text.length())
            {
                break;
            }
            final char escaped = text.charAt(position++);
            switch (escaped)
            {
                case '"', '\\', '/' -> value.append(escaped);
                case 'b' -> value.append('\b');
                case 'f' -> value.append('\f');
                case 'n' -> value.append('\n');
                case 'r' -> value.append('\r');
                case 't' -> value.append('\t');
                case 'u' ->
                {
                    if (position + 4 > text.length())
                    {
                        throw error("short \\u escape");
                    }
                    try
                    {
                        value.append((char)Integer.parseInt(text.substring(position, position + 4), 16));
                    }
                    catch (final NumberFormatException ex)
                    {
                        throw error("bad \\u escape");
                    }
                    position += 4;
                }
                default -> throw error("bad escape \\" + escaped);
            }
        }
        throw error("unterminated string");
    }

    private Double number()
    {
        final int start = position;
        while (position < text.length() && "+-0123456789.eE".indexOf(text.charAt(position)) >= 0)
        {
            position++;
        }
        if (start == position)
        {
            throw error("unexpected character '" + text.charAt(position) + "'");
        }
        try
        {
            return Double.valueOf(text.substring(start, position));
        }
        catch (final NumberFormatException ex)
        {
            throw error("bad number");
        }
    }

    private Object literal(final String word, final Object value)
    {
        if (!text.startsWith(word, position))
        {
            throw error(word + " expected");
        }
        position += word.length();
        return value;
    }

    private boolean peek(final char c)
    {
        return position < text.length() && text.charAt(position) == c;
    }

    private void expect(final char c)
    {
        if (!peek(c))
        {
            throw error("'" + c + "' expected");
        }
        position++;
    }

    private void skipBlanks()
    {
        while (position < text.length() && " \t\r\n".indexOf(text.charAt(position)) >= 0)
        {
            position++;
        }
    }

    private IllegalArgumentException error(final String what)
    {
        return new IllegalArgumentException(what + " at position " + position);
    }
}
