package io.sluice.tools.control;

import io.sluice.common.cli.CommandLines;
import io.sluice.common.config.ForwarderConfig;
import io.sluice.common.control.ControlChannel;
import io.sluice.common.control.ControlCommand;
import io.sluice.common.control.ControlProtocol;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.ScopeType;
import picocli.CommandLine.Spec;

import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;

/**
 * The picocli commands of {@code sluice control}: the channel options ({@code --file}, {@code --node}, {@code --dir},
 * {@code --timeout}, accepted before or after the command word) and one subcommand per control command. Each
 * subcommand checks its operands into a {@link ControlToolCommandLine} and hands it to {@link ControlTool}.
 */
@Command(name = "control", synopsisHeading = "", customSynopsis = ControlTool.USAGE, commandListHeading = "commands:%n",
    footerHeading = "%n", footer = {
        "ADDR and BACKEND are IP literals (never resolved); PORT is 0..65535, 0 or * for all ports; W is 0..65535.",
        "exit status: 0 accepted, 1 rejected, 2 bad arguments, 3 no answer in time, 4 no forwarder"},
    subcommands = {
        ControlCommands.AddVip.class, ControlCommands.RemoveVip.class, ControlCommands.AddBackend.class,
        ControlCommands.RemoveBackend.class, ControlCommands.SetWeight.class, ControlCommands.SetHealth.class,
        ControlCommands.Drain.class, ControlCommands.State.class, ControlCommands.Burst.class})
final class ControlCommands implements Callable<Integer>
{
    @Spec
    CommandSpec spec;

    @Option(names = "--file", paramLabel = "PATH", scope = ScopeType.INHERIT,
        description = "the forwarder's control file")
    String file;

    @Option(names = "--node", paramLabel = "NAME", scope = ScopeType.INHERIT,
        description = "the node's control file, DIR/NAME/" + ControlChannel.FILE_NAME)
    String node;

    @Option(names = "--dir", paramLabel = "DIR", scope = ScopeType.INHERIT,
        description = "where --node looks (default " + ForwarderConfig.DEFAULT_COUNTERS_DIRECTORY + ")")
    String dir;

    @Option(names = "--timeout", paramLabel = "DURATION", scope = ScopeType.INHERIT,
        description = "how long to wait for the answer, e.g. 500ms or 5s (default 5s; burst: 20s)")
    String timeout;

    final PrintStream out;
    final PrintStream err;

    ControlCommands(final PrintStream out, final PrintStream err)
    {
        this.out = out;
        this.err = err;
    }

    @Override
    public Integer call()
    {
        throw CommandLines.usageError(spec, "a command is required (add-vip, remove-vip, add-backend, " +
            "remove-backend, set-weight, set-health, drain, state, burst)");
    }

    // The channel and timeout every subcommand shares; then the tool sends the command.
    int send(final CommandSpec subcommand, final ControlCommand command, final boolean json, final int burstMax,
        final Path startFile)
    {
        final Path channel = ControlToolCommandLine.file(subcommand, file, node, dir);
        final boolean burst = "burst".equals(subcommand.name());
        final Duration wait = ControlToolCommandLine.timeout(subcommand, timeout,
            burst ? ControlToolCommandLine.DEFAULT_BURST_TIMEOUT : ControlToolCommandLine.DEFAULT_TIMEOUT);
        return ControlTool.run(new ControlToolCommandLine(channel, wait, subcommand.name(), command, json, burstMax,
            startFile), out, err);
    }

    /** The operands every command on a VIP starts with. */
    abstract static class OnVip implements Callable<Integer>
    {
        @Spec
        CommandSpec spec;

        @ParentCommand
        ControlCommands control;

        @Parameters(index = "0", paramLabel = "ADDR", description = "the VIP's address")
        String address;

        @Parameters(index = "1", paramLabel = "PORT", description = "the VIP's port, 0 or * for all ports")
        String port;

        @Parameters(index = "2", paramLabel = "tcp|udp", description = "the VIP's protocol")
        String protocol;

        io.sluice.common.Vip vip()
        {
            return ControlToolCommandLine.vip(spec, address, port, protocol);
        }

        int send(final ControlCommand command)
        {
            return control.send(spec, command, false, ControlToolCommandLine.DEFAULT_BURST_MAX, null);
        }
    }

    /** The operands of a command on one backend of a VIP. */
    abstract static class OnBackend extends OnVip
    {
        @Parameters(index = "3", paramLabel = "BACKEND", description = "the backend's address")
        String backend;

