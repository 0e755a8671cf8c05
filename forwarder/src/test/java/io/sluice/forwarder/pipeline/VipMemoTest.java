package io.sluice.forwarder.pipeline;

import io.sluice.common.Vip;
import org.junit.jupiter.api.Test;

import static io.sluice.forwarder.pipeline.PipelineTestbed.CLIENT_V4;
import static io.sluice.forwarder.pipeline.PipelineTestbed.CLIENT_V6;
import static io.sluice.forwarder.pipeline.PipelineTestbed.OWN_MAC;
import static io.sluice.forwarder.pipeline.PipelineTestbed.ROUTER_MAC;
import static io.sluice.forwarder.pipeline.PipelineTestbed.inet;
import static io.sluice.forwarder.testing.PacketBuilder.packet;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The pipeline keeps the last flow's VIP for the next frame to the same address, port and protocol: every frame
 * that differs in any of them, or that comes after a new snapshot, must get the VIP table's own answer.
 */
class VipMemoTest
{
    private final PipelineTestbed bed = PipelineTestbed.standard();

    private static byte[] tcp(final String destination, final int port)
    {
        return packet().ethernet(OWN_MAC, ROUTER_MAC).ipv4(CLIENT_V4, destination).tcp(40000, port).build();
    }

    private static byte[] udp(final String destination, final int port)
    {
        return packet().ethernet(OWN_MAC, ROUTER_MAC).ipv4(CLIENT_V4, destination).udp(40000, port).build();
    }

    private static byte[] tcp6(final String destination, final int port)
    {
        return packet().ethernet(OWN_MAC, ROUTER_MAC).ipv6(CLIENT_V6, destination).tcp(40000, port).build();
    }

    private String verdict(final byte[] frame)
    {
        return bed.process(frame, 128).describe();
    }

    @Test
    void framesThatDifferInAddressPortProtocolOrFamilyAreLookedUpAgain()
    {
        assertEquals("FORWARD", verdict(tcp("10.0.0.1", 80)));
        assertEquals("PASS", verdict(tcp("10.0.0.1", 81)), "same address, another port: no VIP");
        assertEquals("FORWARD", verdict(tcp("10.0.0.1", 80)));
        assertEquals("PASS", verdict(udp("10.0.0.1", 80)), "same address and port, UDP: no VIP");
        assertEquals("FORWARD", verdict(udp("10.0.0.1", 53)));
        assertEquals("PASS", verdict(tcp("10.0.0.1", 53)), "the DNS VIP is UDP only");
        assertEquals("PASS", verdict(tcp("10.0.0.9", 80)), "another address");
        assertEquals("FORWARD", verdict(tcp("10.0.0.2", 9999)), "the all-ports VIP");
        assertEquals("FORWARD", verdict(tcp6("2001:db8::1", 443)));
        assertEquals("PASS", verdict(tcp6("2001:db8::2", 443)), "another IPv6 address");
    }

    @Test
    void aNewSnapshotForgetsTheLastAnswer()
    {
        final Vip added = PipelineTestbed.vip("10.0.0.9", 80, Vip.TCP);
        assertEquals("PASS", verdict(tcp("10.0.0.9", 80)));
        bed.state.addVip(added);
        bed.state.addBackend(added, inet("192.168.9.10"), 1, true);
        bed.publisher.publish(bed.state.snapshot());
        assertEquals("FORWARD", verdict(tcp("10.0.0.9", 80)), "a VIP added since the last frame to it");

        bed.state.removeVip(added);
        bed.publisher.publish(bed.state.snapshot());
        assertEquals("PASS", verdict(tcp("10.0.0.9", 80)), "a VIP removed since the last frame to it");
    }
}
