package io.sluice.forwarder.process;

import io.sluice.forwarder.pipeline.DropReason;
import io.sluice.forwarder.testing.PacketBuilder;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

import static io.sluice.forwarder.process.NodeSpec.backend;
import static io.sluice.forwarder.testing.PacketBuilder.PROTO_DSTOPTS;
import static io.sluice.forwarder.testing.PacketBuilder.PROTO_ICMP;
import static io.sluice.forwarder.testing.PacketBuilder.PROTO_TCP;
import static io.sluice.forwarder.testing.PacketBuilder.PROTO_UDP;
import static io.sluice.forwarder.testing.PacketBuilder.TCP_ACK;
import static io.sluice.forwarder.testing.PacketBuilder.TCP_FIN;
import static io.sluice.forwarder.testing.PacketBuilder.TCP_PSH;
import static io.sluice.forwarder.testing.PacketBuilder.TCP_SYN;
import static io.sluice.forwarder.testing.PacketBuilder.bytes;
import static io.sluice.forwarder.testing.PacketBuilder.packet;
import static io.sluice.forwarder.testing.PacketBuilder.truncate;

/**
 * The traffic of the pcap tests: flows to every kind of VIP, traffic for the kernel, malformed frames, fragments
 * and ICMP errors, in a fixed shuffled order. Services:
 * <pre>
 *   10.100.0.1:80/tcp           10.1.0.1, 10.1.0.2 (weight 2), fd00:1::3   (IPv6 backend of an IPv4 VIP)
 *   [2001:db8:100::1]:443/tcp   2001:db8:b::10, 10.1.1.20                  (IPv4 backend of an IPv6 VIP)
 *   10.100.0.2:53/udp           10.1.2.10, 10.1.2.11
 *   [2001:db8:100::1]:53/udp    2001:db8:b::30
 *   10.100.0.3:80/tcp           no backends
 * </pre>
 * With a tunnel MTU of 1500, full-size frames cannot be encapsulated and are dropped.
 */
final class TrafficMix
{
    static final String OWN_MAC = NodeSpec.DEFAULT_OWN_MAC;
    static final long ROUTER_MAC = PacketBuilder.mac("02:5a:00:00:00:aa");
    static final String WEB_V4 = "10.100.0.1";
    static final String DNS_V4 = "10.100.0.2";
    static final String EMPTY_V4 = "10.100.0.3";
    static final String VIP_V6 = "2001:db8:100::1";
    static final String ROUTER_V4 = "198.51.100.1";
    static final String ROUTER_V6 = "2001:db8:ff::1";
    static final int TUNNEL_MTU = 1500;

    /**
     * One frame of the mix.
     *
     * @param description  what it is.
     * @param bytes        the Ethernet frame.
     * @param flow         the flow it belongs to (frames of one flow stay on one port when split), or -1.
     * @param expectedDrop the drop reason it was built to provoke, or null.
     */
    record Frame(String description, byte[] bytes, int flow, DropReason expectedDrop)
    {
    }

    private final List<Frame> frames = new ArrayList<>();
    private int flows;

    private TrafficMix()
    {
    }

    /**
     * Adds the services above to a node, with the tunnel MTU the mix expects.
     */
    static NodeSpec services(final NodeSpec spec)
    {
        return spec.tunnelMtu(TUNNEL_MTU)
            .vip(WEB_V4, 80, "tcp", backend("10.1.0.1", 1), backend("10.1.0.2", 2), backend("fd00:1::3", 1))
            .vip(VIP_V6, 443, "tcp", backend("2001:db8:b::10", 1), backend("10.1.1.20", 1))
            .vip(DNS_V4, 53, "udp", backend("10.1.2.10", 1), backend("10.1.2.11", 1))
            .vip(VIP_V6, 53, "udp", backend("2001:db8:b::30", 1))
            .vip(EMPTY_V4, 80, "tcp");
    }

    /**
     * Builds the whole mix.
     */
    static List<Frame> frames()
    {
        final TrafficMix mix = new TrafficMix();
        mix.tcpV4Flows(50);
        mix.tcpV6Flows(16);
        mix.udpV4Flows(20);
        mix.udpV6Flows(8);
        mix.fragments();
        mix.icmpErrors();
        mix.forKernel();
        mix.undeliverable();
        mix.malformed();
        Collections.shuffle(mix.frames, new Random(0x5EED));
        return List.copyOf(mix.frames);
    }

