package io.sluice.tools.control;

import io.sluice.common.control.ControlChannel;
import io.sluice.forwarder.control.ServerThread;
import io.sluice.forwarder.control.TestForwarder;
import io.sluice.forwarder.control.ControlServer;
import io.sluice.testkit.Eventually;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ControlToolTest
{
    @TempDir
    Path dir;

    private record Result(int status, String out, String err)
    {
    }

    private Path file()
    {
        return dir.resolve("edge-1").resolve(ControlChannel.FILE_NAME);
    }

    private static Result run(final String... args)
    {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        final int status = ControlTool.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Result(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    private Result control(final String... args)
    {
        final List<String> all = new ArrayList<>(List.of("--file", file().toString()));
        all.addAll(Arrays.asList(args));
        return run(all.toArray(new String[0]));
    }

    @Test
    void addsAVipAndPrintsAccepted()
    {
        final TestForwarder forwarder = new TestForwarder();
        try (ControlChannel owned = ControlChannel.create(file(), 65536);
            ServerThread server = new ServerThread(new ControlServer(owned), forwarder))
        {
            assertEquals(new Result(0, "accepted\n", ""),
                control("add-vip", "192.0.2.1", "80", "tcp", "--name", "web"));
            assertEquals(new Result(1, "rejected: VIP 192.0.2.1:80/tcp already exists\n", ""),
                control("add-vip", "192.0.2.1", "80", "tcp"));
            assertTrue(server.isRunning());
        }
    }

    @Test
    void burstFillsTheRingWhileTheServerIsStoppedThenCollectsEveryAnswer() throws Exception
    {
        final TestForwarder forwarder = new TestForwarder();
        final Path start = dir.resolve("start");
        try (ControlChannel owned = ControlChannel.create(file(), 4096))
        {
            final ControlServer server = new ControlServer(owned);
            try (ServerThread ignored = new ServerThread(server, forwarder))
            {
                assertEquals(0, control("add-vip", "192.0.2.1", "80", "tcp").status());
                assertEquals(0, control("add-backend", "192.0.2.1", "80", "tcp", "10.1.0.1").status());
            }
            // The server is stopped (as a SIGSTOPped forwarder): the burst waits for the start file, then fills
            // the ring.
            final ByteArrayOutputStream out = new ByteArrayOutputStream();
            final ByteArrayOutputStream err = new ByteArrayOutputStream();
            final AtomicReference<Thread> burstThread = new AtomicReference<>();
            final CompletableFuture<Integer> burst = CompletableFuture.supplyAsync(() -> ControlTool.run(
                new String[] {"--file", file().toString(), "burst", "192.0.2.1", "80", "tcp", "10.1.0.1", "7",
                    "--start-file", start.toString(), "--timeout", "10s"},
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true,
                    StandardCharsets.UTF_8)), runnable ->
                {
                    final Thread thread = new Thread(runnable, "burst");
                    burstThread.set(thread);
                    thread.start();
                });
            final String waiting = "waiting for " + start + "\n";
            final long ready = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (!out.toString(StandardCharsets.UTF_8).equals(waiting) && System.nanoTime() < ready)
            {
                Thread.sleep(5);
            }
            // Not a pause and hope: the burst has looked for the file, not found it, and waits for it to appear.
            Eventually.await(Duration.ofSeconds(10), () -> waitsForTheStartFile(burstThread.get()),
                "the burst waiting for " + start);
            assertEquals(waiting, out.toString(StandardCharsets.UTF_8), "nothing written before the start file");
            Files.createFile(start);
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (!out.toString(StandardCharsets.UTF_8).contains("ring full") && System.nanoTime() < deadline)
            {
                Thread.sleep(5);
            }
            final String written = out.toString(StandardCharsets.UTF_8);
            assertTrue(written.startsWith(waiting), written);
            assertTrue(written.substring(waiting.length())
                .matches("written [1-9][0-9]*; ring full \\(command ring full for 100 ms: .*\\)\n"), written);
            final int count = Integer.parseInt(written.substring(waiting.length()).split(" ")[1].replace(";", ""));
            try (ServerThread ignored = new ServerThread(server, forwarder))
            {
                assertEquals(0, burst.get(20, TimeUnit.SECONDS), out + " / " + err);
            }
            assertEquals(written + "accepted " + count + ", rejected 0, unanswered 0\n",
                out.toString(StandardCharsets.UTF_8));
            assertEquals("", err.toString(StandardCharsets.UTF_8));
        }
    }

    @Test
    void burstCountsCommandsNobodyAnswers()
    {
        try (ControlChannel owned = ControlChannel.create(file(), 4096))
        {
            final Result result = control("burst", "192.0.2.1", "80", "tcp", "10.1.0.1", "7", "--max", "3",
                "--timeout", "200ms");
            assertEquals(3, result.status(), result.toString());
            assertEquals("", result.err());
            assertTrue(result.out().matches("written 3; ring not full after --max 3\\n" +
                "accepted 0, rejected 0, unanswered 3; first: TIMED_OUT: no answer within [0-9]{1,3} ms; the " +
                "forwarder \\(pid " + ProcessHandle.current().pid() + "\\) runs but its control thread has never " +
                "polled\\n"), result.out());
            assertTrue(owned.isOwnerAlive());
        }
    }

    @Test
    void changesBackendsAndShowsTheState()
    {
        final TestForwarder forwarder = new TestForwarder();
        try (ControlChannel owned = ControlChannel.create(file(), 65536);
            ServerThread server = new ServerThread(new ControlServer(owned), forwarder))
        {
            assertEquals(0, control("add-vip", "192.0.2.1", "80", "tcp", "--name", "web").status());
            assertEquals(0, control("add-vip", "2001:db8::53", "*", "udp").status());
            assertEquals(0, control("add-backend", "192.0.2.1", "80", "tcp", "10.1.0.1", "--name", "web-1").status());
            assertEquals(0, control("add-backend", "192.0.2.1", "80", "tcp", "fd00::2", "--weight", "3").status());
            assertEquals(0, control("add-backend", "192.0.2.1", "80", "tcp", "10.1.0.3", "--down").status());
            assertEquals(0, control("add-backend", "2001:db8::53", "0", "udp", "fd00::9").status());
            assertEquals(0, control("drain", "2001:db8::53", "0", "udp", "fd00::9").status());
            assertEquals(0, control("set-weight", "192.0.2.1", "80", "tcp", "10.1.0.1", "2").status());
            assertEquals(0, control("set-health", "192.0.2.1", "80", "tcp", "10.1.0.3", "up").status());
            assertEquals(0, control("set-health", "192.0.2.1", "80", "tcp", "10.1.0.3", "down").status());
            assertEquals(new Result(1, "rejected: no backend 10.9.9.9 in VIP 192.0.2.1:80/tcp\n", ""),
                control("remove-backend", "192.0.2.1", "80", "tcp", "10.9.9.9"));

            assertEquals(new Result(0,
                "vip 192.0.2.1:80/tcp  name=web  backends=3\n" +
                "  backend 10.1.0.1  weight=2  up  slots=26214  name=web-1\n" +
                "  backend fd00::2  weight=3  up  slots=39322\n" +
                "  backend 10.1.0.3  weight=1  down  slots=0\n" +
                "vip [2001:db8::53]:*/udp  backends=1\n" +
                "  backend fd00::9  weight=0  draining  slots=0\n", ""),
                control("state"));
            assertEquals(new Result(0,
                "{\"vips\":[{\"address\":\"192.0.2.1\",\"port\":80,\"protocol\":\"tcp\",\"name\":\"web\"," +
                "\"backends\":[" +
                "{\"address\":\"10.1.0.1\",\"weight\":2,\"healthy\":true,\"draining\":false,\"maglev_slots\":26214," +
                "\"name\":\"web-1\"}," +
                "{\"address\":\"fd00::2\",\"weight\":3,\"healthy\":true,\"draining\":false,\"maglev_slots\":39322," +
                "\"name\":null}," +
                "{\"address\":\"10.1.0.3\",\"weight\":1,\"healthy\":false,\"draining\":false,\"maglev_slots\":0," +
                "\"name\":null}]}," +
                "{\"address\":\"2001:db8::53\",\"port\":0,\"protocol\":\"udp\",\"name\":null,\"backends\":[" +
                "{\"address\":\"fd00::9\",\"weight\":0,\"healthy\":true,\"draining\":true,\"maglev_slots\":0," +
                "\"name\":null}]}]}\n", ""),
                control("state", "--json"));

            assertEquals(0, control("remove-backend", "192.0.2.1", "80", "tcp", "10.1.0.3").status());
            assertEquals(0, control("remove-vip", "2001:db8::53", "0", "udp").status());
            assertEquals("vip 192.0.2.1:80/tcp  name=web  backends=2\n" +
                "  backend 10.1.0.1  weight=2  up  slots=26214  name=web-1\n" +
                "  backend fd00::2  weight=3  up  slots=39322\n", control("state").out());
            assertTrue(server.isRunning());
        }
    }

    @Test
    void commandsTheForwarderFromAnotherProcess() throws Exception
    {
        final TestForwarder forwarder = new TestForwarder();
        try (ControlChannel owned = ControlChannel.create(file(), 65536);
            ServerThread server = new ServerThread(new ControlServer(owned), forwarder))
        {
            final Process process = new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED",
                "--add-opens", "java.base/java.nio=ALL-UNNAMED",
                "-cp", System.getProperty("java.class.path"),
                ControlTool.class.getName(), "--file", file().toString(), "add-vip", "192.0.2.1", "443", "tcp")
                .redirectErrorStream(true)
                .start();
            final String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(process.waitFor(30, TimeUnit.SECONDS));
            assertEquals("accepted\n", output);
            assertEquals(0, process.exitValue());
            assertEquals(process.pid(), forwarder.lastSenderPid);
            assertTrue(server.isRunning());
        }
    }

    @Test
    void findsTheFileOfANode()
    {
        try (ControlChannel owned = ControlChannel.create(file(), 4096);
            ServerThread server = new ServerThread(new ControlServer(owned), new TestForwarder()))
        {
            assertEquals(new Result(0, "no VIPs\n", ""), run("--node", "edge-1", "--dir", dir.toString(), "state"));
            assertTrue(server.isRunning());
        }
    }

    @Test
    void exits3WhenNoAnswerArrives()
    {
        try (ControlChannel owned = ControlChannel.create(file(), 4096))
        {
            final Result result = control("--timeout", "200ms", "drain", "192.0.2.1", "80", "tcp", "10.1.0.1");
            assertEquals(new Result(3, "", "control: drain: no answer within 200 ms; the forwarder (pid " +
                owned.ownerPid() + ") runs but its control thread has never polled\n"), result);

            final Result state = control("--timeout", "100ms", "state");
            assertEquals(3, state.status());
            assertTrue(state.err().startsWith("control: state: no answer within 100 ms"), state.err());
        }
    }

    @Test
    void exits4WhenNoForwarderRuns()
    {
        assertEquals(new Result(4, "", "control: no control channel at " + file() + ": is the forwarder running?\n"),
            control("state"));
    }

    @Test
    void printsHelp()
    {
        final Result help = run("--help");
        assertEquals(0, help.status());
        assertTrue(help.out().startsWith(ControlTool.USAGE + "\ncommands:\n"), help.out());
        assertEquals(2, run().status());
    }

    static Stream<Arguments> badArguments()
    {
        return Stream.of(
            Arguments.of("add-vip web.example.com 80 tcp", "ADDR: \"web.example.com\" is not an IP address literal " +
                "(host names are never resolved: write the address itself)"),
            Arguments.of("add-vip 192.0.2.1 70000 tcp", "PORT must be 0..65535 (0 or * for all ports), got '70000'"),
            Arguments.of("add-vip 192.0.2.1 80 sctp", "protocol must be tcp or udp, got 'sctp'"),
            Arguments.of("add-vip 192.0.2.1 80", "add-vip takes ADDR PORT tcp|udp, got 192.0.2.1 80"),
            Arguments.of("add-backend 192.0.2.1 80 tcp 010.0.0.1", "BACKEND: \"010.0.0.1\" is not an IPv4 address " +
                "(expected four decimal numbers 0-255 without leading zeros, e.g. 10.0.0.1)"),
            Arguments.of("add-backend 192.0.2.1 80 tcp 10.0.0.1 --weight 65536",
                "--weight must be an integer 0..65535, got '65536'"),
            Arguments.of("set-weight 192.0.2.1 80 tcp 10.0.0.1 heavy",
                "WEIGHT must be an integer 0..65535, got 'heavy'"),
            Arguments.of("set-health 192.0.2.1 80 tcp 10.0.0.1 maybe", "health must be up or down, got 'maybe'"),
            Arguments.of("drain 192.0.2.1 80 tcp 10.0.0.1 --weight 2", "--weight does not apply to drain"),
            Arguments.of("remove-vip 192.0.2.1 80 tcp --down", "--down does not apply to remove-vip"),
            Arguments.of("add-vip 192.0.2.1 80 tcp --json", "--json does not apply to add-vip"),
            Arguments.of("state extra", "state takes no arguments, got extra"),
            Arguments.of("frobnicate", "unknown command 'frobnicate'"),
            Arguments.of("--timeout 5 state", "--timeout: \"5\" is not a duration (write a whole number with a unit " +
                "ms, s, m or h, e.g. 300s, 5m, 250ms, 1h; or a number of seconds)"),
            Arguments.of("--verbose state", "unknown option: --verbose"),
            Arguments.of("add-vip 192.0.2.1 80 tcp --name", "--name needs a value"),
            Arguments.of("burst 192.0.2.1 80 tcp 10.0.0.1", "burst takes ADDR PORT tcp|udp BACKEND WEIGHT, got " +
                "192.0.2.1 80 tcp 10.0.0.1"),
            Arguments.of("burst 192.0.2.1 80 tcp 10.0.0.1 2 --max 0", "--max must be an integer 1..999999999, got '0'"),
            Arguments.of("set-weight 192.0.2.1 80 tcp 10.0.0.1 2 --max 5", "--max does not apply to set-weight"),
            Arguments.of("state --start-file x", "--start-file does not apply to state"));
    }

    @ParameterizedTest
    @MethodSource("badArguments")
    void exits2NamingTheBadArgument(final String args, final String message)
    {
        final Result result = control(args.split(" "));
        assertEquals(new Result(2, "", "control: " + message + "\n" + ControlTool.USAGE + "\n"), result);
    }

    @Test
    void exits2WithoutAChannel()
    {
        assertEquals("control: --file PATH or --node NAME is required\n" + ControlTool.USAGE + "\n",
            run("state").err());
        assertEquals("control: --node: node name must match [a-z0-9][a-z0-9-]{0,31}, got '../x'\n" +
            ControlTool.USAGE + "\n", run("--node", "../x", "state").err());
        assertEquals("control: --file cannot be combined with --node or --dir\n" + ControlTool.USAGE + "\n",
            run("--file", "x", "--node", "a", "state").err());
    }

    // The thread is inside ControlTool's wait for --start-file, between two looks at the file.
    private static boolean waitsForTheStartFile(final Thread thread)
    {
        if (thread == null || thread.getState() != Thread.State.TIMED_WAITING)
        {
            return false;
        }
        for (final StackTraceElement frame : thread.getStackTrace())
        {
            if (frame.getClassName().equals(ControlTool.class.getName()) && frame.getMethodName().equals("awaitFile"))
            {
                return true;
            }
        }
        return false;
    }
}
