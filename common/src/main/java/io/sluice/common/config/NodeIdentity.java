package io.sluice.common.config;

import java.nio.file.Path;

/**
 * The {@code node} section: who this node is, and where its lasting state lives.
 *
 * @param name     the node's name, {@code [a-z0-9][a-z0-9-]{0,31}}; it names the node's shared-memory directory and
 *                 DPDK file prefix, so two forwarders on one machine need different names.
 * @param stateDir the directory of state that must survive a reboot (the operator's drains and weights), absolute;
 *                 the node's own files go in {@code <stateDir>/<name>/}. Shared memory stays in {@code counters_dir}.
 */
public record NodeIdentity(String name, Path stateDir)
{
    /** Where lasting state lives unless {@code node.state_dir} says otherwise (the FHS place for it). */
    public static final Path DEFAULT_STATE_DIR = Path.of("/var/lib/sluice");

    /**
     * Returns a node of the default state directory.
     *
     * @param name the node's name.
     */
    public NodeIdentity(final String name)
    {
        this(name, DEFAULT_STATE_DIR);
    }
}
