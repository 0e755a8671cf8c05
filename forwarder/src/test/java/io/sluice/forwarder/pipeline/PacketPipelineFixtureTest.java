package io.sluice.forwarder.pipeline;

import io.sluice.forwarder.testing.PacketBuilder;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static io.sluice.forwarder.pipeline.PipelineTestbed.ANY_PORT_V4;
import static io.sluice.forwarder.pipeline.PipelineTestbed.CLIENT_V4;
import static io.sluice.forwarder.pipeline.PipelineTestbed.CLIENT_V6;
import static io.sluice.forwarder.pipeline.PipelineTestbed.DNS_V6;
import static io.sluice.forwarder.pipeline.PipelineTestbed.EMPTY_V4;
import static io.sluice.forwarder.pipeline.PipelineTestbed.OWN_MAC;
import static io.sluice.forwarder.pipeline.PipelineTestbed.ROUTER_MAC;
import static io.sluice.forwarder.pipeline.PipelineTestbed.ROUTER_V4;
import static io.sluice.forwarder.pipeline.PipelineTestbed.ROUTER_V6;
import static io.sluice.forwarder.pipeline.PipelineTestbed.TUNNEL_SOURCE_V4;
import static io.sluice.forwarder.pipeline.PipelineTestbed.TUNNEL_SOURCE_V6;
import static io.sluice.forwarder.pipeline.PipelineTestbed.UNAVAILABLE_V4;
import static io.sluice.forwarder.pipeline.PipelineTestbed.V6_BACKEND_V4;
import static io.sluice.forwarder.pipeline.PipelineTestbed.WEB_V4;
import static io.sluice.forwarder.pipeline.PipelineTestbed.WEB_V6;
import static io.sluice.forwarder.testing.FlowKeyBytes.flow;
import static io.sluice.forwarder.testing.PacketBuilder.PROTO_TCP;
import static io.sluice.forwarder.testing.PacketBuilder.PROTO_UDP;
import static io.sluice.forwarder.testing.PacketBuilder.TCP_ACK;
import static io.sluice.forwarder.testing.PacketBuilder.TCP_PSH;
import static io.sluice.forwarder.testing.PacketBuilder.TCP_SYN;
import static io.sluice.forwarder.testing.PacketBuilder.bytes;
import static io.sluice.forwarder.testing.PacketBuilder.packet;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Byte-exact fixtures for {@link PacketPipeline}, Katran style: every fixture is run through a real pipeline, the
 * encapsulated frame compared byte for byte with one built independently from the RFCs, and afterwards every
 * counter (verdicts, drop and pass reasons, per VIP, per backend, connection table) is asserted exactly.
 * Forwarding, ICMP and fragment fixtures are in {@link ForwardingFixtures}; pass and drop fixtures here.
 */
class PacketPipelineFixtureTest
{
    private static final int MTU = 576;

    private final PipelineTestbed standard = PipelineTestbed.standard();
    private final PipelineTestbed smallMtu = new PipelineTestbed(
        PipelineTestbed.config(TUNNEL_SOURCE_V4, TUNNEL_SOURCE_V6, PipelineTestbed.SEED, MTU));
    private final PipelineTestbed v4SourceOnly = new PipelineTestbed(
        PipelineTestbed.config(TUNNEL_SOURCE_V4, null, PipelineTestbed.SEED, PipelineConfig.DEFAULT_TUNNEL_MTU));
    private final PipelineTestbed v6SourceOnly = new PipelineTestbed(
        PipelineTestbed.config(null, TUNNEL_SOURCE_V6, PipelineTestbed.SEED, PipelineConfig.DEFAULT_TUNNEL_MTU));

    @Test
    void handlesEveryFixtureByteForByteAndCountsExactly()
    {
        final List<Fixture> fixtures = allFixtures();
        final Set<String> descriptions = new HashSet<>();
        for (final Fixture fixture : fixtures)
        {
            assertTrue(descriptions.add(fixture.description()), "duplicate description " + fixture.description());
        }
        final List<String> failures = Fixture.runAll(fixtures);
        assertEquals(List.of(), failures, failures.size() + " of " + fixtures.size() + " fixtures failed");

        standard.expected.assertMatches("standard", standard.counters);
        smallMtu.expected.assertMatches("tunnel MTU " + MTU, smallMtu.counters);
        v4SourceOnly.expected.assertMatches("IPv4 tunnel source only", v4SourceOnly.counters);
        v6SourceOnly.expected.assertMatches("IPv6 tunnel source only", v6SourceOnly.counters);
    }

