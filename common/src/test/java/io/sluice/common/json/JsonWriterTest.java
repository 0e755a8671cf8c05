package io.sluice.common.json;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

class JsonWriterTest
{
    @Test
    void separatesFieldsAndElementsWithCommas()
    {
        final String json = new JsonWriter().beginObject()
            .field("a", 1)
            .name("b").beginArray().value(1).value("x").beginObject().endObject().beginArray().endArray().endArray()
            .name("c").beginObject().field("d", true).name("e").nullValue().endObject()
            .endObject().toString();
        assertEquals("{\"a\":1,\"b\":[1,\"x\",{},[]],\"c\":{\"d\":true,\"e\":null}}", json);
    }

    @Test
    void escapesStrings()
    {
        final String nasty = "quote\" backslash\\ newline\n tab\t bell\u0007 nul\u0000 sep\u2028 é 😀";
        final String json = new JsonWriter().beginObject().field(nasty, nasty).endObject().toString();
        assertEquals("{\"quote\\\" backslash\\\\ newline\\n tab\\t bell\\u0007 nul\\u0000 sep\\u2028 é 😀\":" +
            "\"quote\\\" backslash\\\\ newline\\n tab\\t bell\\u0007 nul\\u0000 sep\\u2028 é 😀\"}", json);
        final Map<String, Object> parsed = Json.readObject(json);
        assertEquals(nasty, parsed.get(nasty));
    }

    @Test
    void replacesLoneSurrogates()
    {
        // UTF-8 cannot hold a lone surrogate; a pair stays as it is.
        assertEquals("\"a\uFFFDb\uFFFDc😀\"", new JsonWriter().value("a\uD800b\uDC00c😀").toString());
    }

    @Test
    void writesNumbersJsonCanHold()
    {
        final String json = new JsonWriter().beginArray()
            .value(0.0).value(1500.0).value(0.1).value(2.0 / 3).value(-0.5).value(1e16).value(Double.NaN)
            .value(Long.MIN_VALUE).endArray().toString();
        assertEquals("[0.0,1500.0,0.1,0.667,-0.5,10000000000000000,null,-9223372036854775808]", json);
        assertEquals("[0.1234567,null]", new JsonWriter().beginArray().exact(0.1234567).exact(Double.NaN).endArray()
            .toString());
        assertEquals(8, ((List<?>)Json.read(json)).size());
    }
}
