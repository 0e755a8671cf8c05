package io.sluice.controller.bgp;

import java.util.ArrayList;
import java.util.List;

/**
 * Stops processes politely, then firmly: the blocking part of {@link ExaBgpSidecar#stop()}.
 */
final class ProcessControl
{
    private static final long PAUSE_MS = 20;
    private static final long KILL_WAIT_NS = 1_000_000_000L;

    private ProcessControl()
    {
    }

    /**
     * Sends SIGTERM, waits for the process to exit, then sends SIGKILL to it and to the descendants it had (ExaBGP's
     * relay runs in a process group of its own).
     *
     * @param process the process.
     * @param graceMs how long it gets to exit after SIGTERM.
     */
    static void terminate(final ProcessHandle process, final long graceMs)
    {
        final List<ProcessHandle> all = new ArrayList<>(process.descendants().toList());
        process.destroy();
        final long deadline = System.nanoTime() + graceMs * 1_000_000L;
        while (process.isAlive() && System.nanoTime() - deadline < 0)
        {
            pause();
        }
        all.add(process);
        for (final ProcessHandle handle : all)
        {
            handle.destroyForcibly();
        }
        final long killDeadline = System.nanoTime() + KILL_WAIT_NS;
        while (all.stream().anyMatch(ProcessHandle::isAlive) && System.nanoTime() - killDeadline < 0)
        {
            pause();
        }
    }

    /**
     * Sleeps a moment, keeping the interrupt flag.
     */
    static void pause()
    {
        try
        {
            Thread.sleep(PAUSE_MS);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
    }
}
