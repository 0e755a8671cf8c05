/**
 * The controller's status: {@link io.sluice.controller.status.NodeStatus}, an immutable snapshot the agent
 * publishes, and {@link io.sluice.controller.status.StatusRenderer}, which renders it as text or JSON for
 * {@code sluice status} ({@code metrics} turns it into Prometheus families). May use common's config and JSON only.
 */
package io.sluice.controller.status;
