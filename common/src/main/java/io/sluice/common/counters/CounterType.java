package io.sluice.common.counters;


/**
 * Every counter the forwarder publishes in its counters file. The type id is what the file stores (Agrona's counter
 * type id) and never changes meaning once released: add new types with new ids, never renumber. Ids are grouped by
 * scope (1.. per worker, 100.. per VIP, 110.. per backend, 200.. per port, 300.. process-wide, 400.. per-worker
 * histograms) so a group can grow.
 * <p>
 * The {@link CounterKey key} of a counter says which worker, reason, VIP, backend or port it counts; the label is for
 * people and is built by {@link CounterLabels}.
 */
public enum CounterType
{
    RX_PACKETS(1, Scope.WORKER, Kind.COUNTER, "rx packets", "rx_packets", "rx_pps"),
    RX_BYTES(2, Scope.WORKER, Kind.COUNTER, "rx bytes", "rx_bytes", "rx_bytes_per_s"),
    TX_PACKETS(3, Scope.WORKER, Kind.COUNTER, "tx packets", "tx_packets", "tx_pps"),
    TX_BYTES(4, Scope.WORKER, Kind.COUNTER, "tx bytes", "tx_bytes", "tx_bytes_per_s"),
    /** Frames freed because the NIC's TX queue had no room for them. */
    TX_FULL_DROPS(5, Scope.WORKER, Kind.COUNTER, "tx full drops", "tx_full_drops", "tx_full_drops_per_s"),
    /** Frames the DPDK shim refused to transmit (malformed: chained mbuf, empty or beyond its buffer). */
    TX_REJECTED(6, Scope.WORKER, Kind.COUNTER, "tx rejected", "tx_rejected", "tx_rejected_per_s"),
    FORWARDED(7, Scope.WORKER, Kind.COUNTER, "forwarded", "forwarded", "forwarded_pps"),
    PASSED(8, Scope.WORKER, Kind.COUNTER, "passed", "passed", "passed_pps"),
    DROPPED(9, Scope.WORKER, Kind.COUNTER, "dropped", "dropped", "dropped_pps"),
    /** Drops for one reason; key index1 is the reason's ordinal, the label carries its name. */
    DROP_REASON(10, Scope.WORKER_REASON, Kind.COUNTER, "drops", "drop_reasons", "drop_reasons_per_s"),
    /** Frames passed to the kernel for one reason; key index1 is the reason's ordinal. */
    PASS_REASON(11, Scope.WORKER_REASON, Kind.COUNTER, "passes", "pass_reasons", "pass_reasons_per_s"),
    CONN_HITS(12, Scope.WORKER, Kind.COUNTER, "connection hits", "conn_hits", "conn_hits_per_s"),
    CONN_MISSES(13, Scope.WORKER, Kind.COUNTER, "connection misses", "conn_misses", "conn_misses_per_s"),
    CONN_EVICTIONS(14, Scope.WORKER, Kind.COUNTER, "connection evictions", "conn_evictions",
        "conn_evictions_per_s"),
    CONN_EXPIRATIONS(15, Scope.WORKER, Kind.COUNTER, "connection expirations", "conn_expirations",
        "conn_expirations_per_s"),
    CONN_REBINDS(16, Scope.WORKER, Kind.COUNTER, "connection rebinds", "conn_rebinds", "conn_rebinds_per_s"),
    /** Live entries in the worker's connection table (a level, not a count of events). */
    CONN_ENTRIES(17, Scope.WORKER, Kind.GAUGE, "connection entries", "conn_entries", null),
    /** Epoch milliseconds of the worker's latest duty cycle. */
    HEARTBEAT_MS(18, Scope.WORKER, Kind.TIMESTAMP_MS, "heartbeat epoch ms", "heartbeat_ms", null),
    DUTY_CYCLES(19, Scope.WORKER, Kind.COUNTER, "duty cycles", "duty_cycles", "duty_cycles_per_s"),
    /** Longest duty cycle seen, in nanoseconds. */
    MAX_DUTY_CYCLE_NS(20, Scope.WORKER, Kind.MAXIMUM, "max duty cycle ns", "max_duty_cycle_ns", null),
    /** Version of the forwarding snapshot the worker uses. */
    SNAPSHOT_VERSION(21, Scope.WORKER, Kind.VALUE, "snapshot version", "snapshot_version", null),
    /** Frames for no VIP handed to the port's kernel port (ARP, BGP, SSH to the node). */
    KERNEL_TX_PACKETS(22, Scope.WORKER, Kind.COUNTER, "to kernel", "to_kernel", "to_kernel_pps"),
    /** Frames for no VIP freed because the kernel port's queue was full. */
    KERNEL_TX_DROPS(23, Scope.WORKER, Kind.COUNTER, "to kernel drops", "to_kernel_drops", "to_kernel_drops_per_s"),
    /** Frames the kernel sent through its kernel port, transmitted on the wire. */
    KERNEL_RX_PACKETS(24, Scope.WORKER, Kind.COUNTER, "from kernel", "from_kernel", "from_kernel_pps"),
    /** Frames from the kernel freed because the wire port's TX queue was full. */
    KERNEL_RX_DROPS(25, Scope.WORKER, Kind.COUNTER, "from kernel drops", "from_kernel_drops",
        "from_kernel_drops_per_s"),
    /** Frames a live capture ({@code sluice capture}) copied into the worker's capture ring. */
    CAPTURE_FRAMES(26, Scope.WORKER, Kind.COUNTER, "capture frames", "capture_frames", "capture_frames_per_s"),
    /** Frames that matched a live capture's filter but did not fit into the capture ring (never delayed). */
    CAPTURE_DROPS(27, Scope.WORKER, Kind.COUNTER, "capture drops", "capture_drops", "capture_drops_per_s"),
    /** ICMP echo replies (type 0) the worker sent for echo requests to an IPv4 VIP. */
    ICMP_ECHO_REPLIES_V4(28, Scope.WORKER, Kind.COUNTER, "icmp echo replies v4", "icmp_echo_replies_v4",
        "icmp_echo_replies_v4_per_s"),
    /** ICMPv6 echo replies (type 129) the worker sent for echo requests to an IPv6 VIP. */
    ICMP_ECHO_REPLIES_V6(29, Scope.WORKER, Kind.COUNTER, "icmp echo replies v6", "icmp_echo_replies_v6",
        "icmp_echo_replies_v6_per_s"),
    /** Echo requests to a VIP left unanswered because the worker's ICMP token bucket was empty. */
    ICMP_RATE_LIMITED(30, Scope.WORKER, Kind.COUNTER, "icmp rate limited", "icmp_rate_limited",
        "icmp_rate_limited_per_s"),
    /** ICMP fragmentation-needed errors (type 3 code 4) sent for DF packets to a VIP too big for the tunnel. */
    ICMP_TOO_BIG_SENT_V4(40, Scope.WORKER, Kind.COUNTER, "icmp too big sent v4", "icmp_too_big_sent_v4",
        "icmp_too_big_sent_v4_per_s"),
    /** ICMPv6 packet-too-big errors (type 2) sent for IPv6 packets to a VIP too big for the tunnel. */
    ICMP_TOO_BIG_SENT_V6(41, Scope.WORKER, Kind.COUNTER, "icmp too big sent v6", "icmp_too_big_sent_v6",
        "icmp_too_big_sent_v6_per_s"),
    /** Too-big errors not sent because the worker's token bucket was empty (the packets drop as too big). */
    ICMP_TOO_BIG_SUPPRESSED(42, Scope.WORKER, Kind.COUNTER, "icmp too big suppressed", "icmp_too_big_suppressed",
        "icmp_too_big_suppressed_per_s"),
    /**
     * IPv4 packets without DF too big for the tunnel, forwarded to the backend as outer fragments (IPv4 fragments,
     * or IPv6 packets with a Fragment header to an IPv6 backend); OUTER_FRAGMENTS counts the frames.
     */
    OUTER_FRAGMENTED(43, Scope.WORKER, Kind.COUNTER, "outer fragmented", "outer_fragmented",
        "outer_fragmented_per_s"),
    /**
     * ICMP replies (echo replies, too-big errors) the worker transmitted out of the port the packet came in on, on
     * its return queue there (on a two-armed node not the port it forwards on).
     */
    REPLIES_SENT(44, Scope.WORKER, Kind.COUNTER, "replies sent", "replies_sent", "replies_sent_per_s"),
    /** ICMP replies freed because the receive port's TX queue had no room (also counted in TX_FULL_DROPS). */
    REPLY_DROPS(45, Scope.WORKER, Kind.COUNTER, "reply drops", "reply_drops", "reply_drops_per_s"),
    /**
     * Outer fragments the worker queued for transmission for the OUTER_FRAGMENTED packets, the first of each
     * included (2 to 8 per packet); the ratio of the two says how many fragments a packet needs on this path.
     */
    OUTER_FRAGMENTS(46, Scope.WORKER, Kind.COUNTER, "outer fragments", "outer_fragments", "outer_fragments_per_s"),

