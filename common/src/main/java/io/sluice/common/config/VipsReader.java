package io.sluice.common.config;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads {@code vips} and checks them against the forwarder's capacities and tunnel sources.
 */
final class VipsReader
{
    private VipsReader()
    {
    }

    static List<VipConfig> read(final MapReader root, final ForwarderConfig forwarder,
        final HealthCheckConfig healthDefaults) throws ConfigException
    {
        final List<MapReader> entries =
            root.mapList("vips", false, 0, "name", "address", "port", "protocol", "backends", "health_check",
                "bgp");
        if (entries.size() > forwarder.maxVips())
        {
            throw root.error("vips", entries.size() + " VIPs exceed forwarder.max_vips (" + forwarder.maxVips() + ")");
        }
        final Map<String, String> pathByService = new HashMap<>();
        final Map<String, String> pathByName = new HashMap<>();
        final List<VipConfig> vips = new ArrayList<>(entries.size());
        int backendCount = 0;
        for (final MapReader entry : entries)
        {
            final VipConfig vip = readVip(entry, forwarder, healthDefaults);
            final String service = IpLiterals.formatForPort(vip.address()) + ":" + vip.port() + "/" +
                vip.protocol().yamlName();
            final String sameService = pathByService.putIfAbsent(service, entry.path());
            if (sameService != null)
            {
                throw entry.error("duplicate VIP " + service + " (also " + sameService + ")");
            }
            final String sameName = pathByName.putIfAbsent(vip.name(), entry.path());
            if (sameName != null)
            {
                throw entry.error("name", "duplicate VIP name \"" + vip.name() + "\" (also " + sameName + ")");
            }
            backendCount += vip.backends().size();
            vips.add(vip);
        }
        if (backendCount > forwarder.maxBackends())
        {
            throw root.error("vips", backendCount + " backends in all VIPs exceed forwarder.max_backends (" +
                forwarder.maxBackends() + ")");
        }
        return vips;
    }

    private static VipConfig readVip(final MapReader entry, final ForwarderConfig forwarder,
        final HealthCheckConfig healthDefaults) throws ConfigException
    {
        final InetAddress address = ConfigValues.ip(entry, "address");
        final int port = entry.requiredInt("port", 0, 65535);
        final String protocolName = entry.requiredString("protocol");
        final TransportProtocol protocol = TransportProtocol.fromYamlName(protocolName);
        if (protocol == null)
        {
            throw entry.error("protocol", "expected tcp or udp, got \"" + protocolName + "\"");
        }
        final String defaultName = IpLiterals.formatForPort(address) + ":" + port + "/" + protocol.yamlName();
        final String name = ConfigValues.label(entry, "name", defaultName);
        final List<BackendConfig> backends = readBackends(entry, forwarder);
        final HealthCheckConfig healthCheck = entry.has("health_check") ? ControllerReader.healthCheck(
            entry.optionalMap("health_check", ControllerReader.HEALTH_CHECK_KEYS), healthDefaults) : null;
        final HealthCheckConfig effective = healthCheck != null ? healthCheck : healthDefaults;
        if (port == VipConfig.ALL_PORTS && effective.port() == HealthCheckConfig.VIP_PORT)
        {
            throw new ConfigException(entry.file(), entry.pathOf("health_check") + ".port", "required when the " +
                "VIP's port is 0 (all ports): set vips[i].health_check.port or controller.health_checks.port");
        }
        final VipRouteConfig route = entry.has("bgp") ?
            BgpReader.vipRoute(entry.optionalMap("bgp", BgpReader.VIP_KEYS)) : VipRouteConfig.NONE;
        return new VipConfig(name, address, port, protocol, backends, healthCheck, route);
    }

    private static List<BackendConfig> readBackends(final MapReader vip, final ForwarderConfig forwarder)
        throws ConfigException
    {
        final List<MapReader> entries = vip.mapList("backends", false, 0, "address", "name", "weight");
        final Map<InetAddress, String> pathByAddress = new HashMap<>();
        final Map<String, String> pathByName = new HashMap<>();
        final List<BackendConfig> backends = new ArrayList<>(entries.size());
        for (final MapReader entry : entries)
        {
            final InetAddress address = ConfigValues.ip(entry, "address");
            final String text = IpLiterals.format(address);
            checkTunnelSource(entry, address, text, forwarder);
            final String sameAddress = pathByAddress.putIfAbsent(address, entry.path());
            if (sameAddress != null)
            {
                throw entry.error("address", "duplicate backend address " + text + " (also " + sameAddress + ")");
            }
            final String name = ConfigValues.label(entry, "name", text);
            final String sameName = pathByName.putIfAbsent(name, entry.path());
            if (sameName != null)
            {
                throw entry.error("name", "duplicate backend name \"" + name + "\" (also " + sameName + ")");
            }
            final int weight =
                entry.optionalInt("weight", BackendConfig.DEFAULT_WEIGHT, 0, BackendConfig.MAX_WEIGHT);
            backends.add(new BackendConfig(name, address, weight));
        }
        return backends;
    }

    /** The outer header of a GRE packet has the backend's family, so the node needs a source of that family. */
    private static void checkTunnelSource(final MapReader backend, final InetAddress address, final String text,
        final ForwarderConfig forwarder) throws ConfigException
    {
        if (address instanceof Inet6Address && forwarder.tunnelSourceV6() == null)
        {
            throw backend.error("address", "IPv6 backend " + text + " needs forwarder.tunnel_source_v6, which is not " +
                "set (the outer source address of GRE packets to IPv6 backends)");
        }
        if (!(address instanceof Inet6Address) && forwarder.tunnelSourceV4() == null)
        {
            throw backend.error("address", "IPv4 backend " + text + " needs forwarder.tunnel_source_v4, which is not " +
                "set (the outer source address of GRE packets to IPv4 backends)");
        }
    }
}
