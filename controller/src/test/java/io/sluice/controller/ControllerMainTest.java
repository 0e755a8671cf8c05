package io.sluice.controller;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ControllerMainTest
{
    @TempDir
    Path dir;

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int run(final String... args)
    {
        return ControllerMain.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    private String err()
    {
        return err.toString(StandardCharsets.UTF_8);
    }

    @Test
    void exitsTwoForABadConfig() throws IOException
    {
        final Path config = dir.resolve("node.yaml");
        Files.writeString(config, "node:\n  name: a\nnot_a_section: 1\n");
        assertEquals(2, run("--config", config.toString()));
        assertTrue(err().contains(config.toString()), err());
    }

    @Test
    void exitsTwoForAMissingConfigFile()
    {
        final Path config = dir.resolve("missing.yaml");
        assertEquals(2, run("--config", config.toString()));
        assertTrue(err().contains("missing.yaml"), err());
    }

    @Test
    void exitsTwoWithoutConfig()
    {
        assertEquals(2, run());
        assertTrue(err().contains("--config FILE is required"), err());
    }

    @Test
    void exitsTwoForAnUnknownArgument()
    {
        assertEquals(2, run("--bogus"));
        assertTrue(err().contains("unknown argument '--bogus'"), err());
    }
}
