#!/usr/bin/env bash
# Forwarder throughput next to dpdk-testpmd (issue 3): the same pcap of 60-byte IPv4 TCP frames (10,000 flows to
# the VIP 10.100.0.1:80) replayed forever by net_pcap into one forwarding core (core 1) and sunk into net_null.
# Three runs, one after the other: the Sluice forwarder (busy-spin, 10 backends, GC log on), then testpmd in io
# mode (the I/O floor: rx_burst + tx_burst, no packet touched) and in 5tswap mode (parses L2-L4 and swaps the
# addresses and ports, the closest testpmd has to a load balancer's per-packet work). Prints Mpps for each, the
# ratios Sluice/testpmd, and the GC events that fell inside Sluice's measured window.
#
# What is measured, the same way for all three: packets that reached net_null over the window, per second.
# - Sluice: the forwarder's own counters, read once a second by `sluice stats --json --interval 1`; the window
#   runs from the read that ends the warm-up to the read SECONDS later; Mpps = delta(forwarded) / delta(t).
# - testpmd: with two ports testpmd builds two streams (pcap->null and null->pcap) on the one forwarding core, and
#   net_null's RX would generate packets as fast as it is polled. So net_null runs with no-rx=1 (in both
#   programs: Sluice never polls it anyway): the null->pcap stream finds nothing, and what is left is exactly the
#   forwarder's job, pcap RX -> net_null TX. Mpps = delta(TX-packets of net_null, port 1) between two of the
#   once-a-second port statistics (`--stats-period 1`), divided by the time between them (lines are
#   time-stamped as they arrive).
# Both programs keep everything but the forwarding thread off core 1, as isolcpus would: testpmd's EAL puts its
# main lcore and control threads on core 0; the forwarder's JVM is started under `taskset -c 0` (with
# -XX:ActiveProcessorCount=2, so the JVM still sizes itself for 2 cores) and its worker pins itself to core 1.
#
# Needs root for apt-get and hugepages; without hugepages it falls back to --no-huge and says so.
set -euo pipefail

usage() {
    echo "usage: scripts/bench-forwarder.sh [--seconds N] [--warmup N] [--long] [--workers 1|2] [--capacity N]" \
        "[--no-huge] [--json] [--results DIR] [-h | --help]"
}

print_help() {
    usage
    cat <<'EOF'
  --seconds N    measured window of each run, in seconds (default 10)
  --warmup N     seconds of traffic before the window opens (default 5)
  --long         a 60 s window (the "no GC event in 60 s" check); --seconds after it still wins
  --workers 2    two forwarder workers, on cores 1 and 0, each with its own net_pcap -> net_null pair (the same
                 pcap): the scaling from one core to two; testpmd still runs on one core, and the JSON adds
                 ratio_io_per_worker. Core 0 also carries the JVM's other threads and everything else here.
  --capacity N   connection-table entries per worker (connection_table.capacity), a power of two >= 8; default
                 the node's default (2^20, 64 MiB a worker). The 10,000 flows fit any capacity from 16,384 up, so
                 this shows what the table's size costs in memory stalls
  --no-huge      do not reserve hugepages: EAL runs with --no-huge -m 512
  --json         end with one JSON line: sluice_mpps, testpmd_io_mpps, testpmd_5tswap_mpps, ratio_io,
                 ratio_5tswap, gc_events_in_window, hugepages, seconds (and a few more)
  --results DIR  keep the logs (forwarder, GC, safepoints, testpmd, config, stats) in DIR
Environment: SLUICE_JAVA_OPTS is appended to the forwarder's JVM options (e.g.
-Dagrona.disable.bounds.checks=true). Takes about 3 x (warm-up + window) + 30 s; the machine should be quiet.
EOF
}

die() {
    echo "bench-forwarder: $*" >&2
    exit 1
}

usage_error() {
    echo "bench-forwarder: $*" >&2
    usage >&2
    exit 2
}

positive_int() {
    [[ "$2" =~ ^[1-9][0-9]*$ ]] || usage_error "$1 needs a whole number of seconds >= 1, got '$2'"
}

