package io.sluice.common.cli;

import picocli.CommandLine;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;
import picocli.CommandLine.ParameterException;

import java.io.PrintStream;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;

/**
 * Runs a picocli {@code @Command} the way every Sluice entry point runs: {@code -h}/{@code --help} on the command
 * and each subcommand (usage on standard output, exit 0), a usage error printed as {@code NAME: PROBLEM} and the
 * command's usage line on standard error with the tool's usage status, no {@code @file} expansion, and exceptions
 * of the command's own left to its caller.
 * <p>
 * The problem is worded as Sluice's tools have always worded it, so scripts and operators read the same text:
 * {@code --x is given twice}, {@code --x needs a value}, {@code --x is required}, {@code unknown option: --x},
 * {@code unknown command 'x'}, {@code add-vip takes ADDR PORT tcp|udp, got 192.0.2.1 80}. A command reports its
 * own checks (ranges, combinations) by throwing {@link #usageError}; {@link #intInRange} is the range check of an
 * integer option.
 */
public final class CommandLines
{
    /** Width of the help text, as the code and docs are wrapped. */
    static final int HELP_WIDTH = 110;

    private CommandLines()
    {
    }

    /**
     * Builds the command line of a command object with Sluice's conventions.
     *
     * @param command     a {@code @Command} object, usually a {@code Callable<Integer>}.
     * @param out         where help goes.
     * @param err         where usage errors go.
     * @param usageStatus the exit status of a usage error.
     * @return the command line, ready to {@link CommandLine#execute}.
     */
    public static CommandLine of(final Object command, final PrintStream out, final PrintStream err,
        final int usageStatus)
    {
        return of(command, out, err, usageStatus, false);
    }

    /**
     * Builds the command line of a command object with Sluice's conventions.
     *
     * @param command           a {@code @Command} object, usually a {@code Callable<Integer>}.
     * @param out               where help goes.
     * @param err               where usage errors go.
     * @param usageStatus       the exit status of a usage error.
     * @param subcommandInPrefix whether a usage error starts with the failing subcommand's full name
     *                          ({@code sluice drain: ...}) rather than the command's ({@code control: ...}).
     * @return the command line, ready to {@link CommandLine#execute}.
     */
    public static CommandLine of(final Object command, final PrintStream out, final PrintStream err,
        final int usageStatus, final boolean subcommandInPrefix)
    {
        final CommandLine commandLine = new CommandLine(command);
        addHelp(commandLine);
        commandLine.setExpandAtFiles(false);
        // "--config FILE", as the docs and the usage lines write an option and its value.
        commandLine.setSeparator(" ");
        if (!commandLine.getSubcommands().isEmpty())
        {
            commandsAfterSynopsis(commandLine);
        }
        commandLine.setUsageHelpWidth(HELP_WIDTH);
        commandLine.setOut(new PrintWriter(out, true));
        commandLine.setErr(new PrintWriter(err, true));
        commandLine.setParameterExceptionHandler((ex, args) ->
        {
            final String prefix = subcommandInPrefix ? ex.getCommandLine().getCommandSpec().qualifiedName() :
                commandLine.getCommandName();
            err.println(prefix + ": " + problem(ex));
            err.println(usageLine(commandLine));
            err.flush();
            return usageStatus;
        });
        return commandLine;
    }

    /**
     * Parses the arguments and runs the command.
     *
     * @param command     a {@code @Command} object implementing {@code Callable<Integer>} or {@code Runnable}.
     * @param args        the command line.
     * @param out         where help goes.
     * @param err         where usage errors go.
     * @param usageStatus the exit status of a usage error.
     * @return 0 after help, {@code usageStatus} after a usage error, else what the command returned.
     */
    public static int execute(final Object command, final String[] args, final PrintStream out,
        final PrintStream err, final int usageStatus)
    {
        final int status = execute(of(command, out, err, usageStatus), args);
        out.flush();
        return status;
    }

