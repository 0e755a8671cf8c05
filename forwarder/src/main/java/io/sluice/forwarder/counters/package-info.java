/**
 * The forwarder's side of the counters file: allocating every counter the node config implies and writing
 * values into it. The layout itself is common ({@code io.sluice.common.counters}), so the controller and the tools
 * read what this package writes.
 */
package io.sluice.forwarder.counters;
