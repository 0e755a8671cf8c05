/**
 * DPDK through the C shim ({@code native/shim/sluice_shim.h}), bound with jnr-ffi: {@link
 * io.sluice.forwarder.dpdk.Dpdk} wraps the control calls, {@link io.sluice.forwarder.dpdk.MbufArray} is the
 * per-burst array of mbuf addresses the burst calls fill and read, {@link io.sluice.forwarder.dpdk.ShimLayout} the
 * shim's constants and the mbuf and stats layouts checked against the loaded shim. Depends on jnr-ffi and Agrona
 * only; one native call per burst, never per packet.
 */
package io.sluice.forwarder.dpdk;
