package io.sluice.common.config;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code controller.bgp.neighbors[i].bfd} and {@code controller.bgp.bfd_speaker}: values, defaults, and one test per
 * mistake with the exact field path and part of the reason.
 */
class BfdConfigTest
{
    private static String node(final String neighbors, final String extra)
    {
        return NodeConfigErrorsTest.BASE + "controller:\n  bgp:\n" + ("local_as: 65001\npeer_as: 65000\n" +
            "router_id: 10.10.1.2\nlocal_address: 10.10.1.2\nneighbors:\n" + neighbors.indent(2) + extra).indent(4);
    }

    private static BgpConfig parse(final String yaml) throws ConfigException
    {
        return NodeConfig.parse("node.yaml", yaml, 2).controller().bgp();
    }

    private static void fails(final String yaml, final String field, final String... reasonParts)
    {
        final ConfigException ex = assertThrows(ConfigException.class, () -> parse(yaml));
        assertEquals(field, ex.field(), ex.getMessage());
        for (final String part : reasonParts)
        {
            assertTrue(ex.reason().contains(part), "reason \"" + ex.reason() + "\" lacks \"" + part + "\"");
        }
    }

    @Test
    void readsBfdTimersAndDefaults() throws Exception
    {
        final BgpConfig bgp = parse(node("""
            - {address: 10.10.1.1, bfd: {min_rx: 50ms, min_tx: 200ms, multiplier: 5}}
            - 10.10.1.3
            - {address: 10.10.1.4, bfd: {enabled: false}}
            """, ""));
        assertEquals(new BfdConfig(true, 50, 200, 5), bgp.sessions().get(0).bfd());
        assertEquals(BfdConfig.OFF, bgp.sessions().get(1).bfd());
        assertEquals(new BfdConfig(false, 100, 100, 3), bgp.sessions().get(2).bfd());
        assertEquals(List.of(bgp.sessions().get(0)), bgp.bfdSessions());
        assertEquals(BgpConfig.DEFAULT_BFD_COMMAND, bgp.bfdCommand());
        assertTrue(bgp.sessions().get(0).describe().endsWith(", bfd rx 50ms tx 200ms x5"),
            bgp.sessions().get(0).describe());
        assertEquals(-1, bgp.sessions().get(1).describe().indexOf("bfd"));
    }

    @Test
    void emptyBfdMappingMeansOnWithDefaultTimers() throws Exception
    {
        final BgpConfig bgp = parse(node("- {address: 10.10.1.1, bfd: {}}\n",
            "bfd_speaker: {command: ip netns exec lb1 bird}\n"));
        assertEquals(new BfdConfig(true, 100, 100, 3), bgp.sessions().get(0).bfd());
        assertEquals("ip netns exec lb1 bird", bgp.bfdCommand());
    }

    @Test
    void refusesBadIntervals()
    {
        fails(node("- {address: 10.10.1.1, bfd: {min_rx: 5ms}}\n", ""), "controller.bgp.neighbors[0].bfd.min_rx",
            "whole milliseconds from 10ms to 60000ms", "5ms");
        fails(node("- {address: 10.10.1.1, bfd: {min_tx: 2m}}\n", ""), "controller.bgp.neighbors[0].bfd.min_tx",
            "whole milliseconds");
    }

    @Test
    void refusesBadMultiplierAndUnknownKey()
    {
        fails(node("- {address: 10.10.1.1, bfd: {multiplier: 0}}\n", ""),
            "controller.bgp.neighbors[0].bfd.multiplier");
        fails(node("- {address: 10.10.1.1, bfd: {multiplier: 256}}\n", ""),
            "controller.bgp.neighbors[0].bfd.multiplier");
        fails(node("- {address: 10.10.1.1, bfd: {interval: 100ms}}\n", ""),
            "controller.bgp.neighbors[0].bfd.interval", "unknown key");
        fails(node("- {address: 10.10.1.1, bfd: true}\n", ""), "controller.bgp.neighbors[0].bfd",
            "expected a mapping");
    }

    @Test
    void refusesDifferentTimersOnTwoNeighbors()
    {
        fails(node("""
            - {address: 10.10.1.1, bfd: {min_rx: 100ms}}
            - {address: 10.10.1.3, bfd: {min_rx: 300ms}}
            """, ""), "controller.bgp.neighbors[1].bfd", "differ from neighbors[0].bfd", "one set of timers");
    }

    @Test
    void refusesBlankSpeakerCommand()
    {
        fails(node("- {address: 10.10.1.1, bfd: {}}\n", "bfd_speaker: {command: \" \"}\n"),
            "controller.bgp.bfd_speaker.command", "BIRD");
        fails(node("- 10.10.1.1\n", "bfd_speaker: {cmd: bird}\n"), "controller.bgp.bfd_speaker.cmd",
            "unknown key");
    }
}
