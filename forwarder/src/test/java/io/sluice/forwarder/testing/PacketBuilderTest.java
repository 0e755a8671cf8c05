package io.sluice.forwarder.testing;

import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;

import static io.sluice.forwarder.testing.PacketBuilder.packet;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The fixture tools are only as good as the bytes they write: checks them against literal packets.
 */
class PacketBuilderTest
{
    private static final long DST = PacketBuilder.mac("02:00:00:00:00:01");
    private static final long SRC = PacketBuilder.mac("02:00:00:00:00:02");

    @Test
    void computesTheRfc1071ChecksumOfAKnownHeader()
    {
        final byte[] header = HexFormat.of().parseHex("450000730000400040110000c0a80001c0a800c7");
        assertEquals(0xB861, InternetChecksum.checksum(header, 0, header.length));
        header[10] = (byte)0xB8;
        header[11] = 0x61;
        assertEquals(0, InternetChecksum.checksum(header, 0, header.length));
    }

    @Test
    void buildsAPaddedIpv4TcpFrame()
    {
        final PacketBuilder builder = packet().ethernet(DST, SRC).ipv4("192.0.2.1", "192.0.2.2").tos(0xB8).ttl(61)
            .id(0x1234).dontFragment().tcp(1000, 80).tcpFlags(PacketBuilder.TCP_SYN);
        final byte[] frame = builder.build();
        assertEquals(PacketBuilder.MIN_FRAME_LENGTH, frame.length);
        assertEquals(14, builder.l3Offset());
        assertArrayEquals(HexFormat.of().parseHex(
            "020000000001020000000002080045b8002812344000" + "3d06" + "0000" + "c0000201c0000202" +
            "03e8005001020304000000005002ffff00000000" + "000000000000"), withChecksumZero(frame, 24));
        assertEquals(0, InternetChecksum.checksum(frame, 14, 20), "header checksum verifies");
        assertEquals(40, builder.ipPacket().length);
    }

    @Test
    void buildsIpv4OptionsAndOverrides()
    {
        final byte[] ip = packet().ipv4("192.0.2.1", "192.0.2.2").ipv4Options(new byte[8]).version(5).ihl(3)
            .totalLength(9).udp(1, 2).udpLength(3).buildIpPacket();
        assertEquals(0x53, ip[0] & 0xFF);
        assertEquals(9, ((ip[2] & 0xFF) << 8) | (ip[3] & 0xFF));
        assertEquals(28 + 8, ip.length);
        assertEquals(3, ip[28 + 5]);
    }

    @Test
    void chainsIpv6ExtensionHeaders()
    {
        final byte[] ip = packet().ipv6("2001:db8::1", "2001:db8::2").trafficClass(0xAB).flowLabel(0x12345)
            .hopByHop(8).routing(4, 0, 24).fragmentHeader(5, true, 0x01020304).destinationOptions(16)
            .tcp(1, 2).buildIpPacket();
        final ByteBuffer b = ByteBuffer.wrap(ip);
        assertEquals(0x6AB1_2345, b.getInt(0));
        assertEquals(8 + 24 + 8 + 16 + 20, b.getShort(4));
        assertEquals(PacketBuilder.PROTO_HOPOPTS, ip[6]);
        assertEquals(PacketBuilder.PROTO_ROUTING, ip[40]);
        assertEquals(0, ip[41]);
        assertEquals(PacketBuilder.PROTO_FRAGMENT, ip[48]);
        assertEquals(2, ip[49]);
        assertEquals(PacketBuilder.PROTO_DSTOPTS, ip[72]);
        assertEquals((5 << 3) | 1, b.getShort(74));
        assertEquals(0x01020304, b.getInt(76));
        assertEquals(PacketBuilder.PROTO_TCP, ip[80]);
        assertEquals(1, ip[81]);
    }

    @Test
    void writesTheExpectedIpv4Tunnel()
    {
        final byte[] inner = packet().ipv6("2001:db8::1", "2001:db8::2").tcp(1, 2).buildIpPacket();
        final byte[] frame = TunnelFrames.greIpv4(DST, SRC, PacketBuilder.address("172.16.0.1"),
            PacketBuilder.address("192.168.1.1"), 0x2E, inner);
        assertEquals(14 + 24 + inner.length, frame.length);
        assertArrayEquals(HexFormat.of().parseHex("0200000000010200000000020800452e" +
            String.format("%04x", 24 + inner.length) + "00004000402f"), Arrays.copyOf(frame, 24));
        assertEquals(0, InternetChecksum.checksum(frame, 14, 20));
        assertArrayEquals(HexFormat.of().parseHex("000086dd"), Arrays.copyOfRange(frame, 34, 38));
        assertArrayEquals(inner, Arrays.copyOfRange(frame, 38, frame.length));
    }

    @Test
    void writesTheExpectedIpv6Tunnel()
    {
        final byte[] inner = packet().ipv4("192.0.2.1", "192.0.2.2").udp(1, 2).buildIpPacket();
        final byte[] frame = TunnelFrames.greIpv6(DST, SRC, PacketBuilder.address("fd00::1"),
            PacketBuilder.address("fd00::2"), 0xB9, 0xFABCDE, inner);
        final ByteBuffer b = ByteBuffer.wrap(frame);
        assertEquals(0x86DD, b.getShort(12) & 0xFFFF);
        assertEquals(0x6B9A_BCDE, b.getInt(14));
        assertEquals(4 + inner.length, b.getShort(18));
        assertEquals(47, frame[20]);
        assertEquals(64, frame[21]);
        assertEquals(0x0800, b.getInt(54));
        assertArrayEquals(inner, Arrays.copyOfRange(frame, 58, frame.length));
    }

    @Test
    void printsSixteenBytesPerLine()
    {
        assertEquals("0000  41 42 43 44 45 46 47 48  49 4a 4b 4c 4d 4e 4f 50  ABCDEFGHIJKLMNOP\n" +
                "0010  00 7f                                             ..\n",
            HexDump.hex(PacketBuilder.bytes(0x41, 0x42, 0x43, 0x44, 0x45, 0x46, 0x47, 0x48, 0x49, 0x4a, 0x4b, 0x4c,
                0x4d, 0x4e, 0x4f, 0x50, 0, 0x7f)));
    }

    @Test
    void writesAClassicPcapFile()
    {
        final byte[] file = PcapWriter.toBytes(List.of(new byte[] {1, 2, 3}, new byte[60]));
        final ByteBuffer b = ByteBuffer.wrap(file).order(ByteOrder.LITTLE_ENDIAN);
        assertEquals(0xA1B2_C3D4, b.getInt(0));
        assertEquals(2, b.getShort(4));
        assertEquals(4, b.getShort(6));
        assertEquals(PcapWriter.LINKTYPE_ETHERNET, b.getInt(20));
        assertEquals(3, b.getInt(24 + 8));
        assertEquals(3, b.getInt(24 + 12));
        assertEquals(24 + 16 + 3 + 16 + 60, file.length);
    }

    private static byte[] withChecksumZero(final byte[] frame, final int offset)
    {
        final byte[] copy = frame.clone();
        copy[offset] = 0;
        copy[offset + 1] = 0;
        return copy;
    }
}
