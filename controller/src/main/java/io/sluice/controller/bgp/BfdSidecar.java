package io.sluice.controller.bgp;

import io.sluice.common.CreatedDirectories;
import io.sluice.common.OwnerProcess;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * The node's BFD speaker, BIRD 2 running only {@code protocol bfd} (see {@link BfdConfigWriter}), supervised as
 * {@link ExaBgpSidecar} supervises ExaBGP: started detached ({@code setsid}, input from {@code /dev/null}, output
 * appended to {@code bfd.log}), restarted with {@link RestartBackoff} when it dies, adopted through its pid file
 * by the next controller when its configuration is unchanged (a controller restart keeps the BFD sessions up, as
 * it keeps the BGP sessions), stopped with SIGTERM then SIGKILL when the controller stops.
 *
 * <p>Polled from the controller's duty cycle; only {@link #stop()} blocks.
 */
public final class BfdSidecar
{
    /** How long BIRD gets after SIGTERM before SIGKILL; it exits at once. */
    public static final long STOP_GRACE_MS = 2_000;

    private static final long NO_RESTART = Long.MIN_VALUE;
    private static final int ADOPT_ATTEMPTS = 50;

    private final String command;
    private final Path directory;
    private final RestartBackoff backoff = new RestartBackoff();
    private final List<String> log = new ArrayList<>();
    private Process started;
    private ProcessHandle running;
    private long startedMs;
    private long restartAtMs = NO_RESTART;
    private int restarts;

    private BfdSidecar(final String command, final Path directory)
    {
        this.command = command;
        this.directory = directory;
    }

    /**
     * Writes {@code bfd.conf} into the node directory and adopts the BIRD its pid file names when that one runs
     * with the same configuration, or starts one.
     *
     * @param command       the command that starts BIRD, split on blanks (e.g. {@code ip netns exec lb1 bird});
     *                      {@code -f -c bfd.conf -s bfd.ctl} follow it.
     * @param nodeDirectory the node directory.
     * @param configText    the configuration, from {@link BfdConfigWriter}.
     * @param nowMs         the time.
     * @return the sidecar.
     * @throws IOException when the configuration cannot be written.
     */
    public static BfdSidecar start(final String command, final Path nodeDirectory, final String configText,
        final long nowMs) throws IOException
    {
        final BfdSidecar sidecar = new BfdSidecar(command, nodeDirectory);
        sidecar.begin(configText, nowMs);
        return sidecar;
    }

    /**
     * Returns the configuration's path.
     *
     * @return {@code DIR/bfd.conf}.
     */
    public Path config()
    {
        return directory.resolve("bfd.conf");
    }

    /**
     * Returns BIRD's control socket, for {@code birdc -s DIR/bfd.ctl show bfd sessions}.
     *
     * @return {@code DIR/bfd.ctl}.
     */
    public Path controlSocket()
    {
        return directory.resolve("bfd.ctl");
    }

    /**
     * Returns the pid file of the BIRD the controller started.
     *
     * @return {@code DIR/bfd.pid}.
     */
    public Path pidFile()
    {
        return directory.resolve("bfd.pid");
    }

    /**
     * Returns BIRD's log (its standard output and error, appended).
     *
     * @return {@code DIR/bfd.log}.
     */
    public Path logFile()
    {
        return directory.resolve("bfd.log");
    }

