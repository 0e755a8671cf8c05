package io.sluice.forwarder.memory;

import io.sluice.forwarder.agent.WorkerCounters;
import io.sluice.forwarder.lb.ConnectionTable;
import io.sluice.forwarder.pipeline.PipelineCounters;
import org.agrona.BitUtil;
import org.agrona.UnsafeApi;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The field layout of the per-worker state one worker writes hot (its I/O counters, its pipeline counters, its
 * connection table's bookkeeping), as this JVM lays it out: every field other than padding lies at least a cache
 * line from either end of the object, so whatever object another worker owns next to it on the heap never shares
 * a cache line with it (no false sharing). Checked on the running JVM, because field layout is the JVM's choice
 * (JDK 15 changed it: a subclass's fields may fill gaps in its superclass's).
 */
class HotStatePaddingTest
{
    private static final Pattern PADDING = Pattern.compile("p[0-9]{3}");

    record Layout(long firstHot, long lastHotEnd, long end, List<String> hot)
    {
    }

    static Layout layout(final Class<?> type)
    {
        long firstHot = Long.MAX_VALUE;
        long lastHotEnd = 0;
        long end = 0;
        final List<String> hot = new ArrayList<>();
        for (Class<?> c = type; c != Object.class; c = c.getSuperclass())
        {
            for (final Field field : c.getDeclaredFields())
            {
                if (Modifier.isStatic(field.getModifiers()))
                {
                    continue;
                }
                final long offset = UnsafeApi.objectFieldOffset(field);
                final long fieldEnd = offset + size(field.getType());
                end = Math.max(end, fieldEnd);
                if (!PADDING.matcher(field.getName()).matches())
                {
                    hot.add(field.getName() + "@" + offset);
                    firstHot = Math.min(firstHot, offset);
                    lastHotEnd = Math.max(lastHotEnd, fieldEnd);
                }
            }
        }
        return new Layout(firstHot, lastHotEnd, end, hot);
    }

    private static long size(final Class<?> type)
    {
        if (type == long.class || type == double.class)
        {
            return 8;
        }
        if (type == int.class || type == float.class)
        {
            return 4;
        }
        if (type == short.class || type == char.class)
        {
            return 2;
        }
        if (type == byte.class || type == boolean.class)
        {
            return 1;
        }
        return UnsafeApi.arrayIndexScale(Object[].class); // a reference: 4 with compressed oops, else 8
    }

    @ParameterizedTest
    @ValueSource(classes = {WorkerCounters.class, PipelineCounters.class, ConnectionTable.class})
    void keepsHotFieldsACacheLineFromEitherEnd(final Class<?> type)
    {
        final Layout layout = layout(type);
        final String text = type.getSimpleName() + " " + layout;
        assertTrue(layout.hot().size() >= 5, text);
        // From the object's start (its header included) to the first hot field: a whole cache line.
        assertTrue(layout.firstHot() >= BitUtil.CACHE_LINE_LENGTH, text);
        // From the last hot field to the object's end: a whole cache line of padding.
        assertTrue(layout.end() - layout.lastHotEnd() >= BitUtil.CACHE_LINE_LENGTH, text);
    }
}
