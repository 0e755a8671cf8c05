package io.sluice.forwarder.pipeline;

import io.sluice.forwarder.testing.FlowKeyBytes;
import io.sluice.forwarder.testing.HexDump;
import io.sluice.forwarder.testing.OffHeapFrames;
import io.sluice.forwarder.testing.PacketBuilder;
import io.sluice.forwarder.testing.TunnelFrames;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;

import static io.sluice.forwarder.pipeline.PipelineTestbed.CLIENT_V4;
import static io.sluice.forwarder.pipeline.PipelineTestbed.NEXT_HOP_MAC;
import static io.sluice.forwarder.pipeline.PipelineTestbed.OWN_MAC;
import static io.sluice.forwarder.pipeline.PipelineTestbed.ROUTER_MAC;
import static io.sluice.forwarder.pipeline.PipelineTestbed.TUNNEL_SOURCE_V4;
import static io.sluice.forwarder.pipeline.PipelineTestbed.TUNNEL_SOURCE_V6;
import static io.sluice.forwarder.testing.FlowKeyBytes.flow;
import static io.sluice.forwarder.testing.PacketBuilder.PROTO_TCP;
import static io.sluice.forwarder.testing.PacketBuilder.TCP_SYN;
import static io.sluice.forwarder.testing.PacketBuilder.packet;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * Byte-exact fixtures for the tunnel options of {@link GreEncapsulator}: RFC 2890 key, per-flow outer source from a
 * prefix, 802.1Q tag, each alone and together, IPv4 and IPv6 outer, IPv4 and IPv6 inner. The expected frames come
 * from {@link TunnelFrames}, built from the RFCs; the expected entropy fields are worked out by hand from the flow
 * hash below, not from the code under test.
 */
class GreEncapsulatorOptionsTest
{
    private static final int HEADROOM = 128;
    // Bits 32..63 (the key, and from the lowest the IPv4 host bits): 0x9e3779b9. The hash rotated by 32, whose low
    // bits are the IPv6 host bits: 0x7f4a7c15_9e3779b9. Flow label: the low 20 bits, 0xa7c15.
    private static final long FLOW_HASH = 0x9e37_79b9_7f4a_7c15L;
    private static final int KEY = 0x9e37_79b9;
    private static final int FLOW_LABEL = 0xa_7c15;
    private static final int TOS = 0xb8 | 0x01; // EF, ECT(1)
    private static final String BACKEND_V4 = "192.168.1.10";
    private static final String BACKEND_V6 = "2001:db8:b::10";
    private static final int VLAN = 0x123;

    private static final byte[] INNER_V4 = packet().ipv4("203.0.113.7", "10.0.0.1")
        .tos(TOS).tcp(40_000, 80).payload(new byte[37]).buildIpPacket();
    private static final byte[] INNER_V6 = packet()
        .ipv6("2001:db8:c::7", "2001:db8::1").trafficClass(TOS).udp(40_000, 53).payload(new byte[21]).buildIpPacket();

    private static final TunnelOptions KEY_ONLY = new TunnelOptions(true, null, 0, null, 0, 0);
    private static final TunnelOptions VLAN_ONLY = new TunnelOptions(false, null, 0, null, 0, VLAN);
    // 10.200.0.0/16 takes the low 16 entropy bits 0x79b9: 10.200.121.185. fd00:e::/96 the low 32 bits of the
    // rotated hash, 0x9e3779b9: fd00:e::9e37:79b9.
    private static final TunnelOptions PREFIX_ONLY =
        new TunnelOptions(false, v4("10.200.0.0"), 16, v6("fd00:e::"), 96, 0);
    private static final TunnelOptions ALL = new TunnelOptions(true, v4("10.200.0.0"), 16, v6("fd00:e::"), 96, VLAN);
    private static final String FLOW_SOURCE_V4 = "10.200.121.185";
    private static final String FLOW_SOURCE_V6 = "fd00:e::9e37:79b9";

    @Test
    void writesTheGreKeyForIpv4AndIpv6Outer()
    {
        check(KEY_ONLY, false, INNER_V4, TUNNEL_SOURCE_V4, 0, KEY);
        check(KEY_ONLY, false, INNER_V6, TUNNEL_SOURCE_V4, 0, KEY);
        check(KEY_ONLY, true, INNER_V4, TUNNEL_SOURCE_V6, 0, KEY);
        check(KEY_ONLY, true, INNER_V6, TUNNEL_SOURCE_V6, 0, KEY);
    }

    @Test
    void writesTheVlanTagWithoutKey()
    {
        check(VLAN_ONLY, false, INNER_V4, TUNNEL_SOURCE_V4, VLAN, null);
        check(VLAN_ONLY, true, INNER_V6, TUNNEL_SOURCE_V6, VLAN, null);
    }

