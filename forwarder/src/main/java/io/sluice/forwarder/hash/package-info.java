/**
 * XXH64, the hash of the 5-tuple and of backend identities; no dependencies beyond Agrona.
 */
package io.sluice.forwarder.hash;
