package io.sluice.controller.health;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.regex.Pattern;

/** Parses IP literals only: health checks never resolve names (a DNS stall must not look like a dead backend). */
final class IpLiteral {
    private static final Pattern IPV4 = Pattern.compile("(\\d{1,3})\\.(\\d{1,3})\\.(\\d{1,3})\\.(\\d{1,3})");
    private static final Pattern IPV6 = Pattern.compile("[0-9A-Fa-f:.]*:[0-9A-Fa-f:.]*");

    private IpLiteral() {
    }

    static InetAddress parse(String text) {
        var v4 = IPV4.matcher(text);
        boolean ok = v4.matches() ? octetsInRange(v4) : IPV6.matcher(text).matches();
        if (!ok) {
            throw new IllegalArgumentException("not an IP literal: '" + text + "'");
        }
        try {
            return InetAddress.getByName(text); // no lookup for a literal
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("not an IP literal: '" + text + "'", e);
        }
    }

    private static boolean octetsInRange(java.util.regex.Matcher v4) {
        for (int i = 1; i <= 4; i++) {
            if (Integer.parseInt(v4.group(i)) > 255) {
                return false;
            }
        }
        return true;
    }
}