    // 400..: per-worker histograms (DutyCycleBuckets says how they are laid out).
    /** Duty cycles whose time fell into one {@link DutyCycleBuckets} bucket; key index1 is the bucket. */
    DUTY_CYCLE_BUCKET(400, Scope.WORKER_REASON, Kind.COUNTER, "duty cycle bucket", "duty_cycle_buckets",
        "duty_cycle_buckets_per_s"),
    /** Sum of every duty cycle's time, in nanoseconds (the histogram's sum). */
    DUTY_CYCLE_NS_TOTAL(401, Scope.WORKER, Kind.COUNTER, "duty cycle ns total", "duty_cycle_ns_total",
        "duty_cycle_ns_per_s"),

    VIP_PACKETS(100, Scope.VIP, Kind.COUNTER, "vip packets", "packets", "pps"),
    VIP_BYTES(101, Scope.VIP, Kind.COUNTER, "vip bytes", "bytes", "bytes_per_s"),
    /**
     * 52 bits of XXH64 over the VIP's Maglev table with each entry named by its backend's address, not its slot:
     * every node with the same eligible backends has the same value. One counter per VIP (key worker 0), written
     * by the control thread when the table is rebuilt.
     */
    VIP_MAGLEV_FINGERPRINT(102, Scope.VIP, Kind.VALUE, "vip maglev fingerprint", "maglev_fingerprint", null),

