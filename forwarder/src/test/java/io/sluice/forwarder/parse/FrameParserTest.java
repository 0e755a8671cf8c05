package io.sluice.forwarder.parse;

import io.sluice.forwarder.lb.FlowKey;
import io.sluice.forwarder.pipeline.DropReason;
import io.sluice.forwarder.pipeline.PassReason;
import io.sluice.forwarder.testing.HexDump;
import io.sluice.forwarder.testing.OffHeapFrames;
import io.sluice.forwarder.testing.PacketBuilder;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.util.Arrays;

import static io.sluice.forwarder.testing.FlowKeyBytes.flow;
import static io.sluice.forwarder.testing.FlowKeyBytes.fragment;
import static io.sluice.forwarder.testing.PacketBuilder.packet;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The parser on its own: the code, the flow key and the packet facts (IP span, family, TOS) for each kind of
 * frame, without a VIP table or a pipeline around it. The pipeline's fixtures cover the same frames end to end.
 */
class FrameParserTest
{
    private static final int HEADROOM = 64;

    private final FrameParser parser = new FrameParser();
    private final FlowKey key = new FlowKey();

    private static PacketBuilder frame()
    {
        return packet().ethernet(0x02_00_00_00_00_01L, 0x02_00_00_00_00_02L);
    }

    private int parse(final byte[] frame)
    {
        final UnsafeBuffer buffer = OffHeapFrames.behindHeadroom(frame, HEADROOM);
        return parser.parse(key, buffer, HEADROOM, frame.length);
    }

    private void assertKey(final byte[] expected, final byte[] frame)
    {
        assertArrayEquals(expected, key.toBytes(), () -> "flow key of frame\n" + HexDump.hex(frame));
    }

    @Test
    void keysTcpOnTheFiveTupleAndSpansTheIpPacketWithoutPadding()
    {
        final byte[] frame = frame().ipv4("198.51.100.7", "192.0.2.10").tos(0xB8).tcp(40000, 80).build();
        assertEquals(FrameParser.FLOW, parse(frame));
        assertKey(flow("198.51.100.7", "192.0.2.10", 40000, 80, PacketBuilder.PROTO_TCP), frame);
        assertEquals(HEADROOM + PacketBuilder.ETHERNET_LENGTH, parser.ipOffset());
        assertEquals(HEADROOM + PacketBuilder.ETHERNET_LENGTH + 20 + 20, parser.ipEnd(), "padding is not the packet");
        assertFalse(parser.ipv6());
        assertEquals(0xB8, parser.tos());
    }

    @Test
    void skipsIpv4OptionsAndOneVlanTag()
    {
        final byte[] frame = frame().vlan(12).ipv4("198.51.100.7", "192.0.2.10")
            .ipv4Options(new byte[]{1, 1, 1, 0}).udp(5353, 53).payload(4).build();
        assertEquals(FrameParser.FLOW, parse(frame));
        assertKey(flow("198.51.100.7", "192.0.2.10", 5353, 53, PacketBuilder.PROTO_UDP), frame);
        assertEquals(HEADROOM + PacketBuilder.ETHERNET_LENGTH + PacketBuilder.VLAN_TAG_LENGTH, parser.ipOffset());
    }

    @Test
    void keysIpv4FragmentsOnTheThreeTuple()
    {
        final byte[] frame = frame().ipv4("198.51.100.7", "192.0.2.10").protocol(PacketBuilder.PROTO_TCP)
            .fragment(185, false).payload(24).build();
        assertEquals(FrameParser.FRAGMENT, parse(frame));
        assertKey(fragment("198.51.100.7", "192.0.2.10", PacketBuilder.PROTO_TCP), frame);
    }

