package io.sluice.common.config;

import org.junit.jupiter.api.Test;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class IpLiteralsTest
{
    @Test
    void parsesIpv4LikeTheJdk() throws Exception
    {
        for (final String text : new String[]{"0.0.0.0", "10.0.0.1", "192.168.255.254", "255.255.255.255", "1.2.3.4"})
        {
            final InetAddress address = IpLiterals.parse(text);
            assertInstanceOf(Inet4Address.class, address);
            assertEquals(InetAddress.getByName(text), address, text);
            assertEquals(text, IpLiterals.format(address));
        }
    }

    @Test
    void parsesIpv6LikeTheJdk() throws Exception
    {
        final String[] texts = {"::", "::1", "1::", "fd00::1", "FD00:0:0:0:0:0:0:1", "2001:db8::ff00:42:8329",
            "2001:0db8:0000:0000:0000:ff00:0042:8329", "1:2:3:4:5:6:7:8", "1:2:3:4:5:6::8", "1::8", "::2:3:4:5:6:7:8",
            "64:ff9b::10.0.0.1", "::10.0.0.1", "1:2:3:4:5:6:1.2.3.4"};
        for (final String text : texts)
        {
            final InetAddress address = IpLiterals.parse(text);
            assertInstanceOf(Inet6Address.class, address, text);
            assertEquals(InetAddress.getByName(text), address, text);
        }
    }

    @Test
    void rejectsMalformedIpv4()
    {
        for (final String text : new String[]{"10.0.0", "10.0.0.0.1", "10.0.0.256", "010.0.0.1", "10..0.1", "10.0.0.",
            "1.2.3.-4", "", "1234.0.0.1"})
        {
            assertThrows(IllegalArgumentException.class, () -> IpLiterals.parseIpv4(text), text);
        }
    }

    @Test
    void rejectsMalformedIpv6()
    {
        for (final String text : new String[]{":::", "1:::2", "fd00::1::2", ":1::2", "1::2:", "1:2:3:4:5:6:7",
            "1:2:3:4:5:6:7:8:9", "1:2:3:4:5:6:7::8", "12345::1", "g::1", "::1.2.3", "1.2.3.4::", "::1.2.3.4:5",
            "1:2:3:4:5:6:7:1.2.3.4", "fe80::1%eth0", "[fd00::1]", "\uff11::1"})
        {
            assertThrows(IllegalArgumentException.class, () -> IpLiterals.parseIpv6(text), text);
        }
    }

    @Test
    void refusesHostNamesWithoutLookingThemUp()
    {
        for (final String text : new String[]{"localhost", "backend1.example.com", "10.0.0.x", "fd00"})
        {
            final IllegalArgumentException ex =
                assertThrows(IllegalArgumentException.class, () -> IpLiterals.parse(text), text);
            assertTrue(ex.getMessage().contains("host names are never resolved"), ex.getMessage());
        }
    }

    @Test
    void refusesIpv4MappedIpv6()
    {
        final IllegalArgumentException ex =
            assertThrows(IllegalArgumentException.class, () -> IpLiterals.parse("::ffff:10.0.0.1"));
        assertTrue(ex.getMessage().contains("write the IPv4 address 10.0.0.1 instead"), ex.getMessage());
    }

    @Test
    void formatsIpv6AsRfc5952()
    {
        assertEquals("::", IpLiterals.format(IpLiterals.parse("0:0:0:0:0:0:0:0")));
        assertEquals("::1", IpLiterals.format(IpLiterals.parse("0:0:0:0:0:0:0:1")));
        assertEquals("fd00::", IpLiterals.format(IpLiterals.parse("FD00:0:0:0:0:0:0:0")));
        assertEquals("2001:db8::1:0:0:1", IpLiterals.format(IpLiterals.parse("2001:db8:0:0:1:0:0:1")));
        assertEquals("2001:db8:0:1:1:1:1:1", IpLiterals.format(IpLiterals.parse("2001:db8:0:1:1:1:1:1")));
        assertEquals("1:0:0:2::3", IpLiterals.format(IpLiterals.parse("1:0:0:2:0:0:0:3")));
        assertEquals("64:ff9b::a00:1", IpLiterals.format(IpLiterals.parse("64:ff9b::10.0.0.1")));
        assertEquals("[fd00::1]", IpLiterals.formatForPort(IpLiterals.parse("fd00::1")));
        assertEquals("10.0.0.1", IpLiterals.formatForPort(IpLiterals.parse("10.0.0.1")));
    }

    /** What Guava's InetAddresses accepts and a configuration may not say; each refusal keeps its own message. */
    @Test
    void refusesWhatGuavaAcceptsWithTheReason()
    {
        assertRefused("fe80::1%eth0", "\"fe80::1%eth0\" is not a plain IPv6 address (write it without brackets and " +
            "without a %zone)");
        assertRefused("fe80::1%1", "\"fe80::1%1\" is not a plain IPv6 address (write it without brackets and " +
            "without a %zone)");
        assertRefused("::FFFF:1.2.3.4", "\"::FFFF:1.2.3.4\" is an IPv4-mapped IPv6 address: write the IPv4 address " +
            "1.2.3.4 instead");
        assertRefused("::ffff:0102:0304", "\"::ffff:0102:0304\" is an IPv4-mapped IPv6 address: write the IPv4 " +
            "address 1.2.3.4 instead");
        assertRefused("0:0:0:0:0:ffff:10.0.0.1", "\"0:0:0:0:0:ffff:10.0.0.1\" is an IPv4-mapped IPv6 address: " +
            "write the IPv4 address 10.0.0.1 instead");
        // Guava reads any Unicode digit as a digit.
        assertRefused("\u0661.\u0662.\u0663.\u0664", "\"\u0661.\u0662.\u0663.\u0664\" is not an IP address " +
            "literal (host names are never resolved: write the address itself)");
        assertRefused("\uff11.2.3.4", "\"\uff11.2.3.4\" is not an IP address literal (host names are never " +
            "resolved: write the address itself)");
        assertRefused("::\u0661", "\"::\u0661\" is not an IPv6 address (RFC 4291 section 2.2)");
        assertRefused("1.2.3.4%eth0", "\"1.2.3.4%eth0\" is not an IP address literal (host names are never " +
            "resolved: write the address itself)");
    }

    @Test
    void namesTheRuleEachMalformedLiteralBreaks()
    {
        assertRefused("01.2.3.4", "\"01.2.3.4\" is not an IPv4 address (expected four decimal numbers 0-255 without " +
            "leading zeros, e.g. 10.0.0.1)");
        assertRefused("1.2.3.256", "\"1.2.3.256\" is not an IPv4 address (expected four decimal numbers 0-255 " +
            "without leading zeros, e.g. 10.0.0.1)");
        assertRefused("1::2::3", "\"1::2::3\" is not an IPv6 address (RFC 4291 section 2.2)");
        assertRefused("[fd00::1]", "\"[fd00::1]\" is not a plain IPv6 address (write it without brackets and " +
            "without a %zone)");
        assertEquals("\"fd00::1\" is an IPv6 address, expected IPv4",
            assertThrows(IllegalArgumentException.class, () -> IpLiterals.parseIpv4("fd00::1")).getMessage());
        assertEquals("\"10.0.0.1\" is an IPv4 address, expected IPv6",
            assertThrows(IllegalArgumentException.class, () -> IpLiterals.parseIpv6("10.0.0.1")).getMessage());
    }

    private static void assertRefused(final String text, final String message)
    {
        assertEquals(message, assertThrows(IllegalArgumentException.class, () -> IpLiterals.parse(text), text)
            .getMessage());
    }
}
