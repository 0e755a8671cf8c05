package io.sluice.forwarder.pipeline;

/**
 * What the pipeline decided for a frame. Plain int constants: verdicts cross the hot path without boxing.
 */
public final class Verdict
{
    /**
     * The buffer now holds the GRE-encapsulated frame for the backend; transmit it.
     */
    public static final int FORWARD = 0;
    /**
     * Not for a VIP: hand it to the kernel.
     */
    public static final int PASS = 1;
    /**
     * Malformed or undeliverable: free it; the reason is counted.
     */
    public static final int DROP = 2;

    /**
     * The buffer now holds a reply the forwarder generated (an ICMP echo reply from a VIP); transmit it on the port
     * the frame came in on.
     */
    public static final int REPLY = 3;

    public static final int COUNT = 4;

    private Verdict()
    {
    }

    /**
     * Names a verdict.
     *
     * @param verdict code.
     * @return name.
     */
    public static String name(final int verdict)
    {
        return switch (verdict)
        {
            case FORWARD -> "FORWARD";
            case PASS -> "PASS";
            case DROP -> "DROP";
            case REPLY -> "REPLY";
            default -> "UNKNOWN(" + verdict + ")";
        };
    }
}
