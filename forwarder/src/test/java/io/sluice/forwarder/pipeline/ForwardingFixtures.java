package io.sluice.forwarder.pipeline;

import io.sluice.common.Vip;
import io.sluice.forwarder.testing.PacketBuilder;

import java.util.ArrayList;
import java.util.List;

import static io.sluice.forwarder.pipeline.PipelineTestbed.ANY_PORT_V4;
import static io.sluice.forwarder.pipeline.PipelineTestbed.CLIENT_V4;
import static io.sluice.forwarder.pipeline.PipelineTestbed.CLIENT_V6;
import static io.sluice.forwarder.pipeline.PipelineTestbed.DNS_V4;
import static io.sluice.forwarder.pipeline.PipelineTestbed.DNS_V6;
import static io.sluice.forwarder.pipeline.PipelineTestbed.OWN_MAC;
import static io.sluice.forwarder.pipeline.PipelineTestbed.ROUTER_MAC;
import static io.sluice.forwarder.pipeline.PipelineTestbed.ROUTER_V4;
import static io.sluice.forwarder.pipeline.PipelineTestbed.ROUTER_V6;
import static io.sluice.forwarder.pipeline.PipelineTestbed.V6_BACKEND_V4;
import static io.sluice.forwarder.pipeline.PipelineTestbed.WEB_V4;
import static io.sluice.forwarder.pipeline.PipelineTestbed.WEB_V6;
import static io.sluice.forwarder.testing.FlowKeyBytes.flow;
import static io.sluice.forwarder.testing.FlowKeyBytes.fragment;
import static io.sluice.forwarder.testing.PacketBuilder.PROTO_TCP;
import static io.sluice.forwarder.testing.PacketBuilder.PROTO_UDP;
import static io.sluice.forwarder.testing.PacketBuilder.TCP_ACK;
import static io.sluice.forwarder.testing.PacketBuilder.TCP_PSH;
import static io.sluice.forwarder.testing.PacketBuilder.TCP_SYN;
import static io.sluice.forwarder.testing.PacketBuilder.bytes;
import static io.sluice.forwarder.testing.PacketBuilder.packet;

/**
 * The fixtures that must reach a backend: TCP and UDP over IPv4 and IPv6, VLAN tags, IPv4 options, IPv6 extension
 * headers, DSCP and ECN, Ethernet padding, both outer families, fragments and ICMP errors. Each names the flow it
 * belongs to by its canonical key, so the expected backend is predicted without parsing the packet.
 */
final class ForwardingFixtures
{
    private static final String VIP_V4 = "10.0.0.1";
    private static final String ANY_PORT = "10.0.0.2";
    private static final String VIP_V6 = "2001:db8::1";

    private final PipelineTestbed bed;

    ForwardingFixtures(final PipelineTestbed bed)
    {
        this.bed = bed;
    }

    private static PacketBuilder ipv4(final String source, final String destination)
    {
        return packet().ethernet(OWN_MAC, ROUTER_MAC).ipv4(source, destination);
    }

    private static PacketBuilder ipv6(final String source, final String destination)
    {
        return packet().ethernet(OWN_MAC, ROUTER_MAC).ipv6(source, destination);
    }

    private Fixture forward(final String description, final PacketBuilder packet, final Vip vip,
        final byte[] key)
    {
        return Fixture.forward(description, bed, packet, vip, key);
    }

