package io.sluice.forwarder;

import io.sluice.common.config.ConfigException;

/**
 * A config problem that shows only once EAL runs (a port EAL did not create, a device without the queues or MTU
 * asked for): carries the {@link ConfigException} naming file, field and reason out of {@link Forwarder#start},
 * so the forwarder exits 2 as for any bad config.
 */
public final class ForwarderConfigException extends RuntimeException
{
    private static final long serialVersionUID = 1L;

    /**
     * Wraps a config problem.
     *
     * @param cause what is wrong, and where.
     */
    public ForwarderConfigException(final ConfigException cause)
    {
        super(cause.getMessage(), cause);
    }
}
