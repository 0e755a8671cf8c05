package io.sluice.forwarder.capture;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.nio.ByteOrder;

/**
 * What a live capture copies: port, direction, VIP (address and optional port), backend, and a prefix of the
 * 5-tuple (source prefix, destination prefix, source port, destination port, protocol). Every criterion that is
 * set must hold. The tool writes it into the capture file; each worker reads it once when a capture starts and
 * evaluates it only while one runs.
 * <p>
 * Addresses, ports and protocol are those of the client's packet: for a frame the forwarder encapsulated (a
 * transmitted GRE frame) the inner packet's, so a filter sees the same flow before and after encapsulation. The VIP
 * matches the destination (with the VIP's port) or the source (with it as source port: replies the forwarder sent
 * from the VIP); the 5-tuple matches the packet as it is or reversed, as tcpdump's {@code host} does. The backend
 * matches the outer destination of an encapsulated frame; a received frame matches it when the forwarder sent it to
 * that backend (decided after processing, see {@link CaptureTap}). A frame that is not IP matches only a filter
 * with no address, port or protocol criterion.
 * <p>
 * Layout in the capture file (128 bytes, little-endian): port int (-1 any), directions int (bit 0 rx, bit 1 tx),
 * snap length int, VIP port int (-1 any), then four prefixes of 24 bytes (family int: 0 unset, 4 or 6; prefix
 * length int; address high long; address low long): VIP, backend, source, destination; then source port,
 * destination port and protocol ints (-1 any). IPv4 addresses sit in the upper half of the high long.
 */
public final class CaptureFilter
{
    public static final int RX = 1;
    public static final int TX = 2;
    public static final int BOTH = RX | TX;
    public static final int ANY = -1;
    /** Whole frames, as tcpdump's default. */
    public static final int DEFAULT_SNAP_LENGTH = 65_535;
    static final int LENGTH = 128;

    private static final int PROTO_ICMP = 1;
    private static final int PROTO_TCP = 6;
    private static final int PROTO_UDP = 17;
    private static final int PROTO_GRE = 47;
    private static final int PROTO_SCTP = 132;

    int port = ANY;
    int directions = BOTH;
    int snapLength = DEFAULT_SNAP_LENGTH;
    int vipPort = ANY;
    final Prefix vip = new Prefix();
    final Prefix backend = new Prefix();
    final Prefix source = new Prefix();
    final Prefix destination = new Prefix();
    int sourcePort = ANY;
    int destinationPort = ANY;
    int protocol = ANY;

    // the frame being matched
    private final FrameFields fields = new FrameFields();

    /**
     * An address prefix (or a whole address), held as two longs.
     */
    static final class Prefix
    {
        int family;
        int length;
        long high;
        long low;

        boolean isSet()
        {
            return family != 0;
        }

        void set(final InetAddress address, final int prefixLength)
        {
            final byte[] octets = address.getAddress();
            family = address instanceof Inet4Address ? 4 : 6;
            length = prefixLength;
            high = 0;
            low = 0;
            for (int i = 0; i < 8; i++)
            {
                high = high << 8 | (i < octets.length ? octets[i] & 0xFF : 0);
            }
            for (int i = 8; i < 16; i++)
            {
                low = low << 8 | (i < octets.length ? octets[i] & 0xFF : 0);
            }
        }

        boolean contains(final int addressFamily, final long addressHigh, final long addressLow)
        {
            if (addressFamily != family)
            {
                return false;
            }
            final long maskHigh = length >= 64 ? -1L : length == 0 ? 0 : -1L << (64 - length);
            final long maskLow = length <= 64 ? 0 : length >= 128 ? -1L : -1L << (128 - length);
            return ((addressHigh ^ high) & maskHigh) == 0 && ((addressLow ^ low) & maskLow) == 0;
        }

        void write(final MutableDirectBuffer buffer, final int offset)
        {
            buffer.putInt(offset, family);
            buffer.putInt(offset + 4, length);
            buffer.putLong(offset + 8, high);
            buffer.putLong(offset + 16, low);
        }

        void read(final DirectBuffer buffer, final int offset)
        {
            family = buffer.getInt(offset);
            length = buffer.getInt(offset + 4);
            high = buffer.getLong(offset + 8);
            low = buffer.getLong(offset + 16);
        }
    }