    @Test
    void coversEveryDropAndPassReason()
    {
        final Set<DropReason> drops = EnumSet.noneOf(DropReason.class);
        final Set<PassReason> passes = EnumSet.noneOf(PassReason.class);
        for (final Fixture fixture : allFixtures())
        {
            if (fixture.dropReason() != null)
            {
                drops.add(fixture.dropReason());
            }
            if (fixture.passReason() != null)
            {
                passes.add(fixture.passReason());
            }
        }
        // FRAME_CHAINED is decided by the I/O layer before the pipeline sees a frame (ForwarderProcessTest). These
        // fixtures run without an echo responder; its two drops are IcmpEchoTest's. FRAGMENT_NO_BUFFER is the
        // worker's, when its pool has no mbufs for the later outer fragments (OuterFragmentTest).
        assertEquals(EnumSet.complementOf(EnumSet.of(DropReason.FRAME_CHAINED, DropReason.ICMP_RATE_LIMITED,
            DropReason.ICMP_ECHO_BAD_SOURCE, DropReason.FRAGMENT_NO_BUFFER)), drops);
        assertEquals(EnumSet.allOf(PassReason.class), passes);
    }

    @Test
    void spreadsFixtureFlowsOverSeveralBackendsOfOneVip()
    {
        // Otherwise a pipeline that always picked the first backend would pass the byte comparison.
        final Set<Integer> webBackends = new HashSet<>();
        final Set<Integer> anyPortBackends = new HashSet<>();
        final Set<Integer> webV6Backends = new HashSet<>();
        for (final Fixture fixture : allFixtures())
        {
            if (fixture.verdict() == Verdict.FORWARD && fixture.bed() == standard)
            {
                (fixture.vip().equals(WEB_V4) ? webBackends : fixture.vip().equals(ANY_PORT_V4) ? anyPortBackends :
                    fixture.vip().equals(WEB_V6) ? webV6Backends : new HashSet<Integer>()).add(fixture.backend());
            }
        }
        assertEquals(3, webBackends.size(), "10.0.0.1:80 backends used");
        assertEquals(3, anyPortBackends.size(), "10.0.0.2:* backends used");
        assertEquals(2, webV6Backends.size(), "[2001:db8::1]:443 backends used");
    }

    @Test
    void sendsEveryFragmentOfAnIpv6DatagramTheSameWay()
    {
        // RFC 8200 §4.5: only the first fragment carries the headers of the fragmentable part; later ones carry
        // payload, which may look like anything. The verdict and backend must not depend on it.
        final PipelineTestbed bed = PipelineTestbed.standard();
        final byte[][] payloadStarts = {
            bytes(0x30, 0x31), bytes(PROTO_TCP, 0), bytes(PROTO_UDP, 0), bytes(PacketBuilder.PROTO_DSTOPTS, 0),
            bytes(PacketBuilder.PROTO_FRAGMENT, 0), bytes(0, 0xFF)};
        for (final int firstHeader : new int[] {PROTO_TCP, PROTO_UDP, PacketBuilder.PROTO_DSTOPTS})
        {
            final PacketBuilder first = ipv6(CLIENT_V6, "2001:db8::1").fragmentHeader(0, true, firstHeader);
            if (firstHeader == PacketBuilder.PROTO_DSTOPTS)
            {
                first.destinationOptions(8);
            }
            final PipelineTestbed.Outcome expected = bed.process(
                (firstHeader == PROTO_UDP ? first.udp(50000, 53) : first.tcp(50000, 443)).payload(16).build(),
                PipelineTestbed.HEADROOM);
            for (final byte[] start : payloadStarts)
            {
                final byte[] payload = PacketBuilder.pattern(32, 0x40);
                System.arraycopy(start, 0, payload, 0, start.length);
                final PipelineTestbed.Outcome later = bed.process(ipv6(CLIENT_V6, "2001:db8::1")
                    .fragmentHeader(6, false, firstHeader).protocol(firstHeader).payload(payload).build(),
                    PipelineTestbed.HEADROOM);
                final String what = "fragment header next header " + firstHeader + ", payload starting " +
                    (start[0] & 0xFF) + ": first " + expected.describe() + ", later " + later.describe();
                assertEquals(expected.verdict(), later.verdict(), what);
                if (expected.verdict() == Verdict.FORWARD)
                {
                    assertEquals(expected.backend(), later.backend(), what);
                }
            }
        }
    }

    private List<Fixture> allFixtures()
    {
        final ForwardingFixtures forwarding = new ForwardingFixtures(standard);
        final List<Fixture> fixtures = new ArrayList<>();
        fixtures.addAll(forwarding.ipv4());
        fixtures.addAll(forwarding.ipv6());
        fixtures.addAll(forwarding.fragments());
        fixtures.addAll(forwarding.icmpErrors());
        fixtures.addAll(passFixtures());
        fixtures.addAll(malformedFrameFixtures());
        fixtures.addAll(malformedTransportFixtures());
        fixtures.addAll(undeliverableFixtures());
        return fixtures;
    }

    private static PacketBuilder ipv4(final String source, final String destination)
    {
        return packet().ethernet(OWN_MAC, ROUTER_MAC).ipv4(source, destination);
    }

    private static PacketBuilder ipv6(final String source, final String destination)
    {
        return packet().ethernet(OWN_MAC, ROUTER_MAC).ipv6(source, destination);
    }

    private static byte[] arpRequest()
    {
        return bytes(0, 1, 8, 0, 6, 4, 0, 1, 2, 0x5a, 0, 0, 0, 0xaa, 198, 51, 100, 1, 0, 0, 0, 0, 0, 0, 10, 0, 0, 1);
    }

