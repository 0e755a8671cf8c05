package io.sluice.common.config;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Walks the parsed document top-down, in the order of the file: {@code node}, {@code forwarder}, {@code vips},
 * {@code controller}. The first problem found ends the walk.
 */
final class NodeConfigReader
{
    private static final Pattern NODE_NAME = Pattern.compile("[a-z0-9][a-z0-9-]{0,31}");
    /** Deeper nesting under {@code controller} is a mistake or a recursive alias, never a setting. */
    private static final int MAX_RAW_DEPTH = 32;

    private NodeConfigReader()
    {
    }

    static NodeConfig read(final String file, final Object document, final int availableCores) throws ConfigException
    {
        if (!(document instanceof Map))
        {
            throw new ConfigException(file, "", "the top level must be a mapping with the keys node, forwarder, " +
                "vips and controller; got " + MapReader.describe(document));
        }
        final MapReader root = MapReader.of(file, "", document, "node", "forwarder", "vips", "controller");
        final MapReader node = root.requiredMap("node", "name");
        final String name = node.requiredString("name");
        if (!NODE_NAME.matcher(name).matches())
        {
            throw node.error("name", "\"" + name + "\" is not a node name (1 to 32 of a-z, 0-9 and -, starting with a " +
                "letter or digit; it names the node's shared-memory directory)");
        }
        final ForwarderConfig forwarder =
            ForwarderReader.read(root.requiredMap("forwarder", ForwarderReader.KEYS), availableCores);
        final List<VipConfig> vips = VipsReader.read(root, forwarder);
        return new NodeConfig(new NodeIdentity(name), forwarder, vips, readController(root));
    }

    /** Kept raw for the controller to validate; only its shape is checked here. */
    @SuppressWarnings("unchecked")
    private static Map<String, Object> readController(final MapReader root) throws ConfigException
    {
        final Object value = root.get("controller");
        if (value == null)
        {
            return Map.of();
        }
        if (!(value instanceof Map))
        {
            throw root.error("controller", "expected a mapping (the controller's settings), got " +
                MapReader.describe(value));
        }
        return (Map<String, Object>)freeze(root, "controller", value, 0);
    }

    /** Copies a raw value into unmodifiable collections, so the config stays immutable all the way down. */
    private static Object freeze(final MapReader root, final String path, final Object value, final int depth)
        throws ConfigException
    {
        if (depth > MAX_RAW_DEPTH)
        {
            throw new ConfigException(root.file(), path, "nested more than " + MAX_RAW_DEPTH + " levels deep");
        }
        if (value instanceof Map<?, ?> map)
        {
            final Map<String, Object> copy = new LinkedHashMap<>();
            for (final Map.Entry<?, ?> entry : map.entrySet())
            {
                if (!(entry.getKey() instanceof String key))
                {
                    throw new ConfigException(root.file(), path,
                        "keys must be strings, got " + MapReader.describe(entry.getKey()));
                }
                copy.put(key, freeze(root, path + "." + key, entry.getValue(), depth + 1));
            }
            return Collections.unmodifiableMap(copy);
        }
        if (value instanceof List<?> list)
        {
            final List<Object> copy = new ArrayList<>(list.size());
            for (int i = 0; i < list.size(); i++)
            {
                copy.add(freeze(root, path + "[" + i + "]", list.get(i), depth + 1));
            }
            return Collections.unmodifiableList(copy);
        }
        return value;
    }
}