    /**
     * Parses the arguments and runs a command line built by {@link #of}. What the command itself throws reaches the
     * caller unchanged (picocli would print its stack trace and return 1).
     *
     * @param commandLine the command line.
     * @param args        the arguments.
     * @return 0 after help, the usage status after a usage error, else what the command returned.
     */
    public static int execute(final CommandLine commandLine, final String[] args)
    {
        final Throwable[] thrown = new Throwable[1];
        commandLine.setExecutionExceptionHandler((ex, failed, parseResult) ->
        {
            thrown[0] = ex instanceof CommandLine.ExecutionException && ex.getCause() != null ? ex.getCause() : ex;
            return 1;
        });
        final int status = commandLine.execute(args);
        if (thrown[0] instanceof RuntimeException runtime)
        {
            throw runtime;
        }
        if (thrown[0] instanceof Error error)
        {
            throw error;
        }
        if (thrown[0] != null)
        {
            throw new IllegalStateException(thrown[0]);
        }
        return status;
    }

    /**
     * A usage error found by the command itself, reported as picocli's own are.
     *
     * @param spec    the command's spec ({@code @Spec}).
     * @param message the argument at fault and the reason.
     * @return the exception to throw.
     */
    public static ParameterException usageError(final CommandSpec spec, final String message)
    {
        return new ParameterException(spec.commandLine(), message);
    }

    /**
     * The range check of an integer option, worded as the tools have always worded it:
     * {@code --iterations must be an integer in [1, 1000000], got '0'}.
     *
     * @param spec  the command's spec ({@code @Spec}).
     * @param name  the option, as the operator typed it ({@code --iterations}).
     * @param value the parsed value.
     * @param min   the least value allowed.
     * @param max   the greatest value allowed.
     * @return {@code value}, when it is in range.
     * @throws ParameterException (a {@link #usageError}) when it is not.
     */
    public static int intInRange(final CommandSpec spec, final String name, final int value, final long min,
        final long max)
    {
        if (value < min || value > max)
        {
            throw usageError(spec, name + " must be an integer in [" + min + ", " + max + "], got '" + value + "'");
        }
        return value;
    }

    /**
     * The usage line of a command: its synopsis after {@code usage: }.
     *
     * @param commandLine the command.
     * @return one or more lines, without a trailing newline.
     */
    public static String usageLine(final CommandLine commandLine)
    {
        final CommandLine.Help help = commandLine.getHelp();
        return (help.synopsisHeading() + help.synopsis(help.synopsisHeadingLength())).stripTrailing();
    }

    // A command of commands shows them first: what an operator looks for in its help.
    private static void commandsAfterSynopsis(final CommandLine commandLine)
    {
        final List<String> keys = new ArrayList<>(commandLine.getHelpSectionKeys());
        keys.remove(CommandLine.Model.UsageMessageSpec.SECTION_KEY_COMMAND_LIST_HEADING);
        keys.remove(CommandLine.Model.UsageMessageSpec.SECTION_KEY_COMMAND_LIST);
        final int at = keys.indexOf(CommandLine.Model.UsageMessageSpec.SECTION_KEY_SYNOPSIS) + 1;
        keys.addAll(at, List.of(CommandLine.Model.UsageMessageSpec.SECTION_KEY_COMMAND_LIST_HEADING,
            CommandLine.Model.UsageMessageSpec.SECTION_KEY_COMMAND_LIST));
        commandLine.setHelpSectionKeys(keys);
    }

    // -h/--help on every command and subcommand, added here so no command can forget it.
    private static void addHelp(final CommandLine commandLine)
    {
        final CommandSpec spec = commandLine.getCommandSpec();
        if (spec.findOption("--help") == null)
        {
            spec.addOption(OptionSpec.builder("-h", "--help").usageHelp(true)
                .description("print this help and exit").build());
        }
        if (spec.usageMessage().synopsisHeading().equals("Usage: "))
        {
            spec.usageMessage().synopsisHeading("usage: ");
        }
        if (spec.usageMessage().descriptionHeading().isEmpty())
        {
            spec.usageMessage().descriptionHeading("%n");
        }
        if (spec.usageMessage().parameterListHeading().isEmpty())
        {
            spec.usageMessage().parameterListHeading("%narguments:%n");
        }
        if (spec.usageMessage().optionListHeading().isEmpty())
        {
            spec.usageMessage().optionListHeading("%noptions:%n");
        }
        for (final CommandLine subcommand : commandLine.getSubcommands().values())
        {
            addHelp(subcommand);
        }
    }