    private List<Fixture> passFixtures()
    {
        final PipelineTestbed bed = standard;
        final byte[] vipToClient = packet().ipv4("10.0.0.1", CLIENT_V4).tcp(80, 40000).buildIpPacket();
        final byte[] echo = PacketBuilder.pattern(32, 0x61);
        return List.of(
            Fixture.pass("ARP request", bed,
                packet().ethernet(-1L & 0xFFFF_FFFF_FFFFL, ROUTER_MAC).etherType(PacketBuilder.ETHERTYPE_ARP)
                    .payload(arpRequest()).build(), PassReason.NOT_IP),
            Fixture.pass("ARP request in VLAN 100", bed,
                packet().ethernet(OWN_MAC, ROUTER_MAC).vlan(100).etherType(PacketBuilder.ETHERTYPE_ARP)
                    .payload(arpRequest()).build(), PassReason.NOT_IP),
            Fixture.pass("LLDP", bed, packet().ethernet(OWN_MAC, ROUTER_MAC).etherType(PacketBuilder.ETHERTYPE_LLDP)
                .payload(PacketBuilder.pattern(30, 2)).build(), PassReason.NOT_IP),
            Fixture.pass("802.1ad S-tag: only 802.1Q is parsed", bed,
                ipv4(CLIENT_V4, "10.0.0.1").vlanTag(PacketBuilder.ETHERTYPE_QINQ, 200).tcp(40000, 80).build(),
                PassReason.NOT_IP),
            Fixture.pass("two stacked 802.1Q tags: only one is parsed", bed,
                packet().ethernet(OWN_MAC, ROUTER_MAC).vlan(100).etherType(PacketBuilder.ETHERTYPE_VLAN)
                    .payload(concat(bytes(0, 200, 0x08, 0x00), vipToClient)).build(), PassReason.NOT_IP),
            Fixture.pass("IPv4 TCP to an address without VIP", bed,
                ipv4(CLIENT_V4, "10.0.0.9").tcp(40000, 80).build(), PassReason.NO_VIP),
            Fixture.pass("IPv4 TCP to a VIP address on another port", bed,
                ipv4(CLIENT_V4, "10.0.0.1").tcp(40000, 443).build(), PassReason.NO_VIP),
            Fixture.pass("IPv4 UDP to the all-ports TCP VIP address", bed,
                ipv4(CLIENT_V4, "10.0.0.2").udp(40000, 53).build(), PassReason.NO_VIP),
            Fixture.pass("IPv4 UDP to the TCP port of a VIP address", bed,
                ipv4(CLIENT_V4, "10.0.0.1").udp(40000, 80).build(), PassReason.NO_VIP),
            Fixture.pass("IPv4 TCP from a VIP to a client (wrong direction)", bed,
                ipv4("10.0.0.1", CLIENT_V4).tcp(80, 40000).build(), PassReason.NO_VIP),
            Fixture.pass("IPv6 TCP to the IPv6 VIP address on port 80", bed,
                ipv6(CLIENT_V6, "2001:db8::1").tcp(50000, 80).build(), PassReason.NO_VIP),
            Fixture.pass("IPv6 TCP to an address without VIP", bed,
                ipv6(CLIENT_V6, "2001:db8::2").tcp(50000, 443).build(), PassReason.NO_VIP),
            Fixture.pass("IPv4 fragment to an address without VIP", bed,
                ipv4(CLIENT_V4, "10.0.0.9").fragment(0, true).tcp(40000, 80).build(), PassReason.NO_VIP),
            Fixture.pass("IPv4 UDP fragment to an address with only a TCP VIP", bed,
                ipv4(CLIENT_V4, "10.0.0.2").fragment(10, false).protocol(PROTO_UDP).payload(16).build(),
                PassReason.NO_VIP),
            Fixture.pass("ICMPv4 fragmentation needed quoting a flow of a non-VIP address", bed,
                ipv4(ROUTER_V4, "10.0.0.9").icmpv4(3, 4, 1400,
                    packet().ipv4("10.0.0.9", CLIENT_V4).tcp(80, 40000).buildIpPacket()).build(), PassReason.NO_VIP),
            Fixture.pass("ICMPv4 error quoting a later fragment: its payload is no port pair", bed,
                ipv4(ROUTER_V4, "10.0.0.1").icmpv4(3, 4, 1400,
                    packet().ipv4("10.0.0.1", CLIENT_V4).fragment(100, false).protocol(PROTO_TCP)
                        .payload(bytes(0x00, 0x50, 0x9c, 0x41, 1, 2, 3, 4)).buildIpPacket()).build(),
                PassReason.NOT_LOAD_BALANCED),
            Fixture.pass("ICMPv4 echo request to a VIP", bed,
                ipv4(CLIENT_V4, "10.0.0.1").icmpv4(8, 0, 0x0001_0001, echo).build(), PassReason.NOT_LOAD_BALANCED),
            Fixture.pass("ICMPv4 echo reply to a VIP", bed,
                ipv4(CLIENT_V4, "10.0.0.1").icmpv4(0, 0, 0x0001_0001, echo).build(), PassReason.NOT_LOAD_BALANCED),
            Fixture.pass("ICMPv4 time exceeded quoting a VIP flow", bed,
                ipv4(ROUTER_V4, "10.0.0.1").icmpv4(11, 0, 0, vipToClient).build(), PassReason.NOT_LOAD_BALANCED),
            Fixture.pass("ICMPv4 destination unreachable quoting an ICMP echo", bed,
                ipv4(ROUTER_V4, "10.0.0.1").icmpv4(3, 1, 0,
                    packet().ipv4("10.0.0.1", CLIENT_V4).icmpv4(0, 0, 1, echo).buildIpPacket()).build(),
                PassReason.NOT_LOAD_BALANCED),
            Fixture.pass("IPv4 GRE to a VIP address", bed,
                ipv4(CLIENT_V4, "10.0.0.1").protocol(PacketBuilder.PROTO_GRE).payload(bytes(0, 0, 8, 0))
                    .build(), PassReason.NOT_LOAD_BALANCED),
            Fixture.pass("IPv4 OSPF hello", bed,
                ipv4(ROUTER_V4, "224.0.0.5").protocol(PacketBuilder.PROTO_OSPF).payload(44).build(),
                PassReason.NOT_LOAD_BALANCED),
            Fixture.pass("ICMPv6 echo request to a VIP", bed,
                ipv6(CLIENT_V6, "2001:db8::1").icmpv6(128, 0, 0x0001_0001, echo).build(),
                PassReason.NOT_LOAD_BALANCED),
            Fixture.pass("ICMPv6 neighbour solicitation", bed,
                ipv6("fe80::1", "ff02::1:ff00:1").hopLimit(255).icmpv6(135, 0, 0,
                    concat(PacketBuilder.address("2001:db8::1"), bytes(1, 1, 2, 0x5a, 0, 0, 0, 0xaa))).build(),
                PassReason.NOT_LOAD_BALANCED),
            Fixture.pass("MLDv2 report after a hop-by-hop header", bed,
                ipv6("fe80::1", "ff02::16").hopByHop(8).icmpv6(143, 0, 0, new byte[4]).build(),
                PassReason.NOT_LOAD_BALANCED),
            Fixture.pass("ICMPv6 time exceeded quoting a VIP flow", bed,
                ipv6(ROUTER_V6, "2001:db8::1").icmpv6(3, 0, 0,
                    packet().ipv6("2001:db8::1", CLIENT_V6).tcp(443, 50000).buildIpPacket()).build(),
                PassReason.NOT_LOAD_BALANCED),
            Fixture.pass("ICMPv6 packet too big quoting a fragment", bed,
                ipv6(ROUTER_V6, "2001:db8::1").icmpv6(2, 0, 1280,
                    packet().ipv6("2001:db8::1", CLIENT_V6).fragmentHeader(0, true, 7).tcp(443, 50000)
                        .buildIpPacket()).build(), PassReason.NOT_LOAD_BALANCED),
            Fixture.pass("IPv6 first fragment with destination options after the fragment header: keyed on 60", bed,
                ipv6(CLIENT_V6, "2001:db8::1").fragmentHeader(0, true, 5).destinationOptions(8).tcp(50000, 443)
                    .payload(8).build(), PassReason.NO_VIP),
            Fixture.pass("IPv6 later fragment of that datagram: its payload is not parsed as a header", bed,
                ipv6(CLIENT_V6, "2001:db8::1").fragmentHeader(5, false, 5).protocol(PacketBuilder.PROTO_DSTOPTS)
                    .payload(24).build(), PassReason.NO_VIP),
            Fixture.pass("IPv6 later fragment whose payload looks like a header leading to UDP", bed,
                ipv6(CLIENT_V6, "2001:db8::1").fragmentHeader(5, false, 6).protocol(PacketBuilder.PROTO_DSTOPTS)
                    .payload(bytes(PROTO_UDP, 0, 1, 4, 0, 0, 0, 0, 9, 9, 9, 9, 9, 9, 9, 9)).build(),
                PassReason.NO_VIP),
            Fixture.pass("IPv6 no next header", bed,
                ipv6(CLIENT_V6, "2001:db8::1").protocol(PacketBuilder.PROTO_NONE).build(),
                PassReason.NOT_LOAD_BALANCED));
    }

