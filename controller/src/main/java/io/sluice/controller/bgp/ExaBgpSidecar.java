package io.sluice.controller.bgp;

import io.sluice.common.CreatedDirectories;
import io.sluice.common.config.ExaBgpConfig;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

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
 * controller's duty cycle; only {@link #stop()} blocks (up to {@link #STOP_GRACE_MS} plus a moment). Starts,
 * adoptions, deaths and stops are logged as they happen.
 */
public final class ExaBgpSidecar extends Sidecar implements AutoCloseable
{
    /**
     * The relay's classpath resource name, next to this class.
     */
    public static final String RELAY_RESOURCE = "sluice-exabgp-relay.py";

    /**
     * How long ExaBGP gets to close its sessions after SIGTERM before SIGKILL.
     */
    public static final long STOP_GRACE_MS = 5_000;

    private static final System.Logger LOGGER = System.getLogger(ExaBgpSidecar.class.getName());

    private final ExaBgpConfig config;
    private final ExaBgpFiles files;

    private ExaBgpSidecar(final ExaBgpConfig config, final ExaBgpFiles files)
    {
        super(new SupervisedProcess("BGP", "ExaBGP", files.directory(), files.config(), files.pid(), files.log(),
            STOP_GRACE_MS, false, config.command(), List.of(files.config().toString()),
            builder -> environment(builder.environment()), LOGGER));
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
        if (process.pid() != -1)
        {
            return "ExaBGP pid " + process.pid();
        }
        return process.restartPending() ? "ExaBGP down, restart pending" : "ExaBGP stopped";
    }

    /**
     * Stops ExaBGP: SIGTERM, up to {@link #STOP_GRACE_MS} for it to close its sessions, then SIGKILL; removes the
     * pid file. Its routes are withdrawn as its sessions close. Does nothing when external.
     */
    public void stop()
    {
        if (!config.external())
        {
            process.stop();
        }
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
        writeConfig(files.relay(), ExaBgpConfigWriter.resource(RELAY_RESOURCE), "rw-r--r--");
        // The configuration may hold TCP MD5 passwords: readable by the controller's user (and ExaBGP) only.
        final boolean configChanged = writeConfig(files.config(), configText, "rw-------");
        if (config.external())
        {
            LOGGER.log(System.Logger.Level.INFO, "BGP: ExaBGP runs externally; its configuration is " + files.config());
            return;
        }
        process.adoptOrLaunch(configChanged, nowMs);
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
}
