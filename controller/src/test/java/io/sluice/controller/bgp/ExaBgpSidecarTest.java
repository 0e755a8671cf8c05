package io.sluice.controller.bgp;

import io.sluice.common.config.ExaBgpConfig;
import io.sluice.testkit.Eventually;

import io.sluice.testkit.CapturedLog;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The process adapter with a stand-in for ExaBGP: a script that records its environment and arguments and then
 * sleeps with the configuration path on its command line, as ExaBGP runs.
 */
class ExaBgpSidecarTest
{

    private static final Duration WAIT = Duration.ofSeconds(20);
    private static final String CONFIG = "# exabgp.conf\n";

    @RegisterExtension
    final CapturedLog captured = CapturedLog.of(ExaBgpSidecar.class);

    @TempDir
    Path directory;

    private Path nodeDirectory;
    private ExaBgpConfig fake;
    private final List<ExaBgpSidecar> sidecars = new ArrayList<>();
    private final List<Long> detachedPids = new ArrayList<>();

    @BeforeEach
    void writeFakeExaBgp() throws IOException
    {
        nodeDirectory = directory.resolve("lb1");
        final Path script = directory.resolve("fake-exabgp.sh");
        Files.writeString(script, String.join("\n",
            "#!/bin/sh",
            "env > \"$(dirname \"$1\")/fake-env.txt\"",
            "echo \"$@\" > \"$(dirname \"$1\")/fake-args.txt\"",
            "exec /usr/bin/python3 -c 'import time; time.sleep(600)' \"$1\"",
            ""));
        fake = new ExaBgpConfig(false, "/bin/sh " + script);
    }

    @AfterEach
    void stopAll()
    {
        for (final ExaBgpSidecar sidecar : sidecars)
        {
            sidecar.stop();
        }
        // A detached fake that a failed test did not adopt again.
        for (final long pid : detachedPids)
        {
            ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
        }
    }

    @Test
    void writesItsFilesAndStartsExaBgpDetachedWithItsEnvironment() throws IOException
    {
        final ExaBgpSidecar sidecar = start(CONFIG, 0);
        final ExaBgpFiles files = sidecar.files();

        assertEquals(CONFIG, Files.readString(files.config()));
        assertTrue(Files.readString(files.relay()).startsWith("#!/usr/bin/env python3"));
        assertTrue(sidecar.isRunning());
        assertEquals(sidecar.pid() + "\n", Files.readString(files.pid()));
        Eventually.await(WAIT, () -> Files.exists(nodeDirectory.resolve("fake-args.txt")), "the fake's arguments");
        assertEquals(files.config().toString(), Files.readString(nodeDirectory.resolve("fake-args.txt")).strip());
        final List<String> environment = Eventually.await(WAIT, () -> readLines(nodeDirectory.resolve("fake-env.txt")),
            lines -> lines.contains("PWD=" + nodeDirectory), "the fake's environment");
        assertTrue(environment.containsAll(List.of("exabgp_api_cli=false", "exabgp_api_ack=true",
            "exabgp_daemon_daemonize=false", "exabgp_daemon_user=" + System.getProperty("user.name"))),
            environment.toString());
        assertNotEquals(sessionId(ProcessHandle.current().pid()), sessionId(sidecar.pid()),
            "ExaBGP should run in a session of its own");
    }

    @Test
    void adoptsTheRunningExaBgpOfItsPidFile() throws IOException
    {
        final ExaBgpSidecar first = start(CONFIG, 0);
        detachedPids.add(first.pid());
        first.detach();

        final ExaBgpSidecar second = start(CONFIG, 0);

        assertTrue(second.isRunning());
        assertEquals(Long.parseLong(Files.readString(second.files().pid()).strip()), second.pid());
        final List<String> log = captured.drain();
        assertTrue(log.contains("BGP: adopted the running ExaBGP (pid " + second.pid() + ")"), log.toString());
    }

    @Test
    void noticesTheDeathOfAnAdoptedExaBgpThatNobodyReaps() throws Exception
    {
        // An ExaBGP adopted from an earlier controller is not this JVM's child: once killed, it is a zombie until
        // its parent (often init, which may reap late or never, as in a container) waits for it. Here the parent
        // is a shell that exec()s sleep and never waits.
        final ExaBgpFiles files = new ExaBgpFiles(nodeDirectory);
        Files.createDirectories(nodeDirectory);
        Files.writeString(files.config(), CONFIG);
        final Process parent = new ProcessBuilder("/bin/sh", "-c", "/usr/bin/python3 -c 'import time; " +
            "time.sleep(600)' " + files.config() + " & echo $!; exec sleep 600").start();
        try
        {
            final long pid = Long.parseLong(parent.inputReader().readLine().strip());
            detachedPids.add(pid);
            Files.writeString(files.pid(), pid + "\n");
            final ExaBgpSidecar sidecar = start(CONFIG, 0);
            assertTrue(captured.drain().contains("BGP: adopted the running ExaBGP (pid " + pid + ")"));
            assertTrue(sidecar.isRunning());

            ProcessHandle.of(pid).orElseThrow().destroyForcibly();
            Eventually.await(WAIT, () -> processState(pid) == 'Z', "the adopted ExaBGP a zombie");
            Eventually.await(Duration.ofSeconds(2), () -> !sidecar.isRunning(), "the adopted ExaBGP's death");
            assertEquals(1, sidecar.poll(10_000));
            assertEquals(1, sidecar.poll(20_000));
            assertTrue(sidecar.isRunning());
            assertNotEquals(pid, sidecar.pid());
        }
        finally
        {
            parent.destroyForcibly();
        }
    }

