package io.sluice.forwarder.state;

import io.sluice.common.Vip;
import io.sluice.forwarder.maglev.MaglevBackend;
import io.sluice.forwarder.maglev.MaglevTable;
import io.sluice.forwarder.maglev.MaglevTableBuilder;
import io.sluice.forwarder.lb.AddressWords;
import io.sluice.forwarder.lb.VipTable;

import java.net.InetAddress;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The forwarder's mutable view of its services: VIPs, their backends, weights and health. Lives on the control
 * thread (single writer); every change marks the VIP dirty, and {@link #snapshot()} rebuilds only dirty Maglev
 * tables and freezes the rest into a new {@link ForwardingSnapshot} for the workers.
 * <p>
 * Capacities are fixed at start, like every table of the data path: at most {@code maxVips} VIPs and
 * {@code maxBackends} backend slots across all VIPs. Bad requests throw {@link IllegalArgumentException} with a
 * reason and leave the state unchanged.
 */
public final class LoadBalancerState
{
    private final int maxVips;
    private final int maxBackends;
    private final MaglevTableBuilder maglevBuilder;
    private final MaglevTable emptyTable;

    private final Map<Vip, VipEntry> vipsByKey = new LinkedHashMap<>();
    private final VipEntry[] vipsByIndex;
    private final BackendEntry[] backendsBySlot;
    private final int[] generation;
    private final int[] vipGeneration;
    private final MaglevTable[] maglev;
    private long version;
    private boolean removed;
    private ForwardingSnapshot lastSnapshot;

    /**
     * Creates an empty state.
     *
     * @param maxVips         VIP capacity.
     * @param maxBackends     backend slot capacity.
     * @param maglevTableSize M, a prime.
     * @param hashSeed        the seed shared by every forwarder.
     */
    public LoadBalancerState(final int maxVips, final int maxBackends, final int maglevTableSize, final long hashSeed)
    {
        if (maxVips < 1 || maxBackends < 1)
        {
            throw new IllegalArgumentException("maxVips and maxBackends must be >= 1");
        }
        this.maxVips = maxVips;
        this.maxBackends = maxBackends;
        maglevBuilder = new MaglevTableBuilder(maglevTableSize, hashSeed);
        emptyTable = MaglevTable.empty(maglevTableSize);
        vipsByIndex = new VipEntry[maxVips];
        backendsBySlot = new BackendEntry[maxBackends];
        generation = new int[maxBackends];
        vipGeneration = new int[maxVips];
        maglev = new MaglevTable[maxVips];
        Arrays.fill(maglev, emptyTable);
    }

    /**
     * Adds a VIP with no backends.
     *
     * @param vip the service.
     * @return its index, stable until it is removed.
     */
    public int addVip(final Vip vip)
    {
        if (vipsByKey.containsKey(vip))
        {
            throw new IllegalArgumentException("VIP " + vip + " already exists");
        }
        final int index = freeIndex(vipsByIndex);
        if (index < 0)
        {
            throw new IllegalArgumentException("cannot add VIP " + vip + ": all " + maxVips + " VIP slots in use");
        }
        final VipEntry entry = new VipEntry(vip, index);
        vipsByKey.put(vip, entry);
        vipsByIndex[index] = entry;
        vipGeneration[index]++;
        entry.dirty = true;
        return index;
    }

    /**
     * Removes a VIP and all its backends.
     *
     * @param vip the service.
     */
    public void removeVip(final Vip vip)
    {
        final VipEntry entry = requireVip(vip);
        for (final BackendEntry backend : entry.backends.values())
        {
            backendsBySlot[backend.slot] = null;
        }
        vipsByKey.remove(vip);
        vipsByIndex[entry.index] = null;
        maglev[entry.index] = emptyTable;
        removed = true;
    }

    /**
     * Adds a backend to a VIP.
     *
     * @param vip     the service.
     * @param address backend address; GRE packets go there.
     * @param weight  share of new flows, 0 to take none.
     * @param healthy whether it may carry flows now.
     * @return the backend's slot.
     */
    public int addBackend(final Vip vip, final InetAddress address, final int weight, final boolean healthy)
    {
        final VipEntry entry = requireVip(vip);
        checkWeight(weight);
        if (entry.backends.containsKey(address))
        {
            throw new IllegalArgumentException("backend " + address.getHostAddress() + " already in VIP " + vip);
        }
        final int slot = freeIndex(backendsBySlot);
        if (slot < 0)
        {
            throw new IllegalArgumentException("cannot add backend " + address.getHostAddress() + ": all " +
                maxBackends + " backend slots in use");
        }
        final BackendEntry backend = new BackendEntry(address, slot, entry.index, weight, healthy);
        generation[slot]++;
        backendsBySlot[slot] = backend;
        entry.backends.put(address, backend);
        entry.dirty = true;
        return slot;
    }

    /**
     * Removes a backend: its flows move to others.
     *
     * @param vip     the service.
     * @param address backend address.
     */
    public void removeBackend(final Vip vip, final InetAddress address)
    {
        final VipEntry entry = requireVip(vip);
        final BackendEntry backend = requireBackend(entry, address);
        entry.backends.remove(address);
        backendsBySlot[backend.slot] = null;
        entry.dirty = true;
    }

    /**
     * Sets a backend's weight; 0 drains it (existing flows stay, no new ones).
     *
     * @param vip     the service.
     * @param address backend address.
     * @param weight  new weight.
     */
    public void setBackendWeight(final Vip vip, final InetAddress address, final int weight)
    {
        checkWeight(weight);
        final VipEntry entry = requireVip(vip);
        requireBackend(entry, address).weight = weight;
        entry.dirty = true;
    }

    /**
     * Sets a backend's health: an unhealthy backend takes no flows, and its flows are re-picked.
     *
     * @param vip     the service.
     * @param address backend address.
     * @param healthy new health.
     */
    public void setBackendHealthy(final Vip vip, final InetAddress address, final boolean healthy)
    {
        final VipEntry entry = requireVip(vip);
        requireBackend(entry, address).healthy = healthy;
        entry.dirty = true;
    }

    /**
     * Returns the index of a VIP.
     *
     * @param vip the service.
     * @return index, or -1 if absent.
     */
    public int vipIndex(final Vip vip)
    {
        final VipEntry entry = vipsByKey.get(vip);
        return entry == null ? -1 : entry.index;
    }

    /**
     * Returns the slot of a backend.
     *
     * @param vip     the service.
     * @param address backend address.
     * @return slot, or -1 if absent.
     */
    public int backendSlot(final Vip vip, final InetAddress address)
    {
        final VipEntry entry = vipsByKey.get(vip);
        final BackendEntry backend = entry == null ? null : entry.backends.get(address);
        return backend == null ? -1 : backend.slot;
    }

    /**
     * Returns a backend slot's current generation (it grows each time the slot is given to a backend).
     *
     * @param slot backend slot.
     * @return generation.
     */
    public int backendGeneration(final int slot)
    {
        return generation[slot];
    }

    /**
     * Returns a VIP slot's current generation.
     *
     * @param index VIP index.
     * @return generation.
     */
    public int vipGeneration(final int index)
    {
        return vipGeneration[index];
    }

    /**
     * Describes a VIP's backends, for status queries.
     *
     * @param vip the service.
     * @return one view per backend in the order they were added; empty if the VIP is absent.
     */
    public List<BackendView> backends(final Vip vip)
    {
        final VipEntry entry = vipsByKey.get(vip);
        final List<BackendView> views = new ArrayList<>();
        if (entry != null)
        {
            for (final BackendEntry backend : entry.backends.values())
            {
                views.add(new BackendView(backend.address, backend.slot, backend.weight, backend.healthy));
            }
        }
        return views;
    }

    /**
     * A backend as status queries see it.
     *
     * @param address backend address.
     * @param slot    its slot.
     * @param weight  its weight (0 when draining).
     * @param healthy whether it is up.
     */
    public record BackendView(InetAddress address, int slot, int weight, boolean healthy)
    {
    }

    /**
     * Returns the VIPs in the order they were added.
     *
     * @return a copy of the VIP list.
     */
    public List<Vip> vips()
    {
        return new ArrayList<>(vipsByKey.keySet());
    }

    /**
     * Builds the snapshot workers should use: rebuilds the Maglev table of every VIP that changed since the last
     * call and copies backend state. Returns the previous snapshot if nothing changed.
     *
     * @return the current snapshot.
     */
    public ForwardingSnapshot snapshot()
    {
        boolean changed = lastSnapshot == null || removed;
        removed = false;
        for (final VipEntry entry : vipsByKey.values())
        {
            if (entry.dirty)
            {
                maglev[entry.index] = maglevBuilder.build(eligibleBackends(entry));
                entry.dirty = false;
                changed = true;
            }
        }
        if (!changed)
        {
            return lastSnapshot;
        }
        lastSnapshot = freeze(++version);
        return lastSnapshot;
    }

    private List<MaglevBackend> eligibleBackends(final VipEntry entry)
    {
        final List<MaglevBackend> eligible = new ArrayList<>(entry.backends.size());
        for (final BackendEntry backend : entry.backends.values())
        {
            if (backend.healthy && backend.weight > 0)
            {
                eligible.add(new MaglevBackend(backend.address.getAddress(), backend.weight, backend.slot));
            }
        }
        return eligible;
    }

    private ForwardingSnapshot freeze(final long version)
    {
        final VipTable vipTable = new VipTable(vipsByKey.size() * 2);
        final Map<String, VipEntry> fragmentOwners = new LinkedHashMap<>();
        for (final VipEntry entry : vipsByKey.values())
        {
            final Vip vip = entry.vip;
            vipTable.put(vip.isIpv6(), AddressWords.matchWord0(vip.address()), AddressWords.matchWord1(vip.address()),
                vip.port(), vip.protocol(), entry.index);
            final String fragmentKey = vip.address().getHostAddress() + "/" + vip.protocol();
            final VipEntry owner = fragmentOwners.get(fragmentKey);
            if (owner == null || fragmentPreference(entry.vip) < fragmentPreference(owner.vip))
            {
                fragmentOwners.put(fragmentKey, entry);
            }
            if (maglev[entry.index] != null && maglev[entry.index].lookup(0) != MaglevTable.NO_BACKEND)
            {
                vipTable.putEchoAddress(vip.isIpv6(), AddressWords.matchWord0(vip.address()),
                    AddressWords.matchWord1(vip.address()), entry.index);
            }
        }
        for (final VipEntry owner : fragmentOwners.values())
        {
            final Vip vip = owner.vip;
            vipTable.putFragmentVip(vip.isIpv6(), AddressWords.matchWord0(vip.address()),
                AddressWords.matchWord1(vip.address()), vip.protocol(), owner.index);
        }

        final byte[] state = new byte[maxBackends];
        final int[] backendVip = new int[maxBackends];
        final boolean[] ipv6 = new boolean[maxBackends];
        final long[] high = new long[maxBackends];
        final long[] low = new long[maxBackends];
        for (int slot = 0; slot < maxBackends; slot++)
        {
            final BackendEntry backend = backendsBySlot[slot];
            if (backend == null)
            {
                continue;
            }
            state[slot] = backend.healthy ? ForwardingSnapshot.BACKEND_UP : ForwardingSnapshot.BACKEND_DOWN;
            backendVip[slot] = backend.vipIndex;
            final byte[] octets = backend.address.getAddress();
            ipv6[slot] = octets.length == 16;
            high[slot] = ipv6[slot] ? AddressWords.bigEndian64(octets, 0) : AddressWords.bigEndian32(octets) & 0xFFFF_FFFFL;
            low[slot] = ipv6[slot] ? AddressWords.bigEndian64(octets, 8) : 0;
        }
        final boolean[] vipInUse = new boolean[maxVips];
        for (final VipEntry entry : vipsByKey.values())
        {
            vipInUse[entry.index] = true;
        }
        return new ForwardingSnapshot(version, vipTable, maglev.clone(), vipInUse, vipGeneration.clone(), state,
            generation.clone(), backendVip, ipv6,
            high, low);
    }

    // All-ports VIP first, then the lowest port: the one VIP of an address that takes its fragments.
    private static int fragmentPreference(final Vip vip)
    {
        return vip.port();
    }

    private VipEntry requireVip(final Vip vip)
    {
        final VipEntry entry = vipsByKey.get(vip);
        if (entry == null)
        {
            throw new IllegalArgumentException("no such VIP " + vip);
        }
        return entry;
    }

    private static BackendEntry requireBackend(final VipEntry entry, final InetAddress address)
    {
        final BackendEntry backend = entry.backends.get(address);
        if (backend == null)
        {
            throw new IllegalArgumentException("no backend " + address.getHostAddress() + " in VIP " + entry.vip);
        }
        return backend;
    }

    private static void checkWeight(final int weight)
    {
        if (weight < 0 || weight > 65_535)
        {
            throw new IllegalArgumentException("backend weight must be 0..65535, got " + weight);
        }
    }

    private static int freeIndex(final Object[] slots)
    {
        for (int i = 0; i < slots.length; i++)
        {
            if (slots[i] == null)
            {
                return i;
            }
        }
        return -1;
    }

    private static final class VipEntry
    {
        final Vip vip;
        final int index;
        final Map<InetAddress, BackendEntry> backends = new LinkedHashMap<>();
        boolean dirty;

        VipEntry(final Vip vip, final int index)
        {
            this.vip = vip;
            this.index = index;
        }
    }

    private static final class BackendEntry
    {
        final InetAddress address;
        final int slot;
        final int vipIndex;
        int weight;
        boolean healthy;

        BackendEntry(final InetAddress address, final int slot, final int vipIndex, final int weight,
            final boolean healthy)
        {
            this.address = address;
            this.slot = slot;
            this.vipIndex = vipIndex;
            this.weight = weight;
            this.healthy = healthy;
        }
    }
}