    static String problem(final ParameterException ex)
    {
        final CommandSpec spec = ex.getCommandLine().getCommandSpec();
        if (ex instanceof CommandLine.OverwrittenOptionException overwritten)
        {
            return name(overwritten.getOverwritten()) + " is given twice";
        }
        final String unknown = unknownOption(ex.getCommandLine());
        if (unknown != null && !(ex instanceof CommandLine.OverwrittenOptionException))
        {
            // An option nobody knows explains more than the operand it made go missing.
            return knownToAnotherCommand(spec, unknown) ? unknown + " does not apply to " + spec.name() :
                "unknown option: " + unknown;
        }
        if (ex instanceof CommandLine.MissingParameterException missing)
        {
            final String message = String.valueOf(ex.getMessage());
            final List<ArgSpec> args = missing.getMissing();
            if (message.contains("parameter for option") && !args.isEmpty())
            {
                return name(args.get(0)) + " needs a value";
            }
            final List<String> names = new ArrayList<>();
            args.stream().filter(ArgSpec::isOption).forEach(arg -> names.add(name(arg)));
            if (message.startsWith("Missing required option") && !names.isEmpty())
            {
                return String.join(" and ", names) + (names.size() == 1 ? " is required" : " are required");
            }
            if (!args.isEmpty() && args.stream().allMatch(ArgSpec::isPositional))
            {
                return takes(spec, List.of());
            }
            return message;
        }
        if (ex instanceof CommandLine.UnmatchedArgumentException unmatched && !unmatched.getUnmatched().isEmpty())
        {
            final String first = unmatched.getUnmatched().get(0);
            if (isOptionLike(first))
            {
                return knownToAnotherCommand(spec, first) ? first + " does not apply to " + spec.name() :
                    "unknown option: " + first;
            }
            if (!spec.subcommands().isEmpty())
            {
                return "unknown command '" + first + "'";
            }
            return takes(spec, unmatched.getUnmatched());
        }
        if (ex.getCause() instanceof CommandLine.TypeConversionException conversion && ex.getArgSpec() != null)
        {
            final String reason = String.valueOf(conversion.getMessage());
            if (reason.matches("'.*' is not an? (int|long|short|byte)"))
            {
                return name(ex.getArgSpec()) + " must be an integer, got " +
                    reason.substring(0, reason.lastIndexOf(" is not"));
            }
            return reason.startsWith(name(ex.getArgSpec())) ? reason : name(ex.getArgSpec()) + ": " + reason;
        }
        return String.valueOf(ex.getMessage());
    }

    // The first unknown option of the failing command or of a command above it ("--bogus add": the root's).
    private static String unknownOption(final CommandLine failing)
    {
        for (CommandLine commandLine = failing; commandLine != null; commandLine = commandLine.getParent())
        {
            for (final String arg : commandLine.getUnmatchedArguments())
            {
                if (isOptionLike(arg))
                {
                    return arg;
                }
            }
        }
        return null;
    }

    private static boolean isOptionLike(final String arg)
    {
        return arg.startsWith("-") && arg.length() > 1 && !arg.matches("-[0-9.]+");
    }

    // An option of a sibling subcommand (add-backend's --weight given to drain) is not unknown, only misplaced.
    private static boolean knownToAnotherCommand(final CommandSpec spec, final String option)
    {
        final CommandSpec parent = spec.parent();
        if (parent == null)
        {
            return false;
        }
        final String name = option.contains("=") ? option.substring(0, option.indexOf('=')) : option;
        for (final CommandLine sibling : parent.subcommands().values())
        {
            if (sibling.getCommandSpec() != spec && sibling.getCommandSpec().findOption(name) != null)
            {
                return true;
            }
        }
        return false;
    }

    // "add-vip takes ADDR PORT tcp|udp, got 192.0.2.1 80": the shape the command wants and every operand given.
    private static String takes(final CommandSpec spec, final List<String> extra)
    {
        final List<String> labels = new ArrayList<>();
        final List<String> given = new ArrayList<>();
        for (final PositionalParamSpec positional : spec.positionalParameters())
        {
            if (!positional.hidden())
            {
                labels.add(positional.paramLabel());
            }
            given.addAll(positional.originalStringValues());
        }
        for (final String arg : extra)
        {
            if (!isOptionLike(arg))
            {
                given.add(arg);
            }
        }
        return spec.name() + " takes " + (labels.isEmpty() ? "no arguments" : String.join(" ", labels)) + ", got " +
            (given.isEmpty() ? "none" : String.join(" ", given));
    }

    private static String name(final ArgSpec arg)
    {
        return arg instanceof OptionSpec option ? option.longestName() : arg.paramLabel();
    }
}
