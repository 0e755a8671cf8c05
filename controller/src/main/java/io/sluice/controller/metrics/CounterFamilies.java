package io.sluice.controller.metrics;

import io.sluice.common.counters.CounterKey;
import io.sluice.common.counters.CounterLabels;
import io.sluice.common.counters.CounterType;
import org.agrona.concurrent.status.CountersReader;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * Turns the forwarder's counters into Prometheus metric points: per worker (with {@code worker}, and for reasons
 * {@code reason}), per VIP and per backend (summed over workers, named from the labels), per port and process-wide.
 * Counters are grouped by their {@link CounterKey}; labels only supply the names a key cannot hold.
 */
final class CounterFamilies
{
    private static final double NANOS_PER_SECOND = 1e9;
    private static final double MILLIS_PER_SECOND = 1e3;

    /**
     * How one counter type is exposed.
     *
     * @param name   metric name.
     * @param help   help text.
     * @param counter true for a Prometheus counter, false for a gauge.
     * @param divide divisor turning the stored unit into the base unit (1 when it already is).
     */
    private record Spec(String name, String help, boolean counter, double divide)
    {
    }

    /**
     * One data point: its value in the base unit and its labels, names and values alternating.
     */
    private record Point(double value, String... labels)
    {
    }

    // Worker counters that share one family and tell themselves apart by a "type" label.
    private static final Map<CounterType, String> TYPE_LABELS = Map.of(
        CounterType.ICMP_ECHO_REPLIES_V4, "echo_reply_v4",
        CounterType.ICMP_ECHO_REPLIES_V6, "echo_reply_v6",
        CounterType.ICMP_TOO_BIG_SENT_V4, "frag_needed_v4",
        CounterType.ICMP_TOO_BIG_SENT_V6, "packet_too_big_v6");

    private static final Map<CounterType, Spec> SPECS = specs();

    private CounterFamilies()
    {
    }

    /**
     * Reads every counter once and adds its points to the builder, in {@link CounterType} order; unknown type ids (a
     * newer forwarder) are skipped.
     *
     * @param reader the counters.
     * @param nowMs  epoch milliseconds now, for heartbeat ages.
     * @param out    where the points go.
     */
    static void read(final CountersReader reader, final long nowMs, final MetricSnapshotsBuilder out)
    {
        final List<Entry> entries = new ArrayList<>();
        final DutyCycleFamily dutyCycles = new DutyCycleFamily();
        reader.forEach((id, typeId, keyBuffer, label) ->
        {
            final CounterType type = CounterType.fromTypeId(typeId);
            if (type == CounterType.DUTY_CYCLE_BUCKET || type == CounterType.DUTY_CYCLE_NS_TOTAL)
            {
                dutyCycles.add(type, CounterKey.worker(keyBuffer, 0), CounterKey.index1(keyBuffer, 0),
                    reader.getCounterValue(id));
            }
            else if (type != null && SPECS.containsKey(type))
            {
                entries.add(new Entry(type, CounterKey.worker(keyBuffer, 0), CounterKey.index1(keyBuffer, 0),
                    CounterKey.index2(keyBuffer, 0), label, reader.getCounterValue(id)));
            }
        });
        entries.sort(ORDER);

        for (int i = 0; i < entries.size(); )
        {
            final Entry first = entries.get(i);
            long sum = 0;
            int next = i;
            // VIP and backend counters are summed over workers: sorted so one key's workers are adjacent.
            do
            {
                sum += entries.get(next).value;
                next++;
            }
            while (isSummed(first.type) && next < entries.size() && entries.get(next).sameKeyIgnoringWorker(first));
            final Point point = point(first, sum, nowMs);
            if (point != null)
            {
                final Spec spec = SPECS.get(first.type);
                if (spec.counter)
                {
                    out.counter(spec.name, spec.help, point.value, point.labels);
                }
                else
                {
                    out.gauge(spec.name, spec.help, point.value, point.labels);
                }
            }
            i = next;
        }
        dutyCycles.addTo(out);
    }

    /**
     * Returns the display name out of a label field such as {@code web (10.100.0.1:80/tcp)}: the part before the
     * parenthesised address.
     *
     * @param field the field, or null when the label did not have it.
     * @return the name, or null.
     */
    static String shortName(final String field)
    {
        if (field == null)
        {
            return null;
        }
        final int paren = field.indexOf(" (");
        final String name = (paren > 0 ? field.substring(0, paren) : field).trim();
        return name.isEmpty() ? null : name;
    }

