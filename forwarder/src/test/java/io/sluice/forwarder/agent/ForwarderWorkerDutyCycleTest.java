package io.sluice.forwarder.agent;

import io.sluice.forwarder.capture.CaptureFile;
import io.sluice.forwarder.capture.CaptureTap;
import io.sluice.forwarder.dpdk.ShimLibrary;
import io.sluice.forwarder.lb.ConnectionTable;
import io.sluice.forwarder.pipeline.PacketPipeline;
import io.sluice.forwarder.pipeline.PipelineConfig;
import io.sluice.forwarder.pipeline.PipelineCounters;
import io.sluice.forwarder.state.LoadBalancerState;
import io.sluice.forwarder.state.SnapshotPublisher;
import org.agrona.concurrent.CachedNanoClock;
import org.agrona.concurrent.NanoClock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.lang.reflect.Proxy;
import java.net.InetAddress;
import java.net.Inet4Address;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The worker's duty cycle against a shim that records its calls and returns empty bursts (the I/O is DPDK's and
 * tested on real vdevs elsewhere; this is the order of the worker's own calls): it polls each of its receive
 * queues in turn, relays each kernel port's frames out of that kernel port's data port on the relay queue, and
 * builds its pipeline on its own thread after pinning it.
 */
class ForwarderWorkerDutyCycleTest
{
    private static final int FRONT = 0;
    private static final int BACK = 1;
    private static final int TAP = 2;

    @TempDir
    Path dir;

    private final List<String> calls = Collections.synchronizedList(new ArrayList<>());

    private ShimLibrary recordingShim()
    {
        return (ShimLibrary)Proxy.newProxyInstance(ShimLibrary.class.getClassLoader(),
            new Class<?>[] {ShimLibrary.class}, (proxy, method, args) ->
            {
                final String name = method.getName();
                switch (name)
                {
                    case "sluice_thread_register" -> calls.add("register");
                    case "sluice_rx_burst" -> calls.add("rx " + args[0] + "/" + args[1]);
                    case "sluice_tx_burst" -> calls.add("tx " + args[0] + "/" + args[1]);
                    default ->
                    {
                    }
                }
                final Class<?> type = method.getReturnType();
                return type == int.class ? (Object)0 : type == long.class ? (Object)0L : null;
            });
    }

    private PacketPipeline pipeline(final List<String> builtOn) throws Exception
    {
        calls.add("build pipeline");
        builtOn.add(Thread.currentThread().getName());
        final PipelineConfig config = PipelineConfig.withDefaults(0x02_00_00_00_00_01L, 0x02_00_00_00_00_feL,
            (Inet4Address)InetAddress.getByName("10.0.0.1"), null, 0);
        final LoadBalancerState state = new LoadBalancerState(config.maxVips(), config.maxBackends(),
            config.maglevTableSize(), config.hashSeed());
        return new PacketPipeline(config, new SnapshotPublisher(state.snapshot()), new ConnectionTable(1024,
            config.tcpIdleTimeoutNs(), config.udpIdleTimeoutNs(), config.otherIdleTimeoutNs()),
            new PipelineCounters(config.maxVips(), config.maxBackends()));
    }

    @Test
    void pollsEachQueueInTurnAndRelaysKernelFramesOnTheirDataPort() throws Exception
    {
        final List<String> builtOn = Collections.synchronizedList(new ArrayList<>());
        try (CaptureFile file = CaptureFile.create(dir.resolve(CaptureFile.FILE_NAME), 1 << 16,
            List.of("front", "back", "tap"), new int[] {FRONT}, new int[] {BACK}))
        {
            final CachedNanoClock clock = new CachedNanoClock();
            clock.update(1_000_000_000L);
            // Queue 0 of the front port (kernel port TAP, relay queue 3 on the front port), queue 1 of the back port.
            // The core is reserved (and the thread pinned) before DPDK registration, given back at close.
            final WorkerCores cores = core ->
            {
                calls.add("pin " + core);
                return () -> calls.add("release " + core);
            };
            final ForwarderWorker worker = new ForwarderWorker(0, 1, cores, recordingShim(), new int[] {FRONT, BACK},
                new int[] {0, 1}, BACK, 2, new int[] {TAP, ForwarderWorker.NO_KERNEL_PORT}, new int[] {0, 0},
                new int[] {3, -1}, () ->
                {
                    try
                    {
                        return pipeline(builtOn);
                    }
                    catch (final Exception ex)
                    {
                        throw new IllegalStateException(ex);
                    }
                }, new WorkerCounters((io, pipeline) -> { }), clock, new CaptureTap(file, 0, FRONT, BACK));
            final Thread thread = new Thread(() ->
            {
                worker.onStart();
                worker.doWork();
                clock.advance(ForwarderWorker.KERNEL_POLL_INTERVAL_NS / 2);
                worker.doWork();
                worker.onClose();
            }, "worker-under-test");
            thread.start();
            thread.join(10_000);

            assertEquals(List.of("worker-under-test"), builtOn, "the worker's own thread builds its pipeline");
            assertEquals(List.of(
                "pin 1", "register", "build pipeline",
                // First cycle: both queues, and the kernel port is due.
                "rx 0/0", "rx 2/0", "rx 1/1",
                // Second cycle, 25 us later: both queues, the kernel port not due yet.
                "rx 0/0", "rx 1/1",
                "release 1"), calls);
        }
    }