    private List<Fixture> malformedFrameFixtures()
    {
        final PipelineTestbed bed = standard;
        final byte[] tcp = ipv4(CLIENT_V4, "10.0.0.1").tcp(40000, 80).noPadding().build();
        final byte[] tagged = ipv4(CLIENT_V4, "10.0.0.1").vlan(100).tcp(40000, 80).noPadding().build();
        final byte[] tcpV6 = ipv6(CLIENT_V6, "2001:db8::1").tcp(50000, 443).noPadding().build();
        final byte[] extensionBody = new byte[16];
        extensionBody[1] = 2; // claims 24 bytes
        final PacketBuilder nineHeaders = ipv6(CLIENT_V6, "2001:db8::1");
        for (int i = 0; i < 9; i++)
        {
            nineHeaders.destinationOptions(8);
        }
        return List.of(
            Fixture.drop("empty frame", bed, new byte[0], DropReason.FRAME_TRUNCATED),
            Fixture.drop("13-byte frame", bed, PacketBuilder.truncate(tcp, 13), DropReason.FRAME_TRUNCATED),
            Fixture.drop("frame ends inside the 802.1Q tag", bed, PacketBuilder.truncate(tagged, 17),
                DropReason.VLAN_TRUNCATED),
            Fixture.drop("19 bytes of IPv4 header", bed, PacketBuilder.truncate(tcp, 14 + 19),
                DropReason.IPV4_TRUNCATED),
            Fixture.drop("IPv4 EtherType, version 5", bed,
                ipv4(CLIENT_V4, "10.0.0.1").version(5).tcp(40000, 80).build(), DropReason.IPV4_BAD_VERSION),
            Fixture.drop("IPv4 EtherType carrying an IPv6 packet", bed,
                ipv6(CLIENT_V6, "2001:db8::1").etherType(PacketBuilder.ETHERTYPE_IPV4).tcp(50000, 443).build(),
                DropReason.IPV4_BAD_VERSION),
            Fixture.drop("IPv4 IHL 4", bed, ipv4(CLIENT_V4, "10.0.0.1").ihl(4).tcp(40000, 80).build(),
                DropReason.IPV4_BAD_IHL),
            Fixture.drop("IPv4 IHL 0", bed, ipv4(CLIENT_V4, "10.0.0.1").ihl(0).tcp(40000, 80).build(),
                DropReason.IPV4_BAD_IHL),
            Fixture.drop("IPv4 IHL 15 in a 46-byte IP payload", bed,
                ipv4(CLIENT_V4, "10.0.0.1").ihl(15).tcp(40000, 80).build(), DropReason.IPV4_OPTIONS_TRUNCATED),
            Fixture.drop("IPv4 total length 1500 in a 60-byte frame", bed,
                ipv4(CLIENT_V4, "10.0.0.1").totalLength(1500).tcp(40000, 80).build(),
                DropReason.IPV4_TOTAL_LENGTH_EXCEEDS_FRAME),
            Fixture.drop("IPv4 total length one past the frame", bed,
                ipv4(CLIENT_V4, "10.0.0.1").totalLength(47).tcp(40000, 80).build(),
                DropReason.IPV4_TOTAL_LENGTH_EXCEEDS_FRAME),
            Fixture.drop("IPv4 total length 19", bed,
                ipv4(CLIENT_V4, "10.0.0.1").totalLength(19).tcp(40000, 80).build(),
                DropReason.IPV4_TOTAL_LENGTH_TOO_SMALL),
            Fixture.drop("IPv4 total length shorter than IHL 6", bed,
                ipv4(CLIENT_V4, "10.0.0.1").ipv4Options(bytes(0x94, 4, 0, 0)).totalLength(22).tcp(40000, 80)
                    .build(), DropReason.IPV4_TOTAL_LENGTH_TOO_SMALL),
            Fixture.drop("39 bytes of IPv6 header", bed, PacketBuilder.truncate(tcpV6, 14 + 39),
                DropReason.IPV6_TRUNCATED),
            Fixture.drop("IPv6 EtherType carrying an IPv4 packet", bed,
                ipv4(CLIENT_V4, "10.0.0.1").etherType(PacketBuilder.ETHERTYPE_IPV6).tcp(40000, 80).payload(20)
                    .build(), DropReason.IPV6_BAD_VERSION),
            Fixture.drop("IPv6 payload length one past the frame", bed,
                ipv6(CLIENT_V6, "2001:db8::1").payloadLength(21).tcp(50000, 443).build(),
                DropReason.IPV6_PAYLOAD_LENGTH_EXCEEDS_FRAME),
            Fixture.drop("IPv6 hop-by-hop header claiming 24 bytes of 16", bed,
                ipv6(CLIENT_V6, "2001:db8::1").extension(PacketBuilder.PROTO_HOPOPTS, extensionBody)
                    .protocol(PROTO_TCP).build(), DropReason.IPV6_EXTENSION_TRUNCATED),
            Fixture.drop("IPv6 routing header with 4 bytes left", bed,
                ipv6(CLIENT_V6, "2001:db8::1").protocol(PacketBuilder.PROTO_ROUTING).payload(4).build(),
                DropReason.IPV6_EXTENSION_TRUNCATED),
            Fixture.drop("IPv6 fragment header with 7 bytes left", bed,
                ipv6(CLIENT_V6, "2001:db8::1").protocol(PacketBuilder.PROTO_FRAGMENT).payload(7).build(),
                DropReason.IPV6_EXTENSION_TRUNCATED),
            Fixture.drop("nine IPv6 extension headers", bed, nineHeaders.tcp(50000, 443).build(),
                DropReason.IPV6_EXTENSION_CHAIN_TOO_LONG));
    }

