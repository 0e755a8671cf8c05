package io.sluice.forwarder.control;

import io.sluice.common.control.ControlChannel;
import io.sluice.common.control.ControlCommand;
import io.sluice.common.control.ControlProtocol;
import io.sluice.common.control.CorrelatedFlyweight;
import io.sluice.common.control.RejectFlyweight;
import io.sluice.common.control.StateBackendFlyweight;
import io.sluice.common.control.StateEndFlyweight;
import io.sluice.common.control.StateVipFlyweight;
import io.sluice.common.Vip;
import org.agrona.BitUtil;
import org.agrona.ErrorHandler;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.EpochClock;
import org.agrona.concurrent.MessageHandler;
import org.agrona.concurrent.SystemEpochClock;
import org.agrona.concurrent.broadcast.BroadcastTransmitter;
import org.agrona.concurrent.broadcast.RecordDescriptor;
import org.agrona.concurrent.ringbuffer.ManyToOneRingBuffer;

import java.net.InetAddress;

/**
 * The forwarder's end of the control channel, run by its control thread: {@link #poll} reads commands off the ring,
 * hands each to a {@link CommandHandler} and answers on the response buffer. Single-threaded, like every agent's
 * state; nothing a client writes makes it throw.
 * <p>
 * Answers wait until the end of the poll (or until they fill a quarter of the response buffer), and before they go
 * out {@link CommandHandler#onCommandsApplied()} runs if any command was accepted: an ACK means the change is
 * published, not merely recorded. A GET_STATE answer is sent whole or not at all: if it would take more than half the
 * response buffer, clients could not read it before being lapped, so it is refused with the size it needs.
 */
public final class ControlServer
{
    private static final System.Logger LOGGER = System.getLogger(ControlServer.class.getName());
    private static final int PENDING_HEADER_LENGTH = 8;
    private static final int PENDING_TYPE_OFFSET = 0;
    private static final int PENDING_LENGTH_OFFSET = 4;
    private static final int MAX_RESPONSE_LENGTH = 512;

    private final ControlChannel channel;
    private final ManyToOneRingBuffer ring;
    private final BroadcastTransmitter transmitter;
    private final EpochClock clock;
    private final ErrorHandler errorHandler;
    private final int stateBudget;
    private final int batchBudget;

    private final ControlCommandDecoder decoder = new ControlCommandDecoder();
    private final MessageHandler onMessage = this::onMessage;
    private final Responder responder = new Responder();
    private final CorrelatedFlyweight ack = new CorrelatedFlyweight();
    private final RejectFlyweight reject = new RejectFlyweight();
    private final StateVipFlyweight stateVip = new StateVipFlyweight();
    private final StateBackendFlyweight stateBackend = new StateBackendFlyweight();
    private final StateEndFlyweight stateEnd = new StateEndFlyweight();

    // Answers not yet transmitted: records of [type i32][length i32][payload], each 8-aligned.
    private final ExpandableArrayBuffer pending = new ExpandableArrayBuffer(4096);
    private int pendingLength;
    private int pendingBroadcastBytes;
    private boolean pendingApplied;

    private CommandHandler handler;
    private long acceptedCommands;
    private long rejectedCommands;
    private long malformedCommands;
    private long failedCommands;

    /**
     * Creates the server over a channel this process created.
     *
     * @param channel the channel, from {@link ControlChannel#create}.
     */
    public ControlServer(final ControlChannel channel)
    {
        this(channel, SystemEpochClock.INSTANCE, ControlServer::logError);
    }

    /**
     * Creates the server.
     *
     * @param channel      the channel, from {@link ControlChannel#create}.
     * @param clock        stamps each poll into the ring's consumer heartbeat, which clients show on time-outs.
     * @param errorHandler told of every exception a handler throws other than {@link IllegalArgumentException}.
     */
    public ControlServer(final ControlChannel channel, final EpochClock clock, final ErrorHandler errorHandler)
    {
        if (!channel.isOwner())
        {
            throw new IllegalArgumentException("a ControlServer needs the channel its process created: " + channel);
        }
        this.channel = channel;
        this.clock = clock;
        this.errorHandler = errorHandler;
        ring = channel.commandRing();
        transmitter = new BroadcastTransmitter(channel.responseBuffer());
        stateBudget = channel.responseCapacity() / 2;
        batchBudget = channel.responseCapacity() / 4;
    }

