package io.sluice.tools.controller;

import io.sluice.common.cli.CommandLines;
import io.sluice.common.config.ConfigException;
import io.sluice.common.config.MetricsConfig;
import io.sluice.common.config.NodeConfig;
import io.sluice.controller.operator.ActionToken;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

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
import java.util.concurrent.Callable;

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
@Command(name = "sluice", synopsisHeading = "", customSynopsis = ControllerTool.USAGE, commandListHeading = "commands:%n",
    footerHeading = "%n", footer = {
        "Without --config, the file is $SLUICE_CONFIG, else /etc/sluice/node.yaml. VIP is the VIP's name; BACKEND its " +
            "name or address.",
        "exit status: 0 done, 1 refused or no controller, 2 usage or bad config"},
    subcommands = {
        ControllerTool.Status.class, ControllerTool.Drain.class, ControllerTool.Undrain.class,
        ControllerTool.SetWeight.class, ControllerTool.Reload.class})
public final class ControllerTool implements Callable<Integer>
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

    @Spec
    private CommandSpec spec;

    private final PrintStream out;
    private final PrintStream err;

    private ControllerTool(final PrintStream out, final PrintStream err)
    {
        this.out = out;
        this.err = err;
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

    /**
     * Runs the tool.
     *
     * @param args the subcommand and its arguments.
     * @param out  where answers go.
     * @param err  where problems go.
     * @return 0 done, 1 refused or no controller, 2 usage or bad config.
     */
    public static int run(final String[] args, final PrintStream out, final PrintStream err)
    {
        final CommandLine commandLine = CommandLines.of(new ControllerTool(out, err), out, err, EXIT_USAGE, true);
        if (args.length == 0)
        {
            commandLine.usage(err);
            return EXIT_USAGE;
        }
        return CommandLines.execute(commandLine, args);
    }

    @Override
    public Integer call()
    {
        throw CommandLines.usageError(spec, "a command is required (status, drain, undrain, set-weight, reload)");
    }

    /** What every subcommand has: the node config that names the controller. */
    abstract static class ControllerCommand implements Callable<Integer>
    {
        @Spec
        CommandSpec spec;

        @CommandLine.ParentCommand
        ControllerTool tool;

        @Option(names = "--config", paramLabel = "FILE",
            description = "the node config (default $SLUICE_CONFIG, else " + "/etc/sluice/node.yaml" + ")")
        Path configFile;

        /**
         * The controller's path and query for this command.
         *
         * @return e.g. {@code /drain?vip=web&backend=be1}.
         */
        abstract String path();

        /** @return true for a GET (status), false for an action, which carries the controller's token. */
        boolean read()
        {
            return false;
        }

        @Override
        public Integer call()
        {
            return tool.ask(this);
        }
    }

    @Command(name = "status", description = "the running controller's view: forwarder liveness, BGP, VIPs, " +
        "backends (health, weight, slots)")
    static final class Status extends ControllerCommand
    {
        @Option(names = "--json", description = "as one JSON object")
        boolean json;

        @Override
        String path()
        {
            return "/status" + (json ? "?format=json" : "");
        }

        @Override
        boolean read()
        {
            return true;
        }
    }

    /** A command on one backend of a VIP. */
    abstract static class OnBackend extends ControllerCommand
    {
        @Parameters(index = "0", paramLabel = "VIP", description = "the VIP's name")
        String vip;

        @Parameters(index = "1", paramLabel = "BACKEND", description = "the backend's name or address")
        String backend;

        String query()
        {
            return "?vip=" + encode(vip) + "&backend=" + encode(backend);
        }
    }

    @Command(name = "drain", description = "weight 0 through the controller: existing flows stay, no new ones " +
        "(kept across restarts)")
    static final class Drain extends OnBackend
    {
        @Override
        String path()
        {
            return "/drain" + query();
        }
    }

    @Command(name = "undrain", description = "back to the weight the backend had before the drain")
    static final class Undrain extends OnBackend
    {
        @Override
        String path()
        {
            return "/undrain" + query();
        }
    }

    @Command(name = "set-weight", description = "a new weight through the controller")
    static final class SetWeight extends OnBackend
    {
        @Parameters(index = "2", paramLabel = "WEIGHT", description = "0..65535")
        String weight;

        @Override
        String path()
        {
            return "/set-weight" + query() + "&weight=" + encode(weight);
        }
    }

    @Command(name = "reload", description = "the controller re-reads the node config and applies VIP, backend, " +
        "weight and health-check changes (also on SIGHUP); other changes are refused with the reason")
    static final class Reload extends ControllerCommand
    {
        @Override
        String path()
        {
            return "/reload";
        }
    }

    private int ask(final ControllerCommand command)
    {
        final String name = command.spec.name();
        Path configFile = command.configFile;
        if (configFile == null && System.getenv("SLUICE_CONFIG") != null)
        {
            configFile = Path.of(System.getenv("SLUICE_CONFIG"));
        }
        if (configFile == null && Files.isRegularFile(DEFAULT_CONFIG))
        {
            configFile = DEFAULT_CONFIG;
        }
        if (configFile == null)
        {
            throw CommandLines.usageError(command.spec, "--config FILE is required (or SLUICE_CONFIG, or " +
                DEFAULT_CONFIG + ")");
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
        if (command.read())
        {
            request = HttpRequest.newBuilder(URI.create(base + command.path())).timeout(TIMEOUT).GET().build();
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
                err.println("sluice " + name + ": cannot read the controller's token " +
                    config.nodeDirectory().resolve(ActionToken.FILE_NAME) + " (" + ex + "); is the controller " +
                    "running, and are you its user (or root)?");
                return EXIT_FAILED;
            }
            request = HttpRequest.newBuilder(URI.create(base + command.path())).timeout(TIMEOUT)
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
            err.println("sluice " + name + ": no controller answers at " + base + " (" + ex + "); is " +
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
