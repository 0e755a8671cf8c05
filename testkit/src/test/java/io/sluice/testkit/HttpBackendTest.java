package io.sluice.testkit;

import io.sluice.testkit.tags.NeedsNetns;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Real namespaces: the backend's namespace has a default route to a router that reaches no resolver, as in the
 * system tests, and an IPv6 address on lo.
 */
@NeedsNetns
class HttpBackendTest
{
    @Test
    void servesOnIpv6AndIpv4AsSoonAsStartReturns(@TempDir final Path directory) throws Exception
    {
        final Path root = Files.createDirectories(directory.resolve("www"));
        Files.writeString(root.resolve("hello.txt"), "hello\n");
        try (NetNs run = NetNs.create("tkh"))
        {
            final Namespace router = run.namespace("router");
            final Namespace backend = run.namespace("be");
            run.veth(router, "rb", backend, "be");
            router.sysctl("net.ipv4.ip_forward", "1");
            router.addAddress("rb", "10.20.0.1/24");
            backend.addAddress("be", "10.20.0.2/24");
            backend.addRoute("default", "via", "10.20.0.1");
            backend.exec("ip", "address", "add", "fd00:1::1/128", "dev", "lo", "nodad");
            backend.addAddress("lo", "10.1.0.1/32");

            final Process v6 = HttpBackend.start(backend, directory.resolve("v6.log"), "fd00:1::1", 8080, root);
            // No wait: start returned, so the port listens.
            assertEquals("hello\n", backend.exec("curl", "-sS", "-m", "5", "http://[fd00:1::1]:8080/hello.txt"));
            HttpBackend.start(backend, directory.resolve("v4.log"), "10.1.0.1", 8080, root);
            assertEquals("hello\n", backend.exec("curl", "-sS", "-m", "5", "http://10.1.0.1:8080/hello.txt"));
            assertTrue(v6.isAlive());

            // A second server on the same address and port cannot bind: start says so with the server's error.
            final AssertionError taken = assertThrows(AssertionError.class,
                () -> HttpBackend.start(backend, directory.resolve("taken.log"), "fd00:1::1", 8080, root));
            assertTrue(taken.getMessage().contains("exited") && taken.getMessage().contains("Address already in use"),
                taken.getMessage());
        }
    }

    @Test
    void rejectsAPortOutOfRange(@TempDir final Path directory)
    {
        assertThrows(IllegalArgumentException.class, () -> HttpBackend.start(null, directory, "::1", 0, directory));
    }
}
