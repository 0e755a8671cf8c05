/**
 * {@code sluice check-config} (with {@code --eal}, the forwarder's EAL and port checks) and
 * {@code sluice host-facts}: what a config asks of this host, refused with file, field and reason (exit 2).
 */
package io.sluice.tools.check;