    List<Fixture> ipv4()
    {
        final List<Fixture> fixtures = new ArrayList<>();
        fixtures.add(forward("IPv4 TCP SYN to 10.0.0.1:80, 60-byte frame with 6 bytes of padding",
            ipv4(CLIENT_V4, VIP_V4).ttl(57).id(0x1c46).dontFragment().tcp(40000, 80).tcpFlags(TCP_SYN),
            WEB_V4, flow(CLIENT_V4, VIP_V4, 40000, 80, PROTO_TCP)));
        fixtures.add(forward("IPv4 TCP data on the same flow: connection-table hit, same backend",
            ipv4(CLIENT_V4, VIP_V4).ttl(57).id(0x1c47).dontFragment().tcp(40000, 80).tcpFlags(TCP_PSH | TCP_ACK)
                .payload(100), WEB_V4, flow(CLIENT_V4, VIP_V4, 40000, 80, PROTO_TCP)));
        for (int port = 40001; port <= 40008; port++)
        {
            fixtures.add(forward("IPv4 TCP to 10.0.0.1:80 from client port " + port,
                ipv4(CLIENT_V4, VIP_V4).tcp(port, 80).tcpFlags(TCP_SYN), WEB_V4,
                flow(CLIENT_V4, VIP_V4, port, 80, PROTO_TCP)));
        }
        fixtures.add(forward("IPv4 TCP from a second client", ipv4("198.18.0.9", VIP_V4).tcp(1234, 80), WEB_V4,
            flow("198.18.0.9", VIP_V4, 1234, 80, PROTO_TCP)));
        fixtures.add(forward("IPv4 UDP DNS query to 10.0.0.1:53",
            ipv4(CLIENT_V4, VIP_V4).udp(33333, 53).payload(30), DNS_V4, flow(CLIENT_V4, VIP_V4, 33333, 53, PROTO_UDP)));
        fixtures.add(forward("VLAN 100 IPv4 UDP: the tunnelled frame is untagged",
            ipv4(CLIENT_V4, VIP_V4).vlan(100).udp(33334, 53).payload(20), DNS_V4,
            flow(CLIENT_V4, VIP_V4, 33334, 53, PROTO_UDP)));
        fixtures.add(forward("VLAN 4094 with priority 5 IPv4 TCP",
            ipv4(CLIENT_V4, VIP_V4).vlanTag(PacketBuilder.ETHERTYPE_VLAN, 0xA000 | 4094).tcp(40000, 80), WEB_V4,
            flow(CLIENT_V4, VIP_V4, 40000, 80, PROTO_TCP)));
        fixtures.add(forward("IPv4 with a router alert option (IHL 6)",
            ipv4(CLIENT_V4, VIP_V4).ipv4Options(bytes(0x94, 0x04, 0, 0)).tcp(40010, 80), WEB_V4,
            flow(CLIENT_V4, VIP_V4, 40010, 80, PROTO_TCP)));
        fixtures.add(forward("IPv4 with 40 bytes of options (IHL 15)",
            ipv4(CLIENT_V4, VIP_V4).ipv4Options(recordRouteOption()).tcp(40011, 80).payload(5), WEB_V4,
            flow(CLIENT_V4, VIP_V4, 40011, 80, PROTO_TCP)));
        fixtures.add(forward("IPv4 TCP SYN with MSS, SACK-permitted and window scale (data offset 8)",
            ipv4(CLIENT_V4, VIP_V4).tcp(40012, 80).tcpFlags(TCP_SYN)
                .tcpOptions(bytes(2, 4, 0x05, 0xb4, 4, 2, 1, 1, 3, 3, 7, 1)), WEB_V4,
            flow(CLIENT_V4, VIP_V4, 40012, 80, PROTO_TCP)));
        fixtures.add(forward("DSCP EF and ECT(1) copied to the outer TOS",
            ipv4(CLIENT_V4, VIP_V4).tos(0xB9).tcp(40013, 80), WEB_V4, flow(CLIENT_V4, VIP_V4, 40013, 80, PROTO_TCP)));
        fixtures.add(forward("ECN CE copied to the outer TOS",
            ipv4(CLIENT_V4, VIP_V4).tos(0x03).udp(33335, 53).payload(12), DNS_V4,
            flow(CLIENT_V4, VIP_V4, 33335, 53, PROTO_UDP)));
        fixtures.add(forward("44-byte UDP frame padded to 60 with 0xA5: padding is not tunnelled",
            ipv4(CLIENT_V4, VIP_V4).udp(33336, 53).payload(2).padByte(0xA5), DNS_V4,
            flow(CLIENT_V4, VIP_V4, 33336, 53, PROTO_UDP)));
        fixtures.add(forward("full-size 1514-byte frame",
            ipv4(CLIENT_V4, VIP_V4).tcp(40014, 80).payload(1460), WEB_V4,
            flow(CLIENT_V4, VIP_V4, 40014, 80, PROTO_TCP)));
        for (final int port : new int[] {22, 8443, 65535, 0, 1, 25, 110})
        {
            fixtures.add(forward("all-ports VIP 10.0.0.2, destination port " + port,
                ipv4(CLIENT_V4, ANY_PORT).tcp(50022, port), ANY_PORT_V4,
                flow(CLIENT_V4, ANY_PORT, 50022, port, PROTO_TCP)));
        }
        fixtures.add(forward("IPv4 client, IPv6 backend: outer IPv6, GRE 0x0800, TOS to traffic class",
            ipv4(CLIENT_V4, "10.0.0.4").tos(0x28).tcp(40000, 443), V6_BACKEND_V4,
            flow(CLIENT_V4, "10.0.0.4", 40000, 443, PROTO_TCP)));
        return fixtures;
    }

