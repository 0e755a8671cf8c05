/**
 * Backend health: the pure, clock-driven decisions ({@link io.sluice.controller.health.BackendHealth}'s rise/fall
 * state machine, {@link io.sluice.controller.health.FlapDamping}, {@link io.sluice.controller.health.VipEligibility}'s
 * fail-open, {@link io.sluice.controller.health.HealthMonitor}, which turns results into forwarder commands) and
 * {@link io.sluice.controller.health.HealthCheckRunner}, which runs the due checks on a pool for the agent thread.
 * May use common's config and control-command model and {@code health.check}; nothing else of the controller.
 */
package io.sluice.controller.health;
