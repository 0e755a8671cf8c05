package io.sluice.controller.bgp;

import io.sluice.common.config.IpLiterals;
import io.sluice.testkit.Eventually;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The real relay script between the controller's {@link ExaBgpApi} and the test, which plays ExaBGP: it reads the
 * relay's standard output (ExaBGP's commands) and writes to its standard input (ExaBGP's acks and messages).
 */
class RelayScriptTest
{
    private static final Duration WAIT = Duration.ofSeconds(20);
    private static final InetAddress VIP1 = IpLiterals.parse("10.100.0.1");
    private static final InetAddress VIP2 = IpLiterals.parse("10.100.0.2");

    @TempDir
    Path directory;

    private final List<ExaBgpApi> apis = new ArrayList<>();
    private final BlockingQueue<String> commands = new LinkedBlockingQueue<>();
    private Process relay;
    private OutputStream toRelay;
    private Path socket;

    @BeforeEach
    void startRelay() throws IOException
    {
        final ExaBgpFiles files = new ExaBgpFiles(directory);
        socket = files.socket();
        Files.writeString(files.relay(), ExaBgpConfigWriter.resource(ExaBgpSidecar.RELAY_RESOURCE));
        final List<String> command = new ArrayList<>(files.relayCommand(Duration.ofMillis(1500)));
        command.add(socket.toString());
        relay = new ProcessBuilder(command).redirectError(directory.resolve("relay.log").toFile()).start();
        toRelay = relay.getOutputStream();
        final Thread reader = new Thread(() ->
        {
            try (BufferedReader lines = new BufferedReader(
                new InputStreamReader(relay.getInputStream(), StandardCharsets.UTF_8)))
            {
                String line;
                while ((line = lines.readLine()) != null)
                {
                    commands.add(line);
                }
            }
            catch (final IOException ex)
            {
                // The relay ended.
            }
        }, "relay-stdout");
        reader.setDaemon(true);
        reader.start();
    }

    @AfterEach
    void stopRelay() throws Exception
    {
        for (final ExaBgpApi api : apis)
        {
            api.close();
        }
        relay.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }

    @Test
    void relaysCommandsAndAnswersBothWays() throws Exception
    {
        final ExaBgpApi api = open();
        api.setAnnounced(Set.of(VIP1));
        awaitPolled(api, api::isConnected, "the relay's connection");

        assertEquals("announce route 10.100.0.1/32 next-hop self", nextCommand(api));
        fromExaBgp("done\n" + ExaBgpMessageTest.UP + "\n");

        awaitPolled(api, api::isCurrent, "the ack");
        awaitPolled(api, () -> api.neighborStates().equals(Map.of("10.10.1.1", "up")), "neighbor up");
    }

    @Test
    void withdrawsEverythingWhenTheControllerStaysAwayPastTheOrphanTimeout() throws Exception
    {
        final ExaBgpApi api = open();
        api.setAnnounced(Set.of(VIP1, VIP2));
        awaitPolled(api, api::isConnected, "the relay's connection");
        assertEquals("announce route 10.100.0.1/32 next-hop self", nextCommand(api));
        assertEquals("announce route 10.100.0.2/32 next-hop self", nextCommand(api));

        final long closedNs = System.nanoTime();
        api.close();

        assertEquals("withdraw route 10.100.0.1/32 next-hop self", nextCommand(null));
        assertEquals("withdraw route 10.100.0.2/32 next-hop self", nextCommand(null));
        final long waitedMs = (System.nanoTime() - closedNs) / 1_000_000;
        assertTrue(waitedMs >= 1_500, "withdrew after " + waitedMs + " ms, before the 1.5 s orphan timeout");
    }

    @Test
    void tellsAControllerBackInTimeWhatItAnnouncedAndTheSessionStates() throws Exception
    {
        final ExaBgpApi first = open();
        first.setAnnounced(Set.of(VIP1, VIP2));
        awaitPolled(first, first::isConnected, "the relay's connection");
        nextCommand(first);
        nextCommand(first);
        fromExaBgp(ExaBgpMessageTest.UP + "\n");
        awaitPolled(first, () -> !first.neighborStates().isEmpty(), "neighbor up");
        first.close();

        final ExaBgpApi second = open();
        awaitPolled(second, second::isConnected, "the relay's reconnection");
        awaitPolled(second, () -> second.announced().equals(Set.of(VIP1, VIP2)), "the relay's greeting");
        assertEquals(Map.of("10.10.1.1", "up"), second.neighborStates());

        second.setAnnounced(Set.of(VIP2));

        assertEquals("withdraw route 10.100.0.1/32 next-hop self", nextCommand(second));
        Thread.sleep(2_000);
        pollFor(second, 100);
        assertNull(commands.poll(), "the relay withdrew a route of a controller that came back in time");
    }

    @Test
    void exitsWhenExaBgpClosesItsStandardInput() throws Exception
    {
        toRelay.close();
        assertTrue(relay.waitFor(WAIT.toSeconds(), TimeUnit.SECONDS), "the relay still runs");
        assertEquals(0, relay.exitValue());
    }

    private ExaBgpApi open() throws IOException
    {
        final ExaBgpApi api = ExaBgpApi.open(socket);
        apis.add(api);
        return api;
    }

    private void fromExaBgp(final String text) throws IOException
    {
        toRelay.write(text.getBytes(StandardCharsets.UTF_8));
        toRelay.flush();
    }

    /**
     * Returns the relay's next line to ExaBGP, polling the API (if any) meanwhile.
     */
    private String nextCommand(final ExaBgpApi api) throws InterruptedException
    {
        final long deadline = System.nanoTime() + WAIT.toNanos();
        while (System.nanoTime() - deadline < 0)
        {
            if (api != null)
            {
                api.poll(0);
            }
            final String line = commands.poll(10, TimeUnit.MILLISECONDS);
            if (line != null)
            {
                return line;
            }
        }
        throw new AssertionError("the relay sent ExaBGP nothing within " + WAIT);
    }

    private static void awaitPolled(final ExaBgpApi api, final java.util.function.BooleanSupplier condition,
        final String what)
    {
        Eventually.await(WAIT, () ->
        {
            pollFor(api, 10);
            return condition.getAsBoolean();
        }, what);
    }

    private static void pollFor(final ExaBgpApi api, final int times)
    {
        for (int i = 0; i < times; i++)
        {
            api.poll(0);
            try
            {
                Thread.sleep(1);
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
            }
        }
    }
}
