package io.sluice.controller;

import io.sluice.common.config.BackendConfig;
import io.sluice.common.config.NodeConfig;
import io.sluice.common.config.VipConfig;
import io.sluice.common.control.ControlChannel;
import io.sluice.common.control.ControlCommand;
import io.sluice.forwarder.control.ControlServer;
import io.sluice.forwarder.counters.CounterAllocator;
import io.sluice.common.counters.CounterType;
import io.sluice.forwarder.counters.CounterWriter;
import io.sluice.common.counters.CountersFile;
import io.sluice.common.counters.CountersFileHeader;

import java.net.InetAddress;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A forwarder stand-in for controller tests: the real counters file (with a heartbeat the test sets) and the real
 * control channel, served on a thread that keeps the backends' weight and health as the commands set them and answers
 * GET_STATE. Starts, like the real forwarder, with every configured backend up at its configured weight.
 *
 * <p>A forwarder instance is its (pid, start time), and every stand-in runs in this JVM: each one gets a start time
 * one millisecond after the one before, so a new stand-in is a new instance without waiting for the wall clock.
 */
final class FakeForwarder implements AutoCloseable
{
    // Not before this JVM started, or the counters file's owner would not look alive (OwnerProcess).
    private static final AtomicLong NEXT_START_MS = new AtomicLong(System.currentTimeMillis());

    private record BackendState(String name, int weight, boolean healthy)
    {
    }

    private final CountersFile counters;
    private final CounterWriter writer;
    private final int heartbeat;
    private final ControlChannel channel;
    private final Thread thread;
    private final List<ControlCommand> applied = new CopyOnWriteArrayList<>();
    private final Map<VipConfig, Map<InetAddress, BackendState>> state = new LinkedHashMap<>();

    FakeForwarder(final NodeConfig config, final long heartbeatMs)
    {
        for (final VipConfig vip : config.vips())
        {
            final Map<InetAddress, BackendState> backends = new LinkedHashMap<>();
            for (final BackendConfig backend : vip.backends())
            {
                backends.put(backend.address(), new BackendState(backend.name(), backend.weight(), true));
            }
            state.put(vip, backends);
        }
        final long startMs = NEXT_START_MS.getAndIncrement();
        counters = CountersFile.create(config.nodeDirectory().resolve(CountersFileHeader.FILE_NAME), 64,
            () -> startMs);
        final CounterAllocator allocator = new CounterAllocator(counters.manager());
        heartbeat = allocator.workerCounter(CounterType.HEARTBEAT_MS, 0);
        writer = allocator.writer();
        heartbeat(heartbeatMs);
        channel = ControlChannel.create(config.nodeDirectory().resolve(ControlChannel.FILE_NAME), 65536);
        final ControlServer server = new ControlServer(channel);
        thread = new Thread(() ->
        {
            while (!Thread.currentThread().isInterrupted())
            {
                if (server.poll(this::onCommand, 10) == 0)
                {
                    Thread.onSpinWait();
                }
            }
        }, "fake-forwarder");
        thread.setDaemon(true);
        thread.start();
    }

    private String onCommand(final ControlCommand command, final io.sluice.forwarder.control.StateResponder responder)
    {
        if (command instanceof ControlCommand.GetState)
        {
            synchronized (state)
            {
                state.forEach((vip, backends) ->
                {
                    responder.emitVip(vip.vip(), vip.name());
                    backends.forEach((address, backend) -> responder.emitBackend(vip.vip(), address,
                        backend.weight(), backend.healthy(), backend.name(), backend.healthy() ? 100 : 0));
                });
            }
            return null;
        }
        applied.add(command);
        synchronized (state)
        {
            if (command instanceof ControlCommand.SetBackendHealth health)
            {
                update(health.vip(), health.backend(), -1, health.up());
            }
            else if (command instanceof ControlCommand.SetBackendWeight weight)
            {
                update(weight.vip(), weight.backend(), weight.weight(), null);
            }
            else if (command instanceof ControlCommand.AddBackend add)
            {
                state.forEach((config, backends) ->
                {
                    if (config.vip().equals(add.vip()))
                    {
                        backends.put(add.backend(), new BackendState(add.name(), add.weight(), add.healthy()));
                    }
                });
            }
            else if (command instanceof ControlCommand.RemoveBackend remove)
            {
                state.forEach((config, backends) ->
                {
                    if (config.vip().equals(remove.vip()))
                    {
                        backends.remove(remove.backend());
                    }
                });
            }
        }
        return null;
    }

    private void update(final io.sluice.common.Vip vip, final InetAddress address, final int weight,
        final Boolean healthy)
    {
        state.forEach((config, backends) ->
        {
            if (config.vip().equals(vip))
            {
                final BackendState old = backends.get(address);
                backends.put(address, new BackendState(old.name(), weight < 0 ? old.weight() : weight,
                    healthy == null ? old.healthy() : healthy));
            }
        });
    }

    void heartbeat(final long nowMs)
    {
        writer.set(heartbeat, nowMs);
    }

    List<ControlCommand> applied()
    {
        return new ArrayList<>(applied);
    }

    @Override
    public void close() throws InterruptedException
    {
        thread.interrupt();
        thread.join(5_000);
        channel.close();
        counters.close();
    }
}
