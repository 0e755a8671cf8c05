package io.sluice.controller.bgp;

import io.sluice.common.config.BgpConfig;
import io.sluice.common.config.BgpNeighborConfig;
import io.sluice.common.config.ExaBgpConfig;
import io.sluice.common.config.IpLiterals;
import io.sluice.common.config.TransportProtocol;
import io.sluice.common.config.VipConfig;
import io.sluice.common.config.VipRouteConfig;
import io.sluice.testkit.tags.NeedsDaemon;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The real ExaBGP 4.2 ({@code exabgp --test}, which parses a configuration and exits 1 on an error) accepts what the
 * writer generates with every option set, and the route attributes in the API's spelling (checked as a static
 * route, whose syntax is the API's). No network, no namespace.
 */
@NeedsDaemon
class ExaBgpConfigParsesTest
{
    private static final Path SECRET = Path.of("/etc/sluice/r1.md5");

    @TempDir
    Path dir;

    private static BgpConfig bgp()
    {
        return new BgpConfig(65001, 65000, IpLiterals.parseIpv4("10.10.1.2"), IpLiterals.parse("10.10.1.2"), List.of(
            new BgpNeighborConfig(IpLiterals.parse("10.10.1.1"), IpLiterals.parse("10.10.1.2"), 9, SECRET, true),
            new BgpNeighborConfig(IpLiterals.parse("fd00:10::1"), IpLiterals.parse("fd00:10::2"), 3, null, false)),
            100, 2, ExaBgpConfig.defaults());
    }

    private String generated()
    {
        final BgpConfig bgp = bgp();
        final String text = ExaBgpConfigWriter.fromClasspath().write(bgp,
            List.of("/usr/bin/python3", dir.resolve("relay.py").toString()), dir.resolve("exabgp.sock"),
            Map.of(SECRET, "pass word;{}\"#".getBytes(StandardCharsets.UTF_8)));
        final RouteAttributes attributes = RouteAttributes.of(bgp, List.of(new VipConfig("web",
            IpLiterals.parse("10.100.0.1"), 80, TransportProtocol.TCP, List.of(), null,
            new VipRouteConfig(List.of("65000:80", "0:65535"), List.of("65001:0:4294967295"), 5))));
        final String route = RouteAnnouncer.announceCommand(IpLiterals.parse("10.100.0.1"))
            .substring("announce ".length()) + attributes.of(IpLiterals.parse("10.100.0.1"));
        // The first neighbor block gets the VIP's route as a static route, so ExaBGP parses the attributes too;
        // --test encodes static routes, which needs a next hop it can resolve without a session.
        return text.replaceFirst("    family \\{\n", "    static {\n        " +
            route.replace("next-hop self", "next-hop 10.10.1.2") + ";\n    }\n    family {\n");
    }

    private int exabgpTest(final String text) throws IOException, InterruptedException
    {
        final Path config = dir.resolve("exabgp.conf");
        Files.writeString(config, text);
        final ProcessBuilder builder = new ProcessBuilder("exabgp", "--test", config.toString())
            .redirectErrorStream(true).redirectOutput(dir.resolve("exabgp.log").toFile());
        ExaBgpSidecar.environment(builder.environment());
        final Process process = builder.start();
        assertTrue(process.waitFor(60, TimeUnit.SECONDS), "exabgp --test did not finish in 60 s");
        return process.exitValue();
    }

    @Test
    void realExaBgpParsesEveryOption() throws Exception
    {
        final String text = generated();
        assertTrue(text.contains("route 10.100.0.1/32 next-hop 10.10.1.2 med 5 as-path [ 65001 65001 65001 ] " +
            "community [ 65000:80 0:65535 ] large-community [ 65001:0:4294967295 ];"), text);
        assertEquals(0, exabgpTest(text), () -> log(text));
    }

    @Test
    void realExaBgpRefusesABrokenVariant() throws Exception
    {
        // The check above could pass by ExaBGP not reading the file: a hold time RFC 4271 forbids must fail it.
        assertNotEquals(0, exabgpTest(generated().replace("hold-time 9;", "hold-time 2;")));
        assertNotEquals(0, exabgpTest(generated().replace("community [ 65000:80", "community [ 65000:x80")));
    }

    private String log(final String text)
    {
        try
        {
            return text + "\n--- exabgp --test said:\n" + Files.readString(dir.resolve("exabgp.log"));
        }
        catch (final IOException ex)
        {
            return text;
        }
    }
}
