package io.sluice.forwarder.control;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * An idle strategy that holds its thread at the first idle until the test opens the gate: a client that is
 * "descheduled" exactly while others' answers lap it.
 */
final class GateIdleStrategy extends IdleOnNoWork
{
    private final CountDownLatch entered = new CountDownLatch(1);
    private final CountDownLatch open = new CountDownLatch(1);

    @Override
    public void idle()
    {
        entered.countDown();
        try
        {
            if (!open.await(10, TimeUnit.SECONDS))
            {
                throw new AssertionError("gate never opened");
            }
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
        Thread.onSpinWait();
    }

    void awaitEntered() throws InterruptedException
    {
        if (!entered.await(10, TimeUnit.SECONDS))
        {
            throw new AssertionError("the client never idled");
        }
    }

    void open()
    {
        open.countDown();
    }
}