    private static PacketBuilder v4(final String source, final String destination)
    {
        return packet().ethernet(NodeSpec.mac(OWN_MAC), ROUTER_MAC).ipv4(source, destination);
    }

    private static PacketBuilder v6(final String source, final String destination)
    {
        return packet().ethernet(NodeSpec.mac(OWN_MAC), ROUTER_MAC).ipv6(source, destination);
    }

    private void add(final String description, final byte[] frame, final int flow)
    {
        frames.add(new Frame(description, frame, flow, null));
    }

    private void drop(final DropReason reason, final byte[] frame)
    {
        frames.add(new Frame("malformed: " + reason, frame, -1, reason));
    }

    private static String clientV4(final int i)
    {
        return "203.0.113." + (1 + i % 8);
    }

    private static String clientV6(final int i)
    {
        return "2001:db8:c::" + Integer.toHexString(1 + i % 5);
    }

    private void tcpV4Flows(final int count)
    {
        for (int i = 0; i < count; i++)
        {
            final int flow = flows++;
            final String client = clientV4(i);
            final int port = 40_000 + i;
            final String name = "IPv4 TCP " + client + ":" + port + " -> " + WEB_V4 + ":80";
            final PacketBuilder syn = v4(client, WEB_V4).tcp(port, 80).tcpFlags(TCP_SYN).tos(i % 4 == 0 ? 0xB8 : 0);
            if (i % 10 == 3)
            {
                syn.vlan(100 + i);
            }
            add(name + " SYN", syn.build(), flow);
            add(name + " data", v4(client, WEB_V4).id(i).dontFragment().tcp(port, 80).tcpFlags(TCP_PSH | TCP_ACK)
                .payload(1 + (i * 37) % 600).build(), flow);
            add(name + " FIN", v4(client, WEB_V4).tcp(port, 80).tcpFlags(TCP_FIN | TCP_ACK).build(), flow);
        }
    }

    private void tcpV6Flows(final int count)
    {
        for (int i = 0; i < count; i++)
        {
            final int flow = flows++;
            final String client = clientV6(i);
            final int port = 50_000 + i;
            final String name = "IPv6 TCP [" + client + "]:" + port + " -> [" + VIP_V6 + "]:443";
            add(name + " SYN", v6(client, VIP_V6).flowLabel(i).tcp(port, 443).tcpFlags(TCP_SYN).build(), flow);
            final PacketBuilder data = v6(client, VIP_V6).trafficClass(i).tcp(port, 443).tcpFlags(TCP_ACK)
                .payload(10 + i * 50);
            if (i % 4 == 1)
            {
                data.hopByHop(8).destinationOptions(16);
            }
            add(name + " data", data.build(), flow);
        }
    }

    private void udpV4Flows(final int count)
    {
        for (int i = 0; i < count; i++)
        {
            final int flow = flows++;
            final String client = clientV4(i + 3);
            final int port = 33_000 + i;
            final String name = "IPv4 UDP " + client + ":" + port + " -> " + DNS_V4 + ":53";
            add(name + " query", v4(client, DNS_V4).udp(port, 53).payload(20 + i).build(), flow);
            add(name + " retry", v4(client, DNS_V4).ttl(3).udp(port, 53).payload(20 + i).padByte(0xA5).build(),
                flow);
        }
    }

    private void udpV6Flows(final int count)
    {
        for (int i = 0; i < count; i++)
        {
            final int flow = flows++;
            final String client = clientV6(i + 1);
            final int port = 34_000 + i;
            final String name = "IPv6 UDP [" + client + "]:" + port + " -> [" + VIP_V6 + "]:53";
            add(name + " query", v6(client, VIP_V6).udp(port, 53).payload(30).build(), flow);
            add(name + " retry", v6(client, VIP_V6).vlan(7).udp(port, 53).payload(31).build(), flow);
        }
    }

