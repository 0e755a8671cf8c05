package io.sluice.controller.operator;

import io.sluice.common.config.BackendConfig;
import io.sluice.common.config.IpLiterals;
import io.sluice.common.config.VipConfig;
import io.sluice.common.control.ControlCommand;
import io.sluice.common.control.ForwarderServices;

import java.net.InetAddress;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The weight each backend should have in the forwarder: the configured weight, unless an operator set another one or
 * drained the backend (weight 0: its existing flows stay, it gets no new ones).
 * <p>
 * Pure and single-threaded. Undrain restores the weight the backend had before the drain (the configured one, or
 * the operator's). Every change returns the SET_BACKEND_WEIGHT the forwarder needs; {@link #fullState()} returns
 * the ones a restarted forwarder needs, since it starts with the configured weights.
 */
public final class BackendWeights
{
    /** The largest weight, as in the config. */
    public static final int MAX_WEIGHT = 65535;

    /**
     * One backend's weights.
     *
     * @param vipName    the VIP's name.
     * @param backend    the backend's configuration.
     * @param configured the weight in the config.
     * @param override   the operator's weight, or -1 for none.
     * @param drained    whether the operator drained it.
     */
    public record Entry(String vipName, BackendConfig backend, int configured, int override, boolean drained)
    {
        /**
         * Returns the weight the forwarder should have.
         *
         * @return 0 when drained, else the operator's weight, else the configured one.
         */
        public int effective()
        {
            return drained ? 0 : override >= 0 ? override : configured;
        }

        /**
         * Tells whether the operator changed anything.
         *
         * @return true when drained or given another weight.
         */
        public boolean overridden()
        {
            return drained || override >= 0;
        }
    }

    private final Map<String, VipConfig> vipsByName = new LinkedHashMap<>();
    private final Map<String, Map<InetAddress, Entry>> entries = new LinkedHashMap<>();

    /**
     * Starts with the configured weights.
     *
     * @param vips the node's VIPs.
     */
    public BackendWeights(final List<VipConfig> vips)
    {
        for (final VipConfig vip : vips)
        {
            vipsByName.put(vip.name(), vip);
            final Map<InetAddress, Entry> backends = new LinkedHashMap<>();
            for (final BackendConfig backend : vip.backends())
            {
                backends.put(backend.address(), new Entry(vip.name(), backend, backend.weight(), -1, false));
            }
            entries.put(vip.name(), backends);
        }
    }

    /**
     * Drains a backend: weight 0 in the forwarder.
     *
     * @param vipName the VIP's name.
     * @param backend the backend's name or address.
     * @return the command for the forwarder.
     * @throws IllegalArgumentException when there is no such VIP or backend.
     */
    public ControlCommand.SetBackendWeight drain(final String vipName, final String backend)
    {
        final Entry entry = find(vipName, backend);
        return put(new Entry(vipName, entry.backend(), entry.configured(), entry.override(), true));
    }

    /**
     * Ends a drain: the backend gets back the weight it had before.
     *
     * @param vipName the VIP's name.
     * @param backend the backend's name or address.
     * @return the command for the forwarder.
     * @throws IllegalArgumentException when there is no such VIP or backend.
     */
    public ControlCommand.SetBackendWeight undrain(final String vipName, final String backend)
    {
        final Entry entry = find(vipName, backend);
        return put(new Entry(vipName, entry.backend(), entry.configured(), entry.override(), false));
    }

    /**
     * Sets a backend's weight and ends any drain. Setting the configured weight removes the override.
     *
     * @param vipName the VIP's name.
     * @param backend the backend's name or address.
     * @param weight  0..65535; 0 behaves like a drain that undrain cannot undo.
     * @return the command for the forwarder.
     * @throws IllegalArgumentException when there is no such VIP or backend, or the weight is out of range.
     */
    public ControlCommand.SetBackendWeight setWeight(final String vipName, final String backend, final int weight)
    {
        if (weight < 0 || weight > MAX_WEIGHT)
        {
            throw new IllegalArgumentException("weight must be 0.." + MAX_WEIGHT + ", got " + weight);
        }
        final Entry entry = find(vipName, backend);
        final int override = weight == entry.configured() ? -1 : weight;
        return put(new Entry(vipName, entry.backend(), entry.configured(), override, false));
    }

    /**
     * Takes over weights a running forwarder has that differ from the config, as operator overrides (weight 0 as
     * a drain), when no override is known for that backend.
     *
     * @param state what the forwarder reported.
     * @return how many backends were taken over.
     */
    public int adopt(final ForwarderServices state)
    {
        int adopted = 0;
        for (final Map<InetAddress, Entry> backends : entries.values())
        {
            for (final Entry entry : List.copyOf(backends.values()))
            {
                final ForwarderServices.VipState vip = state.vip(vipsByName.get(entry.vipName()).vip());
                final ForwarderServices.BackendState forwarder =
                    vip == null ? null : vip.backend(entry.backend().address());
                if (forwarder == null || entry.overridden() || forwarder.weight() == entry.configured())
                {
                    continue;
                }
                final boolean drained = forwarder.weight() == 0;
                put(new Entry(entry.vipName(), entry.backend(), entry.configured(),
                    drained ? -1 : forwarder.weight(), drained));
                adopted++;
            }
        }
        return adopted;
    }

    /**
     * Restores overrides saved earlier; entries for VIPs or backends no longer configured are skipped.
     *
     * @param saved the overridden entries, as from {@link #overrides()}.
     * @return how many were restored.
     */
    public int restore(final List<Entry> saved)
    {
        int restored = 0;
        for (final Entry entry : saved)
        {
            final Map<InetAddress, Entry> backends = entries.get(entry.vipName());
            final Entry current = backends == null ? null : backends.get(entry.backend().address());
            if (current != null && entry.override() <= MAX_WEIGHT)
            {
                put(new Entry(entry.vipName(), current.backend(), current.configured(), entry.override(),
                    entry.drained()));
                restored++;
            }
        }
        return restored;
    }

    /**
     * Returns the commands a forwarder started from the config needs: one per overridden backend.
     *
     * @return SET_BACKEND_WEIGHT commands.
     */
    public List<ControlCommand> fullState()
    {
        final List<ControlCommand> commands = new ArrayList<>();
        for (final Entry entry : overrides())
        {
            commands.add(command(entry));
        }
        return commands;
    }

    /**
     * Returns the entries an operator changed.
     *
     * @return drained or re-weighted backends, in configuration order.
     */
    public List<Entry> overrides()
    {
        final List<Entry> overridden = new ArrayList<>();
        for (final Map<InetAddress, Entry> backends : entries.values())
        {
            for (final Entry entry : backends.values())
            {
                if (entry.overridden())
                {
                    overridden.add(entry);
                }
            }
        }
        return overridden;
    }

    /**
     * Returns one backend's weights.
     *
     * @param vipName the VIP's name.
     * @param address the backend's address.
     * @return the entry.
     * @throws IllegalArgumentException when there is no such VIP or backend.
     */
    public Entry entry(final String vipName, final InetAddress address)
    {
        return find(vipName, IpLiterals.format(address));
    }

    private static InetAddress parseOrNull(final String text)
    {
        try
        {
            return IpLiterals.parse(text);
        }
        catch (final IllegalArgumentException ex)
        {
            return null; // a name, not an address
        }
    }

    private Entry find(final String vipName, final String backend)
    {
        final Map<InetAddress, Entry> backends = entries.get(vipName);
        if (backends == null)
        {
            throw new IllegalArgumentException("no VIP named '" + vipName + "' (VIPs: " +
                String.join(", ", entries.keySet()) + ")");
        }
        final InetAddress address = parseOrNull(backend);
        for (final Entry entry : backends.values())
        {
            if (entry.backend().name().equals(backend) || entry.backend().address().equals(address))
            {
                return entry;
            }
        }
        final List<String> names = new ArrayList<>();
        backends.values().forEach(entry -> names.add(entry.backend().name()));
        throw new IllegalArgumentException("VIP " + vipName + " has no backend '" + backend + "' (backends: " +
            String.join(", ", names) + ")");
    }

    private ControlCommand.SetBackendWeight put(final Entry entry)
    {
        entries.get(entry.vipName()).put(entry.backend().address(), entry);
        return command(entry);
    }

    private ControlCommand.SetBackendWeight command(final Entry entry)
    {
        return new ControlCommand.SetBackendWeight(vipsByName.get(entry.vipName()).vip(), entry.backend().address(),
            entry.effective());
    }
}
