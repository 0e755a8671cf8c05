package io.sluice.forwarder.pipeline;

import io.sluice.forwarder.testing.FlowKeyBytes;
import io.sluice.forwarder.testing.PacketBuilder;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.util.Arrays;
import java.util.HexFormat;

import static io.sluice.forwarder.pipeline.PipelineTestbed.OWN_MAC;
import static io.sluice.forwarder.pipeline.PipelineTestbed.ROUTER_MAC;
import static io.sluice.forwarder.testing.FlowKeyBytes.flow;
import static io.sluice.forwarder.testing.FlowKeyBytes.fragment;
import static io.sluice.forwarder.testing.PacketBuilder.PROTO_TCP;
import static io.sluice.forwarder.testing.PacketBuilder.PROTO_UDP;
import static io.sluice.forwarder.testing.PacketBuilder.TCP_SYN;
import static io.sluice.forwarder.testing.PacketBuilder.packet;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Pins where concrete flows go with hash seed 0 and the default table size (65537), so any change to the flow key,
 * the hash, the Maglev builder or the slot reduction is noticed. The values were checked against an independent
 * Python implementation of XXH64 (verified on the reference test vectors) and of Maglev Pseudocode 1 (equal
 * weights, backends in ascending address order, {@code slot = ((hash >>> 32) * M) >>> 32}).
 */
class BackendChoiceGoldenTest
{
    private final PipelineTestbed bed = new PipelineTestbed(PipelineTestbed.config(
        PipelineTestbed.TUNNEL_SOURCE_V4, PipelineTestbed.TUNNEL_SOURCE_V6, 0, PipelineConfig.DEFAULT_TUNNEL_MTU));

    @Test
    void pinsTheBackendOfIpv4Flows()
    {
        assertGolden(ipv4("203.0.113.7", "10.0.0.1").tcp(40000, 80),
            flow("203.0.113.7", "10.0.0.1", 40000, 80, PROTO_TCP), 0x96AAE36296226390L, "192.168.1.12");
        assertGolden(ipv4("203.0.113.7", "10.0.0.1").tcp(40002, 80),
            flow("203.0.113.7", "10.0.0.1", 40002, 80, PROTO_TCP), 0x3158200A976B5F19L, "192.168.1.11");
        assertGolden(ipv4("198.18.0.9", "10.0.0.1").tcp(1234, 80),
            flow("198.18.0.9", "10.0.0.1", 1234, 80, PROTO_TCP), 0x0E743026B98AE4D0L, "192.168.1.10");
        assertGolden(ipv4("203.0.113.7", "10.0.0.1").udp(33333, 53),
            flow("203.0.113.7", "10.0.0.1", 33333, 53, PROTO_UDP), 0xBE7EA383F9775B64L, "192.168.2.11");
        assertGolden(ipv4("203.0.113.7", "10.0.0.1").fragment(3, false).protocol(PROTO_UDP).payload(16),
            fragment("203.0.113.7", "10.0.0.1", PROTO_UDP), 0x9B4D2D41CAAA0B0DL, "192.168.2.11");
    }

    @Test
    void pinsTheBackendAndFlowLabelOfIpv6Flows()
    {
        assertGolden(ipv6("2001:db8:c::7", "2001:db8::1").tcp(50000, 443),
            flow("2001:db8:c::7", "2001:db8::1", 50000, 443, PROTO_TCP), 0x64E6A95A5701FB54L, "2001:db8:b::10");
        assertGolden(ipv6("2001:db8:c::7", "2001:db8::1").tcp(50009, 443),
            flow("2001:db8:c::7", "2001:db8::1", 50009, 443, PROTO_TCP), 0xAB3B88FAA072C6CAL, "2001:db8:b::11");
        assertGolden(ipv6("2001:db8:c::7", "2001:db8::1").fragmentHeader(4, false, 1).protocol(PROTO_TCP).payload(8),
            fragment("2001:db8:c::7", "2001:db8::1", PROTO_TCP), 0xE832FCAC0ED7252BL, "2001:db8:b::10");
    }

