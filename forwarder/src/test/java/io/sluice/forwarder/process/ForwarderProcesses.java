package io.sluice.forwarder.process;

import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.AfterTestExecutionCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Owns the forwarder processes a test starts: prints each one's output when the test fails, and always kills what
 * still runs and removes its DPDK files afterwards, so a failed test leaves nothing behind.
 * <pre>
 *   &#64;RegisterExtension
 *   final ForwarderProcesses forwarders = new ForwarderProcesses();
 *   ...
 *   ForwarderProcess forwarder = forwarders.start(spec, tempDir);
 * </pre>
 */
public final class ForwarderProcesses implements AfterTestExecutionCallback, AfterEachCallback
{
    private final List<ForwarderProcess> processes = new ArrayList<>();

    /**
     * Starts a forwarder on the node's YAML and waits until it runs.
     */
    ForwarderProcess start(final NodeSpec spec, final Path dir)
    {
        return launch(spec, spec.toYaml(), dir).awaitRunning();
    }

    /**
     * Starts a forwarder on any YAML without waiting (for configs and arguments that must fail).
     */
    public ForwarderProcess launch(final NodeSpec spec, final String yaml, final Path dir, final String... extraJvmArgs)
    {
        final ForwarderProcess process = ForwarderProcess.launch(spec, yaml, dir, extraJvmArgs);
        processes.add(process);
        return process;
    }

    /**
     * Starts a forwarder through a command prefix such as {@code taskset -c 0}, without waiting.
     */
    public ForwarderProcess launch(final List<String> prefix, final NodeSpec spec, final String yaml, final Path dir)
    {
        final ForwarderProcess process = ForwarderProcess.launch(prefix, spec, yaml, dir);
        processes.add(process);
        return process;
    }

    @Override
    public void afterTestExecution(final ExtensionContext context)
    {
        if (context.getExecutionException().isPresent())
        {
            for (final ForwarderProcess process : processes)
            {
                System.err.println(context.getDisplayName() + " failed; forwarder output:\n" + process.output());
            }
        }
    }

    @Override
    public void afterEach(final ExtensionContext context)
    {
        for (final ForwarderProcess process : processes)
        {
            process.close();
        }
        processes.clear();
    }
}
