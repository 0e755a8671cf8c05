package io.sluice.forwarder.pipeline;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.sluice.forwarder.testing.HexDump;
import io.sluice.forwarder.testing.InternetChecksum;
import io.sluice.forwarder.testing.OffHeapFrames;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Any bytes as a frame through a pipeline with a 576-byte tunnel and an {@link IcmpTooBigResponder}, so most
 * frames to a VIP are too big: nothing throws or reads outside the frame (bounds checks on, the buffer ends where
 * the frame ends), and every error it writes is well formed: the MACs swapped, IPv4 and ICMP checksums that verify,
 * lengths that agree, the right type, code and MTU, and a quote that is the start of the packet as received.
 */
class IcmpTooBigFuzzTest
{
    private static final int MAX_FRAME = 9216;
    private static final int MTU = 576;
    private static final PipelineTestbed BED = tooBigBed();
    private static long nowNs = PipelineTestbed.NOW_NS;

    private static PipelineTestbed tooBigBed()
    {
        final PipelineTestbed bed = new PipelineTestbed(PipelineTestbed.config(PipelineTestbed.TUNNEL_SOURCE_V4,
            PipelineTestbed.TUNNEL_SOURCE_V6, PipelineTestbed.SEED, MTU));
        // A large bucket: the clock moves a second per input, so the limit never decides what is checked here.
        bed.pipeline.tooBigResponder(new IcmpTooBigResponder(1_000_000, 1_000_000));
        return bed;
    }

    /**
     * One frame behind 128 bytes of headroom.
     *
     * @param frame the frame.
     */
    @FuzzTest(maxDuration = "30s")
    void answersAnyFrameWithWellFormedErrors(final byte[] frame)
    {
        final byte[] input = frame.length > MAX_FRAME ? Arrays.copyOf(frame, MAX_FRAME) : frame;
        final UnsafeBuffer buffer = OffHeapFrames.behindHeadroom(input, PipelineTestbed.HEADROOM);
        final long sentBefore = BED.counters.icmpTooBigSentV4() + BED.counters.icmpTooBigSentV6();
        nowNs += 1_000_000_000L;
        BED.pipeline.beginBurst(nowNs);
        final int verdict = BED.pipeline.process(buffer, PipelineTestbed.HEADROOM, input.length);
        final long sent = BED.counters.icmpTooBigSentV4() + BED.counters.icmpTooBigSentV6() - sentBefore;
        if (verdict != Verdict.REPLY || sent == 0)
        {
            return; // an echo reply (none here: no echo responder) or no error written
        }
        final int start = BED.pipeline.outOffset();
        final byte[] out = OffHeapFrames.copy(buffer, start, start + BED.pipeline.outLength());
        final String dump = "input\n" + HexDump.hex(input) + "\nerror\n" + HexDump.hex(out);
        assertTrue(start >= 0, dump);
        assertArrayEquals(Arrays.copyOfRange(input, 6, 12), Arrays.copyOfRange(out, 0, 6), "to the sender\n" + dump);
        assertArrayEquals(Arrays.copyOfRange(input, 0, 6), Arrays.copyOfRange(out, 6, 12), "from us\n" + dump);
        final int l2 = (out[12] & 0xFF) == 0x81 && out[13] == 0 ? 18 : 14;
        final int etherType = (out[l2 - 2] & 0xFF) << 8 | out[l2 - 1] & 0xFF;
        final int inputL3 = l2;
        if (etherType == 0x0800)
        {
            checkV4(out, l2, input, inputL3, dump);
        }
        else
        {
            assertEquals(0x86DD, etherType, dump);
            checkV6(out, l2, input, inputL3, dump);
        }
    }

    private static void checkV4(final byte[] out, final int ip, final byte[] input, final int inputIp,
        final String dump)
    {
        assertEquals(0x45, out[ip] & 0xFF, dump);
        assertEquals(0, InternetChecksum.checksum(out, ip, 20), "IPv4 header checksum\n" + dump);
        assertEquals(out.length - ip, (out[ip + 2] & 0xFF) << 8 | out[ip + 3] & 0xFF, "total length\n" + dump);
        assertEquals(1, out[ip + 9], dump);
        final int icmp = ip + 20;
        assertEquals(0, InternetChecksum.checksum(out, icmp, out.length - icmp), "ICMP checksum\n" + dump);
        assertEquals(3, out[icmp] & 0xFF, dump);
        assertEquals(4, out[icmp + 1] & 0xFF, dump);
        final int mtu = (out[icmp + 6] & 0xFF) << 8 | out[icmp + 7] & 0xFF;
        assertTrue(mtu == MTU - 24 || mtu == MTU - 44, "next-hop MTU " + mtu + "\n" + dump);
        final int quote = icmp + 8;
        final int ihl = (input[inputIp] & 0x0F) * 4;
        assertEquals(ihl + 8, out.length - quote, "the IP header and 8 bytes\n" + dump);
        assertArrayEquals(Arrays.copyOfRange(input, inputIp, inputIp + ihl + 8), Arrays.copyOfRange(out, quote,
            out.length), "the quote\n" + dump);
    }

    private static void checkV6(final byte[] out, final int ip, final byte[] input, final int inputIp,
        final String dump)
    {
        assertEquals(6, (out[ip] & 0xF0) >>> 4, dump);
        final int payload = (out[ip + 4] & 0xFF) << 8 | out[ip + 5] & 0xFF;
        assertEquals(out.length - ip - 40, payload, "payload length\n" + dump);
        assertTrue(40 + payload <= 1280, "at most 1280 bytes\n" + dump);
        assertEquals(58, out[ip + 6] & 0xFF, dump);
        final int icmp = ip + 40;
        long sum = InternetChecksum.sum(0, out, ip + 8, 32) + payload + 58;
        sum = InternetChecksum.sum(sum, out, icmp, payload);
        assertEquals(0, InternetChecksum.finish(sum), "ICMPv6 checksum\n" + dump);
        assertEquals(2, out[icmp] & 0xFF, dump);
        final long mtu = ((out[icmp + 4] & 0xFFL) << 24) | (out[icmp + 5] & 0xFF) << 16 | (out[icmp + 6] & 0xFF) << 8 |
            out[icmp + 7] & 0xFF;
        assertEquals(1280, mtu, "MTU raised to 1280 over a 576-byte tunnel\n" + dump);
        final int quote = icmp + 8;
        assertArrayEquals(Arrays.copyOfRange(input, inputIp, inputIp + out.length - quote),
            Arrays.copyOfRange(out, quote, out.length), "the quote\n" + dump);
    }
}
