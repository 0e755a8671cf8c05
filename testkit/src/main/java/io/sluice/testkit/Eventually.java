package io.sluice.testkit;

import java.time.Duration;
import java.util.Objects;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * Bounded waits for conditions that real processes make true some time later. A wait that runs out fails with what
 * it waited for and the last value it saw, so a failed test says what the system looked like instead of "false".
 */
public final class Eventually
{
    /**
     * How often a condition is checked.
     */
    public static final Duration POLL_INTERVAL = Duration.ofMillis(100);

    private Eventually()
    {
    }

    /**
     * Waits until a condition holds.
     *
     * @param timeout   how long to wait at most.
     * @param condition the condition; an exception it throws counts as not holding.
     * @param what      what is awaited, for the failure message.
     * @throws AssertionError when the condition does not hold in time.
     */
    public static void await(final Duration timeout, final BooleanSupplier condition, final String what)
    {
        await(timeout, condition::getAsBoolean, Boolean::booleanValue, what);
    }

    /**
     * Waits until an observed value is non-null and not {@code false}, and returns it.
     *
     * @param timeout  how long to wait at most.
     * @param observed what to observe; an exception it throws counts as not yet.
     * @param what     what is awaited, for the failure message.
     * @param <T>      the value's type.
     * @return the first accepted value.
     * @throws AssertionError when no value is accepted in time, with the last one observed.
     */
    public static <T> T await(final Duration timeout, final Supplier<T> observed, final String what)
    {
        return await(timeout, observed, value -> value != null && !Boolean.FALSE.equals(value), what);
    }

    /**
     * Waits until an observed value is accepted, and returns it.
     *
     * @param timeout  how long to wait at most.
     * @param observed what to observe; an exception it throws counts as not accepted.
     * @param accepted when the value is the awaited one.
     * @param what     what is awaited, for the failure message.
     * @param <T>      the value's type.
     * @return the first accepted value.
     * @throws AssertionError when no value is accepted in time, with the last one observed.
     */
    public static <T> T await(
        final Duration timeout, final Supplier<T> observed, final Predicate<? super T> accepted, final String what)
    {
        Objects.requireNonNull(what, "what");
        final long start = System.nanoTime();
        String last = "nothing (never observed)";
        RuntimeException lastFailure = null;
        while (true)
        {
            try
            {
                final T value = observed.get();
                if (accepted.test(value))
                {
                    return value;
                }
                last = String.valueOf(value);
                lastFailure = null;
            }
            catch (final RuntimeException ex)
            {
                last = "exception " + ex;
                lastFailure = ex;
            }
            final long elapsedNs = System.nanoTime() - start;
            if (elapsedNs >= timeout.toNanos())
            {
                final AssertionError failure = new AssertionError("timed out after " +
                    Duration.ofNanos(elapsedNs).toMillis() + " ms waiting for " + what + "; last observed: " + last);
                if (lastFailure != null)
                {
                    failure.initCause(lastFailure);
                }
                throw failure;
            }
            Commands.sleep(POLL_INTERVAL);
            if (Thread.currentThread().isInterrupted())
            {
                throw new AssertionError("interrupted while waiting for " + what + "; last observed: " + last);
            }
        }
    }
}
