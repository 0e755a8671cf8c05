package io.sluice.common.config;

import org.junit.jupiter.api.Test;

import java.math.BigInteger;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The YAML layer under the config reader: which Java value each plain scalar becomes, and that any text ends in a
 * value or a {@link ConfigException}, never in another exception (check-config turns only the latter into exit 2).
 */
class YamlDocumentTest
{
    private static Map<?, ?> parse(final String yaml) throws ConfigException
    {
        return assertInstanceOf(Map.class, YamlDocument.parse("node.yaml", yaml));
    }

    private static ConfigException fails(final String yaml, final String field, final String reason)
    {
        final ConfigException ex = assertThrows(ConfigException.class, () -> YamlDocument.parse("node.yaml", yaml));
        assertEquals(field, ex.field(), ex.getMessage());
        assertEquals(reason, ex.reason());
        return ex;
    }

    @Test
    void readsPlainScalarsAsTheReaderAlwaysHas() throws ConfigException
    {
        final Map<?, ?> values = parse("""
            thousand: 1_000
            hex: 0x1F
            negative_hex: -0x10
            seed: 0xffffffffffffffff
            above_int: 2147483648
            leading_zero: 010
            octal: 0o17
            yes: yes
            on: on
            true: True
            mac: 10:20:30:40:50:60
            date: 2001-12-14
            float: 1_0.5
            minus_infinity: -.inf
            nan: .NaN
            tilde: ~
            empty:
            quoted: '1'
            time: 12:30
            """);
        assertEquals(1000, values.get("thousand"));
        assertEquals(31, values.get("hex"));
        assertEquals(-16, values.get("negative_hex"));
        assertEquals(new BigInteger("18446744073709551615"), values.get("seed"));
        assertEquals(2147483648L, values.get("above_int"));
        assertEquals("010", values.get("leading_zero"));
        assertEquals("0o17", values.get("octal"));
        assertEquals("yes", values.get("yes"));
        assertEquals("on", values.get("on"));
        assertEquals(Boolean.TRUE, values.get(Boolean.TRUE));
        assertEquals("10:20:30:40:50:60", values.get("mac"));
        assertEquals("2001-12-14", values.get("date"));
        assertEquals(10.5, values.get("float"));
        assertEquals(Double.NEGATIVE_INFINITY, values.get("minus_infinity"));
        assertEquals(Double.NaN, values.get("nan"));
        assertTrue(values.containsKey("tilde"));
        assertNull(values.get("tilde"));
        assertNull(values.get("empty"));
        assertEquals("1", values.get("quoted"));
        assertEquals("12:30", values.get("time"));
    }

    @Test
    void mergesKeysWithTheMappingsOwnKeysWinning() throws ConfigException
    {
        final Map<?, ?> values = parse("base: &base {port: 80, protocol: tcp}\nvip:\n  <<: *base\n  port: 81\n");
        assertEquals(Map.of("port", 81, "protocol", "tcp"), values.get("vip"));
    }

    @Test
    void readsYaml12Syntax() throws ConfigException
    {
        // YAML 1.2 (SnakeYAML Engine) reads the JSON escape \/ and a tab between a key and its value.
        final Map<?, ?> values = parse("path: \"/a\\/b\"\nname:\tlb1\n");
        assertEquals("/a/b", values.get("path"));
        assertEquals("lb1", values.get("name"));
    }

    @Test
    void readsRecursiveAliasesWithoutLooping() throws ConfigException
    {
        final List<?> list = assertInstanceOf(List.class, parse("a: &x [1, *x]\n").get("a"));
        assertEquals(1, list.get(0));
        assertTrue(list.get(1) == list);
    }

    @Test
    void refusesExplicitTagsThatDoNotFitTheirValue()
    {
        // These threw NumberFormatException or ClassCastException out of the reader before SnakeYAML Engine.
        fails("a: !!int x\n", "", "not valid YAML: while constructing an int, found \"x\", not an integer " +
            "(line 1, column 4)");
        fails("a: !!float x\n", "", "not valid YAML: while constructing a float, found \"x\", not a number " +
            "(line 1, column 4)");
        fails("a: !!int ''\n", "", "not valid YAML: while constructing an int, found empty value (line 1, column 4)");
        fails("a:\n  b: !!str {c: 1}\n", "a.b",
            "not valid YAML: a mapping cannot be tagged tag:yaml.org,2002:str (line 2, column 6)");
        fails("a:\n  - !!map x\n", "a[0]",
            "not valid YAML: a scalar cannot be tagged tag:yaml.org,2002:map (line 2, column 5)");
        fails("a:\n  !!set b: 2\n", "a.b",
            "not valid YAML: a scalar cannot be tagged tag:yaml.org,2002:set (line 2, column 3)");
        fails("a: !!binary aGVsbG8=\n", "", "not valid YAML: could not determine a constructor for the tag " +
            "tag:yaml.org,2002:binary (line 1, column 4)");
        fails("a: !!timestamp 2001-12-14\n", "", "not valid YAML: could not determine a constructor for the tag " +
            "tag:yaml.org,2002:timestamp (line 1, column 4)");
    }

    @Test
    void refusesTagsTheEngineCannotRepresent()
    {
        // Found by NodeConfigFuzzTest: the engine threw IllegalArgumentException out of the reader for these (a
        // percent-escape cut short by the end of the text).
        fails("!%6", "", "not valid YAML: Tag must not contain leading or trailing spaces.");
        fails("a: !%6", "", "not valid YAML: Tag must not contain leading or trailing spaces.");
    }

    @Test
    void refusesDeepNestingWithoutExhaustingTheStack() throws ConfigException
    {
        final String limit = "not valid YAML: Nesting Depth exceeded max 50";
        fails("[".repeat(1_000_000), "", limit);
        fails("a: " + "{b: ".repeat(100_000), "", limit);
        // The top mapping, 49 lists and a scalar: 51 nodes deep, SnakeYAML's limit.
        parse("a: " + "[".repeat(49) + "1" + "]".repeat(49));
        fails("a: " + "[".repeat(50) + "1" + "]".repeat(50), "", limit);
    }

    @Test
    void refusesSecondDocumentAndOversizedText()
    {
        fails("a: 1\n---\nb: 2\n", "", "not valid YAML: expected a single document in the stream, but found another " +
            "document (line 2, column 1)");
        fails("a: " + "x".repeat(1 << 20), "", "not valid YAML: The incoming YAML document exceeds the limit: " +
            "1048576 code points.");
    }

    @Test
    void explicitTagErrorsReachTheOperatorAsConfigErrors()
    {
        final ConfigException ex = assertThrows(ConfigException.class, () -> NodeConfig.parse("node.yaml",
            NodeConfigErrorsTest.with("      rx_ring: 1024\n", "      rx_ring: !!int x\n"), 2));
        assertEquals("node.yaml: not valid YAML: while constructing an int, found \"x\", not an integer " +
            "(line 7, column 16)", ex.getMessage());
    }
}
