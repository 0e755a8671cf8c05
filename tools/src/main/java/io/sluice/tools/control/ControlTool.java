package io.sluice.tools.control;

import io.sluice.common.control.ForwarderServices;
import io.sluice.common.control.ControlChannel;
import io.sluice.common.control.ControlClient;
import io.sluice.common.control.ControlException;
import io.sluice.common.control.ControlResponse;
import io.sluice.common.cli.CommandLines;
import org.agrona.concurrent.BackoffIdleStrategy;
import picocli.CommandLine;

import java.io.PrintStream;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Sends one command to a running forwarder over its control channel and prints the answer: the operator's
 * {@code sluice control ...} and a test harness.
 * <pre>
 *   control (--file PATH | --node NAME [--dir DIR]) [--timeout 5s] COMMAND ARGS...
 * </pre>
 * Prints {@code accepted} (exit 0) or {@code rejected: REASON} (exit 1); a bad command line exits 2 naming the
 * argument, no answer in time exits 3, no usable forwarder (file missing, stale or not a control file) exits 4.
 */
public final class ControlTool
{
    public static final int EXIT_ACCEPTED = 0;
    public static final int EXIT_REJECTED = 1;
    public static final int EXIT_USAGE = 2;
    public static final int EXIT_TIMEOUT = 3;
    public static final int EXIT_NO_FORWARDER = 4;

    /** How long {@code burst} tries to write one command before taking the ring for full. */
    static final Duration BURST_SEND_TIMEOUT = Duration.ofMillis(100);
    /** How long {@code burst --start-file} waits for the file. */
    static final Duration START_FILE_WAIT = Duration.ofSeconds(60);

    static final String USAGE = "usage: control (--file PATH | --node NAME [--dir DIR]) [--timeout DURATION] " +
        "COMMAND ARGS...";

    private ControlTool()
    {
    }

    /**
     * Runs the tool and exits with its status.
     *
     * @param args the command line.
     */
    public static void main(final String[] args)
    {
        System.exit(run(args, System.out, System.err));
    }

    /**
     * Runs the tool.
     *
     * @param args the command line.
     * @param out  where answers go.
     * @param err  where problems go.
     * @return the exit status, one of the {@code EXIT_} constants.
     */
    public static int run(final String[] args, final PrintStream out, final PrintStream err)
    {
        final CommandLine commandLine = CommandLines.of(new ControlCommands(out, err), out, err, EXIT_USAGE);
        if (args.length == 0)
        {
            commandLine.usage(err);
            return EXIT_USAGE;
        }
        return CommandLines.execute(commandLine, args);
    }

    /**
     * Sends a checked command line's command and prints the answer.
     *
     * @param commandLine the command line, checked.
     * @param out         where answers go.
     * @param err         where problems go.
     * @return the exit status, one of the {@code EXIT_} constants.
     */
    static int run(final ControlToolCommandLine commandLine, final PrintStream out, final PrintStream err)
    {
        final ControlChannel channel;
        try
        {
            channel = ControlChannel.open(commandLine.file());
        }
        catch (final ControlException ex)
        {
            err.println("control: " + ex.getMessage());
            return EXIT_NO_FORWARDER;
        }
        try
        {
            if (!channel.isOwnerAlive())
            {
                err.println("control: the forwarder that created " + commandLine.file() + " (pid " +
                    channel.ownerPid() + ") is not running");
                return EXIT_NO_FORWARDER;
            }
            if ("burst".equals(commandLine.verb()))
            {
                return burst(channel, commandLine, out, err);
            }
            final ControlClient client = new ControlClient(channel);
            return commandLine.command() == null ?
                printState(client, commandLine, out, err) : execute(client, commandLine, out, err);
        }
        finally
        {
            channel.close();
        }
    }

