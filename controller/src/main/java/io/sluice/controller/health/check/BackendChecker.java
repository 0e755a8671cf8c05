package io.sluice.controller.health.check;

/**
 * Checks one backend once: {@link HttpChecker} and {@link TcpChecker}, picked from the configuration by
 * {@link Checkers}. Implementations do I/O and may block up to their time-out; they never throw for I/O.
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
