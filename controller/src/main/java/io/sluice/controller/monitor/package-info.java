/**
 * Turns health-check results into forwarder commands: {@link io.sluice.controller.monitor.HealthMonitor} is the
 * pure, clock-driven core; {@link io.sluice.controller.monitor.ForwarderLink} and
 * {@link io.sluice.controller.monitor.Checkers} are the thin adapters to the control channel and the sockets.
 */
package io.sluice.controller.monitor;
