package io.sluice.controller.monitor;

import io.sluice.controller.health.CheckResult;

/**
 * Checks one backend once. Implementations do I/O and may block up to their time-out; they never throw for I/O.
 */
@FunctionalInterface
public interface BackendChecker
{
    /**
     * Runs one check.
     *
     * @return whether it passed, with a detail for the log.
     */
    CheckResult check();
}
