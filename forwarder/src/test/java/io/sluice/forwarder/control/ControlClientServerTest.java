package io.sluice.forwarder.control;

import io.sluice.common.control.ControlChannel;
import io.sluice.common.control.ControlClient;
import io.sluice.common.control.ControlCommand;
import io.sluice.common.control.ControlCommandEncoder;
import io.sluice.common.control.ControlException;
import io.sluice.common.control.ControlProtocol;
import io.sluice.common.control.ControlResponse;
import io.sluice.common.control.ForwarderServices;
import io.sluice.common.control.VipCommandFlyweight;
import io.sluice.common.Vip;
import io.sluice.common.config.IpLiterals;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.ringbuffer.RingBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.InetAddress;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ControlClientServerTest
{
    private static final Duration TIMEOUT = Duration.ofSeconds(5);
    private static final Vip WEB = new Vip(IpLiterals.parse("192.0.2.1"), 80, Vip.TCP);
    private static final Vip DNS = new Vip(IpLiterals.parse("2001:db8::53"), Vip.ALL_PORTS, Vip.UDP);
    private static final InetAddress WEB_1 = IpLiterals.parse("10.1.0.1");
    private static final InetAddress WEB_2 = IpLiterals.parse("fd00::2");
    private static final InetAddress WEB_3 = IpLiterals.parse("10.1.0.3");

    @TempDir
    Path dir;

    private Path file()
    {
        return dir.resolve("node-a").resolve(ControlChannel.FILE_NAME);
    }

    private static Vip vip(final int port)
    {
        return new Vip(IpLiterals.parse("198.51.100.1"), port, Vip.TCP);
    }

    // A channel whose 4096-byte response buffer a busy client's answers lap: the server, the channel a slow client
    // opens beside the busy one, and the busy client.
    private final class Lapping implements AutoCloseable
    {
        final ControlChannel owned = ControlChannel.create(file(), 65536, 4096);
        final ControlChannel opened = ControlChannel.open(file());
        final ControlServer server = new ControlServer(owned);
        final ControlClient busy = new ControlClient(opened);

        @Override
        public void close()
        {
            try
            {
                opened.close();
            }
            finally
            {
                owned.close();
            }
        }
    }

    // A busy client: commands 1..count, whose answers fill the response buffer for every client.
    private static void sendEach(final ControlClient client, final int count,
        final IntFunction<ControlCommand> command)
    {
        for (int i = 1; i <= count; i++)
        {
            client.send(command.apply(i));
        }
    }

    @Test
    void acceptsACommandAfterApplyingAndPublishingIt()
    {
        final TestForwarder forwarder = new TestForwarder();
        try (ControlChannel owned = ControlChannel.create(file(), 65536);
            ControlChannel opened = ControlChannel.open(file());
            ServerThread server = new ServerThread(new ControlServer(owned), forwarder))
        {
            assertTrue(server.isRunning());
            final ControlClient client = new ControlClient(opened);
            final ControlResponse response = client.execute(new ControlCommand.AddVip(WEB, "web"), TIMEOUT);

            assertEquals(ControlResponse.accepted(response.correlationId()), response);
            assertTrue(forwarder.publications.get() >= 1, "published before the ACK left");
            assertEquals(response.correlationId(), forwarder.lastCorrelationId);
            assertEquals(ProcessHandle.current().pid(), forwarder.lastSenderPid);
            assertTrue(opened.lastPollTimeMs() > 0);
        }
        assertEquals("web", forwarder.vips.get(WEB).name);
    }

    @Test
    void rejectsWithTheHandlersReason()
    {
        final TestForwarder forwarder = new TestForwarder();
        try (ControlChannel owned = ControlChannel.create(file(), 65536);
            ServerThread server = new ServerThread(new ControlServer(owned), forwarder))
        {
            assertTrue(server.isRunning());
            final ControlClient client = new ControlClient(owned);
            assertTrue(client.execute(new ControlCommand.AddVip(WEB, null), TIMEOUT).isAccepted());

            final ControlResponse again = client.execute(new ControlCommand.AddVip(WEB, null), TIMEOUT);
            assertEquals(ControlResponse.Status.REJECTED, again.status());
            assertEquals("VIP 192.0.2.1:80/tcp already exists", again.reason());

            // LoadBalancerState throws IllegalArgumentException: its message becomes the reason.
            final ControlResponse drain = client.execute(new ControlCommand.DrainBackend(WEB, WEB_1), TIMEOUT);
            assertEquals(ControlResponse.rejected(drain.correlationId(), "no backend 10.1.0.1 in VIP 192.0.2.1:80/tcp"),
                drain);
        }
    }

    @Test
    void refusesAsInternalErrorWhenTheHandlerFails()
    {
        final List<Throwable> errors = new CopyOnWriteArrayList<>();
        try (ControlChannel owned = ControlChannel.create(file(), 65536))
        {
            final ControlServer server = new ControlServer(owned, System::currentTimeMillis, errors::add);
            final ControlClient client = new ControlClient(owned);
            final long failing = client.send(new ControlCommand.AddVip(WEB, null));
            final long misusing = client.send(new ControlCommand.AddVip(DNS, null));
            server.poll((command, responder) ->
            {
                if (((ControlCommand.AddVip)command).vip().equals(WEB))
                {
                    throw new IllegalStateException("boom");
                }
                responder.emitVip(DNS, null);
                return null;
            }, 10);

            assertEquals(ControlResponse.rejected(failing, "internal error: java.lang.IllegalStateException: boom"),
                client.await(failing, TIMEOUT));
            assertEquals(ControlResponse.rejected(misusing, "internal error: java.lang.IllegalStateException: " +
                "state entries answer GET_STATE only, during its onCommand"), client.await(misusing, TIMEOUT));
            assertEquals(2, server.failedCommands());
            assertEquals(2, server.rejectedCommands());
            assertEquals(2, errors.size());
        }
    }

    @Test
    void collectsTheStateOfEveryVipAndBackend()
    {
        final TestForwarder forwarder = new TestForwarder();
        try (ControlChannel owned = ControlChannel.create(file(), 65536);
            ServerThread server = new ServerThread(new ControlServer(owned), forwarder))
        {
            assertTrue(server.isRunning());
            final ControlClient client = new ControlClient(owned);
            for (final ControlCommand command : List.of(
                new ControlCommand.AddVip(WEB, "web"),
                new ControlCommand.AddBackend(WEB, WEB_1, 1, true, "web-1"),
                new ControlCommand.AddBackend(WEB, WEB_2, 3, true, null),
                new ControlCommand.AddBackend(WEB, WEB_3, 2, false, "web-3"),
                new ControlCommand.AddVip(DNS, null),
                new ControlCommand.AddBackend(DNS, WEB_1, 5, true, "dns-1"),
                new ControlCommand.DrainBackend(DNS, WEB_1)))
            {
                assertTrue(client.execute(command, TIMEOUT).isAccepted(), command.toString());
            }

            final ForwarderServices state = client.getState(TIMEOUT);

            assertEquals(new ForwarderServices(List.of(
                new ForwarderServices.VipState(WEB, "web", List.of(
                    new ForwarderServices.BackendState(WEB_1, 1, true, "web-1", 16_384),
                    new ForwarderServices.BackendState(WEB_2, 3, true, null, 49_152),
                    new ForwarderServices.BackendState(WEB_3, 2, false, "web-3", 0))),
                new ForwarderServices.VipState(DNS, null, List.of(
                    new ForwarderServices.BackendState(WEB_1, 0, true, "dns-1", 0))))), state);
            assertTrue(state.vip(DNS).backend(WEB_1).draining());
            assertNull(state.vip(vip(1)));
            assertEquals(1, forwarder.getStates.get());
        }
    }

    @Test
    void servesManyClientsAtOnce() throws Exception
    {
        final int threads = 8;
        final int perThread = 100;
        final TestForwarder forwarder = new TestForwarder();
        final ControlServer server;
        try (ControlChannel owned = ControlChannel.create(file(), 65536);
            ControlChannel opened = ControlChannel.open(file());
            ServerThread serverThread = new ServerThread(new ControlServer(owned), forwarder))
        {
            server = serverThread.server();
            final List<CompletableFuture<List<ControlResponse>>> results = new ArrayList<>();
            for (int t = 0; t < threads; t++)
            {
                final int thread = t;
                results.add(CompletableFuture.supplyAsync(() -> sendMany(new ControlClient(opened), thread, perThread),
                    runnable -> new Thread(runnable, "client-" + thread).start()));
            }
            for (final CompletableFuture<List<ControlResponse>> result : results)
            {
                final List<ControlResponse> responses = result.get(30, TimeUnit.SECONDS);
                assertEquals(perThread, responses.size());
                for (final ControlResponse response : responses)
                {
                    assertTrue(response.isAccepted(), response.toString());
                }
            }
        }
        assertEquals(threads * perThread, forwarder.vips.size());
        assertEquals(threads * perThread, server.acceptedCommands());
        assertEquals(0, server.malformedCommands());
    }

    // Half the commands pipelined (send ten, then await ten), half one at a time.
    private static List<ControlResponse> sendMany(final ControlClient client, final int thread, final int count)
    {
        final List<ControlResponse> responses = new ArrayList<>();
        final long[] pipelined = new long[10];
        for (int i = 0; i < count / 2; i += pipelined.length)
        {
            for (int j = 0; j < pipelined.length; j++)
            {
                pipelined[j] = client.send(new ControlCommand.AddVip(vip(1 + thread * 1000 + i + j), "t" + thread));
            }
            for (final long correlationId : pipelined)
            {
                responses.add(client.await(correlationId, TIMEOUT));
            }
        }
        for (int i = count / 2; i < count; i++)
        {
            responses.add(client.execute(new ControlCommand.AddVip(vip(1 + thread * 1000 + i), null), TIMEOUT));
        }
        return responses;
    }

    @Test
    void timesOutWhenNoServerPolls()
    {
        try (ControlChannel owned = ControlChannel.create(file(), 4096);
            ControlChannel opened = ControlChannel.open(file()))
        {
            // A fake clock that each idle moves on by 10 ms: the wait ends when the clock passes the deadline.
            final FakeTime time = new FakeTime(TimeUnit.MILLISECONDS.toNanos(10));
            final ControlClient client = new ControlClient(opened, ControlClient.DEFAULT_SEND_TIMEOUT, time, time);
            final ControlResponse response = client.execute(new ControlCommand.RemoveVip(WEB), Duration.ofMillis(200));

            assertEquals(ControlResponse.Status.TIMED_OUT, response.status());
            assertEquals("no answer within 200 ms; the forwarder (pid " + ProcessHandle.current().pid() +
                ") runs but its control thread has never polled", response.reason());
            assertEquals(20, time.idles, "polled until the clock reached the 200 ms deadline, and no longer");
            assertEquals(TimeUnit.MILLISECONDS.toNanos(200), time.nanoTime());
            assertTrue(owned.isOwner());
        }
    }

    @Test
    void timeOutSaysWhenTheForwarderHasGone()
    {
        final ControlChannel owned = ControlChannel.create(file(), 4096);
        try (ControlChannel opened = ControlChannel.open(file()))
        {
            owned.close();
            final ControlResponse response =
                new ControlClient(opened).execute(new ControlCommand.RemoveVip(WEB), Duration.ofMillis(50));
            assertEquals("no answer within 50 ms; the forwarder has closed the control channel", response.reason());
        }
    }

    @Test
    void rejectsMalformedMessagesAndKeepsServing()
    {
        final TestForwarder forwarder = new TestForwarder();
        try (ControlChannel owned = ControlChannel.create(file(), 65536);
            ControlChannel opened = ControlChannel.open(file()))
        {
            final ControlServer server = new ControlServer(owned);
            final ControlClient client = new ControlClient(opened);
            final RingBuffer ring = opened.commandRing();
            final UnsafeBuffer raw = new UnsafeBuffer(new byte[64]);

            final long unknownType = ring.nextCorrelationId();
            raw.putLong(0, unknownType, ByteOrder.LITTLE_ENDIAN);
            assertTrue(ring.write(99, raw, 0, 24));
            assertTrue(ring.write(ControlProtocol.ADD_VIP, raw, 0, 4)); // too short to answer
            final long badFamily = ring.nextCorrelationId();
            final int length = new ControlCommandEncoder().encode(new ControlCommand.RemoveVip(WEB), badFamily, 1,
                raw, 0);
            raw.putByte(VipCommandFlyweight.VIP_FIELD_OFFSET, (byte)5);
            assertTrue(ring.write(ControlProtocol.REMOVE_VIP, raw, 0, length));
            final long good = client.send(new ControlCommand.AddVip(WEB, "web"));

            assertEquals(4, server.poll(forwarder, 10));

            assertEquals(ControlResponse.rejected(unknownType, "malformed UNKNOWN(99): unknown command type 99 " +
                "(24 bytes)"), client.await(unknownType, TIMEOUT));
            assertEquals(ControlResponse.rejected(badFamily, "malformed REMOVE_VIP: vip: address family must be 4 " +
                "or 6, got 5"), client.await(badFamily, TIMEOUT));
            assertEquals(ControlResponse.accepted(good), client.await(good, TIMEOUT));
            assertEquals(3, server.malformedCommands());
            assertEquals(1, server.acceptedCommands());
            assertEquals(0, server.rejectedCommands());
            assertTrue(forwarder.vips.containsKey(WEB));
        }
    }

    @Test
    void keepsAnswersToEarlierCommandsWhileAwaitingALaterOne()
    {
        final TestForwarder forwarder = new TestForwarder();
        try (ControlChannel owned = ControlChannel.create(file(), 65536))
        {
            final ControlServer server = new ControlServer(owned);
            final ControlClient client = new ControlClient(owned);
            final long first = client.send(new ControlCommand.AddVip(WEB, null));
            final long second = client.send(new ControlCommand.AddVip(WEB, null));
            server.poll(forwarder, 10);

            assertEquals(ControlResponse.Status.REJECTED, client.await(second, TIMEOUT).status());
            assertEquals(ControlResponse.accepted(first), client.await(first, Duration.ZERO));
        }
    }

    @Test
    void publishesOncePerPollAndOnlyWhenACommandWasAccepted()
    {
        final TestForwarder forwarder = new TestForwarder();
        try (ControlChannel owned = ControlChannel.create(file(), 65536))
        {
            final ControlServer server = new ControlServer(owned);
            final ControlClient client = new ControlClient(owned);
            client.send(new ControlCommand.AddVip(WEB, null));
            client.send(new ControlCommand.AddBackend(WEB, WEB_1, 1, true, null));
            client.send(new ControlCommand.AddBackend(WEB, WEB_2, 1, true, null));
            client.send(new ControlCommand.RemoveVip(DNS));
            assertEquals(4, server.poll(forwarder, 10));
            assertEquals(1, forwarder.publications.get());

            client.send(new ControlCommand.RemoveVip(DNS));
            client.send(new ControlCommand.GetState());
            assertEquals(2, server.poll(forwarder, 10));
            assertEquals(1, forwarder.publications.get());
            assertEquals(0, server.poll(forwarder, 10));
            assertEquals(4, server.acceptedCommands()); // GET_STATE counts
            assertEquals(2, server.rejectedCommands());
        }
    }

    @Test
    void getsItsAnswerAfterBeingLappedByOthersAnswers()
    {
        final TestForwarder forwarder = new TestForwarder();
        try (Lapping lapping = new Lapping())
        {
            final ControlServer server = lapping.server;
            final ControlClient slow = new ControlClient(lapping.opened);
            final ControlClient busy = lapping.busy;
            sendEach(busy, 400, i -> new ControlCommand.AddVip(vip(i), null));
            final long mine = slow.send(new ControlCommand.AddVip(WEB, null));
            assertEquals(401, server.poll(forwarder, 1000)); // 401 ACKs of 16 bytes: more than the 4096 buffer

            assertEquals(ControlResponse.accepted(mine), slow.await(mine, TIMEOUT));
            assertTrue(slow.lostResponses() > 0, "the slow client was lapped");
        }
    }

    @Test
    void saysAnAnswerMayBeLostWhenLappedAfterIt()
    {
        final TestForwarder forwarder = new TestForwarder();
        try (Lapping lapping = new Lapping())
        {
            final ControlServer server = lapping.server;
            final ControlClient slow = new ControlClient(lapping.opened);
            final ControlClient busy = lapping.busy;
            final long mine = slow.send(new ControlCommand.AddVip(WEB, null));
            sendEach(busy, 400, i -> new ControlCommand.AddVip(vip(i), null));
            server.poll(forwarder, 1000);

            final ControlResponse response = slow.await(mine, Duration.ofMillis(100));
            assertEquals(ControlResponse.Status.TIMED_OUT, response.status());
            assertTrue(response.reason().startsWith("no answer within 100 ms; this client was lapped by the " +
                "response buffer ("), response.reason());
            assertTrue(response.reason().contains("the command may have been applied"), response.reason());
            assertTrue(forwarder.vips.containsKey(WEB));
        }
    }

    @Test
    void asksForTheStateAgainWhenItsAnswerWasLost() throws Exception
    {
        final TestForwarder forwarder = new TestForwarder();
        forwarder.vips.put(WEB, new TestForwarder.VipEntry("web"));
        forwarder.vips.put(DNS, new TestForwarder.VipEntry("dns"));
        try (Lapping lapping = new Lapping())
        {
            final ControlServer server = lapping.server;
            final GateIdleStrategy gate = new GateIdleStrategy();
            final ControlClient slow = new ControlClient(lapping.opened, Duration.ofSeconds(1), gate);
            final ControlClient busy = lapping.busy;
            final CompletableFuture<ForwarderServices> state = CompletableFuture.supplyAsync(
                () -> slow.getState(TIMEOUT), runnable -> new Thread(runnable, "slow-client").start());
            gate.awaitEntered(); // GET_STATE sent, and the slow client stopped reading
            // 100 refusals of 48 bytes lap the slow client.
            sendEach(busy, 100, i -> new ControlCommand.RemoveVip(vip(i)));
            assertEquals(101, server.poll(forwarder, 1000));
            gate.open();
            final BackoffIdleStrategy idle = new BackoffIdleStrategy();
            while (!state.isDone())
            {
                idle.idle(server.poll(forwarder, 1000));
            }

            final ForwarderServices collected = state.get();
            assertEquals(List.of(WEB, DNS), List.of(collected.vips().get(0).vip(), collected.vips().get(1).vip()));
            assertEquals(2, forwarder.getStates.get(), "asked twice");
            assertTrue(slow.lostResponses() > 0);
        }
    }

    @Test
    void collectsALargeStateWhenTheResponseBufferIsSizedForIt()
    {
        final TestForwarder forwarder = new TestForwarder();
        for (int v = 1; v <= 10; v++)
        {
            final TestForwarder.VipEntry entry = new TestForwarder.VipEntry("vip-" + v);
            for (int b = 1; b <= 200; b++)
            {
                entry.backends.put(IpLiterals.parse("10." + v + "." + (b / 250) + "." + (b % 250 + 1)),
                    new TestForwarder.BackendEntry(b % 4, b % 7 != 0, "backend-" + v + "-" + b));
            }
            forwarder.vips.put(vip(v), entry);
        }
        try (ControlChannel owned = ControlChannel.create(file(), 65536, 1 << 20);
            ServerThread server = new ServerThread(new ControlServer(owned), forwarder))
        {
            final ForwarderServices state = new ControlClient(owned).getState(TIMEOUT);
            assertEquals(10, state.vips().size());
            for (final ForwarderServices.VipState vip : state.vips())
            {
                assertEquals(200, vip.backends().size());
                long slots = 0;
                for (final ForwarderServices.BackendState backend : vip.backends())
                {
                    slots += backend.maglevSlots();
                }
                assertTrue(slots > TestForwarder.TABLE_SIZE - 200 && slots <= TestForwarder.TABLE_SIZE, "" + slots);
            }
            assertEquals("backend-3-17", state.vip(vip(3)).backends().get(16).name());
            assertTrue(server.isRunning());
        }
    }

    @Test
    void refusesAStateTooLargeForTheResponseBuffer()
    {
        final TestForwarder forwarder = new TestForwarder();
        final TestForwarder.VipEntry web = new TestForwarder.VipEntry("web");
        for (int i = 1; i <= 40; i++)
        {
            web.backends.put(IpLiterals.parse("10.2.0." + i), new TestForwarder.BackendEntry(1, true, "backend-" + i));
        }
        forwarder.vips.put(WEB, web);
        try (ControlChannel owned = ControlChannel.create(file(), 65536, 4096);
            ServerThread server = new ServerThread(new ControlServer(owned), forwarder))
        {
            assertTrue(server.isRunning());
            final ControlException ex =
                assertThrows(ControlException.class, () -> new ControlClient(owned).getState(TIMEOUT));
            assertNotNull(ex.response());
            assertEquals(ControlResponse.Status.REJECTED, ex.response().status());
            assertEquals("GET_STATE rejected: state needs 3264 bytes of responses but the response buffer " +
                "carries 2048 at a time: raise the control channel capacity", ex.getMessage());
        }
    }

    @Test
    void getStateTimesOutWhenNoServerPolls()
    {
        try (ControlChannel owned = ControlChannel.create(file(), 4096))
        {
            final ControlException ex = assertThrows(ControlException.class,
                () -> new ControlClient(owned).getState(Duration.ofMillis(100)));
            assertEquals(ControlResponse.Status.TIMED_OUT, ex.response().status());
            assertTrue(ex.getMessage().startsWith("no answer within 100 ms"), ex.getMessage());
        }
    }

    @Test
    void sendGivesUpWhenTheRingStaysFull()
    {
        try (ControlChannel owned = ControlChannel.create(file(), 4096))
        {
            final ControlClient client =
                new ControlClient(owned, Duration.ofMillis(50), new BackoffIdleStrategy());
            final ControlException ex = assertThrows(ControlException.class, () ->
            {
                for (int i = 0; i < 1000; i++)
                {
                    client.send(new ControlCommand.RemoveVip(WEB));
                }
            });
            assertEquals("command ring full for 50 ms: the forwarder (pid " + ProcessHandle.current().pid() +
                ") runs but its control thread has never polled", ex.getMessage());
            assertNull(ex.response());
        }
    }

    @Test
    void serverNeedsTheChannelItsProcessCreated()
    {
        try (ControlChannel owned = ControlChannel.create(file(), 4096);
            ControlChannel opened = ControlChannel.open(file()))
        {
            assertTrue(owned.isOwner());
            assertThrows(IllegalArgumentException.class, () -> new ControlServer(opened));
        }
    }

    @Test
    void pollRefusesAClosedChannel()
    {
        final ControlChannel owned = ControlChannel.create(file(), 4096);
        final ControlServer server = new ControlServer(owned);
        owned.close();
        assertThrows(IllegalStateException.class, () -> server.poll(new TestForwarder(), 10));
        assertFalse(owned.isOwnerAlive());
    }

    /** A clock that only the idle strategy moves on: a wait costs no wall time and always polls as often. */
    private static final class FakeTime extends IdleOnNoWork implements NanoClock
    {
        private final long stepNs;
        private long nowNs;
        private int idles;

        FakeTime(final long stepNs)
        {
            this.stepNs = stepNs;
        }

        @Override
        public long nanoTime()
        {
            return nowNs;
        }

        @Override
        public void idle()
        {
            idles++;
            nowNs += stepNs;
        }
    }
}
