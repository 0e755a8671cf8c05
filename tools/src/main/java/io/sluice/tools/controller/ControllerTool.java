package io.sluice.tools.controller;

import io.sluice.common.config.ConfigException;
import io.sluice.common.config.MetricsConfig;
import io.sluice.common.config.NodeConfig;
import io.sluice.controller.operator.ActionToken;

import java.io.IOException;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code sluice status|drain|undrain|set-weight}: asks the node's running controller over its HTTP endpoint (the
 * {@code controller.metrics} address of the node's config, localhost by default).
 * <pre>
 * sluice status     --config FILE [--json]
 * sluice drain      --config FILE VIP BACKEND          weight 0: existing flows stay, no new ones
 * sluice undrain    --config FILE VIP BACKEND          back to the weight before the drain
 * sluice set-weight --config FILE VIP BACKEND WEIGHT   0..65535
 * sluice reload     --config FILE                      re-read the node config: VIPs, backends, weights, checks
 * </pre>
 * VIP is the VIP's name; BACKEND its name or address. Without {@code --config}, the file is {@code $SLUICE_CONFIG},
 * else {@code /etc/sluice/node.yaml}. Exit status: 0 done, 1 refused or no controller, 2 usage or
 * bad config.
 */
public final class ControllerTool
{
    static final int EXIT_FAILED = 1;
    static final int EXIT_USAGE = 2;
    static final String USAGE = """
        usage: sluice status     --config FILE [--json]
               sluice drain      --config FILE VIP BACKEND
               sluice undrain    --config FILE VIP BACKEND
               sluice set-weight --config FILE VIP BACKEND WEIGHT
               sluice reload     --config FILE""";
    /** The node config used when neither --config nor SLUICE_CONFIG names one. */
    static final Path DEFAULT_CONFIG = Path.of("/etc/sluice/node.yaml");
    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    private ControllerTool()
    {
    }

    /**
     * Runs the tool.
     *
     * @param args the subcommand and its arguments.
     */
    public static void main(final String[] args)
    {
        System.exit(run(args, System.out, System.err));
    }

    static int run(final String[] args, final PrintStream out, final PrintStream err)
    {
        if (args.length == 0)
        {
            err.println(USAGE);
            return EXIT_USAGE;
        }
        final String command = args[0];
        Path configFile = null;
        boolean json = false;
        final List<String> positional = new ArrayList<>();
        for (int i = 1; i < args.length; i++)
        {
            if (args[i].equals("--config") && i + 1 < args.length)
            {
                configFile = Path.of(args[++i]);
            }
            else if (args[i].equals("--json") && command.equals("status"))
            {
                json = true;
            }
            else if (args[i].startsWith("--"))
            {
                err.println("sluice " + command + ": unknown option '" + args[i] + "'\n" + USAGE);
                return EXIT_USAGE;
            }
            else
            {
                positional.add(args[i]);
            }
        }
        if (configFile == null && System.getenv("SLUICE_CONFIG") != null)
        {
            configFile = Path.of(System.getenv("SLUICE_CONFIG"));
        }
        if (configFile == null && Files.isRegularFile(DEFAULT_CONFIG))
        {
            configFile = DEFAULT_CONFIG;
        }
        final int expected = switch (command)
        {
            case "status", "reload" -> 0;
            case "drain", "undrain" -> 2;
            case "set-weight" -> 3;
            default -> -1;
        };
        if (expected < 0 || positional.size() != expected || configFile == null)
        {
            err.println((expected < 0 ? "sluice: unknown command '" + command + "'" :
                configFile == null ? "sluice " + command + ": --config FILE is required (or SLUICE_CONFIG, or " +
                DEFAULT_CONFIG + ")" :
                "sluice " + command + ": expected " + expected + " arguments, got " + positional.size()) + "\n" + USAGE);
            return EXIT_USAGE;
        }
        final NodeConfig config;
        try
        {
            config = NodeConfig.load(configFile);
        }
        catch (final ConfigException ex)
        {
            err.println(ex.getMessage());
            return EXIT_USAGE;
        }
        final String base = baseUri(config.controller().metrics());
        final HttpRequest request;
        if (command.equals("status"))
        {
            request = HttpRequest.newBuilder(URI.create(base + "/status" + (json ? "?format=json" : "")))
                .timeout(TIMEOUT).GET().build();
        }
        else
        {
            // Actions carry the running controller's token, which only its user can read.
            final String token;
            try
            {
                token = ActionToken.read(config.nodeDirectory());
            }
            catch (final IOException ex)
            {
                err.println("sluice " + command + ": cannot read the controller's token " +
                    config.nodeDirectory().resolve(ActionToken.FILE_NAME) + " (" + ex + "); is the controller " +
                    "running, and are you its user (or root)?");
                return EXIT_FAILED;
            }
            final String path = command.equals("reload") ? "/reload" : "/" + command + "?vip=" +
                encode(positional.get(0)) + "&backend=" + encode(positional.get(1)) +
                (command.equals("set-weight") ? "&weight=" + encode(positional.get(2)) : "");
            request = HttpRequest.newBuilder(URI.create(base + path)).timeout(TIMEOUT)
                .header("Authorization", ActionToken.header(token))
                .POST(HttpRequest.BodyPublishers.noBody()).build();
        }
        try
        {
            final HttpResponse<String> response = HttpClient.newBuilder().connectTimeout(TIMEOUT).build()
                .send(request, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
            (response.statusCode() == 200 ? out : err).print(response.body());
            return response.statusCode() == 200 ? 0 : EXIT_FAILED;
        }
        catch (final IOException ex)
        {
            err.println("sluice " + command + ": no controller answers at " + base + " (" + ex + "); is " +
                "`sluice controller --config " + configFile + "` running?");
            return EXIT_FAILED;
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            return EXIT_FAILED;
        }
    }

    static String baseUri(final MetricsConfig metrics)
    {
        InetAddress address = metrics.address();
        if (address.isAnyLocalAddress())
        {
            address = InetAddress.getLoopbackAddress(); // listening on all addresses: loopback reaches it
        }
        final String host = address.getHostAddress();
        return "http://" + (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + metrics.port();
    }

    private static String encode(final String text)
    {
        return URLEncoder.encode(text, StandardCharsets.UTF_8);
    }
}