    /**
     * Writes the filter at an offset of the capture file.
     *
     * @param buffer the file.
     * @param offset where.
     */
    void write(final MutableDirectBuffer buffer, final int offset)
    {
        buffer.putInt(offset, port);
        buffer.putInt(offset + 4, directions);
        buffer.putInt(offset + 8, snapLength);
        buffer.putInt(offset + 12, vipPort);
        vip.write(buffer, offset + 16);
        backend.write(buffer, offset + 40);
        source.write(buffer, offset + 64);
        destination.write(buffer, offset + 88);
        buffer.putInt(offset + 112, sourcePort);
        buffer.putInt(offset + 116, destinationPort);
        buffer.putInt(offset + 120, protocol);
    }

    /**
     * Reads the filter from an offset of the capture file.
     *
     * @param buffer the file.
     * @param offset where.
     */
    void read(final DirectBuffer buffer, final int offset)
    {
        port = buffer.getInt(offset);
        directions = buffer.getInt(offset + 4);
        snapLength = buffer.getInt(offset + 8);
        vipPort = buffer.getInt(offset + 12);
        vip.read(buffer, offset + 16);
        backend.read(buffer, offset + 40);
        source.read(buffer, offset + 64);
        destination.read(buffer, offset + 88);
        sourcePort = buffer.getInt(offset + 112);
        destinationPort = buffer.getInt(offset + 116);
        protocol = buffer.getInt(offset + 120);
    }

    public CaptureFilter port(final int portId)
    {
        this.port = portId;
        return this;
    }

    public CaptureFilter directions(final int mask)
    {
        this.directions = mask;
        return this;
    }

    public CaptureFilter snapLength(final int length)
    {
        this.snapLength = length;
        return this;
    }

    public CaptureFilter vip(final InetAddress address, final int vipPortOrAny)
    {
        vip.set(address, address instanceof Inet4Address ? 32 : 128);
        this.vipPort = vipPortOrAny;
        return this;
    }

    public CaptureFilter backend(final InetAddress address)
    {
        backend.set(address, address instanceof Inet4Address ? 32 : 128);
        return this;
    }

    public CaptureFilter source(final InetAddress address, final int prefixLength)
    {
        source.set(address, prefixLength);
        return this;
    }

    public CaptureFilter destination(final InetAddress address, final int prefixLength)
    {
        destination.set(address, prefixLength);
        return this;
    }

    public CaptureFilter sourcePort(final int value)
    {
        this.sourcePort = value;
        return this;
    }

    public CaptureFilter destinationPort(final int value)
    {
        this.destinationPort = value;
        return this;
    }

    public CaptureFilter protocol(final int value)
    {
        this.protocol = value;
        return this;
    }

    /**
     * Returns the most bytes copied of a frame.
     *
     * @return snap length.
     */
    public int snapLength()
    {
        return snapLength;
    }

    /**
     * Tells whether the filter names a backend, which a received frame meets only once the forwarder chose it.
     *
     * @return true with a backend criterion.
     */
    public boolean hasBackend()
    {
        return backend.isSet();
    }

    /**
     * Tells whether a frame passes every criterion but the backend.
     *
     * @param frame     the frame's buffer.
     * @param offset    its first byte.
     * @param length    its length.
     * @param direction {@link #RX} or {@link #TX}.
     * @param portId    the port it was received on or is sent to.
     * @return true when it passes.
     */
    public boolean matchesIgnoringBackend(final DirectBuffer frame, final int offset, final int length,
        final int direction, final int portId)
    {
        if ((directions & direction) == 0 || (port != ANY && port != portId))
        {
            return false;
        }
        if (!fields.parse(frame, offset, length))
        {
            return !vip.isSet() && !backend.isSet() && !source.isSet() && !destination.isSet() &&
                sourcePort == ANY && destinationPort == ANY && protocol == ANY;
        }
        return matchesVip() && (matchesTuple(false) || matchesTuple(true));
    }

    /**
     * Tells whether a frame passes every criterion.
     *
     * @param frame     the frame's buffer.
     * @param offset    its first byte.
     * @param length    its length.
     * @param direction {@link #RX} or {@link #TX}.
     * @param portId    the port it was received on or is sent to.
     * @return true when it passes.
     */
    public boolean matches(final DirectBuffer frame, final int offset, final int length, final int direction,
        final int portId)
    {
        return matchesIgnoringBackend(frame, offset, length, direction, portId) &&
            (!backend.isSet() || matchesBackendOfParsed());
    }

