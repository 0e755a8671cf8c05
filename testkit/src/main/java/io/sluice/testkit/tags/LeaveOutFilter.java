package io.sluice.testkit.tags;

import org.junit.platform.engine.FilterResult;
import org.junit.platform.engine.TestDescriptor;
import org.junit.platform.engine.TestTag;
import org.junit.platform.launcher.PostDiscoveryFilter;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Leaves out the tests tagged with any tag the system property {@value #PROPERTY} lists (comma separated), and
 * records each one in {@link LeftOutTests#LAUNCHER} so that {@link LeftOutSummary} can say how many it left out.
 * Without the property (CI, {@code scripts/test.sh}) it includes everything. {@code mvn -Punit test} sets the property
 * to every tag of {@link TestTags#ALL}.
 *
 * <p>Registered through {@code META-INF/services}, so every module with this test kit on its test class path gets
 * it. The launcher removes only descriptors without children (test methods, and templates such as parameterized and
 * fuzz tests, which expand at run time), so those are what is counted.
 */
public final class LeaveOutFilter implements PostDiscoveryFilter
{
    /**
     * The system property naming the tags to leave out.
     */
    public static final String PROPERTY = "sluice.tests.leave-out";

    private final Set<String> leaveOut;
    private final LeftOutTests leftOut;

    /**
     * Creates the filter for the tags {@value #PROPERTY} names; called by the JUnit launcher.
     */
    public LeaveOutFilter()
    {
        this(tags(System.getProperty(PROPERTY, "")), LeftOutTests.LAUNCHER);
    }

    LeaveOutFilter(final Set<String> leaveOut, final LeftOutTests leftOut)
    {
        this.leaveOut = Set.copyOf(leaveOut);
        this.leftOut = leftOut;
    }

    static Set<String> tags(final String list)
    {
        final Set<String> tags = new LinkedHashSet<>();
        for (final String tag : list.split(","))
        {
            if (!tag.isBlank())
            {
                tags.add(tag.strip());
            }
        }
        return tags;
    }

    @Override
    public FilterResult apply(final TestDescriptor descriptor)
    {
        if (leaveOut.isEmpty())
        {
            return FilterResult.included("no tag is left out");
        }
        final List<String> matched = new ArrayList<>();
        for (final TestTag tag : descriptor.getTags())
        {
            if (leaveOut.contains(tag.getName()))
            {
                matched.add(tag.getName());
            }
        }
        if (matched.isEmpty())
        {
            return FilterResult.included("none of the tags " + leaveOut);
        }
        if (descriptor.getChildren().isEmpty())
        {
            leftOut.record(descriptor, matched);
        }
        return FilterResult.excluded("tagged " + String.join(", ", matched) + " (" + PROPERTY + "=" +
            String.join(",", leaveOut) + ")");
    }
}
