package io.sluice.common;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Liveness of a header's owner, with real processes: a zombie (exited, not yet waited for by its parent) is dead.
 */
class OwnerProcessTest
{
    @Test
    void takesTheCurrentProcessForAlive()
    {
        final ProcessHandle self = ProcessHandle.current();
        assertTrue(OwnerProcess.isRunning(self));
        assertTrue(OwnerProcess.isAlive(self.pid(), self.info().startInstant().orElseThrow().toEpochMilli()));
    }

    @Test
    void takesAZombieForDead() throws Exception
    {
        // The child's parent is a shell that exec()s sleep and never waits: once killed, the child stays a zombie.
        final Process parent = new ProcessBuilder("/bin/sh", "-c", "sleep 600 & echo $!; exec sleep 600").start();
        try
        {
            final long pid = Long.parseLong(parent.inputReader().readLine().strip());
            final ProcessHandle child = ProcessHandle.of(pid).orElseThrow();
            final long startMs = child.info().startInstant().orElseThrow().toEpochMilli();
            assertTrue(OwnerProcess.isAlive(pid, startMs));
            // Kill the child only once the shell has exec()ed sleep: a shell still running reaps a dead background
            // job (then there is no zombie to see, as happened once under load).
            final long execDeadline = System.nanoTime() + 10_000_000_000L;
            while (!"sleep".equals(comm(parent.pid())) && System.nanoTime() - execDeadline < 0)
            {
                Thread.sleep(10);
            }
            assertEquals("sleep", comm(parent.pid()), "the shell exec()ed sleep");

            child.destroyForcibly();
            final long deadline = System.nanoTime() + 10_000_000_000L;
            while (state(pid) != 'Z' && System.nanoTime() - deadline < 0)
            {
                Thread.sleep(10);
            }
            assertTrue(state(pid) == 'Z', "the killed child is a zombie, state " + state(pid));
            assertTrue(child.isAlive(), "ProcessHandle counts a zombie as alive: the case OwnerProcess covers");
            assertFalse(OwnerProcess.isRunning(child));
            assertFalse(OwnerProcess.isAlive(pid, startMs));
        }
        finally
        {
            parent.destroyForcibly();
        }
    }

    private static String comm(final long pid)
    {
        try
        {
            return Files.readString(Path.of("/proc", Long.toString(pid), "comm")).strip();
        }
        catch (final IOException ex)
        {
            return "-";
        }
    }

    private static char state(final long pid)
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
}