    @Test
    void walksIpv6ExtensionsToTheTransportHeader()
    {
        final byte[] frame = frame().ipv6("2001:db8::7", "2001:db8:1::10").trafficClass(0x28)
            .hopByHop(8).destinationOptions(16).tcp(40000, 443).build();
        assertEquals(FrameParser.FLOW, parse(frame));
        assertKey(flow("2001:db8::7", "2001:db8:1::10", 40000, 443, PacketBuilder.PROTO_TCP), frame);
        assertTrue(parser.ipv6());
        assertEquals(0x28, parser.tos());
    }

    @Test
    void stopsTheIpv6WalkAtTheFragmentHeader()
    {
        final byte[] frame = frame().ipv6("2001:db8::7", "2001:db8:1::10")
            .fragmentHeader(0, true, 77).udp(5353, 53).payload(16).build();
        assertEquals(FrameParser.FRAGMENT, parse(frame));
        assertKey(fragment("2001:db8::7", "2001:db8:1::10", PacketBuilder.PROTO_UDP), frame);
    }

    @Test
    void keysAnIcmpErrorOnTheReverseOfTheFlowItQuotes()
    {
        final byte[] quoted = packet().ipv4("192.0.2.10", "198.51.100.7").tcp(80, 40000).buildIpPacket();
        final byte[] quote = Arrays.copyOf(quoted, 28);
        final byte[] frame = frame().ipv4("203.0.113.1", "192.0.2.10").icmpv4(3, 4, 1400, quote).build();
        assertEquals(FrameParser.FLOW, parse(frame));
        assertKey(flow("198.51.100.7", "192.0.2.10", 40000, 80, PacketBuilder.PROTO_TCP), frame);
    }

    @Test
    void reportsEchoRequestsOnlyWhenAsked()
    {
        final byte[] frame = frame().ipv4("198.51.100.7", "192.0.2.10").icmpv4(8, 0, 0x0001_0001, new byte[8])
            .build();
        assertEquals(FrameParser.passCode(PassReason.NOT_LOAD_BALANCED), parse(frame));

        parser.echoRequests(true);
        assertEquals(FrameParser.ECHO_REQUEST, parse(frame));
        assertEquals(HEADROOM + PacketBuilder.ETHERNET_LENGTH + 20, parser.echoIcmpOffset());
        assertKey(flow("198.51.100.7", "192.0.2.10", 0, 0, PacketBuilder.PROTO_ICMP), frame);
    }

    @Test
    void passesWhatIsNotIpAndDropsWhatIsMalformedWithItsReason()
    {
        assertEquals(FrameParser.passCode(PassReason.NOT_IP),
            parse(frame().etherType(PacketBuilder.ETHERTYPE_ARP).payload(28).build()));
        assertEquals(FrameParser.dropCode(DropReason.FRAME_TRUNCATED), parse(new byte[13]));
        assertEquals(FrameParser.dropCode(DropReason.IPV4_BAD_IHL),
            parse(frame().ipv4("198.51.100.7", "192.0.2.10").ihl(4).tcp(1, 2).build()));
        assertEquals(FrameParser.dropCode(DropReason.TCP_BAD_DATA_OFFSET),
            parse(frame().ipv4("198.51.100.7", "192.0.2.10").tcp(1, 2).dataOffset(4).build()));
        assertEquals(FrameParser.dropCode(DropReason.IPV6_EXTENSION_CHAIN_TOO_LONG),
            parse(frame().ipv6("2001:db8::7", "2001:db8:1::10").hopByHop(8).destinationOptions(8)
                .destinationOptions(8).destinationOptions(8).destinationOptions(8).destinationOptions(8)
                .destinationOptions(8).destinationOptions(8).destinationOptions(8).tcp(1, 2).build()));
    }

    @Test
    void refusesHeapBuffers()
    {
        final byte[] frame = frame().ipv4("198.51.100.7", "192.0.2.10").tcp(1, 2).build();
        assertThrows(IllegalArgumentException.class,
            () -> parser.parse(key, new UnsafeBuffer(frame), 0, frame.length));
    }
}
