package io.sluice.controller.liveness;

/**
 * One look at the forwarder's counters file.
 *
 * @param fileExists       whether a valid counters file was at the path; when false the other fields are zero.
 * @param pid              the process id of the forwarder that created the file.
 * @param startTimeMs      when that forwarder created the file, in epoch milliseconds.
 * @param ownerAlive       whether that process still runs.
 * @param newestHeartbeatMs the newest {@code HEARTBEAT_MS} over all workers, in epoch milliseconds, or 0 when no
 *                         worker has written one yet.
 * @param forwarderState   the {@code FORWARDER_STATE} value ({@link io.sluice.common.counters.ForwarderState}), or
 *                         -1 when the forwarder has not allocated it.
 */
public record Observation(
    boolean fileExists, long pid, long startTimeMs, boolean ownerAlive, long newestHeartbeatMs, long forwarderState)
{
    /** The forwarder state value when the counter is absent. */
    public static final long NO_STATE = -1;

    /**
     * Returns the observation of a path with no (readable) counters file.
     *
     * @return a missing-file observation.
     */
    public static Observation missingFile()
    {
        return new Observation(false, 0, 0, false, 0, NO_STATE);
    }
}
