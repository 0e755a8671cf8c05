package io.sluice.common.config;

import io.sluice.common.counters.CountersFile;
import io.sluice.common.counters.CountersFileException;
import io.sluice.common.counters.CountersFileHeader;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The one validation of a node config that the forwarder, the controller and {@code check-config} all run: the file
 * itself ({@link NodeConfig#load(Path, MachineCpus)}: syntax, ranges, consistency, devices the EAL arguments
 * create, worker cores against this machine's), then whether this machine has the memory the forwarder needs
 * ({@link NodeResources}). So the controller refuses every file the forwarder would refuse before starting EAL.
 * <p>
 * The memory is not checked while this node's forwarder runs: it already holds its memory (a controller starting
 * next to it, or restarted, would otherwise count that memory twice). The Java heap is checked against this JVM's
 * maximum heap, which is the forwarder's in the forwarder and in {@code check-config} (the launcher gives both the
 * same JVM options); the controller, whose heap is its own, skips it ({@link #load(Path, boolean)}).
 */
public final class NodeCheck
{
    private NodeCheck()
    {
    }

    /**
     * Loads and checks a file against this machine.
     *
     * @param file the node config.
     * @return the config.
     * @throws ConfigException naming file, field and reason.
     */
    public static NodeConfig load(final Path file) throws ConfigException
    {
        return load(file, true);
    }

    /**
     * Loads and checks a file against this machine, the Java heap only if asked.
     *
     * @param file      the node config.
     * @param checkHeap whether this JVM's maximum heap is the forwarder's (the forwarder, check-config).
     * @return the config.
     * @throws ConfigException naming file, field and reason.
     */
    public static NodeConfig load(final Path file, final boolean checkHeap) throws ConfigException
    {
        final NodeConfig config = NodeConfig.load(file, MachineCpus.probe());
        checkMemory(file, config, checkHeap);
        return config;
    }

    /**
     * Loads and checks a file.
     *
     * @param file        the node config.
     * @param cpus        the CPUs to check worker cores against.
     * @param checkMemory whether to check this machine's memory too (not for a file meant for another machine).
     * @return the config.
     * @throws ConfigException naming file, field and reason.
     */
    public static NodeConfig load(final Path file, final MachineCpus cpus, final boolean checkMemory)
        throws ConfigException
    {
        final NodeConfig config = NodeConfig.load(file, cpus);
        if (checkMemory)
        {
            checkMemory(file, config, true);
        }
        return config;
    }

    private static void checkMemory(final Path file, final NodeConfig config, final boolean checkHeap)
        throws ConfigException
    {
        if (forwarderRunning(config))
        {
            return;
        }
        final MachineMemory memory = MachineMemory.probe(config.forwarder().countersDir());
        NodeResources.check(file.toString(), config.forwarder(), checkHeap ? memory :
            new MachineMemory(memory.availableBytes(), memory.freeHugePageBytes(), memory.sharedFreeBytes()));
    }

    /**
     * Tells whether another live process (this node's forwarder) owns the node's counters file.
     *
     * @param config the node config.
     * @return true while a forwarder of this node runs.
     */
    public static boolean forwarderRunning(final NodeConfig config)
    {
        final Path file = config.nodeDirectory().resolve(CountersFileHeader.FILE_NAME);
        if (!Files.exists(file))
        {
            return false;
        }
        try (CountersFile counters = CountersFile.openReadOnly(file))
        {
            return counters.pid() != ProcessHandle.current().pid() && counters.isOwnerAlive();
        }
        catch (final CountersFileException ex)
        {
            return false;
        }
    }
}
