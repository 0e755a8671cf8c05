package io.sluice.common.control;

import io.sluice.common.Vip;

import java.net.InetAddress;

/**
 * A command to the forwarder, as the controller and operator tools build it and as the forwarder's control thread
 * receives it from the forwarder's {@code ControlServer}. Command objects are control-plane values: allocated per
 * command, never on
 * the data path. Names are optional (null or empty for none) and at most
 * {@link ControlProtocol#MAX_STRING_LENGTH} bytes of UTF-8; weights are 0..{@link ControlProtocol#MAX_WEIGHT}.
 */
public sealed interface ControlCommand
{
    /**
     * Adds a VIP with no backends. Adding a VIP that exists is refused ("already exists").
     *
     * @param vip  the service.
     * @param name a label for logs and state, or null.
     */
    record AddVip(Vip vip, String name) implements ControlCommand
    {
        /**
         * Checks the fields; an empty name becomes null.
         */
        public AddVip
        {
            requireVip(vip);
            name = checkName(name);
        }
    }

    /**
     * Removes a VIP and all its backends.
     *
     * @param vip the service.
     */
    record RemoveVip(Vip vip) implements ControlCommand
    {
        /**
         * Checks the fields.
         */
        public RemoveVip
        {
            requireVip(vip);
        }
    }

    /**
     * Adds a backend to a VIP. Adding a backend the VIP has is refused ("already in VIP").
     *
     * @param vip     the service.
     * @param backend where GRE packets for it go.
     * @param weight  share of new flows, 0 to take none.
     * @param healthy whether it may take flows now.
     * @param name    a label for logs and state, or null.
     */
    record AddBackend(Vip vip, InetAddress backend, int weight, boolean healthy, String name) implements ControlCommand
    {
        /**
         * Checks the fields; an empty name becomes null.
         */
        public AddBackend
        {
            requireVip(vip);
            requireBackend(backend);
            checkWeight(weight);
            name = checkName(name);
        }
    }

    /**
     * Removes a backend; its flows move to the others.
     *
     * @param vip     the service.
     * @param backend the backend's address.
     */
    record RemoveBackend(Vip vip, InetAddress backend) implements ControlCommand
    {
        /**
         * Checks the fields.
         */
        public RemoveBackend
        {
            requireVip(vip);
            requireBackend(backend);
        }
    }

    /**
     * Sets a backend's weight; 0 drains it.
     *
     * @param vip     the service.
     * @param backend the backend's address.
     * @param weight  the new weight.
     */
    record SetBackendWeight(Vip vip, InetAddress backend, int weight) implements ControlCommand
    {
        /**
         * Checks the fields.
         */
        public SetBackendWeight
        {
            requireVip(vip);
            requireBackend(backend);
            checkWeight(weight);
        }
    }

    /**
     * Marks a backend up or down; a down backend takes no flows and its established flows are re-picked.
     *
     * @param vip     the service.
     * @param backend the backend's address.
     * @param up      the new health.
     */
    record SetBackendHealth(Vip vip, InetAddress backend, boolean up) implements ControlCommand
    {
        /**
         * Checks the fields.
         */
        public SetBackendHealth
        {
            requireVip(vip);
            requireBackend(backend);
        }
    }

    /**
     * Drains a backend: weight 0, so it takes no new flows while its established flows stay (Maglev §3.3).
     *
     * @param vip     the service.
     * @param backend the backend's address.
     */
    record DrainBackend(Vip vip, InetAddress backend) implements ControlCommand
    {
        /**
         * Checks the fields.
         */
        public DrainBackend
        {
            requireVip(vip);
            requireBackend(backend);
        }
    }

    /**
     * Asks for the forwarder's VIPs and backends; answered with STATE_VIP and STATE_BACKEND messages and STATE_END.
     */
    record GetState() implements ControlCommand
    {
    }

    private static void requireVip(final Vip vip)
    {
        if (vip == null)
        {
            throw new IllegalArgumentException("VIP is required");
        }
    }

    private static void requireBackend(final InetAddress backend)
    {
        if (backend == null)
        {
            throw new IllegalArgumentException("backend address is required");
        }
    }

    private static void checkWeight(final int weight)
    {
        if (weight < 0 || weight > ControlProtocol.MAX_WEIGHT)
        {
            throw new IllegalArgumentException(
                "backend weight must be 0.." + ControlProtocol.MAX_WEIGHT + ", got " + weight);
        }
    }

    private static String checkName(final String name)
    {
        if (name == null || name.isEmpty())
        {
            return null;
        }
        WireFields.utf8(name, "name");
        return name;
    }
}
