package io.sluice.forwarder.capture;

import io.sluice.forwarder.testing.HexDump;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PcapNgWriterTest
{
    @TempDir
    Path dir;

    private static byte[] hex(final String text)
    {
        return HexFormat.of().parseHex(text.replaceAll("\\s", ""));
    }

    @Test
    void writesSectionInterfaceAndEnhancedPacketBlocksByteForByte() throws IOException
    {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (PcapNgWriter writer = new PcapNgWriter(out, "ab"))
        {
            writer.addInterface("p0", 65_535);
            writer.writePacket(0, 0x0000_0001_0000_0002L, 60, true, new byte[] {1, 2, 3, 4, 5, 6, 7}, 1, 5);
            writer.writePacket(0, 3, 4, false, new byte[] {9, 9, 9, 9}, 0, 4);
        }
        final byte[] expected = hex(
            // Section Header Block: type, length 40, byte-order magic, version 1.0, section length -1,
            // shb_userappl "ab", end of options, length
            "0a0d0d0a 28000000 4d3c2b1a 0100 0000 ffffffffffffffff 0400 0200 6162 0000 0000 0000 28000000" +
            // Interface Description Block: type 1, length 40, LINKTYPE_ETHERNET, reserved, snaplen 65535,
            // if_name "p0", if_tsresol 9 (ns), end of options, length
            "01000000 28000000 0100 0000 ffff0000 0200 0200 7030 0000 0900 0100 09000000 0000 0000 28000000" +
            // Enhanced Packet Block: type 6, length 52, interface 0, timestamp high 1, low 2, captured 5,
            // original 60, data padded to 8, epb_flags inbound, end of options, length
            "06000000 34000000 00000000 01000000 02000000 05000000 3c000000 0203040506 000000" +
            "0200 0400 01000000 0000 0000 34000000" +
            // the second frame, outbound, no padding needed
            "06000000 30000000 00000000 00000000 03000000 04000000 04000000 09090909" +
            "0200 0400 02000000 0000 0000 30000000");
        assertArrayEquals(expected, out.toByteArray(), "expected\n" + HexDump.hex(expected) + "\nactual\n" +
            HexDump.hex(out.toByteArray()));
    }

    @Test
    void readerReadsBackWhatTheWriterWrote() throws IOException
    {
        final Path file = dir.resolve("x.pcapng");
        final byte[] frame = new byte[61];
        for (int i = 0; i < frame.length; i++)
        {
            frame[i] = (byte)i;
        }
        try (PcapNgWriter writer = new PcapNgWriter(Files.newOutputStream(file), "sluice capture"))
        {
            writer.addInterface("net_pcap0", 128);
            writer.addInterface("net_null0", 128);
            writer.writePacket(1, 1_764_600_000_123_456_789L, 1500, false, frame, 0, frame.length);
            writer.writePacket(0, 1_764_600_000_123_456_790L, 61, true, frame, 0, 60);
            assertEquals(2, writer.packets());
        }
        final List<PcapNgReader.Packet> packets = PcapNgReader.read(file);
        assertEquals(2, packets.size());
        assertEquals("net_null0", packets.get(0).interfaceName());
        assertEquals(1_764_600_000_123_456_789L, packets.get(0).timestampNs());
        assertEquals(1500, packets.get(0).originalLength());
        assertFalse(packets.get(0).inbound());
        assertArrayEquals(frame, packets.get(0).data());
        assertEquals("net_pcap0", packets.get(1).interfaceName());
        assertTrue(packets.get(1).inbound());
        assertEquals(60, packets.get(1).data().length);
    }
}
