package io.sluice.controller.bgp;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * What {@link ExaBgpSidecar} and {@link BfdSidecar} share: a {@link SupervisedProcess} polled from the controller's
 * duty cycle, its state for status, and the configuration file written atomically before the process is adopted or
 * started (whether its content changed decides between the two).
 */
abstract class Sidecar
{
    /** The supervised process. */
    final SupervisedProcess process;

    Sidecar(final SupervisedProcess process)
    {
        this.process = process;
    }

    /**
     * Notices a dead process and restarts it when its backoff delay has passed.
     *
     * @param nowMs the time.
     * @return work done: 1 when something was noticed or started.
     */
    public int poll(final long nowMs)
    {
        return process.poll(nowMs);
    }

    /**
     * Tells whether the process this sidecar manages runs.
     *
     * @return false when not started (or external), stopped, or waiting to restart.
     */
    public boolean isRunning()
    {
        return process.isRunning();
    }

    /**
     * Returns the running process's pid.
     *
     * @return the pid, or -1 when none runs.
     */
    public long pid()
    {
        return process.pid();
    }

    /**
     * Returns how many times the process was started again after it died.
     *
     * @return the count.
     */
    public int restarts()
    {
        return process.restarts();
    }

    /**
     * Leaves the process running and its pid file in place for the next controller to adopt, and stops managing it.
     */
    public void detach()
    {
        process.detach();
    }

    /**
     * Writes a configuration file through a temporary file and an atomic move, with the given permissions.
     *
     * @param path        the file.
     * @param text        its content.
     * @param permissions POSIX permissions, e.g. {@code rw-------}; ignored where the file system has none.
     * @return whether the content differs from what the file held (or the file did not exist).
     * @throws IOException when the file cannot be read or written.
     */
    static boolean writeConfig(final Path path, final String text, final String permissions) throws IOException
    {
        final boolean changed = !Files.exists(path) || !Files.readString(path, StandardCharsets.UTF_8).equals(text);
        final Path temporary = path.resolveSibling(path.getFileName() + ".tmp");
        Files.deleteIfExists(temporary);
        try
        {
            Files.createFile(temporary,
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString(permissions)));
        }
        catch (final UnsupportedOperationException ex)
        {
            Files.createFile(temporary);
        }
        Files.writeString(temporary, text, StandardCharsets.UTF_8);
        try
        {
            Files.setPosixFilePermissions(temporary, PosixFilePermissions.fromString(permissions));
        }
        catch (final UnsupportedOperationException ex)
        {
            // Not a POSIX file system: the default permissions do.
        }
        Files.move(temporary, path, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        return changed;
    }
}
