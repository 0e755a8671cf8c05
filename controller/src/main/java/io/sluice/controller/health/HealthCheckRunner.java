package io.sluice.controller.health;

import io.sluice.controller.health.check.BackendChecker;
import io.sluice.controller.health.check.CheckResult;
import io.sluice.controller.health.check.Checkers;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.SystemNanoClock;

import java.net.InetAddress;
import java.util.HashMap;
import java.util.HashSet;
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
 * Runs the checks a {@link HealthMonitor} names on a small pool and feeds their results back to it.
 *
 * <p>Polled from the controller's agent thread, which alone touches the monitor. Checks block on sockets, so they
 * run on pool threads that hand their results back through a queue; a backend has at most one check in flight, so
 * a hanging backend costs one pool thread, never the duty cycle. Nothing a check does makes {@link #poll} throw.
 */
public final class HealthCheckRunner implements AutoCloseable
{
    private static final int RESULT_LIMIT = 256;

    private record Key(String vipName, InetAddress backend)
    {
    }

    private record Completed(Key key, CheckResult result)
    {
    }

    private final HealthMonitor monitor;
    private final Function<HealthMonitor.Due, BackendChecker> checkerFactory;
    private final ExecutorService pool;
    private final NanoClock clock;
    private final Map<Key, BackendChecker> checkers = new HashMap<>();
    private final Set<Key> inFlight = new HashSet<>();
    private final ConcurrentLinkedQueue<Completed> completed = new ConcurrentLinkedQueue<>();

    /**
     * Creates a runner with the configured HTTP/TCP checkers.
     *
     * @param monitor      the monitor to drive; owned by the polling thread from now on.
     * @param checkThreads how many checks may block at once.
     */
    public HealthCheckRunner(final HealthMonitor monitor, final int checkThreads)
    {
        this(monitor, due -> Checkers.forConfig(due.check(), due.vip(), due.backend()), checkThreads);
    }

    /**
     * Creates a runner.
     *
     * @param monitor        the monitor to drive; owned by the polling thread from now on.
     * @param checkerFactory makes the checker of a backend, once per backend.
     * @param checkThreads   how many checks may block at once.
     */
    public HealthCheckRunner(final HealthMonitor monitor,
        final Function<HealthMonitor.Due, BackendChecker> checkerFactory, final int checkThreads)
    {
        this(monitor, checkerFactory, checkThreads, SystemNanoClock.INSTANCE);
    }

    /**
     * Creates a runner that times checks with the given clock.
     *
     * @param monitor        the monitor to drive; owned by the polling thread from now on.
     * @param checkerFactory makes the checker of a backend, once per backend.
     * @param checkThreads   how many checks may block at once.
     * @param clock          times a check that throws (read on the check threads).
     */
    public HealthCheckRunner(final HealthMonitor monitor,
        final Function<HealthMonitor.Due, BackendChecker> checkerFactory, final int checkThreads,
        final NanoClock clock)
    {
        this.monitor = Objects.requireNonNull(monitor, "monitor");
        this.checkerFactory = Objects.requireNonNull(checkerFactory, "checkerFactory");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.pool = Executors.newFixedThreadPool(checkThreads, new CheckThreadFactory());
    }

    /**
     * Feeds finished checks to the monitor, starts the due ones and lets hold-downs end.
     *
     * @param nowMs the time given to the monitor.
     * @return how many results were collected and checks started.
     */
    public int poll(final long nowMs)
    {
        int work = collectResults(nowMs);
        work += startDueChecks(nowMs);
        monitor.onTick(nowMs);
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

    private CheckResult runCheck(final BackendChecker checker)
    {
        final long start = clock.nanoTime();
        try
        {
            return checker.check();
        }
        catch (final RuntimeException ex)
        {
            // Checkers should not throw, but one that does must count as a failed check, not a lost one.
            return CheckResult.fail("check threw " + ex, clock.nanoTime() - start);
        }
    }

    /**
     * Returns how many checks are running now.
     *
     * @return checks started and not yet collected.
     */
    public int checksInFlight()
    {
        return inFlight.size();
    }

    /**
     * Stops the check threads, interrupting hanging checks. Idempotent.
     */
    @Override
    public void close()
    {
        pool.shutdownNow();
        try
        {
            if (!pool.awaitTermination(1, TimeUnit.SECONDS))
            {
                System.getLogger(HealthCheckRunner.class.getName()).log(System.Logger.Level.WARNING,
                    "controller: some health checks did not stop within 1 s");
            }
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
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
