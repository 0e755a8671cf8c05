package io.sluice.tools.control;

import io.sluice.common.control.ControlChannel;
import io.sluice.common.control.ControlCommand;
import io.sluice.common.control.ControlProtocol;
import io.sluice.common.control.WireFields;
import io.sluice.common.Vip;
import io.sluice.common.config.Durations;
import io.sluice.common.config.IpLiterals;

import java.net.InetAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The parsed command line of {@link ControlTool}. Options may come anywhere; every problem is a
 * {@link BadArgumentException} whose message names the argument.
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

    private static final Set<String> VALUE_OPTIONS = Set.of("--file", "--node", "--dir", "--timeout", "--name",
        "--weight", "--max", "--start-file");
    private static final Set<String> FLAG_OPTIONS = Set.of("--down", "--json");
    private static final String VIP_ARGS = "ADDR PORT tcp|udp";

    /**
     * Tells whether the arguments ask for help.
     *
     * @param args the command line.
     * @return true when --help or -h is among them.
     */
    static boolean wantsHelp(final String[] args)
    {
        for (final String arg : args)
        {
            if ("--help".equals(arg) || "-h".equals(arg))
            {
                return true;
            }
        }
        return false;
    }

    /**
     * Parses a command line.
     *
     * @param args the command line.
     * @return the parsed command.
     * @throws BadArgumentException naming the argument at fault.
     */
    static ControlToolCommandLine parse(final String[] args)
    {
        final Map<String, String> values = new HashMap<>();
        final Set<String> flags = new HashSet<>();
        final List<String> words = new ArrayList<>();
        for (int i = 0; i < args.length; i++)
        {
            final String arg = args[i];
            if (VALUE_OPTIONS.contains(arg))
            {
                if (i + 1 >= args.length)
                {
                    throw new BadArgumentException(arg + " needs a value");
                }
                if (values.put(arg, args[++i]) != null)
                {
                    throw new BadArgumentException(arg + " is given twice");
                }
            }
            else if (FLAG_OPTIONS.contains(arg))
            {
                if (!flags.add(arg))
                {
                    throw new BadArgumentException(arg + " is given twice");
                }
            }
            else if (arg.startsWith("--"))
            {
                throw new BadArgumentException("unknown option: " + arg);
            }
            else
            {
                words.add(arg);
            }
        }
        if (words.isEmpty())
        {
            throw new BadArgumentException("a command is required (add-vip, remove-vip, add-backend, " +
                "remove-backend, set-weight, set-health, drain, state, burst)");
        }
        final Path file = file(values);
        final String verb = words.get(0);
        final boolean burst = "burst".equals(verb);
        final Duration timeout = burst && !values.containsKey("--timeout") ? DEFAULT_BURST_TIMEOUT :
            timeout(values.get("--timeout"));
        final List<String> operands = words.subList(1, words.size());
        final ControlCommand command = command(verb, operands, values, flags);
        if (command != null && flags.contains("--json"))
        {
            throw new BadArgumentException("--json applies to state only");
        }
        final int burstMax = values.containsKey("--max") ? burstMax(values.get("--max")) : DEFAULT_BURST_MAX;
        final String startFile = values.get("--start-file");
        return new ControlToolCommandLine(file, timeout, verb, command, flags.contains("--json"), burstMax,
            startFile == null ? null : Path.of(startFile));
    }

    private static ControlCommand command(final String verb, final List<String> operands,
        final Map<String, String> values, final Set<String> flags)
    {
        final boolean addBackend = "add-backend".equals(verb);
        allowOnly(verb, values, flags, addBackend || "add-vip".equals(verb), "--name");
        allowOnly(verb, values, flags, addBackend, "--weight");
        allowOnly(verb, values, flags, addBackend, "--down");
        allowOnly(verb, values, flags, "burst".equals(verb), "--max");
        allowOnly(verb, values, flags, "burst".equals(verb), "--start-file");
        final String name = values.get("--name");
        switch (verb)
        {
            case "add-vip":
                expectOperands(verb, operands, VIP_ARGS, 3);
                return new ControlCommand.AddVip(vip(operands), checkName(name));
            case "remove-vip":
                expectOperands(verb, operands, VIP_ARGS, 3);
                return new ControlCommand.RemoveVip(vip(operands));
            case "add-backend":
                expectOperands(verb, operands, VIP_ARGS + " BACKEND", 4);
                return new ControlCommand.AddBackend(vip(operands), backend(operands),
                    values.containsKey("--weight") ? weight("--weight", values.get("--weight")) : DEFAULT_WEIGHT,
                    !flags.contains("--down"), checkName(name));
            case "remove-backend":
                expectOperands(verb, operands, VIP_ARGS + " BACKEND", 4);
                return new ControlCommand.RemoveBackend(vip(operands), backend(operands));
            case "set-weight":
                expectOperands(verb, operands, VIP_ARGS + " BACKEND WEIGHT", 5);
                return new ControlCommand.SetBackendWeight(vip(operands), backend(operands),
                    weight("WEIGHT", operands.get(4)));
            case "burst":
                expectOperands(verb, operands, VIP_ARGS + " BACKEND WEIGHT", 5);
                return new ControlCommand.SetBackendWeight(vip(operands), backend(operands),
                    weight("WEIGHT", operands.get(4)));
            case "set-health":
                expectOperands(verb, operands, VIP_ARGS + " BACKEND up|down", 5);
                return new ControlCommand.SetBackendHealth(vip(operands), backend(operands), health(operands.get(4)));
            case "drain":
                expectOperands(verb, operands, VIP_ARGS + " BACKEND", 4);
                return new ControlCommand.DrainBackend(vip(operands), backend(operands));
            case "state":
                expectOperands(verb, operands, "", 0);
                return null;
            default:
                throw new BadArgumentException("unknown command '" + verb + "'");
        }
    }

    private static Path file(final Map<String, String> values)
    {
        final String file = values.get("--file");
        final String node = values.get("--node");
        final String dir = values.get("--dir");
        if (file != null && (node != null || dir != null))
        {
            throw new BadArgumentException("--file cannot be combined with --node or --dir");
        }
        if (file != null)
        {
            return Path.of(file);
        }
        if (node == null)
        {
            throw new BadArgumentException("--file PATH or --node NAME is required");
        }
        try
        {
            return ControlChannel.nodeFile(dir == null ? ControlChannel.DEFAULT_DIRECTORY : Path.of(dir), node);
        }
        catch (final IllegalArgumentException ex)
        {
            throw new BadArgumentException("--node: " + ex.getMessage());
        }
    }

    private static Duration timeout(final String text)
    {
        if (text == null)
        {
            return DEFAULT_TIMEOUT;
        }
        try
        {
            final long nanos = Durations.parseNanos(text);
            if (nanos <= 0)
            {
                throw new BadArgumentException("--timeout must be positive, got '" + text + "'");
            }
            return Duration.ofNanos(nanos);
        }
        catch (final IllegalArgumentException ex)
        {
            throw new BadArgumentException("--timeout: " + ex.getMessage());
        }
    }

    private static void allowOnly(final String verb, final Map<String, String> values, final Set<String> flags,
        final boolean allowed, final String option)
    {
        if (!allowed && (values.containsKey(option) || flags.contains(option)))
        {
            throw new BadArgumentException(option + " does not apply to " + verb);
        }
    }

    private static void expectOperands(final String verb, final List<String> operands, final String shape,
        final int count)
    {
        if (operands.size() != count)
        {
            throw new BadArgumentException(verb + " takes " + (count == 0 ? "no arguments" : shape) + ", got " +
                (operands.isEmpty() ? "none" : String.join(" ", operands)));
        }
    }

    private static Vip vip(final List<String> operands)
    {
        final InetAddress address = address("ADDR", operands.get(0));
        final int port = port(operands.get(1));
        final int protocol = switch (operands.get(2))
        {
            case "tcp" -> Vip.TCP;
            case "udp" -> Vip.UDP;
            default -> throw new BadArgumentException("protocol must be tcp or udp, got '" + operands.get(2) + "'");
        };
        return new Vip(address, port, protocol);
    }

    private static InetAddress backend(final List<String> operands)
    {
        return address("BACKEND", operands.get(3));
    }

    private static InetAddress address(final String what, final String text)
    {
        try
        {
            return IpLiterals.parse(text);
        }
        catch (final IllegalArgumentException ex)
        {
            throw new BadArgumentException(what + ": " + ex.getMessage());
        }
    }

    private static int port(final String text)
    {
        if ("*".equals(text))
        {
            return Vip.ALL_PORTS;
        }
        final int port = integer(text);
        if (port < 0 || port > 65535)
        {
            throw new BadArgumentException("PORT must be 0..65535 (0 or * for all ports), got '" + text + "'");
        }
        return port;
    }

    private static int weight(final String what, final String text)
    {
        final int weight = integer(text);
        if (weight < 0 || weight > ControlProtocol.MAX_WEIGHT)
        {
            throw new BadArgumentException(what + " must be an integer 0.." + ControlProtocol.MAX_WEIGHT +
                ", got '" + text + "'");
        }
        return weight;
    }

    private static int burstMax(final String text)
    {
        final int max = integer(text);
        if (max < 1)
        {
            throw new BadArgumentException("--max must be an integer 1..999999999, got '" + text + "'");
        }
        return max;
    }

    private static boolean health(final String text)
    {
        return switch (text)
        {
            case "up" -> true;
            case "down" -> false;
            default -> throw new BadArgumentException("health must be up or down, got '" + text + "'");
        };
    }

    private static String checkName(final String name)
    {
        try
        {
            WireFields.utf8(name, "--name");
            return name;
        }
        catch (final IllegalArgumentException ex)
        {
            throw new BadArgumentException(ex.getMessage());
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

    /**
     * A command line the tool cannot run; the message names the argument and the reason.
     */
    static final class BadArgumentException extends RuntimeException
    {
        private static final long serialVersionUID = 1L;

        BadArgumentException(final String message)
        {
            super(message);
        }
    }
}
