package io.sluice.forwarder.capture;

import io.sluice.common.cli.CommandLines;
import io.sluice.common.config.ForwarderConfig;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.PrintStream;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;

/**
 * The command line of {@code sluice capture}, a picocli command: options parsed by picocli, their values checked
 * here (every problem a usage error naming the option, exit 2), then {@link CaptureTool} runs the capture.
 */
@Command(name = "sluice capture", synopsisHeading = "", customSynopsis = {CaptureArguments.USAGE_1,
    CaptureArguments.USAGE_2, CaptureArguments.USAGE_3, CaptureArguments.USAGE_4},
    description = {"Copies the frames a running forwarder receives (rx, as received) and sends (tx, after " +
        "encapsulation) that pass the filter into a pcapng file, until N frames, S seconds or Ctrl-C."},
    footerHeading = "%n", footer = "exit status: 0 done, 1 no forwarder or another capture runs, 2 bad arguments")
final class CaptureArguments implements Callable<Integer>
{
    // The usage line, in lines short enough that picocli does not wrap them.
    static final String USAGE_1 = "usage: capture (--node NAME [--dir DIR] | --file PATH) -w FILE.pcapng [--port P]";
    static final String USAGE_2 = "         [--direction rx|tx|both] [--vip ADDRESS[:PORT]] [--backend ADDRESS]";
    static final String USAGE_3 =
        "         [--match SRC[/LEN][,DST[/LEN][,SPORT[,DPORT[,PROTO]]]]] [--count N] [--seconds S]";
    static final String USAGE_4 = "         [--snaplen N] [--json]";

    @Spec
    private CommandSpec spec;

    @Option(names = "--node", paramLabel = "NAME", description = "the node whose forwarder to capture from")
    private String node;

    @Option(names = "--dir", paramLabel = "DIR", defaultValue = ForwarderConfig.DEFAULT_COUNTERS_DIRECTORY,
        description = "where --node looks (default ${DEFAULT-VALUE})")
    private Path dir;

    @Option(names = "--file", paramLabel = "PATH", description = "the forwarder's capture file, instead of --node")
    private Path captureFile;

    @Option(names = {"-w", "--write"}, paramLabel = "FILE.pcapng", description = "the pcapng file to write")
    private Path output;

    @Option(names = "--port", paramLabel = "P", description = "only this port (name or id; default every port)")
    private String port;

    @Option(names = "--direction", paramLabel = "rx|tx|both", description = "which frames (default both)")
    private String direction;

    @Option(names = "--vip", paramLabel = "ADDRESS[:PORT]", description = "only frames to or from this VIP")
    private String vip;

    @Option(names = "--backend", paramLabel = "ADDRESS", description = "only frames sent to this backend")
    private String backend;

    @Option(names = "--match", paramLabel = "SRC[/LEN][,DST[/LEN][,SPORT[,DPORT[,PROTO]]]]",
        description = "only frames whose inner 5-tuple matches; * or empty for any field")
    private String match;

    @Option(names = "--count", paramLabel = "N", description = "stop after N frames (default no limit)")
    private String count;

    @Option(names = "--seconds", paramLabel = "S",
        description = "stop after S seconds, 0 < S <= 86400 (default until SIGINT/SIGTERM)")
    private String seconds;

    @Option(names = "--snaplen", paramLabel = "N", description = "bytes kept per frame, 64..65535")
    private String snapLength;

    @Option(names = "--json", description = "print the summary as JSON")
    private boolean json;

    private final PrintStream out;
    private final PrintStream err;
    private final CaptureFilter filter = new CaptureFilter();
    private Path file;
    private long frameCount;
    private double duration;

    CaptureArguments(final PrintStream out, final PrintStream err)
    {
        this.out = out;
        this.err = err;
    }

    /**
     * Parses and checks a command line without running it (tests).
     *
     * @param args the command line.
     * @return the checked arguments.
     * @throws CommandLine.ParameterException naming the option at fault.
     */
    static CaptureArguments parse(final String... args)
    {
        final CaptureArguments arguments = new CaptureArguments(System.out, System.err);
        CommandLines.of(arguments, System.out, System.err, 2).parseArgs(args);
        arguments.check();
        return arguments;
    }

    @Override
    public Integer call()
    {
        check();
        return CaptureTool.capture(this, out, err);
    }

    private void check()
    {
        if (output == null)
        {
            throw CommandLines.usageError(spec, "-w FILE is required");
        }
        if ((node == null) == (captureFile == null))
        {
            throw CommandLines.usageError(spec, "give --node NAME or --file PATH");
        }
        if (node != null && (node.isEmpty() || node.contains("/") || node.equals(".") || node.equals("..")))
        {
            throw CommandLines.usageError(spec, "--node: not a node name: " + node);
        }
        file = captureFile != null ? captureFile : dir.resolve(node).resolve(CaptureFile.FILE_NAME);
        if (direction != null)
        {
            filter.directions(direction(direction));
        }
        if (vip != null)
        {
            vip(filter, vip);
        }
        if (backend != null)
        {
            filter.backend(address("--backend", backend));
        }
        if (match != null)
        {
            match(filter, match);
        }
        frameCount = count == null ? 0 : number("--count", count, 1, Long.MAX_VALUE);
        duration = seconds == null ? 0 : seconds(seconds);
        if (snapLength != null)
        {
            filter.snapLength((int)number("--snaplen", snapLength, 64, 65_535));
        }
    }