    // A shim whose kernel port (TAP) hands over two frames at every read and whose queues take whatever is sent;
    // the other receive queues are empty. Records each TX call as "port/queue xN".
    private static ShimLibrary kernelFramesShim(final List<String> txCalls)
    {
        return (ShimLibrary)Proxy.newProxyInstance(ShimLibrary.class.getClassLoader(),
            new Class<?>[] {ShimLibrary.class}, (proxy, method, args) ->
            {
                final String name = method.getName();
                if ("sluice_rx_burst".equals(name))
                {
                    return (int)args[0] == TAP ? 2 : 0;
                }
                if ("sluice_tx_burst".equals(name))
                {
                    txCalls.add(args[0] + "/" + args[1] + " x" + args[3]);
                    return args[3];
                }
                final Class<?> type = method.getReturnType();
                return type == int.class ? (Object)0 : type == long.class ? (Object)0L : null;
            });
    }

    @Test
    void timesABusyCycleToTheNextStartWithOneClockReadAndAnIdleCycleToItsOwnEnd() throws Exception
    {
        // The clock's readings in order: onStart, then cycle 1 (the kernel port is due: 2 frames, work), cycle 2
        // and cycle 3 (the kernel port not due: idle).
        final long[] readings = {0, 1_000, 1_500, 1_600, 2_000, 2_050};
        final int[] reads = {0};
        final NanoClock clock = () -> readings[reads[0]++];
        final WorkerCounters counters = new WorkerCounters((io, pipeline) -> { });
        final List<String> txCalls = Collections.synchronizedList(new ArrayList<>());
        try (CaptureFile file = CaptureFile.create(dir.resolve(CaptureFile.FILE_NAME), 1 << 16,
            List.of("front", "back", "tap"), new int[] {FRONT}, new int[] {BACK}))
        {
            final ForwarderWorker worker = new ForwarderWorker(0, -1, core -> () -> { }, kernelFramesShim(txCalls),
                FRONT, 0, BACK, 0, TAP, 0, 1, () ->
                {
                    try
                    {
                        return pipeline(new ArrayList<>());
                    }
                    catch (final Exception ex)
                    {
                        throw new IllegalStateException(ex);
                    }
                }, counters, clock, new CaptureTap(file, 0, FRONT, BACK));
            worker.onStart();
            assertEquals(2, worker.doWork());
            assertEquals(2, reads[0], "a cycle reads the clock once at its start");
            assertEquals(0, counters.dutyCycles(), "a busy cycle is timed when the next one starts");
            assertEquals(0, worker.doWork());
            assertEquals(4, reads[0], "an idle cycle reads the clock at its start and at its end");
            assertEquals(2, counters.dutyCycles());
            assertEquals(500, counters.maxDutyCycleNs(), "the busy cycle: from its start to the next start");
            assertEquals(0, worker.doWork());
            assertEquals(3, counters.dutyCycles());
            assertEquals(500, counters.maxDutyCycleNs());
            assertEquals(6, reads[0]);
            worker.onClose();
        }
        assertEquals(List.of(FRONT + "/1 x2"), txCalls);
    }

    @Test
    void sendsWhatTheKernelWritesOutOfTheKernelPortsDataPort() throws Exception
    {
        // A shim whose kernel port hands over two frames: they must leave on FRONT's relay queue, not on BACK.
        final List<String> txCalls = Collections.synchronizedList(new ArrayList<>());
        final ShimLibrary shim = kernelFramesShim(txCalls);
        final List<String> builtOn = new ArrayList<>();
        try (CaptureFile file = CaptureFile.create(dir.resolve(CaptureFile.FILE_NAME), 1 << 16,
            List.of("front", "back", "tap"), new int[] {FRONT}, new int[] {BACK}))
        {
            final CachedNanoClock clock = new CachedNanoClock();
            final WorkerCounters counters = new WorkerCounters((io, pipeline) -> { });
            final WorkerCores unpinned = core ->
            {
                throw new AssertionError("a worker of core -1 reserves no core, got " + core);
            };
            final ForwarderWorker worker = new ForwarderWorker(0, -1, unpinned, shim, FRONT, 0, BACK, 0, TAP, 0, 1,
                () ->
                {
                    try
                    {
                        return pipeline(builtOn);
                    }
                    catch (final Exception ex)
                    {
                        throw new IllegalStateException(ex);
                    }
                }, counters, clock, new CaptureTap(file, 0, FRONT, BACK));
            worker.onStart();
            worker.doWork();
            worker.onClose();
            assertEquals(List.of(FRONT + "/1 x2"), txCalls);
            assertEquals(2, counters.kernelRxPackets);
            assertTrue(builtOn.size() == 1);
        }
    }
}
