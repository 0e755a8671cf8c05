package io.sluice.common.json;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A strict RFC 8259 reader: objects become {@link LinkedHashMap}s in member order, arrays {@link List}s, integers
 * {@link Long}s, other numbers {@link Double}s, {@code null} a {@code null}. Whatever a lenient parser would
 * forgive (trailing commas, raw control characters in strings, leading zeros or a leading {@code +}, duplicate
 * member names, trailing text) is an error, always an {@link IllegalArgumentException} naming the position.
 * <p>
 * For the short documents Sluice reads (ExaBGP's API messages) and checks (the tools' JSON output, in tests); not a
 * general-purpose library. Objects and arrays nest at most {@link #MAX_DEPTH} deep: the reader recurses, and a line
 * of a few kilobytes of brackets would otherwise overflow the stack of the thread reading it.
 */
public final class JsonReader
{
    /** Deepest nesting of objects and arrays read; ExaBGP's messages nest four deep. */
    public static final int MAX_DEPTH = 64;

    private final String text;
    private int position;
    private int depth;

    private JsonReader(final String text)
    {
        this.text = text;
    }

    /**
     * Reads one JSON value that makes up the whole text.
     *
     * @param text the JSON text.
     * @return the value.
     * @throws IllegalArgumentException with the position when the text is not exactly one JSON value.
     */
    public static Object read(final String text)
    {
        final JsonReader reader = new JsonReader(text);
        final Object value = reader.value();
        reader.skipWhitespace();
        if (reader.position != text.length())
        {
            throw reader.error("trailing text");
        }
        return value;
    }

    /**
     * Reads a text that must be one JSON object.
     *
     * @param text the JSON text.
     * @return the object's members in order.
     * @throws IllegalArgumentException when the text is not exactly one JSON object.
     */
    @SuppressWarnings("unchecked")
    public static Map<String, Object> readObject(final String text)
    {
        final Object value = read(text);
        if (!(value instanceof Map))
        {
            throw new IllegalArgumentException("not a JSON object: " + text);
        }
        return (Map<String, Object>)value;
    }

    private Object value()
    {
        skipWhitespace();
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
        enter();
        final Map<String, Object> object = new LinkedHashMap<>();
        position++;
        skipWhitespace();
        if (peek() == '}')
        {
            position++;
            depth--;
            return object;
        }
        while (true)
        {
            skipWhitespace();
            if (peek() != '"')
            {
                throw error("member name expected");
            }
            final String name = string();
            if (object.containsKey(name))
            {
                throw error("duplicate member " + name);
            }
            skipWhitespace();
            expect(':');
            object.put(name, value());
            skipWhitespace();
            if (peek() == ',')
            {
                position++;
                continue;
            }
            expect('}');
            depth--;
            return object;
        }
    }

    private List<Object> array()
    {
        enter();
        final List<Object> array = new ArrayList<>();
        position++;
        skipWhitespace();
        if (peek() == ']')
        {
            position++;
            depth--;
            return array;
        }
        while (true)
        {
            array.add(value());
            skipWhitespace();
            if (peek() == ',')
            {
                position++;
                continue;
            }
            expect(']');
            depth--;
            return array;
        }
    }

    private String string()
    {
        expect('"');
        final StringBuilder value = new StringBuilder();
        while (position < text.length())
        {
            final char c = text.charAt(position++);
            if (c == '"')
            {
                return value.toString();
            }
            if (c < 0x20)
            {
                throw error("raw control character in string");
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
                case 'u' -> value.append(unicodeEscape());
                default -> throw error("bad escape \\" + escaped);
            }
        }
        throw error("unterminated string");
    }

    private char unicodeEscape()
    {
        if (position + 4 > text.length())
        {
            throw error("short \\u escape");
        }
        int code = 0;
        for (int i = 0; i < 4; i++)
        {
            final int digit = Character.digit(text.charAt(position + i), 16);
            if (digit < 0)
            {
                throw error("bad \\u escape");
            }
            code = (code << 4) | digit;
        }
        position += 4;
        return (char)code;
    }

    private Object number()
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
        final String number = text.substring(start, position);
        if (!number.matches("-?(0|[1-9][0-9]*)(\\.[0-9]+)?([eE][+-]?[0-9]+)?"))
        {
            throw error("bad number '" + number + "'");
        }
        if (number.matches("-?[0-9]+"))
        {
            try
            {
                return Long.parseLong(number);
            }
            catch (final NumberFormatException ex)
            {
                // beyond a long: falls through to a double, as JSON numbers have no size limit
            }
        }
        return Double.parseDouble(number);
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

    private void enter()
    {
        if (++depth > MAX_DEPTH)
        {
            throw error("objects and arrays nested deeper than " + MAX_DEPTH);
        }
    }

    private void expect(final char c)
    {
        if (peek() != c)
        {
            throw error("'" + c + "' expected");
        }
        position++;
    }

    private char peek()
    {
        return position < text.length() ? text.charAt(position) : '\0';
    }

    private void skipWhitespace()
    {
        while (position < text.length() && " \t\r\n".indexOf(text.charAt(position)) >= 0)
        {
            position++;
        }
    }

    private IllegalArgumentException error(final String problem)
    {
        return new IllegalArgumentException(problem + " at " + position + " in: " + text);
    }
}
