package io.sluice.controller.health.check;

import java.io.IOException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.PortUnreachableException;
import java.net.SocketException;
import java.net.SocketTimeoutException;

/** Names a failed check's exception the way an operator reads it: "connect refused", "timeout after 2000 ms". */
final class Failures {
    private Failures() {
    }

    static String describe(IOException e, long timeoutMs) {
        if (e instanceof SocketTimeoutException) {
            return "timeout after " + timeoutMs + " ms";
        }
        if (e instanceof ConnectException) {
            String message = e.getMessage();
            return message != null && message.toLowerCase().contains("timed out")
                ? "timeout after " + timeoutMs + " ms" : "connect refused";
        }
        if (e instanceof NoRouteToHostException) {
            return "no route to host";
        }
        if (e instanceof PortUnreachableException) {
            return "port unreachable";
        }
        if (e instanceof SocketException && e.getMessage() != null
            && e.getMessage().toLowerCase().contains("reset")) {
            return "connection reset";
        }
        return e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage());
    }
}
