package io.sluice.forwarder.dpdk;

/**
 * A DPDK control call failed; the message names the call, its arguments and DPDK's reason.
 */
public final class DpdkException extends RuntimeException
{
    private static final long serialVersionUID = 1L;

    private final int error;

    /**
     * Creates an exception.
     *
     * @param message what failed and why.
     * @param error   the negative errno, or 0.
     */
    public DpdkException(final String message, final int error)
    {
        super(message);
        this.error = error;
    }

    /**
     * Returns the negative errno the shim returned.
     *
     * @return error code, or 0 when there was none.
     */
    public int error()
    {
        return error;
    }
}
