package io.sluice.controller.bgp;

import io.sluice.common.CreatedDirectories;
import io.sluice.common.OwnerProcess;
import io.sluice.common.config.ExaBgpConfig;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The ExaBGP process of a node: writes its configuration and the relay into the node directory, starts it detached
 * from the controller, restarts it when it dies, and stops it on request.
 *
 * <p>Detached means a new session ({@code setsid}), standard input from {@code /dev/null} and output appended to
 * {@code exabgp.log}: a controller that crashes or restarts leaves ExaBGP and its routes up (the relay withdraws
 * them after its orphan timeout if no controller comes back). A pid file names the running ExaBGP, and the next
 * controller adopts it instead of starting a second one, unless the configuration changed, which needs a restart.
 *
 * <p>With {@code external: true} the files are written and nothing is started or stopped. Polled from the
 * controller's duty cycle; only {@link #stop()} blocks (up to {@link #STOP_GRACE_MS} plus a moment).
 */
public final class ExaBgpSidecar implements AutoCloseable
{
    /**
     * The relay's classpath resource name, next to this class.
     */
    public static final String RELAY_RESOURCE = "sluice-exabgp-relay.py";

    /**
     * How long ExaBGP gets to close its sessions after SIGTERM before SIGKILL.
     */
    public static final long STOP_GRACE_MS = 5_000;

    private static final long NO_RESTART = Long.MIN_VALUE;
    private static final int ADOPT_ATTEMPTS = 50;

    private final ExaBgpConfig config;
    private final ExaBgpFiles files;
    private final RestartBackoff backoff = new RestartBackoff();
    private final List<String> log = new ArrayList<>();
    private Process started;
    private ProcessHandle running;
    private long startedMs;
    private long restartAtMs = NO_RESTART;
    private int restarts;

    private ExaBgpSidecar(final ExaBgpConfig config, final ExaBgpFiles files)
    {
        this.config = config;
        this.files = files;
    }

    /**
     * Writes {@code exabgp.conf} and the relay into the node directory, then adopts the ExaBGP its pid file names
     * if that one still runs with the same configuration, or starts one (unless external).
     *
     * @param config        how ExaBGP runs: external, or the command that starts it (split on blanks, e.g.
     *                      {@code ip netns exec lb1 exabgp}); the configuration file is its last argument.
     * @param nodeDirectory the node directory.
     * @param configText    the configuration, from {@link ExaBgpConfigWriter}.
     * @param nowMs         the time.
     * @return the sidecar.
     * @throws IOException when the files cannot be written.
     */
    public static ExaBgpSidecar start(
        final ExaBgpConfig config, final Path nodeDirectory, final String configText, final long nowMs)
        throws IOException
    {
        final ExaBgpSidecar sidecar = new ExaBgpSidecar(config, new ExaBgpFiles(nodeDirectory));
        sidecar.begin(configText, nowMs);
        return sidecar;
    }

    /**
     * Notices a dead ExaBGP and restarts it when its backoff delay has passed.
     *
     * @param nowMs the time.
     * @return work done: 1 when something was noticed or started.
     */
    public int poll(final long nowMs)
    {
        if (config.external())
        {
            return 0;
        }
        if (running != null && !isRunning())
        {
            final String status = started != null ? " with status " + started.exitValue() : "";
            final long delayMs = backoff.onDeath(startedMs, nowMs);
            log.add("BGP: ExaBGP (pid " + running.pid() + ") exited" + status + "; restarting it in " +
                delayMs / 1000.0 + " s");
            started = null;
            running = null;
            restartAtMs = nowMs + delayMs;
            return 1;
        }
        if (running == null && restartAtMs != NO_RESTART && nowMs - restartAtMs >= 0)
        {
            restarts++;
            launch(nowMs);
            return 1;
        }
        return 0;
    }

    /**
     * Tells whether the ExaBGP this sidecar manages runs.
     *
     * @return false when external, stopped, or waiting to restart.
     */
    public boolean isRunning()
    {
        // A child's Process knows its exit status once it says it is dead; ask it rather than the bare handle.
        // An adopted ExaBGP is not our child: once dead it may stay a zombie until its parent waits for it.
        return started != null ? started.isAlive() : running != null && OwnerProcess.isRunning(running);
    }

