package io.sluice.forwarder.agent;

import io.sluice.forwarder.capture.CaptureFile;
import io.sluice.forwarder.capture.CaptureTap;
import io.sluice.forwarder.dpdk.ShimLibrary;
import org.agrona.concurrent.CachedNanoClock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.lang.reflect.Proxy;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What the starting thread learns from {@link ForwarderWorker#started()}: the lcore id, or why the worker did not
 * start; a worker whose core is held registers nothing with DPDK and builds no pipeline.
 */
class ForwarderWorkerStartTest
{
    @TempDir
    Path dir;

    private final List<String> calls = new ArrayList<>();

    private ShimLibrary shim(final int lcore)
    {
        return (ShimLibrary)Proxy.newProxyInstance(ShimLibrary.class.getClassLoader(),
            new Class<?>[] {ShimLibrary.class}, (proxy, method, args) ->
            {
                calls.add(method.getName());
                if ("sluice_thread_register".equals(method.getName()))
                {
                    return lcore;
                }
                if ("sluice_strerror".equals(method.getName()))
                {
                    return "No space left on device";
                }
                final Class<?> type = method.getReturnType();
                return type == int.class ? (Object)0 : type == long.class ? (Object)0L : null;
            });
    }

    private ForwarderWorker worker(final WorkerCores cores, final ShimLibrary shim, final CaptureFile file)
    {
        return new ForwarderWorker(0, 1, cores, shim, 0, 0, 0, 0, ForwarderWorker.NO_KERNEL_PORT, 0, 0, () ->
        {
            calls.add("build pipeline");
            throw new IllegalStateException("not needed here");
        }, new WorkerCounters((io, pipeline) -> { }), new CachedNanoClock(), new CaptureTap(file, 0, 0, 0));
    }

    @Test
    void aHeldCoreStopsTheStartBeforeDpdkRegistration() throws Exception
    {
        final CoreHolder holder = new CoreHolder(1, 4242, "", "java other", Path.of("/tmp/cpu-1.lock"));
        try (CaptureFile file = CaptureFile.create(dir.resolve(CaptureFile.FILE_NAME), 1 << 16, List.of("p"),
            new int[] {0}, new int[] {0}))
        {
            final ForwarderWorker worker = worker(core ->
            {
                throw new CoreHeldException(holder);
            }, shim(3), file);

            assertThrows(CoreHeldException.class, worker::onStart);
            worker.onClose();

            final ExecutionException failed = assertThrows(ExecutionException.class, () -> worker.started().get());
            final CoreHeldException held = assertInstanceOf(CoreHeldException.class, failed.getCause());
            assertSame(holder, held.holder());
            assertTrue(held.getMessage().startsWith("core 1 is held by pid 4242 (java other)"), held.getMessage());
            assertEquals(List.of("sluice_thread_unregister"), calls, "nothing registered, no pipeline built");
        }
    }

    @Test
    void aFailedRegistrationGivesTheCoreBack() throws Exception
    {
        try (CaptureFile file = CaptureFile.create(dir.resolve(CaptureFile.FILE_NAME), 1 << 16, List.of("p"),
            new int[] {0}, new int[] {0}))
        {
            final ForwarderWorker worker = worker(core ->
            {
                calls.add("reserve " + core);
                return () -> calls.add("release " + core);
            }, shim(-28), file);

            assertThrows(IllegalStateException.class, worker::onStart);
            worker.onClose();

            final ExecutionException failed = assertThrows(ExecutionException.class, () -> worker.started().get());
            assertEquals("rx-worker-0: cannot register with DPDK: No space left on device",
                failed.getCause().getMessage());
            assertEquals(List.of("reserve 1", "sluice_thread_register", "sluice_strerror", "sluice_thread_unregister",
                "release 1"), calls);
        }
    }
}
