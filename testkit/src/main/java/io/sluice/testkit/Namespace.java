package io.sluice.testkit;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * One network namespace of a {@link NetNs} run: commands run inside it, addresses, routes and sysctls set in it,
 * background processes started in it. The namespace and everything started in it go away with the run.
 */
public final class Namespace
{
    private final NetNs owner;
    private final String name;

    Namespace(final NetNs owner, final String name)
    {
        this.owner = owner;
        this.name = name;
    }

    /**
     * Returns the namespace's name, as {@code ip netns} knows it.
     *
     * @return e.g. {@code bgp-2n9c-0-router}.
     */
    public String name()
    {
        return name;
    }

    /**
     * Returns a command line that runs a command inside this namespace ({@code ip netns exec NAME ...}), for code
     * that starts processes itself.
     *
     * @param command the program and its arguments.
     * @return the wrapped command line.
     */
    public List<String> command(final String... command)
    {
        return command(Arrays.asList(command));
    }

    /**
     * Returns a command line that runs a command inside this namespace ({@code ip netns exec NAME ...}).
     *
     * @param command the program and its arguments.
     * @return the wrapped command line.
     */
    public List<String> command(final List<String> command)
    {
        final List<String> wrapped = new ArrayList<>(List.of("ip", "netns", "exec", name));
        wrapped.addAll(command);
        return wrapped;
    }

    /**
     * Runs a command inside the namespace to completion, whatever its status.
     *
     * @param command the program and its arguments.
     * @return what it printed and its status.
     */
    public Commands.Result run(final String... command)
    {
        return Commands.run(command(command));
    }

    /**
     * Runs a command inside the namespace and returns its output.
     *
     * @param command the program and its arguments.
     * @return standard output.
     * @throws IllegalStateException when it fails, with its standard error.
     */
    public String exec(final String... command)
    {
        return run(command).checked();
    }

    /**
     * Adds an address to a device of the namespace.
     *
     * @param device the device, e.g. {@code r1}.
     * @param cidr   the address and prefix length, e.g. {@code 10.10.1.1/24}.
     */
    public void addAddress(final String device, final String cidr)
    {
        Commands.run(List.of("ip", "-n", name, "address", "add", cidr, "dev", device)).checked();
    }

    /**
     * Adds a route in the namespace.
     *
     * @param route the arguments of {@code ip route add}, e.g. {@code 10.100.0.1/32 via 10.10.1.2}.
     */
    public void addRoute(final String... route)
    {
        final List<String> command = new ArrayList<>(List.of("ip", "-n", name, "route", "add"));
        command.addAll(Arrays.asList(route));
        Commands.run(command).checked();
    }

    /**
     * Shows the namespace's routes to a destination.
     *
     * @param destination e.g. {@code 10.100.0.1}.
     * @return the output of {@code ip route show DESTINATION}, empty when there is none.
     */
    public String routes(final String destination)
    {
        return Commands.run(List.of("ip", "-n", name, "route", "show", destination)).checked().strip();
    }

    /**
     * Sets a sysctl of the namespace (the {@code net.*} ones are per namespace).
     *
     * @param key   e.g. {@code net.ipv4.fib_multipath_hash_policy}.
     * @param value e.g. {@code 1}.
     */
    public void sysctl(final String key, final String value)
    {
        exec("sysctl", "-q", "-w", key + "=" + value);
    }

    /**
     * Starts a process in the background inside the namespace, standard input from {@code /dev/null} and both
     * outputs appended to a log file. The run stops it when it closes.
     *
     * @param log     the log file.
     * @param command the program and its arguments.
     * @return the process.
     */
    public Process start(final Path log, final String... command)
    {
        return owner.start(command(command), log);
    }
}