    private void fragments()
    {
        final int udp = flows++;
        final String client = clientV4(5);
        add("IPv4 UDP first fragment", v4(client, DNS_V4).id(0x4242).fragment(0, true).udp(33_999, 53).udpLength(58)
            .payload(16).build(), udp);
        add("IPv4 UDP middle fragment", v4(client, DNS_V4).id(0x4242).fragment(3, true).protocol(PROTO_UDP)
            .payload(24).build(), udp);
        add("IPv4 UDP last fragment", v4(client, DNS_V4).id(0x4242).fragment(6, false).protocol(PROTO_UDP)
            .payload(10).build(), udp);
        final int tcp = flows++;
        add("IPv6 TCP first fragment", v6(clientV6(2), VIP_V6).fragmentHeader(0, true, 0x1234).tcp(50_999, 443)
            .payload(12).build(), tcp);
        add("IPv6 TCP last fragment after hop-by-hop", v6(clientV6(2), VIP_V6).hopByHop(8)
            .fragmentHeader(4, false, 0x1234).protocol(PROTO_TCP).payload(24).build(), tcp);
    }

    private void icmpErrors()
    {
        final byte[] quotedV4 = packet().ipv4(WEB_V4, clientV4(0)).dontFragment().tcp(80, 40_000)
            .tcpFlags(TCP_PSH | TCP_ACK).payload(1400).buildIpPacket();
        add("ICMPv4 fragmentation needed quoting flow 0", v4(ROUTER_V4, WEB_V4)
            .icmpv4(3, 4, 1400, truncate(quotedV4, 28)).build(), 0);
        add("ICMPv4 port unreachable quoting a DNS answer", v4(ROUTER_V4, DNS_V4)
            .icmpv4(3, 3, 0, packet().ipv4(DNS_V4, clientV4(3)).udp(53, 33_000).payload(20).buildIpPacket()).build(),
            -1);
        final byte[] quotedV6 = packet().ipv6(VIP_V6, clientV6(0)).tcp(443, 50_000).tcpFlags(TCP_ACK).payload(1400)
            .buildIpPacket();
        add("ICMPv6 packet too big quoting an IPv6 TCP flow", v6(ROUTER_V6, VIP_V6)
            .icmpv6(2, 0, 1280, truncate(quotedV6, 1232)).build(), -1);
        drop(DropReason.ICMP_QUOTE_TRUNCATED, v4(ROUTER_V4, WEB_V4).icmpv4(3, 4, 1400, truncate(quotedV4, 12))
            .build());
        drop(DropReason.ICMP_ECHO_BAD_SOURCE, v4("224.0.0.9", WEB_V4).icmpv4(8, 0, 0x0001_0003, new byte[8]).build());
        drop(DropReason.ICMP_QUOTE_MALFORMED, v4(ROUTER_V4, WEB_V4)
            .icmpv4(3, 4, 1400, packet().ipv4(WEB_V4, clientV4(0)).ihl(3).tcp(80, 40_000).buildIpPacket()).build());
    }

    private void forKernel()
    {
        for (int i = 0; i < 3; i++)
        {
            add("ARP request " + i, packet().ethernet(0xFFFF_FFFF_FFFFL, ROUTER_MAC)
                .etherType(PacketBuilder.ETHERTYPE_ARP).payload(bytes(0, 1, 8, 0, 6, 4, 0, 1)).build(), -1);
        }
        add("ICMPv4 echo to a VIP", v4(clientV4(1), WEB_V4).icmpv4(8, 0, 0x0001_0001, new byte[32]).build(), -1);
        add("ICMPv4 echo to the router", v4(clientV4(2), ROUTER_V4).icmpv4(8, 0, 0x0001_0002, new byte[8]).build(),
            -1);
        add("ICMPv6 echo request to a VIP", v6(clientV6(1), VIP_V6).icmpv6(128, 0, 0x0001_0001, new byte[16]).build(),
            -1);
        add("ICMPv6 neighbour solicitation", v6("fe80::1", "ff02::1:ff00:1").hopLimit(255)
            .icmpv6(135, 0, 0, new byte[16]).build(), -1);
        add("TCP to a VIP address on a port without VIP", v4(clientV4(1), WEB_V4).tcp(40_100, 22).build(), -1);
        add("TCP to no VIP", v4(clientV4(1), "192.0.2.99").tcp(40_101, 80).build(), -1);
        add("UDP over IPv6 to a port without VIP", v6(clientV6(1), VIP_V6).udp(34_100, 123).payload(48).build(), -1);
        add("OSPF hello", v4("10.0.0.2", "224.0.0.5").protocol(89).payload(44).build(), -1);
    }

