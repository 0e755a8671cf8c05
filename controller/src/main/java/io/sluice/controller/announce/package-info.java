/**
 * Which VIP addresses the node announces over BGP: {@link io.sluice.controller.announce.AnnouncePolicy}, a pure
 * decision from forwarder liveness, backend eligibility and shutdown, and
 * {@link io.sluice.controller.announce.RouteSpeaker}, what it hands the decision to (implemented in {@code bgp}).
 * May use common's config only.
 */
package io.sluice.controller.announce;
