package io.sluice.controller;

import java.nio.file.Path;

/**
 * Node configuration text shared by controller and tools tests (the controller's test jar).
 */
public final class NodeConfigFixtures
{
    private NodeConfigFixtures()
    {
    }

    /**
     * Returns the {@code forwarder:} section of a node whose forwarder is never started: one {@code net_null0} port
     * without huge pages, one worker, and its counters and control files under a test directory.
     *
     * @param countersDir the forwarder's {@code counters_dir}; the node directory is {@code countersDir/NODE}.
     * @return YAML lines at the top level, each ending in a newline.
     */
    public static String nullForwarder(final Path countersDir)
    {
        return """
            forwarder:
              eal_args: ["--no-huge", "--vdev=net_null0"]
              ports: [{name: net_null0}]
              workers: [{core: 0, rx_port: net_null0}]
              next_hop_mac: "02:00:00:00:00:fe"
              tunnel_source_v4: 10.0.0.1
              counters_dir: %s
            """.formatted(countersDir);
    }
}
