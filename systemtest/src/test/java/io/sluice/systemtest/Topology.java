package io.sluice.systemtest;

import io.sluice.testkit.Eventually;
import io.sluice.testkit.Namespace;
import io.sluice.testkit.NetNs;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.function.Consumer;

/**
 * The namespaces and processes a system test class sets up once: built in {@code @BeforeAll} by {@link #start},
 * torn down by {@link #close} in {@code @AfterAll}, and torn down at once when the set-up fails half way, so a
 * failed start leaves no namespace, process or hugepage file behind. What it stops, it stops in the reverse order
 * of {@link #stopping}, then closes the namespaces (and whatever still runs in them).
 */
final class Topology implements AutoCloseable
{
    /**
     * The set-up of a test class's topology.
     */
    @FunctionalInterface
    interface SetUp
    {
        void run(Topology topology) throws Exception;
    }

    private final NetNs net;
    private final Deque<Runnable> stops = new ArrayDeque<>();

    private Topology(final NetNs net)
    {
        this.net = net;
    }

    /**
     * Creates the namespaces' run and runs the set-up in it, tearing everything down when the set-up fails.
     *
     * @param prefix the namespaces' prefix ({@link NetNs#create}).
     * @param setUp  the set-up.
     * @return the topology, for {@code @AfterAll} to close.
     * @throws Exception what the set-up threw, after the teardown.
     */
    static Topology start(final String prefix, final SetUp setUp) throws Exception
    {
        final Topology topology = new Topology(NetNs.create(prefix));
        try
        {
            setUp.run(topology);
            return topology;
        }
        catch (final Exception | Error ex)
        {
            topology.close();
            throw ex;
        }
    }

    /**
     * A namespace of this run.
     */
    Namespace namespace(final String role)
    {
        return net.namespace(role);
    }

    /**
     * A veth pair between two namespaces, its links up.
     */
    void veth(final Namespace a, final String nameA, final Namespace b, final String nameB)
    {
        net.veth(a, nameA, b, nameB);
    }

    /**
     * A veth pair that a DPDK {@code net_af_packet} port reads on at least one end: checksum offloads off at both
     * ends, since AF_PACKET reads and writes frames as the veth hands them over.
     */
    void afPacketVeth(final Namespace a, final String nameA, final Namespace b, final String nameB)
    {
        net.veth(a, nameA, b, nameB);
        a.exec("ethtool", "-K", nameA, "tx", "off", "rx", "off");
        b.exec("ethtool", "-K", nameB, "tx", "off", "rx", "off");
    }

    /**
     * Registers what to stop at teardown, before what was registered earlier.
     *
     * @return {@code thing}.
     */
    <T> T stopping(final T thing, final Consumer<T> stop)
    {
        stops.push(() -> stop.accept(thing));
        return thing;
    }

    /**
     * Waits for the forwarder's TAP kernel port {@code sltap0} in {@code lb}, then gives it the node's address and
     * brings it up.
     */
    static void kernelPortUp(final Namespace lb, final String addressWithPrefix)
    {
        Eventually.await(Duration.ofSeconds(60), () -> lb.run("ip", "link", "show", "sltap0").exitCode() == 0,
            "the forwarder's TAP interface");
        lb.exec("ip", "addr", "add", addressWithPrefix, "dev", "sltap0");
        lb.exec("ip", "link", "set", "sltap0", "up");
    }

    /**
     * Stops what was registered, last first, then closes the namespaces; each step runs even when one before failed.
     */
    @Override
    public void close()
    {
        try
        {
            stopAll();
        }
        finally
        {
            net.close();
        }
    }

    private void stopAll()
    {
        final Runnable stop = stops.poll();
        if (stop == null)
        {
            return;
        }
        try
        {
            stop.run();
        }
        finally
        {
            stopAll();
        }
    }
}
