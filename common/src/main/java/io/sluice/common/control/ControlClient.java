package io.sluice.common.control;

import org.agrona.MutableDirectBuffer;
import org.agrona.collections.Long2LongHashMap;
import org.agrona.collections.Long2ObjectHashMap;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.MessageHandler;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.SystemNanoClock;
import org.agrona.concurrent.ringbuffer.ManyToOneRingBuffer;
import org.agrona.concurrent.ringbuffer.RingBuffer;

import java.time.Duration;
import java.util.Objects;

/**
 * A client of the control channel, for the controller and operator tools: {@link #send} writes a command to the
 * ring, {@link #await} waits for its answer, {@link #getState} asks for the forwarder's services. Not thread-safe:
 * one client per thread (many clients, in any number of processes, may share a channel).
 * <p>
 * Answers arrive on a broadcast buffer every client reads; a client keeps only those for commands it sent. A client
 * that reads too slowly is lapped and loses answers: it counts the laps ({@link #lostResponses()}), says so when a
 * wait times out, and {@link #getState} asks again. Every wait ends by its time-out.
 */
public final class ControlClient
{
    /** How long {@link #send} retries while the command ring is full. */
    public static final Duration DEFAULT_SEND_TIMEOUT = Duration.ofSeconds(1);

    private static final System.Logger LOGGER = System.getLogger(ControlClient.class.getName());
    private static final long NO_ID = Long.MIN_VALUE;
    private static final int RECEIVE_BATCH = 256;
    private static final int CATCH_UP_LIMIT = 4096;

    private final ControlChannel channel;
    private final ManyToOneRingBuffer ring;
    private final ResponseReceiver receiver;
    private final long sendTimeoutNs;
    private final IdleStrategy idleStrategy;
    private final NanoClock clock;
    private final long pid = ProcessHandle.current().pid();
    private final ControlCommandEncoder encoder = new ControlCommandEncoder();
    private final MessageHandler onResponse = this::onResponse;

    private final CorrelatedFlyweight ack = new CorrelatedFlyweight();
    private final RejectFlyweight reject = new RejectFlyweight();
    private final StateVipFlyweight stateVip = new StateVipFlyweight();
    private final StateBackendFlyweight stateBackend = new StateBackendFlyweight();
    private final StateEndFlyweight stateEnd = new StateEndFlyweight();
    private final StateCollector collector = new StateCollector();

    // Commands sent and not yet awaited, with the loss count when each was sent; their answers wait in stash.
    private final Long2LongHashMap outstanding = new Long2LongHashMap(-1);
    private final Long2ObjectHashMap<ControlResponse> stash = new Long2ObjectHashMap<>();
    private long awaitedId = NO_ID;
    private ControlResponse awaitedResponse;
    private long malformedResponses;

    /**
     * Creates a client with the default send time-out.
     *
     * @param channel an opened (or created) channel.
     */
    public ControlClient(final ControlChannel channel)
    {
        this(channel, DEFAULT_SEND_TIMEOUT, new BackoffIdleStrategy(10, 20, 1_000, 1_000_000));
    }

    /**
     * Creates a client.
     *
     * @param channel      an opened (or created) channel.
     * @param sendTimeout  how long {@link #send} retries while the ring is full.
     * @param idleStrategy how to wait between polls of the response buffer.
     */
    public ControlClient(final ControlChannel channel, final Duration sendTimeout, final IdleStrategy idleStrategy)
    {
        this(channel, sendTimeout, idleStrategy, SystemNanoClock.INSTANCE);
    }

    /**
     * Creates a client whose time-outs run on the given clock.
     *
     * @param channel      an opened (or created) channel.
     * @param sendTimeout  how long {@link #send} retries while the ring is full.
     * @param idleStrategy how to wait between polls of the response buffer.
     * @param clock        the clock every time-out is measured on.
     */
    public ControlClient(final ControlChannel channel, final Duration sendTimeout, final IdleStrategy idleStrategy,
        final NanoClock clock)
    {
        channel.ensureOpen();
        this.channel = channel;
        this.sendTimeoutNs = sendTimeout.toNanos();
        this.idleStrategy = idleStrategy;
        this.clock = Objects.requireNonNull(clock, "clock");
        ring = channel.commandRing();
        receiver = new ResponseReceiver(channel.responseBuffer());
    }

