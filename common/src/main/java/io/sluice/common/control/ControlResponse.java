package io.sluice.common.control;

/**
 * What became of a command: applied, refused with a reason, or not answered in time.
 *
 * @param correlationId the command's correlation id.
 * @param status        the outcome.
 * @param reason        why it was refused or what the time-out suggests; null when accepted.
 */
public record ControlResponse(long correlationId, Status status, String reason)
{
    /**
     * The outcome of a command.
     */
    public enum Status
    {
        /** The forwarder applied the command. */
        ACCEPTED,
        /** The forwarder refused the command; the reason says why. */
        REJECTED,
        /** No answer arrived in time; the command may or may not have been applied. */
        TIMED_OUT
    }

    /**
     * Creates an accepted response.
     *
     * @param correlationId the command's id.
     * @return the response.
     */
    public static ControlResponse accepted(final long correlationId)
    {
        return new ControlResponse(correlationId, Status.ACCEPTED, null);
    }

    /**
     * Creates a refusal.
     *
     * @param correlationId the command's id.
     * @param reason        why.
     * @return the response.
     */
    public static ControlResponse rejected(final long correlationId, final String reason)
    {
        return new ControlResponse(correlationId, Status.REJECTED, reason == null ? "no reason given" : reason);
    }

    /**
     * Creates a time-out.
     *
     * @param correlationId the command's id.
     * @param detail        what the client knows about why.
     * @return the response.
     */
    public static ControlResponse timedOut(final long correlationId, final String detail)
    {
        return new ControlResponse(correlationId, Status.TIMED_OUT, detail);
    }

    /**
     * Tells whether the command was applied.
     *
     * @return true for {@link Status#ACCEPTED}.
     */
    public boolean isAccepted()
    {
        return status == Status.ACCEPTED;
    }
}
