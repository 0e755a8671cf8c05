package io.sluice.forwarder.capture;

import io.sluice.common.config.ForwarderConfig;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.util.Locale;

/**
 * The command line of {@code sluice capture}.
 *
 * @param file     the capture file of the forwarder.
 * @param output   the pcapng file to write.
 * @param port     a port name or id, or null for every port.
 * @param filter   the filter (without the port, which needs the forwarder's port names).
 * @param count    stop after this many frames (0: no limit).
 * @param seconds  stop after this long (0: until SIGINT/SIGTERM).
 * @param json     print the summary as JSON.
 */
record CaptureArguments(Path file, Path output, String port, CaptureFilter filter, long count, double seconds,
    boolean json)
{
    static final String USAGE = "usage: capture (--node NAME [--dir DIR] | --file PATH) -w FILE.pcapng " +
        "[--port P] [--direction rx|tx|both] [--vip ADDRESS[:PORT]] [--backend ADDRESS] " +
        "[--match SRC[/LEN][,DST[/LEN][,SPORT[,DPORT[,PROTO]]]]] [--count N] [--seconds S] [--snaplen N] [--json]";

    /**
     * A bad command line; the message says which option and why.
     */
    static final class BadArgumentException extends Exception
    {
        private static final long serialVersionUID = 1L;

        BadArgumentException(final String message)
        {
            super(message);
        }
    }

    static CaptureArguments parse(final String... args) throws BadArgumentException
    {
        String node = null;
        Path dir = ForwarderConfig.DEFAULT_COUNTERS_DIR;
        Path file = null;
        Path output = null;
        String port = null;
        long count = 0;
        double seconds = 0;
        boolean json = false;
        final CaptureFilter filter = new CaptureFilter();
        for (int i = 0; i < args.length; i++)
        {
            final String option = args[i];
            if ("--json".equals(option))
            {
                json = true;
                continue;
            }
            if (i + 1 >= args.length)
            {
                throw new BadArgumentException(option.startsWith("-") ? option + " needs a value" :
                    "unexpected argument " + option);
            }
            final String value = args[++i];
            switch (option)
            {
                case "--node" -> node = value;
                case "--dir" -> dir = Path.of(value);
                case "--file" -> file = Path.of(value);
                case "-w", "--write" -> output = Path.of(value);
                case "--port" -> port = value;
                case "--direction" -> filter.directions(direction(value));
                case "--vip" -> vip(filter, value);
                case "--backend" -> filter.backend(address("--backend", value));
                case "--match" -> match(filter, value);
                case "--count" -> count = number("--count", value, 1, Long.MAX_VALUE);
                case "--seconds" -> seconds = seconds(value);
                case "--snaplen" -> filter.snapLength((int)number("--snaplen", value, 64, 65_535));
                default -> throw new BadArgumentException("unknown option " + option);
            }
        }
        if (output == null)
        {
            throw new BadArgumentException("-w FILE is required");
        }
        if ((node == null) == (file == null))
        {
            throw new BadArgumentException("give --node NAME or --file PATH");
        }
        if (node != null && (node.isEmpty() || node.contains("/") || node.equals(".") || node.equals("..")))
        {
            throw new BadArgumentException("--node: not a node name: " + node);
        }
        return new CaptureArguments(file != null ? file : dir.resolve(node).resolve(CaptureFile.FILE_NAME), output,
            port, filter, count, seconds, json);
    }

    private static int direction(final String value) throws BadArgumentException
    {
        return switch (value.toLowerCase(Locale.ROOT))
        {
            case "rx", "in" -> CaptureFilter.RX;
            case "tx", "out" -> CaptureFilter.TX;
            case "both" -> CaptureFilter.BOTH;
            default -> throw new BadArgumentException("--direction: expected rx, tx or both, got " + value);
        };
    }

    private static void vip(final CaptureFilter filter, final String value) throws BadArgumentException
    {
        String host = value;
        int port = CaptureFilter.ANY;
        if (value.startsWith("["))
        {
            final int close = value.indexOf(']');
            if (close < 0)
            {
                throw new BadArgumentException("--vip: missing ] in " + value);
            }
            host = value.substring(1, close);
            if (close + 1 < value.length())
            {
                if (value.charAt(close + 1) != ':')
                {
                    throw new BadArgumentException("--vip: expected [ADDRESS]:PORT, got " + value);
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

    private static void match(final CaptureFilter filter, final String value) throws BadArgumentException
    {
        final String[] parts = value.split(",", -1);
        if (parts.length > 5)
        {
            throw new BadArgumentException("--match: at most 5 fields (src,dst,sport,dport,proto), got " + value);
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

    private static int protocol(final String value) throws BadArgumentException
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

    private static InetAddress address(final String option, final String value) throws BadArgumentException
    {
        if (value.isEmpty() || !(value.indexOf(':') >= 0 || value.matches("[0-9.]+")))
        {
            throw new BadArgumentException(option + ": not an IP address literal: " + value);
        }
        try
        {
            return InetAddress.getByName(value);
        }
        catch (final UnknownHostException ex)
        {
            throw new BadArgumentException(option + ": not an IP address literal: " + value);
        }
    }

    private static long number(final String option, final String value, final long min, final long max)
        throws BadArgumentException
    {
        try
        {
            final long n = Long.parseLong(value.trim());
            if (n < min || n > max)
            {
                throw new BadArgumentException(option + ": " + value + " is outside " + min + ".." + max);
            }
            return n;
        }
        catch (final NumberFormatException ex)
        {
            throw new BadArgumentException(option + ": not a number: " + value);
        }
    }

    private static double seconds(final String value) throws BadArgumentException
    {
        try
        {
            final double s = Double.parseDouble(value);
            if (!(s > 0) || s > 86_400)
            {
                throw new BadArgumentException("--seconds: expected 0 < S <= 86400, got " + value);
            }
            return s;
        }
        catch (final NumberFormatException ex)
        {
            throw new BadArgumentException("--seconds: not a number: " + value);
        }
    }
}
