package io.sluice.forwarder.control;

import org.agrona.concurrent.IdleStrategy;

/**
 * The tests' idle strategies: idling only when a cycle did no work, as Agrona's own do, with nothing to reset; a
 * subclass says what one idle does.
 */
abstract class IdleOnNoWork implements IdleStrategy
{
    @Override
    public final void idle(final int workCount)
    {
        if (workCount <= 0)
        {
            idle();
        }
    }

    @Override
    public final void reset()
    {
    }
}
