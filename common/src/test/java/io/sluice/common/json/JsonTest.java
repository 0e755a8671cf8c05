package io.sluice.common.json;

import org.junit.jupiter.api.Test;

import java.math.BigInteger;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class JsonTest
{
    @Test
    void readsNestedValues()
    {
        final Map<String, Object> inner = new LinkedHashMap<>();
        inner.put("b", Arrays.asList(1L, -2.5e3, 0.5, true, false, null));
        inner.put("c", "x\"y\\z/\n\u00e9");
        assertEquals(Map.of("a", inner, "d", List.of()),
            Json.read(" { \"a\" : { \"b\": [1, -2.5E3, 0.5, true, false, null], " +
                "\"c\": \"x\\\"y\\\\z\\/\\n\\u00e9\" }," +
                " \"d\": [] } "));
    }

    @Test
    void integersAreLongsAndStayExact()
    {
        assertEquals(9_007_199_254_740_993L, Json.read("9007199254740993"));
        assertEquals(-0L, Json.read("-0"));
        assertEquals(new BigInteger("10000000000000000000"), Json.read("10000000000000000000"));
    }

    @Test
    void keepsMemberOrder()
    {
        assertEquals(List.of("z", "a"), List.copyOf(Json.readObject("{\"z\": 1, \"a\": 2}").keySet()));
    }

    @Test
    void rejectsWhatALenientParserWouldForgive()
    {
        for (final String text : List.of("", "{", "{\"a\" 1}", "[1,]", "{\"a\":1,}", "\"open", "tru", "{} x",
            "{\"a\": \"\\q\"}", "\"tab\there\"", "01", "+1", "1.", ".5", "1e", "NaN", "{\"a\":1,\"a\":2}",
            "\"\\u12\"", "\"\\uzzzz\"", "\"end\\", "'single'"))
        {
            assertThrows(IllegalArgumentException.class, () -> Json.read(text), text);
        }
    }

    @Test
    void readObjectRejectsOtherValues()
    {
        assertThrows(IllegalArgumentException.class, () -> Json.readObject("[1]"));
    }

    @Test
    void readsNestingUpToItsLimit()
    {
        final int depth = Json.MAX_DEPTH;
        assertEquals(List.of(), unwrap(Json.read("[".repeat(depth) + "]".repeat(depth)), depth - 1));
        final String objects = "{\"a\":".repeat(depth - 1) + "{}" + "}".repeat(depth - 1);
        assertEquals(Map.of(), unwrapObjects(Json.read(objects), depth - 1));
    }

    // Found by ExaBgpRelayFuzzTest: a line of brackets from the relay overflowed the controller thread's stack.
    @Test
    void refusesNestingDeeperThanItsLimitInsteadOfOverflowingTheStack()
    {
        final IllegalArgumentException tooDeep = assertThrows(IllegalArgumentException.class,
            () -> Json.read("[".repeat(Json.MAX_DEPTH + 1) + "]".repeat(Json.MAX_DEPTH + 1)));
        assertTrue(tooDeep.getMessage().contains("nesting depth (65) exceeds the maximum allowed (64"),
            tooDeep.getMessage());
        assertThrows(IllegalArgumentException.class, () -> Json.read("{\"a\": " + "[".repeat(100_000)));
        assertThrows(IllegalArgumentException.class, () -> Json.read("{\"a\":".repeat(100_000)));
    }

    private static Object unwrap(final Object value, final int levels)
    {
        Object inner = value;
        for (int i = 0; i < levels; i++)
        {
            inner = ((List<?>)inner).get(0);
        }
        return inner;
    }

    private static Object unwrapObjects(final Object value, final int levels)
    {
        Object inner = value;
        for (int i = 0; i < levels; i++)
        {
            inner = ((Map<?, ?>)inner).get("a");
        }
        return inner;
    }
}