    /**
     * Tells whether an encapsulated frame goes to the filter's backend (true when the filter names none).
     *
     * @param frame  the frame's buffer.
     * @param offset its first byte.
     * @param length its length.
     * @return true when it does.
     */
    public boolean matchesBackend(final DirectBuffer frame, final int offset, final int length)
    {
        return !backend.isSet() || (fields.parse(frame, offset, length) && matchesBackendOfParsed());
    }

    private boolean matchesBackendOfParsed()
    {
        return fields.tunnelled && backend.contains(fields.outerFamily, fields.outerDestinationHigh,
            fields.outerDestinationLow);
    }

    private boolean matchesVip()
    {
        if (!vip.isSet())
        {
            return true;
        }
        final FrameFields f = fields;
        final boolean toVip = vip.contains(f.family, f.destinationHigh, f.destinationLow) &&
            (vipPort == ANY || (f.hasPorts && f.destinationPort == vipPort));
        final boolean fromVip = vip.contains(f.family, f.sourceHigh, f.sourceLow) &&
            (vipPort == ANY || (f.hasPorts && f.sourcePort == vipPort));
        return toVip || fromVip;
    }

    private boolean matchesTuple(final boolean reversed)
    {
        final FrameFields f = fields;
        if (protocol != ANY && f.protocol != protocol)
        {
            return false;
        }
        final boolean s = !source.isSet() || (reversed ?
            source.contains(f.family, f.destinationHigh, f.destinationLow) :
            source.contains(f.family, f.sourceHigh, f.sourceLow));
        final boolean d = !destination.isSet() || (reversed ?
            destination.contains(f.family, f.sourceHigh, f.sourceLow) :
            destination.contains(f.family, f.destinationHigh, f.destinationLow));
        final boolean sp = sourcePort == ANY ||
            (f.hasPorts && (reversed ? f.destinationPort : f.sourcePort) == sourcePort);
        final boolean dp = destinationPort == ANY ||
            (f.hasPorts && (reversed ? f.sourcePort : f.destinationPort) == destinationPort);
        return s && d && sp && dp;
    }

    /**
     * The fields of one frame a filter looks at: the (inner) packet's addresses, protocol and ports, and for a
     * GRE frame the outer destination. Every length is checked against the frame.
     */
    static final class FrameFields
    {
        int family;
        long sourceHigh;
        long sourceLow;
        long destinationHigh;
        long destinationLow;
        int protocol;
        boolean hasPorts;
        int sourcePort;
        int destinationPort;
        boolean tunnelled;
        int outerFamily;
        long outerDestinationHigh;
        long outerDestinationLow;

        boolean parse(final DirectBuffer b, final int offset, final int length)
        {
            tunnelled = false;
            final int end = offset + length;
            if (length < 14)
            {
                return false;
            }
            int etherType = b.getShort(offset + 12, ByteOrder.BIG_ENDIAN) & 0xFFFF;
            int l3 = offset + 14;
            if (etherType == 0x8100 || etherType == 0x88A8)
            {
                if (length < 18)
                {
                    return false;
                }
                etherType = b.getShort(offset + 16, ByteOrder.BIG_ENDIAN) & 0xFFFF;
                l3 += 4;
            }
            if (!parseIp(b, l3, end, etherType))
            {
                return false;
            }
            if (protocol != PROTO_GRE || tunnelled)
            {
                return true;
            }
            // GRE (RFC 2784, RFC 2890 key and sequence): the inner packet is the client's.
            final int gre = innerOffset;
            if (innerEnd - gre < 4)
            {
                return true;
            }
            final int flags = b.getShort(gre, ByteOrder.BIG_ENDIAN) & 0xFFFF;
            final int greLength = 4 + ((flags & 0x8000) != 0 ? 4 : 0) + ((flags & 0x2000) != 0 ? 4 : 0) +
                ((flags & 0x1000) != 0 ? 4 : 0);
            final int innerType = b.getShort(gre + 2, ByteOrder.BIG_ENDIAN) & 0xFFFF;
            if (innerEnd - gre < greLength || (innerType != 0x0800 && innerType != 0x86DD))
            {
                return true;
            }
            final int outer = family;
            final long outerHigh = destinationHigh;
            final long outerLow = destinationLow;
            final int packetEnd = innerEnd;
            if (!parseIp(b, gre + greLength, packetEnd, innerType))
            {
                return false;
            }
            tunnelled = true;
            outerFamily = outer;
            outerDestinationHigh = outerHigh;
            outerDestinationLow = outerLow;
            return true;
        }

