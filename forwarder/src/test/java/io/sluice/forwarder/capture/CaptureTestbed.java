package io.sluice.forwarder.capture;

import io.sluice.common.Vip;
import io.sluice.forwarder.lb.ConnectionTable;
import io.sluice.forwarder.pipeline.FrameBurst;
import io.sluice.forwarder.pipeline.IcmpEchoResponder;
import io.sluice.forwarder.pipeline.PacketPipeline;
import io.sluice.forwarder.pipeline.PipelineConfig;
import io.sluice.forwarder.pipeline.PipelineCounters;
import io.sluice.forwarder.state.LoadBalancerState;
import io.sluice.forwarder.state.SnapshotPublisher;
import io.sluice.forwarder.testing.OffHeapFrames;
import io.sluice.forwarder.testing.PacketBuilder;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;

/**
 * A real pipeline with two VIPs (10.0.0.1:80/tcp with backends 192.168.1.10 and .11, 10.0.0.2:53/udp with
 * 192.168.2.10), to give capture tests frames before and after encapsulation.
 */
final class CaptureTestbed
{
    static final long OWN_MAC = PacketBuilder.mac("02:5a:00:00:00:01");
    static final long ROUTER_MAC = PacketBuilder.mac("02:5a:00:00:00:aa");
    static final int HEADROOM = 128;
    static final String CLIENT = "203.0.113.7";

    final PacketPipeline pipeline;
    final FrameBurst burst = new FrameBurst();

    CaptureTestbed()
    {
        final PipelineConfig config = PipelineConfig.withDefaults(OWN_MAC, PacketBuilder.mac("02:5a:00:00:00:fe"),
            (Inet4Address)inet("172.16.0.1"), (Inet6Address)inet("fd00:5::1"), 7).withConnectionTableCapacity(1024);
        final LoadBalancerState state = new LoadBalancerState(config.maxVips(), config.maxBackends(),
            config.maglevTableSize(), config.hashSeed());
        final Vip web = new Vip(inet("10.0.0.1"), 80, Vip.TCP);
        final Vip dns = new Vip(inet("10.0.0.2"), 53, Vip.UDP);
        state.addVip(web);
        state.addBackend(web, inet("192.168.1.10"), 1, true);
        state.addBackend(web, inet("192.168.1.11"), 1, true);
        state.addVip(dns);
        state.addBackend(dns, inet("192.168.2.10"), 1, true);
        pipeline = new PacketPipeline(config, new SnapshotPublisher(state.snapshot()), new ConnectionTable(1024,
            config.tcpIdleTimeoutNs(), config.udpIdleTimeoutNs(), config.otherIdleTimeoutNs()),
            new PipelineCounters(config.maxVips(), config.maxBackends())).echoResponder(new IcmpEchoResponder(1000, 50));
    }

    static PacketBuilder toVip(final String source, final String destination)
    {
        return PacketBuilder.packet().ethernet(OWN_MAC, ROUTER_MAC).ipv4(source, destination);
    }

    /**
     * Puts frames into the burst, each in its own off-heap buffer behind headroom, as the worker does with mbufs.
     */
    void load(final List<byte[]> frames)
    {
        for (int i = 0; i < frames.size(); i++)
        {
            burst.buffer(i).wrap(OffHeapFrames.behindHeadroom(frames.get(i), HEADROOM));
            burst.frame(i, HEADROOM, frames.get(i).length);
        }
        burst.count(frames.size());
    }

    byte[] frame(final int i)
    {
        return OffHeapFrames.copy(burst.buffer(i), burst.offset(i), burst.offset(i) + burst.length(i));
    }

    static InetAddress inet(final String literal)
    {
        try
        {
            return InetAddress.getByName(literal);
        }
        catch (final UnknownHostException ex)
        {
            throw new IllegalArgumentException(literal, ex);
        }
    }
}
