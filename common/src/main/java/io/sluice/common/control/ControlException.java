package io.sluice.common.control;

/**
 * The control channel cannot be used or a command did not get through: no forwarder, a file that is not a control
 * file, a full command ring, or (from {@link ControlClient#getState}) a refusal or time-out. The message says what
 * happened and, where it can, what to do.
 */
public final class ControlException extends RuntimeException
{
    private static final long serialVersionUID = 1L;

    private final transient ControlResponse response;

    /**
     * Creates an exception without a response.
     *
     * @param message what happened.
     */
    public ControlException(final String message)
    {
        this(message, null);
    }

    /**
     * Creates an exception for a command that was refused or not answered.
     *
     * @param message  what happened.
     * @param response the response, or null.
     */
    public ControlException(final String message, final ControlResponse response)
    {
        super(message);
        this.response = response;
    }

    /**
     * Returns the response that caused this, when a command was refused or timed out.
     *
     * @return the response, or null.
     */
    public ControlResponse response()
    {
        return response;
    }
}