        // where the IP payload starts and ends, after parseIp
        private int innerOffset;
        private int innerEnd;

        private boolean parseIp(final DirectBuffer b, final int l3, final int end, final int etherType)
        {
            hasPorts = false;
            if (etherType == 0x0800)
            {
                if (end - l3 < 20 || (b.getByte(l3) & 0xF0) != 0x40)
                {
                    return false;
                }
                final int ihl = (b.getByte(l3) & 0x0F) * 4;
                final int total = b.getShort(l3 + 2, ByteOrder.BIG_ENDIAN) & 0xFFFF;
                if (ihl < 20 || total < ihl || total > end - l3)
                {
                    return false;
                }
                family = 4;
                sourceHigh = (b.getInt(l3 + 12, ByteOrder.BIG_ENDIAN) & 0xFFFF_FFFFL) << 32;
                sourceLow = 0;
                destinationHigh = (b.getInt(l3 + 16, ByteOrder.BIG_ENDIAN) & 0xFFFF_FFFFL) << 32;
                destinationLow = 0;
                protocol = b.getByte(l3 + 9) & 0xFF;
                final boolean laterFragment = (b.getShort(l3 + 6, ByteOrder.BIG_ENDIAN) & 0x1FFF) != 0;
                innerOffset = l3 + ihl;
                innerEnd = l3 + total;
                readPorts(b, laterFragment);
                return true;
            }
            if (etherType == 0x86DD)
            {
                if (end - l3 < 40 || (b.getByte(l3) & 0xF0) != 0x60)
                {
                    return false;
                }
                final int payload = b.getShort(l3 + 4, ByteOrder.BIG_ENDIAN) & 0xFFFF;
                if (40 + payload > end - l3)
                {
                    return false;
                }
                family = 6;
                sourceHigh = b.getLong(l3 + 8, ByteOrder.BIG_ENDIAN);
                sourceLow = b.getLong(l3 + 16, ByteOrder.BIG_ENDIAN);
                destinationHigh = b.getLong(l3 + 24, ByteOrder.BIG_ENDIAN);
                destinationLow = b.getLong(l3 + 32, ByteOrder.BIG_ENDIAN);
                innerEnd = l3 + 40 + payload;
                int next = b.getByte(l3 + 6) & 0xFF;
                int at = l3 + 40;
                boolean laterFragment = false;
                for (int walked = 0; walked < 8; walked++)
                {
                    if (next != 0 && next != 43 && next != 60 && next != 44)
                    {
                        break;
                    }
                    if (innerEnd - at < 8)
                    {
                        return false;
                    }
                    final int headerNext = b.getByte(at) & 0xFF;
                    if (next == 44)
                    {
                        laterFragment = (b.getShort(at + 2, ByteOrder.BIG_ENDIAN) & 0xFFF8) != 0;
                        at += 8;
                        next = headerNext;
                        break;
                    }
                    at += ((b.getByte(at + 1) & 0xFF) + 1) * 8;
                    next = headerNext;
                }
                if (at > innerEnd)
                {
                    return false;
                }
                protocol = next;
                innerOffset = at;
                readPorts(b, laterFragment);
                return true;
            }
            return false;
        }

        private void readPorts(final DirectBuffer b, final boolean laterFragment)
        {
            if (!laterFragment && (protocol == PROTO_TCP || protocol == PROTO_UDP || protocol == PROTO_SCTP) &&
                innerEnd - innerOffset >= 4)
            {
                hasPorts = true;
                sourcePort = b.getShort(innerOffset, ByteOrder.BIG_ENDIAN) & 0xFFFF;
                destinationPort = b.getShort(innerOffset + 2, ByteOrder.BIG_ENDIAN) & 0xFFFF;
            }
            else if (protocol == PROTO_ICMP || protocol == 58)
            {
                sourcePort = 0;
                destinationPort = 0;
            }
        }
    }
}