    private List<Fixture> malformedTransportFixtures()
    {
        final PipelineTestbed bed = standard;
        final byte[] vipToClient = packet().ipv4("10.0.0.1", CLIENT_V4).tcp(80, 40000).payload(8).buildIpPacket();
        final byte[] vipToClientV6 =
            packet().ipv6("2001:db8::1", CLIENT_V6).tcp(443, 50000).payload(8).buildIpPacket();
        final byte[] quoteWithOptions = packet().ipv4("10.0.0.1", CLIENT_V4).ipv4Options(bytes(0x94, 4, 0, 0))
            .tcp(80, 40000).buildIpPacket();
        final byte[] longExtension = new byte[8];
        longExtension[1] = 4; // claims 40 bytes
        final byte[] quoteWithLongExtension = packet().ipv6("2001:db8::1", CLIENT_V6)
            .extension(PacketBuilder.PROTO_DSTOPTS, longExtension).tcp(443, 50000).buildIpPacket();
        return List.of(
            Fixture.drop("IPv4 TCP header of 19 bytes", bed,
                ipv4(CLIENT_V4, "10.0.0.1").totalLength(39).tcp(40000, 80).build(), DropReason.TCP_TRUNCATED),
            Fixture.drop("TCP data offset 15 in a 20-byte segment", bed,
                ipv4(CLIENT_V4, "10.0.0.1").tcp(40000, 80).dataOffset(15).build(), DropReason.TCP_TRUNCATED),
            Fixture.drop("IPv6 TCP header of 10 bytes", bed,
                ipv6(CLIENT_V6, "2001:db8::1").payloadLength(10).tcp(50000, 443).build(),
                DropReason.TCP_TRUNCATED),
            Fixture.drop("TCP data offset 4", bed,
                ipv4(CLIENT_V4, "10.0.0.1").tcp(40000, 80).dataOffset(4).build(), DropReason.TCP_BAD_DATA_OFFSET),
            Fixture.drop("IPv6 TCP data offset 0", bed,
                ipv6(CLIENT_V6, "2001:db8::1").tcp(50000, 443).dataOffset(0).build(),
                DropReason.TCP_BAD_DATA_OFFSET),
            Fixture.drop("IPv4 UDP header of 7 bytes", bed,
                ipv4(CLIENT_V4, "10.0.0.1").totalLength(27).udp(33333, 53).build(), DropReason.UDP_TRUNCATED),
            Fixture.drop("UDP length 7", bed, ipv4(CLIENT_V4, "10.0.0.1").udp(33333, 53).udpLength(7).build(),
                DropReason.UDP_BAD_LENGTH),
            Fixture.drop("UDP length one past the IP payload", bed,
                ipv4(CLIENT_V4, "10.0.0.1").udp(33333, 53).payload(4).udpLength(13).build(),
                DropReason.UDP_BAD_LENGTH),
            Fixture.drop("IPv6 UDP length 0", bed,
                ipv6(CLIENT_V6, "2001:db8::1").udp(50000, 53).udpLength(0).build(), DropReason.UDP_BAD_LENGTH),
            Fixture.drop("ICMPv4 header of 7 bytes", bed,
                ipv4(ROUTER_V4, "10.0.0.1").totalLength(27).icmpv4(3, 4, 0, new byte[0]).build(),
                DropReason.ICMP_TRUNCATED),
            Fixture.drop("ICMPv6 header of 7 bytes", bed,
                ipv6(ROUTER_V6, "2001:db8::1").payloadLength(7).icmpv6(2, 0, 1280, new byte[0]).build(),
                DropReason.ICMP_TRUNCATED),
            Fixture.drop("ICMPv4 fragmentation needed quoting 19 bytes", bed,
                ipv4(ROUTER_V4, "10.0.0.1").icmpv4(3, 4, 1400, PacketBuilder.truncate(vipToClient, 19)).build(),
                DropReason.ICMP_QUOTE_TRUNCATED),
            Fixture.drop("ICMPv4 fragmentation needed quoting an IPv4 header and 7 bytes", bed,
                ipv4(ROUTER_V4, "10.0.0.1").icmpv4(3, 4, 1400, PacketBuilder.truncate(vipToClient, 27)).build(),
                DropReason.ICMP_QUOTE_TRUNCATED),
            Fixture.drop("ICMPv4 quote with options and 7 bytes after them", bed,
                ipv4(ROUTER_V4, "10.0.0.1").icmpv4(3, 4, 1400, PacketBuilder.truncate(quoteWithOptions, 31))
                    .build(), DropReason.ICMP_QUOTE_TRUNCATED),
            Fixture.drop("ICMPv6 packet too big quoting 39 bytes", bed,
                ipv6(ROUTER_V6, "2001:db8::1").icmpv6(2, 0, 1280, PacketBuilder.truncate(vipToClientV6, 39))
                    .build(), DropReason.ICMP_QUOTE_TRUNCATED),
            Fixture.drop("ICMPv6 packet too big quoting an IPv6 header and 7 bytes", bed,
                ipv6(ROUTER_V6, "2001:db8::1").icmpv6(2, 0, 1280, PacketBuilder.truncate(vipToClientV6, 47))
                    .build(), DropReason.ICMP_QUOTE_TRUNCATED),
            Fixture.drop("ICMPv6 quote whose extension header runs past the quote", bed,
                ipv6(ROUTER_V6, "2001:db8::1").icmpv6(1, 4, 0, PacketBuilder.truncate(quoteWithLongExtension, 56))
                    .build(), DropReason.ICMP_QUOTE_TRUNCATED),
            Fixture.drop("ICMPv4 quoting an IPv6 header", bed,
                ipv4(ROUTER_V4, "10.0.0.1").icmpv4(3, 4, 1400, vipToClientV6).build(),
                DropReason.ICMP_QUOTE_MALFORMED),
            Fixture.drop("ICMPv4 quote with IHL 3", bed,
                ipv4(ROUTER_V4, "10.0.0.1").icmpv4(3, 4, 1400,
                    packet().ipv4("10.0.0.1", CLIENT_V4).ihl(3).tcp(80, 40000).buildIpPacket()).build(),
                DropReason.ICMP_QUOTE_MALFORMED),
            Fixture.drop("ICMPv6 quoting an IPv4 header", bed,
                ipv6(ROUTER_V6, "2001:db8::1").icmpv6(2, 0, 1280, vipToClient).build(),
                DropReason.ICMP_QUOTE_MALFORMED));
    }