    private static Point point(final Entry entry, final long value, final long nowMs)
    {
        final Spec spec = SPECS.get(entry.type);
        final String worker = Integer.toString(entry.worker);
        switch (entry.type.scope())
        {
            case WORKER:
                if (entry.type == CounterType.HEARTBEAT_MS)
                {
                    // No heartbeat yet (0) has no age; a clock step back must not give a negative one.
                    return value <= 0 ? null :
                        new Point(Math.max(0, nowMs - value) / MILLIS_PER_SECOND, "worker", worker);
                }
                final String typeLabel = TYPE_LABELS.get(entry.type);
                return typeLabel != null ? new Point(value, "worker", worker, "type", typeLabel) :
                    new Point(value / spec.divide, "worker", worker);
            case WORKER_REASON:
                return new Point(value, "worker", worker, "reason",
                    orElse(CounterLabels.reasonName(entry.label), "reason_" + entry.index1));
            case VIP:
                return new Point(value, "vip", vipName(entry));
            case BACKEND:
                return new Point(value, "vip", vipName(entry), "backend",
                    orElse(shortName(CounterLabels.backendName(entry.label)), "slot#" + entry.index2));
            case PORT:
                return new Point(value, "port", Integer.toString(entry.index1));
            case PROCESS:
                return new Point(value / spec.divide);
            default:
                return null;
        }
    }

    private static String vipName(final Entry entry)
    {
        return orElse(shortName(CounterLabels.vipName(entry.label)), "vip#" + entry.index1);
    }

    private static String orElse(final String value, final String fallback)
    {
        return value != null && !value.isEmpty() ? value : fallback;
    }

    private static boolean isSummed(final CounterType type)
    {
        return type.scope() == CounterType.Scope.VIP || type.scope() == CounterType.Scope.BACKEND;
    }

    private static final Comparator<Entry> ORDER = (a, b) ->
    {
        int c = Integer.compare(a.type.ordinal(), b.type.ordinal());
        if (c != 0)
        {
            return c;
        }
        if (isSummed(a.type))
        {
            c = Integer.compare(a.index1, b.index1);
            c = c != 0 ? c : Integer.compare(a.index2, b.index2);
            return c != 0 ? c : Integer.compare(a.worker, b.worker);
        }
        c = Integer.compare(a.worker, b.worker);
        c = c != 0 ? c : Integer.compare(a.index1, b.index1);
        return c != 0 ? c : Integer.compare(a.index2, b.index2);
    };

    private record Entry(CounterType type, int worker, int index1, int index2, String label, long value)
    {
        boolean sameKeyIgnoringWorker(final Entry other)
        {
            return type == other.type && index1 == other.index1 && index2 == other.index2;
        }
    }

