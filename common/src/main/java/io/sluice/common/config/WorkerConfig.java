package io.sluice.common.config;

import java.util.List;

/**
 * One forwarding worker ({@code forwarder.workers[i]}): a thread pinned to a core that polls one or more receive
 * queues, in turn, and sends on one transmit queue, with defaults already applied.
 *
 * @param core    the CPU the worker is pinned to; unique among workers.
 * @param rx      the receive queues it polls, at least one ({@code rx_port}/{@code rx_queue}, or the list
 *                {@code rx}); the (port, queue) pairs are unique among all workers.
 * @param txPort  the name of the port it transmits on.
 * @param txQueue the transmit queue it owns; the (txPort, txQueue) pairs are unique.
 */
public record WorkerConfig(int core, List<RxQueue> rx, String txPort, int txQueue)
{
    /** DPDK's default RTE_MAX_QUEUES_PER_PORT. */
    public static final int MAX_QUEUES_PER_PORT = 1024;

    /**
     * One receive queue of a worker.
     *
     * @param port  the name of the port.
     * @param queue the queue number on it.
     */
    public record RxQueue(String port, int queue)
    {
    }

    /**
     * Copies the list, so the record is immutable.
     */
    public WorkerConfig
    {
        rx = List.copyOf(rx);
        if (rx.isEmpty())
        {
            throw new IllegalArgumentException("a worker polls at least one receive queue");
        }
    }

    /**
     * Creates a worker of one receive queue.
     *
     * @param core    the CPU.
     * @param rxPort  the port it receives from.
     * @param rxQueue the queue it polls.
     * @param txPort  the port it transmits on.
     * @param txQueue the queue it owns there.
     */
    public WorkerConfig(final int core, final String rxPort, final int rxQueue, final String txPort, final int txQueue)
    {
        this(core, List.of(new RxQueue(rxPort, rxQueue)), txPort, txQueue);
    }

    /**
     * Returns the port of the first receive queue.
     *
     * @return the port name.
     */
    public String rxPort()
    {
        return rx.get(0).port();
    }

    /**
     * Returns the first receive queue's number.
     *
     * @return the queue.
     */
    public int rxQueue()
    {
        return rx.get(0).queue();
    }

    /**
     * Tells whether the worker polls a queue of a port.
     *
     * @param port the port name.
     * @return true when one of its receive queues is on that port.
     */
    public boolean receivesFrom(final String port)
    {
        for (final RxQueue queue : rx)
        {
            if (queue.port().equals(port))
            {
                return true;
            }
        }
        return false;
    }
}
