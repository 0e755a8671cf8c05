package io.sluice.testkit;

import java.io.File;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Pattern;

/**
 * A test run's network namespaces, the veth pairs between them and the processes started in them (root needed).
 *
 * <p>Names are unique per run: {@code PREFIX-PID-RUN-ROLE} with the JVM's pid and the run's number in base 36, e.g.
 * {@code bgp-2n9c-0-router}. Veth ends are created directly inside their namespaces, so their names only need to be
 * unique within a namespace and can stay short ({@code r1}, {@code lb1}); they disappear with the namespaces.
 *
 * <p>{@link #close()} stops every process started through the run, kills whatever else still runs in its namespaces
 * and deletes them, also after a failed test. Creating a run first deletes the namespaces of earlier runs with the
 * same prefix whose JVM is gone (a crashed or killed test), so leftovers never pile up.
 */
public final class NetNs implements AutoCloseable
{
    /**
     * The longest interface name Linux accepts ({@code IFNAMSIZ - 1}).
     */
    public static final int MAX_INTERFACE_NAME = 15;

    private static final Pattern PREFIX = Pattern.compile("[a-z]{1,4}");
    private static final Pattern ROLE = Pattern.compile("[a-z0-9][a-z0-9-]{0,23}");
    private static final Pattern INTERFACE = Pattern.compile("[a-zA-Z0-9][a-zA-Z0-9_.-]{0,14}");
    private static final AtomicInteger RUNS = new AtomicInteger();

    private final String tag;
    private final List<Namespace> namespaces = new ArrayList<>();
    private final List<Process> processes = new ArrayList<>();
    private boolean closed;

    private NetNs(final String tag)
    {
        this.tag = tag;
    }

    /**
     * Starts a run, after deleting the leftovers of dead earlier runs with the same prefix.
     *
     * @param prefix one to four lower-case letters naming the kind of test, e.g. {@code bgp}.
     * @return the run.
     */
    public static NetNs create(final String prefix)
    {
        if (!PREFIX.matcher(prefix).matches())
        {
            throw new IllegalArgumentException("prefix must be 1-4 lower-case letters: " + prefix);
        }
        removeLeftovers(prefix);
        final long pid = ProcessHandle.current().pid();
        return new NetNs(prefix + "-" + Long.toString(pid, 36) + "-" + Integer.toString(RUNS.getAndIncrement(), 36));
    }

    /**
     * Deletes the namespaces of earlier runs with a prefix whose owning JVM no longer runs, and kills what still
     * runs inside them.
     *
     * @param prefix the runs' prefix.
     * @return the names of the namespaces deleted.
     */
    public static List<String> removeLeftovers(final String prefix)
    {
        final List<String> removed = new ArrayList<>();
        for (final String name : namespaceNames())
        {
            final Optional<Long> owner = ownerPid(prefix, name);
            if (owner.isPresent() && !isLiveJvm(owner.get()))
            {
                final List<String> problems = new ArrayList<>();
                delete(name, problems);
                if (problems.isEmpty())
                {
                    removed.add(name);
                }
                else
                {
                    System.err.println("NetNs: cannot remove leftover namespace " + name + ": " + problems);
                }
            }
        }
        return removed;
    }

    /**
     * Returns this run's unique tag, the start of all its names.
     *
     * @return e.g. {@code bgp-2n9c-0}.
     */
    public String tag()
    {
        return tag;
    }

    /**
     * Creates a namespace with its loopback up.
     *
     * @param role what the namespace plays, e.g. {@code router} or {@code lb1}.
     * @return the namespace.
     */
    public synchronized Namespace namespace(final String role)
    {
        checkOpen();
        if (!ROLE.matcher(role).matches())
        {
            throw new IllegalArgumentException("role must be lower-case letters, digits and dashes: " + role);
        }
        final String name = tag + "-" + role;
        Commands.run(List.of("ip", "netns", "add", name)).checked();
        final Namespace namespace = new Namespace(this, name);
        namespaces.add(namespace);
        Commands.run(List.of("ip", "-n", name, "link", "set", "lo", "up")).checked();
        return namespace;
    }

    /**
     * Creates a veth pair between two namespaces of this run, both ends up.
     *
     * @param a     one namespace.
     * @param nameA the end's name in {@code a}, at most 15 characters.
     * @param b     the other namespace.
     * @param nameB the end's name in {@code b}, at most 15 characters.
     */
    public synchronized void veth(final Namespace a, final String nameA, final Namespace b, final String nameB)
    {
        checkOpen();
        checkMine(a);
        checkMine(b);
        checkInterfaceName(nameA);
        checkInterfaceName(nameB);
        Commands.run(List.of("ip", "link", "add", nameA, "netns", a.name(), "type", "veth",
            "peer", "name", nameB, "netns", b.name())).checked();
        Commands.run(List.of("ip", "-n", a.name(), "link", "set", nameA, "up")).checked();
        Commands.run(List.of("ip", "-n", b.name(), "link", "set", nameB, "up")).checked();
    }

