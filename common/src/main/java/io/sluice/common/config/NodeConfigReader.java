package io.sluice.common.config;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Walks the parsed document top-down, in the order of the file: {@code node}, {@code forwarder}, then
 * {@code controller} before {@code vips} (whose health checks build on the controller's
 * defaults). The first problem found ends the walk.
 */
final class NodeConfigReader
{
    private static final Pattern NODE_NAME = Pattern.compile("[a-z0-9][a-z0-9-]{0,31}");

    private NodeConfigReader()
    {
    }

    static NodeConfig read(final String file, final Object document, final MachineCpus cpus) throws ConfigException
    {
        if (!(document instanceof Map))
        {
            throw new ConfigException(file, "", "the top level must be a mapping with the keys node, forwarder, " +
                "vips and controller; got " + MapReader.describe(document));
        }
        final MapReader root = MapReader.of(file, "", document, "node", "forwarder", "vips", "controller");
        final MapReader node = root.requiredMap("node", "name", "state_dir");
        final String name = node.requiredString("name");
        if (!NODE_NAME.matcher(name).matches())
        {
            throw node.error("name",
                "\"" + name + "\" is not a node name (1 to 32 of a-z, 0-9 and -, starting with a " +
                "letter or digit; it names the node's shared-memory directory)");
        }
        final Path stateDir = node.has("state_dir") ?
            ForwarderReader.absoluteDirectory(node, "state_dir", "the controller may start in any directory") :
            NodeIdentity.DEFAULT_STATE_DIR;
        final ForwarderConfig forwarder =
            ForwarderReader.read(root.requiredMap("forwarder", ForwarderReader.KEYS), cpus);
        // The controller section comes before the VIPs: a VIP's health_check is merged over its health_checks.
        final ControllerConfig controller = ControllerReader.read(root);
        final List<VipConfig> vips = VipsReader.read(root, forwarder, controller.healthChecks());
        VipBgpCheck.check(file, vips, controller.bgp());
        return new NodeConfig(new NodeIdentity(name, stateDir), forwarder, vips, controller);
    }
}