    BACKEND_PACKETS(110, Scope.BACKEND, Kind.COUNTER, "backend packets", "packets", "pps"),
    BACKEND_BYTES(111, Scope.BACKEND, Kind.COUNTER, "backend bytes", "bytes", "bytes_per_s"),

    PORT_RX_PACKETS(200, Scope.PORT, Kind.COUNTER, "port rx packets", "rx_packets", "rx_pps"),
    PORT_TX_PACKETS(201, Scope.PORT, Kind.COUNTER, "port tx packets", "tx_packets", "tx_pps"),
    /** Frames the NIC dropped because the RX ring was full (DPDK imissed). */
    PORT_RX_MISSED(202, Scope.PORT, Kind.COUNTER, "port rx missed", "rx_missed", "rx_missed_per_s"),
    PORT_RX_ERRORS(203, Scope.PORT, Kind.COUNTER, "port rx errors", "rx_errors", "rx_errors_per_s"),
    PORT_TX_ERRORS(204, Scope.PORT, Kind.COUNTER, "port tx errors", "tx_errors", "tx_errors_per_s"),
    /** RX mbuf allocation failures (DPDK rx_nombuf). */
    PORT_RX_NOMBUF(205, Scope.PORT, Kind.COUNTER, "port rx nombuf", "rx_nombuf", "rx_nombuf_per_s"),
    /**
     * Mbufs free in the port's pool, per-lcore caches included (rte_mempool_avail_count), sampled by the control
     * thread.
     */
    PORT_MBUFS_AVAILABLE(210, Scope.PORT, Kind.GAUGE, "port mbufs available", "mbufs_available", null),
    /** Mbufs the port's pool holds in all. */
    PORT_MBUFS_TOTAL(211, Scope.PORT, Kind.GAUGE, "port mbufs total", "mbufs_total", null),

    CONTROL_COMMANDS_APPLIED(300, Scope.PROCESS, Kind.COUNTER, "control commands applied",
        "control_commands_applied", "control_commands_applied_per_s"),
    CONTROL_COMMANDS_REJECTED(301, Scope.PROCESS, Kind.COUNTER, "control commands rejected",
        "control_commands_rejected", "control_commands_rejected_per_s"),
    FORWARDING_STATE_VERSION(302, Scope.PROCESS, Kind.VALUE, "forwarding state version",
        "forwarding_state_version", null),
    MAGLEV_BUILD_NS_LAST(303, Scope.PROCESS, Kind.VALUE, "maglev build ns last", "maglev_build_ns_last", null),
    /** {@link ForwarderState} value: 0 starting, 1 running, 2 stopping. */
    FORWARDER_STATE(304, Scope.PROCESS, Kind.VALUE, "forwarder state", "forwarder_state", null);

