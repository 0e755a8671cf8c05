package io.sluice.controller.bgp;

import io.sluice.common.config.BgpConfig;
import io.sluice.common.config.BgpNeighborConfig;
import io.sluice.common.config.IpLiterals;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Writes ExaBGP 4.2's configuration for a node from {@code exabgp/exabgp.conf.template}: one process, the relay,
 * and one neighbor block per configured neighbor that reports its session changes to the relay. Each session
 * carries the neighbors' address family ({@code ipv4 unicast} or {@code ipv6 unicast}), since routes go out with
 * {@code next-hop self}, an address of that family. Per neighbor it sets the hold time, the TCP MD5 password
 * (base64, so any bytes pass ExaBGP's tokenizer) and the graceful restart capability.
 *
 * <p>Pure: the same inputs give the same text.
 */
public final class ExaBgpConfigWriter
{
    /**
     * The template's classpath resource name, next to this class.
     */
    public static final String TEMPLATE_RESOURCE = "exabgp.conf.template";

    private static final String BEGIN = "#neighbor-begin";
    private static final String END = "#neighbor-end";
    private static final Pattern PLACEHOLDER = Pattern.compile("\\$\\{([a-z_]+)}");
    // ExaBGP's tokenizer splits on blanks and treats these as syntax; a path holding one would break the file.
    private static final Pattern UNSAFE = Pattern.compile("[\\s;{}\\[\\]\"'#]");

    /** RFC 4724 §3: the restart time is a 12-bit field. */
    private static final int MAX_RESTART_TIME_SECONDS = 4095;

    private final String head;
    private final String neighbor;
    private final String tail;

    /**
     * Creates a writer from a template's text.
     *
     * @param template the template: a head with {@code ${relay_command}}, then the neighbor block between a line
     *                 starting {@code #neighbor-begin} and a line starting {@code #neighbor-end}.
     * @throws IllegalArgumentException when the markers are missing.
     */
    public ExaBgpConfigWriter(final String template)
    {
        final int begin = template.indexOf(BEGIN);
        final int end = template.indexOf(END);
        if (begin < 0 || end < begin)
        {
            throw new IllegalArgumentException("template lacks " + BEGIN + " ... " + END + " lines");
        }
        head = template.substring(0, begin);
        neighbor = template.substring(lineEnd(template, begin), end);
        tail = template.substring(lineEnd(template, end));
    }

    /**
     * Creates a writer from the template on the classpath.
     *
     * @return the writer.
     */
    public static ExaBgpConfigWriter fromClasspath()
    {
        return new ExaBgpConfigWriter(resource(TEMPLATE_RESOURCE));
    }

    /**
     * Writes the configuration.
     *
     * @param bgp          the node's BGP settings.
     * @param relayCommand the relay's program and arguments, without the socket (see
     *                     {@link ExaBgpFiles#relayCommand}).
     * @param socket       the controller's Unix-domain socket, the relay's last argument.
     * @return the configuration text.
     * @throws IllegalArgumentException when a command word or the socket path holds a blank or ExaBGP syntax.
     */
    public String write(final BgpConfig bgp, final List<String> relayCommand, final Path socket)
    {
        return write(bgp, relayCommand, socket, Map.of());
    }

    /**
     * Writes the configuration with the neighbors' TCP MD5 passwords.
     *
     * @param bgp          the node's BGP settings.
     * @param relayCommand the relay's program and arguments, without the socket.
     * @param socket       the controller's Unix-domain socket, the relay's last argument.
     * @param passwords    each {@link BgpNeighborConfig#md5PasswordFile()} to the password it holds.
     * @return the configuration text.
     * @throws IllegalArgumentException when a command word or the socket path holds a blank or ExaBGP syntax, or a
     *                                  neighbor's password is not in {@code passwords}.
     */
    public String write(final BgpConfig bgp, final List<String> relayCommand, final Path socket,
        final Map<Path, byte[]> passwords)
    {
        final List<String> run = new ArrayList<>(relayCommand);
        run.add(socket.toString());
        for (final String word : run)
        {
            if (word.isEmpty() || UNSAFE.matcher(word).find())
            {
                throw new IllegalArgumentException("ExaBGP cannot run a command word with blanks or ;{}[]\"'#: '" +
                    word + "'");
            }
        }
        final StringBuilder text = new StringBuilder(fill(head, Map.of("relay_command", String.join(" ", run))));
        for (final BgpNeighborConfig session : bgp.sessions())
        {
            final Map<String, String> values = new HashMap<>();
            values.put("neighbor", IpLiterals.format(session.address()));
            values.put("router_id", IpLiterals.format(bgp.routerId()));
            values.put("local_address", IpLiterals.format(session.localAddress()));
            values.put("local_as", Long.toString(bgp.localAs()));
            values.put("peer_as", Long.toString(bgp.peerAs()));
            values.put("family", session.ipv6() ? "ipv6" : "ipv4");
            values.put("hold_time", Integer.toString(session.holdTimeSeconds()));
            values.put("tcp_password", md5Lines(session, passwords));
            // ExaBGP's restart time: how long the router keeps our routes while ExaBGP restarts.
            values.put("graceful_restart", session.gracefulRestart() ?
                Integer.toString(Math.min(session.holdTimeSeconds(), MAX_RESTART_TIME_SECONDS)) : "disable");
            text.append(fill(neighbor, values));
        }
        return text.append(fill(tail, Map.of())).toString();
    }

    /**
     * Reads a text resource that sits next to this class (the build copies {@code exabgp/} there).
     *
     * @param name the resource's name.
     * @return its text.
     * @throws IllegalStateException when it is missing.
     */
    static String resource(final String name)
    {
        try (InputStream in = ExaBgpConfigWriter.class.getResourceAsStream(name))
        {
            if (in == null)
            {
                throw new IllegalStateException("resource " + name + " is missing from the controller's classpath");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    private static String md5Lines(final BgpNeighborConfig session, final Map<Path, byte[]> passwords)
    {
        if (session.md5PasswordFile() == null)
        {
            return "";
        }
        final byte[] password = passwords.get(session.md5PasswordFile());
        if (password == null)
        {
            throw new IllegalArgumentException("no MD5 password read from " + session.md5PasswordFile() + " for " +
                "neighbor " + IpLiterals.format(session.address()));
        }
        return "    md5-password " + Base64.getEncoder().encodeToString(password) + ";\n    md5-base64 true;\n";
    }

    private static String fill(final String template, final Map<String, String> values)
    {
        final Matcher matcher = PLACEHOLDER.matcher(template);
        final StringBuilder filled = new StringBuilder();
        while (matcher.find())
        {
            final String value = values.get(matcher.group(1));
            if (value == null)
            {
                throw new IllegalArgumentException("template placeholder ${" + matcher.group(1) +
                    "} has no value here");
            }
            matcher.appendReplacement(filled, Matcher.quoteReplacement(value));
        }
        matcher.appendTail(filled);
        return filled.toString();
    }

    private static int lineEnd(final String text, final int from)
    {
        final int newline = text.indexOf('\n', from);
        return newline < 0 ? text.length() : newline + 1;
    }
}