    private List<Fixture> undeliverableFixtures()
    {
        final List<Fixture> fixtures = new ArrayList<>();
        fixtures.add(Fixture.dropAfterSelection("VIP without backends", standard, PipelineTestbed.HEADROOM,
            ipv4(CLIENT_V4, "10.0.0.3").tcp(40000, 80).tcpFlags(TCP_SYN).build(), DropReason.NO_BACKEND, EMPTY_V4,
            flow(CLIENT_V4, "10.0.0.3", 40000, 80, PROTO_TCP)));
        fixtures.add(Fixture.dropAfterSelection("VIP without backends, same flow again: nothing was remembered",
            standard, PipelineTestbed.HEADROOM, ipv4(CLIENT_V4, "10.0.0.3").tcp(40000, 80).build(),
            DropReason.NO_BACKEND, EMPTY_V4, flow(CLIENT_V4, "10.0.0.3", 40000, 80, PROTO_TCP)));
        fixtures.add(Fixture.dropAfterSelection("VIP whose backends are unhealthy or weight 0", standard,
            PipelineTestbed.HEADROOM, ipv4(CLIENT_V4, "10.0.0.5").tcp(40000, 80).build(), DropReason.NO_BACKEND,
            UNAVAILABLE_V4, flow(CLIENT_V4, "10.0.0.5", 40000, 80, PROTO_TCP)));
        fixtures.addAll(headroomFixtures());
        fixtures.addAll(tunnelMtuFixtures());
        fixtures.addAll(tunnelSourceFixtures());
        return fixtures;
    }

