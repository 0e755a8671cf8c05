package io.sluice.testkit;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Where the Sluice checkout is, for tests that start its scripts or need its native build.
 */
public final class Repository
{
    private Repository()
    {
    }

    /**
     * Returns the repository root: the nearest directory at or above the working directory that holds
     * {@code native/Makefile} (Maven runs each module's tests in the module's directory).
     *
     * @return the root.
     * @throws IllegalStateException when there is none.
     */
    public static Path root()
    {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent())
        {
            if (Files.isRegularFile(dir.resolve("native/Makefile")))
            {
                return dir;
            }
        }
        throw new IllegalStateException("no repository root (native/Makefile) above " + Path.of("").toAbsolutePath());
    }
}
