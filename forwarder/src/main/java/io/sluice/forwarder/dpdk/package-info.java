/**
 * DPDK through the C shim ({@code native/shim/sluice_shim.h}), bound with jnr-ffi: {@link
 * io.sluice.forwarder.dpdk.Dpdk}
 * wraps the control calls, {@link io.sluice.forwarder.dpdk.DescriptorArray} is the per-burst descriptor array the
 * burst calls fill and read, {@link io.sluice.forwarder.dpdk.DescriptorLayout} the struct layout checked against the
 * loaded shim. Depends on jnr-ffi and Agrona only; one native call per burst, never per packet.
 */
package io.sluice.forwarder.dpdk;
