package io.sluice.common.config;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * Reads {@code forwarder.workers}: one worker per core, each polling its own receive queue and owning its own
 * transmit queue.
 */
final class WorkersReader
{
    private static final int MAX_QUEUE = WorkerConfig.MAX_QUEUES_PER_PORT - 1;

    private WorkersReader()
    {
    }

    static List<WorkerConfig> read(final MapReader forwarder, final List<PortConfig> ports, final MachineCpus cpus)
        throws ConfigException
    {
        final List<MapReader> entries =
            forwarder.mapList("workers", true, 1, "core", "rx_port", "rx_queue", "tx_port", "tx_queue");
        if (entries.size() > cpus.online().count())
        {
            throw forwarder.error("workers", entries.size() + " workers but this machine has " +
                cpus.online().describe() + ": each worker needs a core of its own");
        }
        final Map<Integer, String> workerByCore = new HashMap<>();
        final Map<String, Integer> rxCount = new HashMap<>();
        final Map<String, Integer> txCount = new HashMap<>();
        final List<WorkerConfig> workers = new ArrayList<>(entries.size());
        for (final MapReader entry : entries)
        {
            final int core = entry.requiredInt("core", Integer.MIN_VALUE, Integer.MAX_VALUE);
            checkCore(entry, core, cpus);
            final String other = workerByCore.putIfAbsent(core, entry.path());
            if (other != null)
            {
                throw entry.error("core", "core " + core + " is already used by " + other + " (one worker per core)");
            }
            final String rxPort = portName(entry, "rx_port", entry.requiredString("rx_port"), ports);
            final String txPort =
                entry.has("tx_port") ? portName(entry, "tx_port", entry.requiredString("tx_port"), ports) : rxPort;
            // Without an explicit queue a worker takes its position among the workers of that port.
            final int rxPosition = rxCount.merge(rxPort, 1, Integer::sum) - 1;
            final int txPosition = txCount.merge(txPort, 1, Integer::sum) - 1;
            final int rxQueue = entry.optionalInt("rx_queue", rxPosition, 0, MAX_QUEUE);
            final int txQueue = entry.optionalInt("tx_queue", txPosition, 0, MAX_QUEUE);
            workers.add(new WorkerConfig(core, rxPort, rxQueue, txPort, txQueue));
        }
        checkQueuesUnique(entries, workers);
        checkRxQueuesContiguous(entries, workers);
        return workers;
    }

    private static String portName(final MapReader entry, final String key, final String name,
        final List<PortConfig> ports) throws ConfigException
    {
        final List<String> names = new ArrayList<>(ports.size());
        for (final PortConfig port : ports)
        {
            if (port.name().equals(name))
            {
                return name;
            }
            names.add(port.name());
        }
        throw entry.error(key, "no port named \"" + name + "\" (configured ports: " + String.join(", ", names) + ")");
    }

    private static void checkQueuesUnique(final List<MapReader> entries, final List<WorkerConfig> workers)
        throws ConfigException
    {
        final Map<String, String> rxOwner = new HashMap<>();
        final Map<String, String> txOwner = new HashMap<>();
        for (int i = 0; i < workers.size(); i++)
        {
            final WorkerConfig worker = workers.get(i);
            final MapReader entry = entries.get(i);
            final String rxOther = rxOwner.putIfAbsent(worker.rxPort() + "/" + worker.rxQueue(), entry.path());
            if (rxOther != null)
            {
                throw entry.error("rx_queue", "receive queue " + worker.rxQueue() + " of port " + worker.rxPort() +
                    " is already polled by " + rxOther + " (each queue has one worker; without rx_queue a worker " +
                    "takes its position among the workers of its port)");
            }
            // DPDK transmit queues are not thread-safe: two workers on one queue would corrupt its ring.
            final String txOther = txOwner.putIfAbsent(worker.txPort() + "/" + worker.txQueue(), entry.path());
            if (txOther != null)
            {
                throw entry.error("tx_queue", "transmit queue " + worker.txQueue() + " of port " + worker.txPort() +
                    " is already used by " + txOther + " (DPDK transmit queues are not thread-safe; without tx_queue " +
                    "a worker takes its position among the workers of its port)");
            }
        }
    }

    /**
     * RSS spreads packets over every configured receive queue, and a port is configured with queues up to the highest
     * one in use: a gap would be a queue that no worker polls, whose packets would be lost silently.
     */
    private static void checkRxQueuesContiguous(final List<MapReader> entries, final List<WorkerConfig> workers)
        throws ConfigException
    {
        final Map<String, TreeSet<Integer>> queuesByPort = new HashMap<>();
        for (final WorkerConfig worker : workers)
        {
            queuesByPort.computeIfAbsent(worker.rxPort(), port -> new TreeSet<>()).add(worker.rxQueue());
        }
        for (int i = 0; i < workers.size(); i++)
        {
            final WorkerConfig worker = workers.get(i);
            final TreeSet<Integer> queues = queuesByPort.get(worker.rxPort());
            if (worker.rxQueue() == queues.last() && queues.size() != queues.last() + 1)
            {
                int missing = 0;
                while (queues.contains(missing))
                {
                    missing++;
                }
                throw entries.get(i).error("rx_queue", "port " + worker.rxPort() + " would have receive queues 0.." +
                    queues.last() + " but no worker polls queue " + missing + ", whose packets RSS would drop " +
                    "silently: number each port's receive queues 0..n-1");
            }
        }
    }

    /**
     * A worker core must be one of the machine's online cores, and one the process's cpuset allows (pinning fails
     * elsewhere). The affinity the process started with ({@code taskset}) does not count: a worker widens it.
     */
    private static void checkCore(final MapReader entry, final int core, final MachineCpus cpus)
        throws ConfigException
    {
        if (!cpus.online().contains(core))
        {
            throw entry.error("core", "core " + core + " does not exist (this machine has " +
                cpus.online().describe() + ")");
        }
        if (!cpus.pinnable().contains(core))
        {
            throw entry.error("core", "core " + core + " is online but outside this process's cpuset (" +
                cpus.pinnable().describe() + " of the machine's " + cpus.online() + "): pinning a worker there fails; " +
                "widen the cgroup's cpuset or pick a core in it");
        }
    }
}
