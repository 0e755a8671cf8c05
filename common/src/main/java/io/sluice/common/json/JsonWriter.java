package io.sluice.common.json;

import com.fasterxml.jackson.core.JsonGenerator;

import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.Locale;

/**
 * A fluent front to a Jackson {@link JsonGenerator} for one compact document in memory (a line of tool output, a
 * {@code /status} answer): Jackson places the commas and escapes the strings ({@link Json}), this class adds the
 * number formats Sluice prints and turns Jackson's checked exceptions, which cannot happen on a string, into
 * unchecked ones.
 */
public final class JsonWriter
{
    private final StringWriter out = new StringWriter(4096);
    private final JsonGenerator generator = Json.generator(out);

    /**
     * Starts an object.
     *
     * @return this.
     */
    public JsonWriter beginObject()
    {
        try
        {
            generator.writeStartObject();
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
        return this;
    }

    /**
     * Ends the innermost object.
     *
     * @return this.
     */
    public JsonWriter endObject()
    {
        try
        {
            generator.writeEndObject();
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
        return this;
    }

    /**
     * Starts an array.
     *
     * @return this.
     */
    public JsonWriter beginArray()
    {
        try
        {
            generator.writeStartArray();
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
        return this;
    }

    /**
     * Ends the innermost array.
     *
     * @return this.
     */
    public JsonWriter endArray()
    {
        try
        {
            generator.writeEndArray();
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
        return this;
    }

    /**
     * Names the next member of the current object.
     *
     * @param name the member name.
     * @return this.
     */
    public JsonWriter name(final String name)
    {
        try
        {
            generator.writeFieldName(wellFormed(name));
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
        return this;
    }

    /**
     * Writes a string, or {@code null}.
     *
     * @param value the string.
     * @return this.
     */
    public JsonWriter value(final String value)
    {
        try
        {
            generator.writeString(value == null ? null : wellFormed(value));
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
        return this;
    }

    /**
     * Writes an integer.
     *
     * @param value the number.
     * @return this.
     */
    public JsonWriter value(final long value)
    {
        try
        {
            generator.writeNumber(value);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
        return this;
    }

    /**
     * Writes a boolean.
     *
     * @param value the boolean.
     * @return this.
     */
    public JsonWriter value(final boolean value)
    {
        try
        {
            generator.writeBoolean(value);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
        return this;
    }

    /**
     * Writes a number with at most three decimals ({@code null} for NaN or an infinity, which JSON lacks): rates
     * and averages, which more digits would only make noisier.
     *
     * @param value the number.
     * @return this.
     */
    public JsonWriter value(final double value)
    {
        return Double.isFinite(value) ? number(thousandths(value)) : nullValue();
    }

    /**
     * Writes a number with every digit Java's shortest round-trip form has ({@code null} for NaN or an infinity).
     *
     * @param value the number.
     * @return this.
     */
    public JsonWriter exact(final double value)
    {
        return Double.isFinite(value) ? number(Double.toString(value)) : nullValue();
    }

    /**
     * Writes a number with a fixed count of decimals, as {@code %.Nf} prints it ({@code null} for NaN or an
     * infinity).
     *
     * @param value    the number.
     * @param decimals digits after the point.
     * @return this.
     */
    public JsonWriter fixed(final double value, final int decimals)
    {
        return Double.isFinite(value) ? number(String.format(Locale.ROOT, "%." + decimals + "f", value)) : nullValue();
    }

    /**
     * Writes {@code null}.
     *
     * @return this.
     */
    public JsonWriter nullValue()
    {
        try
        {
            generator.writeNull();
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
        return this;
    }

    /**
     * Writes a member with a string value.
     *
     * @param name  the member name.
     * @param value the string, or null.
     * @return this.
     */
    public JsonWriter field(final String name, final String value)
    {
        return name(name).value(value);
    }

    /**
     * Writes a member with an integer value.
     *
     * @param name  the member name.
     * @param value the number.
     * @return this.
     */
    public JsonWriter field(final String name, final long value)
    {
        return name(name).value(value);
    }

    /**
     * Writes a member with a number of at most three decimals.
     *
     * @param name  the member name.
     * @param value the number.
     * @return this.
     */
    public JsonWriter field(final String name, final double value)
    {
        return name(name).value(value);
    }

    /**
     * Writes a member with a boolean value.
     *
     * @param name  the member name.
     * @param value the boolean.
     * @return this.
     */
    public JsonWriter field(final String name, final boolean value)
    {
        return name(name).value(value);
    }

    /**
     * Returns the document written so far.
     *
     * @return the JSON text.
     */
    @Override
    public String toString()
    {
        try
        {
            generator.flush();
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
        return out.toString();
    }

    private JsonWriter number(final String text)
    {
        try
        {
            generator.writeNumber(text);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
        return this;
    }

    static String thousandths(final double value)
    {
        if (Math.abs(value) >= 1e15)
        {
            return String.format(Locale.ROOT, "%.0f", value); // beyond what thousandths hold in a long
        }
        final long thousandths = Math.round(value * 1000.0);
        if (thousandths % 1000 == 0)
        {
            return (thousandths / 1000) + ".0";
        }
        final long magnitude = Math.abs(thousandths);
        final String fraction = Long.toString(1000 + magnitude % 1000).substring(1);
        int end = fraction.length();
        while (fraction.charAt(end - 1) == '0')
        {
            end--;
        }
        return (thousandths < 0 ? "-" : "") + magnitude / 1000 + "." + fraction.substring(0, end);
    }

    /**
     * Replaces each lone surrogate with U+FFFD: UTF-8 cannot encode one, so the line would reach its reader with a
     * {@code ?} or not at all.
     */
    private static String wellFormed(final String text)
    {
        StringBuilder fixed = null;
        for (int i = 0; i < text.length(); i++)
        {
            final char c = text.charAt(i);
            final boolean paired = Character.isHighSurrogate(c) && i + 1 < text.length() &&
                Character.isLowSurrogate(text.charAt(i + 1));
            if (paired)
            {
                if (fixed != null)
                {
                    fixed.append(c).append(text.charAt(i + 1));
                }
                i++;
                continue;
            }
            if (Character.isSurrogate(c) && fixed == null)
            {
                fixed = new StringBuilder(text.length()).append(text, 0, i);
            }
            if (fixed != null)
            {
                fixed.append(Character.isSurrogate(c) ? '\uFFFD' : c);
            }
        }
        return fixed == null ? text : fixed.toString();
    }
}
