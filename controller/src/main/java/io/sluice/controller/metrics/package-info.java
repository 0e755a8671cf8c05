/**
 * Prometheus metrics: {@link io.sluice.controller.metrics.PrometheusFormatter} is the pure renderer of the
 * forwarder's counters and the controller's own {@link io.sluice.controller.metrics.MetricFamily families};
 * {@link io.sluice.controller.metrics.MetricsServer} is the thin HTTP adapter that serves them.
 */
package io.sluice.controller.metrics;
