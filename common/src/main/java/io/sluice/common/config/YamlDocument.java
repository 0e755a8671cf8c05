package io.sluice.common.config;

import org.snakeyaml.engine.v2.api.ConstructNode;
import org.snakeyaml.engine.v2.api.LoadSettings;
import org.snakeyaml.engine.v2.comments.CommentLine;
import org.snakeyaml.engine.v2.common.Anchor;
import org.snakeyaml.engine.v2.composer.Composer;
import org.snakeyaml.engine.v2.constructor.ConstructScalar;
import org.snakeyaml.engine.v2.constructor.ConstructYamlNull;
import org.snakeyaml.engine.v2.constructor.StandardConstructor;
import org.snakeyaml.engine.v2.constructor.core.ConstructYamlCoreBool;
import org.snakeyaml.engine.v2.exceptions.ConstructorException;
import org.snakeyaml.engine.v2.exceptions.Mark;
import org.snakeyaml.engine.v2.exceptions.MarkedYamlEngineException;
import org.snakeyaml.engine.v2.exceptions.YamlEngineException;
import org.snakeyaml.engine.v2.nodes.MappingNode;
import org.snakeyaml.engine.v2.nodes.Node;
import org.snakeyaml.engine.v2.nodes.NodeTuple;
import org.snakeyaml.engine.v2.nodes.NodeType;
import org.snakeyaml.engine.v2.nodes.ScalarNode;
import org.snakeyaml.engine.v2.nodes.SequenceNode;
import org.snakeyaml.engine.v2.nodes.Tag;
import org.snakeyaml.engine.v2.parser.ParserImpl;
import org.snakeyaml.engine.v2.resolver.ScalarResolver;
import org.snakeyaml.engine.v2.schema.Schema;
import org.snakeyaml.engine.v2.scanner.StreamReader;

import java.math.BigInteger;
import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;
import java.util.regex.Pattern;

/**
 * Turns YAML text into plain Java values (maps, lists, strings, numbers, booleans, null) and nothing else, with
 * SnakeYAML Engine (YAML 1.2): the text is parsed once into a node tree, whose duplicate keys are reported with their
 * field path and lines (the engine's own check, also enabled, names lines only), and the values are constructed from
 * that tree.
 */
final class YamlDocument
{
    /** A node config is a few kilobytes; refuse anything that is clearly not one. */
    private static final int MAX_CODE_POINTS = 1 << 20;
    /** The engine has no nesting limit and composes recursively; a config nests five levels deep. */
    private static final int MAX_NESTING_DEPTH = 50;

    private static final Map<Tag, NodeType> KIND_OF_TAG = Map.of(Tag.STR, NodeType.SCALAR, Tag.INT, NodeType.SCALAR,
        Tag.FLOAT, NodeType.SCALAR, Tag.BOOL, NodeType.SCALAR, Tag.NULL, NodeType.SCALAR, Tag.ENV_TAG, NodeType.SCALAR,
        Tag.SEQ, NodeType.SEQUENCE, Tag.MAP, NodeType.MAPPING, Tag.SET, NodeType.MAPPING);

    private static final LoadSettings SETTINGS = LoadSettings.builder()
        .setSchema(new StrictSchema())
        .setAllowDuplicateKeys(false)
        .setAllowNonScalarKeys(true)
        .setCodePointLimit(MAX_CODE_POINTS)
        .build();

    private YamlDocument()
    {
    }

    /**
     * Parses a document.
     *
     * @param file the file name for messages.
     * @param text the YAML text.
     * @return the value of the single document, never null.
     * @throws ConfigException on a syntax error (a tag the engine refuses among them), a duplicate key, several
     *     documents or an empty file.
     */
    static Object parse(final String file, final String text) throws ConfigException
    {
        try
        {
            final Optional<Node> root =
                new DepthLimitedComposer(new ParserImpl(SETTINGS, new StreamReader(SETTINGS, text))).getSingleNode();
            if (root.isPresent())
            {
                check(file, root.get(), "", Collections.newSetFromMap(new IdentityHashMap<>()));
            }
            final Object value = new StandardConstructor(SETTINGS).constructSingleDocument(root);
            if (value == null)
            {
                throw new ConfigException(file, "", "the file is empty (expected a mapping with the keys node, " +
                    "forwarder, vips and controller; see docs/config.example.yaml)");
            }
            return value;
        }
        catch (final MarkedYamlEngineException ex)
        {
            throw new ConfigException(file, "", describe(ex));
        }
        catch (final YamlEngineException | IllegalArgumentException ex)
        {
            // The engine refuses some tags with IllegalArgumentException rather than a YamlEngineException: "!%6"
            // at the end of the text (a percent-escape cut short) fails in Tag's constructor.
            throw new ConfigException(file, "", "not valid YAML: " + ex.getMessage());
        }
    }

