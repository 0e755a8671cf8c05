package io.sluice.forwarder.capture;

import io.sluice.forwarder.pipeline.Verdict;
import io.sluice.forwarder.testing.PacketBuilder;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.sluice.forwarder.capture.CaptureTestbed.CLIENT;
import static io.sluice.forwarder.capture.CaptureTestbed.inet;
import static io.sluice.forwarder.capture.CaptureTestbed.toVip;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CaptureFilterTest
{
    private static final byte[] TO_WEB = toVip(CLIENT, "10.0.0.1").tcp(40_000, 80).build();
    private static final byte[] TO_DNS = toVip(CLIENT, "10.0.0.2").udp(40_001, 53).payload(20).build();
    private static final byte[] ARP = PacketBuilder.packet().ethernet(0xFFFF_FFFF_FFFFL, CaptureTestbed.ROUTER_MAC)
        .etherType(PacketBuilder.ETHERTYPE_ARP).payload(28).build();

    private static boolean rx(final CaptureFilter filter, final byte[] frame)
    {
        return filter.matches(new UnsafeBuffer(frame), 0, frame.length, CaptureFilter.RX, 0);
    }

    private static boolean tx(final CaptureFilter filter, final byte[] frame)
    {
        return filter.matches(new UnsafeBuffer(frame), 0, frame.length, CaptureFilter.TX, 0);
    }

    // The frame as the forwarder transmits it: GRE to the backend the pipeline chose.
    private static byte[] encapsulated(final byte[] frame)
    {
        final CaptureTestbed bed = new CaptureTestbed();
        bed.load(List.of(frame));
        bed.pipeline.processBurst(bed.burst, 1);
        assertEquals(Verdict.FORWARD, bed.burst.verdict(0));
        return bed.frame(0);
    }

    @Test
    void emptyFilterTakesEverythingInBothDirections()
    {
        final CaptureFilter filter = new CaptureFilter();
        assertTrue(rx(filter, TO_WEB));
        assertTrue(tx(filter, TO_WEB));
        assertTrue(rx(filter, ARP), "non-IP too");
    }

    @Test
    void directionAndPortMustMatch()
    {
        final CaptureFilter filter = new CaptureFilter().directions(CaptureFilter.RX).port(1);
        assertFalse(rx(filter, TO_WEB), "port 0");
        assertTrue(filter.matches(new UnsafeBuffer(TO_WEB), 0, TO_WEB.length, CaptureFilter.RX, 1));
        assertFalse(filter.matches(new UnsafeBuffer(TO_WEB), 0, TO_WEB.length, CaptureFilter.TX, 1));
    }

    @Test
    void vipMatchesTheInnerPacketBeforeAndAfterEncapsulationAndRepliesFromIt()
    {
        final CaptureFilter filter = new CaptureFilter().vip(inet("10.0.0.1"), 80);
        assertTrue(rx(filter, TO_WEB));
        assertTrue(tx(filter, encapsulated(TO_WEB)), "the GRE frame carries the VIP's flow");
        assertFalse(rx(filter, TO_DNS));
        assertFalse(tx(filter, encapsulated(TO_DNS)));
        assertFalse(rx(filter, toVip(CLIENT, "10.0.0.1").tcp(40_000, 443).build()), "another port");
        assertTrue(rx(filter, toVip("10.0.0.1", CLIENT).tcp(80, 40_000).build()), "from the VIP");
        assertFalse(rx(filter, ARP));
        final CaptureFilter anyPort = new CaptureFilter().vip(inet("10.0.0.1"), CaptureFilter.ANY);
        assertTrue(rx(anyPort, toVip(CLIENT, "10.0.0.1").icmpv4(8, 0, 1, new byte[8]).build()), "echo to it");
        assertTrue(rx(anyPort, toVip("10.0.0.1", CLIENT).icmpv4(0, 0, 1, new byte[8]).build()), "echo reply");
    }

    @Test
    void backendMatchesOnlyFramesEncapsulatedToIt()
    {
        final byte[] out = encapsulated(TO_DNS);
        final CaptureFilter to = new CaptureFilter().backend(inet("192.168.2.10"));
        final CaptureFilter other = new CaptureFilter().backend(inet("192.168.1.10"));
        assertTrue(tx(to, out));
        assertFalse(tx(other, out));
        assertFalse(rx(to, TO_DNS), "a received frame has no backend yet");
        assertTrue(to.matchesIgnoringBackend(new UnsafeBuffer(TO_DNS), 0, TO_DNS.length, CaptureFilter.RX, 0));
        assertTrue(to.matchesBackend(new UnsafeBuffer(out), 0, out.length));
        assertFalse(other.matchesBackend(new UnsafeBuffer(out), 0, out.length));
    }

    @Test
    void tuplePrefixMatchesEitherWayWithPrefixLengths()
    {
        final CaptureFilter source24 = new CaptureFilter().source(inet("203.0.113.0"), 24);
        assertTrue(rx(source24, TO_WEB));
        assertTrue(rx(source24, toVip("10.0.0.1", CLIENT).tcp(80, 40_000).build()), "reversed");
        assertFalse(rx(source24, toVip("203.0.114.7", "10.0.0.1").tcp(40_000, 80).build()));
        final CaptureFilter full = new CaptureFilter().source(inet(CLIENT), 32).destination(inet("10.0.0.1"), 32)
            .sourcePort(40_000).destinationPort(80).protocol(6);
        assertTrue(rx(full, TO_WEB));
        assertTrue(tx(full, encapsulated(TO_WEB)));
        assertFalse(rx(full, toVip(CLIENT, "10.0.0.1").tcp(40_002, 80).build()), "source port");
        assertFalse(rx(full, toVip(CLIENT, "10.0.0.1").udp(40_000, 80).build()), "protocol");
        final CaptureFilter v6 = new CaptureFilter().source(inet("2001:db8:c::"), 48);
        assertTrue(rx(v6, PacketBuilder.packet().ethernet(1, 2).ipv6("2001:db8:c::7", "2001:db8::1").hopByHop(8)
            .udp(5, 53).build()));
        assertFalse(rx(v6, PacketBuilder.packet().ethernet(1, 2).ipv6("2001:db8:d::7", "2001:db8::1")
            .udp(5, 53).build()));
        assertFalse(rx(v6, TO_WEB), "another family");
    }

    @Test
    void portsOfALaterFragmentAreUnknown()
    {
        final CaptureFilter port80 = new CaptureFilter().destinationPort(80);
        final byte[] later = toVip(CLIENT, "10.0.0.1").fragment(100, false).protocol(6).payload(40).build();
        assertFalse(rx(port80, later));
        assertTrue(rx(new CaptureFilter().destination(inet("10.0.0.1"), 32), later));
    }

    @Test
    void survivesTheTripThroughTheCaptureFile()
    {
        final CaptureFilter written = new CaptureFilter().port(3).directions(CaptureFilter.TX).snapLength(128)
            .vip(inet("2001:db8::1"), 443).backend(inet("192.168.1.10")).source(inet("203.0.113.0"), 24)
            .destination(inet("10.0.0.0"), 8).sourcePort(1).destinationPort(2).protocol(17);
        final UnsafeBuffer file = new UnsafeBuffer(new byte[CaptureFilter.LENGTH]);
        written.write(file, 0);
        final CaptureFilter read = new CaptureFilter();
        read.read(file, 0);
        final UnsafeBuffer again = new UnsafeBuffer(new byte[CaptureFilter.LENGTH]);
        read.write(again, 0);
        assertEquals(file, again);
        assertEquals(128, read.snapLength());
        assertTrue(read.hasBackend());
    }
}
