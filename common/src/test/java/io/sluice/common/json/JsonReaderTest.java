package io.sluice.common.json;

import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class JsonReaderTest
{
    @Test
    void readsNestedValues()
    {
        final Map<String, Object> inner = new LinkedHashMap<>();
        inner.put("b", Arrays.asList(1L, -2.5e3, 0.5, true, false, null));
        inner.put("c", "x\"y\\z/\n\u00e9");
        assertEquals(Map.of("a", inner, "d", List.of()),
            JsonReader.read(" { \"a\" : { \"b\": [1, -2.5E3, 0.5, true, false, null], \"c\": \"x\\\"y\\\\z\\/\\n\\u00e9\" }," +
                " \"d\": [] } "));
    }

    @Test
    void integersAreLongsAndStayExact()
    {
        assertEquals(9_007_199_254_740_993L, JsonReader.read("9007199254740993"));
        assertEquals(-0L, JsonReader.read("-0"));
        assertEquals(1e19, JsonReader.read("10000000000000000000"));
    }

    @Test
    void keepsMemberOrder()
    {
        assertEquals(List.of("z", "a"), List.copyOf(JsonReader.readObject("{\"z\": 1, \"a\": 2}").keySet()));
    }

    @Test
    void rejectsWhatALenientParserWouldForgive()
    {
        for (final String text : List.of("", "{", "{\"a\" 1}", "[1,]", "{\"a\":1,}", "\"open", "tru", "{} x",
            "{\"a\": \"\\q\"}", "\"tab\there\"", "01", "+1", "1.", ".5", "1e", "NaN", "{\"a\":1,\"a\":2}",
            "\"\\u12\"", "\"\\uzzzz\"", "\"end\\", "'single'"))
        {
            assertThrows(IllegalArgumentException.class, () -> JsonReader.read(text), text);
        }
    }

    @Test
    void readObjectRejectsOtherValues()
    {
        assertThrows(IllegalArgumentException.class, () -> JsonReader.readObject("[1]"));
    }
}
