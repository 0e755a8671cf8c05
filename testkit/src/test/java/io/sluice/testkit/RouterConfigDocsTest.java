package io.sluice.testkit;

import io.sluice.testkit.tags.NeedsDaemon;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The router configurations in docs/operations.md ("Router configuration") are real configurations: the BIRD 2
 * block passes {@code bird -p -c} (parse only) and the FRR block {@code vtysh -C -f} (dry run), and a copy with one
 * keyword broken is refused, so the check can fail. Needs Debian's {@code bird2} and {@code frr} (CI installs both);
 * starts no daemon, creates no namespace.
 */
@NeedsDaemon
class RouterConfigDocsTest
{
    private static final Path DOC = Path.of("..", "docs", "operations.md");

    @TempDir
    Path directory;

    @Test
    void birdAcceptsTheDocumentedConfigurationAndRefusesABrokenOne() throws IOException
    {
        final String config = block("bird");
        for (final String stanza : List.of("merge paths on", "protocol bfd", "bfd on;", "import filter sluice_vips4",
            "import filter sluice_vips6", "import limit 256"))
        {
            assertTrue(config.contains(stanza), "the BIRD example has " + stanza + ":\n" + config);
        }
        final Commands.Result ok = bird(config);
        assertEquals(0, ok.exitCode(), "bird -p: " + ok.stdout() + ok.stderr());
        final Commands.Result broken = bird(config.replace("merge paths on", "merge paths onn"));
        assertNotEquals(0, broken.exitCode(), "bird -p accepts anything?");
    }

    @Test
    void frrAcceptsTheDocumentedConfigurationAndRefusesABrokenOne() throws IOException
    {
        final String config = block("frr");
        for (final String stanza : List.of("maximum-paths 16", "bfd profile sluice", "route-map SLUICE-IN4 in",
            "route-map SLUICE-IN6 in", "maximum-prefix 256", "detect-multiplier 3"))
        {
            assertTrue(config.contains(stanza), "the FRR example has " + stanza + ":\n" + config);
        }
        final Commands.Result ok = vtysh(config);
        assertEquals(0, ok.exitCode(), "vtysh -C: " + ok.stdout() + ok.stderr());
        final Commands.Result broken = vtysh(config.replace("maximum-prefix 256", "maximum-prefixes 256"));
        assertNotEquals(0, broken.exitCode(), "vtysh -C accepts anything? " + broken.stdout());
    }

    private Commands.Result bird(final String config) throws IOException
    {
        final Path file = Files.writeString(directory.resolve("bird.conf"), config);
        return Commands.run(List.of("bird", "-p", "-c", file.toString()));
    }

    private Commands.Result vtysh(final String config) throws IOException
    {
        final Path file = Files.writeString(directory.resolve("frr.conf"), config);
        return Commands.run(List.of("vtysh", "-C", "-f", file.toString()));
    }

    /** The fenced block after the line {@code <!-- router-config: NAME -->}. */
    private static String block(final String name) throws IOException
    {
        final String doc = Files.readString(DOC);
        final String marker = "<!-- router-config: " + name + " -->\n```\n";
        final int from = doc.indexOf(marker);
        assertTrue(from >= 0, "no " + marker.strip() + " block in " + DOC);
        final int start = from + marker.length();
        final int end = doc.indexOf("```\n", start);
        assertTrue(end > start, "unterminated block after " + marker.strip());
        return doc.substring(start, end);
    }
}
