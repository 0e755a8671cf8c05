package io.sluice.common.control;

import io.sluice.common.Vip;

import java.net.InetAddress;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Gathers the STATE_VIP and STATE_BACKEND messages of one GET_STATE answer into a {@link ForwarderServices}, and checks
 * against STATE_END's count that none was lost.
 */
final class StateCollector
{
    static final long NONE = Long.MIN_VALUE;

    private final Map<Vip, VipBuilder> vips = new LinkedHashMap<>();
    private long correlationId = NONE;
    private int entries;
    private int expectedEntries = -1;

    void begin(final long correlationId)
    {
        this.correlationId = correlationId;
        vips.clear();
        entries = 0;
        expectedEntries = -1;
    }

    void stop()
    {
        correlationId = NONE;
    }

    boolean isCollecting(final long correlationId)
    {
        return this.correlationId != NONE && this.correlationId == correlationId;
    }

    void onVip(final Vip vip, final String name)
    {
        vips.computeIfAbsent(vip, VipBuilder::new).name = name;
        entries++;
    }

    void onBackend(final Vip vip, final InetAddress backend, final int weight, final boolean healthy,
        final String name, final int maglevSlots)
    {
        // A backend before its VIP would be a forwarder bug; keep it rather than lose it.
        vips.computeIfAbsent(vip, VipBuilder::new).backends
            .add(new ForwarderServices.BackendState(backend, weight, healthy, name, maglevSlots));
        entries++;
    }

    void onEnd(final int entryCount)
    {
        expectedEntries = entryCount;
    }

    boolean isComplete()
    {
        return expectedEntries == entries;
    }

    int entries()
    {
        return entries;
    }

    int expectedEntries()
    {
        return expectedEntries;
    }

    ForwarderServices state()
    {
        final List<ForwarderServices.VipState> states = new ArrayList<>(vips.size());
        for (final VipBuilder builder : vips.values())
        {
            states.add(new ForwarderServices.VipState(builder.vip, builder.name, builder.backends));
        }
        return new ForwarderServices(states);
    }

    private static final class VipBuilder
    {
        final Vip vip;
        final List<ForwarderServices.BackendState> backends = new ArrayList<>();
        String name;

        VipBuilder(final Vip vip)
        {
            this.vip = vip;
        }
    }
}
