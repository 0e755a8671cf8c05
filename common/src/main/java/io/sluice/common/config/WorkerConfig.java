package io.sluice.common.config;

/**
 * One forwarding worker ({@code forwarder.workers[i]}): a thread pinned to a core that polls one receive queue and
 * sends on one transmit queue, with defaults already applied.
 *
 * @param core    the CPU the worker is pinned to; unique among workers.
 * @param rxPort  the name of the port it receives from.
 * @param rxQueue the receive queue it polls; the (rxPort, rxQueue) pairs are unique.
 * @param txPort  the name of the port it transmits on.
 * @param txQueue the transmit queue it owns; the (txPort, txQueue) pairs are unique.
 */
public record WorkerConfig(int core, String rxPort, int rxQueue, String txPort, int txQueue)
{
    /** DPDK's default RTE_MAX_QUEUES_PER_PORT. */
    public static final int MAX_QUEUES_PER_PORT = 1024;
}