    /**
     * Returns the running ExaBGP's pid.
     *
     * @return the pid, or -1 when none runs (or it is external).
     */
    public long pid()
    {
        return running == null ? -1 : running.pid();
    }

    /**
     * Returns how many times ExaBGP was started again after it died.
     *
     * @return the count.
     */
    public int restarts()
    {
        return restarts;
    }

    /**
     * Returns the files in the node directory.
     *
     * @return the paths.
     */
    public ExaBgpFiles files()
    {
        return files;
    }

    /**
     * Describes the sidecar for status.
     *
     * @return e.g. {@code ExaBGP pid 123} or {@code ExaBGP external}.
     */
    public String state()
    {
        if (config.external())
        {
            return "ExaBGP external (config " + files.config() + ")";
        }
        if (running != null)
        {
            return "ExaBGP pid " + running.pid();
        }
        return restartAtMs == NO_RESTART ? "ExaBGP stopped" : "ExaBGP down, restart pending";
    }

    /**
     * Returns log lines since the last call (starts, adoptions, deaths, stops), and forgets them.
     *
     * @return lines, oldest first.
     */
    public List<String> drainLog()
    {
        final List<String> drained = List.copyOf(log);
        log.clear();
        return drained;
    }

    /**
     * Stops ExaBGP: SIGTERM, up to {@link #STOP_GRACE_MS} for it to close its sessions, then SIGKILL; removes the
     * pid file. Its routes are withdrawn as its sessions close. Does nothing when external.
     */
    public void stop()
    {
        restartAtMs = NO_RESTART;
        if (config.external() || running == null)
        {
            return;
        }
        final ProcessHandle process = running;
        started = null;
        running = null;
        ProcessControl.terminate(process, STOP_GRACE_MS);
        log.add("BGP: ExaBGP (pid " + process.pid() + ") stopped");
        try
        {
            Files.deleteIfExists(files.pid());
        }
        catch (final IOException ex)
        {
            log.add("BGP: cannot remove " + files.pid() + ": " + ex);
        }
    }

    /**
     * Leaves ExaBGP running and its pid file in place for the next controller to adopt, and stops managing it.
     */
    public void detach()
    {
        restartAtMs = NO_RESTART;
        if (running != null)
        {
            log.add("BGP: leaving ExaBGP (pid " + running.pid() + ") running");
        }
        started = null;
        running = null;
    }

    /**
     * Stops ExaBGP, as {@link #stop()}.
     */
    @Override
    public void close()
    {
        stop();
    }

    private void begin(final String configText, final long nowMs) throws IOException
    {
        CreatedDirectories.create(files.directory());
        writeAtomically(files.relay(), ExaBgpConfigWriter.resource(RELAY_RESOURCE), "rw-r--r--");
        final boolean configChanged = !Files.exists(files.config()) ||
            !Files.readString(files.config(), StandardCharsets.UTF_8).equals(configText);
        // The configuration may hold TCP MD5 passwords: readable by the controller's user (and ExaBGP) only.
        writeAtomically(files.config(), configText, "rw-------");
        if (config.external())
        {
            log.add("BGP: ExaBGP runs externally; its configuration is " + files.config());
            return;
        }
        final Optional<ProcessHandle> adopted = livePidFileProcess();
        if (adopted.isPresent() && !configChanged)
        {
            running = adopted.get();
            startedMs = nowMs;
            log.add("BGP: adopted the running ExaBGP (pid " + running.pid() + ")");
            return;
        }
        if (adopted.isPresent())
        {
            log.add("BGP: configuration changed; restarting ExaBGP (pid " + adopted.get().pid() + ")");
            ProcessControl.terminate(adopted.get(), STOP_GRACE_MS);
        }
        launch(nowMs);
    }