    /**
     * Reads up to {@code limit} commands and answers them.
     *
     * @param handler applies each command.
     * @param limit   most commands to read; a duty cycle's cap.
     * @return commands read, malformed ones included.
     * @throws RuntimeException only what {@link CommandHandler#onCommandsApplied()} throws, after the answers left.
     */
    public int poll(final CommandHandler handler, final int limit)
    {
        channel.ensureOpen();
        ring.consumerHeartbeatTime(clock.time());
        this.handler = handler;
        try
        {
            return ring.read(onMessage, limit);
        }
        finally
        {
            try
            {
                flush();
            }
            finally
            {
                this.handler = null;
            }
        }
    }

    private void onMessage(final int msgTypeId, final MutableDirectBuffer buffer, final int index, final int length)
    {
        final ControlCommand command = decoder.decode(msgTypeId, buffer, index, length);
        if (command == null)
        {
            malformedCommands++;
            if (decoder.hasCorrelationId())
            {
                appendReject(decoder.correlationId(),
                    "malformed " + ControlProtocol.typeName(msgTypeId) + ": " + decoder.problem());
            }
            return;
        }

        final long correlationId = decoder.correlationId();
        final boolean getState = command instanceof ControlCommand.GetState;
        if (getState)
        {
            flush(); // the state answer starts from an empty batch, so its own size is what must fit
        }
        final int mark = pendingLength;
        final int markBytes = pendingBroadcastBytes;
        responder.begin(correlationId, decoder.senderPid(), getState);
        String reason = apply(command, correlationId);
        responder.end();
        if (reason == null && getState)
        {
            reason = checkStateSize(markBytes);
        }
        if (reason != null)
        {
            pendingLength = mark;
            pendingBroadcastBytes = markBytes;
            rejectedCommands++;
            appendReject(correlationId, reason);
            return;
        }
        acceptedCommands++;
        if (getState)
        {
            final int offset = beginRecord();
            stateEnd.wrap(pending, offset, StateEndFlyweight.LENGTH).correlationId(correlationId);
            stateEnd.entryCount(responder.entries);
            endRecord(ControlProtocol.STATE_END, offset, StateEndFlyweight.LENGTH);
        }
        else
        {
            pendingApplied = true;
            appendAck(correlationId);
        }
    }

    private String apply(final ControlCommand command, final long correlationId)
    {
        try
        {
            return handler.onCommand(command, responder);
        }
        catch (final IllegalArgumentException ex)
        {
            return ex.getMessage() != null ? ex.getMessage() : ex.toString();
        }
        catch (final RuntimeException ex)
        {
            failedCommands++;
            errorHandler.onError(new IllegalStateException(
                "control command " + correlationId + " (" + command + ") failed", ex));
            return "internal error: " + ex;
        }
    }

    private String checkStateSize(final int markBytes)
    {
        final int needed = pendingBroadcastBytes - markBytes + broadcastSize(StateEndFlyweight.LENGTH);
        return needed <= stateBudget ? null : "state needs " + needed + " bytes of responses but the response " +
            "buffer carries " + stateBudget + " at a time: raise the control channel capacity";
    }

    private void appendAck(final long correlationId)
    {
        makeRoom(CorrelatedFlyweight.LENGTH);
        final int offset = beginRecord();
        ack.wrap(pending, offset, CorrelatedFlyweight.LENGTH).correlationId(correlationId);
        endRecord(ControlProtocol.ACK, offset, CorrelatedFlyweight.LENGTH);
    }

    private void appendReject(final long correlationId, final String reason)
    {
        makeRoom(RejectFlyweight.MIN_LENGTH + ControlProtocol.MAX_STRING_LENGTH);
        final int offset = beginRecord();
        reject.wrap(pending, offset, MAX_RESPONSE_LENGTH).correlationId(correlationId);
        endRecord(ControlProtocol.REJECT, offset, reject.reason(reason));
    }

    private void makeRoom(final int length)
    {
        if (pendingBroadcastBytes + broadcastSize(length) > batchBudget)
        {
            flush();
        }
    }

    private int beginRecord()
    {
        return pendingLength + PENDING_HEADER_LENGTH;
    }

