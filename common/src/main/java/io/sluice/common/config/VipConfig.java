package io.sluice.common.config;

import io.sluice.common.Vip;

import java.net.InetAddress;
import java.util.List;

/**
 * One virtual service ({@code vips[i]}).
 *
 * @param name     a label for logs and counters; defaults to {@code <address>:<port>/<protocol>} (IPv6 in
 *                 brackets); unique among VIPs.
 * @param address  the VIP address, an {@link java.net.Inet4Address} or {@link java.net.Inet6Address}.
 * @param port     the destination port, or {@link #ALL_PORTS}.
 * @param protocol TCP or UDP.
 * @param backends    the backends in configuration order; may be empty.
 * @param healthCheck the VIP's own {@code health_check}, merged over {@code controller.health_checks}; null when the
 *                    VIP has none and the controller's defaults apply (see
 *                    {@link ControllerConfig#healthCheckFor(VipConfig)}).
 * @param route       the BGP attributes of the VIP's route ({@code vips[i].bgp}), {@link VipRouteConfig#NONE} when
 *                    it has none.
 */
public record VipConfig(
    String name, InetAddress address, int port, TransportProtocol protocol, List<BackendConfig> backends,
    HealthCheckConfig healthCheck, VipRouteConfig route)
{
    public static final int ALL_PORTS = 0;

    /**
     * Creates a VIP without a health check of its own.
     *
     * @param name     the label.
     * @param address  the VIP address.
     * @param port     the destination port, or {@link #ALL_PORTS}.
     * @param protocol TCP or UDP.
     * @param backends the backends.
     */
    public VipConfig(
        final String name, final InetAddress address, final int port, final TransportProtocol protocol,
        final List<BackendConfig> backends)
    {
        this(name, address, port, protocol, backends, null);
    }

    /**
     * Creates a VIP without BGP attributes of its own.
     *
     * @param name        the label.
     * @param address     the VIP address.
     * @param port        the destination port, or {@link #ALL_PORTS}.
     * @param protocol    TCP or UDP.
     * @param backends    the backends.
     * @param healthCheck the VIP's own health check, or null.
     */
    public VipConfig(
        final String name, final InetAddress address, final int port, final TransportProtocol protocol,
        final List<BackendConfig> backends, final HealthCheckConfig healthCheck)
    {
        this(name, address, port, protocol, backends, healthCheck, VipRouteConfig.NONE);
    }

    /**
     * Copies the backend list, so the record is immutable.
     */
    public VipConfig
    {
        backends = List.copyOf(backends);
    }

    /**
     * Returns the service as the load-balancing state and the control channel name it.
     *
     * @return the VIP's address, port and protocol number.
     */
    public Vip vip()
    {
        return new Vip(address, port, protocol.number());
    }

    /**
     * Returns the number of backends that take new flows.
     *
     * @return the backends with weight above 0.
     */
    public int activeBackendCount()
    {
        int count = 0;
        for (final BackendConfig backend : backends)
        {
            if (backend.weight() > 0)
            {
                count++;
            }
        }
        return count;
    }
}
