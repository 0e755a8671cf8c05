package io.sluice.common.counters;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A strict RFC 8259 parser for tests: objects become {@link LinkedHashMap}s, arrays {@link List}s, integers
 * {@link Long}s, other numbers {@link Double}s. Anything a lenient parser would forgive (trailing commas, raw
 * control characters, single quotes, NaN) fails, so the tool's output is checked to be real JSON.
 */
final class StrictJson
{
    private final String text;
    private int position;

    private StrictJson(final String text)
    {
        this.text = text;
    }

    static Object parse(final String text)
    {
        final StrictJson parser = new StrictJson(text);
        final Object value = parser.value();
        parser.skipWhitespace();
        if (parser.position != text.length())
        {
            throw parser.error("trailing characters");
        }
        return value;
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> object(final String text)
    {
        return (Map<String, Object>)parse(text);
    }

    private Object value()
    {
        skipWhitespace();
        if (position >= text.length())
        {
            throw error("unexpected end");
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
        final Map<String, Object> map = new LinkedHashMap<>();
        position++;
        skipWhitespace();
        if (peek() == '}')
        {
            position++;
            return map;
        }
        while (true)
        {
            skipWhitespace();
            if (peek() != '"')
            {
                throw error("expected a string key");
            }
            final String key = string();
            if (map.containsKey(key))
            {
                throw error("duplicate key " + key);
            }
            skipWhitespace();
            expect(':');
            map.put(key, value());
            skipWhitespace();
            if (peek() == ',')
            {
                position++;
                continue;
            }
            expect('}');
            return map;
        }
    }

    private List<Object> array()
    {
        final List<Object> list = new ArrayList<>();
        position++;
        skipWhitespace();
        if (peek() == ']')
        {
            position++;
            return list;
        }
        while (true)
        {
            list.add(value());
            skipWhitespace();
            if (peek() == ',')
            {
                position++;
                continue;
            }
            expect(']');
            return list;
        }
    }

    private String string()
    {
        expect('"');
        final StringBuilder out = new StringBuilder();
        while (true)
        {
            if (position >= text.length())
            {
                throw error("unterminated string");
            }
            final char c = text.charAt(position++);
            if (c == '"')
            {
                return out.toString();
            }
            if (c < 0x20)
            {
                throw error("raw control character in string");
            }
            if (c != '\\')
            {
                out.append(c);
                continue;
            }
            final char escape = text.charAt(position++);
            switch (escape)
            {
                case '"' -> out.append('"');
                case '\\' -> out.append('\\');
                case '/' -> out.append('/');
                case 'b' -> out.append('\b');
                case 'f' -> out.append('\f');
                case 'n' -> out.append('\n');
                case 'r' -> out.append('\r');
                case 't' -> out.append('\t');
                case 'u' ->
                {
                    out.append((char)Integer.parseInt(text.substring(position, position + 4), 16));
                    position += 4;
                }
                default -> throw error("bad escape \\" + escape);
            }
        }
    }

    private Object number()
    {
        final int start = position;
        if (peek() == '-')
        {
            position++;
        }
        while (position < text.length() && "0123456789.eE+-".indexOf(text.charAt(position)) >= 0)
        {
            position++;
        }
        final String number = text.substring(start, position);
        if (!number.matches("-?(0|[1-9][0-9]*)(\\.[0-9]+)?([eE][+-]?[0-9]+)?"))
        {
            throw error("bad number '" + number + "'");
        }
        return number.matches("-?[0-9]+") ? (Object)Long.parseLong(number) : (Object)Double.parseDouble(number);
    }

    private Object literal(final String word, final Object value)
    {
        if (!text.startsWith(word, position))
        {
            throw error("expected " + word);
        }
        position += word.length();
        return value;
    }

    private void expect(final char c)
    {
        if (peek() != c)
        {
            throw error("expected '" + c + "'");
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
