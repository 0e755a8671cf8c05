package io.sluice.controller;

import io.sluice.common.control.ControlChannel;
import io.sluice.common.control.ControlClient;
import io.sluice.common.control.ControlCommand;
import io.sluice.common.control.ControlException;
import io.sluice.controller.health.CheckResult;
import io.sluice.controller.monitor.BackendChecker;
import io.sluice.controller.monitor.Checkers;
import io.sluice.controller.monitor.ForwarderLink;
import io.sluice.controller.monitor.HealthMonitor;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.EpochClock;

import java.io.PrintStream;
import java.net.InetAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * Drives a {@link HealthMonitor}: runs the checks it names on a small pool, feeds their results back, and sends the
 * resulting commands to the forwarder through a {@link ForwarderLink}.
 *
 * <p>An {@link Agent}: the monitor, the link and the channel are touched only on the agent thread. Checks block on
 * sockets, so they run on pool threads that hand their results back through a queue; a backend has at most one
 * check in flight, so a hanging backend costs one pool thread, never the duty cycle.
 *
 * <p>The forwarder may start after the controller, or restart: while its control channel cannot be opened the runner
 * keeps the commands and tries again every {@link #RETRY_INTERVAL_MS} ms. Nothing a check or the forwarder does
 * makes {@link #doWork()} throw.
 */
public final class HealthCheckRunner implements Agent
{
    /** How long to wait between attempts to open the control channel, or to resend refused commands. */
    public static final long RETRY_INTERVAL_MS = 1_000;
    /** How long each command waits for the forwarder's answer; short, since the agent waits with it. */
    public static final Duration DEFAULT_COMMAND_TIMEOUT = Duration.ofMillis(200);

    private static final int RESULT_LIMIT = 256;

    private record Key(String vipName, InetAddress backend)
    {
    }

    private record Completed(Key key, CheckResult result)
    {
    }

    private final HealthMonitor monitor;
    private final Function<HealthMonitor.Due, BackendChecker> checkerFactory;
    private final Path channelFile;
    private final EpochClock clock;
    private final PrintStream out;
    private final Duration commandTimeout;
    private final ExecutorService pool;
    private final Map<Key, BackendChecker> checkers = new HashMap<>();
    private final Set<Key> inFlight = new HashSet<>();
    private final ConcurrentLinkedQueue<Completed> completed = new ConcurrentLinkedQueue<>();
    /** Commands produced while no link was open; handed to the next link. */
    private final List<ControlCommand> backlog = new ArrayList<>();

    private ControlChannel channel;
    private ForwarderLink link;
    private long nextOpenMs;
    private long nextApplyMs;
    private String lastOpenFailure;
    private String lastApplyFailure;

    /**
     * Creates a runner with the configured HTTP/TCP checkers and the system clock.
     *
     * @param monitor      the monitor to drive; owned by the agent thread from now on.
     * @param channelFile  the forwarder's control file; need not exist yet.
     * @param checkThreads how many checks may block at once.
     * @param out          where transitions and commands are logged.
     */
    public HealthCheckRunner(final HealthMonitor monitor, final Path channelFile, final int checkThreads,
        final PrintStream out)
    {
        this(monitor, due -> Checkers.forConfig(due.check(), due.vip(), due.backend()), channelFile,
            System::currentTimeMillis, checkThreads, out, DEFAULT_COMMAND_TIMEOUT);
    }

    /**
     * Creates a runner.
     *
     * @param monitor        the monitor to drive; owned by the agent thread from now on.
     * @param checkerFactory makes the checker of a backend, once per backend.
     * @param channelFile    the forwarder's control file; need not exist yet.
     * @param clock          the time given to the monitor.
     * @param checkThreads   how many checks may block at once.
     * @param out            where transitions and commands are logged.
     * @param commandTimeout how long each command waits for the forwarder's answer.
     */
    public HealthCheckRunner(final HealthMonitor monitor,
        final Function<HealthMonitor.Due, BackendChecker> checkerFactory, final Path channelFile,
        final EpochClock clock, final int checkThreads, final PrintStream out, final Duration commandTimeout)
    {
        this.monitor = Objects.requireNonNull(monitor, "monitor");
        this.checkerFactory = Objects.requireNonNull(checkerFactory, "checkerFactory");
        this.channelFile = Objects.requireNonNull(channelFile, "channelFile");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.out = Objects.requireNonNull(out, "out");
        this.commandTimeout = Objects.requireNonNull(commandTimeout, "commandTimeout");
        this.pool = Executors.newFixedThreadPool(checkThreads, new CheckThreadFactory());
    }

    @Override
    public String roleName()
    {
        return "health-check-runner";
    }

    @Override
    public int doWork()
    {
        int work = 0;
        try
        {
            final long nowMs = clock.time();
            work += collectResults(nowMs);
            work += startDueChecks(nowMs);
            monitor.onTick(nowMs);
            backlog.addAll(monitor.drainCommands());
            work += sendCommands(nowMs);
            for (final String line : monitor.drainLog())
            {
                out.println("controller: " + line);
                work++;
            }
        }
        catch (final RuntimeException ex)
        {
            // A bug, not a backend or forwarder failure; keep the node's checks going rather than die.
            out.println("controller: health-check cycle failed: " + ex);
        }
        return work;
    }

    private int collectResults(final long nowMs)
    {
        int collected = 0;
        Completed done;
        while (collected < RESULT_LIMIT && (done = completed.poll()) != null)
        {
            inFlight.remove(done.key());
            monitor.onResult(done.key().vipName(), done.key().backend(), done.result(), nowMs);
            collected++;
        }
        return collected;
    }

    private int startDueChecks(final long nowMs)
    {
        int started = 0;
        for (final HealthMonitor.Due due : monitor.due(nowMs))
        {
            final Key key = new Key(due.vip().name(), due.backend().address());
            if (inFlight.contains(key))
            {
                continue; // still hanging on its last check: that one's time-out decides
            }
            final BackendChecker checker = checkers.computeIfAbsent(key, k -> checkerFactory.apply(due));
            try
            {
                pool.execute(() -> completed.offer(new Completed(key, runCheck(checker))));
                inFlight.add(key);
                started++;
            }
            catch (final RejectedExecutionException ex)
            {
                return started; // closing
            }
        }
        return started;
    }

    private static CheckResult runCheck(final BackendChecker checker)
    {
        final long start = System.nanoTime();
        try
        {
            return checker.check();
        }
        catch (final RuntimeException ex)
        {
            // Checkers should not throw, but one that does must count as a failed check, not a lost one.
            return CheckResult.fail("check threw " + ex, System.nanoTime() - start);
        }
    }

    private int sendCommands(final long nowMs)
    {
        if (link == null && !openLink(nowMs))
        {
            return 0;
        }
        if (backlog.isEmpty() && (link.pending().isEmpty() || nowMs - nextApplyMs < 0))
        {
            return 0;
        }
        final int sent = backlog.size();
        final boolean applied = link.apply(backlog, commandTimeout);
        backlog.clear();
        if (applied)
        {
            lastApplyFailure = null;
            return sent;
        }
        // Refused or unanswered: ForwarderLink keeps them; retry a second later, not every 10 ms cycle.
        nextApplyMs = nowMs + RETRY_INTERVAL_MS;
        if (!link.lastFailure().equals(lastApplyFailure))
        {
            lastApplyFailure = link.lastFailure();
            out.println("controller: forwarder did not confirm " + lastApplyFailure + "; retrying every " +
                RETRY_INTERVAL_MS + " ms");
        }
        if (!channel.isOwnerAlive())
        {
            // The forwarder is gone; a new one will create a new file, which needs a new mapping.
            out.println("controller: forwarder of " + channelFile + " is gone; reopening the control channel");
            backlog.addAll(link.pending());
            closeChannel();
        }
        return sent;
    }

    private boolean openLink(final long nowMs)
    {
        if (nowMs - nextOpenMs < 0)
        {
            return false;
        }
        try
        {
            channel = ControlChannel.open(channelFile);
            link = new ForwarderLink(new ControlClient(channel));
            lastOpenFailure = null;
            out.println("controller: opened forwarder control channel " + channelFile);
            return true;
        }
        catch (final ControlException ex)
        {
            nextOpenMs = nowMs + RETRY_INTERVAL_MS;
            if (!ex.getMessage().equals(lastOpenFailure))
            {
                // Say it once, not every second.
                lastOpenFailure = ex.getMessage();
                out.println("controller: " + lastOpenFailure + "; retrying every " + RETRY_INTERVAL_MS + " ms");
            }
            return false;
        }
    }

    private void closeChannel()
    {
        link = null;
        if (channel != null)
        {
            channel.close();
            channel = null;
        }
    }

    /**
     * Tells whether the forwarder's control channel is open.
     *
     * @return true once it was opened and the forwarder was not seen gone since.
     */
    public boolean isLinked()
    {
        return link != null;
    }

    /**
     * Returns the commands not yet confirmed by the forwarder.
     *
     * @return those waiting for a channel, then those the link keeps for a retry.
     */
    public List<ControlCommand> unconfirmedCommands()
    {
        final List<ControlCommand> commands = new ArrayList<>(backlog);
        if (link != null)
        {
            commands.addAll(link.pending());
        }
        return commands;
    }

    /**
     * Stops the check threads (interrupting hanging checks) and unmaps the control channel.
     */
    @Override
    public void onClose()
    {
        pool.shutdownNow();
        try
        {
            if (!pool.awaitTermination(1, TimeUnit.SECONDS))
            {
                out.println("controller: some health checks did not stop within 1 s");
            }
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
        closeChannel();
    }

    private static final class CheckThreadFactory implements ThreadFactory
    {
        private final AtomicInteger count = new AtomicInteger();

        @Override
        public Thread newThread(final Runnable task)
        {
            final Thread thread = new Thread(task, "health-check-" + count.getAndIncrement());
            // Daemon: a check stuck in a socket call must not keep the JVM alive.
            thread.setDaemon(true);
            return thread;
        }
    }
}
