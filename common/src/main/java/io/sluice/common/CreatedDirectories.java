package io.sluice.common;

import java.io.IOException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The directories this process created for its shared files ({@code counters_dir}, the node directory), so that a
 * clean exit removes those left empty and leaves every other one alone: a directory that existed before, or that
 * still holds a file (another node's, the other process's, the operator's), stays.
 */
public final class CreatedDirectories
{
    private static final List<Path> CREATED = new ArrayList<>();

    private CreatedDirectories()
    {
    }

    /**
     * Creates a directory and its missing parents, as {@link Files#createDirectories}, remembering which it made.
     *
     * @param directory the directory.
     * @return the directory.
     * @throws IOException when one cannot be created.
     */
    public static synchronized Path create(final Path directory) throws IOException
    {
        final Path absolute = directory.toAbsolutePath().normalize();
        final List<Path> missing = new ArrayList<>();
        for (Path at = absolute; at != null && !Files.exists(at); at = at.getParent())
        {
            missing.add(0, at);
        }
        for (final Path dir : missing)
        {
            try
            {
                Files.createDirectory(dir);
                CREATED.add(dir);
            }
            catch (final FileAlreadyExistsException ex)
            {
                // made by someone else meanwhile: theirs, not ours
            }
        }
        return Files.isDirectory(absolute) ? directory : Files.createDirectories(directory);
    }

    /**
     * Removes the directories this process created that are empty now, deepest first, and forgets them all.
     *
     * @return the directories removed.
     */
    public static synchronized List<Path> removeEmpty()
    {
        final List<Path> removed = new ArrayList<>();
        for (int i = CREATED.size() - 1; i >= 0; i--)
        {
            final Path dir = CREATED.get(i);
            try
            {
                Files.delete(dir);
                removed.add(dir);
            }
            catch (final DirectoryNotEmptyException | NoSuchFileException ex)
            {
                // still in use, or already gone
            }
            catch (final IOException ex)
            {
                // best effort: a leftover empty directory is harmless
            }
        }
        CREATED.clear();
        return removed;
    }
}
