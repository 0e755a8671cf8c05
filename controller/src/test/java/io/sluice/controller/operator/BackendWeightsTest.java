package io.sluice.controller.operator;

import io.sluice.common.Vip;
import io.sluice.common.config.BackendConfig;
import io.sluice.common.config.IpLiterals;
import io.sluice.common.config.NodeConfig;
import io.sluice.common.config.TransportProtocol;
import io.sluice.common.config.VipConfig;
import io.sluice.common.control.ControlCommand.SetBackendWeight;
import io.sluice.common.control.ForwarderServices;
import io.sluice.testkit.NodeYaml;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class BackendWeightsTest
{
    private static final InetAddress VIP_ADDRESS = IpLiterals.parse("10.100.0.1");
    private static final Vip WEB = new Vip(VIP_ADDRESS, 80, Vip.TCP);
    private static final InetAddress B1 = IpLiterals.parse("10.1.0.1");
    private static final InetAddress B2 = IpLiterals.parse("10.1.0.2");
    private static final List<VipConfig> VIPS = List.of(new VipConfig("web", VIP_ADDRESS, 80, TransportProtocol.TCP,
        List.of(new BackendConfig("be1", B1, 1), new BackendConfig("be2", B2, 4))));

    @TempDir
    Path dir;

    @Test
    void drainThenUndrainRestoresTheWeightBeforeTheDrain()
    {
        final BackendWeights weights = new BackendWeights(VIPS);
        assertEquals(new SetBackendWeight(WEB, B2, 9), weights.setWeight("web", "be2", 9));
        assertEquals(new SetBackendWeight(WEB, B2, 0), weights.drain("web", "10.1.0.2"));
        assertEquals(new SetBackendWeight(WEB, B2, 9), weights.undrain("web", "be2"));
        assertEquals(new SetBackendWeight(WEB, B2, 4), weights.setWeight("web", "be2", 4));
        assertEquals(List.of(), weights.overrides(), "the configured weight is no override");
    }

    @Test
    void fullStateHoldsOnlyTheOverrides()
    {
        final BackendWeights weights = new BackendWeights(VIPS);
        weights.drain("web", "be1");
        assertEquals(List.of(new SetBackendWeight(WEB, B1, 0)), weights.fullState());
    }

    @Test
    void refusesUnknownNamesAndWeightsWithTheReason()
    {
        final BackendWeights weights = new BackendWeights(VIPS);
        assertEquals("no VIP named 'api' (VIPs: web)",
            assertThrows(IllegalArgumentException.class, () -> weights.drain("api", "be1")).getMessage());
        assertEquals("VIP web has no backend 'be3' (backends: be1, be2)",
            assertThrows(IllegalArgumentException.class, () -> weights.drain("web", "be3")).getMessage());
        assertEquals("weight must be 0..65535, got 70000",
            assertThrows(IllegalArgumentException.class, () -> weights.setWeight("web", "be1", 70_000)).getMessage());
    }

    @Test
    void adoptsARunningForwardersDifferentWeights()
    {
        final BackendWeights weights = new BackendWeights(VIPS);
        final ForwarderServices state = new ForwarderServices(List.of(new ForwarderServices.VipState(WEB, "web",
            List.of(
            new ForwarderServices.BackendState(B1, 0, true, "be1", 0),
            new ForwarderServices.BackendState(B2, 4, true, "be2", 65537)))));
        assertEquals(1, weights.adopt(state));
        assertTrue(weights.entry("web", B1).drained());
        assertEquals(4, weights.entry("web", B2).effective());
    }

    @Test
    void overridesSurviveARestartThroughTheFile() throws IOException
    {
        final BackendWeights before = new BackendWeights(VIPS);
        before.drain("web", "be1");
        before.setWeight("web", "be2", 2);
        final OverridesFile file = new OverridesFile(dir.resolve("lb1").resolve(OverridesFile.FILE_NAME));
        file.write(before.overrides());

        final BackendWeights after = new BackendWeights(VIPS);
        final List<String> problems = new ArrayList<>();
        assertEquals(2, after.restore(file.read(problems)));
        assertEquals(List.of(), problems);
        assertEquals(before.fullState(), after.fullState());
    }

    @Test
    void skipsUnreadableLinesAndSaysWhich() throws IOException
    {
        final Path path = dir.resolve(OverridesFile.FILE_NAME);
        Files.writeString(path,
            "# comment\nweb\t10.1.0.1\tdrained=maybe\tweight=-1\nweb\t10.1.0.2\tdrained=false\tweight=3\n");
        final List<String> problems = new ArrayList<>();
        final List<BackendWeights.Entry> entries = new OverridesFile(path).read(problems);
        assertEquals(1, entries.size());
        assertEquals(List.of(path + ": line 2: drained must be true or false, got 'maybe' (skipped)"), problems);
    }

    @Test
    void keepsADrainInTheStateDirectoryWhenSharedMemoryIsWiped() throws Exception
    {
        final NodeConfig config = NodeConfig.parse("node.yaml", """
            node: {name: lb1, state_dir: %s}
            %s""".formatted(dir.resolve("state"), NodeYaml.nullForwarder(dir.resolve("shm"))), 1);
        final BackendWeights before = new BackendWeights(VIPS);
        before.drain("web", "be1");
        OverridesFile.of(config).write(before.overrides());
        assertEquals(dir.resolve("state/lb1").resolve(OverridesFile.FILE_NAME), OverridesFile.of(config).path());
        assertTrue(Files.notExists(config.nodeDirectory()), "nothing lasting in shared memory");

        final BackendWeights after = new BackendWeights(VIPS);
        assertEquals(1, after.restore(OverridesFile.of(config).read(new ArrayList<>())));
        assertTrue(after.entry("web", B1).drained());
    }

    @Test
    void movesAnOlderControllersFileOutOfSharedMemoryOnce() throws IOException
    {
        final Path legacy = dir.resolve("shm/lb1").resolve(OverridesFile.FILE_NAME);
        final BackendWeights before = new BackendWeights(VIPS);
        before.drain("web", "be2");
        new OverridesFile(legacy).write(before.overrides());
        final OverridesFile file = new OverridesFile(dir.resolve("state/lb1").resolve(OverridesFile.FILE_NAME));

        assertTrue(file.migrateFrom(legacy));
        assertTrue(Files.notExists(legacy));
        assertEquals(1, new BackendWeights(VIPS).restore(file.read(new ArrayList<>())));
        new OverridesFile(legacy).write(List.of());
        assertEquals(false, file.migrateFrom(legacy), "an existing file in the state directory wins");
        assertEquals(1, file.read(new ArrayList<>()).size());
    }
}
