package io.sluice.controller.bgp;

import io.sluice.common.config.IpLiterals;

import java.net.InetAddress;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * Turns the set of addresses to announce into ExaBGP commands: only the differences while connected, the whole
 * set again on each new connection (a restarted ExaBGP has forgotten everything), and withdrawals of what the
 * relay reports it still announces but is no longer wanted (a controller restart).
 *
 * <p>Until the first {@link #setDesired} the announcer sends nothing, so a restarted controller does not withdraw
 * routes the relay kept before it has decided what it wants. Pure and single-threaded; commands come out in address
 * order.
 */
public final class RouteAnnouncer
{
    /**
     * Orders addresses IPv4 first, then by their bytes.
     */
    public static final Comparator<InetAddress> ADDRESS_ORDER = RouteAnnouncer::compare;

    private final RouteAttributes attributes;
    private Set<InetAddress> desired;
    private final Set<InetAddress> announced = new TreeSet<>(ADDRESS_ORDER);
    private final List<String> commands = new ArrayList<>();
    private boolean connected;

    /**
     * Creates an announcer whose routes carry no attributes but next-hop self.
     */
    public RouteAnnouncer()
    {
        this(RouteAttributes.NONE);
    }

    /**
     * Creates an announcer.
     *
     * @param attributes the path attributes of each address's route.
     */
    public RouteAnnouncer(final RouteAttributes attributes)
    {
        this.attributes = attributes;
    }

    /**
     * Sets the addresses to announce.
     *
     * @param addresses the addresses; the others are withdrawn.
     */
    public void setDesired(final Set<InetAddress> addresses)
    {
        final Set<InetAddress> copy = new TreeSet<>(ADDRESS_ORDER);
        copy.addAll(addresses);
        desired = copy;
        reconcile();
    }

    /**
     * Notes a new relay connection: nothing is known to be announced on it, so everything desired goes out.
     */
    public void onConnected()
    {
        connected = true;
        announced.clear();
        commands.clear();
        reconcile();
    }

    /**
     * Notes what the relay reports it has announced; what is not desired is withdrawn.
     *
     * @param addresses the relay's announced addresses.
     */
    public void onRelayAnnounced(final Set<InetAddress> addresses)
    {
        if (connected)
        {
            announced.addAll(addresses);
            reconcile();
        }
    }

    /**
     * Notes the loss of the relay connection; unsent commands are dropped.
     */
    public void onDisconnected()
    {
        connected = false;
        announced.clear();
        commands.clear();
    }

    /**
     * Returns the commands to send, and forgets them.
     *
     * @return lines such as {@code announce route 10.100.0.1/32 next-hop self}.
     */
    public List<String> drainCommands()
    {
        final List<String> drained = List.copyOf(commands);
        commands.clear();
        return drained;
    }

    /**
     * Returns what has been announced on the current connection (sent, or reported by the relay).
     *
     * @return the addresses, empty while disconnected.
     */
    public Set<InetAddress> announced()
    {
        return Set.copyOf(announced);
    }

    /**
     * Tells whether the announced set is the desired one.
     *
     * @return true when connected, told what to announce, and every command for it has been produced.
     */
    public boolean isCurrent()
    {
        return connected && desired != null && announced.equals(desired);
    }

    /**
     * Returns ExaBGP's command that announces an address as a host route.
     *
     * @param address the address.
     * @return e.g. {@code announce route 10.100.0.1/32 next-hop self}.
     */
    public static String announceCommand(final InetAddress address)
    {
        return "announce route " + prefix(address) + " next-hop self";
    }

    /**
     * Returns ExaBGP's command that withdraws an address's host route.
     *
     * @param address the address.
     * @return e.g. {@code withdraw route 10.100.0.1/32 next-hop self}.
     */
    public static String withdrawCommand(final InetAddress address)
    {
        return "withdraw route " + prefix(address) + " next-hop self";
    }

    /**
     * Returns an address's host prefix.
     *
     * @param address the address.
     * @return {@code ADDRESS/32} or {@code ADDRESS/128}.
     */
    public static String prefix(final InetAddress address)
    {
        return IpLiterals.format(address) + "/" + address.getAddress().length * 8;
    }

    private void reconcile()
    {
        if (!connected || desired == null)
        {
            return;
        }
        for (final InetAddress address : List.copyOf(announced))
        {
            if (!desired.contains(address))
            {
                commands.add(withdrawCommand(address));
                announced.remove(address);
            }
        }
        for (final InetAddress address : desired)
        {
            if (announced.add(address))
            {
                commands.add(announceCommand(address) + attributes.of(address));
            }
        }
    }

    private static int compare(final InetAddress a, final InetAddress b)
    {
        final byte[] x = a.getAddress();
        final byte[] y = b.getAddress();
        if (x.length != y.length)
        {
            return Integer.compare(x.length, y.length);
        }
        return Arrays.compareUnsigned(x, y);
    }
}