    private static int execute(final ControlClient client, final ControlToolCommandLine commandLine,
        final PrintStream out, final PrintStream err)
    {
        final ControlResponse response;
        try
        {
            response = client.execute(commandLine.command(), commandLine.timeout());
        }
        catch (final ControlException ex)
        {
            err.println("control: " + commandLine.verb() + " not sent: " + ex.getMessage());
            return EXIT_TIMEOUT;
        }
        switch (response.status())
        {
            case ACCEPTED:
                out.println("accepted");
                return EXIT_ACCEPTED;
            case REJECTED:
                out.println("rejected: " + response.reason());
                return EXIT_REJECTED;
            default:
                err.println("control: " + commandLine.verb() + ": " + response.reason());
                return EXIT_TIMEOUT;
        }
    }

    // Writes the same command until the ring is full (or --max), then collects every answer: a second producer
    // on the ring beside the controller, to fill it while the forwarder is stopped.
    private static int burst(final ControlChannel channel, final ControlToolCommandLine commandLine,
        final PrintStream out, final PrintStream err)
    {
        final ControlClient client = new ControlClient(channel, BURST_SEND_TIMEOUT,
            new BackoffIdleStrategy(10, 20, 1_000, 1_000_000));
        if (commandLine.startFile() != null)
        {
            out.println("waiting for " + commandLine.startFile());
            out.flush();
            if (!awaitFile(commandLine, err))
            {
                return EXIT_TIMEOUT;
            }
        }
        final List<Long> sent = new ArrayList<>();
        String full = null;
        while (sent.size() < commandLine.burstMax())
        {
            try
            {
                sent.add(client.send(commandLine.command()));
            }
            catch (final ControlException ex)
            {
                full = ex.getMessage();
                break;
            }
        }
        out.println("written " + sent.size() + (full != null ? "; ring full (" + full + ")" :
            "; ring not full after --max " + commandLine.burstMax()));
        out.flush();
        final long deadline = System.nanoTime() + commandLine.timeout().toNanos();
        int accepted = 0;
        int rejected = 0;
        int unanswered = 0;
        String firstProblem = null;
        for (final long id : sent)
        {
            final ControlResponse response = client.await(id,
                Duration.ofNanos(Math.max(1, deadline - System.nanoTime())));
            switch (response.status())
            {
                case ACCEPTED -> accepted++;
                case REJECTED -> rejected++;
                default -> unanswered++;
            }
            if (!response.isAccepted() && firstProblem == null)
            {
                firstProblem = response.status() + ": " + response.reason();
            }
        }
        out.println("accepted " + accepted + ", rejected " + rejected + ", unanswered " + unanswered +
            (firstProblem == null ? "" : "; first: " + firstProblem));
        if (rejected > 0)
        {
            return EXIT_REJECTED;
        }
        return unanswered > 0 ? EXIT_TIMEOUT : EXIT_ACCEPTED;
    }

    private static boolean awaitFile(final ControlToolCommandLine commandLine, final PrintStream err)
    {
        final long deadline = System.nanoTime() + START_FILE_WAIT.toNanos();
        while (!Files.exists(commandLine.startFile()))
        {
            if (System.nanoTime() - deadline >= 0)
            {
                err.println("control: burst: " + commandLine.startFile() + " did not appear within " +
                    START_FILE_WAIT.toSeconds() + " s");
                return false;
            }
            try
            {
                Thread.sleep(2);
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
                return false;
            }
        }
        return true;
    }

    private static int printState(final ControlClient client, final ControlToolCommandLine commandLine,
        final PrintStream out, final PrintStream err)
    {
        final ForwarderServices state;
        try
        {
            state = client.getState(commandLine.timeout());
        }
        catch (final ControlException ex)
        {
            final ControlResponse response = ex.response();
            if (response != null && response.status() == ControlResponse.Status.REJECTED)
            {
                out.println("rejected: " + response.reason());
                return EXIT_REJECTED;
            }
            err.println("control: state: " + ex.getMessage());
            return EXIT_TIMEOUT;
        }
        if (commandLine.json())
        {
            out.println(StateFormatter.json(state));
        }
        else
        {
            out.print(StateFormatter.text(state));
        }
        return EXIT_ACCEPTED;
    }
}
