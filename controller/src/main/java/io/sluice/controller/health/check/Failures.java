package io.sluice.controller.health.check;

import java.io.IOException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.PortUnreachableException;
import java.net.SocketException;
import java.net.SocketTimeoutException;

/** Names a failed check's exception the way an operator reads it: "connect refused", "timeout after 2000 ms". */
final class Failures
{
    private Failures()
    {
    }

    static String describe(final IOException ex, final long timeoutMs)
    {
        if (ex instanceof SocketTimeoutException)
        {
            return "timeout after " + timeoutMs + " ms";
        }
        if (ex instanceof ConnectException)
        {
            final String message = ex.getMessage();
            return message != null && message.toLowerCase().contains("timed out") ?
                "timeout after " + timeoutMs + " ms" : "connect refused";
        }
        if (ex instanceof NoRouteToHostException)
        {
            return "no route to host";
        }
        if (ex instanceof PortUnreachableException)
        {
            return "port unreachable";
        }
        if (ex instanceof SocketException && ex.getMessage() != null &&
            ex.getMessage().toLowerCase().contains("reset"))
        {
            return "connection reset";
        }
        return ex.getClass().getSimpleName() + (ex.getMessage() == null ? "" : ": " + ex.getMessage());
    }
}
