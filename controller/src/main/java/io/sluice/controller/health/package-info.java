/**
 * Backend health checking: pure state machines ({@link io.sluice.controller.health.BackendHealth},
 * {@link io.sluice.controller.health.VipEligibility}) driven by a clock the caller passes in, and thin synchronous
 * checkers ({@link io.sluice.controller.health.HttpChecker}, {@link io.sluice.controller.health.TcpChecker}) that
 * turn a socket exchange into a {@link io.sluice.controller.health.CheckResult}.
 */
package io.sluice.controller.health;
