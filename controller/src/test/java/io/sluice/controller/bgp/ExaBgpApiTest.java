package io.sluice.controller.bgp;

import io.sluice.common.config.IpLiterals;

import io.sluice.testkit.CapturedLog;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.IOException;
import java.net.InetAddress;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BooleanSupplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The socket adapter against a fake relay: a plain Unix-domain client in the test.
 */
class ExaBgpApiTest
{

    private static final InetAddress VIP1 = IpLiterals.parse("10.100.0.1");
    private static final InetAddress VIP2 = IpLiterals.parse("10.100.0.2");

    @RegisterExtension
    final CapturedLog captured = CapturedLog.of(ExaBgpSession.class);

    @TempDir
    Path directory;

    private ExaBgpApi api;
    private final List<FakeRelay> relays = new ArrayList<>();

    @AfterEach
    void close() throws IOException
    {
        for (final FakeRelay relay : relays)
        {
            relay.channel.close();
        }
        if (api != null)
        {
            api.close();
        }
    }

    @Test
    void replacesAStaleSocketFileAndRemovesItOnClose() throws IOException
    {
        final Path socket = directory.resolve("exabgp.sock");
        Files.writeString(socket, "stale");

        api = ExaBgpApi.open(socket);
        assertFalse(api.isConnected());
        api.close();
        api = null;

        assertFalse(Files.exists(socket));
    }

    @Test
    void announcesTheSetOnConnectThenOnlyTheDifferences() throws IOException
    {
        api = ExaBgpApi.open(directory.resolve("exabgp.sock"));
        api.setAnnounced(Set.of(VIP1));
        final FakeRelay relay = connect();

        assertEquals(List.of("announce route 10.100.0.1/32 next-hop self"), relay.awaitLines(1));
        assertTrue(api.isConnected());
        assertFalse(api.isCurrent());
        relay.send("done\n");
        pollUntil(api::isCurrent, "ExaBGP's ack");

        api.setAnnounced(Set.of(VIP2));
        assertEquals(List.of("withdraw route 10.100.0.1/32 next-hop self",
            "announce route 10.100.0.2/32 next-hop self"), relay.awaitLines(2));
        assertEquals(Set.of(VIP2), api.announced());
        assertEquals(0, api.reconnects());
    }

    @Test
    void aNewerRelayConnectionReplacesTheOlderAndGetsTheWholeSet() throws IOException
    {
        api = ExaBgpApi.open(directory.resolve("exabgp.sock"));
        api.setAnnounced(Set.of(VIP1, VIP2));
        final FakeRelay first = connect();
        first.awaitLines(2);

        final FakeRelay second = connect();

        assertEquals(List.of("announce route 10.100.0.1/32 next-hop self",
            "announce route 10.100.0.2/32 next-hop self"), second.awaitLines(2));
        pollUntil(first::closedByPeer, "the older connection's end");
        assertEquals(1, api.reconnects());
        final List<String> log = captured.drain();
        assertTrue(log.contains("BGP: relay disconnected: replaced by a newer relay connection"), log.toString());
        assertTrue(log.contains("BGP: relay connected (reconnect 1)"), log.toString());
    }

    @Test
    void tracksNeighborStatesUntilTheRelayGoes() throws IOException
    {
        api = ExaBgpApi.open(directory.resolve("exabgp.sock"));
        final FakeRelay relay = connect();
        // Split across writes: lines are reassembled.
        final String up = ExaBgpMessageTest.UP + "\n";
        relay.send(up.substring(0, 40));
        api.poll(0);
        relay.send(up.substring(40));
        pollUntil(() -> api.neighborStates().equals(Map.of("10.10.1.1", "up")), "neighbor 10.10.1.1 up");
        assertTrue(captured.drain().contains("BGP: neighbor 10.10.1.1 up"));

        relay.channel.close();

        pollUntil(() -> !api.isConnected(), "the disconnect");
        assertEquals(Map.of(), api.neighborStates());
        assertEquals(Set.of(), api.announced());
        assertEquals(List.of("BGP: relay disconnected: closed by the relay"), captured.drain());
    }

    private FakeRelay connect() throws IOException
    {
        final SocketChannel channel = SocketChannel.open(StandardProtocolFamily.UNIX);
        channel.connect(UnixDomainSocketAddress.of(api.socketPath()));
        channel.configureBlocking(false);
        final FakeRelay relay = new FakeRelay(channel);
        relays.add(relay);
        final int before = api.reconnects();
        final boolean wasConnected = api.isConnected();
        pollUntil(() -> api.isConnected() && (!wasConnected || api.reconnects() > before), "the connection");
        return relay;
    }

    private void pollUntil(final BooleanSupplier condition, final String what)
    {
        final long deadline = System.nanoTime() + 10_000_000_000L;
        while (!condition.getAsBoolean())
        {
            if (System.nanoTime() - deadline > 0)
            {
                fail("timed out waiting for " + what);
            }
            api.poll(0);
            Thread.onSpinWait();
        }
    }

    private final class FakeRelay
    {
        final SocketChannel channel;
        final StringBuilder received = new StringBuilder();
        boolean eof;

        FakeRelay(final SocketChannel channel)
        {
            this.channel = channel;
        }

        void send(final String text) throws IOException
        {
            channel.write(ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8)));
        }

        List<String> awaitLines(final int count)
        {
            pollUntil(() -> received().split("\n", -1).length > count, count + " lines");
            final List<String> lines = List.of(received.toString().split("\n")).subList(0, count);
            received.setLength(0);
            return lines;
        }

        boolean closedByPeer()
        {
            received();
            return eof;
        }

        String received()
        {
            final ByteBuffer buffer = ByteBuffer.allocate(4096);
            try
            {
                final int n = channel.read(buffer);
                if (n < 0)
                {
                    eof = true;
                }
                else
                {
                    received.append(new String(buffer.array(), 0, n, StandardCharsets.UTF_8));
                }
            }
            catch (final IOException ex)
            {
                eof = true;
            }
            return received.toString();
        }
    }
}
