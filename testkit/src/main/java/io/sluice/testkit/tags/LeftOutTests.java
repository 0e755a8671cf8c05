package io.sluice.testkit.tags;

import org.junit.platform.engine.TestDescriptor;
import org.junit.platform.engine.support.descriptor.MethodSource;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The tests a {@link LeaveOutFilter} left out, by unique id, so a test discovered twice counts once.
 * {@link #LAUNCHER} holds those of the filter the JUnit launcher loaded in this JVM (one surefire fork: one module).
 */
public final class LeftOutTests
{
    /**
     * What the launcher's filter left out in this JVM, which {@link LeftOutSummary} prints.
     */
    public static final LeftOutTests LAUNCHER = new LeftOutTests();

    private final Map<String, Entry> leftOut = new LinkedHashMap<>();

    /**
     * One left-out test.
     *
     * @param className   the class it is in, or its display name when it has no method source.
     * @param displayName how JUnit names it, e.g. {@code announcesAndWithdrawsAVipThroughExaBgpAndBird()}.
     * @param tags        the left-out tags it carries.
     */
    public record Entry(String className, String displayName, List<String> tags)
    {
    }

    LeftOutTests()
    {
    }

    synchronized void record(final TestDescriptor descriptor, final List<String> tags)
    {
        final String className = descriptor.getSource()
            .filter(MethodSource.class::isInstance)
            .map(source -> ((MethodSource)source).getClassName())
            .orElse(descriptor.getDisplayName());
        leftOut.putIfAbsent(descriptor.getUniqueId().toString(),
            new Entry(className, descriptor.getDisplayName(), List.copyOf(tags)));
    }

    /**
     * Returns the tests left out so far.
     *
     * @return in the order they were discovered.
     */
    public synchronized List<Entry> entries()
    {
        return new ArrayList<>(leftOut.values());
    }

    /**
     * Returns the one-line summary of what was left out.
     *
     * @param entries the tests left out.
     * @return e.g. {@code 12 tests in 3 classes (per tag, a test may carry several: root 4, dpdk 8, netns 4)}.
     */
    public static String summary(final List<Entry> entries)
    {
        final Set<String> classes = new LinkedHashSet<>();
        final Map<String, Integer> byTag = new LinkedHashMap<>();
        for (final String tag : TestTags.ALL)
        {
            byTag.put(tag, 0);
        }
        for (final Entry entry : entries)
        {
            classes.add(entry.className());
            for (final String tag : entry.tags())
            {
                byTag.merge(tag, 1, Integer::sum);
            }
        }
        final List<String> counts = new ArrayList<>();
        byTag.forEach((tag, count) ->
        {
            if (count > 0)
            {
                counts.add(tag + " " + count);
            }
        });
        return entries.size() + " test" + (entries.size() == 1 ? "" : "s") + " in " +
            classes.size() + " class" + (classes.size() == 1 ? "" : "es") +
            (counts.isEmpty() ? "" : " (per tag, a test may carry several: " + String.join(", ", counts) + ")");
    }

    /**
     * Returns the left-out classes, each with its left-out tests, one per line.
     *
     * @param entries the tests left out.
     * @return e.g. {@code io.sluice.testkit.NetNsTest [netns, root]: connectsTwoNamespaces...()}.
     */
    public static List<String> details(final List<Entry> entries)
    {
        final Map<String, List<Entry>> byClass = new LinkedHashMap<>();
        for (final Entry entry : entries)
        {
            byClass.computeIfAbsent(entry.className(), name -> new ArrayList<>()).add(entry);
        }
        final List<String> lines = new ArrayList<>();
        byClass.forEach((className, tests) ->
        {
            final Set<String> tags = new TreeSet<>();
            final List<String> names = new ArrayList<>();
            for (final Entry test : tests)
            {
                tags.addAll(test.tags());
                names.add(test.displayName());
            }
            lines.add(className + " " + tags + ": " + String.join(", ", names));
        });
        return lines;
    }
}
