package io.sluice.common.config;

/**
 * The {@code node} section: who this node is.
 *
 * @param name the node's name, {@code [a-z0-9][a-z0-9-]{0,31}}; it names the node's shared-memory directory and DPDK
 *             file prefix, so two forwarders on one machine need different names.
 */
public record NodeIdentity(String name)
{
}
