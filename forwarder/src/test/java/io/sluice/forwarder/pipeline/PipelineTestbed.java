package io.sluice.forwarder.pipeline;

import io.sluice.common.Vip;
import io.sluice.forwarder.maglev.MaglevTable;
import io.sluice.forwarder.maglev.MaglevTableBuilder;
import io.sluice.forwarder.lb.ConnectionTable;
import io.sluice.forwarder.state.LoadBalancerState;
import io.sluice.forwarder.state.SnapshotPublisher;
import io.sluice.forwarder.testing.FlowKeyBytes;
import io.sluice.forwarder.testing.OffHeapFrames;
import io.sluice.forwarder.testing.PacketBuilder;
import io.sluice.forwarder.testing.TunnelFrames;
import org.agrona.concurrent.UnsafeBuffer;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * A real {@link PacketPipeline} over a small service set, plus an independent prediction of where each flow goes.
 * Frames are processed the way DPDK lays them out: {@link #HEADROOM} bytes of headroom, then the frame, in a
 * buffer that ends exactly where the frame ends (so any read past the frame throws).
 * <pre>
 *   10.0.0.1:80/tcp        192.168.1.10, .11, .12
 *   10.0.0.1:53/udp        192.168.2.10, .11
 *   10.0.0.2:* /tcp        192.168.3.10, .11, .12    (all ports)
 *   10.0.0.3:80/tcp        (no backends)
 *   10.0.0.4:443/tcp       2001:db8:b::20            (IPv4 in IPv6)
 *   10.0.0.5:80/tcp        192.168.5.10 unhealthy, 192.168.5.11 weight 0
 *   [2001:db8::1]:443/tcp  2001:db8:b::10, 2001:db8:b::11
 *   [2001:db8::1]:53/udp   192.168.6.10              (IPv6 in IPv4)
 * </pre>
 */
final class PipelineTestbed
{
    static final long OWN_MAC = PacketBuilder.mac("02:5a:00:00:00:01");
    static final long NEXT_HOP_MAC = PacketBuilder.mac("02:5a:00:00:00:fe");
    static final long ROUTER_MAC = PacketBuilder.mac("02:5a:00:00:00:aa");
    static final String TUNNEL_SOURCE_V4 = "172.16.0.1";
    static final String TUNNEL_SOURCE_V6 = "fd00:5::1";
    static final long SEED = 0x5EED_F00DL;
    static final int HEADROOM = 128;
    static final int CONNECTION_TABLE_CAPACITY = 1024;
    static final long NOW_NS = 1_000_000_000L;

    static final String CLIENT_V4 = "203.0.113.7";
    static final String CLIENT_V6 = "2001:db8:c::7";
    static final String ROUTER_V4 = "198.51.100.1";
    static final String ROUTER_V6 = "2001:db8:ff::1";

    static final Vip WEB_V4 = vip("10.0.0.1", 80, Vip.TCP);
    static final Vip DNS_V4 = vip("10.0.0.1", 53, Vip.UDP);
    static final Vip ANY_PORT_V4 = vip("10.0.0.2", Vip.ALL_PORTS, Vip.TCP);
    static final Vip EMPTY_V4 = vip("10.0.0.3", 80, Vip.TCP);
    static final Vip V6_BACKEND_V4 = vip("10.0.0.4", 443, Vip.TCP);
    static final Vip UNAVAILABLE_V4 = vip("10.0.0.5", 80, Vip.TCP);
    static final Vip WEB_V6 = vip("2001:db8::1", 443, Vip.TCP);
    static final Vip DNS_V6 = vip("2001:db8::1", 53, Vip.UDP);

    final PipelineConfig config;
    final LoadBalancerState state;
    final SnapshotPublisher publisher;
    final PipelineCounters counters;
    final PacketPipeline pipeline;
    final ExpectedCounters expected;
    private final Map<Integer, InetAddress> backendsBySlot = new HashMap<>();

    PipelineTestbed(final PipelineConfig config)
    {
        this(config, TunnelOptions.NONE);
    }

    PipelineTestbed(final PipelineConfig config, final TunnelOptions tunnel)
    {
        this.config = config;
        state = new LoadBalancerState(config.maxVips(), config.maxBackends(), config.maglevTableSize(),
            config.hashSeed());
        addVip(WEB_V4, "192.168.1.10", "192.168.1.11", "192.168.1.12");
        addVip(DNS_V4, "192.168.2.10", "192.168.2.11");
        addVip(ANY_PORT_V4, "192.168.3.10", "192.168.3.11", "192.168.3.12");
        addVip(EMPTY_V4);
        addVip(V6_BACKEND_V4, "2001:db8:b::20");
        addVip(UNAVAILABLE_V4);
        backendsBySlot.put(state.addBackend(UNAVAILABLE_V4, inet("192.168.5.10"), 1, false), inet("192.168.5.10"));
        backendsBySlot.put(state.addBackend(UNAVAILABLE_V4, inet("192.168.5.11"), 0, true), inet("192.168.5.11"));
        addVip(WEB_V6, "2001:db8:b::10", "2001:db8:b::11");
        addVip(DNS_V6, "192.168.6.10");
        publisher = new SnapshotPublisher(state.snapshot());
        counters = new PipelineCounters(config.maxVips(), config.maxBackends());
        pipeline = new PacketPipeline(config, tunnel, publisher, new ConnectionTable(config.connectionTableCapacity(),
            config.tcpIdleTimeoutNs(), config.udpIdleTimeoutNs(), config.otherIdleTimeoutNs()), counters);
        expected = new ExpectedCounters(config.maxVips(), config.maxBackends());
    }

    /**
     * Both tunnel sources, default MTU, a 1024-entry connection table.
     */
    static PipelineTestbed standard()
    {
        return new PipelineTestbed(config(TUNNEL_SOURCE_V4, TUNNEL_SOURCE_V6, SEED, PipelineConfig.DEFAULT_TUNNEL_MTU));
    }

    /**
     * As {@link #standard()}, with a connection table of another capacity.
     */
    static PipelineTestbed withConnectionTable(final int capacity)
    {
        final PipelineConfig c = config(TUNNEL_SOURCE_V4, TUNNEL_SOURCE_V6, SEED, PipelineConfig.DEFAULT_TUNNEL_MTU);
        return new PipelineTestbed(new PipelineConfig(c.ownMac(), c.nextHopMac(), c.tunnelSourceV4(),
            c.tunnelSourceV6(), c.hashSeed(), c.maglevTableSize(), capacity, c.tcpIdleTimeoutNs(),
            c.udpIdleTimeoutNs(), c.otherIdleTimeoutNs(), c.tunnelMtu(), c.maxVips(), c.maxBackends()));
    }

    static PipelineConfig config(final String sourceV4, final String sourceV6, final long seed, final int tunnelMtu)
    {
        final PipelineConfig defaults = PipelineConfig.withDefaults(OWN_MAC, NEXT_HOP_MAC,
            sourceV4 == null ? null : (Inet4Address)inet(sourceV4),
            sourceV6 == null ? null : (Inet6Address)inet(sourceV6), seed);
        return new PipelineConfig(defaults.ownMac(), defaults.nextHopMac(), defaults.tunnelSourceV4(),
            defaults.tunnelSourceV6(), defaults.hashSeed(), MaglevTableBuilder.DEFAULT_TABLE_SIZE,
            CONNECTION_TABLE_CAPACITY, defaults.tcpIdleTimeoutNs(), defaults.udpIdleTimeoutNs(),
            defaults.otherIdleTimeoutNs(), tunnelMtu, defaults.maxVips(), defaults.maxBackends());
    }

    private void addVip(final Vip vip, final String... backends)
    {
        state.addVip(vip);
        for (final String backend : backends)
        {
            backendsBySlot.put(state.addBackend(vip, inet(backend), 1, true), inet(backend));
        }
    }

    int vipIndex(final Vip vip)
    {
        return state.vipIndex(vip);
    }

    /**
     * Predicts the backend slot of a flow: XXH64 of the canonical key bytes, looked up in the VIP's Maglev table.
     *
     * @return the slot, or {@link MaglevTable#NO_BACKEND}.
     */
    int expectedSlot(final Vip vip, final byte[] key)
    {
        return state.snapshot().maglev(vipIndex(vip)).lookup(FlowKeyBytes.hash(key, config.hashSeed()));
    }

    InetAddress backend(final int slot)
    {
        return backendsBySlot.get(slot);
    }

    boolean isIpv6Backend(final int slot)
    {
        return backend(slot) instanceof Inet6Address;
    }

    int overhead(final int slot)
    {
        return isIpv6Backend(slot) ? TunnelFrames.IPV6_OVERHEAD : TunnelFrames.IPV4_OVERHEAD;
    }

    /**
     * Builds the frame the backend of {@code slot} should receive for an inner packet of the flow {@code key}.
     */
    byte[] expectedTunnelFrame(final int slot, final byte[] key, final byte[] inner, final int tos)
    {
        final byte[] backend = backend(slot).getAddress();
        if (backend.length == 16)
        {
            final int flowLabel = (int)FlowKeyBytes.hash(key, config.hashSeed()) & 0xF_FFFF;
            return TunnelFrames.greIpv6(NEXT_HOP_MAC, OWN_MAC, config.tunnelSourceV6().getAddress(), backend, tos,
                flowLabel, inner);
        }
        return TunnelFrames.greIpv4(NEXT_HOP_MAC, OWN_MAC, config.tunnelSourceV4().getAddress(), backend, tos,
            inner);
    }

    /**
     * Copies a frame behind {@code headroom} bytes into a buffer that ends with the frame, and processes it.
     */
    Outcome process(final byte[] frame, final int headroom)
    {
        final UnsafeBuffer buffer = OffHeapFrames.behindHeadroom(frame, headroom);
        pipeline.beginBurst(NOW_NS);
        try
        {
            final int verdict = pipeline.process(buffer, headroom, frame.length);
            return new Outcome(verdict, pipeline.dropReason(), pipeline.outOffset(), pipeline.outLength(),
                pipeline.backend(), OffHeapFrames.toArray(buffer), null);
        }
        catch (final RuntimeException | AssertionError ex)
        {
            return new Outcome(-1, -1, -1, -1, -1, OffHeapFrames.toArray(buffer), ex);
        }
    }

    /**
     * What processing one frame did.
     *
     * @param verdict    the {@link Verdict}, or -1 if processing threw.
     * @param dropReason drop reason ordinal (meaningful after DROP).
     * @param outOffset  encapsulated frame start (after FORWARD).
     * @param outLength  encapsulated frame length (after FORWARD).
     * @param backend    chosen slot (after FORWARD).
     * @param memory     the whole buffer after processing.
     * @param thrown     what processing threw, or null.
     */
    record Outcome(int verdict, int dropReason, int outOffset, int outLength, int backend, byte[] memory,
        Throwable thrown)
    {
        byte[] output()
        {
            return Arrays.copyOfRange(memory, outOffset, outOffset + outLength);
        }

        String describe()
        {
            if (thrown != null)
            {
                return "threw " + thrown;
            }
            return Verdict.name(verdict) + (verdict == Verdict.DROP ? " " + DropReason.get(dropReason) : "");
        }
    }

    static Vip vip(final String address, final int port, final int protocol)
    {
        return new Vip(inet(address), port, protocol);
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
