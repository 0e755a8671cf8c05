package io.sluice.testkit;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class EventuallyTest
{
    @Test
    void returnsTheFirstAcceptedValue()
    {
        final AtomicInteger calls = new AtomicInteger();
        final int value = Eventually.await(Duration.ofSeconds(10), calls::incrementAndGet, v -> v >= 3, "three calls");
        assertEquals(3, value);
    }

    @Test
    void treatsExceptionsAsNotYet()
    {
        final AtomicInteger calls = new AtomicInteger();
        Eventually.await(Duration.ofSeconds(10), () ->
        {
            if (calls.incrementAndGet() < 2)
            {
                throw new IllegalStateException("not yet");
            }
            return true;
        }, "a second call");
        assertEquals(2, calls.get());
    }

    @Test
    void failsWithWhatItAwaitedAndTheLastObservedValue()
    {
        final AssertionError error = assertThrows(AssertionError.class,
            () -> Eventually.await(Duration.ofMillis(250), () -> "no route", text -> text.contains("via"),
            "the route"));
        assertTrue(error.getMessage().contains("waiting for the route; last observed: no route"),
            error.getMessage());
    }

    @Test
    void reportsTheLastExceptionAsTheCause()
    {
        final AssertionError error = assertThrows(AssertionError.class,
            () -> Eventually.await(Duration.ofMillis(150), (Supplier<Boolean>) () ->
            {
                throw new IllegalStateException("socket missing");
            }, "the socket"));
        assertTrue(error.getMessage().contains("exception java.lang.IllegalStateException: socket missing"),
            error.getMessage());
        assertTrue(error.getCause() instanceof IllegalStateException);
    }
}
