package io.sluice.common;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CreatedDirectoriesTest
{
    @Test
    void removesOnlyTheEmptyDirectoriesItMade(@TempDir final Path dir) throws Exception
    {
        final Path existing = Files.createDirectories(dir.resolve("shm"));
        final Path countersDir = existing.resolve("sluice");
        final Path lb1 = countersDir.resolve("lb1");
        final Path lb2 = countersDir.resolve("lb2");
        CreatedDirectories.create(lb1);
        CreatedDirectories.create(lb2);
        Files.writeString(lb2.resolve("someone-else.txt"), "kept");

        final List<Path> removed = CreatedDirectories.removeEmpty();

        assertEquals(List.of(lb1.toAbsolutePath()), removed);
        assertFalse(Files.exists(lb1), "empty and made here: removed");
        assertTrue(Files.exists(lb2.resolve("someone-else.txt")), "holds a file: kept, and so is its parent");
        assertTrue(Files.isDirectory(existing), "existed before: kept");
        assertEquals(List.of(), CreatedDirectories.removeEmpty(), "forgotten after a removal");
        Files.delete(lb2.resolve("someone-else.txt"));
        assertEquals(List.of(), CreatedDirectories.removeEmpty(), "never removes what it no longer tracks");
        assertTrue(Files.isDirectory(lb2));
    }
}
