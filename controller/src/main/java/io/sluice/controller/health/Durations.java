package io.sluice.controller.health;

/** Formats durations for log reasons: whole seconds as "30 s", anything else as "1500 ms". */
final class Durations {
    private Durations() {
    }

    static String format(long ms) {
        return ms % 1000 == 0 ? (ms / 1000) + " s" : ms + " ms";
    }
}
