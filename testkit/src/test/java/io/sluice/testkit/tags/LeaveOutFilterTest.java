package io.sluice.testkit.tags;

import org.junit.jupiter.api.Test;
import org.junit.platform.engine.TestDescriptor;
import org.junit.platform.engine.TestTag;
import org.junit.platform.engine.UniqueId;
import org.junit.platform.engine.support.descriptor.AbstractTestDescriptor;
import org.junit.platform.engine.support.descriptor.MethodSource;

import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What {@code mvn -Punit test} leaves out and how it counts, on descriptors made here (the real run is checked by
 * running {@code mvn -Punit test}).
 */
class LeaveOutFilterTest
{
    private static final class Descriptor extends AbstractTestDescriptor
    {
        private final Set<TestTag> tags = new LinkedHashSet<>();

        Descriptor(final String className, final String method, final String... tags)
        {
            super(UniqueId.forEngine("test").append("class", className).append("method", method), method + "()",
                MethodSource.from(className, method));
            Arrays.stream(tags).map(TestTag::create).forEach(this.tags::add);
        }

        @Override
        public Set<TestTag> getTags()
        {
            return tags;
        }

        @Override
        public Type getType()
        {
            return Type.TEST;
        }
    }

    @Test
    void includesEverythingWithoutTheProperty()
    {
        final LeftOutTests leftOut = new LeftOutTests();
        final LeaveOutFilter filter = new LeaveOutFilter(LeaveOutFilter.tags(""), leftOut);

        assertTrue(filter.apply(new Descriptor("io.sluice.A", "aNetnsTest", TestTags.NETNS, TestTags.ROOT))
            .included());
        assertTrue(filter.apply(new Descriptor("io.sluice.A", "aPureTest")).included());
        assertEquals(List.of(), leftOut.entries(), "nothing recorded as left out");
    }

    @Test
    void leavesOutAndCountsTestsCarryingAListedTag()
    {
        final LeftOutTests leftOut = new LeftOutTests();
        final LeaveOutFilter filter = new LeaveOutFilter(LeaveOutFilter.tags(" root, dpdk ,netns,daemon,"), leftOut);

        assertFalse(filter.apply(new Descriptor("io.sluice.X", "xNamespaces", TestTags.NETNS, TestTags.ROOT))
            .included());
        assertFalse(filter.apply(new Descriptor("io.sluice.X", "xDpdk", TestTags.DPDK)).included());
        assertFalse(filter.apply(new Descriptor("io.sluice.X", "xDpdk", TestTags.DPDK)).included(), "again");
        assertTrue(filter.apply(new Descriptor("io.sluice.Y", "yPure", "fast")).included());
        final Descriptor container = new Descriptor("io.sluice.Y", "yContainer", TestTags.DAEMON);
        container.addChild(new Descriptor("io.sluice.Y", "yChild", TestTags.DAEMON));
        assertFalse(filter.apply(container).included(), "a tagged container is excluded too");

        final List<LeftOutTests.Entry> added = leftOut.entries();
        assertEquals(2, added.size(), "only leaves count (the launcher removes only those), each once: " + added);
        assertEquals("2 tests in 1 class (per tag, a test may carry several: root 1, dpdk 1, netns 1)",
            LeftOutTests.summary(added));
        assertEquals(List.of("io.sluice.X [dpdk, netns, root]: xNamespaces(), xDpdk()"),
            LeftOutTests.details(added));
    }

    @Test
    void saysWhichTagLeftATestOut()
    {
        final LeaveOutFilter filter = new LeaveOutFilter(Set.of(TestTags.DAEMON), new LeftOutTests());

        assertEquals("tagged daemon (sluice.tests.leave-out=daemon)",
            filter.apply(new Descriptor("io.sluice.Z", "zBird", TestTags.DAEMON, "slow")).getReason().orElse(""));
        assertTrue(filter.apply(new Descriptor("io.sluice.Z", "zNetns", TestTags.NETNS)).included(),
            "netns is not listed");
    }
}
