package io.sluice.tools.stats;

import io.sluice.common.JsonStrings;

import java.util.Locale;

/**
 * Writes compact JSON (RFC 8259) into a {@link StringBuilder}: enough for one object per line of tool output,
 * without a library. Commas are placed from the previous character, so callers just name fields and values.
 */
final class JsonWriter
{
    private final StringBuilder out = new StringBuilder(4096);

    JsonWriter beginObject()
    {
        separate();
        out.append('{');
        return this;
    }

    JsonWriter endObject()
    {
        out.append('}');
        return this;
    }

    JsonWriter beginArray()
    {
        separate();
        out.append('[');
        return this;
    }

    JsonWriter endArray()
    {
        out.append(']');
        return this;
    }

    JsonWriter name(final String name)
    {
        separate();
        quote(name);
        out.append(':');
        return this;
    }

    JsonWriter value(final String value)
    {
        separate();
        if (value == null)
        {
            out.append("null");
        }
        else
        {
            quote(value);
        }
        return this;
    }

    JsonWriter value(final long value)
    {
        separate();
        out.append(value);
        return this;
    }

    JsonWriter value(final boolean value)
    {
        separate();
        out.append(value);
        return this;
    }

    /**
     * Writes a number with at most three decimals ({@code null} for NaN or an infinity, which JSON lacks).
     *
     * @param value the number.
     * @return this.
     */
    JsonWriter value(final double value)
    {
        separate();
        if (!Double.isFinite(value))
        {
            out.append("null");
            return this;
        }
        if (Math.abs(value) >= 1e15)
        {
            out.append(String.format(Locale.ROOT, "%.0f", value)); // beyond what thousandths hold in a long
            return this;
        }
        final long thousandths = Math.round(value * 1000.0);
        if (thousandths % 1000 == 0)
        {
            out.append(thousandths / 1000).append(".0");
            return this;
        }
        if (thousandths < 0)
        {
            out.append('-');
        }
        final long magnitude = Math.abs(thousandths);
        out.append(magnitude / 1000).append('.');
        final String fraction = Long.toString(1000 + magnitude % 1000).substring(1);
        int end = fraction.length();
        while (fraction.charAt(end - 1) == '0')
        {
            end--;
        }
        out.append(fraction, 0, end);
        return this;
    }

    JsonWriter nullValue()
    {
        separate();
        out.append("null");
        return this;
    }

    JsonWriter field(final String name, final String value)
    {
        return name(name).value(value);
    }

    JsonWriter field(final String name, final long value)
    {
        return name(name).value(value);
    }

    JsonWriter field(final String name, final double value)
    {
        return name(name).value(value);
    }

    JsonWriter field(final String name, final boolean value)
    {
        return name(name).value(value);
    }

    @Override
    public String toString()
    {
        return out.toString();
    }

    private void separate()
    {
        final int length = out.length();
        if (length > 0)
        {
            final char last = out.charAt(length - 1);
            if (last != '{' && last != '[' && last != ':')
            {
                out.append(',');
            }
        }
    }

    private void quote(final String text)
    {
        JsonStrings.quote(out, text);
    }

}
