/**
 * Reloading the node configuration in a running controller: {@link io.sluice.controller.reload.ReloadPlan} decides
 * what may change without a restart and the commands that bring the forwarder to the new VIPs and backends. Pure;
 * may use common's config and control commands, {@code health}, {@code operator} and {@code bgp}'s route attributes.
 */
package io.sluice.controller.reload;