    /**
     * Writes a command to the ring, retrying for the send time-out while the ring is full.
     *
     * @param command the command.
     * @return its correlation id, for {@link #await}.
     * @throws ControlException when the ring stays full.
     */
    public long send(final ControlCommand command)
    {
        channel.ensureOpen();
        // Catch up first: answers already waiting cannot be ours, and a reader that is current is hard to lap.
        receive(CATCH_UP_LIMIT);
        final int msgTypeId = ControlCommandEncoder.typeId(command);
        final int length = ControlCommandEncoder.encodedLength(command);
        final long correlationId = ring.nextCorrelationId();
        final long deadline = clock.nanoTime() + sendTimeoutNs;
        idleStrategy.reset();
        int index;
        while ((index = ring.tryClaim(msgTypeId, length)) == RingBuffer.INSUFFICIENT_CAPACITY)
        {
            if (clock.nanoTime() - deadline >= 0)
            {
                throw new ControlException("command ring full for " + Duration.ofNanos(sendTimeoutNs).toMillis() +
                    " ms: " + forwarderStatus());
            }
            idleStrategy.idle();
        }
        try
        {
            encoder.encode(command, correlationId, pid, ring.buffer(), index);
            ring.commit(index);
        }
        catch (final RuntimeException ex)
        {
            ring.abort(index);
            throw ex;
        }
        outstanding.put(correlationId, receiver.lostCount());
        return correlationId;
    }

    /**
     * Waits for the answer to a command this client sent.
     *
     * @param correlationId from {@link #send}.
     * @param timeout       how long to wait.
     * @return accepted, rejected with the reason, or timed out with what the client knows about why.
     */
    public ControlResponse await(final long correlationId, final Duration timeout)
    {
        final long lossAtSend = outstanding.containsKey(correlationId) ? outstanding.get(correlationId) :
            receiver.lostCount();
        final ControlResponse response = awaitUntil(correlationId, clock.nanoTime() + timeout.toNanos(), false);
        return response != null ? response :
            ControlResponse.timedOut(correlationId, timeoutDetail(timeout, lossAtSend));
    }

    /**
     * Waits for an answer until a deadline.
     *
     * @param stopOnLoss return as soon as answers may have been lost after the command was sent: for GET_STATE,
     *                   which is safe to ask again.
     * @return the answer, or null on time-out or loss.
     */
    private ControlResponse awaitUntil(final long correlationId, final long deadline, final boolean stopOnLoss)
    {
        channel.ensureOpen();
        final long lossAtSend = outstanding.containsKey(correlationId) ? outstanding.get(correlationId) :
            receiver.lostCount();
        final ControlResponse early = stash.remove(correlationId);
        if (early != null)
        {
            outstanding.remove(correlationId);
            return early;
        }
        awaitedId = correlationId;
        awaitedResponse = null;
        idleStrategy.reset();
        try
        {
            while (true)
            {
                final int received = receive(RECEIVE_BATCH);
                if (awaitedResponse != null)
                {
                    return awaitedResponse;
                }
                if ((stopOnLoss && receiver.lostCount() != lossAtSend) || clock.nanoTime() - deadline >= 0)
                {
                    return null;
                }
                idleStrategy.idle(received);
            }
        }
        finally
        {
            awaitedId = NO_ID;
            awaitedResponse = null;
            outstanding.remove(correlationId);
        }
    }

    /**
     * Sends a command and waits for its answer.
     *
     * @param command the command.
     * @param timeout how long to wait for the answer.
     * @return the answer.
     * @throws ControlException when the ring stays full.
     */
    public ControlResponse execute(final ControlCommand command, final Duration timeout)
    {
        return await(send(command), timeout);
    }

    /**
     * Asks for the forwarder's VIPs and backends. Asks again when answers were lost to lapping, until the time-out.
     *
     * @param timeout how long to try.
     * @return the state.
     * @throws ControlException when refused (e.g. the state is too large for the response buffer) or timed out; its
     *                          {@link ControlException#response()} says which.
     */
    public ForwarderServices getState(final Duration timeout)
    {
        final long deadline = clock.nanoTime() + timeout.toNanos();
        String lastLoss = null;
        while (true)
        {
            final long correlationId = send(new ControlCommand.GetState());
            final long lossAtSend = receiver.lostCount();
            collector.begin(correlationId);
            final ControlResponse response;
            try
            {
                response = awaitUntil(correlationId, deadline, true);
            }
            finally
            {
                collector.stop();
            }
            if (response != null && response.status() == ControlResponse.Status.REJECTED)
            {
                throw new ControlException("GET_STATE rejected: " + response.reason(), response);
            }
            if (response != null && receiver.lostCount() == lossAtSend && collector.isComplete())
            {
                return collector.state();
            }
            if (receiver.lostCount() != lossAtSend)
            {
                lastLoss = "state answers were lost: this client was lapped by the response buffer";
            }
            else if (response != null)
            {
                lastLoss = "incomplete state: got " + collector.entries() + " of " + collector.expectedEntries() +
                    " entries";
            }
            if (clock.nanoTime() - deadline >= 0)
            {
                final String detail = timeoutDetail(timeout, lossAtSend) + (lastLoss == null ? "" : "; " + lastLoss);
                throw new ControlException(detail, ControlResponse.timedOut(correlationId, detail));
            }
            LOGGER.log(System.Logger.Level.DEBUG, "{0}; asking again", lastLoss);
        }
    }

