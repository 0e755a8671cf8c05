/**
 * BGP announcements through an ExaBGP 4.2 sidecar. {@link io.sluice.controller.bgp.ExaBgpSession},
 * {@link io.sluice.controller.bgp.RouteAnnouncer}, {@link io.sluice.controller.bgp.ExaBgpMessage},
 * {@link io.sluice.controller.bgp.ExaBgpConfigWriter} and {@link io.sluice.controller.bgp.RestartBackoff} are the
 * pure decisions; {@link io.sluice.controller.bgp.ExaBgpApi} (the relay's Unix-domain socket),
 * {@link io.sluice.controller.bgp.ExaBgpSidecar} (the ExaBGP process) and {@link io.sluice.controller.bgp.BfdSidecar}
 * (the BFD speaker, both a {@code Sidecar} over a {@code SupervisedProcess}) are the thin adapters around them. The
 * relay script and the configuration template live in {@code exabgp/} at the repository's top level. May use common's
 * config, JSON and process helpers, Agrona's {@code ErrorHandler} and {@code announce}'s {@code RouteSpeaker}, which
 * it implements.
 */
package io.sluice.controller.bgp;
