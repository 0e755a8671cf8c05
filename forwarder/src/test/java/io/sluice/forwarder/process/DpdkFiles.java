package io.sluice.forwarder.process;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * The files a DPDK process leaves under its {@code --file-prefix} when it does not clean up (a crash, SIGKILL):
 * its runtime directory {@code /var/run/dpdk/<prefix>} and hugepage files {@code /dev/hugepages/<prefix>map_*}.
 * Only the given prefix is touched: other DPDK processes on the machine keep theirs.
 */
public final class DpdkFiles
{
    private static final Path RUNTIME_ROOT = Path.of("/var/run/dpdk");
    private static final Path HUGEPAGES = Path.of("/dev/hugepages");

    private DpdkFiles()
    {
    }

    /**
     * Lists what exists for a prefix.
     */
    public static List<Path> of(final String prefix)
    {
        final List<Path> found = new ArrayList<>();
        final Path runtime = RUNTIME_ROOT.resolve(prefix);
        if (Files.exists(runtime))
        {
            found.add(runtime);
        }
        if (Files.isDirectory(HUGEPAGES))
        {
            try (Stream<Path> files = Files.list(HUGEPAGES))
            {
                files.filter(file -> file.getFileName().toString().startsWith(prefix + "map_")).forEach(found::add);
            }
            catch (final IOException ex)
            {
                throw new UncheckedIOException(ex);
            }
        }
        return found;
    }

    /**
     * Removes what exists for a prefix; reports, but does not throw, what cannot be removed.
     */
    static void delete(final String prefix)
    {
        for (final Path path : of(prefix))
        {
            try (Stream<Path> walk = Files.walk(path))
            {
                for (final Path file : walk.sorted(Comparator.reverseOrder()).toList())
                {
                    Files.deleteIfExists(file);
                }
            }
            catch (final IOException ex)
            {
                System.err.println("could not remove " + path + ": " + ex);
            }
        }
    }
}
