/**
 * The health checks themselves: {@link io.sluice.controller.health.check.BackendChecker} and its socket adapters
 * {@link io.sluice.controller.health.check.HttpChecker} and {@link io.sluice.controller.health.check.TcpChecker},
 * chosen from the configuration by {@link io.sluice.controller.health.check.Checkers}; each check ends in a
 * {@link io.sluice.controller.health.check.CheckResult}. Blocking I/O, no state between checks; may use common's
 * config only.
 */
package io.sluice.controller.health.check;
