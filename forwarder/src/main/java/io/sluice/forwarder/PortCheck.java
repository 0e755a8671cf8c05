package io.sluice.forwarder;

import io.sluice.common.config.ConfigException;
import io.sluice.common.config.EalArguments;
import io.sluice.common.config.ForwarderConfig;
import io.sluice.common.config.NodeConfig;
import io.sluice.common.config.PortConfig;
import io.sluice.common.config.WorkerConfig;
import io.sluice.forwarder.dpdk.ShimLibrary;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Checks every configured port against the device EAL made of it, before anything is configured: that it exists,
 * that it has the receive and transmit queues the workers need, that its MTU range holds the port's {@code mtu};
 * notes (without refusing) a device that cannot spread flows over several queues by RSS, and rings above the
 * device's limit (DPDK clamps them). {@code check-config --eal} and the forwarder at start run it alike.
 */
public final class PortCheck
{
    private static final int DRIVER_NAME_CAPACITY = 64;

    /**
     * What a device can do, as {@code sluice_port_info} reports it.
     *
     * @param id          the port id.
     * @param driver      the driver's name, e.g. {@code net_pcap}.
     * @param maxRxQueues receive queues at most.
     * @param maxTxQueues transmit queues at most.
     * @param minMtu      smallest MTU.
     * @param maxMtu      largest MTU.
     * @param rxDescMax   descriptors per receive queue at most.
     * @param txDescMax   descriptors per transmit queue at most.
     * @param rss         whether it hashes IP/TCP/UDP flows over its queues.
     */
    public record Device(int id, String driver, int maxRxQueues, int maxTxQueues, int minMtu, int maxMtu, int rxDescMax,
        int txDescMax, boolean rss)
    {
    }

    private PortCheck()
    {
    }

    /**
     * Checks the ports of an initialised EAL.
     *
     * @param shim   the DPDK binding, EAL initialised.
     * @param file   the config file, for messages.
     * @param config the config.
     * @param notes  where findings that do not stop the forwarder go, one line each.
     * @return the devices, in the order of {@code forwarder.ports}.
     * @throws ConfigException naming {@code forwarder.ports[i].name}, {@code .mtu} or {@code forwarder.workers}.
     */
    public static List<Device> check(final ShimLibrary shim, final String file, final NodeConfig config,
        final List<String> notes) throws ConfigException
    {
        final ForwarderConfig forwarder = config.forwarder();
        final EalArguments eal = EalArguments.parse(forwarder.ealArgs());
        final List<Device> devices = new ArrayList<>();
        for (int i = 0; i < forwarder.ports().size(); i++)
        {
            final PortConfig port = forwarder.ports().get(i);
            final String field = "forwarder.ports[" + i + "]";
            final int id = shim.sluice_port_by_name(port.name());
            if (id < 0)
            {
                throw new ConfigException(file, field + ".name", "no DPDK port named " + port.name() + ": " +
                    whyMissing(port.name(), eal, shim.sluice_port_count()));
            }
            final Device device = device(shim, id, port.name(), file, field);
            final int rxQueues = Math.max(1, forwarder.rxQueueCount(port.name()));
            final int txQueues = Math.max(1, forwarder.txQueueCount(port.name()));
            if (rxQueues > device.maxRxQueues() || txQueues > device.maxTxQueues())
            {
                throw new ConfigException(file, "forwarder.workers", "port " + port.name() + " needs " + rxQueues +
                    " receive and " + txQueues + " transmit queue(s), one per worker, but its device (" +
                    device.driver() + ") has at most " + device.maxRxQueues() + " and " + device.maxTxQueues() +
                    (device.driver().contains("pcap") ? " (net_pcap has one queue per rx_pcap=/tx_pcap= argument)" :
                        "") + ": use fewer workers on it" + (hasReturnQueues(forwarder, port.name()) ?
                        " (a worker that receives there and transmits elsewhere needs a transmit queue there for its " +
                        "ICMP replies" + (port.hasKernelPort() ? " and kernel frames" : "; icmp_echo: {mode: kernel} " +
                        "and icmp_too_big: {mode: drop} need none") + ")" : ""));
            }
            if (port.mtu() < device.minMtu() || port.mtu() > device.maxMtu())
            {
                throw new ConfigException(file, field + ".mtu", "mtu " + port.mtu() + " is outside what " +
                    port.name() + " (" + device.driver() + ") takes: " + device.minMtu() + ".." + device.maxMtu());
            }
            if (rxQueues > 1 && forwarder.servedBy(port.name()) == null && !device.rss())
            {
                notes.add("port " + port.name() + ": " + rxQueues + " receive queues, but its device (" +
                    device.driver() + ") cannot spread flows over them by RSS: each queue gets what the driver puts " +
                    "there");
            }
            if (port.rxRing() > device.rxDescMax() || port.txRing() > device.txDescMax())
            {
                notes.add("port " + port.name() + ": rings of " + port.rxRing() + "/" + port.txRing() +
                    " descriptors exceed the device's " + device.rxDescMax() + "/" + device.txDescMax() +
                    "; DPDK uses those");
            }
            devices.add(device);
        }
        return devices;
    }

    private static Device device(final ShimLibrary shim, final int id, final String name, final String file,
        final String field) throws ConfigException
    {
        final int[] info = new int[7];
        final byte[] driver = new byte[DRIVER_NAME_CAPACITY];
        final int result = shim.sluice_port_info(id, info, info.length, driver, driver.length);
        if (result < 0)
        {
            throw new ConfigException(file, field + ".name", "cannot read the limits of port " + name + ": " +
                shim.sluice_strerror(result));
        }
        int length = 0;
        while (length < driver.length && driver[length] != 0)
        {
            length++;
        }
        return new Device(id, new String(driver, 0, length, StandardCharsets.US_ASCII), info[0], info[1], info[2],
            info[3], info[4], info[5], info[6] != 0);
    }

    private static String whyMissing(final String name, final EalArguments eal, final int portCount)
    {
        if (eal.vdevs().contains(name))
        {
            return "EAL did not create its --vdev (its arguments failed: EAL's messages above say why)";
        }
        if (EalArguments.isPciAddress(name))
        {
            return "EAL found no such PCI device for DPDK (is it bound to vfio-pci? dpdk-devbind.py --status)";
        }
        return "EAL made " + portCount + " port(s), none of that name (a --vdev or a PCI address in " +
            "forwarder.eal_args makes one)";
    }

    // Whether a worker that transmits elsewhere has a transmit queue on this port (ForwarderConfig.returnQueue).
    private static boolean hasReturnQueues(final ForwarderConfig forwarder, final String portName)
    {
        for (int i = 0; i < forwarder.workers().size(); i++)
        {
            final WorkerConfig worker = forwarder.workers().get(i);
            if (worker.receivesFrom(portName) && !worker.txPort().equals(portName) &&
                forwarder.returnQueue(i, portName) >= 0)
            {
                return true;
            }
        }
        return false;
    }
}