    private void endRecord(final int msgTypeId, final int offset, final int length)
    {
        pending.putInt(offset - PENDING_HEADER_LENGTH + PENDING_TYPE_OFFSET, msgTypeId);
        pending.putInt(offset - PENDING_HEADER_LENGTH + PENDING_LENGTH_OFFSET, length);
        pendingLength = offset + BitUtil.align(length, RecordDescriptor.RECORD_ALIGNMENT);
        pendingBroadcastBytes += broadcastSize(length);
    }

    private static int broadcastSize(final int length)
    {
        return BitUtil.align(length + RecordDescriptor.HEADER_LENGTH, RecordDescriptor.RECORD_ALIGNMENT);
    }

    private void flush()
    {
        if (pendingLength == 0 && !pendingApplied)
        {
            return;
        }
        try
        {
            if (pendingApplied)
            {
                pendingApplied = false;
                handler.onCommandsApplied();
            }
        }
        finally
        {
            transmitPending();
        }
    }

    private void transmitPending()
    {
        int offset = 0;
        while (offset < pendingLength)
        {
            final int msgTypeId = pending.getInt(offset + PENDING_TYPE_OFFSET);
            final int length = pending.getInt(offset + PENDING_LENGTH_OFFSET);
            transmitter.transmit(msgTypeId, pending, offset + PENDING_HEADER_LENGTH, length);
            offset += PENDING_HEADER_LENGTH + BitUtil.align(length, RecordDescriptor.RECORD_ALIGNMENT);
        }
        pendingLength = 0;
        pendingBroadcastBytes = 0;
    }

    private static void logError(final Throwable error)
    {
        LOGGER.log(System.Logger.Level.ERROR, error.getMessage(), error);
    }

    /**
     * Returns the commands applied.
     *
     * @return count since start.
     */
    public long acceptedCommands()
    {
        return acceptedCommands;
    }

    /**
     * Returns the well-formed commands refused, by the handler or for a state answer too large.
     *
     * @return count since start.
     */
    public long rejectedCommands()
    {
        return rejectedCommands;
    }

    /**
     * Returns the messages that did not decode: unknown type, bad length, bad family, bad string. Each one that
     * carried a correlation id was refused with the reason.
     *
     * @return count since start.
     */
    public long malformedCommands()
    {
        return malformedCommands;
    }

    /**
     * Returns the commands whose handler threw something other than {@link IllegalArgumentException}; each was
     * refused as an internal error and passed to the error handler.
     *
     * @return count since start.
     */
    public long failedCommands()
    {
        return failedCommands;
    }

    private final class Responder implements StateResponder
    {
        private long correlationId;
        private long senderPid;
        private boolean getState;
        private boolean active;
        int entries;

        void begin(final long correlationId, final long senderPid, final boolean getState)
        {
            this.correlationId = correlationId;
            this.senderPid = senderPid;
            this.getState = getState;
            active = true;
            entries = 0;
        }

        void end()
        {
            active = false;
        }

        @Override
        public long correlationId()
        {
            return correlationId;
        }

        @Override
        public long senderPid()
        {
            return senderPid;
        }

        @Override
        public void emitVip(final Vip vip, final String name)
        {
            checkGetState();
            final int offset = beginRecord();
            stateVip.wrap(pending, offset, MAX_RESPONSE_LENGTH).correlationId(correlationId);
            stateVip.vip(vip);
            endRecord(ControlProtocol.STATE_VIP, offset, stateVip.name(name));
            entries++;
        }

        @Override
        public void emitBackend(final Vip vip, final InetAddress backend, final int weight, final boolean healthy,
            final String name, final int maglevSlots)
        {
            checkGetState();
            final int offset = beginRecord();
            stateBackend.wrap(pending, offset, MAX_RESPONSE_LENGTH).correlationId(correlationId);
            stateBackend.vip(vip).backend(backend).weight(weight).maglevSlots(maglevSlots).healthy(healthy);
            endRecord(ControlProtocol.STATE_BACKEND, offset, stateBackend.name(name));
            entries++;
        }

        private void checkGetState()
        {
            if (!active || !getState)
            {
                throw new IllegalStateException("state entries answer GET_STATE only, during its onCommand");
            }
        }
    }
}
