/**
 * Which VIP addresses the node announces over BGP: a pure decision from forwarder liveness, backend eligibility
 * and shutdown. The BGP speaker itself lives in {@code io.sluice.controller.bgp}.
 */
package io.sluice.controller.announce;
