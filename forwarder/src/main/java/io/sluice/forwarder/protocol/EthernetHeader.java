package io.sluice.forwarder.protocol;

import java.nio.ByteOrder;

/**
 * Ethernet II header (IEEE 802.3), optionally followed by one 802.1Q tag.
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                  Destination MAC (6 octets)                   |
 * +                               +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                               |                               |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+                               +
 * |                     Source MAC (6 octets)                     |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |   EtherType or TPID 0x8100    |  [PCP|DEI|VID] if tagged      |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |   EtherType if tagged         |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * </pre>
 */
public final class EthernetHeader extends HeaderFlyweight
{
    public static final int DESTINATION_FIELD_OFFSET = 0;
    public static final int SOURCE_FIELD_OFFSET = 6;
    public static final int ETHERTYPE_FIELD_OFFSET = 12;
    public static final int VLAN_TCI_FIELD_OFFSET = 14;
    public static final int VLAN_ETHERTYPE_FIELD_OFFSET = 16;
    public static final int LENGTH = 14;
    public static final int VLAN_TAG_LENGTH = 4;
    public static final int MAC_LENGTH = 6;

    /**
     * Sets the EtherType.
     *
     * @param etherType value.
     * @return this.
     */
    public EthernetHeader etherType(final int etherType)
    {
        buffer.putShort(offset + ETHERTYPE_FIELD_OFFSET, (short)etherType, ByteOrder.BIG_ENDIAN);
        return this;
    }

    /**
     * Writes both MAC addresses, given as the low 48 bits of a long in transmission order.
     *
     * @param destination MAC.
     * @param source      MAC.
     * @return this.
     */
    public EthernetHeader macs(final long destination, final long source)
    {
        buffer.putInt(offset, (int)(destination >>> 16), ByteOrder.BIG_ENDIAN);
        buffer.putShort(offset + 4, (short)destination, ByteOrder.BIG_ENDIAN);
        buffer.putShort(offset + SOURCE_FIELD_OFFSET, (short)(source >>> 32), ByteOrder.BIG_ENDIAN);
        buffer.putInt(offset + SOURCE_FIELD_OFFSET + 2, (int)source, ByteOrder.BIG_ENDIAN);
        return this;
    }
}
