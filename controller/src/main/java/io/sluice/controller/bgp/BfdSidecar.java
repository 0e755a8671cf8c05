package io.sluice.controller.bgp;

import io.sluice.common.CreatedDirectories;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The node's BFD speaker, BIRD 2 running only {@code protocol bfd} (see {@link BfdConfigWriter}), supervised as
 * {@link ExaBgpSidecar} supervises ExaBGP (both through {@link SupervisedProcess}): started detached
 * ({@code setsid}, input from {@code /dev/null}, output appended to {@code bfd.log}), restarted with {@link
 * RestartBackoff} when it dies, adopted through its pid file
 * by the next controller when its configuration is unchanged (a controller restart keeps the BFD sessions up, as
 * it keeps the BGP sessions), stopped with SIGTERM then SIGKILL when the controller stops.
 *
 * <p>Polled from the controller's duty cycle; only {@link #stop()} blocks. Its events are logged as they happen.
 */
public final class BfdSidecar extends Sidecar
{
    /** How long BIRD gets after SIGTERM before SIGKILL; it exits at once. */
    public static final long STOP_GRACE_MS = 2_000;

    private static final System.Logger LOGGER = System.getLogger(BfdSidecar.class.getName());
    private static final String CONFIG = "bfd.conf";
    private static final String PID = "bfd.pid";
    private static final String LOG = "bfd.log";
    private static final String SOCKET = "bfd.ctl";

    private final Path directory;

    private BfdSidecar(final String command, final Path directory)
    {
        // A control socket left by a BIRD killed with SIGKILL makes the next one refuse to start.
        super(new SupervisedProcess("BFD", "BIRD", directory, directory.resolve(CONFIG), directory.resolve(PID),
            directory.resolve(LOG), STOP_GRACE_MS, true, command,
            List.of("-f", "-c", directory.resolve(CONFIG).toString(), "-s", directory.resolve(SOCKET).toString()),
            builder -> Files.deleteIfExists(directory.resolve(SOCKET)), LOGGER));
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
        return directory.resolve(CONFIG);
    }

    /**
     * Returns BIRD's control socket, for {@code birdc -s DIR/bfd.ctl show bfd sessions}.
     *
     * @return {@code DIR/bfd.ctl}.
     */
    public Path controlSocket()
    {
        return directory.resolve(SOCKET);
    }

    /**
     * Returns the pid file of the BIRD the controller started.
     *
     * @return {@code DIR/bfd.pid}.
     */
    public Path pidFile()
    {
        return directory.resolve(PID);
    }

    /**
     * Returns BIRD's log (its standard output and error, appended).
     *
     * @return {@code DIR/bfd.log}.
     */
    public Path logFile()
    {
        return directory.resolve(LOG);
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
            LOGGER.log(System.Logger.Level.WARNING, "BFD: cannot remove " + controlSocket() + ": " + ex);
        }
    }

    private void begin(final String configText, final long nowMs) throws IOException
    {
        CreatedDirectories.create(directory);
        process.adoptOrLaunch(writeConfig(config(), configText, "rw-r--r--"), nowMs);
    }
}
