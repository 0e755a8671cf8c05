package io.sluice.controller.health.check;

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
