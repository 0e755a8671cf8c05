package io.sluice.common.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Callable;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CommandLinesTest
{
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    @Command(name = "tool", subcommands = {Tool.Add.class, Tool.Fail.class})
    static final class Tool implements Callable<Integer>
    {
        @Option(names = "--node", paramLabel = "NAME", description = "the node")
        String node;

        @Override
        public Integer call()
        {
            return 10;
        }

        @Command(name = "add", description = "adds")
        static final class Add implements Callable<Integer>
        {
            @Spec
            CommandSpec spec;

            @ParentCommand
            Tool tool;

            @Option(names = "--weight", paramLabel = "W", required = true, description = "the weight")
            int weight;

            @Option(names = "--json", description = "as JSON")
            boolean json;

            @Parameters(index = "0", paramLabel = "ADDR", description = "an address")
            String address;

            @Parameters(index = "1", paramLabel = "PORT", description = "a port")
            String port;

            @Override
            public Integer call()
            {
                if (weight > 9)
                {
                    throw CommandLines.usageError(spec, "--weight must be at most 9, got '" + weight + "'");
                }
                return weight;
            }
        }

        @Command(name = "fail", description = "fails")
        static final class Fail implements Callable<Integer>
        {
            @Option(names = "--verbose", description = "say more")
            boolean verbose;

            @Override
            public Integer call()
            {
                throw new IllegalStateException("the command's own failure");
            }
        }
    }

    private int run(final String... args)
    {
        return CommandLines.execute(new Tool(), args, new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8), 7);
    }

    private String err()
    {
        return err.toString(StandardCharsets.UTF_8);
    }

    @Test
    void runsTheCommandAndReturnsItsStatus()
    {
        assertEquals(3, run("--node", "lb1", "add", "10.0.0.1", "80", "--weight", "3"));
        assertEquals(10, run());
        assertEquals("", err());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "add 10.0.0.1 80 --weight 3 --weight 4 | --weight is given twice",
        "add 10.0.0.1 80 --weight            | --weight needs a value",
        "add 10.0.0.1 80                     | --weight is required",
        "add 10.0.0.1 --weight 3             | add takes ADDR PORT, got 10.0.0.1",
        "add 10.0.0.1 80 81 --weight 3       | add takes ADDR PORT, got 10.0.0.1 80 81",
        "add 10.0.0.1 80 --weight heavy      | --weight must be an integer, got 'heavy'",
        "add 10.0.0.1 80 --weight 12         | --weight must be at most 9, got '12'",
        "add 10.0.0.1 80 --weight 3 --bogus  | unknown option: --bogus",
        "add 10.0.0.1 80 --weight 3 --verbose | --verbose does not apply to add",
        "frobnicate                          | unknown command 'frobnicate'",
        "--bogus add                         | unknown option: --bogus",
        "@args.txt                           | unknown command '@args.txt'"})
    void wordsAUsageErrorAsTheToolsAlwaysHave(final String args, final String message)
    {
        assertEquals(7, run(args.trim().split(" +")));
        assertEquals("tool: " + message.trim() + "\n" + "usage: tool [-h] [--node NAME] [COMMAND]\n", err());
        assertEquals("", out.toString(StandardCharsets.UTF_8));
    }

    @Test
    void printsHelpOnEveryCommand()
    {
        assertEquals(0, run("add", "--help"));
        final String help = out.toString(StandardCharsets.UTF_8);
        assertTrue(help.startsWith("usage: tool add [-h] [--json] --weight W ADDR PORT\n"), help);
        assertTrue(help.contains("--weight W   the weight"), help);
        assertTrue(help.contains("-h, --help"), help);
        assertEquals("", err());
    }

    @Test
    void leavesTheCommandsOwnExceptionsToItsCaller()
    {
        final IllegalStateException thrown = assertThrows(IllegalStateException.class, () -> run("fail"));
        assertEquals("the command's own failure", thrown.getMessage());
    }
}