        java.net.InetAddress backend()
        {
            return ControlToolCommandLine.address(spec, "BACKEND", backend);
        }
    }

    @Command(name = "add-vip", description = "add a VIP (no backends yet)")
    static final class AddVip extends OnVip
    {
        @Option(names = "--name", paramLabel = "N", description = "the VIP's name in counters and state")
        String name;

        @Override
        public Integer call()
        {
            return send(new ControlCommand.AddVip(vip(), ControlToolCommandLine.checkName(spec, name)));
        }
    }

    @Command(name = "remove-vip", description = "remove a VIP and its backends")
    static final class RemoveVip extends OnVip
    {
        @Override
        public Integer call()
        {
            return send(new ControlCommand.RemoveVip(vip()));
        }
    }

    @Command(name = "add-backend", description = "add a backend to a VIP")
    static final class AddBackend extends OnBackend
    {
        @Option(names = "--weight", paramLabel = "W",
            description = "its weight, 0.." + ControlProtocol.MAX_WEIGHT + " (default " +
                ControlToolCommandLine.DEFAULT_WEIGHT + ")")
        String weight;

        @Option(names = "--down", description = "add it as down (health checks not passed yet)")
        boolean down;

        @Option(names = "--name", paramLabel = "N", description = "the backend's name in counters and state")
        String name;

        @Override
        public Integer call()
        {
            return send(new ControlCommand.AddBackend(vip(), backend(),
                weight == null ? ControlToolCommandLine.DEFAULT_WEIGHT :
                    ControlToolCommandLine.weight(spec, "--weight", weight),
                !down, ControlToolCommandLine.checkName(spec, name)));
        }
    }

    @Command(name = "remove-backend", description = "remove a backend from a VIP")
    static final class RemoveBackend extends OnBackend
    {
        @Override
        public Integer call()
        {
            return send(new ControlCommand.RemoveBackend(vip(), backend()));
        }
    }

    @Command(name = "set-weight", description = "set a backend's weight")
    static final class SetWeight extends OnBackend
    {
        @Parameters(index = "4", paramLabel = "WEIGHT", description = "0.." + ControlProtocol.MAX_WEIGHT)
        String weight;

        @Override
        public Integer call()
        {
            return send(new ControlCommand.SetBackendWeight(vip(), backend(),
                ControlToolCommandLine.weight(spec, "WEIGHT", weight)));
        }
    }

    @Command(name = "set-health", description = "mark a backend up or down")
    static final class SetHealth extends OnBackend
    {
        @Parameters(index = "4", paramLabel = "up|down", description = "its health")
        String health;

        @Override
        public Integer call()
        {
            return send(new ControlCommand.SetBackendHealth(vip(), backend(),
                ControlToolCommandLine.health(spec, health)));
        }
    }

    @Command(name = "drain", description = "weight 0: no new flows, established flows stay")
    static final class Drain extends OnBackend
    {
        @Override
        public Integer call()
        {
            return send(new ControlCommand.DrainBackend(vip(), backend()));
        }
    }

    @Command(name = "state", description = "print the forwarder's VIPs and backends")
    static final class State implements Callable<Integer>
    {
        @Spec
        CommandSpec spec;

        @ParentCommand
        ControlCommands control;

        @Option(names = "--json", description = "as one JSON object")
        boolean json;

        @Override
        public Integer call()
        {
            return control.send(spec, null, json, ControlToolCommandLine.DEFAULT_BURST_MAX, null);
        }
    }

    @Command(name = "burst", description = {
        "a drill: set-weight M times without waiting, or until the command ring is full; then wait --timeout " +
            "(default 20s) for every answer"})
    static final class Burst extends OnBackend
    {
        @Parameters(index = "4", paramLabel = "WEIGHT", description = "0.." + ControlProtocol.MAX_WEIGHT)
        String weight;

        @Option(names = "--max", paramLabel = "M",
            description = "the most commands to write (default " + ControlToolCommandLine.DEFAULT_BURST_MAX + ")")
        String max;

        @Option(names = "--start-file", paramLabel = "F",
            description = "first wait (at most " + 60 + " s) until F exists")
        Path startFile;

        @Override
        public Integer call()
        {
            final ControlCommand command = new ControlCommand.SetBackendWeight(vip(), backend(),
                ControlToolCommandLine.weight(spec, "WEIGHT", weight));
            return control.send(spec, command, false,
                max == null ? ControlToolCommandLine.DEFAULT_BURST_MAX : ControlToolCommandLine.burstMax(spec, max),
                startFile);
        }
    }
}
