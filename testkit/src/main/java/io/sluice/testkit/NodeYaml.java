package io.sluice.testkit;

import java.nio.file.Path;

/**
 * Pieces of node configs that tests of the controller and the tools write again and again.
 */
public final class NodeYaml
{
    private static final String NULL_FORWARDER = """
        forwarder:
          eal_args: ["--no-huge", "--vdev=net_null0"]
          ports: [{name: net_null0}]
          workers: [{core: 0, rx_port: net_null0}]
          next_hop_mac: "02:00:00:00:00:fe"
          tunnel_source_v4: 10.0.0.1
        """;

    private NodeYaml()
    {
    }

    /**
     * The {@code forwarder} section of a node with one worker on one {@code net_null} port, at the left margin and
     * ending in a newline, for a config whose forwarder is never started or whose packets do not matter.
     *
     * @param countersDir the {@code counters_dir}, or null for the default.
     * @return the YAML lines.
     */
    public static String nullForwarder(final Path countersDir)
    {
        return countersDir == null ? NULL_FORWARDER : NULL_FORWARDER + "  counters_dir: " + countersDir + "\n";
    }
}