    /**
     * Stops every process this run started, kills anything else left in its namespaces and deletes them. Safe to
     * call more than once.
     *
     * @throws IllegalStateException after trying everything, when something could not be cleaned up.
     */
    @Override
    public synchronized void close()
    {
        if (closed)
        {
            return;
        }
        closed = true;
        final List<String> problems = new ArrayList<>();
        for (final Process process : processes)
        {
            if (!Commands.stop(process.toHandle(), Duration.ofSeconds(2)))
            {
                problems.add("process " + process.pid() + " did not exit");
            }
        }
        processes.clear();
        for (int i = namespaces.size() - 1; i >= 0; i--)
        {
            delete(namespaces.get(i).name(), problems);
        }
        namespaces.clear();
        if (!problems.isEmpty())
        {
            throw new IllegalStateException("NetNs " + tag + " cleanup: " + String.join("; ", problems));
        }
    }

    synchronized Process start(final List<String> command, final Path log)
    {
        checkOpen();
        try
        {
            final Process process = new ProcessBuilder(command)
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                .redirectErrorStream(true)
                .start();
            processes.add(process);
            return process;
        }
        catch (final IOException ex)
        {
            throw new IllegalStateException("cannot start " + String.join(" ", command), ex);
        }
    }

    /**
     * Returns the pid of the JVM that created a namespace of a run with a prefix.
     *
     * @param prefix    the runs' prefix.
     * @param namespace a namespace name.
     * @return the pid, empty when the name is not one of such a run's.
     */
    static Optional<Long> ownerPid(final String prefix, final String namespace)
    {
        final String[] parts = namespace.split("-", 4);
        if (parts.length < 4 || !parts[0].equals(prefix))
        {
            return Optional.empty();
        }
        try
        {
            return Optional.of(Long.parseLong(parts[1], 36));
        }
        catch (final NumberFormatException ex)
        {
            return Optional.empty();
        }
    }

    private static boolean isLiveJvm(final long pid)
    {
        final Optional<ProcessHandle> handle = ProcessHandle.of(pid);
        // A live process that is not a JVM holds a reused pid: the run that owned the name is gone.
        return handle.isPresent() && handle.get().isAlive() &&
            handle.get().info().command().map(command -> command.endsWith("java")).orElse(true);
    }

    private static List<String> namespaceNames()
    {
        final List<String> names = new ArrayList<>();
        for (final String line : Commands.run(List.of("ip", "netns", "list")).checked().split("\n"))
        {
            final String name = line.strip().split("\\s+")[0];
            if (!name.isEmpty())
            {
                names.add(name);
            }
        }
        return names;
    }

    private static void delete(final String namespace, final List<String> problems)
    {
        try
        {
            final Commands.Result pids = Commands.run(List.of("ip", "netns", "pids", namespace));
            for (final String pid : pids.stdout().split("\\s+"))
            {
                if (!pid.isEmpty())
                {
                    ProcessHandle.of(Long.parseLong(pid)).ifPresent(handle ->
                    {
                        if (!Commands.stop(handle, Duration.ofSeconds(1)))
                        {
                            problems.add("process " + pid + " in " + namespace + " did not exit");
                        }
                    });
                }
            }
            final Commands.Result deleted = Commands.run(List.of("ip", "netns", "delete", namespace));
            if (deleted.exitCode() != 0)
            {
                problems.add("ip netns delete " + namespace + ": " + deleted.stderr().strip());
            }
        }
        catch (final RuntimeException ex)
        {
            problems.add(namespace + ": " + ex.getMessage());
        }
    }

    private void checkOpen()
    {
        if (closed)
        {
            throw new IllegalStateException("NetNs " + tag + " is closed");
        }
    }

    private void checkMine(final Namespace namespace)
    {
        if (!namespaces.contains(namespace))
        {
            throw new IllegalArgumentException(namespace.name() + " is not a namespace of run " + tag);
        }
    }

    private static void checkInterfaceName(final String name)
    {
        if (!INTERFACE.matcher(name).matches())
        {
            throw new IllegalArgumentException("interface name must be 1-" + MAX_INTERFACE_NAME +
                " letters, digits, '_', '.' or '-': " + name);
        }
    }
}
