package io.sluice.controller.bgp;

import io.sluice.common.config.BgpConfig;
import io.sluice.common.config.ConfigException;
import io.sluice.common.config.Md5PasswordFile;
import io.sluice.common.config.VipConfig;
import io.sluice.controller.announce.RouteSpeaker;
import org.agrona.CloseHelper;
import org.agrona.ErrorHandler;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The controller's BGP speaker: the ExaBGP sidecar process and the API socket its relay connects to, polled from the
 * controller's duty cycle, and the BFD speaker ({@link BfdSidecar}) when a neighbor has BFD on.
 * <p>
 * {@link #close()} stops ExaBGP (its sessions close, so whatever is still announced is withdrawn);
 * {@link #detach()} instead leaves it running with its routes for the next controller to adopt (a restart). Both
 * treat the BFD speaker the same way. Each part logs its own events.
 */
public final class ExaBgpRouteSpeaker implements RouteSpeaker
{
    private final ExaBgpApi api;
    private final ExaBgpSidecar sidecar;
    private final BfdSidecar bfd;
    private boolean detached;

    private ExaBgpRouteSpeaker(final ExaBgpApi api, final ExaBgpSidecar sidecar, final BfdSidecar bfd)
    {
        this.api = api;
        this.sidecar = sidecar;
        this.bfd = bfd;
    }

    /**
     * Writes ExaBGP's configuration and relay into the node directory, opens the API socket, and starts or adopts
     * ExaBGP (unless external).
     *
     * @param bgp           the node's BGP settings.
     * @param vips          the node's VIPs, for their routes' path attributes.
     * @param nodeDirectory the node directory.
     * @param nowMs         the time.
     * @param errors        where errors that would repeat at every poll go, e.g. the agent's {@code AgentErrorLog}.
     * @return the speaker.
     * @throws IOException when the files or the socket cannot be made, or a TCP MD5 password file cannot be read.
     */
    public static ExaBgpRouteSpeaker start(final BgpConfig bgp, final List<VipConfig> vips, final Path nodeDirectory,
        final long nowMs, final ErrorHandler errors) throws IOException
    {
        final ExaBgpFiles files = new ExaBgpFiles(nodeDirectory);
        final String text = ExaBgpConfigWriter.fromClasspath()
            .write(bgp, files.relayCommand(Duration.ofNanos(bgp.exabgp().orphanTimeoutNs())), files.socket(),
                passwords(bgp));
        final ExaBgpApi api = ExaBgpApi.open(files.socket(), RouteAttributes.of(bgp, vips), errors);
        BfdSidecar bfd = null;
        try
        {
            // BFD first: the router ties its BGP session to BFD, so the session is ready when ExaBGP connects.
            bfd = bgp.bfdSessions().isEmpty() ? null :
                BfdSidecar.start(bgp.bfdCommand(), nodeDirectory, BfdConfigWriter.write(bgp), nowMs);
            return new ExaBgpRouteSpeaker(api, ExaBgpSidecar.start(bgp.exabgp(), nodeDirectory, text, nowMs), bfd);
        }
        catch (final IOException | RuntimeException ex)
        {
            if (bfd != null)
            {
                bfd.stop();
            }
            api.close();
            throw ex;
        }
    }

    /**
     * Starts the speaker for a node without VIP attributes, as {@link #start(BgpConfig, List, Path, long,
     * ErrorHandler)}, each error logged as a warning.
     *
     * @param bgp           the node's BGP settings.
     * @param nodeDirectory the node directory.
     * @param nowMs         the time.
     * @return the speaker.
     * @throws IOException when the files or the socket cannot be made.
     */
    public static ExaBgpRouteSpeaker start(final BgpConfig bgp, final Path nodeDirectory, final long nowMs)
        throws IOException
    {
        return start(bgp, List.of(), nodeDirectory, nowMs, ExaBgpApi::logError);
    }

    // Read again at start (the configuration check read them too): the files may have changed since.
    private static Map<Path, byte[]> passwords(final BgpConfig bgp) throws IOException
    {
        final Map<Path, byte[]> passwords = new HashMap<>();
        for (int i = 0; i < bgp.sessions().size(); i++)
        {
            final Path file = bgp.sessions().get(i).md5PasswordFile();
            if (file != null)
            {
                try
                {
                    passwords.put(file, Md5PasswordFile.read("controller", "bgp.neighbors[" + i + "]", file));
                }
                catch (final ConfigException ex)
                {
                    throw new IOException(ex.getMessage(), ex);
                }
            }
        }
        return passwords;
    }

    @Override
    public void setAnnounced(final Set<InetAddress> addresses)
    {
        api.setAnnounced(addresses);
    }

    @Override
    public int poll(final long nowMs)
    {
        return api.poll(nowMs) + sidecar.poll(nowMs) + (bfd == null ? 0 : bfd.poll(nowMs));
    }

    @Override
    public boolean isCurrent()
    {
        return api.isCurrent();
    }

    @Override
    public String state()
    {
        return sidecar.state() + ", relay " + (api.isConnected() ? "connected" : "not connected") +
            (api.reconnects() > 0 ? " (" + api.reconnects() + " reconnects)" : "") +
            (bfd == null ? "" : ", " + bfd.state());
    }

    @Override
    public Map<String, String> neighborStates()
    {
        return api.neighborStates();
    }

    /**
     * Leaves ExaBGP running with its routes for the next controller (a restart); {@link #close()} then only closes
     * the socket.
     */
    public void detach()
    {
        detached = true;
        sidecar.detach();
        if (bfd != null)
        {
            bfd.detach();
        }
    }

    @Override
    public void close()
    {
        if (!detached)
        {
            sidecar.stop();
            if (bfd != null)
            {
                bfd.stop();
            }
        }
        CloseHelper.quietClose(api);
    }
}
