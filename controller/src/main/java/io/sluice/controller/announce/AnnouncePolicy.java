package io.sluice.controller.announce;

import io.sluice.common.config.IpLiterals;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Decides which VIP addresses this node announces. A VIP is announced while the controller runs, the forwarder is
 * alive and has been given the controller's whole state, and the VIP has at least one eligible backend (or the
 * node is configured to announce regardless). This is the Maglev paper's rule: a node attracts traffic only when it
 * can serve it. Routes are per address: an address is announced when any VIP on it is.
 * <p>
 * Pure and single-threaded; it logs each VIP's change with its reason, once.
 */
public final class AnnouncePolicy
{
    /**
     * One VIP's input.
     *
     * @param name     the VIP's name.
     * @param address  its address.
     * @param eligible how many of its backends may take new flows.
     * @param total    how many backends it has.
     */
    public record VipInput(String name, InetAddress address, int eligible, int total)
    {
    }

    /**
     * The node's input.
     *
     * @param forwarderReady  whether the forwarder is alive and has confirmed the controller's state.
     * @param forwarderReason why it is (not) ready, e.g. {@code forwarder dead: process 123 gone}.
     * @param shuttingDown    whether the controller is taking the node out of service.
     */
    public record NodeInput(boolean forwarderReady, String forwarderReason, boolean shuttingDown)
    {
    }

    /**
     * One VIP's decision.
     *
     * @param name      the VIP's name.
     * @param address   its address.
     * @param announced whether it should be announced.
     * @param reason    why, for logs and status.
     */
    public record Decision(String name, InetAddress address, boolean announced, String reason)
    {
    }

    private static final System.Logger LOGGER = System.getLogger(AnnouncePolicy.class.getName());

    private final boolean announceRegardless;
    private final Map<String, Decision> last = new HashMap<>();
    private int changes;
    private List<Decision> decisions = List.of();
    private Set<InetAddress> addresses = Set.of();

    /**
     * Creates the policy.
     *
     * @param announceRegardless true to announce VIPs without eligible backends too.
     */
    public AnnouncePolicy(final boolean announceRegardless)
    {
        this.announceRegardless = announceRegardless;
    }

    /**
     * Decides for every VIP, and logs each VIP whose decision changed.
     *
     * @param node the node's state.
     * @param vips the VIPs.
     * @return the addresses to announce, in VIP order.
     */
    public Set<InetAddress> evaluate(final NodeInput node, final List<VipInput> vips)
    {
        final List<Decision> next = new ArrayList<>(vips.size());
        final Set<InetAddress> announce = new LinkedHashSet<>();
        changes = 0;
        for (final VipInput vip : vips)
        {
            final Decision decision = decide(node, vip);
            next.add(decision);
            if (decision.announced())
            {
                announce.add(vip.address());
            }
            final Decision previous = last.put(vip.name(), decision);
            if (previous == null ? decision.announced() : previous.announced() != decision.announced())
            {
                changes++;
                LOGGER.log(System.Logger.Level.INFO, "VIP " + vip.name() + ": " +
                    (decision.announced() ? "announce " : "withdraw ") + prefix(vip.address()) + " (" +
                    decision.reason() + ")");
            }
        }
        decisions = List.copyOf(next);
        addresses = Set.copyOf(announce);
        return announce;
    }

    private Decision decide(final NodeInput node, final VipInput vip)
    {
        if (node.shuttingDown())
        {
            return new Decision(vip.name(), vip.address(), false, "controller shutting down");
        }
        if (!node.forwarderReady())
        {
            return new Decision(vip.name(), vip.address(), false, node.forwarderReason());
        }
        final String backends = vip.eligible() + " of " + vip.total() + " backends eligible";
        if (vip.eligible() > 0)
        {
            return new Decision(vip.name(), vip.address(), true, "forwarder ready, " + backends);
        }
        if (announceRegardless)
        {
            return new Decision(vip.name(), vip.address(), true, "announce_regardless, " + backends);
        }
        return new Decision(vip.name(), vip.address(), false, "no eligible backend (" + backends + ")");
    }

    /**
     * Returns the last decisions.
     *
     * @return one per VIP, in the order last evaluated.
     */
    public List<Decision> decisions()
    {
        return decisions;
    }

    /**
     * Returns the addresses the last evaluation announces.
     *
     * @return the addresses.
     */
    public Set<InetAddress> addresses()
    {
        return addresses;
    }

    /**
     * Returns how many VIPs the last evaluation announced or withdrew (each one logged).
     *
     * @return the count, 0 when nothing changed.
     */
    public int changes()
    {
        return changes;
    }

    /**
     * Formats an address as the host route BGP announces.
     *
     * @param address a VIP address.
     * @return {@code a.b.c.d/32} or {@code x::y/128}.
     */
    public static String prefix(final InetAddress address)
    {
        return IpLiterals.format(address) + (address instanceof Inet4Address ? "/32" : "/128");
    }
}
