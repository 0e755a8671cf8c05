package io.sluice.common.counters;

import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CounterTypeTest
{
    /**
     * The ids readers depend on, written out by hand: renumbering a released type must fail here.
     */
    private static final Map<CounterType, Integer> RELEASED_IDS = new LinkedHashMap<>();

    static
    {
        final Object[] table = {
            CounterType.RX_PACKETS, 1, CounterType.RX_BYTES, 2, CounterType.TX_PACKETS, 3, CounterType.TX_BYTES, 4,
            CounterType.TX_FULL_DROPS, 5, CounterType.TX_REJECTED, 6, CounterType.FORWARDED, 7, CounterType.PASSED, 8,
            CounterType.DROPPED, 9, CounterType.DROP_REASON, 10, CounterType.PASS_REASON, 11,
            CounterType.CONN_HITS, 12, CounterType.CONN_MISSES, 13, CounterType.CONN_EVICTIONS, 14,
            CounterType.CONN_EXPIRATIONS, 15, CounterType.CONN_REBINDS, 16, CounterType.CONN_ENTRIES, 17,
            CounterType.HEARTBEAT_MS, 18, CounterType.DUTY_CYCLES, 19, CounterType.MAX_DUTY_CYCLE_NS, 20,
            CounterType.SNAPSHOT_VERSION, 21, CounterType.KERNEL_TX_PACKETS, 22, CounterType.KERNEL_TX_DROPS, 23,
            CounterType.KERNEL_RX_PACKETS, 24, CounterType.KERNEL_RX_DROPS, 25,
            CounterType.CAPTURE_FRAMES, 26, CounterType.CAPTURE_DROPS, 27, CounterType.ICMP_ECHO_REPLIES_V4, 28,
            CounterType.ICMP_ECHO_REPLIES_V6, 29, CounterType.ICMP_RATE_LIMITED, 30,
            CounterType.ICMP_TOO_BIG_SENT_V4, 40, CounterType.ICMP_TOO_BIG_SENT_V6, 41,
            CounterType.ICMP_TOO_BIG_SUPPRESSED, 42,
            CounterType.OUTER_FRAGMENTED, 43,
            CounterType.REPLIES_SENT, 44, CounterType.REPLY_DROPS, 45, CounterType.OUTER_FRAGMENTS, 46,
            CounterType.VIP_PACKETS, 100, CounterType.VIP_BYTES, 101,
            CounterType.VIP_MAGLEV_FINGERPRINT, 102,
            CounterType.BACKEND_PACKETS, 110, CounterType.BACKEND_BYTES, 111,
            CounterType.PORT_RX_PACKETS, 200, CounterType.PORT_TX_PACKETS, 201, CounterType.PORT_RX_MISSED, 202,
            CounterType.PORT_RX_ERRORS, 203, CounterType.PORT_TX_ERRORS, 204, CounterType.PORT_RX_NOMBUF, 205,
            CounterType.PORT_MBUFS_AVAILABLE, 210, CounterType.PORT_MBUFS_TOTAL, 211,
            CounterType.CONTROL_COMMANDS_APPLIED, 300, CounterType.CONTROL_COMMANDS_REJECTED, 301,
            CounterType.FORWARDING_STATE_VERSION, 302, CounterType.MAGLEV_BUILD_NS_LAST, 303,
            CounterType.FORWARDER_STATE, 304,
            CounterType.DUTY_CYCLE_BUCKET, 400, CounterType.DUTY_CYCLE_NS_TOTAL, 401,
        };
        for (int i = 0; i < table.length; i += 2)
        {
            RELEASED_IDS.put((CounterType)table[i], (Integer)table[i + 1]);
        }
    }

    @Test
    void keepsTheReleasedTypeIds()
    {
        assertEquals(CounterType.values().length, RELEASED_IDS.size(), "a new type needs a row in this table");
        for (final Map.Entry<CounterType, Integer> entry : RELEASED_IDS.entrySet())
        {
            assertEquals(entry.getValue(), entry.getKey().typeId(), entry.getKey().name());
        }
    }

    @Test
    void findsEveryTypeByItsId()
    {
        for (final CounterType type : CounterType.values())
        {
            assertSame(type, CounterType.fromTypeId(type.typeId()));
        }
        assertNull(CounterType.fromTypeId(0));
        assertNull(CounterType.fromTypeId(99));
        assertNull(CounterType.fromTypeId(-1));
        assertNull(CounterType.fromTypeId(100_000));
        assertEquals("UNKNOWN_99", CounterType.unknownName(99));
    }

    @Test
    void onlyGrowingCountersHaveRates()
    {
        for (final CounterType type : CounterType.values())
        {
            assertEquals(type.kind() == CounterType.Kind.COUNTER, type.hasRate(), type.name());
            assertEquals(type.hasRate(), type.rateName() != null, type.name());
        }
    }

    @Test
    void fieldNamesAreUniqueWithinEachScope()
    {
        for (final CounterType.Scope scope : CounterType.Scope.values())
        {
            final Set<String> names = new HashSet<>();
            for (final CounterType type : CounterType.values())
            {
                if (type.scope() == scope || scope == CounterType.Scope.WORKER &&
                    type.scope() == CounterType.Scope.WORKER_REASON)
                {
                    assertTrue(names.add(type.fieldName()), type.name());
                    if (type.rateName() != null)
                    {
                        assertTrue(names.add(type.rateName()), type.name());
                    }
                }
            }
        }
    }

    @Test
    void describesForwarderStates()
    {
        assertEquals(0, ForwarderState.STARTING.value());
        assertEquals(1, ForwarderState.RUNNING.value());
        assertEquals(2, ForwarderState.STOPPING.value());
        assertEquals("running", ForwarderState.describe(1));
        assertEquals("unknown(7)", ForwarderState.describe(7));
    }
}