    private static String describe(final MarkedYamlEngineException ex)
    {
        final StringBuilder reason = new StringBuilder("not valid YAML: ");
        if (ex.getContext() != null && !ex.getContext().isEmpty())
        {
            reason.append(ex.getContext()).append(", ");
        }
        reason.append(ex.getProblem());
        ex.getProblemMark().or(ex::getContextMark).ifPresent(mark -> reason.append(" (line ")
            .append(mark.getLine() + 1).append(", column ").append(mark.getColumn() + 1).append(')'));
        return reason.toString();
    }

    /**
     * Refuses duplicate keys, naming the field and both lines, and a standard tag on a node of another kind
     * ({@code !!str {a: 1}}), which the engine would construct into a ClassCastException.
     */
    private static void check(final String file, final Node node, final String path, final Set<Node> seen)
        throws ConfigException
    {
        // An alias shares its anchor's node: check each node once, which also ends recursive structures.
        if (!seen.add(node))
        {
            return;
        }
        final NodeType kind = KIND_OF_TAG.get(node.getTag());
        if (kind != null && kind != node.getNodeType())
        {
            throw new ConfigException(file, path, "not valid YAML: a " + node.getNodeType().name().toLowerCase(
                Locale.ROOT) + " cannot be tagged " + node.getTag() + node.getStartMark().map(mark -> " (line " +
                (mark.getLine() + 1) + ", column " + (mark.getColumn() + 1) + ")").orElse(""));
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
                    final int line = key.getStartMark().map(Mark::getLine).orElse(-1) + 1;
                    final Integer first = firstLine.putIfAbsent(key.getValue(), line);
                    if (first != null)
                    {
                        throw new ConfigException(file, childPath,
                            "duplicate key (first at line " + first + ", again at line " + line + ")");
                    }
                }
                check(file, tuple.getKeyNode(), childPath, seen);
                check(file, tuple.getValueNode(), childPath, seen);
            }
        }
        else if (node instanceof SequenceNode sequence)
        {
            final List<Node> items = sequence.getValue();
            for (int i = 0; i < items.size(); i++)
            {
                check(file, items.get(i), path + "[" + i + "]", seen);
            }
        }
    }

    /**
     * Refuses documents nested deeper than {@link #MAX_NESTING_DEPTH}, as SnakeYAML did, so that no text can exhaust
     * the stack.
     */
    private static final class DepthLimitedComposer extends Composer
    {
        private int depth;

        DepthLimitedComposer(final ParserImpl parser)
        {
            super(SETTINGS, parser);
        }

        @Override
        protected Node composeScalarNode(final Optional<Anchor> anchor, final List<CommentLine> blockComments)
        {
            return nested(() -> super.composeScalarNode(anchor, blockComments));
        }

        @Override
        protected SequenceNode composeSequenceNode(final Optional<Anchor> anchor)
        {
            return nested(() -> super.composeSequenceNode(anchor));
        }

        @Override
        protected Node composeMappingNode(final Optional<Anchor> anchor)
        {
            return nested(() -> super.composeMappingNode(anchor));
        }

        private <T> T nested(final Supplier<T> compose)
        {
            if (depth > MAX_NESTING_DEPTH)
            {
                throw new YamlEngineException("Nesting Depth exceeded max " + MAX_NESTING_DEPTH);
            }
            depth++;
            try
            {
                return compose.get();
            }
            finally
            {
                depth--;
            }
        }
    }

    /**
     * The YAML 1.2 core schema's types (null, booleans, integers, floats; strings, lists and mappings are the
     * constructor's own) with a stricter resolver of plain scalars than the engine's {@code CoreScalarResolver}:
     * {@code 010} stays a string (so the reader can say "without leading zeros" instead of taking it as 10),
     * {@code 0o17} stays a string, and {@code 1_000} is the integer 1000, as this reader has always read them. As in
     * the core schema, {@code yes}/{@code on} stay strings, {@code 10:20:30:40:50:59} (a MAC) is not a base-60 number
     * and dates stay strings. Other tags ({@code !!binary}, {@code !!timestamp}) have no constructor, so they are
     * refused as invalid YAML.
     */
    private static final class StrictSchema implements Schema
    {
        private static final Pattern BOOL = Pattern.compile("true|True|TRUE|false|False|FALSE");
        private static final Pattern INT = Pattern.compile("[-+]?(?:0|[1-9][0-9_]*)|[-+]?0x[0-9a-fA-F][0-9a-fA-F_]*");
        private static final Pattern FLOAT = Pattern.compile("[-+]?(?:[0-9][0-9_]*\\.[0-9_]*|\\.[0-9]+)" +
            "(?:[eE][-+]?[0-9]+)?|[-+]?[0-9]+[eE][-+]?[0-9]+|[-+]?\\.(?:inf|Inf|INF)|\\.(?:nan|NaN|NAN)");
        private static final Pattern NULL = Pattern.compile("~|null|Null|NULL|");

        @Override
        public ScalarResolver getScalarResolver()
        {
            return (value, plain) ->
            {
                if (!plain)
                {
                    return Tag.STR;
                }
                if (NULL.matcher(value).matches())
                {
                    return Tag.NULL;
                }
                if (BOOL.matcher(value).matches())
                {
                    return Tag.BOOL;
                }
                if (INT.matcher(value).matches())
                {
                    return Tag.INT;
                }
                if (FLOAT.matcher(value).matches())
                {
                    return Tag.FLOAT;
                }
                return "<<".equals(value) ? Tag.MERGE : Tag.STR;
            };
        }

        @Override
        public Map<Tag, ConstructNode> getSchemaTagConstructors()
        {
            return Map.of(Tag.NULL, new ConstructYamlNull(), Tag.BOOL, new ConstructYamlCoreBool(),
                Tag.INT, new ConstructInteger(), Tag.FLOAT, new ConstructFloat());
        }
    }

    /** Integer, Long or BigInteger, the smallest that holds the value; {@code _} separates digits. */
    private static final class ConstructInteger extends ConstructScalar
    {
        @Override
        public Object construct(final Node node)
        {
            String digits = constructScalar(node).replace("_", "");
            if (digits.isEmpty())
            {
                throw new ConstructorException("while constructing an int", node.getStartMark(), "found empty value",
                    node.getStartMark());
            }
            final boolean negative = digits.startsWith("-");
            if (negative || digits.startsWith("+"))
            {
                digits = digits.substring(1);
            }
            final boolean hex = digits.startsWith("0x");
            final BigInteger value;
            try
            {
                value = new BigInteger(hex ? digits.substring(2) : digits, hex ? 16 : 10);
            }
            catch (final NumberFormatException ex)
            {
                throw new ConstructorException("while constructing an int", node.getStartMark(),
                    "found \"" + constructScalar(node) + "\", not an integer", node.getStartMark());
            }
            final BigInteger signed = negative ? value.negate() : value;
            if (signed.bitLength() < Integer.SIZE)
            {
                return signed.intValue();
            }
            return signed.bitLength() < Long.SIZE ? (Object)signed.longValue() : signed;
        }
    }

    /** A double; {@code _} separates digits, {@code .inf} and {@code .nan} as in the core schema. */
    private static final class ConstructFloat extends ConstructScalar
    {
        @Override
        public Object construct(final Node node)
        {
            String text = constructScalar(node).replace("_", "");
            final boolean negative = text.startsWith("-");
            if (negative || text.startsWith("+"))
            {
                text = text.substring(1);
            }
            final double value;
            if (text.equalsIgnoreCase(".inf"))
            {
                value = Double.POSITIVE_INFINITY;
            }
            else if (text.equalsIgnoreCase(".nan"))
            {
                value = Double.NaN;
            }
            else
            {
                try
                {
                    value = Double.parseDouble(text);
                }
                catch (final NumberFormatException ex)
                {
                    throw new ConstructorException("while constructing a float", node.getStartMark(),
                        "found \"" + constructScalar(node) + "\", not a number", node.getStartMark());
                }
            }
            return negative ? -value : value;
        }
    }
}