    private void launch(final long nowMs)
    {
        final List<String> command = command();
        restartAtMs = NO_RESTART;
        try
        {
            final ProcessBuilder builder = new ProcessBuilder(command)
                .directory(files.directory().toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                .redirectOutput(ProcessBuilder.Redirect.appendTo(files.log().toFile()))
                .redirectErrorStream(true);
            environment(builder.environment());
            started = builder.start();
            running = started.toHandle();
            startedMs = nowMs;
            Files.writeString(files.pid(), running.pid() + "\n");
            log.add("BGP: started ExaBGP (pid " + running.pid() + "): " + String.join(" ", command) +
                ", log " + files.log());
        }
        catch (final IOException ex)
        {
            final long delayMs = backoff.onDeath(nowMs, nowMs);
            log.add("BGP: cannot start ExaBGP (" + String.join(" ", command) + "): " + ex.getMessage() +
                "; trying again in " + delayMs / 1000.0 + " s");
            restartAtMs = nowMs + delayMs;
        }
    }

    /**
     * Returns the command line: {@code setsid} (when installed) so ExaBGP gets a session of its own and no
     * terminal signal meant for the controller, then the configured command, then the configuration file.
     */
    private List<String> command()
    {
        final List<String> command = new ArrayList<>();
        if (Files.isExecutable(Path.of("/usr/bin/setsid")))
        {
            command.add("/usr/bin/setsid");
        }
        command.addAll(Arrays.asList(config.command().strip().split("\\s+")));
        command.add(files.config().toString());
        return command;
    }

    /**
     * Sets ExaBGP 4.2's environment. ExaBGP reads {@code exabgp.section.option} and, failing that,
     * {@code exabgp_section_option}; the underscore form is set because a shell wrapper in the command drops names
     * with dots, and an inherited dotted name is removed because it would win.
     *
     * <p>The named-pipe CLI is off: with it on, ExaBGP looks for {@code /run/exabgp/exabgp.{in,out}} and, if another
     * ExaBGP made them, would share them; and an inherited {@code exabgp_cli_pipe} turns ExaBGP into the CLI client
     * instead of the daemon. Acks stay on: they tell the controller its routes are current.
     */
    static void environment(final Map<String, String> environment)
    {
        environment.remove("exabgp_cli_pipe");
        environment.remove("exabgp_api_pipename");
        set(environment, "exabgp.daemon.user", System.getProperty("user.name", "root"));
        set(environment, "exabgp.daemon.daemonize", "false");
        set(environment, "exabgp.api.cli", "false");
        set(environment, "exabgp.api.ack", "true");
        set(environment, "exabgp.api.respawn", "true");
        set(environment, "exabgp.log.destination", "stdout");
        environment.put("PYTHONUNBUFFERED", "1");
    }

    private static void set(final Map<String, String> environment, final String dottedName, final String value)
    {
        environment.remove(dottedName);
        environment.put(dottedName.replace('.', '_'), value);
    }

    private Optional<ProcessHandle> livePidFileProcess() throws IOException
    {
        if (!Files.exists(files.pid()))
        {
            return Optional.empty();
        }
        final String text = Files.readString(files.pid()).strip();
        try
        {
            final Optional<ProcessHandle> process = ProcessHandle.of(Long.parseLong(text));
            final String configPath = files.config().toString();
            // A reused pid runs something else: accept only a process whose command line names our configuration.
            // An ExaBGP started a moment ago may still be between exec()s (setsid, ip netns exec, python), when its
            // command line reads empty: look again for a moment before giving up on it.
            for (int attempt = 0; attempt < ADOPT_ATTEMPTS && process.isPresent() && OwnerProcess.isRunning(process.get());
                attempt++)
            {
                if (process.get().info().commandLine().map(line -> line.contains(configPath)).orElse(false))
                {
                    return process;
                }
                ProcessControl.pause();
            }
        }
        catch (final NumberFormatException ex)
        {
            log.add("BGP: ignoring unreadable pid file " + files.pid() + ": '" + text + "'");
        }
        Files.deleteIfExists(files.pid());
        return Optional.empty();
    }

    private static void writeAtomically(final Path path, final String text, final String permissions)
        throws IOException
    {
        final Path temporary = path.resolveSibling(path.getFileName() + ".tmp");
        Files.deleteIfExists(temporary);
        try
        {
            Files.createFile(temporary,
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString(permissions)));
        }
        catch (final UnsupportedOperationException ex)
        {
            Files.createFile(temporary);
        }
        Files.writeString(temporary, text, StandardCharsets.UTF_8);
        try
        {
            Files.setPosixFilePermissions(temporary, PosixFilePermissions.fromString(permissions));
        }
        catch (final UnsupportedOperationException ex)
        {
            // Not a POSIX file system: the default permissions do.
        }
        Files.move(temporary, path, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }
}