    private void undeliverable()
    {
        // IPv4 without DF too big for the tunnel: outer fragments, IPv4 ones to an IPv4 backend, IPv6 ones with a
        // Fragment header to an IPv6 backend.
        for (int i = 0; i < 3; i++)
        {
            add("IPv4 without DF too big for the tunnel", v4(clientV4(i), WEB_V4).tcp(41_000 + i, 80).payload(1460)
                .build(), -1);
        }
        // With DF from a source no ICMP error may go to: dropped as too big.
        drop(DropReason.ENCAPSULATED_TOO_BIG, v4("224.0.0.9", WEB_V4).dontFragment().tcp(41_020, 80).payload(1460)
            .build());
        // With DF, and in IPv6, too big means an ICMP error back to the client (IcmpTooBigTest has the bytes).
        add("IPv4 with DF too big for the tunnel", v4(clientV4(3), WEB_V4).dontFragment().tcp(41_010, 80)
            .payload(1460).build(), -1);
        add("IPv6 too big for the tunnel", v6(clientV6(3), VIP_V6).tcp(51_000, 443).payload(1440).build(), -1);
        drop(DropReason.NO_BACKEND, v4(clientV4(4), EMPTY_V4).tcp(42_000, 80).tcpFlags(TCP_SYN).build());
        drop(DropReason.NO_BACKEND, v4(clientV4(5), EMPTY_V4).tcp(42_001, 80).tcpFlags(TCP_SYN).build());
    }

    private void malformed()
    {
        final String c = clientV4(6);
        drop(DropReason.FRAME_TRUNCATED, truncate(v4(c, WEB_V4).tcp(1, 80).build(), 10));
        drop(DropReason.VLAN_TRUNCATED, truncate(v4(c, WEB_V4).vlan(5).tcp(1, 80).build(), 16));
        drop(DropReason.IPV4_TRUNCATED, truncate(v4(c, WEB_V4).tcp(1, 80).noPadding().build(), 30));
        drop(DropReason.IPV4_BAD_VERSION, v4(c, WEB_V4).version(5).tcp(1, 80).build());
        drop(DropReason.IPV4_BAD_IHL, v4(c, WEB_V4).ihl(4).tcp(1, 80).build());
        drop(DropReason.IPV4_OPTIONS_TRUNCATED, truncate(v4(c, WEB_V4).ihl(15).tcp(1, 80).noPadding().build(), 50));
        drop(DropReason.IPV4_TOTAL_LENGTH_EXCEEDS_FRAME, v4(c, WEB_V4).totalLength(1000).tcp(1, 80).build());
        drop(DropReason.IPV4_TOTAL_LENGTH_TOO_SMALL, v4(c, WEB_V4).totalLength(12).tcp(1, 80).build());
        drop(DropReason.IPV6_TRUNCATED, truncate(v6(clientV6(0), VIP_V6).tcp(1, 443).build(), 40));
        drop(DropReason.IPV6_BAD_VERSION, v6(clientV6(0), VIP_V6).version(4).tcp(1, 443).build());
        drop(DropReason.IPV6_PAYLOAD_LENGTH_EXCEEDS_FRAME, v6(clientV6(0), VIP_V6).payloadLength(900).tcp(1, 443)
            .build());
        final PacketBuilder longChain = v6(clientV6(0), VIP_V6);
        for (int i = 0; i < 9; i++)
        {
            longChain.destinationOptions(8);
        }
        drop(DropReason.IPV6_EXTENSION_CHAIN_TOO_LONG, longChain.tcp(1, 443).build());
        // A destination options header claiming 88 bytes where 8 follow.
        drop(DropReason.IPV6_EXTENSION_TRUNCATED, v6(clientV6(0), VIP_V6)
            .extension(PROTO_DSTOPTS, bytes(0, 10, 1, 4, 0, 0, 0, 0)).protocol(PROTO_TCP).noPadding().build());
        drop(DropReason.TCP_TRUNCATED, v4(c, WEB_V4).protocol(PROTO_TCP).payload(12).build());
        drop(DropReason.TCP_BAD_DATA_OFFSET, v4(c, WEB_V4).tcp(1, 80).dataOffset(4).build());
        drop(DropReason.UDP_TRUNCATED, v4(c, DNS_V4).protocol(PROTO_UDP).payload(6).build());
        drop(DropReason.UDP_BAD_LENGTH, v4(c, DNS_V4).udp(1, 53).udpLength(400).payload(4).build());
        drop(DropReason.ICMP_TRUNCATED, v4(c, WEB_V4).protocol(PROTO_ICMP).payload(4).build());
    }
}
