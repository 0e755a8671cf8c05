package io.sluice.forwarder.process;

import io.sluice.common.control.ControlChannel;
import io.sluice.common.control.ControlClient;
import io.sluice.common.counters.CounterType;
import io.sluice.common.counters.CountersFile;
import io.sluice.common.counters.CountersFileException;
import io.sluice.common.counters.CountersFileHeader;
import io.sluice.common.counters.ForwarderState;
import io.sluice.testkit.Repository;
import io.sluice.testkit.SluiceJvm;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The real forwarder ({@code ForwarderMain --config FILE}) in its own JVM, as an operator starts it: the node YAML in
 * a temporary directory, stdout and stderr captured to files, the counters read from the shared-memory file the
 * forwarder publishes, the control channel opened like the controller does, SIGTERM to stop.
 * <p>
 * Every wait is bounded and polls. {@link #close()} always leaves the machine clean: the process is killed if still
 * alive, and DPDK's runtime directory and hugepage files of this node's file prefix (only this node's) are removed.
 */
public final class ForwarderProcess implements AutoCloseable
{
    static final Duration START_TIMEOUT = Duration.ofSeconds(40);
    public static final Duration STOP_TIMEOUT = Duration.ofSeconds(30);
    static final Duration WAIT_TIMEOUT = Duration.ofSeconds(20);
    private static final long POLL_MS = 5;
    private static final List<String> JVM_FLAGS = List.of("-Xms64m", "-Xmx512m", "-XX:+UseSerialGC",
        "-XX:-UsePerfData");

    private final NodeSpec spec;
    private final Path configFile;
    private final Path stdout;
    private final Path stderr;
    private final Process process;
    private final long startNs = System.nanoTime();
    private long runningAfterMs = -1;
    private CountersFile counters;
    private ControlChannel channel;
    private ControlClient client;

    private ForwarderProcess(final NodeSpec spec, final Path configFile, final Path stdout, final Path stderr,
        final Process process)
    {
        this.spec = spec;
        this.configFile = configFile;
        this.stdout = stdout;
        this.stderr = stderr;
        this.process = process;
    }

    /**
     * Writes {@code yaml} as the node's config under {@code dir} and starts the forwarder on it; does not wait.
     *
     * @param extraJvmArgs JVM options such as {@code -Dsluice.shim.path=...}.
     */
    static ForwarderProcess launch(final NodeSpec spec, final String yaml, final Path dir,
        final String... extraJvmArgs)
    {
        return launch(List.of(), spec, yaml, dir, extraJvmArgs);
    }

    /**
     * As {@link #launch(NodeSpec, String, Path, String...)}, with the command run through {@code prefix}, e.g.
     * {@code taskset -c 0}.
     */
    static ForwarderProcess launch(final List<String> prefix, final NodeSpec spec, final String yaml, final Path dir,
        final String... extraJvmArgs)
    {
        try
        {
            final Path nodeDir = Files.createDirectories(dir.resolve(spec.name()));
            final Path config = nodeDir.resolve("node.yaml");
            Files.writeString(config, yaml);
            final List<String> command = new java.util.ArrayList<>(prefix);
            command.addAll(SluiceJvm.command());
            command.addAll(JVM_FLAGS);
            command.addAll(List.of(extraJvmArgs));
            command.add("-Dsluice.home=" + repositoryRoot());
            command.add("-cp");
            command.add(System.getProperty("java.class.path"));
            command.add("io.sluice.forwarder.ForwarderMain");
            command.add("--config");
            command.add(config.toString());
            final Path out = nodeDir.resolve("stdout.txt");
            final Path err = nodeDir.resolve("stderr.txt");
            final Process process = new ProcessBuilder(command).redirectOutput(out.toFile())
                .redirectError(err.toFile()).redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                .start();
            return new ForwarderProcess(spec, config, out, err, process);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot start the forwarder for " + spec, ex);
        }
    }

    /**
     * Returns the repository root (where {@code native/build/libsluice_shim.so} lives), found from the working
     * directory upwards; fails with the build command when the shim is missing.
     */
    public static Path repositoryRoot()
    {
        final Path root = Repository.root();
        if (!Files.isRegularFile(root.resolve("native/build/libsluice_shim.so")))
        {
            fail("the DPDK shim is not built: run make -C " + root.resolve("native") + " shim");
        }
        return root;
    }

    /**
     * Waits until the counters file exists and reports the forwarder running.
     */
    ForwarderProcess awaitRunning()
    {
        final Path file = spec.nodeDirectory().resolve(CountersFileHeader.FILE_NAME);
        final long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        while (true)
        {
            if (!process.isAlive())
            {
                fail("the forwarder exited with status " + process.exitValue() + " before running\n" + output());
            }
            if (counters == null && Files.exists(file))
            {
                try
                {
                    counters = CountersFile.openReadOnly(file);
                }
                catch (final CountersFileException ex)
                {
                    // not yet published: the file is linked into place complete, but be lenient
                }
            }
            if (counters != null &&
                values().process(CounterType.FORWARDER_STATE, -1) == ForwarderState.RUNNING.value())
            {
                runningAfterMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNs);
                return this;
            }
            if (System.nanoTime() - deadline >= 0)
            {
                fail("the forwarder was not running after " + START_TIMEOUT.toSeconds() + " s\n" + output());
            }
            sleep();
        }
    }

    /**
     * Waits for the process to end by itself and returns its exit status.
     */
    public int awaitExit(final Duration timeout)
    {
        try
        {
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS))
            {
                fail("the forwarder did not exit within " + timeout.toSeconds() + " s\n" + output());
            }
            return process.exitValue();
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(ex);
        }
    }

    /**
     * Stops the forwarder with SIGTERM and asserts a clean exit (status 0).
     *
     * @return how long the stop took, in milliseconds.
     */
    long stop()
    {
        closeClients();
        final long start = System.nanoTime();
        process.destroy();
        final int status = awaitExit(STOP_TIMEOUT);
        final long tookMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        assertEquals(0, status, "exit status after SIGTERM\n" + output());
        return tookMs;
    }

    /**
     * Reads every counter now.
     */
    CounterValues values()
    {
        if (counters == null)
        {
            throw new IllegalStateException("the forwarder is not running yet: call awaitRunning()");
        }
        return CounterValues.read(counters.reader());
    }

    /**
     * Returns a counter's value by id (which stays readable after the counter is freed).
     */
    long valueOf(final int counterId)
    {
        return counters.reader().getCounterValue(counterId);
    }

    long sum(final CounterType type)
    {
        return values().sum(type);
    }

    long rxPackets()
    {
        return sum(CounterType.RX_PACKETS);
    }

    long txPackets()
    {
        return sum(CounterType.TX_PACKETS);
    }

    long forwarded()
    {
        return sum(CounterType.FORWARDED);
    }

    /**
     * Waits until every worker has completed a counters flush that started after this call, so the values read next
     * are one consistent flush rather than a flush caught halfway.
     */
    void awaitCompleteFlush()
    {
        for (int w = 0; w < spec.workerCount(); w++)
        {
            final int worker = w;
            final long[] last = {values().worker(CounterType.DUTY_CYCLES, worker)};
            final int[] changes = {0};
            // The first change may be the flush under way; after the second, that flush has completed.
            waitUntil("worker " + worker + " flushes its counters twice", () ->
            {
                final long now = values().worker(CounterType.DUTY_CYCLES, worker);
                if (now != last[0])
                {
                    last[0] = now;
                    changes[0]++;
                }
                return changes[0] >= 2;
            });
        }
    }

    /**
     * Polls {@code condition} until it holds; fails naming {@code what}, with the counters and the process output.
     */
    void waitUntil(final String what, final BooleanSupplier condition, final Duration timeout)
    {
        final long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean())
        {
            if (!process.isAlive())
            {
                fail("the forwarder exited (status " + process.exitValue() + ") while waiting until " + what + "\n" +
                    output());
            }
            if (System.nanoTime() - deadline >= 0)
            {
                fail("timed out after " + timeout.toMillis() + " ms waiting until " + what + "\n" + values() + "\n" +
                    output());
            }
            sleep();
        }
    }

    void waitUntil(final String what, final BooleanSupplier condition)
    {
        waitUntil(what, condition, WAIT_TIMEOUT);
    }

    /**
     * Returns a control client on the node's control channel, as the controller would open it.
     */
    ControlClient control()
    {
        if (client == null)
        {
            channel = ControlChannel.open(ControlChannel.nodeFile(spec.countersDir(), spec.name()));
            client = new ControlClient(channel);
        }
        return client;
    }

    Process process()
    {
        return process;
    }

    NodeSpec spec()
    {
        return spec;
    }

    public Path configFile()
    {
        return configFile;
    }

    /**
     * Returns how long the process took from launch to reporting itself running.
     */
    long runningAfterMs()
    {
        return runningAfterMs;
    }

    String stdout()
    {
        return read(stdout);
    }

    public String stderr()
    {
        return read(stderr);
    }

    /**
     * Returns the process's output and configuration, for failure messages.
     */
    public String output()
    {
        return "---- " + spec + ", config " + configFile + "\n---- stdout:\n" + stdout() + "---- stderr:\n" +
            stderr() + "----";
    }

    /**
     * Returns the files DPDK may leave for this node's file prefix: its runtime directory and hugepage files.
     */
    public List<Path> dpdkFiles()
    {
        return DpdkFiles.of(spec.filePrefix());
    }

    /**
     * Kills the process if it still runs and removes whatever DPDK files of this node are left. Idempotent.
     */
    @Override
    public void close()
    {
        closeClients();
        if (counters != null)
        {
            counters.close();
            counters = null;
        }
        if (process.isAlive())
        {
            process.destroyForcibly();
            try
            {
                process.waitFor(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
            }
        }
        DpdkFiles.delete(spec.filePrefix());
    }

    private void closeClients()
    {
        if (channel != null)
        {
            channel.close();
            channel = null;
            client = null;
        }
    }

    private static String read(final Path file)
    {
        try
        {
            return Files.exists(file) ? Files.readString(file, StandardCharsets.UTF_8) : "";
        }
        catch (final IOException ex)
        {
            return "(cannot read " + file + ": " + ex + ")";
        }
    }

    private static void sleep()
    {
        try
        {
            Thread.sleep(POLL_MS);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", ex);
        }
    }
}
