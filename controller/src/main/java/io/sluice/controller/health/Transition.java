package io.sluice.controller.health;

import java.util.Objects;

/**
 * A change of a backend's reported state, with the reason that goes to the log.
 *
 * @param backend the backend's name
 * @param up      the new state
 * @param reason  e.g. "backend b3 down: 3 consecutive failed checks (last: HTTP 500)"
 */
public record Transition(String backend, boolean up, String reason)
{
    public Transition
    {
        Objects.requireNonNull(backend, "backend");
        Objects.requireNonNull(reason, "reason");
    }
}
