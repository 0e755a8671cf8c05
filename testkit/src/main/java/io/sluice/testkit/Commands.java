package io.sluice.testkit;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Runs short commands to completion, bounded in time, and stops long-running ones politely then firmly.
 */
public final class Commands
{
    /**
     * How long a command may take unless told otherwise.
     */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(30);

    /**
     * How long a stopped process gets between SIGTERM and SIGKILL.
     */
    public static final Duration STOP_GRACE = Duration.ofSeconds(5);

    /**
     * What a finished command printed.
     *
     * @param command  the command line.
     * @param exitCode its exit status.
     * @param stdout   its standard output.
     * @param stderr   its standard error.
     */
    public record Result(List<String> command, int exitCode, String stdout, String stderr)
    {
        /**
         * Returns standard output, or throws when the command failed.
         *
         * @return standard output.
         * @throws IllegalStateException with the command, status and standard error when the status is not 0.
         */
        public String checked()
        {
            if (exitCode != 0)
            {
                throw new IllegalStateException(String.join(" ", command) + " exited with " + exitCode + ": " +
                    stderr.strip() + (stdout.isBlank() ? "" : " (stdout: " + stdout.strip() + ")"));
            }
            return stdout;
        }
    }

    private Commands()
    {
    }

    /**
     * Runs a command to completion within {@link #DEFAULT_TIMEOUT}.
     *
     * @param command the program and its arguments.
     * @return what it printed and its status.
     * @throws IllegalStateException when it cannot start or does not finish in time (it is killed then).
     */
    public static Result run(final List<String> command)
    {
        return run(DEFAULT_TIMEOUT, command);
    }

    /**
     * Runs a command to completion within a time bound, with standard input from {@code /dev/null}.
     *
     * @param timeout how long it may take.
     * @param command the program and its arguments.
     * @return what it printed and its status.
     * @throws IllegalStateException when it cannot start or does not finish in time (it is killed then).
     */
    public static Result run(final Duration timeout, final List<String> command)
    {
        final Process process;
        try
        {
            process = new ProcessBuilder(command).redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                .start();
        }
        catch (final IOException ex)
        {
            throw new IllegalStateException("cannot run " + String.join(" ", command), ex);
        }
        final CompletableFuture<String> stdout = readAsync(process.getInputStream());
        final CompletableFuture<String> stderr = readAsync(process.getErrorStream());
        try
        {
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS))
            {
                stop(process.toHandle(), Duration.ZERO);
                throw new IllegalStateException(String.join(" ", command) + " did not finish within " + timeout);
            }
            return new Result(List.copyOf(command), process.exitValue(),
                stdout.get(timeout.toMillis(), TimeUnit.MILLISECONDS),
                stderr.get(timeout.toMillis(), TimeUnit.MILLISECONDS));
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            stop(process.toHandle(), Duration.ZERO);
            throw new IllegalStateException("interrupted while running " + String.join(" ", command), ex);
        }
        catch (final ExecutionException | TimeoutException ex)
        {
            throw new IllegalStateException("cannot read the output of " + String.join(" ", command), ex);
        }
    }

    /**
     * Stops a process and its descendants: SIGTERM, then SIGKILL to whatever still runs after the grace period.
     *
     * @param process the process.
     * @param grace   how long to wait for it to exit by itself.
     * @return true when everything exited.
     */
    public static boolean stop(final ProcessHandle process, final Duration grace)
    {
        final List<ProcessHandle> all = new ArrayList<>(process.descendants().toList());
        all.add(0, process);
        for (final ProcessHandle handle : all)
        {
            handle.destroy();
        }
        final long deadline = System.nanoTime() + grace.toNanos();
        boolean alive = true;
        while (alive && System.nanoTime() - deadline < 0)
        {
            alive = all.stream().anyMatch(ProcessHandle::isAlive);
            if (alive)
            {
                sleep(Duration.ofMillis(20));
            }
        }
        for (final ProcessHandle handle : all)
        {
            handle.destroyForcibly();
        }
        final long killDeadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
        while (all.stream().anyMatch(ProcessHandle::isAlive) && System.nanoTime() - killDeadline < 0)
        {
            sleep(Duration.ofMillis(20));
        }
        return all.stream().noneMatch(ProcessHandle::isAlive);
    }

    /**
     * Sleeps, keeping the interrupt flag.
     *
     * @param duration how long.
     */
    static void sleep(final Duration duration)
    {
        try
        {
            Thread.sleep(duration.toMillis());
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Reads a stream to its end on a thread of its own: the common pool may have a single thread on a small machine,
     * and reading standard output and standard error one after the other can deadlock on a full pipe.
     */
    private static CompletableFuture<String> readAsync(final InputStream stream)
    {
        final CompletableFuture<String> text = new CompletableFuture<>();
        final Thread reader = new Thread(() ->
        {
            try (InputStream in = stream)
            {
                text.complete(new String(in.readAllBytes(), StandardCharsets.UTF_8));
            }
            catch (final IOException ex)
            {
                text.completeExceptionally(ex);
            }
        }, "command-output");
        reader.setDaemon(true);
        reader.start();
        return text;
    }
}
