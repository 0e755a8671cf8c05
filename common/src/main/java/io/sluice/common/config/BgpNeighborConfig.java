package io.sluice.common.config;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.nio.file.Path;

/**
 * One BGP session of the node ({@code controller.bgp.neighbors[i]}). Each session carries the unicast family of
 * its own address: a dual-stack node has one session per family and router (see docs/operations.md).
 *
 * @param address           the router's address.
 * @param localAddress      the node's address the session starts from, of the same family.
 * @param holdTimeSeconds   the hold time offered in OPEN, 3..65535 seconds; ExaBGP sends keepalives every third
 *                          of the negotiated hold time (RFC 4271 §4.4).
 * @param md5PasswordFile   the file holding the TCP MD5 password (RFC 2385), or null for none.
 * @param gracefulRestart   whether the graceful restart capability (RFC 4724) is offered, with the hold time as
 *                          restart time.
 * @param bfd               the BFD session to the neighbor, {@link BfdConfig#OFF} for none.
 */
public record BgpNeighborConfig(
    InetAddress address, InetAddress localAddress, int holdTimeSeconds, Path md5PasswordFile,
    boolean gracefulRestart, BfdConfig bfd)
{
    /** ExaBGP's default hold time. */
    public static final int DEFAULT_HOLD_TIME_SECONDS = 180;
    /** RFC 4271 §4.2: a hold time is zero or at least three seconds; Sluice refuses zero (no failure detection). */
    public static final int MIN_HOLD_TIME_SECONDS = 3;
    public static final int MAX_HOLD_TIME_SECONDS = 65535;

    /**
     * Creates a session without BFD.
     *
     * @param address         the router's address.
     * @param localAddress    the node's address.
     * @param holdTimeSeconds the hold time.
     * @param md5PasswordFile the TCP MD5 password file, or null.
     * @param gracefulRestart whether graceful restart is offered.
     */
    public BgpNeighborConfig(final InetAddress address, final InetAddress localAddress, final int holdTimeSeconds,
        final Path md5PasswordFile, final boolean gracefulRestart)
    {
        this(address, localAddress, holdTimeSeconds, md5PasswordFile, gracefulRestart, BfdConfig.OFF);
    }

    /**
     * Creates a session with the defaults: hold time 180 s, no MD5, no graceful restart.
     *
     * @param address      the router's address.
     * @param localAddress the node's address.
     * @return the session.
     */
    public static BgpNeighborConfig defaults(final InetAddress address, final InetAddress localAddress)
    {
        return new BgpNeighborConfig(address, localAddress, DEFAULT_HOLD_TIME_SECONDS, null, false);
    }

    /**
     * Returns the keepalive interval ExaBGP uses with this hold time.
     *
     * @return a third of the hold time, whole seconds.
     */
    public int keepaliveSeconds()
    {
        return holdTimeSeconds / 3;
    }

    /**
     * Tells whether the session is IPv6.
     *
     * @return true for an IPv6 neighbor (IPv6 unicast routes), false for IPv4.
     */
    public boolean ipv6()
    {
        return address instanceof Inet6Address;
    }

    /**
     * Describes the session's options on one line, for {@code sluice status} and the config check.
     *
     * @return e.g. {@code ipv4 from 10.10.1.2, hold 9s keepalive 3s, md5 /etc/sluice/r1.md5, graceful restart,
     *         bfd rx 100ms tx 100ms x3}.
     */
    public String describe()
    {
        return (ipv6() ? "ipv6" : "ipv4") + " from " + IpLiterals.format(localAddress) + ", hold " + holdTimeSeconds +
            "s keepalive " + keepaliveSeconds() + "s" + (md5PasswordFile == null ? "" : ", md5 " + md5PasswordFile) +
            (gracefulRestart ? ", graceful restart" : "") + (bfd.enabled() ? ", " + bfd.describe() : "");
    }
}
