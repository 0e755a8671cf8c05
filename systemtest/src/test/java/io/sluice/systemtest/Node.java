package io.sluice.systemtest;

import io.sluice.testkit.Commands;
import io.sluice.testkit.Namespace;
import io.sluice.testkit.Repository;
import io.sluice.testkit.SluiceJvm;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * One Sluice node in a namespace: its config file, and its forwarder and controller as real processes (the JVM of
 * this test's classpath, run with {@code ip netns exec}).
 */
final class Node
{
    private static final List<String> JVM_FLAGS = List.of("-Xmx256m");

    private final String name;
    private final Namespace namespace;
    private final Path directory;
    private final Path config;
    private Process forwarder;
    private Process controller;
    private int controllerStarts;
    private int forwarderStarts;

    Node(final String name, final Namespace namespace, final Path directory, final String yaml)
    {
        this.name = name;
        this.namespace = namespace;
        this.directory = directory;
        try
        {
            Files.createDirectories(directory);
            config = directory.resolve("node.yaml");
            Files.writeString(config, yaml);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    /**
     * A name unique to this test JVM, PREFIX and the pid in base 36: namespaces, shared memory and EAL file prefixes
     * of runs side by side never meet.
     */
    static String uniqueName(final String prefix)
    {
        return prefix + Long.toString(ProcessHandle.current().pid(), 36);
    }

    String name()
    {
        return name;
    }

    /** Stops the controller, then the forwarder (SIGTERM, SIGKILL after 15 s), each only if it was started. */
    void stopProcesses()
    {
        for (final Process process : new Process[] {controller, forwarder})
        {
            if (process != null)
            {
                Commands.stop(process.toHandle(), Duration.ofSeconds(15));
            }
        }
    }

    Namespace namespace()
    {
        return namespace;
    }

    Process forwarder()
    {
        return forwarder;
    }

    Process controller()
    {
        return controller;
    }

    Process startForwarder()
    {
        forwarder = namespace.start(directory.resolve("forwarder-" + forwarderStarts++ + ".log"),
            java("io.sluice.forwarder.ForwarderMain", "--config", config.toString()));
        return forwarder;
    }

    /** Replaces the config file the next start reads (a restart with new options). */
    void rewriteConfig(final String yaml)
    {
        try
        {
            Files.writeString(config, yaml);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    Process startController()
    {
        controller = namespace.start(directory.resolve("controller-" + controllerStarts++ + ".log"),
            java("io.sluice.controller.ControllerMain", "--config", config.toString()));
        return controller;
    }

    /** Asks the controller, inside the namespace, over its localhost HTTP endpoint. */
    String http(final String path)
    {
        final Commands.Result result = namespace.run("curl", "-s", "--max-time", "5", "http://127.0.0.1:9100" + path);
        return result.exitCode() == 0 ? result.stdout() : "(curl exit " + result.exitCode() + ")";
    }

    /** Runs a ControllerTool command (status, drain, ...) inside the namespace. */
    Commands.Result tool(final String... args)
    {
        final List<String> command = new ArrayList<>(List.of("io.sluice.tools.controller.ControllerTool"));
        command.addAll(List.of(args));
        command.addAll(List.of("--config", config.toString()));
        return Commands.run(Duration.ofSeconds(60), namespace.command(java(command.toArray(String[]::new))));
    }

    String logs()
    {
        final StringBuilder text = new StringBuilder();
        try (var files = Files.list(directory))
        {
            for (final Path file : files.filter(path -> path.toString().endsWith(".log")).sorted().toList())
            {
                text.append("---- ").append(name).append(' ').append(file.getFileName()).append('\n')
                    .append(Files.readString(file, StandardCharsets.UTF_8));
            }
        }
        catch (final IOException ex)
        {
            text.append("(cannot read logs: ").append(ex).append(")\n");
        }
        return text.toString();
    }

    private static String[] java(final String... mainAndArgs)
    {
        final List<String> command = SluiceJvm.command();
        command.addAll(JVM_FLAGS);
        command.add("-Dsluice.home=" + repositoryRoot());
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.addAll(List.of(mainAndArgs));
        return command.toArray(String[]::new);
    }

    static Path repositoryRoot()
    {
        return Repository.root();
    }
}
