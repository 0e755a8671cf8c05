package io.sluice.common.json;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonFactoryBuilder;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.SerializableString;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.io.CharacterEscapes;
import com.fasterxml.jackson.core.io.SerializedString;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Sluice's one configuration of Jackson, for every JSON document it reads (ExaBGP's API messages, the tools'
 * output in tests) or writes (the tools' {@code --json}, the controller's {@code /status}).
 * <p>
 * Reading is strict RFC 8259: objects become {@link java.util.LinkedHashMap}s in member order, arrays
 * {@link List}s, integers {@link Long}s (or {@link java.math.BigInteger}s beyond a long), other numbers
 * {@link Double}s. What a lenient parser would forgive (trailing commas, raw control characters in strings, leading
 * zeros or a leading {@code +}, NaN, comments, single quotes, duplicate member names, trailing text) is an
 * {@link IllegalArgumentException} naming the position. Objects and arrays nest at most {@link #MAX_DEPTH} deep.
 * <p>
 * Writing escapes what RFC 8259 requires plus U+2028 and U+2029, so a line stays one line for JavaScript;
 * {@link JsonWriter} replaces a lone surrogate (which no UTF-8 text can hold) with U+FFFD. Keys are snake_case
 * everywhere
 * (docs/operations.md, "JSON output").
 */
public final class Json
{
    /** Deepest nesting of objects and arrays read; ExaBGP's messages nest four deep. */
    public static final int MAX_DEPTH = 64;

    private static final JsonFactory FACTORY = new JsonFactoryBuilder()
        .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
        .streamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(MAX_DEPTH).build())
        .characterEscapes(new LineSafeEscapes())
        .build();

    private static final ObjectMapper MAPPER = JsonMapper.builder(FACTORY)
        .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
        .build();

    private Json()
    {
    }

    /**
     * Reads one JSON value that makes up the whole text.
     *
     * @param text the JSON text.
     * @return the value: a map, list, string, number, boolean or null.
     * @throws IllegalArgumentException with the position when the text is not exactly one JSON value.
     */
    public static Object read(final String text)
    {
        if (text.isBlank())
        {
            throw new IllegalArgumentException("no JSON value at 0");
        }
        try
        {
            return plain(MAPPER.readTree(text));
        }
        catch (final JsonProcessingException ex)
        {
            throw new IllegalArgumentException(ex.getOriginalMessage() + " at " +
                (ex.getLocation() == null ? "?" : ex.getLocation().getCharOffset()), ex);
        }
    }

    private static Object plain(final JsonNode node)
    {
        if (node.isObject())
        {
            final Map<String, Object> object = new LinkedHashMap<>();
            node.fields().forEachRemaining(member -> object.put(member.getKey(), plain(member.getValue())));
            return object;
        }
        if (node.isArray())
        {
            final List<Object> array = new ArrayList<>(node.size());
            node.forEach(element -> array.add(plain(element)));
            return array;
        }
        if (node.isIntegralNumber())
        {
            return node.canConvertToLong() ? (Object)node.longValue() : node.bigIntegerValue();
        }
        if (node.isNumber())
        {
            return node.doubleValue();
        }
        if (node.isTextual())
        {
            return node.textValue();
        }
        return node.isBoolean() ? (Object)node.booleanValue() : null;
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
        if (read(text) instanceof Map<?, ?> object)
        {
            return (Map<String, Object>)object;
        }
        throw new IllegalArgumentException("not a JSON object");
    }

    /**
     * Opens a compact generator on a writer, with Sluice's escaping.
     *
     * @param out where the JSON goes.
     * @return the generator; closing it flushes but does not close {@code out}.
     */
    public static JsonGenerator generator(final Writer out)
    {
        try
        {
            return FACTORY.createGenerator(out).disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    /**
     * Escapes U+2028 and U+2029 on top of Jackson's standard escapes.
     */
    private static final class LineSafeEscapes extends CharacterEscapes
    {
        private static final long serialVersionUID = 1L;

        private final int[] ascii = standardAsciiEscapesForJSON();

        @Override
        public int[] getEscapeCodesForAscii()
        {
            return ascii;
        }

        @Override
        public SerializableString getEscapeSequence(final int ch)
        {
            if (ch == 0x2028 || ch == 0x2029)
            {
                return new SerializedString(String.format("\\u%04x", ch));
            }
            return null;
        }
    }
}
