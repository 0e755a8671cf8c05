package io.sluice.common.config;

import java.util.List;

/**
 * The BGP path attributes of a VIP's route ({@code vips[i].bgp}), sent on every session of the node.
 *
 * @param communities      RFC 1997 communities, each {@code ASN:VALUE} with both parts 0..65535.
 * @param largeCommunities RFC 8092 large communities, each {@code GLOBAL:LOCAL1:LOCAL2} of 0..4294967295.
 * @param med              the MULTI_EXIT_DISC, 0..4294967295, or {@link #NO_MED} for the node's
 *                         {@code controller.bgp.med}.
 */
public record VipRouteConfig(List<String> communities, List<String> largeCommunities, long med)
{
    public static final long NO_MED = -1;
    public static final VipRouteConfig NONE = new VipRouteConfig(List.of(), List.of(), NO_MED);

    /**
     * Copies the lists, so the record is immutable.
     */
    public VipRouteConfig
    {
        communities = List.copyOf(communities);
        largeCommunities = List.copyOf(largeCommunities);
    }
}
