package io.sluice.forwarder.agent;

/**
 * A worker's core is reserved by another process; the message names the core and its holder
 * ({@link CoreHolder#describe()}).
 */
public final class CoreHeldException extends RuntimeException
{
    private static final long serialVersionUID = 1L;

    private final transient CoreHolder holder;

    /**
     * Creates the exception.
     *
     * @param holder who holds the core.
     */
    public CoreHeldException(final CoreHolder holder)
    {
        super(holder.describe());
        this.holder = holder;
    }

    /**
     * Returns who holds the core.
     *
     * @return the holder.
     */
    public CoreHolder holder()
    {
        return holder;
    }
}
