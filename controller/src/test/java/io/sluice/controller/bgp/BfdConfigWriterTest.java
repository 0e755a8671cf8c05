package io.sluice.controller.bgp;

import io.sluice.common.config.BfdConfig;
import io.sluice.common.config.BgpConfig;
import io.sluice.common.config.BgpNeighborConfig;
import io.sluice.common.config.ExaBgpConfig;
import io.sluice.common.config.IpLiterals;
import io.sluice.common.config.VipRouteConfig;

import io.sluice.testkit.tags.NeedsDaemon;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.Inet4Address;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The BFD speaker's BIRD configuration: exact text, and that BIRD itself parses it ({@code bird -p}).
 */
class BfdConfigWriterTest
{
    private static final BfdConfig BFD = new BfdConfig(true, 50, 200, 4);

    @TempDir
    Path dir;

    private static BgpConfig bgp(final List<BgpNeighborConfig> sessions)
    {
        return new BgpConfig(65001, 65000, (Inet4Address)IpLiterals.parse("10.10.1.2"), IpLiterals.parse("10.10.1.2"),
            sessions, VipRouteConfig.NO_MED, 0, ExaBgpConfig.defaults());
    }

    private static BgpNeighborConfig session(final String address, final String local, final BfdConfig bfd)
    {
        return new BgpNeighborConfig(IpLiterals.parse(address), IpLiterals.parse(local), 9, null, false, bfd);
    }

    @Test
    void writesOneExplicitSessionPerBfdNeighbor()
    {
        final String text = BfdConfigWriter.write(bgp(List.of(session("10.10.1.1", "10.10.1.2", BFD),
            session("10.10.9.1", "10.10.1.2", BfdConfig.OFF), session("fd00:10::1", "fd00:10::2", BFD))));
        assertEquals("""
            # Written by the Sluice controller: the node's BFD speaker (RFC 5880, 5881); it routes nothing.
            router id 10.10.1.2;
            log stderr { info, remote, warning, error, auth, fatal, bug };
            protocol device { scan time 10; }
            protocol bfd sluice_bfd {
                interface "*" { min rx interval 50 ms; min tx interval 200 ms; multiplier 4; };
                neighbor 10.10.1.1 local 10.10.1.2;
                neighbor fd00:10::1 local fd00:10::2;
            }
            """, text);
    }

    @Test
    void refusesConfigWithoutBfdNeighbor()
    {
        assertThrows(IllegalArgumentException.class,
            () -> BfdConfigWriter.write(bgp(List.of(session("10.10.1.1", "10.10.1.2", BfdConfig.OFF)))));
    }

    @Test
    @NeedsDaemon
    void birdParsesTheConfiguration() throws Exception
    {
        final Path config = dir.resolve("bfd.conf");
        Files.writeString(config, BfdConfigWriter.write(bgp(List.of(session("10.10.1.1", "10.10.1.2", BFD),
            session("fd00:10::1", "fd00:10::2", BFD)))));
        final Process bird = new ProcessBuilder("bird", "-p", "-c", config.toString()).redirectErrorStream(true)
            .start();
        assertTrue(bird.waitFor(30, TimeUnit.SECONDS), "bird -p did not finish");
        final String output = new String(bird.getInputStream().readAllBytes());
        assertEquals(0, bird.exitValue(), "bird -p refused the configuration: " + output);
    }
}