seconds=10
warmup=5
workers=1
capacity=""
json=0
no_huge=0
results_dir=""
while [[ $# -gt 0 ]]; do
    case "$1" in
        --seconds)
            [[ $# -ge 2 ]] || usage_error "--seconds needs a value"
            positive_int --seconds "$2"
            seconds=$2
            shift ;;
        --warmup)
            [[ $# -ge 2 ]] || usage_error "--warmup needs a value"
            positive_int --warmup "$2"
            warmup=$2
            shift ;;
        --long) seconds=60 ;;
        --workers)
            [[ $# -ge 2 ]] || usage_error "--workers needs a value"
            [[ "$2" == 1 || "$2" == 2 ]] || usage_error "--workers must be 1 or 2, got '$2'"
            workers=$2
            shift ;;
        --capacity)
            [[ $# -ge 2 ]] || usage_error "--capacity needs a value"
            [[ "$2" =~ ^[1-9][0-9]*$ ]] && (( $2 >= 8 && ($2 & ($2 - 1)) == 0 )) ||
                usage_error "--capacity must be a power of two >= 8, got '$2'"
            capacity=$2
            shift ;;
        --json) json=1 ;;
        --no-huge) no_huge=1 ;;
        --results)
            [[ $# -ge 2 ]] || usage_error "--results needs a directory"
            results_dir=$2
            shift ;;
        -h|--help) print_help; exit 0 ;;
        *) usage_error "unknown option: $1" ;;
    esac
    shift
done

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
readonly FORWARDING_CORE=1
readonly EAL_MEMORY_MB=512
readonly FLOWS=10000
readonly BACKENDS=10
readonly NULL_PORT=1 # testpmd numbers ports in --vdev order: net_pcap0 is 0, net_null0 is 1
node="bench-fwd-$$"
testpmd_prefix="sluice-bench-testpmd-$$"
counters_root=/dev/shm/sluice
work=""
counters_root_made=0

log() {
    # Progress goes to stderr so that stdout stays the report (and --json's last line stays last).
    echo "bench-forwarder: $*" >&2
}

# Stops every process this script started (TERM, then KILL after 10 s) and removes what they may have left.
cleanup() {
    local status=$?
    trap - EXIT
    trap '' INT TERM # a second Ctrl-C must not cut the cleanup short
    stop_started_processes
    # A clean exit leaves none of these; a killed DPDK process or forwarder may.
    remove_dpdk_leftovers "sluice-$node" "$testpmd_prefix"
    rm -rf "${counters_root:?}/$node"
    if [[ $counters_root_made -eq 1 ]]; then
        rmdir "$counters_root" 2>/dev/null || true
    fi
    release_hugepages
    keep_results bench-forwarder "$work" "$results_dir"
    exit "$status"
}
# shellcheck source=scripts/lib/bench.sh
source "$root/scripts/lib/bench.sh"
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

install_packages() {
    # shellcheck source=scripts/lib/packages.sh
    source "$root/scripts/lib/packages.sh"
    install_missing_packages bench-forwarder "${SLUICE_BUILD_PACKAGES[@]}" jq python3
}

# 60-byte Ethernet/IPv4/TCP SYN frames (54 bytes of headers, zero padding), valid checksums, FLOWS distinct
# (source address, source port) pairs to VIP:80 (scripts/lib/bench_frames.py, 64 bytes with the FCS).
write_pcap() {
    python3 "$root/scripts/lib/bench_frames.py" "$1" --flows "$FLOWS" --size 64 --flags syn > /dev/null
}

write_config() {
    local file=$1
    {
        forwarder_config_head "$node" "${sluice_eal_args[@]}"
        cat <<EOF
  ports:
EOF
        local k
        for (( k = 0; k < workers; k++ )); do
            printf '    - name: net_pcap%d\n    - name: net_null%d\n' "$k" "$k"
        done
        echo "  workers:"
        for (( k = 0; k < workers; k++ )); do
            printf '    - core: %d\n      rx_port: net_pcap%d\n      tx_port: net_null%d\n' \
                $(( FORWARDING_CORE - k )) "$k" "$k"
        done
        cat <<EOF
  idle_strategy: busy-spin
  # net_pcap's infinite_rx keeps one mbuf per pcap frame: room for those plus the rings (testpmd: 32768 mbufs).
  mbufs_per_worker: 32767
EOF
        if [[ -n "$capacity" ]]; then
            printf '  connection_table:\n    capacity: %d\n' "$capacity"
        fi
        cat <<EOF
  next_hop_mac: "02:00:00:00:00:fe"
  tunnel_source_v4: 10.0.0.1
  counters_dir: $counters_root
vips:
  - name: web
    address: 10.100.0.1
    port: 80
    protocol: tcp
    backends:
EOF
        local b
        for b in $(seq 1 "$BACKENDS"); do
            echo "      - address: 10.1.0.$b"
        done
    } > "$file"
}

# Counts the GC events (distinct GC(n) ids) and the safepoints logged inside [start_ms, end_ms] (epoch ms, from
# the timemillis decorator; the uptime decorator on the same lines gives the window in JVM uptime). mawk's %d
# stops at 2^31: epoch milliseconds are printed with %.0f.
# Prints: gc_events gc_pause_ms safepoints safepoint_max_us window_start_uptime window_end_uptime
log_window() {
    local gc_log=$1 safepoint_log=$2 start_ms=$3 end_ms=$4
    awk -v start="$start_ms" -v end="$end_ms" '
        function stamp(line, parts) {
            # [12.345s][1764428000123ms] ...
            if (match(line, /^\[[0-9.]+s\]\[[0-9]+ms\]/) == 0) return -1
            split(substr(line, 2, RLENGTH - 4), parts, /s\]\[/)
            uptime_ms = parts[1] * 1000; return parts[2] + 0
        }
        FNR == 1 { file++ }
        {
            t = stamp($0)
            if (t < 0) next
            if (jvm_start == "") jvm_start = t - uptime_ms
            if (t < start || t > end) next
            if (file == 1 && match($0, /GC\([0-9]+\)/)) {
                id = substr($0, RSTART, RLENGTH)
                if (!(id in seen)) { seen[id] = 1; events++ }
                if ($0 ~ / Pause / && match($0, /[0-9.]+ms$/)) pause += substr($0, RSTART, RLENGTH - 2)
            }
            if (file == 2 && $0 ~ /Safepoint "/) {
                safepoints++
                if (match($0, /Total: [0-9]+ ns/)) {
                    ns = substr($0, RSTART + 7, RLENGTH - 10) + 0
                    if (ns > max_ns) max_ns = ns
                }
            }
        }
        END {
            printf "%d %.1f %d %.0f %.1f %.1f\n", events, pause, safepoints, max_ns / 1000,
                (start - jvm_start) / 1000, (end - jvm_start) / 1000
        }' "$gc_log" "$safepoint_log"
}

run_sluice() {
    local config="$work/node.yaml" out="$work/forwarder.log" stats="$work/stats.json"
    write_config "$config"
    # Builds the jar when it is missing or stale (scripts/sluice does) and validates the config before EAL starts.
    "$root/scripts/sluice" check-config "$config" > "$work/check-config.log" 2>&1 ||
        { cat "$work/check-config.log" >&2; die "the generated config does not pass check-config"; }

    # A fixed, pre-touched heap: no resizing and no page faults in the window. Both logs carry JVM uptime and
    # epoch ms, so events can be matched to the counters' window.
    local java_opts="-XX:ActiveProcessorCount=2 -Xms1g -Xmx1g -XX:+AlwaysPreTouch"
    java_opts+=" -Xlog:gc*:file=$work/gc.log:uptime,timemillis"
    java_opts+=" -Xlog:safepoint:file=$work/safepoint.log:uptime,timemillis"
    java_opts+=" ${SLUICE_JAVA_OPTS:-}"
    log "sluice: starting the forwarder (JVM options: $java_opts)"
    SLUICE_JAVA_OPTS="$java_opts" taskset -c 0 "$root/scripts/sluice" forwarder --config "$config" \
        > "$out" 2>&1 < /dev/null &
    local pid=$!
    pids+=("$pid")
    if ! await_forwarder_running "$out" "$pid" 120 "$node"; then
        cat "$out" >&2
        die "the forwarder did not start"
    fi
    log "sluice: running; warm-up ${warmup} s, then ${seconds} s measured"
    # The first stats sample ends the warm-up (it only opens the window), hence one second less of sleep.
    run_and_wait sleep $(( warmup - 1 ))
    # The connection table (64 MiB) asks for transparent huge pages; whether it got them changes every lookup.
    sluice_thp_mib=$(awk '/^AnonHugePages:/ { printf "%d", $2 / 1024 }' "/proc/$pid/smaps_rollup" 2>/dev/null || echo 0)
    # One sample a second, back to back (each starts where the previous ended): the window runs from the end of
    # the first to the end of the last, and the per-second rates show how steady the rate was.
    run_and_wait taskset -c 0 "$root/scripts/sluice" stats --node "$node" --dir "$counters_root" --json \
        --count $(( seconds + 1 )) --interval 1 > "$stats" 2> "$work/stats.err" ||
        { cat "$work/stats.err" "$out" >&2; die "reading the forwarder's counters failed"; }

    # Clean: exit status 0 after SIGTERM, "stopped cleanly" logged, the shared-memory files removed.
    sluice_exit_status=0
    stop_process "$pid" TERM 30 || sluice_exit_status=$?
    local stopped=false files_left=false
    forwarder_log_stopped_cleanly "$out" && stopped=true
    [[ -e "$counters_root/$node" ]] && files_left=true
    if [[ $sluice_exit_status -eq 0 && $stopped == true && $files_left == false ]]; then
        sluice_clean=true
        sluice_exit="clean (SIGTERM -> exit status 0, counters files removed)"
    else
        sluice_clean=false
        sluice_exit="NOT clean (exit status $sluice_exit_status, 'stopped cleanly' logged: $stopped,"
        sluice_exit+=" counters files left: $files_left)"
        tail -20 "$out" >&2
    fi

    # Deltas over the window: differences of the (exact) totals of the first and the last sample.
    local totals
    totals=$(jq -s -r '.[0] as $first | last as $last | .[1:] as $window |
        def delta(f): ($last.totals | f) - ($first.totals | f);
        ($window | map(.interval_s) | add) as $s |
        [ $s, $last.time_ms, (delta(.forwarded) / $s / 1e6),
          delta(.forwarded), delta(.rx_packets), delta(.tx_packets), delta(.tx_full_drops), delta(.tx_rejected),
          delta(.dropped), delta(.passed), $last.totals.max_duty_cycle_ns,
          ($window | map(.totals.forwarded_pps) | min / 1e6), ($window | map(.totals.forwarded_pps) | max / 1e6)
        ] | @tsv' "$stats")
    read -r sluice_interval sluice_end_ms sluice_mpps sluice_forwarded sluice_rx sluice_tx sluice_tx_full \
        sluice_tx_rejected sluice_dropped sluice_passed sluice_max_cycle_ns sluice_min sluice_max <<< "$totals"
    local start_ms
    start_ms=$(awk -v end="$sluice_end_ms" -v s="$sluice_interval" 'BEGIN { printf "%.0f", end - s * 1000 }')
    read -r gc_events gc_pause_ms safepoints safepoint_max_us window_from window_to \
        <<< "$(log_window "$work/gc.log" "$work/safepoint.log" "$start_ms" "$sluice_end_ms")"
}

# Sets testpmd_mpps, _tx, _rx, _span, _mean, _min and _max (no subshell here: the trap must see the pid).
run_testpmd() {
    local mode=$1
    local out="$work/testpmd-$mode.log"
    local testpmd_eal=("${eal_args[@]}")
    [[ $use_hugepages -eq 1 ]] && testpmd_eal+=(--in-memory) # as the forwarder: no files in /dev/hugepages
    log "testpmd $mode: warm-up ${warmup} s, then ${seconds} s measured"
    # Forwarding lcore 1 only (--coremask=0x2, --nb-cores=1); lcore 0 is the main lcore, which only prints stats.
    dpdk-testpmd "${testpmd_eal[@]}" --file-prefix="$testpmd_prefix" -l "0,$FORWARDING_CORE" -- \
        --forward-mode="$mode" --nb-cores=1 --coremask="$(printf '0x%x' $(( 1 << FORWARDING_CORE )))" \
        --no-lsc-interrupt --total-num-mbufs=32768 -a --stats-period 1 \
        > >(stamp_lines > "$out") 2>&1 < /dev/null &
    local pid=$!
    pids+=("$pid")
    local deadline=$(( SECONDS + warmup + seconds + 60 )) window=""
    while [[ -z "$window" ]]; do
        kill -0 "$pid" 2>/dev/null || { cat "$out" >&2; die "testpmd $mode stopped early"; }
        (( SECONDS < deadline )) || die "testpmd $mode printed no statistics for too long"
        sleep 0.5
        window=$(testpmd_window "$out")
    done
    local status=0
    stop_process "$pid" INT 30 || status=$?
    [[ $status -eq 0 ]] || log "testpmd $mode exited with status $status"
    read -r testpmd_mpps testpmd_tx testpmd_rx testpmd_span testpmd_mean testpmd_min testpmd_max <<< "$window"
}

# The window opens at the first statistics print at least --warmup seconds after the first print, and closes at
# the first print --seconds later (a quarter second of slack: prints come every period plus a little). testpmd
# counts the period in TSC cycles, and in a VM it may print every 2 s instead of every 1 s: hence the time
# stamps. Prints: Mpps, packets sent to net_null, packets received from net_pcap, seconds between the two prints,
# mean, min and max of testpmd's own per-print Tx-pps (a cross-check, and the spread); nothing until the window
# has closed.
testpmd_window() {
    samples "$1" | awk -v warmup="$warmup" -v seconds="$seconds" '
        NR == 1 { first = $1 }
        t0 == "" && $1 >= first + warmup { t0 = $1; tx0 = $2; rx0 = $3; next }
        t0 != "" { pps += $4; n++; if (n == 1 || $4 < min) min = $4; if ($4 > max) max = $4 }
        t0 != "" && $1 >= t0 + seconds - 0.25 {
            printf "%.3f %.0f %.0f %.3f %.3f %.3f %.3f\n", (($2 - tx0) / ($1 - t0)) / 1e6, $2 - tx0, $3 - rx0,
                $1 - t0, pps / n / 1e6, min / 1e6, max / 1e6
            exit
        }'
}

# One line per statistics print: arrival time, TX-packets of net_null, RX-packets of net_pcap, Tx-pps of net_null.
samples() {
    awk -v null_port="$NULL_PORT" '
        / NIC statistics for port / { for (i = 1; i < NF; i++) if ($i == "port") port = $(i + 1) }
        port == 0 && /RX-packets:/ { rx = $3 }
        port == null_port && /TX-packets:/ { tx = $3 }
        port == null_port && /Tx-pps:/ { print $1, tx, rx, $3 }' "$1"
}

install_packages
make -s -C "$root/native" shim >&2

work="$(mktemp -d "${TMPDIR:-/tmp}/sluice-bench-forwarder.XXXXXX")"
pcap="$work/flows.pcap"
write_pcap "$pcap"
[[ -d "$counters_root" ]] || { mkdir -p "$counters_root"; counters_root_made=1; }

if reserve_hugepages "$EAL_MEMORY_MB"; then
    use_hugepages=1
    eal_args=(--no-pci -m "$EAL_MEMORY_MB")
else
    use_hugepages=0
    eal_args=(--no-pci --no-huge -m "$EAL_MEMORY_MB")
fi
eal_args+=("--vdev=net_pcap0,rx_pcap=$pcap,infinite_rx=1" "--vdev=net_null0,no-rx=1")
# The forwarder's second worker gets a pair of its own; testpmd keeps the one pair (its ports are numbered in
# --vdev order, NULL_PORT above).
sluice_eal_args=("${eal_args[@]}")
if (( workers == 2 )); then
    sluice_eal_args+=("--vdev=net_pcap1,rx_pcap=$pcap,infinite_rx=1" "--vdev=net_null1,no-rx=1")
fi
log "hugepages: $hugepages_note"

core_busy_before=$(core_busy_percent)
load_before=$(load_average)
if (( core_busy_before > 20 )); then
    log "WARNING: core $FORWARDING_CORE was ${core_busy_before}% busy before the benchmark started" \
        "(another process?): every figure will be low"
fi

run_sluice
run_testpmd io
io=("$testpmd_mpps" "$testpmd_tx" "$testpmd_rx" "$testpmd_span" "$testpmd_mean" "$testpmd_min" "$testpmd_max")
run_testpmd 5tswap
swap=("$testpmd_mpps" "$testpmd_tx" "$testpmd_rx" "$testpmd_span" "$testpmd_mean" "$testpmd_min" "$testpmd_max")
load_after=$(load_average)
ratio_io=$(ratio "$sluice_mpps" "${io[0]}")
ratio_io_per_worker=$(ratio "$(awk -v m="$sluice_mpps" -v w="$workers" 'BEGIN { print m / w }')" "${io[0]}")
ratio_5tswap=$(ratio "$sluice_mpps" "${swap[0]}")

printf 'Forwarder vs dpdk-testpmd: %d flows of 60-byte TCP frames to 10.100.0.1:80, net_pcap (infinite_rx) ->' "$FLOWS"
if (( workers == 1 )); then
    printf ' net_null, one forwarding core (%d)\n' "$FORWARDING_CORE"
else
    printf ' net_null; sluice: %d workers (cores %d..%d, a pcap/null pair each), testpmd: one core (%d)\n' \
        "$workers" "$FORWARDING_CORE" $(( FORWARDING_CORE - workers + 1 )) "$FORWARDING_CORE"
fi
printf '  window %d s after %d s warm-up; hugepages: %s\n' "$seconds" "$warmup" "$hugepages_note"
printf '  load average before %s, after %s (%s cores); core %d busy before start: %s%%\n' "$load_before" \
    "$load_after" "$(nproc)" "$FORWARDING_CORE" "$core_busy_before"
printf '  sluice          %7.2f Mpps forwarded (per second %.2f-%.2f; %d received, %d forwarded, %d sent in %.3f s;' \
    "$sluice_mpps" "$sluice_min" "$sluice_max" "$sluice_rx" "$sluice_forwarded" "$sluice_tx" "$sluice_interval"
printf ' tx full drops %d, tx rejected %d, drops %d, passed %d)\n' "$sluice_tx_full" "$sluice_tx_rejected" \
    "$sluice_dropped" "$sluice_passed"
printf '                  GC events in window: %d (%.1f ms of pauses; window = JVM uptime %.1f-%.1f s),' \
    "$gc_events" "$gc_pause_ms" "$window_from" "$window_to"
printf ' safepoints: %d (longest %d us)\n' "$safepoints" "$safepoint_max_us"
printf '                  longest duty cycle since start %.1f us; transparent huge pages %d MiB; exit %s\n' \
    "$(awk -v n="$sluice_max_cycle_ns" 'BEGIN { print n / 1000 }')" "$sluice_thp_mib" "$sluice_exit"
for mode in io 5tswap; do
    if [[ $mode == io ]]; then run=("${io[@]}"); else run=("${swap[@]}"); fi
    printf '  testpmd %-7s %7.2f Mpps to net_null (per print %.2f-%.2f, mean %.2f; %d received, %d sent in %.3f s)\n' \
        "$mode" "${run[0]}" "${run[5]}" "${run[6]}" "${run[4]}" "${run[2]}" "${run[1]}" "${run[3]}"
done
printf '  sluice/testpmd_io %s, sluice/testpmd_5tswap %s' "$ratio_io" "$ratio_5tswap"
if (( workers > 1 )); then
    printf ', per worker sluice/testpmd_io %s' "$ratio_io_per_worker"
fi
printf '\n'
if [[ $json -eq 1 ]]; then
    jq -n -c --argjson sluice "$sluice_mpps" --argjson io "${io[0]}" --argjson swap "${swap[0]}" \
        --argjson rio "$ratio_io" --argjson rswap "$ratio_5tswap" --argjson gc "$gc_events" \
        --argjson huge "$([[ $use_hugepages -eq 1 ]] && echo true || echo false)" --argjson s "$seconds" \
        --argjson w "$warmup" --argjson sp "$safepoints" --argjson clean "$sluice_clean" \
        --argjson exit_status "$sluice_exit_status" --argjson thp "${sluice_thp_mib:-0}" \
        --argjson busy "$core_busy_before" --arg la "$load_before" --arg lb "$load_after" \
        --argjson workers "$workers" --argjson rio_worker "$ratio_io_per_worker" \
        --argjson capacity "${capacity:-null}" \
        'def r3: . * 1000 | round / 1000;
        {sluice_mpps: ($sluice | r3), testpmd_io_mpps: ($io | r3), testpmd_5tswap_mpps: ($swap | r3),
         ratio_io: $rio, ratio_5tswap: $rswap, gc_events_in_window: $gc, hugepages: $huge, seconds: $s,
         warmup: $w, safepoints_in_window: $sp, sluice_clean_exit: $clean, sluice_exit_status: $exit_status,
         sluice_thp_mib: $thp, core_busy_before_pct: $busy, load_before: $la, load_after: $lb,
         workers: $workers, ratio_io_per_worker: $rio_worker, connection_table_capacity: $capacity}'
fi
[[ "$sluice_clean" == true ]] || exit 1
