/**
 * The controller's status: an immutable snapshot the agent publishes, rendered as text or JSON for
 * {@code sluice status} and as Prometheus families for {@code /metrics}.
 */
package io.sluice.controller.status;
