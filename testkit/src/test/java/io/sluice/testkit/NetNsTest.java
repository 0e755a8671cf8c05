package io.sluice.testkit;

import io.sluice.testkit.tags.NeedsNetns;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Real namespaces: needs root, as CI has.
 */
class NetNsTest
{
    @Test
    @NeedsNetns
    void connectsTwoNamespacesAndRemovesEverythingOnClose(@TempDir final Path directory)
    {
        final String router;
        final Process sleeper;
        try (NetNs run = NetNs.create("tkt"))
        {
            final Namespace a = run.namespace("a");
            final Namespace b = run.namespace("b");
            router = a.name();
            run.veth(a, "a1", b, "b1");
            a.addAddress("a1", "10.10.9.1/24");
            b.addAddress("b1", "10.10.9.2/24");
            b.addRoute("10.100.9.0/24", "via", "10.10.9.1");
            a.sysctl("net.ipv4.fib_multipath_hash_policy", "1");

            assertTrue(b.routes("10.100.9.0/24").startsWith("10.100.9.0/24 via 10.10.9.1 dev b1"),
                b.routes("10.100.9.0/24"));
            assertEquals("1", a.exec("cat", "/proc/sys/net/ipv4/fib_multipath_hash_policy").strip());
            assertTrue(a.exec("ip", "-o", "address", "show", "dev", "a1").contains("10.10.9.1/24"));

            sleeper = a.start(directory.resolve("sleep.log"), "sleep", "600");
            assertTrue(sleeper.isAlive());
            // Also a process the run did not start itself: close() kills whatever is left in its namespaces.
            b.start(directory.resolve("sleep2.log"), "sh", "-c", "sleep 600 & sleep 600");
        }
        assertFalse(sleeper.isAlive());
        assertFalse(namespaceExists(router), router + " still exists");
    }

    @Test
    @NeedsNetns
    void removesLeftoversOfDeadRunsOnly() throws Exception
    {
        final Process dead = new ProcessBuilder("true").start();
        dead.waitFor();
        final String leftover = "tkl-" + Long.toString(dead.pid(), 36) + "-0-router";
        Commands.run(List.of("ip", "netns", "add", leftover)).checked();
        try (NetNs live = NetNs.create("tkl"))
        {
            assertFalse(namespaceExists(leftover), leftover + " should have been removed");
            final Namespace mine = live.namespace("mine");
            assertEquals(List.of(), NetNs.removeLeftovers("tkl"));
            assertTrue(namespaceExists(mine.name()));
        }
        finally
        {
            Commands.run(List.of("ip", "netns", "delete", leftover));
        }
    }

    @Test
    void readsTheOwnerPidFromANameWithItsPrefixOnly()
    {
        assertEquals(Optional.of(1234L), NetNs.ownerPid("bgp", "bgp-" + Long.toString(1234, 36) + "-0-router"));
        assertEquals(Optional.empty(), NetNs.ownerPid("bg", "bgp-ya-0-router"));
        assertEquals(Optional.empty(), NetNs.ownerPid("bgp", "bgp-router"));
    }

    @Test
    @NeedsNetns
    void rejectsInterfaceNamesLongerThanLinuxAllows()
    {
        try (NetNs run = NetNs.create("tkv"))
        {
            final Namespace a = run.namespace("a");
            final Namespace b = run.namespace("b");
            final IllegalArgumentException error = assertThrows(IllegalArgumentException.class, () -> run.veth(a, "a234567890123456", b, "b1"));
            assertTrue(error.getMessage().contains("1-15"), error.getMessage());
        }
    }

    private static boolean namespaceExists(final String name)
    {
        return Commands.run(Duration.ofSeconds(10), List.of("ip", "netns", "list")).checked().lines()
            .anyMatch(line -> line.split("\\s+")[0].equals(name));
    }
}
