package io.sluice.tools.maglev;

import io.sluice.forwarder.maglev.MaglevBackend;

import java.util.ArrayList;
import java.util.List;

/**
 * The backend set of the C reference builder (native/bench/maglev_ref.c): backend {@code i} is the IPv4 address
 * 10.0.0.0 + i + 1 in network order, weight 1, id i. Tools and benchmarks use exactly this set so their tables and
 * checksums compare with the C reference's.
 */
public final class BenchmarkBackends
{
    /**
     * Most backends the set can hold: beyond 2^24 - 1 the addresses would leave 10.0.0.0/8.
     */
    public static final int MAX_BACKENDS = 0xFF_FFFF;

    private static final int BASE_ADDRESS = 0x0A00_0000;

    private BenchmarkBackends()
    {
    }

    /**
     * Returns backend {@code i}'s identity: its IPv4 address, big-endian.
     *
     * @param i backend index, 0 to {@link #MAX_BACKENDS} - 1.
     * @return four address octets.
     */
    public static byte[] identity(final int i)
    {
        final int address = BASE_ADDRESS + i + 1;
        return new byte[]{(byte)(address >>> 24), (byte)(address >>> 16), (byte)(address >>> 8), (byte)address};
    }

    /**
     * Returns the first {@code n} backends, each of weight 1.
     *
     * @param n number of backends.
     * @return a new list, backend i at index i.
     */
    public static List<MaglevBackend> first(final int n)
    {
        final List<MaglevBackend> backends = new ArrayList<>(n);
        for (int i = 0; i < n; i++)
        {
            backends.add(new MaglevBackend(identity(i), 1, i));
        }
        return backends;
    }
}
