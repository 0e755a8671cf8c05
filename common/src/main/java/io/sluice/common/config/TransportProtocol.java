package io.sluice.common.config;

import io.sluice.common.Vip;

/**
 * The transport protocol of a VIP.
 */
public enum TransportProtocol
{
    TCP("tcp", Vip.TCP),
    UDP("udp", Vip.UDP);

    private final String yamlName;
    private final int number;

    TransportProtocol(final String yamlName, final int number)
    {
        this.yamlName = yamlName;
        this.number = number;
    }

    /**
     * Returns the name used in the YAML file.
     *
     * @return {@code tcp} or {@code udp}.
     */
    public String yamlName()
    {
        return yamlName;
    }

    /**
     * Returns the IANA protocol number, as in the IP header's protocol (or next header) field.
     *
     * @return 6 for TCP, 17 for UDP.
     */
    public int number()
    {
        return number;
    }

    /**
     * Finds the protocol with the given YAML name.
     *
     * @param name {@code tcp} or {@code udp}.
     * @return the protocol, or null when none has that name.
     */
    public static TransportProtocol fromYamlName(final String name)
    {
        for (final TransportProtocol protocol : values())
        {
            if (protocol.yamlName.equals(name))
            {
                return protocol;
            }
        }
        return null;
    }
}
