package io.sluice.controller.bgp;

import com.code_intelligence.jazzer.junit.DictionaryEntries;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.sluice.common.config.IpLiterals;
import io.sluice.testkit.CapturedLog;
import org.junit.jupiter.api.AfterAll;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Any bytes from the ExaBGP relay, through the controller's real reader: {@link ExaBgpApi} on a real Unix-domain
 * socket, splitting lines and decoding UTF-8, {@link ExaBgpSession} and {@link ExaBgpMessage}'s JSON and greeting
 * parsers. Nothing throws, the connection stays up, and a well-formed neighbor-state line after the input (behind a
 * newline that ends whatever line the input left open) is still understood. Each input comes on a new connection,
 * which resets the session, so an input means the same on every run.
 */
class ExaBgpRelayFuzzTest
{
    private static final String SENTINEL_PEER = "192.0.2.254";
    private static final byte[] SENTINEL = ("\n{ \"exabgp\": \"4.0.1\", \"type\": \"state\", " +
        "\"neighbor\": { \"address\": " +
        "{ \"local\": \"192.0.2.1\", \"peer\": \"" + SENTINEL_PEER + "\" }, \"state\": \"up\" } }\n")
        .getBytes(StandardCharsets.US_ASCII);
    private static final int MAX_POLLS = 1000;

    // Off the console: every input is a connection and a disconnection, logged; shown only when one fails.
    private static final CapturedLog LOG = CapturedLog.of(ExaBgpSession.class).quiet().install();
    private static final Path DIRECTORY = temporaryDirectory();
    private static final ExaBgpApi API = open(DIRECTORY.resolve("exabgp.sock"));

    @FuzzTest(maxDuration = "30s")
    @DictionaryEntries({
        "done", "error", "sluice-relay announced ", "/32", "/128", "10.100.0.1", "fd00::1", "\"type\"",
        "\"state\"", "\"neighbor\"", "\"address\"", "\"peer\"", "\"local\"", "\"reason\"", "\"notification\"",
        "\"shutdown\"", "\"up\"", "\"down\"", "\"connected\"", "1e999", "-0", "null", "true",
        "{", "}", "[", "]", ":", ","})
    void readsAnyRelayBytes(final byte[] input) throws IOException
    {
        API.setAnnounced(Set.of(IpLiterals.parse("10.100.0.1")));
        try (SocketChannel relay = SocketChannel.open(StandardProtocolFamily.UNIX))
        {
            relay.connect(UnixDomainSocketAddress.of(API.socketPath()));
            final int reconnects = API.reconnects();
            pollUntilConnected(reconnects);
            assertTrue(API.neighborStates().isEmpty(), "a new connection starts without neighbor states");

            final ByteBuffer bytes = ByteBuffer.allocate(input.length +
                SENTINEL.length).put(input).put(SENTINEL).flip();
            while (bytes.hasRemaining())
            {
                relay.write(bytes);
                API.poll(0);
            }
            for (int polls = 0; polls < MAX_POLLS && !"up".equals(API.neighborStates().get(SENTINEL_PEER)); polls++)
            {
                API.poll(0);
            }
            assertTrue(API.isConnected(), () -> "the relay connection was dropped: " + LOG.drain());
            assertEquals("up", API.neighborStates().get(SENTINEL_PEER), "the state line after the input");
        }
        LOG.clear();
    }

    private static void pollUntilConnected(final int reconnectsBefore)
    {
        for (int polls = 0; polls < MAX_POLLS; polls++)
        {
            API.poll(0);
            if (API.isConnected() && (API.reconnects() > reconnectsBefore || reconnectsBefore == 0))
            {
                return;
            }
        }
        throw new AssertionError("the relay connection was not accepted");
    }

    @AfterAll
    static void close() throws IOException
    {
        API.close();
        LOG.close();
        Files.deleteIfExists(DIRECTORY);
    }

    private static ExaBgpApi open(final Path socket)
    {
        try
        {
            return ExaBgpApi.open(socket);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    private static Path temporaryDirectory()
    {
        try
        {
            return Files.createTempDirectory("sluice-relay-fuzz");
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }
}