    @Test
    void writesTheVlanPriorityInTheTag()
    {
        // vlan_pcp 5 on VLAN 0x123: TCI = PCP 101, DEI 0, VID 0x123 = 0xA123 (IEEE 802.1Q), on both outer families
        final TunnelOptions options = new TunnelOptions(false, null, 0, null, 0, VLAN, 5);
        assertEquals(0xA123, options.vlanTci());
        check(options, false, INNER_V4, TUNNEL_SOURCE_V4, 0xA123, null);
        check(options, true, INNER_V6, TUNNEL_SOURCE_V6, 0xA123, null);
        check(new TunnelOptions(true, v4("10.200.0.0"), 16, v6("fd00:e::"), 96, VLAN, 7), true, INNER_V4,
            FLOW_SOURCE_V6, 0xE123, KEY);
        assertEquals(5, options.withVlan(0x456).vlanPcp());
        assertEquals(0, options.withVlan(0).vlanPcp());
        assertThrows(IllegalArgumentException.class, () -> new TunnelOptions(false, null, 0, null, 0, VLAN, 8));
        assertThrows(IllegalArgumentException.class, () -> new TunnelOptions(false, null, 0, null, 0, 0, 3));
    }

    @Test
    void takesThePerFlowSourceFromThePrefix()
    {
        check(PREFIX_ONLY, false, INNER_V4, FLOW_SOURCE_V4, 0, null);
        check(PREFIX_ONLY, false, INNER_V6, FLOW_SOURCE_V4, 0, null);
        check(PREFIX_ONLY, true, INNER_V4, FLOW_SOURCE_V6, 0, null);
        check(PREFIX_ONLY, true, INNER_V6, FLOW_SOURCE_V6, 0, null);
    }

    @Test
    void combinesKeyPrefixAndVlan()
    {
        check(ALL, false, INNER_V4, FLOW_SOURCE_V4, VLAN, KEY);
        check(ALL, true, INNER_V6, FLOW_SOURCE_V6, VLAN, KEY);
    }

    @Test
    void keepsThePrefixBitsOfAPrefixWrittenWithHostBits()
    {
        // 10.200.255.255/16 is read as 10.200.0.0/16 (the config reader refuses host bits; the encapsulator masks).
        final TunnelOptions options = new TunnelOptions(false, v4("10.200.255.255"), 16, null, 0, 0);
        check(options, false, INNER_V4, FLOW_SOURCE_V4, 0, null);
    }

    @Test
    void plainOptionsWriteTheDefaultFrame()
    {
        check(TunnelOptions.NONE, false, INNER_V4, TUNNEL_SOURCE_V4, 0, null);
        check(TunnelOptions.NONE, true, INNER_V6, TUNNEL_SOURCE_V6, 0, null);
    }

    @Test
    void reportsTheOuterHeaderLengthAndTheOverheadAgainstTheTunnelMtu()
    {
        final PipelineConfig config = config(9000);
        assertLengths(new GreEncapsulator(config), 38, 58, 24, 44);
        assertLengths(new GreEncapsulator(config, KEY_ONLY), 42, 62, 28, 48);
        assertLengths(new GreEncapsulator(config, VLAN_ONLY), 42, 62, 24, 44);
        assertLengths(new GreEncapsulator(config, PREFIX_ONLY), 38, 58, 24, 44);
        assertLengths(new GreEncapsulator(config, ALL), 46, 66, 28, 48);
    }

    @Test
    void countsTheKeyAgainstTheTunnelMtuButNotTheTag()
    {
        // IPv4 outer with key: 20 + 8 + inner must be <= tunnel_mtu; the tag is outside the IP packet.
        final int mtu = 600;
        final byte[] inner = packet().ipv4("203.0.113.7", "10.0.0.1").tcp(40_000, 80)
            .payload(new byte[mtu - 28 - 40]).buildIpPacket();
        final GreEncapsulator fits = new GreEncapsulator(config(mtu), ALL);
        final GreEncapsulator tooBig = new GreEncapsulator(config(mtu - 1), ALL);
        final GreEncapsulator plain = new GreEncapsulator(config(mtu - 1));
        assertEquals(HEADROOM - 46, encapsulate(fits, inner, HEADROOM, false).start());
        assertEquals(-1 - DropReason.ENCAPSULATED_TOO_BIG.ordinal(),
            encapsulate(tooBig, inner, HEADROOM, false).start());
        assertEquals(HEADROOM - 38, encapsulate(plain, inner, HEADROOM, false).start(), "without the key it fits");
    }

    @Test
    void needsHeadroomForTheTagAndTheKey()
    {
        final GreEncapsulator encapsulator = new GreEncapsulator(config(9000), ALL);
        assertEquals(0, encapsulate(encapsulator, INNER_V4, 46, false).start());
        assertEquals(-1 - DropReason.NO_HEADROOM.ordinal(),
            encapsulate(encapsulator, INNER_V4, 45, false).start());
        assertEquals(-1 - DropReason.NO_HEADROOM.ordinal(),
            encapsulate(encapsulator, INNER_V6, 65, true).start());
    }

