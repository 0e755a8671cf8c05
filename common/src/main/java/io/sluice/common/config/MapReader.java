package io.sluice.common.config;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

/**
 * Strict access to one YAML mapping: every key must be known, every value of the expected type and range, and
 * every failure names the file, the field path and the reason. A key written with no value ({@code key:} or
 * {@code key: ~}) counts as absent.
 */
final class MapReader
{
    private static final int MAX_SHOWN_TEXT = 60;

    private final String file;
    private final String path;
    private final Map<?, ?> map;

    private MapReader(final String file, final String path, final Map<?, ?> map)
    {
        this.file = file;
        this.path = path;
        this.map = map;
    }

    /**
     * Wraps a value that must be a mapping whose keys are all among the known ones.
     *
     * @param file  the file name for messages.
     * @param path  the field path of the value; empty for the top level.
     * @param value the parsed YAML value.
     * @param keys  the known keys, in the order the documentation lists them.
     * @return the reader.
     * @throws ConfigException when the value is not a mapping or has a key that is not a known string.
     */
    static MapReader of(final String file, final String path, final Object value, final String... keys)
        throws ConfigException
    {
        if (!(value instanceof Map<?, ?> map))
        {
            throw new ConfigException(file, path,
                "expected a mapping with the keys " + String.join(", ", keys) + "; got " + describe(value));
        }
        final List<String> known = List.of(keys);
        for (final Object key : map.keySet())
        {
            if (!(key instanceof String name))
            {
                throw new ConfigException(file, path, "keys must be strings, got " + describe(key));
            }
            if (!known.contains(name))
            {
                throw new ConfigException(file, join(path, name),
                    "unknown key (expected one of: " + String.join(", ", keys) + ")");
            }
        }
        return new MapReader(file, path, map);
    }

    String file()
    {
        return file;
    }

    String path()
    {
        return path;
    }

    String pathOf(final String key)
    {
        return join(path, key);
    }

    ConfigException error(final String key, final String reason)
    {
        return new ConfigException(file, pathOf(key), reason);
    }

    ConfigException error(final String reason)
    {
        return new ConfigException(file, path, reason);
    }

    boolean has(final String key)
    {
        return map.get(key) != null;
    }

    Object get(final String key)
    {
        return map.get(key);
    }

    Object required(final String key) throws ConfigException
    {
        final Object value = map.get(key);
        if (value == null)
        {
            throw error(key, "required key is missing");
        }
        return value;
    }

    String requiredString(final String key) throws ConfigException
    {
        return string(key, required(key));
    }

    String optionalString(final String key, final String defaultValue) throws ConfigException
    {
        return has(key) ? string(key, map.get(key)) : defaultValue;
    }

    int requiredInt(final String key, final int min, final int max) throws ConfigException
    {
        return (int)integer(key, required(key), min, max);
    }

    int optionalInt(final String key, final int defaultValue, final int min, final int max) throws ConfigException
    {
        return has(key) ? (int)integer(key, map.get(key), min, max) : defaultValue;
    }

    long optionalDurationNanos(final String key, final long defaultValue) throws ConfigException
    {
        final Object value = map.get(key);
        if (value == null)
        {
            return defaultValue;
        }
        final long nanos;
        try
        {
            if (value instanceof Integer || value instanceof Long)
            {
                nanos = Durations.secondsToNanos(Math.max(0, ((Number)value).longValue()));
            }
            else if (value instanceof String text)
            {
                nanos = Durations.parseNanos(text);
            }
            else
            {
                throw error(key, "expected a duration such as 300s, 5m, 250ms or 1h; got " + describe(value));
            }
        }
        catch (final IllegalArgumentException ex)
        {
            throw error(key, ex.getMessage());
        }
        if (nanos <= 0)
        {
            throw error(key, "must be longer than zero, got " + value);
        }
        return nanos;
    }

    boolean optionalBoolean(final String key, final boolean defaultValue) throws ConfigException
    {
        final Object value = map.get(key);
        if (value == null)
        {
            return defaultValue;
        }
        if (!(value instanceof Boolean bool))
        {
            throw error(key, "expected true or false, got " + describe(value));
        }
        return bool;
    }

