package io.sluice.common.config;

/**
 * How a worker waits when a duty cycle found no work ({@code forwarder.idle_strategy}). The forwarder maps these onto
 * Agrona idle strategies.
 */
public enum IdleStrategyKind
{
    /** Spin without pausing: lowest latency, one core at 100% per worker. */
    BUSY_SPIN("busy-spin"),
    /** Spin, then yield, then park for growing intervals: saves power on quiet nodes at some latency. */
    BACKOFF("backoff"),
    /** Yield the core to other threads after each empty cycle: for shared machines and tests. */
    YIELD("yield");

    private final String yamlName;

    IdleStrategyKind(final String yamlName)
    {
        this.yamlName = yamlName;
    }

    /**
     * Returns the name used in the YAML file.
     *
     * @return e.g. {@code busy-spin}.
     */
    public String yamlName()
    {
        return yamlName;
    }

    /**
     * Finds the strategy with the given YAML name.
     *
     * @param name e.g. {@code backoff}.
     * @return the strategy, or null when no strategy has that name.
     */
    public static IdleStrategyKind fromYamlName(final String name)
    {
        for (final IdleStrategyKind kind : values())
        {
            if (kind.yamlName.equals(name))
            {
                return kind;
            }
        }
        return null;
    }
}