    // Record route (RFC 791): type 7, length 39, pointer 4, nine empty slots, then end of options.
    private static byte[] recordRouteOption()
    {
        final byte[] options = new byte[40];
        options[0] = 7;
        options[1] = 39;
        options[2] = 4;
        return options;
    }

    List<Fixture> ipv6()
    {
        final List<Fixture> fixtures = new ArrayList<>();
        fixtures.add(forward("IPv6 TCP SYN to [2001:db8::1]:443, IPv6 backend, flow label from the flow hash",
            ipv6(CLIENT_V6, VIP_V6).hopLimit(60).tcp(50000, 443).tcpFlags(TCP_SYN), WEB_V6,
            flow(CLIENT_V6, VIP_V6, 50000, 443, PROTO_TCP)));
        fixtures.add(forward("IPv6 TCP data on the same flow",
            ipv6(CLIENT_V6, VIP_V6).hopLimit(60).tcp(50000, 443).tcpFlags(TCP_PSH | TCP_ACK).payload(200), WEB_V6,
            flow(CLIENT_V6, VIP_V6, 50000, 443, PROTO_TCP)));
        for (int port = 50010; port <= 50015; port++)
        {
            fixtures.add(forward("IPv6 TCP to [2001:db8::1]:443 from client port " + port,
                ipv6(CLIENT_V6, VIP_V6).tcp(port, 443), WEB_V6, flow(CLIENT_V6, VIP_V6, port, 443, PROTO_TCP)));
        }
        fixtures.add(forward("IPv6 traffic class copied, the client's flow label replaced",
            ipv6(CLIENT_V6, VIP_V6).trafficClass(0xB9).flowLabel(0xABCDE).tcp(50001, 443), WEB_V6,
            flow(CLIENT_V6, VIP_V6, 50001, 443, PROTO_TCP)));
        fixtures.add(forward("IPv6 hop-by-hop, destination options and routing headers before TCP",
            ipv6(CLIENT_V6, VIP_V6).hopByHop(8).destinationOptions(16).routing(4, 0, 24).tcp(50002, 443)
                .payload(9), WEB_V6, flow(CLIENT_V6, VIP_V6, 50002, 443, PROTO_TCP)));
        final PacketBuilder eightHeaders = ipv6(CLIENT_V6, VIP_V6);
        for (int i = 0; i < 8; i++)
        {
            eightHeaders.destinationOptions(8 * (i + 1));
        }
        fixtures.add(forward("eight IPv6 extension headers, the most the parser walks",
            eightHeaders.tcp(50003, 443), WEB_V6, flow(CLIENT_V6, VIP_V6, 50003, 443, PROTO_TCP)));
        fixtures.add(forward("VLAN 42 IPv6 TCP", ipv6(CLIENT_V6, VIP_V6).vlan(42).tcp(50004, 443), WEB_V6,
            flow(CLIENT_V6, VIP_V6, 50004, 443, PROTO_TCP)));
        fixtures.add(forward("IPv6 client, IPv4 backend: outer IPv4, GRE 0x86DD, traffic class to TOS",
            ipv6(CLIENT_V6, VIP_V6).trafficClass(0x2A).udp(50005, 53).payload(40), DNS_V6,
            flow(CLIENT_V6, VIP_V6, 50005, 53, PROTO_UDP)));
        return fixtures;
    }