    /** @return the capture file of the forwarder. */
    Path file()
    {
        return file;
    }

    /** @return the pcapng file to write. */
    Path output()
    {
        return output;
    }

    /** @return a port name or id, or null for every port. */
    String port()
    {
        return port;
    }

    /** @return the filter (without the port, which needs the forwarder's port names). */
    CaptureFilter filter()
    {
        return filter;
    }

    /** @return stop after this many frames (0: no limit). */
    long count()
    {
        return frameCount;
    }

    /** @return stop after this long (0: until SIGINT/SIGTERM). */
    double seconds()
    {
        return duration;
    }

    /** @return print the summary as JSON. */
    boolean json()
    {
        return json;
    }

    private int direction(final String value)
    {
        return switch (value.toLowerCase(Locale.ROOT))
        {
            case "rx", "in" -> CaptureFilter.RX;
            case "tx", "out" -> CaptureFilter.TX;
            case "both" -> CaptureFilter.BOTH;
            default -> throw CommandLines.usageError(spec, "--direction: expected rx, tx or both, got " + value);
        };
    }

    private void vip(final CaptureFilter filter, final String value)
    {
        String host = value;
        int port = CaptureFilter.ANY;
        if (value.startsWith("["))
        {
            final int close = value.indexOf(']');
            if (close < 0)
            {
                throw CommandLines.usageError(spec, "--vip: missing ] in " + value);
            }
            host = value.substring(1, close);
            if (close + 1 < value.length())
            {
                if (value.charAt(close + 1) != ':')
                {
                    throw CommandLines.usageError(spec, "--vip: expected [ADDRESS]:PORT, got " + value);
                }
                port = (int)number("--vip", value.substring(close + 2), 0, 65_535);
            }
        }
        else if (value.indexOf(':') >= 0 && value.indexOf(':') == value.lastIndexOf(':'))
        {
            host = value.substring(0, value.indexOf(':'));
            port = (int)number("--vip", value.substring(value.indexOf(':') + 1), 0, 65_535);
        }
        filter.vip(address("--vip", host), port);
    }

    private void match(final CaptureFilter filter, final String value)
    {
        final String[] parts = value.split(",", -1);
        if (parts.length > 5)
        {
            throw CommandLines.usageError(spec, "--match: at most 5 fields (src,dst,sport,dport,proto), got " + value);
        }
        for (int i = 0; i < parts.length; i++)
        {
            final String part = parts[i].trim();
            if (part.isEmpty() || part.equals("*"))
            {
                continue;
            }
            switch (i)
            {
                case 0, 1 ->
                {
                    final int slash = part.indexOf('/');
                    final InetAddress address = address("--match", slash < 0 ? part : part.substring(0, slash));
                    final int max = address.getAddress().length * 8;
                    final int length = slash < 0 ? max : (int)number("--match", part.substring(slash + 1), 0, max);
                    if (i == 0)
                    {
                        filter.source(address, length);
                    }
                    else
                    {
                        filter.destination(address, length);
                    }
                }
                case 2 -> filter.sourcePort((int)number("--match", part, 0, 65_535));
                case 3 -> filter.destinationPort((int)number("--match", part, 0, 65_535));
                default -> filter.protocol(protocol(part));
            }
        }
    }

    private int protocol(final String value)
    {
        return switch (value.toLowerCase(Locale.ROOT))
        {
            case "tcp" -> 6;
            case "udp" -> 17;
            case "icmp" -> 1;
            case "icmpv6", "icmp6" -> 58;
            case "gre" -> 47;
            default -> (int)number("--match", value, 0, 255);
        };
    }

    private InetAddress address(final String option, final String value)
    {
        if (value.isEmpty() || !(value.indexOf(':') >= 0 || value.matches("[0-9.]+")))
        {
            throw CommandLines.usageError(spec, option + ": not an IP address literal: " + value);
        }
        try
        {
            return InetAddress.getByName(value);
        }
        catch (final UnknownHostException ex)
        {
            throw CommandLines.usageError(spec, option + ": not an IP address literal: " + value);
        }
    }

    private long number(final String option, final String value, final long min, final long max)
    {
        try
        {
            final long n = Long.parseLong(value.trim());
            if (n < min || n > max)
            {
                throw CommandLines.usageError(spec, option + ": " + value + " is outside " + min + ".." + max);
            }
            return n;
        }
        catch (final NumberFormatException ex)
        {
            throw CommandLines.usageError(spec, option + ": not a number: " + value);
        }
    }

    private double seconds(final String value)
    {
        try
        {
            final double s = Double.parseDouble(value);
            if (!(s > 0) || s > 86_400)
            {
                throw CommandLines.usageError(spec, "--seconds: expected 0 < S <= 86400, got " + value);
            }
            return s;
        }
        catch (final NumberFormatException ex)
        {
            throw CommandLines.usageError(spec, "--seconds: not a number: " + value);
        }
    }
}
