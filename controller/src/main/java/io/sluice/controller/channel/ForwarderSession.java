package io.sluice.controller.channel;

import io.sluice.common.control.ControlChannel;
import io.sluice.common.control.ControlClient;
import io.sluice.common.control.ControlCommand;
import io.sluice.common.control.ControlException;
import io.sluice.common.control.ForwarderServices;
import org.agrona.ErrorHandler;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The controller's side of the forwarder's control channel: opens it (the forwarder may start later, or restart),
 * sends commands in order through a {@link ForwarderLink} and keeps the unconfirmed ones for a retry.
 * <p>
 * A forwarder (re)starts from its config with every backend up and configured weights, so whenever one comes alive
 * the controller {@link #resync resyncs} it: the whole commanded state replaces whatever was queued, and the session
 * counts as {@link #isSynced() synced} only once the forwarder confirmed all of it. Until then the node must not
 * attract traffic. Single-threaded: owned by the controller's agent thread.
 * <p>
 * It logs what happens to the channel itself, each failure once until it changes; a state query that keeps failing
 * goes to the agent's error handler, which reports a repeated error once with a count.
 */
public final class ForwarderSession implements AutoCloseable
{
    /** How long to wait between attempts to open the control channel, or to resend refused commands. */
    public static final long RETRY_INTERVAL_MS = 1_000;

    private static final System.Logger LOGGER = System.getLogger(ForwarderSession.class.getName());

    private final Path channelFile;
    private final Duration commandTimeout;
    private final ErrorHandler errors;
    /** Commands produced while no link was open; handed to the next link. */
    private final List<ControlCommand> backlog = new ArrayList<>();

    private ControlChannel channel;
    private ControlClient client;
    private ForwarderLink link;
    private long nextOpenMs;
    private long nextApplyMs;
    private String lastOpenFailure;
    private String lastApplyFailure;
    private boolean resyncing;
    private boolean synced;
    private long confirmed;
    private long refused;

    /**
     * Creates the session; nothing is opened yet.
     *
     * @param channelFile    the forwarder's control file; need not exist yet.
     * @param commandTimeout how long each command waits for the forwarder's answer (the agent waits with it).
     * @param errors         where failed state queries go, e.g. the agent's {@code AgentErrorLog}.
     */
    public ForwarderSession(final Path channelFile, final Duration commandTimeout, final ErrorHandler errors)
    {
        this.channelFile = Objects.requireNonNull(channelFile, "channelFile");
        this.commandTimeout = Objects.requireNonNull(commandTimeout, "commandTimeout");
        this.errors = Objects.requireNonNull(errors, "errors");
    }

    /**
     * Queues commands after the unconfirmed ones.
     *
     * @param commands commands for the forwarder.
     */
    public void enqueue(final List<ControlCommand> commands)
    {
        backlog.addAll(commands);
    }

    /**
     * Starts over with a forwarder that just came alive: maps its control file afresh, drops everything queued
     * and queues the whole state instead.
     *
     * @param fullState every command that brings a forwarder started from the config to the controller's state.
     */
    public void resync(final List<ControlCommand> fullState)
    {
        closeChannel();
        backlog.clear();
        backlog.addAll(fullState);
        synced = false;
        resyncing = true;
        nextOpenMs = 0;
        nextApplyMs = 0;
        LOGGER.log(System.Logger.Level.INFO, "resynchronizing the forwarder: " + fullState.size() + " commands");
    }

    /**
     * Forgets the forwarder: it is gone, and the next one gets a {@link #resync}.
     */
    public void onForwarderDead()
    {
        closeChannel();
        backlog.clear();
        synced = false;
        resyncing = false;
    }

    /**
     * Opens the channel when needed and sends what is queued, waiting for each answer.
     *
     * @param nowMs the time.
     * @return how many commands were handed to the forwarder.
     */
    public int poll(final long nowMs)
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
        final List<String> refusals = link.drainRefusals();
        refused += refusals.size();
        for (final String refusal : refusals)
        {
            LOGGER.log(System.Logger.Level.WARNING, refusal);
        }
        if (applied)
        {
            confirmed += sent;
            lastApplyFailure = null;
            if (resyncing)
            {
                resyncing = false;
                synced = true;
                LOGGER.log(System.Logger.Level.INFO,
                    "forwarder synchronized: it confirmed the controller's whole state");
            }
            return sent;
        }
        // Refused or unanswered: ForwarderLink keeps them; retry a second later, not every cycle.
        nextApplyMs = nowMs + RETRY_INTERVAL_MS;
        if (!link.lastFailure().equals(lastApplyFailure))
        {
            lastApplyFailure = link.lastFailure();
            LOGGER.log(System.Logger.Level.WARNING, "forwarder did not confirm " + lastApplyFailure +
                "; retrying every " + RETRY_INTERVAL_MS + " ms");
        }
        if (!channel.isOwnerAlive())
        {
            // The forwarder is gone; a new one creates a new file, which needs a new mapping.
            LOGGER.log(System.Logger.Level.INFO, "forwarder of " + channelFile +
                " is gone; reopening the control channel");
            backlog.addAll(link.pending());
            closeChannel();
        }
        return sent;
    }

    /**
     * Asks the forwarder for its VIPs and backends.
     *
     * @param nowMs   the time, for the open retry.
     * @param timeout how long to wait.
     * @return the state, or null when the channel is not open or the forwarder did not answer (an error for the
     *         error handler: {@code forwarder state not read: why}).
     */
    public ForwarderServices queryState(final long nowMs, final Duration timeout)
    {
        if (link == null && !openLink(nowMs))
        {
            return null;
        }
        try
        {
            return client.getState(timeout);
        }
        catch (final ControlException ex)
        {
            errors.onError(new IllegalStateException("forwarder state not read: " + ex.getMessage(), ex));
            return null;
        }
    }

    /**
     * Tells whether the forwarder confirmed the whole state since it last came alive.
     *
     * @return true when synced.
     */
    public boolean isSynced()
    {
        return synced;
    }

    /**
     * Tells whether the control channel is open.
     *
     * @return true once it was opened and the forwarder was not seen gone since.
     */
    public boolean isLinked()
    {
        return link != null;
    }

    /**
     * Returns how many commands the forwarder confirmed.
     *
     * @return the count since start.
     */
    public long confirmedCommands()
    {
        return confirmed;
    }

    /**
     * Returns how many commands the forwarder refused (each logged with its reason, then dropped).
     *
     * @return the count since start.
     */
    public long refusedCommands()
    {
        return refused;
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
     * Unmaps the control channel. Idempotent.
     */
    @Override
    public void close()
    {
        closeChannel();
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
            client = new ControlClient(channel);
            link = new ForwarderLink(client);
            lastOpenFailure = null;
            LOGGER.log(System.Logger.Level.INFO, "opened forwarder control channel " + channelFile);
            return true;
        }
        catch (final ControlException ex)
        {
            nextOpenMs = nowMs + RETRY_INTERVAL_MS;
            if (!ex.getMessage().equals(lastOpenFailure))
            {
                // Say it once, not every second.
                lastOpenFailure = ex.getMessage();
                LOGGER.log(System.Logger.Level.WARNING, lastOpenFailure + "; retrying every " + RETRY_INTERVAL_MS +
                    " ms");
            }
            return false;
        }
    }

    private void closeChannel()
    {
        link = null;
        client = null;
        if (channel != null)
        {
            channel.close();
            channel = null;
        }
    }
}
