package io.sluice.forwarder.control;

import io.sluice.common.control.ControlCommand;
import io.sluice.common.Vip;

import java.net.InetAddress;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A forwarder's control state in miniature, with {@code LoadBalancerState}'s refusals, for driving a
 * {@link ControlServer} in tests. Maglev slots are a fair share of M = 65,537 among eligible backends. Used from the
 * server's thread only, except the atomic counters.
 */
public final class TestForwarder implements CommandHandler
{
    static final int TABLE_SIZE = 65_537;

    final Map<Vip, VipEntry> vips = new LinkedHashMap<>();
    final AtomicInteger getStates = new AtomicInteger();
    final AtomicInteger publications = new AtomicInteger();
    public volatile long lastSenderPid;
    volatile long lastCorrelationId;

    @Override
    public String onCommand(final ControlCommand command, final StateResponder responder)
    {
        lastSenderPid = responder.senderPid();
        lastCorrelationId = responder.correlationId();
        if (command instanceof ControlCommand.AddVip add)
        {
            if (vips.containsKey(add.vip()))
            {
                return "VIP " + add.vip() + " already exists";
            }
            vips.put(add.vip(), new VipEntry(add.name()));
            return null;
        }
        if (command instanceof ControlCommand.RemoveVip remove)
        {
            return vips.remove(remove.vip()) == null ? "no such VIP " + remove.vip() : null;
        }
        if (command instanceof ControlCommand.AddBackend add)
        {
            final VipEntry vip = requireVip(add.vip());
            if (vip.backends.containsKey(add.backend()))
            {
                throw new IllegalArgumentException("backend " + add.backend().getHostAddress() + " already in VIP " +
                    add.vip());
            }
            vip.backends.put(add.backend(), new BackendEntry(add.weight(), add.healthy(), add.name()));
            return null;
        }
        if (command instanceof ControlCommand.RemoveBackend remove)
        {
            requireBackend(remove.vip(), remove.backend());
            vips.get(remove.vip()).backends.remove(remove.backend());
            return null;
        }
        if (command instanceof ControlCommand.SetBackendWeight set)
        {
            requireBackend(set.vip(), set.backend()).weight = set.weight();
            return null;
        }
        if (command instanceof ControlCommand.SetBackendHealth set)
        {
            requireBackend(set.vip(), set.backend()).healthy = set.up();
            return null;
        }
        if (command instanceof ControlCommand.DrainBackend drain)
        {
            requireBackend(drain.vip(), drain.backend()).weight = 0;
            return null;
        }
        getStates.incrementAndGet();
        emitState(responder);
        return null;
    }

    @Override
    public void onCommandsApplied()
    {
        publications.incrementAndGet();
    }

    private void emitState(final StateResponder responder)
    {
        for (final Map.Entry<Vip, VipEntry> vip : vips.entrySet())
        {
            responder.emitVip(vip.getKey(), vip.getValue().name);
            long totalWeight = 0;
            for (final BackendEntry backend : vip.getValue().backends.values())
            {
                totalWeight += backend.healthy ? backend.weight : 0;
            }
            for (final Map.Entry<InetAddress, BackendEntry> entry : vip.getValue().backends.entrySet())
            {
                final BackendEntry backend = entry.getValue();
                final int slots = !backend.healthy || totalWeight == 0 ? 0 :
                    (int)(TABLE_SIZE * backend.weight / totalWeight);
                responder.emitBackend(vip.getKey(), entry.getKey(), backend.weight, backend.healthy, backend.name,
                    slots);
            }
        }
    }

    private VipEntry requireVip(final Vip vip)
    {
        final VipEntry entry = vips.get(vip);
        if (entry == null)
        {
            throw new IllegalArgumentException("no such VIP " + vip);
        }
        return entry;
    }

    private BackendEntry requireBackend(final Vip vip, final InetAddress address)
    {
        final BackendEntry backend = requireVip(vip).backends.get(address);
        if (backend == null)
        {
            throw new IllegalArgumentException("no backend " + address.getHostAddress() + " in VIP " + vip);
        }
        return backend;
    }

    static final class VipEntry
    {
        final String name;
        final Map<InetAddress, BackendEntry> backends = new LinkedHashMap<>();

        VipEntry(final String name)
        {
            this.name = name;
        }
    }

    static final class BackendEntry
    {
        int weight;
        boolean healthy;
        final String name;

        BackendEntry(final int weight, final boolean healthy, final String name)
        {
            this.weight = weight;
            this.healthy = healthy;
            this.name = name;
        }
    }
}
