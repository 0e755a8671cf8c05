package io.sluice.forwarder.agent;

import io.sluice.common.Vip;
import io.sluice.forwarder.control.CommandHandler;
import io.sluice.common.control.ControlCommand;
import io.sluice.forwarder.control.ControlServer;
import io.sluice.forwarder.control.StateResponder;
import io.sluice.forwarder.maglev.MaglevBackend;
import io.sluice.forwarder.maglev.MaglevFingerprint;
import io.sluice.forwarder.maglev.MaglevTable;
import io.sluice.forwarder.state.ForwardingSnapshot;
import io.sluice.forwarder.state.LoadBalancerState;
import io.sluice.forwarder.state.SnapshotPublisher;
import org.agrona.concurrent.Agent;

import java.net.InetAddress;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The forwarder's control thread: applies commands from the control channel to {@link LoadBalancerState},
 * rebuilds the Maglev tables they touch and publishes the new snapshot before acknowledging them, keeps the
 * per-VIP and per-backend counters in step, and samples port statistics. Workers never wait for it.
 * <p>
 * A refused command (unknown VIP, duplicate backend, full table...) is answered with its reason and changes
 * nothing; no command can stop this thread.
 */
public final class ControlAgent implements Agent, CommandHandler
{
    private static final int COMMANDS_PER_CYCLE = 16;
    private static final long PORT_STATS_INTERVAL_MS = 100;

    private final LoadBalancerState state;
    private final SnapshotPublisher publisher;
    private final ForwarderCounters counters;
    private final ControlServer server;
    private final PortStatsSampler ports;
    private final ProcessCounters process;
    private static final System.Logger LOGGER = System.getLogger(ControlAgent.class.getName());

    private final Map<Vip, String> vipNames = new HashMap<>();
    private final Map<Vip, Map<InetAddress, String>> backendNames = new HashMap<>();
    // The table each VIP index's fingerprint counter was last computed from.
    private final Map<Integer, MaglevTable> fingerprinted = new HashMap<>();
    private long nextPortSampleMs;

    /**
     * Creates the agent.
     *
     * @param state     the forwarding state (owned by this thread from now on).
     * @param publisher where snapshots go.
     * @param counters  per-VIP and per-backend counter allocation.
     * @param server    the control channel's server side, or null when there is none (tests).
     * @param ports     port statistics sampler, or null.
     * @param process   process-wide counters.
     */
    public ControlAgent(
        final LoadBalancerState state,
        final SnapshotPublisher publisher,
        final ForwarderCounters counters,
        final ControlServer server,
        final PortStatsSampler ports,
        final ProcessCounters process)
    {
        this.state = state;
        this.publisher = publisher;
        this.counters = counters;
        this.server = server;
        this.ports = ports;
        this.process = process;
    }

    @Override
    public int doWork()
    {
        int work = server == null ? 0 : server.poll(this, COMMANDS_PER_CYCLE);
        final long nowMs = System.currentTimeMillis();
        if (ports != null && nowMs >= nextPortSampleMs)
        {
            nextPortSampleMs = nowMs + PORT_STATS_INTERVAL_MS;
            work += ports.sample();
        }
        if (server != null)
        {
            process.commands(server.acceptedCommands(), server.rejectedCommands() + server.malformedCommands());
        }
        return work;
    }

    @Override
    public String roleName()
    {
        return "control";
    }

    /**
     * Applies a command from the node config at start; the caller publishes afterwards.
     *
     * @param command the command.
     */
    public void applyInitial(final ControlCommand command)
    {
        apply(command, null);
    }

    @Override
    public String onCommand(final ControlCommand command, final StateResponder responder)
    {
        final String describe = command.toString();
        try
        {
            apply(command, responder);
            if (!(command instanceof ControlCommand.GetState))
            {
                LOGGER.log(System.Logger.Level.INFO,
                    "control: applied " + describe + " (from pid " + responder.senderPid() + ")");
            }
            return null;
        }
        catch (final IllegalArgumentException ex)
        {
            LOGGER.log(System.Logger.Level.WARNING, "control: rejected " + describe + " (from pid " +
                responder.senderPid() + "): " +
                ex.getMessage());
            return ex.getMessage();
        }
    }

    @Override
    public void onCommandsApplied()
    {
        publish();
    }

    /**
     * Rebuilds what changed and publishes the snapshot to the workers.
     *
     * @return the published snapshot.
     */
    public ForwardingSnapshot publish()
    {
        final long start = System.nanoTime();
        final ForwardingSnapshot snapshot = state.snapshot();
        final long buildNs = System.nanoTime() - start;
        if (snapshot != publisher.current())
        {
            publisher.publish(snapshot);
            process.published(snapshot.version(), buildNs);
            fingerprintRebuiltTables(snapshot);
        }
        return snapshot;
    }

