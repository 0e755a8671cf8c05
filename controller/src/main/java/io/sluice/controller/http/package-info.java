/**
 * The controller's HTTP endpoints: {@link io.sluice.controller.http.ControllerHttpServer}, the thin adapter over the
 * JDK's HTTP server (paths, methods, the action token), and {@link io.sluice.controller.http.ControllerRoutes}, what
 * {@code /metrics}, {@code /status} and the operator actions answer. Talks to the agent only through the functions
 * it is given; may use {@code metrics}, {@code operator}, {@code status} and common's config and counters layout.
 */
package io.sluice.controller.http;
