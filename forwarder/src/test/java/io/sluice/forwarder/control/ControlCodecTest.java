package io.sluice.forwarder.control;

import io.sluice.common.control.ControlCommand;
import io.sluice.common.control.ControlCommandEncoder;
import io.sluice.common.control.ControlProtocol;
import io.sluice.common.control.CorrelatedFlyweight;
import io.sluice.common.control.RejectFlyweight;
import io.sluice.common.control.StateBackendFlyweight;
import io.sluice.common.control.StateEndFlyweight;
import io.sluice.common.control.StateVipFlyweight;
import io.sluice.common.Vip;
import io.sluice.common.config.IpLiterals;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ControlCodecTest
{
    private static final Vip VIP4 = new Vip(IpLiterals.parse("192.0.2.10"), 443, Vip.TCP);
    private static final Vip VIP6 = new Vip(IpLiterals.parse("2001:db8::10"), Vip.ALL_PORTS, Vip.UDP);
    private static final InetAddress BACKEND4 = IpLiterals.parse("10.1.0.7");
    private static final InetAddress BACKEND6 = IpLiterals.parse("fd00::7");

    private final UnsafeBuffer buffer = new UnsafeBuffer(new byte[1024]);
    private final ControlCommandEncoder encoder = new ControlCommandEncoder();
    private final ControlCommandDecoder decoder = new ControlCommandDecoder();

    static List<ControlCommand> everyCommand()
    {
        return List.of(
            new ControlCommand.AddVip(VIP4, "web"),
            new ControlCommand.AddVip(VIP6, null),
            new ControlCommand.AddVip(VIP6, "dns-\u00e9t\u00e9-\u6771\u4eac"),
            new ControlCommand.RemoveVip(VIP4),
            new ControlCommand.RemoveVip(VIP6),
            new ControlCommand.AddBackend(VIP4, BACKEND4, 3, true, "web-1"),
            new ControlCommand.AddBackend(VIP4, BACKEND6, 0, false, null),
            new ControlCommand.AddBackend(VIP6, BACKEND6, ControlProtocol.MAX_WEIGHT, true, "x".repeat(255)),
            new ControlCommand.RemoveBackend(VIP4, BACKEND4),
            new ControlCommand.RemoveBackend(VIP6, BACKEND6),
            new ControlCommand.SetBackendWeight(VIP4, BACKEND4, 7),
            new ControlCommand.SetBackendWeight(VIP6, BACKEND4, 0),
            new ControlCommand.SetBackendHealth(VIP4, BACKEND4, false),
            new ControlCommand.SetBackendHealth(VIP6, BACKEND6, true),
            new ControlCommand.DrainBackend(VIP4, BACKEND4),
            new ControlCommand.DrainBackend(VIP6, BACKEND6),
            new ControlCommand.GetState());
    }

    @Test
    void roundTripsEveryCommandForIpv4AndIpv6()
    {
        long correlationId = 1;
        for (final ControlCommand command : everyCommand())
        {
            final int length = encoder.encode(command, correlationId, 4242, buffer, 8);
            assertEquals(ControlCommandEncoder.encodedLength(command), length, command.toString());

            final ControlCommand decoded =
                decoder.decode(ControlCommandEncoder.typeId(command), buffer, 8, length);
            assertEquals(command, decoded, String.valueOf(decoder.problem()));
            assertTrue(decoder.hasCorrelationId());
            assertEquals(correlationId, decoder.correlationId());
            assertEquals(4242, decoder.senderPid());
            correlationId++;
        }
    }

    @Test
    void decodesIpv6AddressesAsIpv6EvenWhenIpv4Mapped() throws Exception
    {
        final byte[] mapped = new byte[16];
        mapped[10] = (byte)0xFF;
        mapped[11] = (byte)0xFF;
        mapped[12] = 10;
        mapped[15] = 1;
        final InetAddress backend = java.net.Inet6Address.getByAddress(null, mapped, -1);
        final ControlCommand command = new ControlCommand.DrainBackend(VIP4, backend);
        final int length = encoder.encode(command, 1, 1, buffer, 0);
        final ControlCommand decoded = decoder.decode(ControlProtocol.DRAIN_BACKEND, buffer, 0, length);
        assertTrue(((ControlCommand.DrainBackend)decoded).backend() instanceof java.net.Inet6Address);
        assertEquals(command, decoded);
    }

    @Test
    void writesAddBackendInItsDocumentedLayout()
    {
        final int length = encoder.encode(new ControlCommand.AddBackend(VIP4, BACKEND6, 0x0102, true, "ab"),
            0x1122334455667788L, 0x99, buffer, 0);

        assertEquals(64, length);
        assertEquals("88 77 66 55 44 33 22 11 99 00 00 00 00 00 00 00 " + // correlation id, sender pid
            "04 06 bb 01 c0 00 02 0a 00 00 00 00 00 00 00 00 00 00 00 00 " + // VIP: family 4, TCP, port 443 LE
            "06 00 00 00 fd 00 00 00 00 00 00 00 00 00 00 00 00 00 00 07 " + // backend: family 6, fd00::7
            "02 01 00 00 01 02 61 62", // weight 258 LE, healthy, name "ab"
            hex(0, length));
    }

    @Test
    void writesEachFixedLengthCommandAtItsDocumentedLength()
    {
        assertEquals(36, encoder.encode(new ControlCommand.RemoveVip(VIP6), 1, 1, buffer, 0));
        assertEquals(37, encoder.encode(new ControlCommand.AddVip(VIP6, null), 1, 1, buffer, 0));
        assertEquals(56, encoder.encode(new ControlCommand.RemoveBackend(VIP6, BACKEND4), 1, 1, buffer, 0));
        assertEquals(56, encoder.encode(new ControlCommand.DrainBackend(VIP6, BACKEND4), 1, 1, buffer, 0));
        assertEquals(60, encoder.encode(new ControlCommand.SetBackendWeight(VIP6, BACKEND4, 1), 1, 1, buffer, 0));
        assertEquals(57, encoder.encode(new ControlCommand.SetBackendHealth(VIP6, BACKEND4, true), 1, 1, buffer, 0));
        assertEquals(16, encoder.encode(new ControlCommand.GetState(), 1, 1, buffer, 0));
    }

    @Test
    void roundTripsEveryResponse()
    {
        final CorrelatedFlyweight ack = new CorrelatedFlyweight();
        ack.wrap(buffer, 0, buffer.capacity()).correlationId(11);
        ack.wrap(buffer, 0, CorrelatedFlyweight.LENGTH);
        assertNull(ack.validate(ControlProtocol.ACK));
        assertEquals(11, ack.correlationId());

        final RejectFlyweight reject = new RejectFlyweight();
        reject.wrap(buffer, 0, buffer.capacity()).correlationId(12);
        final int rejectLength = reject.reason("VIP 192.0.2.10:443/tcp already exists");
        reject.wrap(buffer, 0, rejectLength);
        assertNull(reject.validate(ControlProtocol.REJECT));
        assertEquals(12, reject.correlationId());
        assertEquals("VIP 192.0.2.10:443/tcp already exists", reject.reason());

        for (final Vip vip : List.of(VIP4, VIP6))
        {
            final StateVipFlyweight stateVip = new StateVipFlyweight();
            stateVip.wrap(buffer, 0, buffer.capacity()).correlationId(13);
            final int vipLength = stateVip.vip(vip).name("web");
            stateVip.wrap(buffer, 0, vipLength);
            assertNull(stateVip.validate(ControlProtocol.STATE_VIP));
            assertEquals(13, stateVip.correlationId());
            assertEquals(vip, stateVip.vip());
            assertEquals("web", stateVip.name());

            for (final InetAddress backend : List.of(BACKEND4, BACKEND6))
            {
                final StateBackendFlyweight state = new StateBackendFlyweight();
                state.wrap(buffer, 0, buffer.capacity()).correlationId(14);
                state.vip(vip).backend(backend).weight(5).maglevSlots(32_768).healthy(true);
                final int length = state.name(null);
                assertEquals(StateBackendFlyweight.MIN_LENGTH, length);
                state.wrap(buffer, 0, length);
                assertNull(state.validate(ControlProtocol.STATE_BACKEND));
                assertEquals(14, state.correlationId());
                assertEquals(vip, state.vip());
                assertEquals(backend, state.backend());
                assertEquals(5, state.weight());
                assertEquals(32_768, state.maglevSlots());
                assertTrue(state.healthy());
                assertNull(state.name());
            }
        }

        final StateEndFlyweight end = new StateEndFlyweight();
        end.wrap(buffer, 0, StateEndFlyweight.LENGTH).correlationId(15);
        end.entryCount(3);
        assertNull(end.validate(ControlProtocol.STATE_END));
        assertEquals(15, end.correlationId());
        assertEquals(3, end.entryCount());
    }

    @Test
    void cutsLongReasonsAtACharacterBoundary()
    {
        final RejectFlyweight reject = new RejectFlyweight();
        reject.wrap(buffer, 0, buffer.capacity()).correlationId(1);
        final String reason = "ab" + "\u00e9".repeat(200); // 2 + 400 bytes of UTF-8
        final int length = reject.reason(reason);
        assertEquals(RejectFlyweight.MIN_LENGTH + 254, length); // 255 would split an é
        reject.wrap(buffer, 0, length);
        assertNull(reject.validate(ControlProtocol.REJECT));
        assertEquals("ab" + "\u00e9".repeat(126), reject.reason());
    }

    @Test
    void reportsUnknownTypeWithItsCorrelationId()
    {
        buffer.putLong(0, 77, ByteOrder.LITTLE_ENDIAN);
        assertNull(decoder.decode(99, buffer, 0, 20));
        assertTrue(decoder.hasCorrelationId());
        assertEquals(77, decoder.correlationId());
        assertEquals("unknown command type 99 (20 bytes)", decoder.problem());
    }

    @Test
    void reportsMessageTooShortForACorrelationId()
    {
        assertNull(decoder.decode(ControlProtocol.ADD_VIP, buffer, 0, 4));
        assertFalse(decoder.hasCorrelationId());
        assertEquals("ADD_VIP must be at least 37 bytes, got 4", decoder.problem());
    }

    @Test
    void reportsEveryKindOfMalformedCommand()
    {
        assertMalformed(new ControlCommand.RemoveVip(VIP4), 0, -1, b -> { }, "REMOVE_VIP must be 36 bytes, got 35");
        assertMalformed(new ControlCommand.GetState(), 0, 1, b -> { }, "GET_STATE must be 16 bytes, got 17");
        assertMalformed(new ControlCommand.RemoveVip(VIP4), 0, 0, b -> b.putByte(16, (byte)5),
            "vip: address family must be 4 or 6, got 5");
        assertMalformed(new ControlCommand.RemoveVip(VIP4), 0, 0, b -> b.putByte(17, (byte)1),
            "vip: protocol must be 6 (TCP) or 17 (UDP), got 1");
        assertMalformed(new ControlCommand.RemoveVip(VIP4), 0, 0, b -> b.putByte(30, (byte)1),
            "vip: IPv4 address with non-zero bytes after the first 4");
        assertMalformed(new ControlCommand.DrainBackend(VIP4, BACKEND4), 0, 0, b -> b.putByte(36, (byte)0),
            "backend: address family must be 4 or 6, got 0");
        assertMalformed(new ControlCommand.DrainBackend(VIP4, BACKEND4), 0, 0, b -> b.putByte(38, (byte)1),
            "backend: reserved byte 2 must be 0");
        assertMalformed(new ControlCommand.SetBackendWeight(VIP4, BACKEND4, 1), 0, 0,
            b -> b.putInt(56, -1, ByteOrder.LITTLE_ENDIAN), "weight must be 0..65535, got -1");
        assertMalformed(new ControlCommand.SetBackendHealth(VIP4, BACKEND4, true), 0, 0, b -> b.putByte(56, (byte)2),
            "up must be 0 or 1, got 2");
        assertMalformed(new ControlCommand.AddBackend(VIP4, BACKEND4, 1, true, "ab"), 0, 0,
            b -> b.putByte(60, (byte)7), "healthy must be 0 or 1, got 7");
        assertMalformed(new ControlCommand.AddBackend(VIP4, BACKEND4, 1, true, "ab"), 0, 0,
            b -> b.putByte(61, (byte)200), "name: string of 200 bytes does not fit the message (2 bytes left)");
        assertMalformed(new ControlCommand.AddVip(VIP4, "ab"), 0, 0,
            b -> b.putByte(37, (byte)0xC3), "name: not valid UTF-8");
        assertMalformed(new ControlCommand.AddVip(VIP4, "ab"), 0, 1, b -> { },
            "name: string of 2 bytes does not fit the message (3 bytes left)");
    }

    @Test
    void refusesCommandsThatCannotBeEncoded()
    {
        assertThrows(IllegalArgumentException.class, () -> new ControlCommand.AddVip(VIP4, "x".repeat(256)));
        assertThrows(IllegalArgumentException.class,
            () -> new ControlCommand.AddBackend(VIP4, BACKEND4, 65_536, true, null));
        assertThrows(IllegalArgumentException.class, () -> new ControlCommand.SetBackendWeight(VIP4, BACKEND4, -1));
        assertThrows(IllegalArgumentException.class, () -> new ControlCommand.DrainBackend(null, BACKEND4));
        assertThrows(IllegalArgumentException.class, () -> new ControlCommand.DrainBackend(VIP4, null));
        assertNull(new ControlCommand.AddVip(VIP4, "").name());
        assertEquals(255, new ControlCommand.AddVip(VIP4, "\u00e9".repeat(127) + "x").name()
            .getBytes(StandardCharsets.UTF_8).length);
    }

    private void assertMalformed(final ControlCommand command, final int offset, final int lengthDelta,
        final java.util.function.Consumer<UnsafeBuffer> corrupt, final String problem)
    {
        buffer.setMemory(0, buffer.capacity(), (byte)0);
        final int length = encoder.encode(command, 5, 6, buffer, offset);
        corrupt.accept(buffer);
        assertNull(decoder.decode(ControlCommandEncoder.typeId(command), buffer, offset, length + lengthDelta),
            command + " should not decode");
        assertEquals(problem, decoder.problem());
        assertTrue(decoder.hasCorrelationId());
        assertEquals(5, decoder.correlationId());
    }

    private String hex(final int offset, final int length)
    {
        final StringBuilder text = new StringBuilder();
        for (int i = 0; i < length; i++)
        {
            text.append(i == 0 ? "" : " ").append(String.format("%02x", buffer.getByte(offset + i) & 0xFF));
        }
        return text.toString();
    }
}
