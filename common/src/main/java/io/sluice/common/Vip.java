package io.sluice.common;

import java.net.Inet6Address;
import java.net.InetAddress;

/**
 * A virtual IP service: an address, a port (0 for all ports of the address) and a transport protocol.
 *
 * @param address  the VIP address, IPv4 or IPv6.
 * @param port     destination port, or {@link #ALL_PORTS}.
 * @param protocol {@link #TCP} or {@link #UDP}.
 */
public record Vip(InetAddress address, int port, int protocol)
{
    public static final int ALL_PORTS = 0;
    public static final int TCP = 6;
    public static final int UDP = 17;

    /**
     * Checks the fields.
     */
    public Vip
    {
        if (address == null)
        {
            throw new IllegalArgumentException("VIP address is required");
        }
        if (port < 0 || port > 65535)
        {
            throw new IllegalArgumentException("VIP port must be 0 (all ports) to 65535, got " + port);
        }
        if (protocol != TCP && protocol != UDP)
        {
            throw new IllegalArgumentException("VIP protocol must be TCP (6) or UDP (17), got " + protocol);
        }
    }

    /**
     * Tells whether the address is IPv6.
     *
     * @return true for IPv6.
     */
    public boolean isIpv6()
    {
        return address instanceof Inet6Address;
    }

    @Override
    public String toString()
    {
        final String host = isIpv6() ? "[" + address.getHostAddress() + "]" : address.getHostAddress();
        return host + ":" + (port == ALL_PORTS ? "*" : Integer.toString(port)) + "/" + (protocol == TCP ? "tcp"
            : "udp");
    }
}