    // IPv4 outer headers need 38 bytes in front of the inner packet, IPv6 ones 58: 24 and 44 before an untagged
    // frame, 20 and 40 before a tagged one.
    private List<Fixture> headroomFixtures()
    {
        final PipelineTestbed bed = standard;
        final List<Fixture> fixtures = new ArrayList<>();
        final int[][] cases = {{24, 23, 0}, {20, 19, 100}};
        int port = 41000;
        for (final int[] c : cases)
        {
            final String tag = c[2] == 0 ? "untagged" : "VLAN";
            final PacketBuilder fits = ipv4(CLIENT_V4, "10.0.0.1").tcp(port, 80);
            final PacketBuilder short1 = ipv4(CLIENT_V4, "10.0.0.1").tcp(port + 1, 80);
            if (c[2] != 0)
            {
                fits.vlan(c[2]);
                short1.vlan(c[2]);
            }
            fixtures.add(Fixture.forward("IPv4 outer, " + tag + ", headroom " + c[0] + ": frame starts at 0", bed,
                c[0], fits, WEB_V4, flow(CLIENT_V4, "10.0.0.1", port, 80, PROTO_TCP)));
            fixtures.add(Fixture.dropAfterSelection("IPv4 outer, " + tag + ", headroom " + c[1], bed, c[1],
                short1.build(), DropReason.NO_HEADROOM, WEB_V4, flow(CLIENT_V4, "10.0.0.1", port + 1, 80, PROTO_TCP)));
            port += 2;
        }
        fixtures.add(Fixture.forward("IPv6 outer, headroom 44: frame starts at 0", bed, 44,
            ipv6(CLIENT_V6, "2001:db8::1").tcp(51000, 443), WEB_V6, flow(CLIENT_V6, "2001:db8::1", 51000, 443, 6)));
        fixtures.add(Fixture.dropAfterSelection("IPv6 outer, headroom 43", bed, 43,
            ipv6(CLIENT_V6, "2001:db8::1").tcp(51001, 443).build(), DropReason.NO_HEADROOM, WEB_V6,
            flow(CLIENT_V6, "2001:db8::1", 51001, 443, PROTO_TCP)));
        fixtures.add(Fixture.dropAfterSelection("no headroom at all", bed, 0,
            ipv4(CLIENT_V4, "10.0.0.1").tcp(41010, 80).build(), DropReason.NO_HEADROOM, WEB_V4,
            flow(CLIENT_V4, "10.0.0.1", 41010, 80, PROTO_TCP)));
        return fixtures;
    }

