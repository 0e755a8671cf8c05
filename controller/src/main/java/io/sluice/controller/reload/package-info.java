/**
 * Reloading the node configuration in a running controller: what may change without a restart, and the commands
 * that bring the forwarder to the new VIPs and backends.
 */
package io.sluice.controller.reload;
