package io.sluice.controller.operator;

import java.util.Objects;

/**
 * An operator's action, as {@code sluice drain|undrain|set-weight|reload} sends it.
 *
 * @param action  what to do.
 * @param vip     the VIP's name.
 * @param backend the backend's name or address.
 * @param weight  the new weight for {@link Action#SET_WEIGHT}, otherwise ignored.
 */
public record OperatorRequest(Action action, String vip, String backend, int weight)
{
    /**
     * The actions.
     */
    public enum Action
    {
        /** Weight 0: existing flows stay, no new ones. */
        DRAIN,
        /** Back to the weight before the drain. */
        UNDRAIN,
        /** A new weight. */
        SET_WEIGHT,
        /** Re-read the node configuration file (vip and backend are ignored). */
        RELOAD
    }

    /**
     * Returns a reload request.
     *
     * @return the request.
     */
    public static OperatorRequest reload()
    {
        return new OperatorRequest(Action.RELOAD, "", "", 0);
    }

    /**
     * Checks the fields are present.
     */
    public OperatorRequest
    {
        Objects.requireNonNull(action, "action");
        Objects.requireNonNull(vip, "vip");
        Objects.requireNonNull(backend, "backend");
    }

    /**
     * The answer to a request.
     *
     * @param accepted whether the controller took it (false: unknown VIP or backend, bad weight).
     * @param message  what happened, for the operator.
     */
    public record Reply(boolean accepted, String message)
    {
    }
}
