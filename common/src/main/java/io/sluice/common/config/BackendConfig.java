package io.sluice.common.config;

import java.net.InetAddress;

/**
 * One backend of a VIP ({@code vips[i].backends[j]}).
 *
 * @param name    a label for logs and counters; defaults to the address; unique within the VIP.
 * @param address where GRE packets for it go, an {@link java.net.Inet4Address} or {@link java.net.Inet6Address};
 *                unique within the VIP.
 * @param weight  its share of new flows relative to the VIP's other backends, 0..65535; 0 takes no new flows.
 */
public record BackendConfig(String name, InetAddress address, int weight)
{
    public static final int DEFAULT_WEIGHT = 1;
    public static final int MAX_WEIGHT = 65535;
}