    /**
     * What a counter's key identifies, and so which method of the forwarder's {@code CounterAllocator} allocates it.
     */
    public enum Scope
    {
        /** Key (worker, -1, -1). */
        WORKER,
        /**
         * Key (worker, reason ordinal, -1); for {@link CounterType#DUTY_CYCLE_BUCKET} the bucket instead of a reason.
         */
        WORKER_REASON,
        /** Key (worker, VIP index, -1). */
        VIP,
        /** Key (worker, VIP index, backend slot). */
        BACKEND,
        /** Key (-1, port id, -1). */
        PORT,
        /** Key (-1, -1, -1). */
        PROCESS
    }

    /**
     * How a value behaves, and so how readers combine values of several workers and whether a rate means anything.
     */
    public enum Kind
    {
        /** Only grows: summed over workers, shown with a per-second rate. */
        COUNTER,
        /** A level that goes up and down: summed over workers, no rate. */
        GAUGE,
        /** A high-water mark: the maximum over workers. */
        MAXIMUM,
        /** An epoch-millisecond time: per worker only. */
        TIMESTAMP_MS,
        /** A version, duration or state: shown as it is, never combined. */
        VALUE
    }

    private static final CounterType[] BY_TYPE_ID;

    static
    {
        int maxId = 0;
        for (final CounterType type : values())
        {
            maxId = Math.max(maxId, type.typeId);
        }
        BY_TYPE_ID = new CounterType[maxId + 1];
        for (final CounterType type : values())
        {
            if (BY_TYPE_ID[type.typeId] != null)
            {
                throw new IllegalStateException("type id " + type.typeId + " used twice: " + type + ", " +
                    BY_TYPE_ID[type.typeId]);
            }
            BY_TYPE_ID[type.typeId] = type;
        }
    }

    private final int typeId;
    private final Scope scope;
    private final Kind kind;
    private final String labelPrefix;
    private final String fieldName;
    private final String rateName;

    CounterType(
        final int typeId,
        final Scope scope,
        final Kind kind,
        final String labelPrefix,
        final String fieldName,
        final String rateName)
    {
        this.typeId = typeId;
        this.scope = scope;
        this.kind = kind;
        this.labelPrefix = labelPrefix;
        this.fieldName = fieldName;
        this.rateName = rateName;
    }

    /**
     * Returns the stable type id stored in the counters file.
     *
     * @return the type id.
     */
    public int typeId()
    {
        return typeId;
    }

    /**
     * Returns what the counter's key identifies.
     *
     * @return the scope.
     */
    public Scope scope()
    {
        return scope;
    }

    /**
     * Returns how the value behaves.
     *
     * @return the kind.
     */
    public Kind kind()
    {
        return kind;
    }

    /**
     * Returns the start of every label of this type, e.g. {@code rx packets}.
     *
     * @return the label prefix.
     */
    public String labelPrefix()
    {
        return labelPrefix;
    }

    /**
     * Returns the JSON field name of the value inside its object (a worker, the totals, a VIP, a port...), e.g.
     * {@code rx_packets}, or {@code packets} for a VIP.
     *
     * @return the field name.
     */
    public String fieldName()
    {
        return fieldName;
    }

    /**
     * Returns the JSON field name of the per-second rate, e.g. {@code rx_pps}.
     *
     * @return the rate's field name, or null when the type has no rate.
     */
    public String rateName()
    {
        return rateName;
    }

    /**
     * Tells whether a per-second rate of this type means anything (only growing counters have one).
     *
     * @return true for {@link Kind#COUNTER}.
     */
    public boolean hasRate()
    {
        return kind == Kind.COUNTER;
    }

    /**
     * Returns the type with a type id.
     *
     * @param typeId a type id read from a counters file.
     * @return the type, or null when this reader does not know the id (a newer forwarder wrote it).
     */
    public static CounterType fromTypeId(final int typeId)
    {
        return typeId >= 0 && typeId < BY_TYPE_ID.length ? BY_TYPE_ID[typeId] : null;
    }

    /**
     * Returns the name used in JSON and text for an unknown type id.
     *
     * @param typeId the type id.
     * @return e.g. {@code UNKNOWN_412}.
     */
    public static String unknownName(final int typeId)
    {
        return "UNKNOWN_" + typeId;
    }
}
