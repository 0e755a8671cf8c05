package io.sluice.controller.bgp;

import io.sluice.common.config.BgpConfig;
import io.sluice.common.config.BgpNeighborConfig;
import io.sluice.common.config.ExaBgpConfig;
import io.sluice.common.config.IpLiterals;
import io.sluice.common.config.VipRouteConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What {@link ExaBgpRouteSpeaker#start} writes for an external ExaBGP (it starts nothing then): the configured
 * relay orphan timeout, the MD5 password read from its file, and a configuration file only its owner can read.
 */
class ExaBgpRouteSpeakerFilesTest
{
    @TempDir
    Path dir;

    @Test
    void writesTheOrphanTimeoutAndThePasswordIntoAPrivateConfiguration() throws Exception
    {
        final Path secret = dir.resolve("r1.md5");
        Files.writeString(secret, "pw\n");
        Files.setPosixFilePermissions(secret, PosixFilePermissions.fromString("rw-------"));
        final BgpConfig bgp = new BgpConfig(65001, 65000, IpLiterals.parseIpv4("10.10.1.2"),
            IpLiterals.parse("10.10.1.2"), List.of(new BgpNeighborConfig(IpLiterals.parse("10.10.1.1"),
            IpLiterals.parse("10.10.1.2"), 9, secret, false)), VipRouteConfig.NO_MED, 0,
            new ExaBgpConfig(true, "exabgp", 2_500_000_000L));
        final Path node = dir.resolve("lb1");

        try (ExaBgpRouteSpeaker speaker = ExaBgpRouteSpeaker.start(bgp, List.of(), node, 0, ExaBgpApi::logError))
        {
            final Path config = new ExaBgpFiles(node).config();
            final String text = Files.readString(config);
            assertTrue(text.contains("--orphan-timeout 2.5 "), text);
            assertTrue(text.contains("md5-password cHc=;"), text);
            assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(config)));
        }
    }
}
