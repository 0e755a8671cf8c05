/**
 * Maglev lookup tables (Maglev paper §3.4): the builder that fills them off the hot path, the table a worker
 * reads, the fingerprint that says two builds agree. Depends on {@code hash} and the config model only.
 */
package io.sluice.forwarder.maglev;