    double optionalNumber(final String key, final double defaultValue, final double min, final double max)
        throws ConfigException
    {
        final Object value = map.get(key);
        if (value == null)
        {
            return defaultValue;
        }
        if (!(value instanceof Double || value instanceof Integer || value instanceof Long))
        {
            throw error(key, "expected a number from " + min + " to " + max + ", got " + describe(value));
        }
        final double number = ((Number)value).doubleValue();
        if (!(number >= min && number <= max))
        {
            throw error(key, "must be from " + min + " to " + max + ", got " + value);
        }
        return number;
    }

    MapReader requiredMap(final String key, final String... keys) throws ConfigException
    {
        return of(file, pathOf(key), required(key), keys);
    }

    MapReader optionalMap(final String key, final String... keys) throws ConfigException
    {
        return of(file, pathOf(key), has(key) ? map.get(key) : Collections.emptyMap(), keys);
    }

    List<?> list(final String key, final boolean required) throws ConfigException
    {
        final Object value = required ? required(key) : map.get(key);
        if (value == null)
        {
            return List.of();
        }
        if (!(value instanceof List<?> list))
        {
            throw error(key, "expected a list, got " + describe(value));
        }
        return list;
    }

    /**
     * Reads a list of mappings, such as {@code ports} or {@code vips}.
     */
    List<MapReader> mapList(final String key, final boolean required, final int minSize, final String... keys)
        throws ConfigException
    {
        final List<?> list = list(key, required);
        if (list.size() < minSize)
        {
            throw error(key, "needs at least " + minSize + " entr" + (minSize == 1 ? "y" : "ies") + ", got none");
        }
        final List<MapReader> readers = new ArrayList<>(list.size());
        for (int i = 0; i < list.size(); i++)
        {
            readers.add(of(file, pathOf(key) + "[" + i + "]", list.get(i), keys));
        }
        return readers;
    }

    List<String> requiredStringList(final String key) throws ConfigException
    {
        final List<?> list = list(key, true);
        final List<String> strings = new ArrayList<>(list.size());
        for (int i = 0; i < list.size(); i++)
        {
            final Object value = list.get(i);
            if (!(value instanceof String text))
            {
                final String hint = value instanceof Number || value instanceof Boolean ?
                    " (quote it: \"" + value + "\")" : "";
                throw new ConfigException(file, pathOf(key) + "[" + i + "]",
                    "expected a string, got " + describe(value) + hint);
            }
            strings.add(text);
        }
        return strings;
    }

    long integer(final String key, final Object value, final long min, final long max) throws ConfigException
    {
        if (value instanceof Integer || value instanceof Long)
        {
            final long number = ((Number)value).longValue();
            if (number < min || number > max)
            {
                throw error(key, "must be " + range(min, max) + ", got " + number);
            }
            return number;
        }
        if (value instanceof BigInteger)
        {
            throw error(key, "must be " + range(min, max) + ", got " + value);
        }
        if (value instanceof String text && text.matches("[-+]?0[0-9_]+"))
        {
            throw error(key, "expected an integer, got " + describe(value) + " (write it without leading zeros)");
        }
        throw error(key, "expected an integer, got " + describe(value));
    }

    private String string(final String key, final Object value) throws ConfigException
    {
        if (!(value instanceof String text))
        {
            throw error(key, "expected a string, got " + describe(value));
        }
        if (text.isEmpty())
        {
            throw error(key, "must not be empty");
        }
        return text;
    }

    private static String range(final long min, final long max)
    {
        if (max == Integer.MAX_VALUE || max == Long.MAX_VALUE)
        {
            return ">= " + min;
        }
        return min + ".." + max;
    }

    static String join(final String path, final String key)
    {
        return path.isEmpty() ? key : path + "." + key;
    }

    /**
     * Describes a parsed value for a message: its YAML type and, for scalars, the value.
     */
    static String describe(final Object value)
    {
        if (value == null)
        {
            return "nothing";
        }
        if (value instanceof String text)
        {
            return "string \"" + (text.length() > MAX_SHOWN_TEXT ? text.substring(0, MAX_SHOWN_TEXT) + "..." : text) +
                "\"";
        }
        if (value instanceof Integer || value instanceof Long || value instanceof BigInteger)
        {
            return "integer " + value;
        }
        if (value instanceof Number)
        {
            return "number " + value;
        }
        if (value instanceof Boolean)
        {
            return "boolean " + value;
        }
        if (value instanceof List)
        {
            return "a list";
        }
        if (value instanceof Map)
        {
            return "a mapping";
        }
        return "a value of YAML type " + value.getClass().getSimpleName();
    }
}
