package io.sluice.controller.health;

import java.util.BitSet;

/** The HTTP statuses a health check accepts, e.g. "200-399" (the default) or "200,204,301-302". */
public final class ExpectedStatuses {
    private static final int MIN = 100;
    private static final int MAX = 599;
    private static final ExpectedStatuses DEFAULT = parse("200-399");

    private final BitSet statuses;
    private final String text;

    private ExpectedStatuses(BitSet statuses, String text) {
        this.statuses = statuses;
        this.text = text;
    }

    /** Returns 200-399. */
    public static ExpectedStatuses defaults() {
        return DEFAULT;
    }

    /** Parses comma-separated statuses and inclusive ranges within 100..599. */
    public static ExpectedStatuses parse(String text) {
        BitSet statuses = new BitSet(MAX + 1);
        for (String part : text.split(",")) {
            String item = part.strip();
            int dash = item.indexOf('-');
            int from = status(dash < 0 ? item : item.substring(0, dash), text);
            int to = dash < 0 ? from : status(item.substring(dash + 1), text);
            if (to < from) {
                throw new IllegalArgumentException("backwards status range '" + item + "' in '" + text + "'");
            }
            statuses.set(from, to + 1);
        }
        return new ExpectedStatuses(statuses, text.strip());
    }

    private static int status(String digits, String text) {
        int status;
        try {
            status = Integer.parseInt(digits.strip());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("bad HTTP status '" + digits.strip() + "' in '" + text + "'", e);
        }
        if (status < MIN || status > MAX) {
            throw new IllegalArgumentException("HTTP status " + status + " outside 100..599 in '" + text + "'");
        }
        return status;
    }

    /** Returns whether {@code status} is expected. */
    public boolean contains(int status) {
        return status >= MIN && status <= MAX && statuses.get(status);
    }

    @Override
    public String toString() {
        return text;
    }
}
