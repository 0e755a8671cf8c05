package io.sluice.common.config;

/**
 * The rules for a Maglev table's size (Maglev paper §3.4: a prime, so every permutation visits every slot), in
 * the config model so that both the reader and the forwarder's table builder apply the same ones.
 */
public final class MaglevTableSize
{
    /**
     * Default table size: a prime above 100 x the backends of a large service, as in the paper.
     */
    public static final int DEFAULT = 65_537;

    /**
     * Largest table size accepted: the largest prime below 2^24 (64 MiB of slots per VIP). It keeps every probe
     * position plus a skip below 2^31, which the fill loop relies on.
     */
    public static final int MAX = 16_777_213;

    private MaglevTableSize()
    {
    }

    /**
     * Checks a table size.
     *
     * @param size candidate number of slots.
     * @return null when usable, else the reason it is not.
     */
    public static String check(final int size)
    {
        if (size < 3)
        {
            return "Maglev table size must be a prime >= 3, got " + size;
        }
        if (size > MAX)
        {
            return "Maglev table size must be at most " + MAX + " (the largest prime below 2^24), got " +
                size;
        }
        if (!isPrime(size))
        {
            return "Maglev table size must be prime (Maglev paper section 3.4), got " + size +
                " (nearest primes: " + previousPrime(size) + ", " + nextPrime(size) + ")";
        }
        return null;
    }

    /**
     * Tests primality by trial division; table sizes are small.
     *
     * @param n candidate.
     * @return true when n is prime.
     */
    public static boolean isPrime(final int n)
    {
        if (n < 2)
        {
            return false;
        }
        if (n % 2 == 0)
        {
            return n == 2;
        }
        for (int d = 3; (long)d * d <= n; d += 2)
        {
            if (n % d == 0)
            {
                return false;
            }
        }
        return true;
    }

    /**
     * Returns the smallest prime above a number.
     *
     * @param n the number.
     * @return the next prime.
     */
    public static int nextPrime(final int n)
    {
        int p = n + 1;
        while (!isPrime(p))
        {
            p++;
        }
        return p;
    }

    /**
     * Returns the largest prime below a number.
     *
     * @param n the number, above 2.
     * @return the previous prime.
     */
    public static int previousPrime(final int n)
    {
        int p = n - 1;
        while (p > 2 && !isPrime(p))
        {
            p--;
        }
        return p;
    }
}
