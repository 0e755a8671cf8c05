package io.sluice.common.config;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * What the configured EAL arguments say about devices and memory, read without starting EAL: the virtual devices
 * they create ({@code --vdev}), the PCI allow and block lists, {@code --no-pci}, {@code --no-huge} and the memory
 * asked for ({@code -m}, {@code --socket-mem}). EAL itself is the judge of the rest (see {@code check-config --eal}).
 *
 * @param vdevs     names of the {@code --vdev} devices, in order (the part before the first comma).
 * @param allowed   PCI addresses of {@code -a}/{@code --allow}, in full form; empty when every device is probed.
 * @param blocked   PCI addresses of {@code -b}/{@code --block}, in full form.
 * @param noPci     {@code --no-pci}: no PCI device is probed.
 * @param noHuge    {@code --no-huge}: EAL memory comes from ordinary pages.
 * @param memoryMb  the memory asked for with {@code -m} or {@code --socket-mem} (summed), in MiB; -1 when not set.
 */
public record EalArguments(
    List<String> vdevs, List<String> allowed, List<String> blocked, boolean noPci, boolean noHuge, long memoryMb)
{
    /** EAL's memory with {@code --no-huge} and no {@code -m} (MEMSIZE_IF_NO_HUGE_PAGE in DPDK's EAL). */
    public static final long NO_HUGE_DEFAULT_MEMORY_MB = 64;

    /** A PCI address as DPDK names its ports: domain:bus:device.function. */
    private static final Pattern PCI_FULL = Pattern.compile("[0-9a-fA-F]{4}:[0-9a-fA-F]{2}:[0-9a-fA-F]{2}\\.[0-7]");
    /** The short form EAL accepts on its command line (domain 0000). */
    private static final Pattern PCI_SHORT = Pattern.compile("[0-9a-fA-F]{2}:[0-9a-fA-F]{2}\\.[0-7]");

    /**
     * Copies the lists, so the record is immutable.
     */
    public EalArguments
    {
        vdevs = List.copyOf(vdevs);
        allowed = List.copyOf(allowed);
        blocked = List.copyOf(blocked);
    }

    /**
     * Reads the arguments.
     *
     * @param args EAL arguments as configured, without a program name.
     * @return what they say.
     */
    public static EalArguments parse(final List<String> args)
    {
        final List<String> vdevs = new ArrayList<>();
        final List<String> allowed = new ArrayList<>();
        final List<String> blocked = new ArrayList<>();
        boolean noPci = false;
        boolean noHuge = false;
        long memoryMb = -1;
        for (int i = 0; i < args.size(); i++)
        {
            final String arg = args.get(i);
            final String next = i + 1 < args.size() ? args.get(i + 1) : "";
            final String value;
            final String option;
            final int equals = arg.indexOf('=');
            if (arg.startsWith("--") && equals > 0)
            {
                option = arg.substring(0, equals);
                value = arg.substring(equals + 1);
            }
            else if (arg.length() > 2 && arg.charAt(0) == '-' && arg.charAt(1) != '-')
            {
                option = arg.substring(0, 2);
                value = arg.substring(2);
            }
            else if (takesValue(arg))
            {
                option = arg;
                value = next;
                i++;
            }
            else
            {
                option = arg;
                value = "";
            }
            switch (option)
            {
                case "--vdev" -> vdevs.add(deviceName(value));
                case "-a", "--allow", "-w", "--pci-whitelist" -> allowed.add(fullPci(deviceName(value)));
                case "-b", "--block", "--pci-blacklist" -> blocked.add(fullPci(deviceName(value)));
                case "--no-pci" -> noPci = true;
                case "--no-huge" -> noHuge = true;
                case "-m" -> memoryMb = megabytes(value);
                case "--socket-mem" -> memoryMb = socketMemory(value);
                default ->
                {
                    // not about devices or memory
                }
            }
        }
        return new EalArguments(vdevs, allowed, blocked, noPci, noHuge, memoryMb);
    }

    private static boolean takesValue(final String option)
    {
        return switch (option)
        {
            case "--vdev", "-a", "--allow", "-w", "--pci-whitelist", "-b", "--block", "--pci-blacklist", "-m",
                "--socket-mem", "-l", "-c", "--lcores", "--file-prefix", "-n", "--proc-type", "--iova-mode",
                "--log-level", "--huge-dir", "--base-virtaddr", "--main-lcore", "-d", "--socket-limit" -> true;
            default -> false;
        };
    }

    private static String deviceName(final String value)
    {
        final int comma = value.indexOf(',');
        return (comma < 0 ? value : value.substring(0, comma)).strip();
    }

    private static long megabytes(final String value)
    {
        try
        {
            return Long.parseLong(value.strip());
        }
        catch (final NumberFormatException ex)
        {
            return -1; // EAL refuses it itself
        }
    }

    private static long socketMemory(final String value)
    {
        long total = 0;
        for (final String part : value.split(","))
        {
            final long mb = megabytes(part);
            if (mb < 0)
            {
                return -1;
            }
            total += mb;
        }
        return total;
    }

    /**
     * Tells whether a port name is a PCI address as DPDK names PCI ports ({@code 0000:3b:00.0}).
     *
     * @param name a port name.
     * @return true for the full form.
     */
    public static boolean isPciAddress(final String name)
    {
        return PCI_FULL.matcher(name).matches();
    }

    /**
     * Tells whether a port name is the short PCI form ({@code 3b:00.0}), which EAL accepts on its command line but
     * never uses as a port name.
     *
     * @param name a port name.
     * @return true for the short form.
     */
    public static boolean isShortPciAddress(final String name)
    {
        return PCI_SHORT.matcher(name).matches();
    }

    /**
     * Tells whether a port name is one of a virtual device driver's ({@code net_pcap0}, {@code eth_pcap0}): such a
     * port exists only when a {@code --vdev} creates it.
     *
     * @param name a port name.
     * @return true for {@code net_*} and {@code eth_*} names.
     */
    public static boolean isVirtualDeviceName(final String name)
    {
        return name.startsWith("net_") || name.startsWith("eth_");
    }

    private static String fullPci(final String name)
    {
        final String lower = name.toLowerCase(Locale.ROOT);
        return isShortPciAddress(lower) ? "0000:" + lower : lower;
    }

    /**
     * Tells whether EAL, started with these arguments, probes a PCI device: not with {@code --no-pci}, not when
     * blocked, and only when allowed if there is an allow list.
     *
     * @param address the device's PCI address in full form.
     * @return null when it is probed, else why not.
     */
    public String whyNotProbed(final String address)
    {
        final String lower = address.toLowerCase(Locale.ROOT);
        if (noPci)
        {
            return "eal_args has --no-pci, so EAL probes no PCI device";
        }
        if (blocked.contains(lower))
        {
            return "eal_args blocks it (-b " + address + ")";
        }
        if (!allowed.isEmpty() && !allowed.contains(lower))
        {
            return "eal_args allows only " + String.join(", ", allowed) + " (-a): add -a " + address;
        }
        return null;
    }
}
