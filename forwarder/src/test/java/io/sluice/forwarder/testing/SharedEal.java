package io.sluice.forwarder.testing;

import io.sluice.forwarder.dpdk.Dpdk;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * The one EAL of the test JVM: DPDK's EAL starts once per process and cannot start again after a cleanup, so every
 * in-JVM DPDK test class shares it, each on net_ring loopback ports of its own ({@link #BINDING_PORT} for the
 * binding test, {@link #WORKER_RX_PORT} and {@link #WORKER_TX_PORT} for worker tests) and with pools of its own.
 * EAL lives until the JVM exits; a shutdown hook removes its runtime directory ({@code /var/run/dpdk/<prefix>}, what
 * {@code rte_eal_cleanup} would remove), as EAL cannot be cleaned up while another test class may still need it.
 */
public final class SharedEal
{
    public static final String BINDING_PORT = "net_ring0";
    public static final String WORKER_RX_PORT = "net_ring1";
    public static final String WORKER_TX_PORT = "net_ring2";

    private static Dpdk dpdk;

    private SharedEal()
    {
    }

    /**
     * Starts EAL on its first call and returns the binding.
     *
     * @return the DPDK binding with EAL initialised.
     */
    public static synchronized Dpdk start()
    {
        if (dpdk == null)
        {
            final Dpdk loaded = Dpdk.load();
            final String prefix = "sluice-test-jvm-" + ProcessHandle.current().pid();
            loaded.initEal(List.of("-l", "0", "--no-pci", "--no-huge", "-m", "256", "--no-telemetry",
                "--log-level=warning", "--file-prefix=" + prefix, "--vdev=" + BINDING_PORT,
                "--vdev=" + WORKER_RX_PORT, "--vdev=" + WORKER_TX_PORT));
            dpdk = loaded;
            Runtime.getRuntime().addShutdownHook(new Thread(() -> removeRuntimeDirectory(prefix), "eal-files"));
        }
        return dpdk;
    }

    private static void removeRuntimeDirectory(final String prefix)
    {
        final String xdg = System.getenv("XDG_RUNTIME_DIR");
        final Path base = "root".equals(System.getProperty("user.name")) || xdg == null ?
            Path.of("/var/run/dpdk") : Path.of(xdg, "dpdk");
        final Path runtime = base.resolve(prefix);
        if (!Files.isDirectory(runtime))
        {
            return;
        }
        try (Stream<Path> files = Files.walk(runtime))
        {
            files.sorted(Comparator.reverseOrder()).forEach(file -> file.toFile().delete());
        }
        catch (final IOException ignored)
        {
            // nothing more to do at JVM exit
        }
    }
}