    private static Map<CounterType, Spec> specs()
    {
        final Map<CounterType, Spec> specs = new EnumMap<>(CounterType.class);
        final boolean counter = true;
        final boolean gauge = false;
        put(specs, CounterType.RX_PACKETS, "sluice_worker_rx_packets_total", "Packets received by the worker.",
            counter, 1);
        put(specs, CounterType.RX_BYTES, "sluice_worker_rx_bytes_total", "Bytes received by the worker.", counter, 1);
        put(specs, CounterType.TX_PACKETS, "sluice_worker_tx_packets_total", "Packets transmitted by the worker.",
            counter, 1);
        put(specs, CounterType.TX_BYTES, "sluice_worker_tx_bytes_total", "Bytes transmitted by the worker.",
            counter, 1);
        put(specs, CounterType.TX_FULL_DROPS, "sluice_worker_tx_full_drops_total",
            "Frames freed because the NIC TX queue was full.", counter, 1);
        put(specs, CounterType.TX_REJECTED, "sluice_worker_tx_rejected_total",
            "Frames the DPDK shim refused to transmit.", counter, 1);
        put(specs, CounterType.FORWARDED, "sluice_worker_forwarded_packets_total",
            "Packets forwarded to a backend.", counter, 1);
        put(specs, CounterType.PASSED, "sluice_worker_passed_packets_total",
            "Packets for no VIP (to the kernel port if any).",
            counter, 1);
        put(specs, CounterType.DROPPED, "sluice_worker_dropped_packets_total", "Packets dropped.", counter, 1);
        put(specs, CounterType.KERNEL_TX_PACKETS, "sluice_worker_kernel_tx_packets_total",
            "Frames for no VIP handed to the kernel port.", counter, 1);
        put(specs, CounterType.KERNEL_TX_DROPS, "sluice_worker_kernel_tx_drops_total",
            "Frames for no VIP freed because the kernel port was full.", counter, 1);
        put(specs, CounterType.KERNEL_RX_PACKETS, "sluice_worker_kernel_rx_packets_total",
            "Frames from the kernel port transmitted on the wire.", counter, 1);
        put(specs, CounterType.KERNEL_RX_DROPS, "sluice_worker_kernel_rx_drops_total",
            "Frames from the kernel port freed because the wire's TX queue was full.", counter, 1);
        put(specs, CounterType.CAPTURE_FRAMES, "sluice_worker_capture_frames_total",
            "Frames a live capture copied into the worker's capture ring.", counter, 1);
        put(specs, CounterType.CAPTURE_DROPS, "sluice_worker_capture_drops_total",
            "Frames matching a live capture that did not fit into the capture ring.", counter, 1);
        put(specs, CounterType.ICMP_ECHO_REPLIES_V4, "sluice_worker_icmp_generated_total",
            "ICMP messages the worker generated, by type.", counter, 1);
        put(specs, CounterType.ICMP_ECHO_REPLIES_V6, "sluice_worker_icmp_generated_total",
            "ICMP messages the worker generated, by type.", counter, 1);
        put(specs, CounterType.ICMP_RATE_LIMITED, "sluice_worker_icmp_rate_limited_total",
            "ICMP echo requests to a VIP left unanswered by the worker's rate limit.", counter, 1);
        put(specs, CounterType.ICMP_TOO_BIG_SENT_V4, "sluice_worker_icmp_generated_total",
            "ICMP messages the worker generated, by type.", counter, 1);
        put(specs, CounterType.ICMP_TOO_BIG_SENT_V6, "sluice_worker_icmp_generated_total",
            "ICMP messages the worker generated, by type.", counter, 1);
        put(specs, CounterType.ICMP_TOO_BIG_SUPPRESSED, "sluice_worker_icmp_too_big_suppressed_total",
            "Packets too big for the tunnel left without an ICMP error by the worker's rate limit.", counter, 1);
        put(specs, CounterType.OUTER_FRAGMENTED, "sluice_worker_outer_fragmented_total",
            "IPv4 packets without DF too big for the tunnel, sent to the backend as outer fragments.", counter, 1);
        put(specs, CounterType.OUTER_FRAGMENTS, "sluice_worker_outer_fragments_total",
            "Outer fragments sent for the packets in sluice_worker_outer_fragmented_total, the first included.",
            counter, 1);
        put(specs, CounterType.REPLIES_SENT, "sluice_worker_replies_sent_total",
            "ICMP replies the worker sent out of the port the packet came in on.", counter, 1);
        put(specs, CounterType.REPLY_DROPS, "sluice_worker_reply_drops_total",
            "ICMP replies freed because the receive port's TX queue was full.", counter, 1);
        put(specs, CounterType.DROP_REASON, "sluice_worker_drops_total", "Packets dropped, by reason.", counter, 1);
        put(specs, CounterType.PASS_REASON, "sluice_worker_passes_total", "Packets passed to the kernel, by reason.",
            counter, 1);
        put(specs, CounterType.CONN_HITS, "sluice_worker_connection_hits_total", "Connection table hits.",
            counter, 1);
        put(specs, CounterType.CONN_MISSES, "sluice_worker_connection_misses_total", "Connection table misses.",
            counter, 1);
        put(specs, CounterType.CONN_EVICTIONS, "sluice_worker_connection_evictions_total",
            "Connection table entries evicted to make room.", counter, 1);
        put(specs, CounterType.CONN_EXPIRATIONS, "sluice_worker_connection_expirations_total",
            "Connection table entries expired.", counter, 1);
        put(specs, CounterType.CONN_REBINDS, "sluice_worker_connection_rebinds_total",
            "Connections moved to another backend.", counter, 1);
        put(specs, CounterType.CONN_ENTRIES, "sluice_worker_connection_entries",
            "Live entries in the worker's connection table.", gauge, 1);
        put(specs, CounterType.HEARTBEAT_MS, "sluice_worker_heartbeat_age_seconds",
            "Seconds since the worker's latest duty cycle.", gauge, 1);
        put(specs, CounterType.DUTY_CYCLES, "sluice_worker_duty_cycles_total", "Duty cycles run by the worker.",
            counter, 1);
        put(specs, CounterType.MAX_DUTY_CYCLE_NS, "sluice_worker_max_duty_cycle_seconds",
            "Longest duty cycle seen, in seconds.", gauge, NANOS_PER_SECOND);
        put(specs, CounterType.SNAPSHOT_VERSION, "sluice_worker_snapshot_version",
            "Version of the forwarding snapshot the worker uses.", gauge, 1);
        put(specs, CounterType.VIP_PACKETS, "sluice_vip_packets_total", "Packets received for the VIP.", counter, 1);
        put(specs, CounterType.VIP_BYTES, "sluice_vip_bytes_total", "Bytes received for the VIP.", counter, 1);
        put(specs, CounterType.VIP_MAGLEV_FINGERPRINT, "sluice_vip_maglev_fingerprint",
            "52 bits of XXH64 over the VIP's Maglev table by backend address: equal on nodes with the same backends.",
            gauge, 1);
        put(specs, CounterType.BACKEND_PACKETS, "sluice_backend_packets_total", "Packets forwarded to the backend.",
            counter, 1);
        put(specs, CounterType.BACKEND_BYTES, "sluice_backend_bytes_total", "Bytes forwarded to the backend.",
            counter, 1);
        put(specs, CounterType.PORT_RX_PACKETS, "sluice_port_rx_packets_total", "Packets received by the port.",
            counter, 1);
        put(specs, CounterType.PORT_TX_PACKETS, "sluice_port_tx_packets_total", "Packets transmitted by the port.",
            counter, 1);
        put(specs, CounterType.PORT_RX_MISSED, "sluice_port_rx_missed_packets_total",
            "Packets the NIC dropped because the RX ring was full.", counter, 1);
        put(specs, CounterType.PORT_RX_ERRORS, "sluice_port_rx_errors_total", "Receive errors on the port.",
            counter, 1);
        put(specs, CounterType.PORT_TX_ERRORS, "sluice_port_tx_errors_total", "Transmit errors on the port.",
            counter, 1);
        put(specs, CounterType.PORT_RX_NOMBUF, "sluice_port_rx_nombuf_total", "RX mbuf allocation failures.",
            counter, 1);
        put(specs, CounterType.PORT_MBUFS_AVAILABLE, "sluice_port_mbufs_available",
            "Mbufs free in the port's pool (per-lcore caches included).", gauge, 1);
        put(specs, CounterType.PORT_MBUFS_TOTAL, "sluice_port_mbufs_total", "Mbufs the port's pool holds in all.",
            gauge, 1);
        put(specs, CounterType.CONTROL_COMMANDS_APPLIED, "sluice_control_commands_applied_total",
            "Control commands the forwarder applied.", counter, 1);
        put(specs, CounterType.CONTROL_COMMANDS_REJECTED, "sluice_control_commands_rejected_total",
            "Control commands the forwarder rejected.", counter, 1);
        put(specs, CounterType.FORWARDING_STATE_VERSION, "sluice_forwarding_state_version",
            "Version of the forwarding state the forwarder publishes.", gauge, 1);
        put(specs, CounterType.MAGLEV_BUILD_NS_LAST, "sluice_maglev_last_build_duration_seconds",
            "Duration of the latest Maglev table build, in seconds.", gauge, NANOS_PER_SECOND);
        put(specs, CounterType.FORWARDER_STATE, "sluice_forwarder_state",
            "Forwarder state: 0 starting, 1 running, 2 stopping.", gauge, 1);
        return specs;
    }

    private static void put(
        final Map<CounterType, Spec> specs,
        final CounterType type,
        final String name,
        final String help,
        final boolean counter,
        final double divide)
    {
        specs.put(type, new Spec(name, help, counter, divide));
    }
}
