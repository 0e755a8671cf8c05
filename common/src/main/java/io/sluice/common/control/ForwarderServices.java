package io.sluice.common.control;

import io.sluice.common.Vip;

import java.net.InetAddress;
import java.util.List;

/**
 * The forwarder's services as a GET_STATE answer reported them: VIPs in the forwarder's order, each with its
 * backends.
 *
 * @param vips the VIPs.
 */
public record ForwarderServices(List<VipState> vips)
{
    /**
     * Copies the list, so the record is immutable.
     */
    public ForwarderServices
    {
        vips = List.copyOf(vips);
    }

    /**
     * One VIP.
     *
     * @param vip      the service.
     * @param name     its name, or null.
     * @param backends its backends in the forwarder's order.
     */
    public record VipState(Vip vip, String name, List<BackendState> backends)
    {
        /**
         * Copies the list, so the record is immutable.
         */
        public VipState
        {
            backends = List.copyOf(backends);
        }

        /**
         * Finds a backend.
         *
         * @param address the backend's address.
         * @return the backend, or null when the VIP has none at that address.
         */
        public BackendState backend(final InetAddress address)
        {
            for (final BackendState backend : backends)
            {
                if (backend.address().equals(address))
                {
                    return backend;
                }
            }
            return null;
        }
    }

    /**
     * One backend of a VIP.
     *
     * @param address     where GRE packets for it go.
     * @param weight      its weight; 0 when drained.
     * @param healthy     whether it may take flows.
     * @param name        its name, or null.
     * @param maglevSlots entries of the VIP's Maglev table that point at it.
     */
    public record BackendState(InetAddress address, int weight, boolean healthy, String name, int maglevSlots)
    {
        /**
         * Tells whether the backend is draining: healthy, weight 0, keeping its established flows.
         *
         * @return true when draining.
         */
        public boolean draining()
        {
            return healthy && weight == 0;
        }
    }

    /**
     * Finds a VIP.
     *
     * @param vip the service.
     * @return its state, or null when the forwarder does not have it.
     */
    public VipState vip(final Vip vip)
    {
        for (final VipState state : vips)
        {
            if (state.vip().equals(vip))
            {
                return state;
            }
        }
        return null;
    }
}
