package io.sluice.tools;

import io.sluice.common.NodeProcess;
import io.sluice.tools.check.ConfigCheck;
import io.sluice.tools.check.HostFacts;
import io.sluice.tools.control.ControlTool;
import io.sluice.tools.controller.ControllerTool;
import io.sluice.tools.maglev.MaglevTool;
import io.sluice.tools.maglev.RemapTool;
import io.sluice.tools.stats.StatsTool;
import org.agrona.concurrent.ShutdownSignalBarrier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * {@code --help} on every command and subcommand {@code scripts/sluice} runs: exit 0, the usage on standard output
 * with every option the operator can type, nothing on standard error; and an option nobody knows: the usage status,
 * the option named on standard error, nothing on standard output.
 */
class CommandLineHelpTest
{
    private static final List<String> CHANNEL = List.of("--file", "--node", "--dir", "--timeout", "--help");
    private static ShutdownSignalBarrier barrier;

    @FunctionalInterface
    interface Tool
    {
        int run(String[] args, PrintStream out, PrintStream err);
    }

    record Run(int status, String out, String err)
    {
    }

    @BeforeAll
    static void createBarrier()
    {
        barrier = new ShutdownSignalBarrier();
    }

    @AfterAll
    static void closeBarrier()
    {
        barrier.close();
    }

    // sluice forwarder and sluice controller: the body must never run for --help or a bad option.
    private static Tool node(final String name)
    {
        return (args, out, err) -> NodeProcess.run(name, args, out, err, barrier, (file, config, o, e, b) ->
        {
            fail(name + " started with " + String.join(" ", args));
            return 1;
        });
    }

    private static Tool capture()
    {
        return (args, out, err) -> io.sluice.forwarder.capture.CaptureTool.run(out, err, args);
    }

    private static Arguments command(final String label, final Tool tool, final int usageStatus,
        final List<String> subcommand, final List<String> options)
    {
        return Arguments.of(label, tool, usageStatus, subcommand, options);
    }

    static Stream<Arguments> commands()
    {
        final List<Arguments> commands = new ArrayList<>();
        commands.add(command("forwarder", node("forwarder"), 2, List.of(), List.of("--config", "--help")));
        commands.add(command("controller", node("controller"), 2, List.of(), List.of("--config", "--help")));
        commands.add(command("status", ControllerTool::run, 2, List.of("status"),
            List.of("--config", "--json", "--help", "usage: sluice status")));
        for (final String action : List.of("drain", "undrain"))
        {
            commands.add(command(action, ControllerTool::run, 2, List.of(action),
                List.of("--config", "--help", "VIP", "BACKEND")));
        }
        commands.add(command("set-weight", ControllerTool::run, 2, List.of("set-weight"),
            List.of("--config", "--help", "VIP", "BACKEND", "WEIGHT")));
        commands.add(command("reload", ControllerTool::run, 2, List.of("reload"), List.of("--config", "--help")));
        commands.add(command("remap", RemapTool::run, 2, List.of(), List.of("--backends", "--remove", "--flows",
            "--table-size", "--vnodes", "--seed", "--flow-seed", "--json", "--help", "(default 65537)")));
        commands.add(command("maglev", MaglevTool::run, 2, List.of(), List.of("--backends", "--table-size", "--seed",
            "--iterations", "--warmup", "--json", "--help", "(default 50)")));
        commands.add(command("control", ControlTool::run, 2, List.of(), concat(CHANNEL, List.of("add-vip",
            "remove-vip", "add-backend", "remove-backend", "set-weight", "set-health", "drain", "state", "burst"))));
        commands.add(command("control add-vip", ControlTool::run, 2, List.of("add-vip"),
            concat(CHANNEL, List.of("--name", "ADDR", "PORT", "tcp|udp"))));
        commands.add(command("control remove-vip", ControlTool::run, 2, List.of("remove-vip"),
            concat(CHANNEL, List.of("ADDR", "PORT", "tcp|udp"))));
        commands.add(command("control add-backend", ControlTool::run, 2, List.of("add-backend"),
            concat(CHANNEL, List.of("--weight", "--down", "--name", "ADDR", "PORT", "tcp|udp", "BACKEND"))));
        for (final String verb : List.of("remove-backend", "drain"))
        {
            commands.add(command("control " + verb, ControlTool::run, 2, List.of(verb),
                concat(CHANNEL, List.of("ADDR", "PORT", "tcp|udp", "BACKEND"))));
        }
        commands.add(command("control set-weight", ControlTool::run, 2, List.of("set-weight"),
            concat(CHANNEL, List.of("ADDR", "PORT", "tcp|udp", "BACKEND", "WEIGHT"))));
        commands.add(command("control set-health", ControlTool::run, 2, List.of("set-health"),
            concat(CHANNEL, List.of("ADDR", "PORT", "tcp|udp", "BACKEND", "up|down"))));
        commands.add(command("control state", ControlTool::run, 2, List.of("state"),
            concat(CHANNEL, List.of("--json"))));
        commands.add(command("control burst", ControlTool::run, 2, List.of("burst"),
            concat(CHANNEL, List.of("--max", "--start-file", "ADDR", "PORT", "tcp|udp", "BACKEND", "WEIGHT"))));
        commands.add(command("stats", StatsTool::run, 2, List.of(), List.of("--file", "--node", "--dir", "--watch",
            "--interval", "--count", "--json", "--help")));
        commands.add(command("check-config", ConfigCheck::run, ConfigCheck.USAGE, List.of(),
            List.of("--cores", "--eal", "--help", "FILE")));
        commands.add(command("host-facts", HostFacts::run, ConfigCheck.USAGE, List.of(),
            List.of("--cores", "--help", "FILE")));
        commands.add(command("capture", capture(), 2, List.of(), List.of("--node", "--dir", "--file", "-w",
            "--write", "--port", "--direction", "--vip", "--backend", "--match", "--count", "--seconds", "--snaplen",
            "--json", "--help")));
        return commands.stream();
    }

    private static List<String> concat(final List<String> first, final List<String> second)
    {
        final List<String> all = new ArrayList<>(first);
        all.addAll(second);
        return all;
    }

    private static Run run(final Tool tool, final List<String> args)
    {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        final int status = tool.run(args.toArray(String[]::new), new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Run(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    @ParameterizedTest(name = "{0} --help")
    @MethodSource("commands")
    void printsHelpWithEveryOption(final String label, final Tool tool, final int usageStatus,
        final List<String> subcommand, final List<String> options)
    {
        final Run run = run(tool, concat(subcommand, List.of("--help")));
        assertEquals(0, run.status(), label + ": " + run.err());
        assertEquals("", run.err(), label);
        assertTrue(run.out().startsWith("usage: "), label + ":\n" + run.out());
        for (final String option : options)
        {
            assertTrue(run.out().contains(option), label + " --help lacks " + option + ":\n" + run.out());
        }
        assertEquals(run, run(tool, concat(subcommand, List.of("-h"))), label + " -h");
    }

    @ParameterizedTest(name = "{0} --no-such-option")
    @MethodSource("commands")
    void exitsWithTheUsageStatusNamingAnUnknownOption(final String label, final Tool tool, final int usageStatus,
        final List<String> subcommand, final List<String> options)
    {
        final Run run = run(tool, concat(subcommand, List.of("--no-such-option")));
        assertEquals(usageStatus, run.status(), label + ": " + run.err());
        assertEquals("", run.out(), label);
        assertTrue(run.err().contains("unknown option: --no-such-option"), label + ":\n" + run.err());
        assertTrue(run.err().contains("usage: "), label + ":\n" + run.err());
    }
}
