/**
 * {@code sluice remap} and {@code sluice maglev}: how many flows a backend change moves under Maglev, modulo and
 * a hash ring, and the Maglev build timed; used by the benchmarks too. Uses the forwarder's Maglev builder.
 */
package io.sluice.tools.maglev;
