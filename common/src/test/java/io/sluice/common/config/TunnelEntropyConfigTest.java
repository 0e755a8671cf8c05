package io.sluice.common.config;

import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.net.UnknownHostException;

import static io.sluice.common.config.NodeConfigErrorsTest.with;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code forwarder.tunnel_entropy} and the per-port {@code vlan}: what they read to, and each mistake with its
 * field and reason.
 */
class TunnelEntropyConfigTest
{
    private static final String SOURCE = "  tunnel_source_v4: 10.0.0.1\n";
    private static final String PORT = "    - name: net_pcap0\n";

    @Test
    void defaultsToFixedHeadersAndUntaggedPorts() throws ConfigException
    {
        final ForwarderConfig forwarder = parse(NodeConfigErrorsTest.BASE);
        assertTrue(forwarder.tunnelEntropy().isNone());
        assertEquals(0, forwarder.ports().get(0).vlan());
    }

    @Test
    void readsKeyPrefixesAndVlan() throws ConfigException
    {
        final ForwarderConfig forwarder = parse(with(SOURCE, SOURCE + """
              tunnel_source_v6: fd00::1
              tunnel_entropy:
                gre_key: true
                source_prefix_v4: 10.200.0.0/16
                source_prefix_v6: fd00:e::/96
            """).replace(PORT, PORT + "      vlan: 100\n"));
        final TunnelEntropyConfig entropy = forwarder.tunnelEntropy();
        assertTrue(entropy.greKey());
        assertEquals(inet("10.200.0.0"), entropy.sourcePrefixV4());
        assertEquals(16, entropy.sourcePrefixV4Length());
        assertEquals(inet("fd00:e::"), entropy.sourcePrefixV6());
        assertEquals(96, entropy.sourcePrefixV6Length());
        assertFalse(entropy.isNone());
        assertEquals(100, forwarder.ports().get(0).vlan());
    }

    @Test
    void refusesBadEntropySettings()
    {
        fails(entropy("gre_key: yes please"), "forwarder.tunnel_entropy.gre_key", "");
        fails(entropy("source_prefix_v4: 10.200.0.0"), "forwarder.tunnel_entropy.source_prefix_v4",
            "ADDRESS/LENGTH");
        fails(entropy("source_prefix_v4: 10.200.0.0/7"), "forwarder.tunnel_entropy.source_prefix_v4",
            "IPv4 prefix length must be 8..31");
        fails(entropy("source_prefix_v4: 10.200.0.0/32"), "forwarder.tunnel_entropy.source_prefix_v4",
            "IPv4 prefix length must be 8..31");
        fails(entropy("source_prefix_v4: 10.200.0.0/x"), "forwarder.tunnel_entropy.source_prefix_v4",
            "is not a number");
        fails(entropy("source_prefix_v4: 10.200.0.1/16"), "forwarder.tunnel_entropy.source_prefix_v4",
            "host bits set");
        fails(entropy("source_prefix_v4: fd00::/64"), "forwarder.tunnel_entropy.source_prefix_v4", "");
        fails(entropy("source_prefix_v4: 224.0.0.0/8"), "forwarder.tunnel_entropy.source_prefix_v4", "unicast");
        fails(entropy("source_prefix_v6: \"fd00::/63\""), "forwarder.tunnel_entropy.source_prefix_v6",
            "IPv6 prefix length must be 64..127");
        fails(entropy("source_prefix_v6: \"fd00::/64\""), "forwarder.tunnel_entropy.source_prefix_v6",
            "needs forwarder.tunnel_source_v6");
        fails(entropy("gre_keys: true"), "forwarder.tunnel_entropy.gre_keys", "");
    }

    @Test
    void refusesBadVlans()
    {
        fails(NodeConfigErrorsTest.BASE.replace(PORT, PORT + "      vlan: 4095\n"), "forwarder.ports[0].vlan",
            "1..4094");
        fails(NodeConfigErrorsTest.BASE.replace(PORT, PORT + "      vlan: 0\n"), "forwarder.ports[0].vlan",
            "1..4094");
        fails(NodeConfigErrorsTest.BASE.replace(PORT, PORT + "      kernel_port: net_tap0\n" +
            "    - name: net_tap0\n      vlan: 7\n"), "forwarder.ports[1].vlan", "is a kernel port");
    }

    @Test
    void readsTheVlanPriorityDefaultingToZero() throws ConfigException
    {
        assertEquals(0, parse(NodeConfigErrorsTest.BASE.replace(PORT, PORT + "      vlan: 100\n")).ports().get(0)
            .vlanPcp());
        assertEquals(5, parse(NodeConfigErrorsTest.BASE.replace(PORT, PORT + "      vlan: 100\n      vlan_pcp: 5\n"))
            .ports().get(0).vlanPcp());
    }

    @Test
    void refusesBadVlanPriorities()
    {
        fails(NodeConfigErrorsTest.BASE.replace(PORT, PORT + "      vlan: 100\n      vlan_pcp: 8\n"),
            "forwarder.ports[0].vlan_pcp", "0..7");
        fails(NodeConfigErrorsTest.BASE.replace(PORT, PORT + "      vlan: 100\n      vlan_pcp: -1\n"),
            "forwarder.ports[0].vlan_pcp", "0..7");
        fails(NodeConfigErrorsTest.BASE.replace(PORT, PORT + "      vlan_pcp: 3\n"), "forwarder.ports[0].vlan_pcp",
            "set vlan too");
    }

    private static String entropy(final String line)
    {
        return with(SOURCE, SOURCE + "  tunnel_entropy:\n    " + line + "\n");
    }

    private static ForwarderConfig parse(final String yaml) throws ConfigException
    {
        return NodeConfig.parse("node.yaml", yaml, 2).forwarder();
    }

    private static void fails(final String yaml, final String field, final String reasonPart)
    {
        final ConfigException ex = assertThrows(ConfigException.class, () -> parse(yaml), yaml);
        assertEquals(field, ex.field(), ex.getMessage());
        assertTrue(ex.reason().contains(reasonPart), "reason \"" + ex.reason() + "\" lacks \"" + reasonPart + "\"");
    }

    private static InetAddress inet(final String text)
    {
        try
        {
            return InetAddress.getByName(text);
        }
        catch (final UnknownHostException ex)
        {
            throw new IllegalArgumentException(text, ex);
        }
    }
}
