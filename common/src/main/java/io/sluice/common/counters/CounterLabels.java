package io.sluice.common.counters;

import org.agrona.concurrent.status.CountersReader;

import java.nio.charset.StandardCharsets;

/**
 * Builds counter labels, the same way for every counter of a type, and reads names back out of them for display.
 * <pre>
 *   rx packets: worker=0
 *   drops: reason=IPV4_TRUNCATED worker=0
 *   vip packets: vip=web (10.100.0.1:80/tcp) worker=0
 *   backend bytes: vip=web (10.100.0.1:80/tcp) backend=b1 (10.0.0.1) worker=0
 *   port rx missed: port=0
 *   control commands applied
 * </pre>
 * Labels are for people: readers group counters by their {@link CounterKey}, and take from the label only the
 * names a key cannot hold (reason, VIP, backend). Fields come in the order above, worker last, so a name may contain
 * spaces. Labels longer than Agrona's {@value CountersReader#MAX_LABEL_LENGTH} bytes are cut at a character boundary.
 */
public final class CounterLabels
{
    static final String REASON_FIELD = "reason=";
    static final String VIP_FIELD = "vip=";
    static final String BACKEND_FIELD = " backend=";
    static final String PORT_FIELD = "port=";
    static final String WORKER_FIELD = " worker=";

    private CounterLabels()
    {
    }

    /**
     * Returns the label of a per-worker counter.
     *
     * @param type   the type.
     * @param worker the worker.
     * @return e.g. {@code rx packets: worker=0}.
     */
    public static String worker(final CounterType type, final int worker)
    {
        return fit(type.labelPrefix() + ":" + WORKER_FIELD + worker);
    }

    /**
     * Returns the label of a per-worker reason counter.
     *
     * @param type       {@link CounterType#DROP_REASON} or {@link CounterType#PASS_REASON}.
     * @param worker     the worker.
     * @param reasonName the reason's name, e.g. {@code IPV4_TRUNCATED}.
     * @return e.g. {@code drops: reason=IPV4_TRUNCATED worker=0}.
     */
    public static String reason(final CounterType type, final int worker, final String reasonName)
    {
        return fit(type.labelPrefix() + ": " + REASON_FIELD + reasonName + WORKER_FIELD + worker);
    }

    /**
     * Returns the label of a per-worker, per-VIP counter.
     *
     * @param type     the type.
     * @param worker   the worker.
     * @param vipLabel how operators name the VIP, e.g. {@code web (10.100.0.1:80/tcp)}.
     * @return e.g. {@code vip packets: vip=web (10.100.0.1:80/tcp) worker=0}.
     */
    public static String vip(final CounterType type, final int worker, final String vipLabel)
    {
        return fit(type.labelPrefix() + ": " + VIP_FIELD + vipLabel + WORKER_FIELD + worker);
    }

    /**
     * Returns the label of a per-worker, per-backend counter.
     *
     * @param type         the type.
     * @param worker       the worker.
     * @param vipLabel     the VIP's name.
     * @param backendLabel the backend's name, e.g. {@code b1 (10.0.0.1)}.
     * @return e.g. {@code backend packets: vip=web (10.100.0.1:80/tcp) backend=b1 (10.0.0.1) worker=0}.
     */
    public static String backend(
        final CounterType type, final int worker, final String vipLabel, final String backendLabel)
    {
        return fit(type.labelPrefix() + ": " + VIP_FIELD + vipLabel + BACKEND_FIELD + backendLabel +
            WORKER_FIELD + worker);
    }

    /**
     * Returns the label of a per-port counter.
     *
     * @param type the type.
     * @param port the DPDK port id.
     * @return e.g. {@code port rx missed: port=0}.
     */
    public static String port(final CounterType type, final int port)
    {
        return fit(type.labelPrefix() + ": " + PORT_FIELD + port);
    }

    /**
     * Returns the label of a process-wide counter.
     *
     * @param type the type.
     * @return e.g. {@code control commands applied}.
     */
    public static String process(final CounterType type)
    {
        return fit(type.labelPrefix());
    }

    /**
     * Reads the reason name out of a reason counter's label.
     *
     * @param label the label.
     * @return the name, or null when the label does not have the expected shape (e.g. it was cut).
     */
    public static String reasonName(final String label)
    {
        return between(label, label.indexOf(REASON_FIELD), REASON_FIELD.length(), label.lastIndexOf(WORKER_FIELD));
    }

    /**
     * Reads the VIP name out of a VIP or backend counter's label.
     *
     * @param label the label.
     * @return the name, or null when the label does not have the expected shape.
     */
    public static String vipName(final String label)
    {
        final int start = label.indexOf(VIP_FIELD);
        final int backend = label.lastIndexOf(BACKEND_FIELD);
        return between(label, start, VIP_FIELD.length(), backend > start ? backend : label.lastIndexOf(WORKER_FIELD));
    }

    /**
     * Reads the backend name out of a backend counter's label.
     *
     * @param label the label.
     * @return the name, or null when the label does not have the expected shape.
     */
    public static String backendName(final String label)
    {
        return between(label, label.lastIndexOf(BACKEND_FIELD), BACKEND_FIELD.length(),
            label.lastIndexOf(WORKER_FIELD));
    }

    private static String between(final String label, final int fieldStart, final int fieldLength, final int end)
    {
        if (fieldStart < 0 || end < fieldStart + fieldLength)
        {
            return null;
        }
        return label.substring(fieldStart + fieldLength, end);
    }

    /**
     * Cuts a label to Agrona's limit in UTF-8 bytes without splitting a character.
     *
     * @param label the label.
     * @return the label, or its longest prefix that fits.
     */
    static String fit(final String label)
    {
        if (label.length() * 3 <= CountersReader.MAX_LABEL_LENGTH ||
            label.getBytes(StandardCharsets.UTF_8).length <= CountersReader.MAX_LABEL_LENGTH)
        {
            return label;
        }
        int bytes = 0;
        int end = 0;
        while (end < label.length())
        {
            final int codePoint = label.codePointAt(end);
            final int length = new String(Character.toChars(codePoint)).getBytes(StandardCharsets.UTF_8).length;
            if (bytes + length > CountersReader.MAX_LABEL_LENGTH)
            {
                break;
            }
            bytes += length;
            end += Character.charCount(codePoint);
        }
        return label.substring(0, end);
    }
}