    /**
     * Returns how often answers may have been lost because this client read too slowly.
     *
     * @return laps of the response buffer, plus records overwritten while read.
     */
    public long lostResponses()
    {
        return receiver.lostCount();
    }

    /**
     * Returns the responses from the forwarder that did not decode; ignored, but counted.
     *
     * @return count since creation.
     */
    public long malformedResponses()
    {
        return malformedResponses;
    }

    private int receive(final int limit)
    {
        final long lostBefore = receiver.lostCount();
        int received = 0;
        while (received < limit && awaitedResponse == null && receiver.receive(onResponse) > 0)
        {
            received++;
        }
        if (receiver.lostCount() != lostBefore)
        {
            LOGGER.log(System.Logger.Level.DEBUG, "control client lapped by the response buffer ({0} losses so far)",
                receiver.lostCount());
        }
        return received;
    }

    private void onResponse(final int msgTypeId, final MutableDirectBuffer buffer, final int index, final int length)
    {
        switch (msgTypeId)
        {
            case ControlProtocol.ACK:
                if (valid(ack.wrap(buffer, index, length), msgTypeId))
                {
                    resolve(ack.correlationId(), ControlResponse.accepted(ack.correlationId()));
                }
                break;

            case ControlProtocol.REJECT:
                reject.wrap(buffer, index, length);
                if (valid(reject, msgTypeId))
                {
                    resolve(reject.correlationId(), ControlResponse.rejected(reject.correlationId(), reject.reason()));
                }
                break;

            case ControlProtocol.STATE_VIP:
                stateVip.wrap(buffer, index, length);
                if (stateVip.hasCorrelationId() && collector.isCollecting(stateVip.correlationId()) &&
                    valid(stateVip, msgTypeId))
                {
                    collector.onVip(stateVip.vip(), stateVip.name());
                }
                break;

            case ControlProtocol.STATE_BACKEND:
                onStateBackend(msgTypeId, buffer, index, length);
                break;

            case ControlProtocol.STATE_END:
                stateEnd.wrap(buffer, index, length);
                if (valid(stateEnd, msgTypeId))
                {
                    if (collector.isCollecting(stateEnd.correlationId()))
                    {
                        collector.onEnd(stateEnd.entryCount());
                    }
                    resolve(stateEnd.correlationId(), ControlResponse.accepted(stateEnd.correlationId()));
                }
                break;

            default:
                break; // a newer forwarder's answer type: not for this client
        }
    }

    private void onStateBackend(final int msgTypeId, final MutableDirectBuffer buffer, final int index,
        final int length)
    {
        final StateBackendFlyweight backend = stateBackend;
        backend.wrap(buffer, index, length);
        if (backend.hasCorrelationId() && collector.isCollecting(backend.correlationId()) &&
            valid(backend, msgTypeId))
        {
            collector.onBackend(backend.vip(), backend.backend(), backend.weight(), backend.healthy(),
                backend.name(), backend.maglevSlots());
        }
    }

    private boolean valid(final CorrelatedFlyweight flyweight, final int msgTypeId)
    {
        final String problem = flyweight.validate(msgTypeId);
        if (problem != null)
        {
            malformedResponses++;
            LOGGER.log(System.Logger.Level.WARNING, "ignoring malformed control response: {0}", problem);
            return false;
        }
        return true;
    }

    private void resolve(final long correlationId, final ControlResponse response)
    {
        if (correlationId == awaitedId)
        {
            awaitedResponse = response;
        }
        else if (outstanding.containsKey(correlationId))
        {
            stash.put(correlationId, response);
        }
    }

    private String timeoutDetail(final Duration timeout, final long lossAtSend)
    {
        final StringBuilder detail = new StringBuilder("no answer within ").append(timeout.toMillis()).append(" ms");
        final long lost = receiver.lostCount() - lossAtSend;
        if (lost > 0)
        {
            detail.append("; this client was lapped by the response buffer (").append(lost)
                .append(" losses), so the answer may have been lost and the command may have been applied");
        }
        return detail.append("; ").append(forwarderStatus()).toString();
    }

    private String forwarderStatus()
    {
        if (!channel.isOwnerAlive())
        {
            final long ownerPid = channel.ownerPid();
            return ownerPid == 0 ? "the forwarder has closed the control channel" :
                "the forwarder (pid " + ownerPid + ") is not running";
        }
        final long lastPoll = channel.lastPollTimeMs();
        if (lastPoll == 0)
        {
            return "the forwarder (pid " + channel.ownerPid() + ") runs but its control thread has never polled";
        }
        return "the forwarder (pid " + channel.ownerPid() + ") runs; its control thread last polled " +
            Math.max(0, System.currentTimeMillis() - lastPoll) + " ms ago";
    }
}
