package io.sluice.controller.health;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Decides which of a VIP's backends get traffic. Normally only healthy ones; but when fewer than a configured share
 * are healthy the VIP fails open and sends to all of them, because a blackholed VIP is worse than a few failing
 * backends (a mass health-check failure is more often the checker's or the network's fault than every backend's).
 *
 * <p>Stateful only in remembering whether the VIP is in fail-open, so entering and leaving it is reported once
 * (the caller logs the transition).
 */
public final class VipEligibility
{
    private final String vip;
    private final double failOpenShare;
    private boolean failOpen;
    private long failOpenEntries;

    /**
     * Creates the decision for one VIP.
     *
     * @param vip           the VIP's name, used in reasons
     * @param failOpenShare 0.0..1.0: fail open when the healthy share is below this; 0 never fails open (a VIP
     *                      with no healthy backend is then withdrawn from BGP rather than sent to failing ones)
     */
    public VipEligibility(final String vip, final double failOpenShare)
    {
        this.vip = Objects.requireNonNull(vip, "vip");
        if (!(failOpenShare >= 0.0 && failOpenShare <= 1.0))
        {
            throw new IllegalArgumentException("failOpenShare must be within 0.0..1.0: " + failOpenShare);
        }
        this.failOpenShare = failOpenShare;
    }

    /** Creates the decision with the default share 0: never fail open. */
    public VipEligibility(final String vip)
    {
        this(vip, 0.0);
    }

    /**
     * The decision for one evaluation.
     *
     * @param eligible   names of the backends that get traffic, in input order
     * @param failOpen   whether the VIP is in fail-open
     * @param healthy    how many backends are healthy
     * @param total      how many backends the VIP has
     * @param transition the reason when this evaluation entered or left fail-open, otherwise null
     */
    public record Decision(List<String> eligible, boolean failOpen, int healthy, int total, String transition)
    {
        public Decision
        {
            eligible = List.copyOf(eligible);
        }
    }

    /** Evaluates the backends' state at {@code nowMs}. */
    public Decision evaluate(final List<BackendHealth> backends, final long nowMs)
    {
        final List<String> names = new ArrayList<>(backends.size());
        final boolean[] healthy = new boolean[backends.size()];
        for (int i = 0; i < healthy.length; i++)
        {
            final BackendHealth backend = backends.get(i);
            names.add(backend.name());
            healthy[i] = backend.isUp(nowMs);
        }
        return evaluate(names, healthy);
    }

    /** Evaluates backends given by name and health, index for index. */
    public Decision evaluate(final List<String> names, final boolean[] healthy)
    {
        if (names.size() != healthy.length)
        {
            throw new IllegalArgumentException(names.size() + " names but " + healthy.length + " health states");
        }
        final int total = healthy.length;
        int healthyCount = 0;
        for (final boolean up : healthy)
        {
            if (up)
            {
                healthyCount++;
            }
        }
        // No backends at all is not fail-open: there is nothing to send to either way.
        final boolean nowFailOpen = total > 0 && healthyCount < failOpenShare * total;
        final List<String> eligible = new ArrayList<>(total);
        for (int i = 0; i < total; i++)
        {
            if (nowFailOpen || healthy[i])
            {
                eligible.add(names.get(i));
            }
        }
        String transition = null;
        if (nowFailOpen != failOpen)
        {
            failOpen = nowFailOpen;
            if (nowFailOpen)
            {
                failOpenEntries++;
                transition = "VIP " + vip + " fail-open: " + healthyCount + " of " + total + " backends healthy" +
                    (failOpenShare > 0 ? " (below " + percent(failOpenShare) + ")" : "") + ", sending to all";
            }
            else
            {
                transition = "VIP " + vip + " fail-open over: " + healthyCount + " of " + total +
                    " backends healthy, sending to healthy only";
            }
        }
        return new Decision(eligible, nowFailOpen, healthyCount, total, transition);
    }

    private static String percent(final double share)
    {
        final double pct = share * 100;
        return (pct == Math.rint(pct) ? Long.toString((long)pct) : Double.toString(pct)) + "%";
    }

    /** Returns whether the VIP was in fail-open at the last evaluation. */
    public boolean isFailOpen()
    {
        return failOpen;
    }

    /** Returns how many times the VIP entered fail-open. */
    public long failOpenEntries()
    {
        return failOpenEntries;
    }

    public String vip()
    {
        return vip;
    }
}