    List<Fixture> fragments()
    {
        final List<Fixture> fixtures = new ArrayList<>();
        // A 58-byte UDP datagram to 10.0.0.1:53 in three fragments; only the first carries the UDP header.
        final byte[] udpKey = fragment(CLIENT_V4, VIP_V4, PROTO_UDP);
        fixtures.add(forward("IPv4 UDP first fragment (MF, offset 0) keys on the 3-tuple",
            ipv4(CLIENT_V4, VIP_V4).id(0x4242).fragment(0, true).udp(33340, 53).udpLength(58).payload(16), DNS_V4,
            udpKey));
        fixtures.add(forward("IPv4 UDP middle fragment (MF, offset 3) meets the same backend",
            ipv4(CLIENT_V4, VIP_V4).id(0x4242).fragment(3, true).protocol(PROTO_UDP).payload(24), DNS_V4, udpKey));
        fixtures.add(forward("IPv4 UDP last fragment (offset 6) meets the same backend",
            ipv4(CLIENT_V4, VIP_V4).id(0x4242).fragment(6, false).protocol(PROTO_UDP).payload(10), DNS_V4, udpKey));
        // TCP fragments to an address with an all-ports VIP go to it (it owns the address's fragments).
        final byte[] anyPortKey = fragment(CLIENT_V4, ANY_PORT, PROTO_TCP);
        fixtures.add(forward("IPv4 TCP first fragment to the all-ports VIP",
            ipv4(CLIENT_V4, ANY_PORT).id(7).fragment(0, true).tcp(50100, 8080).payload(4), ANY_PORT_V4,
            anyPortKey));
        fixtures.add(forward("IPv4 TCP last fragment to the all-ports VIP",
            ipv4(CLIENT_V4, ANY_PORT).id(7).fragment(3, false).protocol(PROTO_TCP).payload(16), ANY_PORT_V4,
            anyPortKey));
        fixtures.add(forward("IPv4 TCP fragment with DF clear and offset only",
            ipv4(CLIENT_V4, VIP_V4).id(8).fragment(185, false).protocol(PROTO_TCP).payload(33), WEB_V4,
            fragment(CLIENT_V4, VIP_V4, PROTO_TCP)));
        final byte[] v6Key = fragment(CLIENT_V6, VIP_V6, PROTO_TCP);
        fixtures.add(forward("IPv6 first fragment (M, offset 0) keys on the 3-tuple",
            ipv6(CLIENT_V6, VIP_V6).fragmentHeader(0, true, 0x1234).tcp(50200, 443).payload(12), WEB_V6, v6Key));
        fixtures.add(forward("IPv6 last fragment (offset 4) meets the same backend",
            ipv6(CLIENT_V6, VIP_V6).fragmentHeader(4, false, 0x1234).protocol(PROTO_TCP).payload(24), WEB_V6,
            v6Key));
        fixtures.add(forward("IPv6 fragment after a hop-by-hop header",
            ipv6(CLIENT_V6, VIP_V6).hopByHop(8).fragmentHeader(7, true, 0x1235).protocol(PROTO_TCP).payload(32),
            WEB_V6, v6Key));
        fixtures.add(forward("IPv6 UDP fragment goes to the address's UDP VIP (IPv4 backend)",
            ipv6(CLIENT_V6, VIP_V6).fragmentHeader(10, false, 0x99).protocol(PROTO_UDP).payload(16), DNS_V6,
            fragment(CLIENT_V6, VIP_V6, PROTO_UDP)));
        return fixtures;
    }