    @Test
    void producesTheLiteralIpv4TunnelFrame()
    {
        // Written out by hand from RFC 791 and RFC 2784, checksums computed separately.
        final byte[] expected = HexFormat.of().parseHex(
            "025a000000fe025a0000000108004500" + "004000004000402fccc9ac100001c0a8" +
            "010c0000080045000028000000004006" + "34c8cb0071070a0000019c4000500102" +
            "0304000000005002ffff00000000");
        final PipelineTestbed.Outcome outcome = bed.process(
            ipv4("203.0.113.7", "10.0.0.1").tcp(40000, 80).tcpFlags(TCP_SYN).build(), PipelineTestbed.HEADROOM);
        assertEquals(Verdict.FORWARD, outcome.verdict(), outcome.describe());
        assertArrayEquals(expected, outcome.output(), () -> PacketBuilder.hex(outcome.output()));
    }

    @Test
    void producesTheLiteralIpv6TunnelFrame()
    {
        // Flow label 0x1fb54: the low 20 bits of the flow hash 0x64e6a95a5701fb54.
        final byte[] expected = HexFormat.of().parseHex(
            "025a000000fe025a0000000186dd6001" + "fb5400402f40fd000005000000000000" +
            "00000000000120010db8000b00000000" + "000000000010000086dd600000000014" +
            "064020010db8000c0000000000000000" + "000720010db800000000000000000000" +
            "0001c35001bb01020304000000005002" + "ffff00000000");
        final PipelineTestbed.Outcome outcome = bed.process(
            ipv6("2001:db8:c::7", "2001:db8::1").tcp(50000, 443).tcpFlags(TCP_SYN).build(), PipelineTestbed.HEADROOM);
        assertEquals(Verdict.FORWARD, outcome.verdict(), outcome.describe());
        assertArrayEquals(expected, outcome.output(), () -> PacketBuilder.hex(outcome.output()));
    }

    private void assertGolden(final PacketBuilder packet, final byte[] key, final long hash, final String backend)
    {
        assertEquals(hash, FlowKeyBytes.hash(key, 0), "XXH64 of the canonical key bytes");
        final PipelineTestbed.Outcome outcome = bed.process(packet.build(), PipelineTestbed.HEADROOM);
        assertEquals(Verdict.FORWARD, outcome.verdict(), outcome.describe());
        assertArrayEquals(key, bed.pipeline.lastKey().toBytes(), "flow key parsed from the packet");
        assertEquals(hash, bed.pipeline.lastKey().hash(0), "FlowKey.hash");

        final byte[] frame = outcome.output();
        final boolean ipv6Outer = (frame[14] & 0xF0) == 0x60;
        final byte[] destination = ipv6Outer ? Arrays.copyOfRange(frame, 38, 54) : Arrays.copyOfRange(frame, 30, 34);
        assertEquals(PipelineTestbed.inet(backend), address(destination), "outer destination (backend)");
        if (ipv6Outer)
        {
            final int flowLabel = ((frame[15] & 0x0F) << 16) | ((frame[16] & 0xFF) << 8) | (frame[17] & 0xFF);
            assertEquals((int)hash & 0xF_FFFF, flowLabel, "outer flow label");
        }
    }

    private static InetAddress address(final byte[] octets)
    {
        try
        {
            return InetAddress.getByAddress(octets);
        }
        catch (final java.net.UnknownHostException ex)
        {
            throw new AssertionError(ex);
        }
    }

    private static PacketBuilder ipv4(final String source, final String destination)
    {
        return packet().ethernet(OWN_MAC, ROUTER_MAC).ipv4(source, destination);
    }

    private static PacketBuilder ipv6(final String source, final String destination)
    {
        return packet().ethernet(OWN_MAC, ROUTER_MAC).ipv6(source, destination);
    }
}
