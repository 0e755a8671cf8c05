package io.sluice.controller.bgp;

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
        inner.put("b", Arrays.asList(1.0, -2.5e3, true, false, null));
        inner.put("c", "x\"y\\z/\n\u00e9");
        assertEquals(Map.of("a", inner, "d", List.of()),
            JsonReader.read(" { \"a\" : { \"b\": [1, -2.5E3, true, false, null], \"c\": \"x\\\"y\\\\z\\/\\n\\u00e9\" }," +
                " \"d\": [] } "));
    }

    @Test
    void keepsMemberOrder()
    {
        @SuppressWarnings("unchecked")
        final Map<String, Object> object = (Map<String, Object>)JsonReader.read("{\"z\": 1, \"a\": 2}");
        assertEquals(List.of("z", "a"), List.copyOf(object.keySet()));
    }

    @Test
    void rejectsMalformedText()
    {
        for (final String text : List.of("", "{", "{\"a\" 1}", "[1,]", "\"open", "tru", "{} x", "{\"a\": \"\\q\"}"))
        {
            assertThrows(IllegalArgumentException.class, () -> JsonReader.read(text), text);
        }
    }
}
