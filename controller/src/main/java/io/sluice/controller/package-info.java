/**
 * The controller: backend health checks, forwarder liveness and BGP announcements through ExaBGP. It never
 * touches packets. Placeholder until the controller issue; it shares {@code sluice-common} with the forwarder
 * (Maglev builder today, the control-channel and counter layouts later).
 */
package io.sluice.controller;
