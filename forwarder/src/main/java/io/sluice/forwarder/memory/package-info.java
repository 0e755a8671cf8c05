/**
 * Off-heap memory for the forwarder's large tables: {@link io.sluice.forwarder.memory.HugePageMemory}, advised
 * {@code MADV_HUGEPAGE} before first touch so that a 64 MiB connection table sits on 2 MiB pages. Depends on jnr-ffi
 * (libc) and Agrona only.
 */
package io.sluice.forwarder.memory;