    /**
     * Notices a dead BIRD and restarts it when its backoff delay has passed.
     *
     * @param nowMs the time.
     * @return work done: 1 when something was noticed or started.
     */
    public int poll(final long nowMs)
    {
        if (running != null && !isRunning())
        {
            final String status = started != null ? " with status " + started.exitValue() : "";
            final long delayMs = backoff.onDeath(startedMs, nowMs);
            log.add("BFD: BIRD (pid " + running.pid() + ") exited" + status + "; restarting it in " +
                delayMs / 1000.0 + " s (log " + logFile() + ")");
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
     * Tells whether the BIRD this sidecar manages runs.
     *
     * @return false when stopped or waiting to restart.
     */
    public boolean isRunning()
    {
        return started != null ? started.isAlive() : running != null && OwnerProcess.isRunning(running);
    }

    /**
     * Returns the running BIRD's pid.
     *
     * @return the pid, or -1 when none runs.
     */
    public long pid()
    {
        return running == null ? -1 : running.pid();
    }

    /**
     * Returns how many times BIRD was started again after it died.
     *
     * @return the count.
     */
    public int restarts()
    {
        return restarts;
    }

    /**
     * Describes the sidecar for status.
     *
     * @return e.g. {@code BFD speaker BIRD pid 123 (birdc -s DIR/bfd.ctl show bfd sessions)}.
     */
    public String state()
    {
        if (running != null)
        {
            return "BFD speaker BIRD pid " + running.pid() + " (birdc -s " + controlSocket() + " show bfd sessions)" +
                (restarts > 0 ? ", " + restarts + " restarts" : "");
        }
        return restartAtMs == NO_RESTART ? "BFD speaker stopped" : "BFD speaker down, restart pending";
    }

    /**
     * Returns log lines since the last call, and forgets them.
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
     * Stops BIRD (SIGTERM, then SIGKILL after {@link #STOP_GRACE_MS}) and removes its pid file and control socket.
     * The router sees the BFD session go AdminDown or time out, and drops the BGP session with it.
     */
    public void stop()
    {
        restartAtMs = NO_RESTART;
        if (running == null)
        {
            return;
        }
        final ProcessHandle process = running;
        started = null;
        running = null;
        ProcessControl.terminate(process, STOP_GRACE_MS);
        log.add("BFD: BIRD (pid " + process.pid() + ") stopped");
        try
        {
            Files.deleteIfExists(pidFile());
            Files.deleteIfExists(controlSocket());
        }
        catch (final IOException ex)
        {
            log.add("BFD: cannot remove " + pidFile() + " or " + controlSocket() + ": " + ex);
        }
    }

    /**
     * Leaves BIRD running and its pid file in place for the next controller to adopt, and stops managing it.
     */
    public void detach()
    {
        restartAtMs = NO_RESTART;
        if (running != null)
        {
            log.add("BFD: leaving BIRD (pid " + running.pid() + ") running");
        }
        started = null;
        running = null;
    }

    private void begin(final String configText, final long nowMs) throws IOException
    {
        CreatedDirectories.create(directory);
        final boolean configChanged = !Files.exists(config()) ||
            !Files.readString(config(), StandardCharsets.UTF_8).equals(configText);
        final Path temporary = config().resolveSibling("bfd.conf.tmp");
        Files.writeString(temporary, configText, StandardCharsets.UTF_8);
        Files.move(temporary, config(), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        final Optional<ProcessHandle> adopted = livePidFileProcess();
        if (adopted.isPresent() && !configChanged)
        {
            running = adopted.get();
            startedMs = nowMs;
            log.add("BFD: adopted the running BIRD (pid " + running.pid() + ")");
            return;
        }
        if (adopted.isPresent())
        {
            log.add("BFD: configuration changed; restarting BIRD (pid " + adopted.get().pid() + ")");
            ProcessControl.terminate(adopted.get(), STOP_GRACE_MS);
        }
        launch(nowMs);
    }

    private void launch(final long nowMs)
    {
        final List<String> line = commandLine();
        restartAtMs = NO_RESTART;
        try
        {
            // A control socket left by a BIRD killed with SIGKILL makes the next one refuse to start.
            Files.deleteIfExists(controlSocket());
            started = new ProcessBuilder(line)
                .directory(directory.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                .redirectOutput(ProcessBuilder.Redirect.appendTo(logFile().toFile()))
                .redirectErrorStream(true)
                .start();
            running = started.toHandle();
            startedMs = nowMs;
            Files.writeString(pidFile(), running.pid() + "\n");
            log.add("BFD: started BIRD (pid " + running.pid() + "): " + String.join(" ", line) + ", log " +
                logFile());
        }
        catch (final IOException ex)
        {
            final long delayMs = backoff.onDeath(nowMs, nowMs);
            log.add("BFD: cannot start BIRD (" + String.join(" ", line) + "): " + ex.getMessage() +
                "; trying again in " + delayMs / 1000.0 + " s");
            restartAtMs = nowMs + delayMs;
        }
    }

    /**
     * Returns {@code setsid} (when installed), the configured command, then BIRD's foreground, configuration and
     * control socket options.
     */
    private List<String> commandLine()
    {
        final List<String> line = new ArrayList<>();
        if (Files.isExecutable(Path.of("/usr/bin/setsid")))
        {
            line.add("/usr/bin/setsid");
        }
        line.addAll(Arrays.asList(command.strip().split("\\s+")));
        line.addAll(List.of("-f", "-c", config().toString(), "-s", controlSocket().toString()));
        return line;
    }

    private Optional<ProcessHandle> livePidFileProcess() throws IOException
    {
        if (!Files.exists(pidFile()))
        {
            return Optional.empty();
        }
        final String text = Files.readString(pidFile()).strip();
        try
        {
            final Optional<ProcessHandle> process = ProcessHandle.of(Long.parseLong(text));
            final String configPath = config().toString();
            // A reused pid runs something else: accept only a process whose command line names our configuration.
            for (int attempt = 0; attempt < ADOPT_ATTEMPTS && process.isPresent() && OwnerProcess.isRunning(process.get());
                attempt++)
            {
                if (process.get().info().commandLine().map(l -> l.contains(configPath)).orElse(false))
                {
                    return process;
                }
                ProcessControl.pause();
            }
        }
        catch (final NumberFormatException ex)
        {
            log.add("BFD: ignoring unreadable pid file " + pidFile() + ": '" + text + "'");
        }
        Files.deleteIfExists(pidFile());
        return Optional.empty();
    }
}