    // Tunnel MTU 576: an IPv4 outer header adds 24 bytes (inner 552 fits), an IPv6 one 44 (inner 532 fits).
    private List<Fixture> tunnelMtuFixtures()
    {
        final PipelineTestbed bed = smallMtu;
        final int h = PipelineTestbed.HEADROOM;
        return List.of(
            Fixture.forward("IPv4 outer of exactly the tunnel MTU", bed,
                ipv4(CLIENT_V4, "10.0.0.1").tcp(42000, 80).payload(MTU - 24 - 40), WEB_V4,
                flow(CLIENT_V4, "10.0.0.1", 42000, 80, PROTO_TCP)),
            Fixture.dropAfterSelection("IPv4 outer one byte over the tunnel MTU", bed, h,
                ipv4(CLIENT_V4, "10.0.0.1").tcp(42001, 80).payload(MTU - 24 - 40 + 1).build(),
                DropReason.ENCAPSULATED_TOO_BIG, WEB_V4, flow(CLIENT_V4, "10.0.0.1", 42001, 80, PROTO_TCP)),
            Fixture.dropAfterSelection("full-size 1514-byte frame over a 576 tunnel", bed, h,
                ipv4(CLIENT_V4, "10.0.0.1").tcp(42002, 80).payload(1460).build(), DropReason.ENCAPSULATED_TOO_BIG,
                WEB_V4, flow(CLIENT_V4, "10.0.0.1", 42002, 80, PROTO_TCP)),
            Fixture.forward("IPv6 outer of exactly the tunnel MTU", bed,
                ipv6(CLIENT_V6, "2001:db8::1").tcp(52000, 443).payload(MTU - 44 - 60), WEB_V6,
                flow(CLIENT_V6, "2001:db8::1", 52000, 443, PROTO_TCP)),
            Fixture.dropAfterSelection("IPv6 outer one byte over the tunnel MTU", bed, h,
                ipv6(CLIENT_V6, "2001:db8::1").tcp(52001, 443).payload(MTU - 44 - 60 + 1).build(),
                DropReason.ENCAPSULATED_TOO_BIG, WEB_V6, flow(CLIENT_V6, "2001:db8::1", 52001, 443, PROTO_TCP)));
    }

    private List<Fixture> tunnelSourceFixtures()
    {
        final int h = PipelineTestbed.HEADROOM;
        return List.of(
            Fixture.dropAfterSelection("IPv6 backend without an IPv6 tunnel source", v4SourceOnly, h,
                ipv6(CLIENT_V6, "2001:db8::1").tcp(50000, 443).build(), DropReason.NO_TUNNEL_SOURCE, WEB_V6,
                flow(CLIENT_V6, "2001:db8::1", 50000, 443, PROTO_TCP)),
            Fixture.dropAfterSelection("IPv4 client, IPv6 backend, no IPv6 tunnel source", v4SourceOnly, h,
                ipv4(CLIENT_V4, "10.0.0.4").tcp(40000, 443).build(), DropReason.NO_TUNNEL_SOURCE, V6_BACKEND_V4,
                flow(CLIENT_V4, "10.0.0.4", 40000, 443, PROTO_TCP)),
            Fixture.forward("IPv4 backend with only an IPv4 tunnel source", v4SourceOnly,
                ipv4(CLIENT_V4, "10.0.0.1").tcp(40000, 80), WEB_V4, flow(CLIENT_V4, "10.0.0.1", 40000, 80, 6)),
            Fixture.dropAfterSelection("IPv4 backend without an IPv4 tunnel source", v6SourceOnly, h,
                ipv4(CLIENT_V4, "10.0.0.1").tcp(40000, 80).build(), DropReason.NO_TUNNEL_SOURCE, WEB_V4,
                flow(CLIENT_V4, "10.0.0.1", 40000, 80, PROTO_TCP)),
            Fixture.dropAfterSelection("IPv6 client, IPv4 backend, no IPv4 tunnel source", v6SourceOnly, h,
                ipv6(CLIENT_V6, "2001:db8::1").udp(50000, 53).build(), DropReason.NO_TUNNEL_SOURCE, DNS_V6,
                flow(CLIENT_V6, "2001:db8::1", 50000, 53, PROTO_UDP)),
            Fixture.forward("IPv6 backend with only an IPv6 tunnel source", v6SourceOnly,
                ipv6(CLIENT_V6, "2001:db8::1").tcp(50000, 443).tcpFlags(TCP_PSH | TCP_ACK).payload(10), WEB_V6,
                flow(CLIENT_V6, "2001:db8::1", 50000, 443, PROTO_TCP)));
    }

    static byte[] concat(final byte[] first, final byte[] second)
    {
        final byte[] out = new byte[first.length + second.length];
        System.arraycopy(first, 0, out, 0, first.length);
        System.arraycopy(second, 0, out, first.length, second.length);
        return out;
    }
}
