package io.sluice.controller.bgp;

import io.sluice.common.config.BgpConfig;
import io.sluice.common.config.ExaBgpConfig;
import io.sluice.testkit.Namespace;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;

/**
 * A load-balancer node's BGP half for tests: an {@link ExaBgpApi} and an {@link ExaBgpSidecar} running ExaBGP in
 * the node's namespace, polled every 10 ms on one thread of their own as the controller's duty cycle would. Tests
 * talk to them only through {@link #call}, so both stay single-threaded.
 */
final class LbNode implements AutoCloseable
{
    private static final long POLL_INTERVAL_MS = 10;

    private final String name;
    private final Namespace namespace;
    private final ExaBgpFiles files;
    private final String configText;
    private final RouteAttributes attributes;
    private final ScheduledExecutorService loop;
    private ExaBgpApi api;
    private ExaBgpSidecar sidecar;

    private LbNode(final String name, final Namespace namespace, final Path nodeDirectory, final String configText,
        final RouteAttributes attributes)
    {
        this.attributes = attributes;
        this.name = name;
        this.namespace = namespace;
        this.files = new ExaBgpFiles(nodeDirectory);
        this.configText = configText;
        this.loop = Executors.newSingleThreadScheduledExecutor(runnable ->
        {
            final Thread thread = new Thread(runnable, "controller-" + name);
            thread.setDaemon(true);
            return thread;
        });
    }

    /**
     * Starts the node's controller side: the API's socket, then ExaBGP.
     *
     * @param name          the node's name, for log lines.
     * @param namespace     the node's network namespace, where ExaBGP runs.
     * @param nodeDirectory the node directory (socket, configuration, pid file, logs).
     * @param bgp           the node's BGP settings.
     * @param orphanTimeout the relay's orphan timeout.
     * @return the running node.
     */
    static LbNode start(final String name, final Namespace namespace, final Path nodeDirectory, final BgpConfig bgp,
        final Duration orphanTimeout)
    {
        return start(name, namespace, nodeDirectory, bgp, RouteAttributes.NONE, Map.of(), orphanTimeout);
    }

    /**
     * Starts a node whose routes carry path attributes and whose sessions may have TCP MD5 passwords.
     *
     * @param name          the node's name, for log lines.
     * @param namespace     the node's network namespace, where ExaBGP runs.
     * @param nodeDirectory the node directory.
     * @param bgp           the node's BGP settings.
     * @param attributes    the routes' path attributes.
     * @param passwords     each MD5 password file of {@code bgp} to its password.
     * @param orphanTimeout the relay's orphan timeout.
     * @return the running node.
     */
    static LbNode start(final String name, final Namespace namespace, final Path nodeDirectory, final BgpConfig bgp,
        final RouteAttributes attributes, final Map<Path, byte[]> passwords, final Duration orphanTimeout)
    {
        final ExaBgpFiles files = new ExaBgpFiles(nodeDirectory);
        final String text = ExaBgpConfigWriter.fromClasspath().write(bgp, files.relayCommand(orphanTimeout),
            files.socket(), passwords);
        final LbNode node = new LbNode(name, namespace, nodeDirectory, text, attributes);
        node.call(LbNode::startController);
        node.loop.scheduleWithFixedDelay(node::poll, 0, POLL_INTERVAL_MS, TimeUnit.MILLISECONDS);
        return node;
    }

    /**
     * Runs something on the node's thread and returns its result.
     *
     * @param action what to run.
     * @param <T>    the result's type.
     * @return the result.
     */
    <T> T call(final Function<LbNode, T> action)
    {
        try
        {
            return loop.submit(() -> action.apply(this)).get(30, TimeUnit.SECONDS);
        }
        catch (final ExecutionException ex)
        {
            throw new IllegalStateException(name + ": " + ex.getCause(), ex.getCause());
        }
        catch (final InterruptedException | TimeoutException ex)
        {
            throw new IllegalStateException(name + ": " + ex, ex);
        }
    }

    void setAnnounced(final Set<InetAddress> addresses)
    {
        call(node ->
        {
            node.api.setAnnounced(addresses);
            return null;
        });
    }

    ExaBgpApi api()
    {
        return api;
    }

    ExaBgpSidecar sidecar()
    {
        return sidecar;
    }

    Namespace namespace()
    {
        return namespace;
    }

    /**
     * Plays a controller that dies: the socket closes, ExaBGP keeps running.
     */
    void killController()
    {
        call(node ->
        {
            node.api.close();
            node.sidecar.detach();
            node.api = null;
            node.sidecar = null;
            return null;
        });
    }

    /**
     * Plays a new controller: opens the socket again and adopts the running ExaBGP.
     */
    void startControllerAgain()
    {
        call(LbNode::startController);
    }

    /**
     * Returns ExaBGP's log, for failure reports.
     *
     * @return the log's text.
     */
    String exaBgpLog()
    {
        try
        {
            return Files.exists(files.log()) ? Files.readString(files.log()) : "(no ExaBGP log)";
        }
        catch (final IOException ex)
        {
            return "(cannot read " + files.log() + ": " + ex + ")";
        }
    }

    /**
     * Stops ExaBGP (adopting it first if the controller was killed) and closes the socket.
     */
    @Override
    public void close()
    {
        try
        {
            call(node ->
            {
                if (node.sidecar == null)
                {
                    node.startController();
                }
                node.sidecar.stop();
                node.api.close();
                node.api = null;
                node.sidecar = null;
                return null;
            });
        }
        finally
        {
            loop.shutdownNow();
        }
    }

    private Void startController()
    {
        try
        {
            api = ExaBgpApi.open(files.socket(), attributes);
            sidecar = ExaBgpSidecar.start(new ExaBgpConfig(false, "ip netns exec " + namespace.name() + " exabgp"),
                files.directory(), configText, nowMs());
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
        return null;
    }

    private void poll()
    {
        if (api == null)
        {
            return;
        }
        try
        {
            final long now = nowMs();
            api.poll(now);
            sidecar.poll(now);
        }
        catch (final RuntimeException ex)
        {
            // A scheduled task that throws is never run again: report and keep the duty cycle going.
            System.out.printf("%tT.%<tL %s poll failed: %s%n", System.currentTimeMillis(), name, ex);
        }
    }

    private static long nowMs()
    {
        return System.nanoTime() / 1_000_000;
    }
}
