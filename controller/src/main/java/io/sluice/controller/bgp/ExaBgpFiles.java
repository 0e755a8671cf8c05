package io.sluice.controller.bgp;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * Where the ExaBGP sidecar's files live in a node directory, and the relay's command line.
 *
 * @param directory the node directory, e.g. {@code /dev/shm/sluice/lb1}.
 */
public record ExaBgpFiles(Path directory)
{
    /**
     * How long the relay keeps routes announced after the controller went away, unless told otherwise.
     */
    public static final Duration DEFAULT_ORPHAN_TIMEOUT = Duration.ofSeconds(30);

    /**
     * Returns the generated ExaBGP configuration's path.
     *
     * @return {@code DIR/exabgp.conf}.
     */
    public Path config()
    {
        return directory.resolve("exabgp.conf");
    }

    /**
     * Returns the relay script's path.
     *
     * @return {@code DIR/sluice-exabgp-relay.py}.
     */
    public Path relay()
    {
        return directory.resolve("sluice-exabgp-relay.py");
    }

    /**
     * Returns the path of the file holding the pid of the ExaBGP the controller started.
     *
     * @return {@code DIR/exabgp.pid}.
     */
    public Path pid()
    {
        return directory.resolve("exabgp.pid");
    }

    /**
     * Returns ExaBGP's log (its standard output and error, appended).
     *
     * @return {@code DIR/exabgp.log}.
     */
    public Path log()
    {
        return directory.resolve("exabgp.log");
    }

    /**
     * Returns the controller's Unix-domain socket that the relay connects to.
     *
     * @return {@code DIR/exabgp.sock}.
     */
    public Path socket()
    {
        return directory.resolve("exabgp.sock");
    }

    /**
     * Returns the command line ExaBGP runs the relay with, without the socket path that
     * {@link ExaBgpConfigWriter} appends. The script runs through the Python interpreter rather than by its own
     * execute bit, because node directories often sit on a {@code noexec} mount such as {@code /dev/shm}.
     *
     * @param orphanTimeout how long the relay keeps routes after the controller went away.
     * @return e.g. {@code /usr/bin/python3 DIR/sluice-exabgp-relay.py --orphan-timeout 30}.
     */
    public List<String> relayCommand(final Duration orphanTimeout)
    {
        final long ms = orphanTimeout.toMillis();
        final String seconds = ms % 1000 == 0 ? Long.toString(ms / 1000) : Double.toString(ms / 1000.0);
        return List.of(python(), relay().toString(), "--orphan-timeout", seconds);
    }

    private static String python()
    {
        final Path debian = Path.of("/usr/bin/python3");
        if (Files.isExecutable(debian))
        {
            return debian.toString();
        }
        for (final String directory : System.getenv().getOrDefault("PATH", "").split(":"))
        {
            if (!directory.isEmpty() && Files.isExecutable(Path.of(directory, "python3")))
            {
                return Path.of(directory, "python3").toAbsolutePath().toString();
            }
        }
        return debian.toString();
    }
}
