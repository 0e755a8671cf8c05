package io.sluice.controller.channel;

import io.sluice.common.control.ControlClient;
import io.sluice.common.control.ControlCommand;
import io.sluice.common.control.ControlException;
import io.sluice.common.control.ControlResponse;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.Iterator;
import java.util.List;
import java.util.Objects;

/**
 * Sends the monitor's commands to the forwarder, in order, and keeps the ones not yet confirmed for the next try.
 * <p>
 * A command the forwarder refuses (unknown VIP, no room for another backend, ...) would be refused again: it is
 * dropped and reported through {@link #drainRefusals()}, so one bad command never holds up the ones after it. A
 * command that got no answer in time may or may not have been applied, and is kept for the retry.
 *
 * <p>Single-threaded: owned by the thread that drives the {@link HealthMonitor}. A newer SET_BACKEND_HEALTH for the
 * same backend replaces a pending older one, so a retry never replays a stale state.
 */
public final class ForwarderLink
{
    private final ControlClient client;
    private final Deque<ControlCommand> pending = new ArrayDeque<>();
    private final List<String> refusals = new ArrayList<>();
    private String lastFailure;

    /**
     * Creates the link.
     *
     * @param client the client of the forwarder's control channel.
     */
    public ForwarderLink(final ControlClient client)
    {
        this.client = Objects.requireNonNull(client, "client");
    }

    /**
     * Queues the commands after any still unconfirmed ones, then sends them one by one, waiting for each answer.
     *
     * @param commands the new commands, possibly none.
     * @param timeout  how long to wait for each answer.
     * @return true when every queued command was answered (accepted, or refused and dropped); false at the first
     *         time-out or full ring, which keeps that command and the ones after it for the next call.
     */
    public boolean apply(final List<ControlCommand> commands, final Duration timeout)
    {
        for (final ControlCommand command : commands)
        {
            enqueue(command);
        }
        while (!pending.isEmpty())
        {
            final ControlCommand command = pending.peekFirst();
            final ControlResponse response;
            try
            {
                response = client.execute(command, timeout);
            }
            catch (final ControlException ex)
            {
                lastFailure = command + ": " + ex.getMessage();
                return false;
            }
            if (response.status() == ControlResponse.Status.TIMED_OUT)
            {
                lastFailure = command + ": " + response.status() + " " + response.reason();
                return false;
            }
            if (!response.isAccepted())
            {
                refusals.add("forwarder refused " + command + ": " + response.reason() +
                    " (dropped: it would be refused again)");
            }
            pending.pollFirst();
        }
        return true;
    }

    private void enqueue(final ControlCommand command)
    {
        if (command instanceof ControlCommand.SetBackendHealth health)
        {
            final Iterator<ControlCommand> it = pending.iterator();
            while (it.hasNext())
            {
                if (it.next() instanceof ControlCommand.SetBackendHealth older &&
                    older.vip().equals(health.vip()) && older.backend().equals(health.backend()))
                {
                    it.remove();
                }
            }
        }
        pending.addLast(command);
    }

    /**
     * Returns the commands not yet confirmed, oldest first.
     *
     * @return a copy of the retry queue.
     */
    public List<ControlCommand> pending()
    {
        return new ArrayList<>(pending);
    }

    /**
     * Returns the refusals since the last call, and forgets them.
     *
     * @return one line per refused command, with the forwarder's reason.
     */
    public List<String> drainRefusals()
    {
        final List<String> drained = List.copyOf(refusals);
        refusals.clear();
        return drained;
    }

    /**
     * Returns why the last failed {@link #apply} stopped.
     *
     * @return the command and the refusal or time-out, or null if none failed yet.
     */
    public String lastFailure()
    {
        return lastFailure;
    }
}
