/**
 * The forwarder process ({@code sluice forwarder}): {@link io.sluice.forwarder.ForwarderMain} and
 * {@link io.sluice.forwarder.Forwarder}, which assemble EAL, ports and pools, the shared files, the control thread
 * and one pinned worker per core from the node config, and {@link io.sluice.forwarder.PortCheck}, the ports
 * against their devices. May use every forwarder package and {@code io.sluice.common}; nothing of the controller
 * or the tools.
 */
package io.sluice.forwarder;