    private static char processState(final long pid)
    {
        try
        {
            final String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
            return stat.charAt(stat.lastIndexOf(')') + 2);
        }
        catch (final IOException ex)
        {
            return '-';
        }
    }

    @Test
    void restartsAnAdoptedExaBgpWhoseConfigurationChanged() throws IOException
    {
        final ExaBgpSidecar first = start(CONFIG, 0);
        final ProcessHandle old = ProcessHandle.of(first.pid()).orElseThrow();
        detachedPids.add(first.pid());
        first.detach();

        final ExaBgpSidecar second = start(CONFIG + "# changed\n", 0);

        assertFalse(old.isAlive());
        assertTrue(second.isRunning());
        assertNotEquals(old.pid(), second.pid());
    }

    @Test
    void restartsADeadExaBgpWithGrowingBackoff()
    {
        final ExaBgpSidecar sidecar = start(CONFIG, 0);

        long now = 1_000;
        final long[] expectedDelays = {1_000, 2_000, 4_000};
        for (final long delay : expectedDelays)
        {
            final long pid = sidecar.pid();
            ProcessHandle.of(pid).orElseThrow().destroyForcibly();
            Eventually.await(WAIT, () -> !sidecar.isRunning(), "ExaBGP's death");
            assertEquals(1, sidecar.poll(now));
            assertEquals(0, sidecar.poll(now + delay - 1));
            assertEquals(-1, sidecar.pid());
            assertEquals(1, sidecar.poll(now + delay));
            assertTrue(sidecar.isRunning());
            assertNotEquals(pid, sidecar.pid());
            now += delay + 10;
        }
        assertEquals(3, sidecar.restarts());
        final List<String> log = captured.drain();
        assertTrue(log.stream().anyMatch(line -> line.contains("exited with status 137; restarting it in 4.0 s")),
            log.toString());
    }

    @Test
    void stopsExaBgpAndRemovesThePidFile() throws IOException
    {
        final ExaBgpSidecar sidecar = start(CONFIG, 0);
        final ProcessHandle process = ProcessHandle.of(sidecar.pid()).orElseThrow();

        sidecar.stop();

        assertFalse(process.isAlive());
        assertFalse(sidecar.isRunning());
        assertFalse(Files.exists(sidecar.files().pid()));
        assertEquals(0, sidecar.poll(Long.MAX_VALUE));
    }

    @Test
    void backsOffWhenExaBgpCannotRun()
    {
        fake = new ExaBgpConfig(false, directory.resolve("no-such-exabgp").toString());
        final ExaBgpSidecar sidecar = start(CONFIG, 0);

        Eventually.await(WAIT, () -> !sidecar.isRunning(), "the failed start");
        assertEquals(1, sidecar.poll(0));
        assertEquals(0, sidecar.poll(999));
        assertEquals(1, sidecar.poll(1_000));
        Eventually.await(WAIT, () -> !sidecar.isRunning(), "the second failed start");
        assertEquals(1, sidecar.poll(1_000));
        assertEquals(0, sidecar.poll(2_999));
        assertEquals(1, sidecar.poll(3_000));
        final List<String> log = captured.drain();
        assertTrue(log.stream().anyMatch(line -> line.contains("exited with status 127; restarting it in 2.0 s") ||
            line.startsWith("BGP: cannot start ExaBGP")), log.toString());
    }

    @Test
    void externalExaBgpGetsItsFilesButIsNeverStarted() throws IOException
    {
        fake = new ExaBgpConfig(true, fake.command());
        final ExaBgpSidecar sidecar = start(CONFIG, 0);

        assertEquals(CONFIG, Files.readString(sidecar.files().config()));
        assertTrue(Files.exists(sidecar.files().relay()));
        assertFalse(sidecar.isRunning());
        assertFalse(Files.exists(sidecar.files().pid()));
        assertEquals(0, sidecar.poll(Long.MAX_VALUE));
        sidecar.stop();
    }

    private ExaBgpSidecar start(final String configText, final long nowMs)
    {
        try
        {
            final ExaBgpSidecar sidecar = ExaBgpSidecar.start(fake, nodeDirectory, configText, nowMs);
            sidecars.add(sidecar);
            return sidecar;
        }
        catch (final IOException ex)
        {
            throw new AssertionError(ex);
        }
    }

    private static List<String> readLines(final Path path)
    {
        try
        {
            return Files.readAllLines(path);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    private static String sessionId(final long pid) throws IOException
    {
        final String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
        // Fields after the command (which may hold blanks) : state ppid pgrp session ...
        return stat.substring(stat.lastIndexOf(')') + 2).split(" ")[3];
    }
}
