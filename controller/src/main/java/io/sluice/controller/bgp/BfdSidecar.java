package io.sluice.controller.bgp;

import io.sluice.common.CreatedDirectories;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;

/**
 * The node's BFD speaker, BIRD 2 running only {@code protocol bfd} (see {@link BfdConfigWriter}), supervised as
 * {@link ExaBgpSidecar} supervises ExaBGP (both through {@link SupervisedProcess}): started detached
 * ({@code setsid}, input from {@code /dev/null}, output appended to {@code bfd.log}), restarted with {@link
 * RestartBackoff} when it dies, adopted through its pid file
 * by the next controller when its configuration is unchanged (a controller restart keeps the BFD sessions up, as
 * it keeps the BGP sessions), stopped with SIGTERM then SIGKILL when the controller stops.
 *
 * <p>Polled from the controller's duty cycle; only {@link #stop()} blocks.
 */
public final class BfdSidecar
{
    /** How long BIRD gets after SIGTERM before SIGKILL; it exits at once. */
    public static final long STOP_GRACE_MS = 2_000;

    private final Path directory;
    private final List<String> log = new ArrayList<>();
    private final SupervisedProcess process;

    private BfdSidecar(final String command, final Path directory)
    {
        this.directory = directory;
        // A control socket left by a BIRD killed with SIGKILL makes the next one refuse to start.
        process = new SupervisedProcess("BFD", "BIRD", directory, config(), pidFile(), logFile(), STOP_GRACE_MS, true,
            command, List.of("-f", "-c", config().toString(), "-s", controlSocket().toString()),
            builder -> Files.deleteIfExists(controlSocket()), log);
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
        return process.poll(nowMs);
    }

    /**
     * Tells whether the BIRD this sidecar manages runs.
     *
     * @return false when stopped or waiting to restart.
     */
    public boolean isRunning()
    {
        return process.isRunning();
    }

    /**
     * Returns the running BIRD's pid.
     *
     * @return the pid, or -1 when none runs.
     */
    public long pid()
    {
        return process.pid();
    }

    /**
     * Returns how many times BIRD was started again after it died.
     *
     * @return the count.
     */
    public int restarts()
    {
        return process.restarts();
    }

    /**
     * Describes the sidecar for status.
     *
     * @return e.g. {@code BFD speaker BIRD pid 123 (birdc -s DIR/bfd.ctl show bfd sessions)}.
     */
    public String state()
    {
        if (process.pid() != -1)
        {
            return "BFD speaker BIRD pid " + process.pid() + " (birdc -s " + controlSocket() + " show bfd sessions)" +
                (process.restarts() > 0 ? ", " + process.restarts() + " restarts" : "");
        }
        return process.restartPending() ? "BFD speaker down, restart pending" : "BFD speaker stopped";
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
        process.stop();
        try
        {
            Files.deleteIfExists(controlSocket());
        }
        catch (final IOException ex)
        {
            log.add("BFD: cannot remove " + controlSocket() + ": " + ex);
        }
    }

    /**
     * Leaves BIRD running and its pid file in place for the next controller to adopt, and stops managing it.
     */
    public void detach()
    {
        process.detach();
    }

    private void begin(final String configText, final long nowMs) throws IOException
    {
        CreatedDirectories.create(directory);
        final boolean configChanged = !Files.exists(config()) ||
            !Files.readString(config(), StandardCharsets.UTF_8).equals(configText);
        final Path temporary = config().resolveSibling("bfd.conf.tmp");
        Files.writeString(temporary, configText, StandardCharsets.UTF_8);
        Files.move(temporary, config(), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        process.adoptOrLaunch(configChanged, nowMs);
    }
}
