package io.sluice.common.config;

import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.MarkedYAMLException;
import org.yaml.snakeyaml.error.YAMLException;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;
import org.yaml.snakeyaml.nodes.Tag;
import org.yaml.snakeyaml.representer.Representer;
import org.yaml.snakeyaml.resolver.Resolver;

import java.io.StringReader;
import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Turns YAML text into plain Java values (maps, lists, strings, numbers, booleans, null) and nothing else:
 * {@link SafeConstructor} never instantiates arbitrary types.
 * <p>
 * The document is composed once to find duplicate keys with their field path and lines (SnakeYAML's own check,
 * also enabled, names lines only), then constructed.
 */
final class YamlDocument
{
    /** A node config is a few kilobytes; refuse anything that is clearly not one. */
    private static final int MAX_CODE_POINTS = 1 << 20;

    private YamlDocument()
    {
    }

    /**
     * Parses a document.
     *
     * @param file the file name for messages.
     * @param text the YAML text.
     * @return the value of the single document, never null.
     * @throws ConfigException on a syntax error, a duplicate key, several documents or an empty file.
     */
    static Object parse(final String file, final String text) throws ConfigException
    {
        final LoaderOptions options = new LoaderOptions();
        options.setAllowDuplicateKeys(false);
        options.setCodePointLimit(MAX_CODE_POINTS);
        final DumperOptions dumperOptions = new DumperOptions();
        final Yaml yaml = new Yaml(
            new SafeConstructor(options), new Representer(dumperOptions), dumperOptions, options, new StrictResolver());
        try
        {
            final Node root = yaml.compose(new StringReader(text));
            if (root != null)
            {
                checkDuplicateKeys(file, root, "", Collections.newSetFromMap(new IdentityHashMap<>()));
            }
            final Object value = root == null ? null : yaml.load(text);
            if (value == null)
            {
                throw new ConfigException(file, "", "the file is empty (expected a mapping with the keys node, " +
                    "forwarder, vips and controller; see docs/config.example.yaml)");
            }
            return value;
        }
        catch (final MarkedYAMLException ex)
        {
            throw new ConfigException(file, "", describe(ex));
        }
        catch (final YAMLException ex)
        {
            throw new ConfigException(file, "", "not valid YAML: " + ex.getMessage());
        }
    }

    private static String describe(final MarkedYAMLException ex)
    {
        final StringBuilder reason = new StringBuilder("not valid YAML: ");
        if (ex.getContext() != null)
        {
            reason.append(ex.getContext()).append(", ");
        }
        reason.append(ex.getProblem());
        final Mark mark = ex.getProblemMark() != null ? ex.getProblemMark() : ex.getContextMark();
        if (mark != null)
        {
            reason.append(" (line ").append(mark.getLine() + 1).append(", column ").append(mark.getColumn() + 1)
                .append(')');
        }
        return reason.toString();
    }

    private static void checkDuplicateKeys(final String file, final Node node, final String path, final Set<Node> seen)
        throws ConfigException
    {
        // An alias shares its anchor's node: check each node once, which also ends recursive structures.
        if (!seen.add(node))
        {
            return;
        }
        if (node instanceof MappingNode mapping)
        {
            final Map<String, Integer> firstLine = new HashMap<>();
            for (final NodeTuple tuple : mapping.getValue())
            {
                String childPath = path;
                if (tuple.getKeyNode() instanceof ScalarNode key && !Tag.MERGE.equals(key.getTag()))
                {
                    childPath = path.isEmpty() ? key.getValue() : path + "." + key.getValue();
                    final int line = key.getStartMark().getLine() + 1;
                    final Integer first = firstLine.putIfAbsent(key.getValue(), line);
                    if (first != null)
                    {
                        throw new ConfigException(file, childPath,
                            "duplicate key (first at line " + first + ", again at line " + line + ")");
                    }
                }
                checkDuplicateKeys(file, tuple.getValueNode(), childPath, seen);
            }
        }
        else if (node instanceof SequenceNode sequence)
        {
            final List<Node> items = sequence.getValue();
            for (int i = 0; i < items.size(); i++)
            {
                checkDuplicateKeys(file, items.get(i), path + "[" + i + "]", seen);
            }
        }
    }

    /**
     * The YAML 1.2 core schema's plain scalars instead of YAML 1.1's: {@code yes}/{@code on} stay strings, {@code 010}
     * is not octal, {@code 10:20:30:40:50:59} (a MAC) is not a base-60 number, and dates stay strings.
     */
    static final class StrictResolver extends Resolver
    {
        private static final Pattern CORE_BOOL = Pattern.compile("^(?:true|True|TRUE|false|False|FALSE)$");
        private static final Pattern CORE_INT =
            Pattern.compile("^(?:[-+]?(?:0|[1-9][0-9_]*)|[-+]?0x[0-9a-fA-F][0-9a-fA-F_]*)$");
        private static final Pattern CORE_FLOAT = Pattern.compile("^(?:[-+]?(?:[0-9][0-9_]*\\.[0-9_]*|\\.[0-9]+)" +
            "(?:[eE][-+]?[0-9]+)?|[-+]?[0-9]+[eE][-+]?[0-9]+|[-+]?\\.(?:inf|Inf|INF)|\\.(?:nan|NaN|NAN))$");

        @Override
        protected void addImplicitResolvers()
        {
            addImplicitResolver(Tag.BOOL, CORE_BOOL, "tTfF", 10);
            addImplicitResolver(Tag.INT, CORE_INT, "-+0123456789");
            addImplicitResolver(Tag.FLOAT, CORE_FLOAT, "-+0123456789.");
            addImplicitResolver(Tag.MERGE, MERGE, "<", 10);
            addImplicitResolver(Tag.NULL, NULL, "~nN\0", 10);
            addImplicitResolver(Tag.NULL, EMPTY, null, 10);
        }
    }
}
