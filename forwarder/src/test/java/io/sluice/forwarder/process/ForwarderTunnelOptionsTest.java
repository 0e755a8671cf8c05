package io.sluice.forwarder.process;

import io.sluice.common.counters.CounterType;
import io.sluice.forwarder.pipeline.TunnelOptions;
import io.sluice.forwarder.pipeline.Verdict;
import io.sluice.forwarder.testing.PcapReader;
import io.sluice.forwarder.testing.PcapWriter;
import io.sluice.testkit.tags.NeedsDpdk;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The forwarder process with {@code forwarder.tunnel_entropy} (GRE key, IPv4 and IPv6 source prefixes) and a port
 * {@code vlan} on DPDK's net_pcap vdevs: the YAML reaches every worker's encapsulator. The output must equal an
 * in-process pipeline with the same options byte for byte, and, checked from the bytes alone, every forwarded frame
 * carries the tag, the K bit and a source from the prefix (so the comparison cannot pass with options ignored on
 * both sides).
 */
@NeedsDpdk
class ForwarderTunnelOptionsTest
{
    private static final int VLAN = 100;

    @RegisterExtension
    final ForwarderProcesses forwarders = new ForwarderProcesses();

    @TempDir
    Path dir;

    @Test
    void writesKeyPerFlowSourcesAndTheTagConfiguredInYaml() throws IOException
    {
        final List<byte[]> input = new ArrayList<>();
        TrafficMix.frames().forEach(frame -> input.add(frame.bytes()));
        final Path in = dir.resolve("in.pcap");
        final Path out = dir.resolve("out.pcap");
        PcapWriter.write(in, input);
        final TunnelOptions options = new TunnelOptions(true, (Inet4Address)InetAddress.getByName("10.200.0.0"), 16,
            (Inet6Address)InetAddress.getByName("fd00:e::"), 96, VLAN);
        final NodeSpec spec = TrafficMix.services(NodeSpec.create(dir)).tunnelOptions(options)
            .vdev("net_pcap0,rx_pcap=" + in + ",tx_pcap=" + out).port("net_pcap0").worker(1, "net_pcap0", "net_pcap0");
        final ReferenceWorker reference = ReferenceWorker.forNode(spec).process(input);

        final ForwarderProcess forwarder = forwarders.start(spec, dir);
        final long forwarded = reference.output().size();
        forwarder.waitUntil("all " + input.size() + " frames judged, " + forwarded + " sent", () ->
        {
            final CounterValues values = forwarder.values();
            return values.sum(CounterType.PORT_RX_PACKETS) == input.size() &&
                values.sum(CounterType.PORT_TX_PACKETS) == forwarded;
        });
        forwarder.awaitCompleteFlush();
        final CounterValues values = forwarder.values();
        forwarder.stop();

        ReferenceComparison.assertRunMatches("writesKeyPerFlowSourcesAndTheTagConfiguredInYaml", out, input,
            reference, values, spec);
        int outerV4 = 0;
        int outerV6 = 0;
        final Set<Integer> sourcesV4 = new HashSet<>();
        final List<byte[]> frames = PcapReader.read(out);
        int echoReplies = 0;
        int laterFragments = 0;
        for (final byte[] frame : frames)
        {
            if (unsigned16(frame, 12) != 0x8100)
            {
                // An echo reply to a VIP leaves as the request came, untagged and not encapsulated.
                final boolean v4 = unsigned16(frame, 12) == 0x0800;
                assertEquals(v4 ? 1 : 58, frame[14 + (v4 ? 9 : 6)], "an untagged frame is an ICMP echo reply");
                echoReplies++;
                continue;
            }
            assertEquals(VLAN, unsigned16(frame, 14) & 0x0FFF, "VLAN id");
            final int etherType = unsigned16(frame, 16);
            final boolean ipv6Fragment = etherType == 0x86DD && frame[18 + 6] == 44;
            if (etherType == 0x0800 && (unsigned16(frame, 18 + 6) & 0x1FFF) != 0 ||
                ipv6Fragment && (unsigned16(frame, 18 + 40 + 2) & 0xFFF8) != 0)
            {
                // a later outer fragment of an IPv4 packet without DF too big for the tunnel: no GRE header
                laterFragments++;
                continue;
            }
            if (etherType == 0x0800)
            {
                outerV4++;
                assertEquals(10, frame[18 + 12]);
                assertEquals((byte)200, frame[18 + 13], "source from 10.200.0.0/16");
                sourcesV4.add(unsigned16(frame, 18 + 14));
                assertEquals(0x2000, unsigned16(frame, 18 + 20), "GRE K bit, nothing else");
            }
            else
            {
                assertEquals(0x86DD, etherType);
                outerV6++;
                final byte[] prefix = Arrays.copyOfRange(InetAddress.getByName("fd00:e::").getAddress(), 0, 12);
                assertTrue(Arrays.equals(prefix, Arrays.copyOfRange(frame, 18 + 8, 18 + 20)),
                    "source from fd00:e::/96");
                // GRE after the Fragment header in the first outer fragment of an IPv6 packet
                assertEquals(0x2000, unsigned16(frame, 18 + 40 + (ipv6Fragment ? 8 : 0)), "GRE K bit, nothing else");
            }
        }
        assertEquals(forwarded, frames.size());
        assertEquals(reference.counters().verdict(Verdict.FORWARD), outerV4 + outerV6, "encapsulated frames");
        assertEquals(reference.counters().verdict(Verdict.REPLY), echoReplies, "echo replies");
        assertEquals(reference.counters().outerFragments() - reference.counters().outerFragmented(), laterFragments,
            "later outer fragments");
        assertTrue(outerV4 > 0 && outerV6 > 0, "both outer families seen: " + outerV4 + " IPv4, " + outerV6 + " IPv6");
        assertTrue(sourcesV4.size() > 10, "per-flow IPv4 sources: " + sourcesV4.size() + " distinct");
        System.out.printf("writesKeyPerFlowSourcesAndTheTagConfiguredInYaml: %d forwarded (%d IPv4 outer, %d IPv6 " +
            "outer, %d distinct IPv4 sources), all tagged VLAN %d with a GRE key%n", frames.size(), outerV4, outerV6,
            sourcesV4.size(), VLAN);
    }

    private static int unsigned16(final byte[] bytes, final int at)
    {
        return ((bytes[at] & 0xFF) << 8) | (bytes[at + 1] & 0xFF);
    }
}
