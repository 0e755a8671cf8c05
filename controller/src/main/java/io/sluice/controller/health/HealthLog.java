package io.sluice.controller.health;

/** The health package's log: transitions and flapping are operational events, so they go out at WARNING/ERROR. */
final class HealthLog {
    private static final System.Logger LOGGER = System.getLogger("io.sluice.controller.health");

    private HealthLog() {
    }

    static void info(String message) {
        LOGGER.log(System.Logger.Level.INFO, message);
    }

    static void warn(String message) {
        LOGGER.log(System.Logger.Level.WARNING, message);
    }

    static void error(String message) {
        LOGGER.log(System.Logger.Level.ERROR, message);
    }
}