    @Test
    void aPipelineWithOptionsForwardsWithKeyTagAndPerFlowSource()
    {
        final PipelineTestbed bed = new PipelineTestbed(config(9000), ALL);
        final byte[] key = flow(CLIENT_V4, "10.0.0.1", 40_001, 80, PROTO_TCP);
        final PacketBuilder builder = packet().ethernet(OWN_MAC, ROUTER_MAC).ipv4(CLIENT_V4, "10.0.0.1").tcp(40_001, 80)
            .tcpFlags(TCP_SYN);
        final byte[] frame = builder.build();
        final PipelineTestbed.Outcome outcome = bed.process(frame, HEADROOM);
        assertEquals(Verdict.FORWARD, outcome.verdict());
        final long hash = FlowKeyBytes.hash(key, bed.config.hashSeed());
        final int entropy = (int)(hash >>> 32);
        final byte[] source = {10, (byte)200, (byte)(entropy >>> 8), (byte)entropy};
        final byte[] expected = TunnelFrames.greWithOptions(NEXT_HOP_MAC, OWN_MAC, VLAN, source,
            bed.backend(outcome.backend()).getAddress(), 0, 0, entropy, builder.ipPacket());
        final byte[] actual = OffHeapFrames.copy(
            new UnsafeBuffer(outcome.memory()), outcome.outOffset(), outcome.outOffset() + outcome.outLength());
        assertArrayEquals(expected, actual, () -> "expected " + HexDump.hex(expected) + "\nactual   " +
            HexDump.hex(actual));
    }

    private static void assertLengths(final GreEncapsulator encapsulator, final int outerV4, final int outerV6,
        final int overheadV4, final int overheadV6)
    {
        assertEquals(outerV4, encapsulator.outerHeaderLength(false));
        assertEquals(outerV6, encapsulator.outerHeaderLength(true));
        assertEquals(overheadV4, encapsulator.tunnelOverhead(false));
        assertEquals(overheadV6, encapsulator.tunnelOverhead(true));
        // The MTU an ICMP too-big error reports is what the tunnel leaves of config(9000)'s MTU: the key counts.
        assertEquals(9000 - overheadV4, encapsulator.innerMtu(false));
        assertEquals(9000 - overheadV6, encapsulator.innerMtu(true));
    }

    private static void check(final TunnelOptions options, final boolean backendIpv6, final byte[] inner,
        final String outerSource, final int vlan, final Integer key)
    {
        final GreEncapsulator encapsulator = new GreEncapsulator(config(9000), options);
        final Result result = encapsulate(encapsulator, inner, HEADROOM, backendIpv6);
        final UnsafeBuffer buffer = result.buffer();
        final int start = result.start();
        final byte[] expected = TunnelFrames.greWithOptions(NEXT_HOP_MAC, OWN_MAC, vlan, address(outerSource),
            address(backendIpv6 ? BACKEND_V6 : BACKEND_V4), TOS, FLOW_LABEL, key, inner);
        final byte[] actual = OffHeapFrames.copy(buffer, Math.max(0, start), buffer.capacity());
        assertArrayEquals(expected, actual, () -> options + " backend IPv6 " + backendIpv6 + "\nexpected " +
            HexDump.hex(expected) + "\nactual   " + HexDump.hex(actual));
        assertEquals(HEADROOM - encapsulator.outerHeaderLength(backendIpv6), start);
    }

    private record Result(int start, UnsafeBuffer buffer)
    {
    }

    private static Result encapsulate(final GreEncapsulator encapsulator, final byte[] inner, final int headroom,
        final boolean backendIpv6)
    {
        final UnsafeBuffer buffer = OffHeapFrames.behindHeadroom(inner, headroom);
        final boolean innerIpv6 = (inner[0] & 0xF0) == 0x60;
        final byte[] backend = address(backendIpv6 ? BACKEND_V6 : BACKEND_V4);
        final long high = backendIpv6 ? word(backend, 0) : (word4(backend) & 0xFFFF_FFFFL);
        final long low = backendIpv6 ? word(backend, 8) : 0;
        return new Result(encapsulator.encapsulate(buffer, headroom, inner.length, innerIpv6, TOS, FLOW_HASH,
            backendIpv6, high, low), buffer);
    }

    private static PipelineConfig config(final int tunnelMtu)
    {
        return PipelineTestbed.config(TUNNEL_SOURCE_V4, TUNNEL_SOURCE_V6, PipelineTestbed.SEED, tunnelMtu);
    }

    private static long word(final byte[] octets, final int from)
    {
        long value = 0;
        for (int i = from; i < from + 8; i++)
        {
            value = (value << 8) | (octets[i] & 0xFF);
        }
        return value;
    }

    private static int word4(final byte[] octets)
    {
        return (int)(word(new byte[] {0, 0, 0, 0, octets[0], octets[1], octets[2], octets[3]}, 0));
    }

    private static byte[] address(final String text)
    {
        try
        {
            return InetAddress.getByName(text).getAddress();
        }
        catch (final UnknownHostException ex)
        {
            throw new IllegalArgumentException(text, ex);
        }
    }

    private static Inet4Address v4(final String text)
    {
        return (Inet4Address)inet(text);
    }

    private static Inet6Address v6(final String text)
    {
        return (Inet6Address)inet(text);
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
