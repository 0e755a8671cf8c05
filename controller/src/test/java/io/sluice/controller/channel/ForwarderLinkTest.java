package io.sluice.controller.channel;

import io.sluice.common.Vip;
import io.sluice.common.config.IpLiterals;
import io.sluice.common.control.ControlChannel;
import io.sluice.common.control.ControlClient;
import io.sluice.common.control.ControlCommand;
import io.sluice.forwarder.control.ControlServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.InetAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ForwarderLinkTest
{
    private static final Duration TIMEOUT = Duration.ofSeconds(5);
    private static final Vip WEB = new Vip(IpLiterals.parse("192.0.2.1"), 80, Vip.TCP);
    private static final Vip UNKNOWN = new Vip(IpLiterals.parse("192.0.2.9"), 80, Vip.TCP);
    private static final InetAddress B1 = IpLiterals.parse("10.1.0.1");

    @TempDir
    Path dir;

    @Test
    void appliesAcceptedCommandsAndDropsRefusedOnesWithTheirReason() throws InterruptedException
    {
        final List<ControlCommand> applied = new CopyOnWriteArrayList<>();
        final Path file = dir.resolve("node-a").resolve(ControlChannel.FILE_NAME);
        try (ControlChannel channel = ControlChannel.create(file, 65536))
        {
            final ControlServer server = new ControlServer(channel);
            final Thread thread = new Thread(() ->
            {
                while (!Thread.currentThread().isInterrupted())
                {
                    final int read = server.poll((command, responder) ->
                    {
                        if (command instanceof ControlCommand.SetBackendHealth health && health.vip().equals(WEB))
                        {
                            applied.add(command);
                            return null;
                        }
                        return "no VIP " + ((ControlCommand.SetBackendHealth)command).vip();
                    }, 10);
                    if (read == 0)
                    {
                        Thread.onSpinWait();
                    }
                }
            }, "test-forwarder");
            thread.setDaemon(true);
            thread.start();
            try
            {
                final ForwarderLink link = new ForwarderLink(new ControlClient(channel));
                final ControlCommand down = new ControlCommand.SetBackendHealth(WEB, B1, false);
                assertTrue(link.apply(List.of(down), TIMEOUT));
                assertEquals(List.of(down), applied);
                assertEquals(List.of(), link.pending());

                final ControlCommand unknown = new ControlCommand.SetBackendHealth(UNKNOWN, B1, true);
                final ControlCommand up = new ControlCommand.SetBackendHealth(WEB, B1, true);
                assertTrue(link.apply(List.of(unknown, up), TIMEOUT));
                assertEquals(List.of(), link.pending(), "a refusal does not hold up the commands after it");
                assertEquals(List.of(down, up), applied);
                final List<String> refusals = link.drainRefusals();
                assertEquals(1, refusals.size());
                assertTrue(refusals.get(0).contains("no VIP 192.0.2.9:80/tcp"), refusals.toString());
                assertEquals(List.of(), link.drainRefusals());
            }
            finally
            {
                thread.interrupt();
                thread.join(5_000);
            }
        }
    }
}