    List<Fixture> icmpErrors()
    {
        final List<Fixture> fixtures = new ArrayList<>();
        // The quote is the VIP's packet to the client; the error must follow the client's flow to its backend.
        final byte[] webFlow = flow(CLIENT_V4, VIP_V4, 40000, 80, PROTO_TCP);
        final byte[] vipToClient = packet().ipv4(VIP_V4, CLIENT_V4).dontFragment().tcp(80, 40000)
            .tcpFlags(TCP_PSH | TCP_ACK).payload(1400).buildIpPacket();
        fixtures.add(forward("ICMPv4 fragmentation needed quoting the IP header and 8 bytes of TCP",
            ipv4(ROUTER_V4, VIP_V4).icmpv4(3, 4, 1400, PacketBuilder.truncate(vipToClient, 28)), WEB_V4, webFlow));
        fixtures.add(forward("ICMPv4 fragmentation needed quoting 548 bytes (RFC 1812)",
            ipv4(ROUTER_V4, VIP_V4).tos(0xC0).icmpv4(3, 4, 1400, PacketBuilder.truncate(vipToClient, 548)), WEB_V4,
            webFlow));
        fixtures.add(forward("ICMPv4 error in VLAN 7", ipv4(ROUTER_V4, VIP_V4).vlan(7)
            .icmpv4(3, 4, 1400, PacketBuilder.truncate(vipToClient, 40)), WEB_V4, webFlow));
        fixtures.add(forward("ICMPv4 port unreachable quoting a DNS reply",
            ipv4(ROUTER_V4, VIP_V4).icmpv4(3, 3, 0,
                packet().ipv4(VIP_V4, CLIENT_V4).udp(53, 33333).payload(30).buildIpPacket()), DNS_V4,
            flow(CLIENT_V4, VIP_V4, 33333, 53, PROTO_UDP)));
        fixtures.add(forward("ICMPv4 error quoting an IPv4 header with options: ports read after them",
            ipv4(ROUTER_V4, VIP_V4).icmpv4(3, 4, 1400, packet().ipv4(VIP_V4, CLIENT_V4)
                .ipv4Options(bytes(0x94, 4, 0, 0)).tcp(80, 40001).buildIpPacket()), WEB_V4,
            flow(CLIENT_V4, VIP_V4, 40001, 80, PROTO_TCP)));
        fixtures.add(forward("ICMPv4 error quoting a flow of the all-ports VIP",
            ipv4(ROUTER_V4, ANY_PORT).icmpv4(3, 4, 1400,
                PacketBuilder.truncate(packet().ipv4(ANY_PORT, CLIENT_V4).tcp(22, 50022).buildIpPacket(), 28)),
            ANY_PORT_V4, flow(CLIENT_V4, ANY_PORT, 50022, 22, PROTO_TCP)));
        fixtures.add(forward("ICMPv4 error about a flow with an IPv6 backend",
            ipv4(ROUTER_V4, "10.0.0.4").icmpv4(3, 4, 1400,
                packet().ipv4("10.0.0.4", CLIENT_V4).tcp(443, 40000).buildIpPacket()), V6_BACKEND_V4,
            flow(CLIENT_V4, "10.0.0.4", 40000, 443, PROTO_TCP)));

        final byte[] v6Flow = flow(CLIENT_V6, VIP_V6, 50000, 443, PROTO_TCP);
        final byte[] v6VipToClient = packet().ipv6(VIP_V6, CLIENT_V6).tcp(443, 50000).tcpFlags(TCP_ACK).payload(1400)
            .buildIpPacket();
        fixtures.add(forward("ICMPv6 packet too big quoting the VIP's TCP segment",
            ipv6(ROUTER_V6, VIP_V6).icmpv6(2, 0, 1280, PacketBuilder.truncate(v6VipToClient, 1232)), WEB_V6, v6Flow));
        fixtures.add(forward("ICMPv6 packet too big quoting 8 bytes of TCP",
            ipv6(ROUTER_V6, VIP_V6).trafficClass(0xE0).icmpv6(2, 0, 1280, PacketBuilder.truncate(v6VipToClient, 48)),
            WEB_V6, v6Flow));
        fixtures.add(forward("ICMPv6 destination unreachable quoting a destination options header",
            ipv6(ROUTER_V6, VIP_V6).icmpv6(1, 4, 0, packet().ipv6(VIP_V6, CLIENT_V6).destinationOptions(16)
                .tcp(443, 50001).buildIpPacket()), WEB_V6, flow(CLIENT_V6, VIP_V6, 50001, 443, PROTO_TCP)));
        fixtures.add(forward("ICMPv6 error after a hop-by-hop header",
            ipv6(ROUTER_V6, VIP_V6).hopByHop(8).icmpv6(2, 0, 1280, PacketBuilder.truncate(v6VipToClient, 100)),
            WEB_V6, v6Flow));
        fixtures.add(forward("ICMPv6 packet too big about a UDP flow with an IPv4 backend",
            ipv6(ROUTER_V6, VIP_V6).icmpv6(2, 0, 1280,
                packet().ipv6(VIP_V6, CLIENT_V6).udp(53, 50005).payload(40).buildIpPacket()), DNS_V6,
            flow(CLIENT_V6, VIP_V6, 50005, 53, PROTO_UDP)));
        return fixtures;
    }
}
