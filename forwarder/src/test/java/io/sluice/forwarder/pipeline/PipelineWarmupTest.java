package io.sluice.forwarder.pipeline;

import org.junit.jupiter.api.Test;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The JIT warm-up must run the packet path it claims to profile: every synthetic frame forwarded (a frame the parser
 * or the encapsulation refused would profile a drop path instead), mostly hits with a steady share of misses, for
 * each tunnel family and with tunnel options.
 */
class PipelineWarmupTest
{
    private static final long OWN_MAC = 0x02_00_00_00_00_01L;
    private static final long ROUTER_MAC = 0x02_00_00_00_00_FEL;
    private static final int BURSTS = 2_000;

    private static PipelineConfig config(final String sourceV4, final String sourceV6) throws UnknownHostException
    {
        return PipelineConfig.withDefaults(OWN_MAC, ROUTER_MAC,
            sourceV4 == null ? null : (Inet4Address)InetAddress.getByName(sourceV4),
            sourceV6 == null ? null : (Inet6Address)InetAddress.getByName(sourceV6), 0x5EED);
    }

    private static void assertSteadyMix(final PipelineWarmup.Result result)
    {
        final long frames = (long)BURSTS * FrameBurst.MAX_BURST;
        assertEquals(BURSTS, result.bursts());
        assertEquals(frames, result.frames());
        assertEquals(frames, result.forwarded(), "every synthetic frame forwarded");
        assertEquals(frames, result.hits() + result.misses(), "every frame looked up once");
        // new flows are 4 of every 32 frames, plus the first lap over the established flows
        final double missShare = (double)result.misses() / frames;
        assertTrue(missShare > 0.12 && missShare < 0.2, "miss share " + missShare);
        // its table doubled from 512 to 8192 entries while the first bursts filled it: the doubling's paths profiled
        assertEquals(4, result.doublings());
    }

    @Test
    void forwardsEveryFrameThroughAnIpv4Tunnel() throws UnknownHostException
    {
        assertSteadyMix(PipelineWarmup.run(config("10.255.0.1", null), TunnelOptions.NONE, BURSTS));
    }

    @Test
    void forwardsEveryFrameThroughAnIpv6TunnelWhenTheNodeHasOnlyAnIpv6Source() throws UnknownHostException
    {
        assertSteadyMix(PipelineWarmup.run(config(null, "2001:db8:ff::1"), TunnelOptions.NONE, BURSTS));
    }

    @Test
    void forwardsEveryFrameWithTunnelOptions() throws UnknownHostException
    {
        final TunnelOptions options =
            new TunnelOptions(true, (Inet4Address)InetAddress.getByName("10.254.0.0"), 16, null, 0, 100);
        assertSteadyMix(PipelineWarmup.run(config("10.255.0.1", null), options, BURSTS));
    }

    @Test
    void zeroBurstsDoNothingAndANegativeCountIsRefused() throws UnknownHostException
    {
        final PipelineWarmup.Result none = PipelineWarmup.run(config("10.255.0.1", null), TunnelOptions.NONE, 0);
        assertEquals(0, none.frames());
        assertEquals(0, none.hits() + none.misses());
        assertThrows(IllegalArgumentException.class,
            () -> PipelineWarmup.run(config("10.255.0.1", null), TunnelOptions.NONE, -1));
    }
}
