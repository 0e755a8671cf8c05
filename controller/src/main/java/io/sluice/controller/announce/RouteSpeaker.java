package io.sluice.controller.announce;

import java.net.InetAddress;
import java.util.Map;
import java.util.Set;

/**
 * What the controller needs from a BGP speaker: set the announced addresses, poll its I/O, report its state.
 * Implemented over the ExaBGP sidecar; {@link #none()} stands in when the node does not speak BGP. A speaker logs
 * its own events.
 */
public interface RouteSpeaker extends AutoCloseable
{
    /**
     * Sets the addresses to announce; the speaker withdraws the others.
     *
     * @param addresses VIP addresses.
     */
    void setAnnounced(Set<InetAddress> addresses);

    /**
     * Does pending I/O; never blocks for long and never throws for I/O problems.
     *
     * @param nowMs the time.
     * @return work done.
     */
    int poll(long nowMs);

    /**
     * Tells whether the last {@link #setAnnounced} reached the BGP speaker.
     *
     * @return true when the speaker has it.
     */
    boolean isCurrent();

    /**
     * Describes the speaker for status, e.g. {@code ExaBGP pid 123, relay connected}.
     *
     * @return one line.
     */
    String state();

    /**
     * Returns the BGP sessions' states.
     *
     * @return neighbor address → state.
     */
    Map<String, String> neighborStates();

    /**
     * Stops the speaker and releases what it holds.
     */
    @Override
    void close();

    /**
     * Returns the speaker of a node without BGP: announces nothing, says so.
     *
     * @return the stand-in.
     */
    static RouteSpeaker none()
    {
        return new RouteSpeaker()
        {
            @Override
            public void setAnnounced(final Set<InetAddress> addresses)
            {
            }

            @Override
            public int poll(final long nowMs)
            {
                return 0;
            }

            @Override
            public boolean isCurrent()
            {
                return true;
            }

            @Override
            public String state()
            {
                return "not configured (no controller.bgp section)";
            }

            @Override
            public Map<String, String> neighborStates()
            {
                return Map.of();
            }

            @Override
            public void close()
            {
            }
        };
    }
}
