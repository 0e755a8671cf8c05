package io.sluice.forwarder.agent;

/**
 * How a worker takes its core: reserves the core for this process, so that another process reserving cores the same
 * way (a second forwarder, a benchmark) is refused it instead of silently sharing it, and pins the calling thread
 * there. {@link AffinityWorkerCores} does it with OpenHFT affinity's lock files; tests record the calls.
 */
@FunctionalInterface
public interface WorkerCores
{
    /**
     * A core the calling thread holds until it releases it.
     */
    @FunctionalInterface
    interface Reservation
    {
        /**
         * Gives the core back; called on the thread that reserved it.
         */
        void release();
    }

    /**
     * Reserves a core for the calling thread and pins the thread to it.
     *
     * @param core the CPU.
     * @return what gives it back.
     * @throws CoreHeldException when another process holds the core.
     */
    Reservation reserve(int core);
}
