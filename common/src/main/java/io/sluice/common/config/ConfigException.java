package io.sluice.common.config;

/**
 * A node configuration that cannot be used. The message always reads {@code FILE: FIELD: REASON} (or
 * {@code FILE: REASON} when the problem is the file as a whole), so an operator sees where to look and what to change
 * without a stack trace.
 */
public final class ConfigException extends Exception
{
    private static final long serialVersionUID = 1L;

    private final String file;
    private final String field;
    private final String reason;

    /**
     * Creates an exception.
     *
     * @param file   the file as the operator named it, e.g. {@code node.yaml}.
     * @param field  the path of the offending field, e.g. {@code forwarder.workers[1].core}; empty for the file.
     * @param reason what is wrong, phrased so that it suggests the fix.
     */
    public ConfigException(final String file, final String field, final String reason)
    {
        super(field.isEmpty() ? file + ": " + reason : file + ": " + field + ": " + reason);
        this.file = file;
        this.field = field;
        this.reason = reason;
    }

    /**
     * Returns the file as the operator named it.
     *
     * @return the file name or path.
     */
    public String file()
    {
        return file;
    }

    /**
     * Returns the path of the offending field: keys joined by dots, list elements as {@code [index]}.
     *
     * @return the field path, or an empty string when the problem is the whole file.
     */
    public String field()
    {
        return field;
    }

    /**
     * Returns what is wrong, without the file and field.
     *
     * @return the reason.
     */
    public String reason()
    {
        return reason;
    }
}
