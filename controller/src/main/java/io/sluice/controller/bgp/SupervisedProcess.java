package io.sluice.controller.bgp;

import io.sluice.common.OwnerProcess;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * One sidecar process the controller supervises ({@link ExaBgpSidecar}, {@link BfdSidecar}): started detached
 * ({@code setsid} when installed, input from {@code /dev/null}, output appended to its log), its pid written to a
 * pid file, restarted with {@link RestartBackoff} when it dies, adopted through the pid file by the next controller
 * when it runs with the same configuration, stopped with SIGTERM then SIGKILL. What differs between sidecars (the
 * command line, the environment, files to clear before a start) is given by the owner, and so is the logger its
 * events go to (the owner's, so a line names the sidecar).
 *
 * <p>Polled from the controller's duty cycle; only {@link #stop()} and adoption block, briefly.
 */
final class SupervisedProcess
{
    private static final long NO_RESTART = Long.MIN_VALUE;
    private static final int ADOPT_ATTEMPTS = 50;

    /** Prepares a start: clears what a killed predecessor left, sets the environment. */
    @FunctionalInterface
    interface Preparation
    {
        void prepare(ProcessBuilder builder) throws IOException;
    }

    private final String prefix;
    private final String name;
    private final Path directory;
    private final Path config;
    private final Path pidFile;
    private final Path logFile;
    private final long stopGraceMs;
    private final boolean logHint;
    private final List<String> commandLine;
    private final Preparation preparation;
    private final System.Logger logger;
    private final RestartBackoff backoff = new RestartBackoff();
    private Process started;
    private ProcessHandle running;
    private long startedMs;
    private long restartAtMs = NO_RESTART;
    private int restarts;

    /**
     * Describes a sidecar; nothing starts yet.
     *
     * @param prefix      the log lines' prefix, e.g. {@code BGP}.
     * @param name        the program's name in log lines, e.g. {@code ExaBGP}.
     * @param directory   the working directory.
     * @param config      the configuration file: an adopted process's command line must name it.
     * @param pidFile     the pid file.
     * @param logFile     where the process's output goes.
     * @param stopGraceMs how long SIGTERM gets before SIGKILL.
     * @param logHint     whether a death's log line names the log file.
     * @param command     the configured command, split on blanks.
     * @param arguments   what follows it.
     * @param preparation run before each start.
     * @param logger      the owner's logger.
     */
    SupervisedProcess(final String prefix, final String name, final Path directory, final Path config,
        final Path pidFile, final Path logFile, final long stopGraceMs, final boolean logHint, final String command,
        final List<String> arguments, final Preparation preparation, final System.Logger logger)
    {
        this.prefix = prefix;
        this.name = name;
        this.directory = directory;
        this.config = config;
        this.pidFile = pidFile;
        this.logFile = logFile;
        this.stopGraceMs = stopGraceMs;
        this.logHint = logHint;
        this.preparation = preparation;
        this.logger = logger;
        final List<String> line = new ArrayList<>();
        if (Files.isExecutable(Path.of("/usr/bin/setsid")))
        {
            line.add("/usr/bin/setsid");
        }
        line.addAll(Arrays.asList(command.strip().split("\\s+")));
        line.addAll(arguments);
        this.commandLine = List.copyOf(line);
    }

    /**
     * Adopts the process the pid file names when it runs and the configuration is unchanged; else stops it (if
     * any) and starts a new one.
     *
     * @param configChanged whether the configuration was just rewritten with other content.
     * @param nowMs         the time.
     * @throws IOException when the pid file cannot be read or removed.
     */
    void adoptOrLaunch(final boolean configChanged, final long nowMs) throws IOException
    {
        final Optional<ProcessHandle> adopted = livePidFileProcess();
        if (adopted.isPresent() && !configChanged)
        {
            running = adopted.get();
            startedMs = nowMs;
            info(prefix + ": adopted the running " + name + " (pid " + running.pid() + ")");
            return;
        }
        if (adopted.isPresent())
        {
            info(prefix + ": configuration changed; restarting " + name + " (pid " + adopted.get().pid() + ")");
            ProcessControl.terminate(adopted.get(), stopGraceMs);
        }
        launch(nowMs);
    }

    /**
     * Notices a dead process and restarts it when its backoff delay has passed.
     *
     * @param nowMs the time.
     * @return work done: 1 when something was noticed or started.
     */
    int poll(final long nowMs)
    {
        if (running != null && !isRunning())
        {
            final String status = started != null ? " with status " + started.exitValue() : "";
            final long delayMs = backoff.onDeath(startedMs, nowMs);
            warn(prefix + ": " + name + " (pid " + running.pid() + ") exited" + status + "; restarting it in " +
                delayMs / 1000.0 + " s" + (logHint ? " (log " + logFile + ")" : ""));
            started = null;
            running = null;
            restartAtMs = nowMs + delayMs;
            return 1;
        }
        if (running == null && restartAtMs != NO_RESTART && nowMs - restartAtMs >= 0)
        {
            restarts++;
            launch(nowMs);
            return 1;
        }
        return 0;
    }

    /**
     * Tells whether the process runs.
     *
     * @return false when stopped or waiting to restart.
     */
    boolean isRunning()
    {
        // A child's Process knows its exit status once it says it is dead; ask it rather than the bare handle.
        // An adopted process is not our child: once dead it may stay a zombie until its parent waits for it.
        return started != null ? started.isAlive() : running != null && OwnerProcess.isRunning(running);
    }

    /**
     * Returns the running process's pid.
     *
     * @return the pid, or -1 when none runs.
     */
    long pid()
    {
        return running == null ? -1 : running.pid();
    }

    /**
     * Returns how many times the process was started again after it died.
     *
     * @return the count.
     */
    int restarts()
    {
        return restarts;
    }

    /**
     * Tells whether a restart is pending (the process died and its backoff delay runs).
     *
     * @return true while waiting to restart.
     */
    boolean restartPending()
    {
        return restartAtMs != NO_RESTART;
    }

    /**
     * Stops the process (SIGTERM, then SIGKILL after the grace time) and removes its pid file.
     */
    void stop()
    {
        restartAtMs = NO_RESTART;
        if (running == null)
        {
            return;
        }
        final ProcessHandle process = running;
        started = null;
        running = null;
        ProcessControl.terminate(process, stopGraceMs);
        info(prefix + ": " + name + " (pid " + process.pid() + ") stopped");
        try
        {
            Files.deleteIfExists(pidFile);
        }
        catch (final IOException ex)
        {
            warn(prefix + ": cannot remove " + pidFile + ": " + ex);
        }
    }

    /**
     * Leaves the process running and its pid file in place for the next controller to adopt, and stops managing
     * it.
     */
    void detach()
    {
        restartAtMs = NO_RESTART;
        if (running != null)
        {
            info(prefix + ": leaving " + name + " (pid " + running.pid() + ") running");
        }
        started = null;
        running = null;
    }

    private void launch(final long nowMs)
    {
        restartAtMs = NO_RESTART;
        try
        {
            final ProcessBuilder builder = new ProcessBuilder(commandLine)
                .directory(directory.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                .redirectOutput(ProcessBuilder.Redirect.appendTo(logFile.toFile()))
                .redirectErrorStream(true);
            preparation.prepare(builder);
            started = builder.start();
            running = started.toHandle();
            startedMs = nowMs;
            Files.writeString(pidFile, running.pid() + "\n");
            info(prefix + ": started " + name + " (pid " + running.pid() + "): " + String.join(" ", commandLine) +
                ", log " + logFile);
        }
        catch (final IOException ex)
        {
            final long delayMs = backoff.onDeath(nowMs, nowMs);
            warn(prefix + ": cannot start " + name + " (" + String.join(" ", commandLine) + "): " +
                ex.getMessage() + "; trying again in " + delayMs / 1000.0 + " s");
            restartAtMs = nowMs + delayMs;
        }
    }

    private void info(final String message)
    {
        logger.log(System.Logger.Level.INFO, message);
    }

    private void warn(final String message)
    {
        logger.log(System.Logger.Level.WARNING, message);
    }

    private Optional<ProcessHandle> livePidFileProcess() throws IOException
    {
        if (!Files.exists(pidFile))
        {
            return Optional.empty();
        }
        final String text = Files.readString(pidFile).strip();
        try
        {
            final Optional<ProcessHandle> process = ProcessHandle.of(Long.parseLong(text));
            final String configPath = config.toString();
            // A reused pid runs something else: accept only a process whose command line names our configuration.
            // A process started a moment ago may still be between exec()s (setsid, ip netns exec, python), when its
            // command line reads empty: look again for a moment before giving up on it.
            for (int attempt = 0;
                attempt < ADOPT_ATTEMPTS && process.isPresent() && OwnerProcess.isRunning(process.get()); attempt++)
            {
                if (process.get().info().commandLine().map(line -> line.contains(configPath)).orElse(false))
                {
                    return process;
                }
                ProcessControl.pause();
            }
        }
        catch (final NumberFormatException ex)
        {
            warn(prefix + ": ignoring unreadable pid file " + pidFile + ": '" + text + "'");
        }
        Files.deleteIfExists(pidFile);
        return Optional.empty();
    }
}