    // After the workers have the snapshot: the fingerprint of every table rebuilt since the last one.
    private void fingerprintRebuiltTables(final ForwardingSnapshot snapshot)
    {
        for (final Vip vip : state.vips())
        {
            final int index = state.vipIndex(vip);
            final MaglevTable table = snapshot.maglev(index);
            if (fingerprinted.get(index) != table)
            {
                final List<MaglevBackend> backends = new ArrayList<>();
                for (final LoadBalancerState.BackendView backend : state.backends(vip))
                {
                    backends.add(new MaglevBackend(backend.address().getAddress(), backend.weight(), backend.slot()));
                }
                counters.onMaglevFingerprint(index, MaglevFingerprint.of(table, backends));
                fingerprinted.put(index, table);
            }
        }
    }

    private void apply(final ControlCommand command, final StateResponder responder)
    {
        // Java 17: no pattern switch yet.
        if (command instanceof ControlCommand.AddVip add)
        {
            addVip(add.vip(), add.name());
        }
        else if (command instanceof ControlCommand.RemoveVip remove)
        {
            removeVip(remove.vip());
        }
        else if (command instanceof ControlCommand.AddBackend add)
        {
            addBackend(add);
        }
        else if (command instanceof ControlCommand.RemoveBackend remove)
        {
            removeBackend(remove.vip(), remove.backend());
        }
        else if (command instanceof ControlCommand.SetBackendWeight set)
        {
            state.setBackendWeight(set.vip(), set.backend(), set.weight());
        }
        else if (command instanceof ControlCommand.SetBackendHealth set)
        {
            state.setBackendHealthy(set.vip(), set.backend(), set.up());
        }
        else if (command instanceof ControlCommand.DrainBackend drain)
        {
            state.setBackendWeight(drain.vip(), drain.backend(), 0);
        }
        else if (command instanceof ControlCommand.GetState)
        {
            describeState(responder);
        }
    }

    private void addVip(final Vip vip, final String name)
    {
        final int index = state.addVip(vip);
        final String label = name == null || name.isEmpty() ? vip.toString() : name;
        vipNames.put(vip, label);
        backendNames.put(vip, new HashMap<>());
        counters.onVipAdded(index, state.vipGeneration(index), vipLabel(vip));
        fingerprinted.remove(index); // a new counter: write it at the next publication even if the table is the same
    }

    private void removeVip(final Vip vip)
    {
        final int index = state.vipIndex(vip);
        for (final LoadBalancerState.BackendView backend : state.backends(vip))
        {
            counters.onBackendRemoved(backend.slot());
        }
        state.removeVip(vip);
        counters.onVipRemoved(index);
        fingerprinted.remove(index);
        vipNames.remove(vip);
        backendNames.remove(vip);
    }

    private void addBackend(final ControlCommand.AddBackend add)
    {
        final int slot = state.addBackend(add.vip(), add.backend(), add.weight(), add.healthy());
        final String name = add.name() == null || add.name().isEmpty() ? add.backend().getHostAddress() : add.name();
        backendNames.get(add.vip()).put(add.backend(), name);
        counters.onBackendAdded(state.vipIndex(add.vip()), slot, state.backendGeneration(slot), vipLabel(add.vip()),
            name + " (" + add.backend().getHostAddress() + ")");
    }

    private void removeBackend(final Vip vip, final InetAddress backend)
    {
        final int slot = state.backendSlot(vip, backend);
        state.removeBackend(vip, backend);
        counters.onBackendRemoved(slot);
        backendNames.get(vip).remove(backend);
    }

    private String vipLabel(final Vip vip)
    {
        return vipNames.get(vip) + " (" + vip + ")";
    }

    private void describeState(final StateResponder responder)
    {
        final ForwardingSnapshot snapshot = publish();
        for (final Vip vip : state.vips())
        {
            responder.emitVip(vip, vipNames.get(vip));
            final MaglevTable table = snapshot.maglev(state.vipIndex(vip));
            final int[] slots = table.slotCounts(snapshot.backendCapacity() - 1);
            for (final LoadBalancerState.BackendView backend : state.backends(vip))
            {
                responder.emitBackend(vip, backend.address(), backend.weight(), backend.healthy(),
                    backendNames.get(vip).get(backend.address()), slots[backend.slot()]);
            }
        }
    }
}
