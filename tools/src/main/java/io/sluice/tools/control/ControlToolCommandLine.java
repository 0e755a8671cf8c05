package io.sluice.tools.control;

import io.sluice.common.control.ControlChannel;
import io.sluice.common.control.ControlCommand;
import io.sluice.common.control.ControlProtocol;
import io.sluice.common.control.WireFields;
import io.sluice.common.Vip;
import io.sluice.common.config.Durations;
import io.sluice.common.config.IpLiterals;
import io.sluice.common.cli.CommandLines;
import picocli.CommandLine.Model.CommandSpec;

import java.net.InetAddress;
import java.nio.file.Path;
import java.time.Duration;

/**
 * The checked command line of {@link ControlTool}, as {@link ControlCommands} (picocli) parsed it. The helpers
 * below turn operands into wire values; every problem is a usage error whose message names the argument.
 *
 * @param file    the control file.
 * @param timeout how long to wait for the answer.
 * @param verb    the command word, e.g. {@code drain}.
 * @param command the command to send, or null for {@code state}.
 * @param json    whether {@code state} prints JSON.
 * @param burstMax  for {@code burst}: the most commands to write.
 * @param startFile for {@code burst}: the file whose appearance starts the burst, or null to start at once.
 */
record ControlToolCommandLine(Path file, Duration timeout, String verb, ControlCommand command, boolean json,
    int burstMax, Path startFile)
{
    static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(5);
    static final Duration DEFAULT_BURST_TIMEOUT = Duration.ofSeconds(20);
    static final int DEFAULT_BURST_MAX = 100_000;
    static final int DEFAULT_WEIGHT = 1;

    static final String VIP_ARGS = "ADDR PORT tcp|udp";

    static Path file(final CommandSpec spec, final String file, final String node, final String dir)
    {
        if (file != null && (node != null || dir != null))
        {
            throw CommandLines.usageError(spec, "--file cannot be combined with --node or --dir");
        }
        if (file != null)
        {
            return Path.of(file);
        }
        if (node == null)
        {
            throw CommandLines.usageError(spec, "--file PATH or --node NAME is required");
        }
        try
        {
            return ControlChannel.nodeFile(dir == null ? ControlChannel.DEFAULT_DIRECTORY : Path.of(dir), node);
        }
        catch (final IllegalArgumentException ex)
        {
            throw CommandLines.usageError(spec, "--node: " + ex.getMessage());
        }
    }

    static Duration timeout(final CommandSpec spec, final String text, final Duration byDefault)
    {
        if (text == null)
        {
            return byDefault;
        }
        try
        {
            final long nanos = Durations.parseNanos(text);
            if (nanos <= 0)
            {
                throw CommandLines.usageError(spec, "--timeout must be positive, got '" + text + "'");
            }
            return Duration.ofNanos(nanos);
        }
        catch (final IllegalArgumentException ex)
        {
            throw CommandLines.usageError(spec, "--timeout: " + ex.getMessage());
        }
    }

    static Vip vip(final CommandSpec spec, final String addressText, final String portText, final String protocolText)
    {
        final InetAddress address = address(spec, "ADDR", addressText);
        final int port = port(spec, portText);
        final int protocol = switch (protocolText)
        {
            case "tcp" -> Vip.TCP;
            case "udp" -> Vip.UDP;
            default -> throw CommandLines.usageError(spec, "protocol must be tcp or udp, got '" + protocolText + "'");
        };
        return new Vip(address, port, protocol);
    }

    static InetAddress address(final CommandSpec spec, final String what, final String text)
    {
        try
        {
            return IpLiterals.parse(text);
        }
        catch (final IllegalArgumentException ex)
        {
            throw CommandLines.usageError(spec, what + ": " + ex.getMessage());
        }
    }

    private static int port(final CommandSpec spec, final String text)
    {
        if ("*".equals(text))
        {
            return Vip.ALL_PORTS;
        }
        final int port = integer(text);
        if (port < 0 || port > 65535)
        {
            throw CommandLines.usageError(spec, "PORT must be 0..65535 (0 or * for all ports), got '" + text + "'");
        }
        return port;
    }

    static int weight(final CommandSpec spec, final String what, final String text)
    {
        final int weight = integer(text);
        if (weight < 0 || weight > ControlProtocol.MAX_WEIGHT)
        {
            throw CommandLines.usageError(spec, what + " must be an integer 0.." + ControlProtocol.MAX_WEIGHT +
                ", got '" + text + "'");
        }
        return weight;
    }

    static int burstMax(final CommandSpec spec, final String text)
    {
        final int max = integer(text);
        if (max < 1)
        {
            throw CommandLines.usageError(spec, "--max must be an integer 1..999999999, got '" + text + "'");
        }
        return max;
    }

    static boolean health(final CommandSpec spec, final String text)
    {
        return switch (text)
        {
            case "up" -> true;
            case "down" -> false;
            default -> throw CommandLines.usageError(spec, "health must be up or down, got '" + text + "'");
        };
    }

    static String checkName(final CommandSpec spec, final String name)
    {
        try
        {
            WireFields.utf8(name, "--name");
            return name;
        }
        catch (final IllegalArgumentException ex)
        {
            throw CommandLines.usageError(spec, ex.getMessage());
        }
    }

    // -1 for anything that is not a plain decimal int, so every caller's range check names its argument.
    private static int integer(final String text)
    {
        if (text.isEmpty() || text.length() > 9)
        {
            return -1;
        }
        for (int i = 0; i < text.length(); i++)
        {
            if (text.charAt(i) < '0' || text.charAt(i) > '9')
            {
                return -1;
            }
        }
        return Integer.parseInt(text);
    }
}
