package io.sluice.tools.check;

import io.sluice.forwarder.Forwarder;
import io.sluice.forwarder.PortCheck;
import io.sluice.common.config.ConfigException;
import io.sluice.common.config.NodeCheck;
import io.sluice.common.config.NodeConfig;
import io.sluice.forwarder.dpdk.Dpdk;
import io.sluice.forwarder.dpdk.DpdkException;
import io.sluice.forwarder.dpdk.ShimLibrary;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code sluice check-config [--cores N] [--eal] FILE} as the forwarder's build runs it: everything
 * {@link ConfigCheck} does, and with {@code --eal} EAL started with the arguments the forwarder would use (no
 * workers, no port configured or started), every configured port looked up and checked against its device
 * ({@link PortCheck}), then EAL released.
 * <p>
 * Exit status: 0 when the file is valid and every port is as configured, 2 with {@code FILE: FIELD: REASON} when
 * not (EAL refusing its arguments counts: {@code forwarder.eal_args}), 1 when DPDK cannot be loaded or the node's
 * forwarder runs (a second EAL would open its devices), 64 on a usage error.
 */
public final class EalCheck
{
    private EalCheck()
    {
    }

    /**
     * Runs the check and exits with its status.
     *
     * @param args {@code [--cores N] [--eal] FILE}.
     */
    public static void main(final String[] args)
    {
        final int status = run(args, System.out, System.err);
        System.out.flush();
        System.err.flush();
        Runtime.getRuntime().halt(status);
    }

    static int run(final String[] args, final PrintStream out, final PrintStream err)
    {
        try
        {
            return ConfigCheck.run(args, out, err, EalCheck::check);
        }
        catch (final DpdkException ex)
        {
            out.flush();
            err.println("check-config: " + ex.getMessage());
            return 1;
        }
    }

    static void check(final String file, final NodeConfig config, final PrintStream out) throws ConfigException
    {
        if (NodeCheck.forwarderRunning(config))
        {
            throw new DpdkException("node " + config.node().name() + "'s forwarder is running: --eal would start a " +
                "second EAL on its devices; check without --eal, or stop the forwarder first", 0);
        }
        final Dpdk dpdk = Dpdk.load();
        final List<String> args = Forwarder.ealArguments(config);
        try
        {
            dpdk.initEal(args);
        }
        catch (final DpdkException ex)
        {
            throw new ConfigException(file, "forwarder.eal_args", "EAL refused them: " + ex.getMessage());
        }
        final ShimLibrary shim = dpdk.library();
        final List<PortCheck.Device> devices = new ArrayList<>();
        try
        {
            final List<String> notes = new ArrayList<>();
            devices.addAll(PortCheck.check(shim, file, config, notes));
            out.printf("eal: %s started with %s%n", dpdk.version(), String.join(" ", args));
            for (int i = 0; i < devices.size(); i++)
            {
                final PortCheck.Device device = devices.get(i);
                final String name = config.forwarder().ports().get(i).name();
                out.printf("  port %-16s id %d, %s: rx queues %d of %d, tx queues %d of %d, mtu %d in %d..%d, RSS %s%n",
                    name, device.id(), device.driver(), Math.max(1, config.forwarder().rxQueueCount(name)),
                    device.maxRxQueues(), Math.max(1, config.forwarder().txQueueCount(name)), device.maxTxQueues(),
                    config.forwarder().ports().get(i).mtu(), device.minMtu(), device.maxMtu(),
                    device.rss() ? "yes" : "no");
            }
            notes.forEach(note -> out.println("  note: " + note));
            out.println("eal: every port is there and can do what the config asks");
        }
        finally
        {
            for (final PortCheck.Device device : devices)
            {
                shim.sluice_port_close(device.id());
            }
            dpdk.cleanupEal();
        }
    }
}
