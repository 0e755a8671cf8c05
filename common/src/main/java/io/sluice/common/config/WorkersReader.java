package io.sluice.common.config;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * Reads {@code forwarder.workers}: one worker per core, each polling its own receive queue (or several, in turn)
 * and owning its own transmit queue.
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
            forwarder.mapList("workers", true, 1, "core", "rx_port", "rx_queue", "rx", "tx_port", "tx_queue");
        if (entries.size() > cpus.online().count())
        {
            throw forwarder.error("workers", entries.size() + " workers but this machine has " +
                cpus.online().describe() + ": each worker needs a core of its own");
        }
        final Map<Integer, String> workerByCore = new HashMap<>();
        final Map<String, Integer> rxCount = new HashMap<>();
        final Map<String, Integer> txCount = new HashMap<>();
        final List<WorkerConfig> workers = new ArrayList<>(entries.size());
        final List<List<QueueSite>> sites = new ArrayList<>(entries.size());
        for (final MapReader entry : entries)
        {
            final int core = entry.requiredInt("core", Integer.MIN_VALUE, Integer.MAX_VALUE);
            checkCore(entry, core, cpus);
            final String other = workerByCore.putIfAbsent(core, entry.path());
            if (other != null)
            {
                throw entry.error("core", "core " + core + " is already used by " + other + " (one worker per core)");
            }
            final List<QueueSite> rxSites = readRx(entry, ports, rxCount);
            final List<WorkerConfig.RxQueue> rx = new ArrayList<>(rxSites.size());
            rxSites.forEach(site -> rx.add(site.queue()));
            final String txPort = entry.has("tx_port") ?
                portName(entry, "tx_port", entry.requiredString("tx_port"), ports) : rx.get(0).port();
            // Without an explicit queue a worker takes its position among the workers of that port.
            final int txPosition = txCount.merge(txPort, 1, Integer::sum) - 1;
            final int txQueue = entry.optionalInt("tx_queue", txPosition, 0, MAX_QUEUE);
            workers.add(new WorkerConfig(core, rx, txPort, txQueue));
            sites.add(rxSites);
        }
        checkQueuesUnique(entries, sites, workers);
        checkRxQueuesContiguous(sites);
        return workers;
    }

    /** Where a receive queue was configured: the reader to blame and its queue key. */
    private record QueueSite(WorkerConfig.RxQueue queue, MapReader reader, String queueKey)
    {
    }

    /**
     * A worker polls one queue ({@code rx_port}, {@code rx_queue}) or several, in turn ({@code rx: [{port, queue}]},
     * several ports on one core as DPDK's l3fwd does).
     */
    private static List<QueueSite> readRx(final MapReader entry, final List<PortConfig> ports,
        final Map<String, Integer> rxCount) throws ConfigException
    {
        final List<QueueSite> sites = new ArrayList<>();
        if (entry.has("rx"))
        {
            if (entry.has("rx_port") || entry.has("rx_queue"))
            {
                throw entry.error("rx", "give either rx (a list of {port, queue}) or rx_port and rx_queue, not both");
            }
            for (final MapReader queue : entry.mapList("rx", true, 1, "port", "queue"))
            {
                final String port = portName(queue, "port", queue.requiredString("port"), ports);
                final int position = rxCount.merge(port, 1, Integer::sum) - 1;
                sites.add(new QueueSite(new WorkerConfig.RxQueue(port, queue.optionalInt("queue", position, 0,
                    MAX_QUEUE)), queue, "queue"));
            }
            return sites;
        }
        final String port = portName(entry, "rx_port", entry.requiredString("rx_port"), ports);
        final int position = rxCount.merge(port, 1, Integer::sum) - 1;
        sites.add(new QueueSite(new WorkerConfig.RxQueue(port, entry.optionalInt("rx_queue", position, 0, MAX_QUEUE)),
            entry, "rx_queue"));
        return sites;
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

    private static void checkQueuesUnique(final List<MapReader> entries, final List<List<QueueSite>> sites,
        final List<WorkerConfig> workers) throws ConfigException
    {
        final Map<String, String> rxOwner = new HashMap<>();
        final Map<String, String> txOwner = new HashMap<>();
        for (int i = 0; i < workers.size(); i++)
        {
            final WorkerConfig worker = workers.get(i);
            final MapReader entry = entries.get(i);
            for (final QueueSite site : sites.get(i))
            {
                final WorkerConfig.RxQueue rx = site.queue();
                final String rxOther = rxOwner.putIfAbsent(rx.port() + "/" + rx.queue(), site.reader().path());
                if (rxOther != null)
                {
                    throw site.reader().error(site.queueKey(), "receive queue " + rx.queue() + " of port " +
                        rx.port() + " is already polled by " + rxOther + " (each queue has one worker; without a " +
                        "queue number a worker takes its position among the workers of its port)");
                }
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
    private static void checkRxQueuesContiguous(final List<List<QueueSite>> sites) throws ConfigException
    {
        final Map<String, TreeSet<Integer>> queuesByPort = new HashMap<>();
        for (final List<QueueSite> worker : sites)
        {
            for (final QueueSite site : worker)
            {
                queuesByPort.computeIfAbsent(site.queue().port(), port -> new TreeSet<>()).add(site.queue().queue());
            }
        }
        for (final List<QueueSite> worker : sites)
        {
            for (final QueueSite site : worker)
            {
                final TreeSet<Integer> queues = queuesByPort.get(site.queue().port());
                if (site.queue().queue() == queues.last() && queues.size() != queues.last() + 1)
                {
                    int missing = 0;
                    while (queues.contains(missing))
                    {
                        missing++;
                    }
                    throw site.reader().error(site.queueKey(), "port " + site.queue().port() +
                        " would have receive queues 0.." + queues.last() + " but no worker polls queue " + missing +
                        ", whose packets RSS would drop silently: number each port's receive queues 0..n-1");
                }
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
                cpus.pinnable().describe() + " of the machine's " + cpus.online() +
                "): pinning a worker there fails; " +
                "widen the cgroup's cpuset or pick a core in it");
        }
    }
}
