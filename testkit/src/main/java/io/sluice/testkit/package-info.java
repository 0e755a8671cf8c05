/**
 * Helpers for tests on real topologies (root needed): {@link io.sluice.testkit.NetNs} for network namespaces, veth
 * pairs and the processes in them, {@link io.sluice.testkit.BirdRouter} for an upstream BGP router,
 * {@link io.sluice.testkit.Eventually} for bounded waits, {@link io.sluice.testkit.Commands} for bounded commands,
 * {@link io.sluice.testkit.CapturedLog} for asserting what a class logged and {@link io.sluice.testkit.NodeYaml} for
 * the node-config pieces tests share.
 */
package io.sluice.testkit;
