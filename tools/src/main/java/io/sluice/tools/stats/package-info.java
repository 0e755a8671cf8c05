/**
 * {@code sluice stats}: reads one or more counters files and prints rates and totals as text or JSON.
 * Uses the common counters layout only; never writes a counter.
 */
package io.sluice.tools.stats;
