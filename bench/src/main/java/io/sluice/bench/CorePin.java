package io.sluice.bench;

import io.sluice.common.cli.CommandLines;
import io.sluice.forwarder.agent.AffinityWorkerCores;
import io.sluice.forwarder.agent.CoreHeldException;
import io.sluice.forwarder.agent.WorkerCores;

import picocli.CommandLine.Model.CommandSpec;

/**
 * Pins a benchmark's measuring thread to one CPU the way the forwarder pins a worker: through
 * {@link AffinityWorkerCores}, which takes exactly the CPU asked for and says why when it cannot.
 */
final class CorePin
{
    private static final WorkerCores.Reservation NOT_PINNED = () ->
    {
    };

    private CorePin()
    {
    }

    /**
     * Pins the calling thread.
     *
     * @param spec   the command, for the usage error.
     * @param option the option that named the CPU.
     * @param cpu    the CPU, or -1 for none.
     * @return what to release when done (nothing to give back when {@code cpu} is -1).
     * @throws picocli.CommandLine.ParameterException when the thread could not be pinned to that CPU.
     */
    static WorkerCores.Reservation pin(final CommandSpec spec, final String option, final int cpu)
    {
        if (cpu == -1)
        {
            return NOT_PINNED;
        }
        try
        {
            return AffinityWorkerCores.INSTANCE.reserve(cpu);
        }
        catch (final IllegalStateException | CoreHeldException ex)
        {
            throw CommandLines.usageError(spec, option + " " + cpu + ": " + ex.getMessage());
        }
    }
}
