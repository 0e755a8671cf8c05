package io.sluice.forwarder.agent;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CoreHolderTest
{
    private static final Path LOCK_FILE = Path.of("/tmp/cpu-1.lock");

    @Test
    void namesTheCoreThePidTheProgramTheTimeAndTheLockFile()
    {
        final CoreHolder holder = new CoreHolder(1, 7270, "2026.12.02 at 02:48:10 UTC",
            "java io.sluice.forwarder.ForwarderMain --config /etc/sluice/lb1.yaml", LOCK_FILE);

        assertEquals("core 1 is held by pid 7270 (java io.sluice.forwarder.ForwarderMain --config " +
            "/etc/sluice/lb1.yaml) since 2026.12.02 at 02:48:10 UTC (lock file /tmp/cpu-1.lock): stop that process " +
            "or give this worker another core", holder.describe());
    }

    @Test
    void saysWhatItDoesNotKnow()
    {
        assertEquals("core 3 is held by pid 42 (lock file /tmp/cpu-1.lock): stop that process or give this worker " +
            "another core", new CoreHolder(3, 42, "", "", LOCK_FILE).describe());
        assertEquals("core 0 is held by another process (its lock file gives no pid) (lock file /tmp/cpu-1.lock): " +
            "stop that process or give this worker another core",
            new CoreHolder(0, CoreHolder.NO_PID, "", "", LOCK_FILE).describe());
    }

    @Test
    void showsAJvmsMainClassAndArgumentsWithoutItsOptions()
    {
        assertEquals("java io.sluice.forwarder.ForwarderMain --config lb1.yaml", CoreHolder.shortCommand(List.of(
            "/usr/lib/jvm/temurin-25-jdk-amd64/bin/java", "--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED",
            "--add-opens", "java.base/java.nio=ALL-UNNAMED", "--enable-native-access=ALL-UNNAMED", "-Xmx512m",
            "-Dsluice.home=/opt/sluice", "-cp", "/opt/sluice/lib/sluice-forwarder-all.jar",
            "io.sluice.forwarder.ForwarderMain", "--config", "lb1.yaml")));
        assertEquals("java sluice-benchmarks.jar BurstLatencyBenchmark", CoreHolder.shortCommand(List.of(
            "java", "-XX:InlineSmallCode=6000", "-jar", "sluice-benchmarks.jar", "BurstLatencyBenchmark")));
        assertEquals("java app/io.example.Main", CoreHolder.shortCommand(List.of("java", "-p", "mods", "-m",
            "app/io.example.Main")));
    }

    @Test
    void showsOtherProgramsByFileNameWithTheirArguments()
    {
        assertEquals("dpdk-testpmd -l 0-1 --no-pci", CoreHolder.shortCommand(List.of("/usr/bin/dpdk-testpmd", "-l",
            "0-1", "--no-pci")));
        assertEquals("", CoreHolder.shortCommand(List.of()));
    }

    @Test
    void cutsALongCommandLine()
    {
        final String command = CoreHolder.shortCommand(List.of("java", "io.example.Main", "x".repeat(500)));

        assertEquals(CoreHolder.MAX_COMMAND_LENGTH, command.length());
        assertTrue(command.startsWith("java io.example.Main xxx") && command.endsWith("..."), command);
    }
}
