package io.sluice.common.counters;

/**
 * A counters file that cannot be created or read. The message names the file and says what to do, so tools can
 * print it as it is.
 */
public final class CountersFileException extends RuntimeException
{
    private static final long serialVersionUID = 1L;

    /**
     * Creates an exception.
     *
     * @param message what went wrong, naming the file.
     */
    public CountersFileException(final String message)
    {
        super(message);
    }

    /**
     * Creates an exception with its cause.
     *
     * @param message what went wrong, naming the file.
     * @param cause   the underlying failure.
     */
    public CountersFileException(final String message, final Throwable cause)
    {
        super(message, cause);
    }
}
