package io.sluice.testkit.tags;

import java.util.List;

/**
 * The JUnit tags of tests that need more than a JVM, and what each one means. {@code scripts/test.sh} (CI) runs every
 * test; {@code mvn -Punit test} leaves out the tests carrying any of {@link #ALL} ({@link LeaveOutFilter}).
 */
public final class TestTags
{
    /**
     * Runs as root: network namespaces, daemons run as root, files under {@code /var/run}.
     */
    public static final String ROOT = "root";

    /**
     * Starts DPDK's EAL through the native shim: needs DPDK and {@code make -C native}.
     */
    public static final String DPDK = "dpdk";

    /**
     * Creates network namespaces and veth pairs (root).
     */
    public static final String NETNS = "netns";

    /**
     * Runs an external daemon or its binary: ExaBGP, BIRD, FRR, Prometheus, pktgen.
     */
    public static final String DAEMON = "daemon";

    /**
     * Every tag above, in the order summaries print them.
     */
    public static final List<String> ALL = List.of(ROOT, DPDK, NETNS, DAEMON);

    private TestTags()
    {
    }
}
