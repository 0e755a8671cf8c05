#!/usr/bin/env bash
# Benchmarks: the packet pipeline in ns/packet (JMH, with -prof gc: allocation must be ~0 B/packet), the cost of
# recording the duty-cycle histogram (JMH), the latency per burst at fixed offered rates (JLBH: p50, p99,
# p99.99, worst, corrected for coordinated omission), the Maglev table build in ms (JMH), and the C reference build (native/bench/maglev_ref.c) for the same N and M; prints the
# Java/C ratio, checks both build the same tables (checksums), and ends with a summary.
#
# Quick (the default) takes about 2 minutes on 2 cores; --full takes about 12 and gives tighter error bars.
set -euo pipefail

usage() {
    echo "usage: scripts/bench-jmh.sh [--quick | --full] [--results DIR] [--skip-build] [-h | --help]"
}

print_help() {
    usage
    cat <<'EOF'
  --quick        1 fork, 3 x 1 s warm-up, 6 x 1 s measurement per benchmark (default)
  --full         3 forks, 5 x 2 s warm-up, 10 x 2 s measurement per benchmark
  --results DIR  keep the raw outputs (JMH text and JSON, C reference JSON) in DIR
  --skip-build   use the benchmark jar and native/build/maglev_ref already built
Needs: JDK 17, Maven, jq, cc and make; the C reference needs xxhash.h (libxxhash-dev, installed with apt-get
when missing and run as root).
EOF
}

die() {
    echo "bench-jmh: $*" >&2
    exit 1
}

usage_error() {
    echo "bench-jmh: $*" >&2
    usage >&2
    exit 2
}

mode=quick
results_dir=""
build=1
while [[ $# -gt 0 ]]; do
    case "$1" in
        --quick) mode=quick ;;
        --full) mode=full ;;
        --results)
            [[ $# -ge 2 ]] || usage_error "--results needs a directory"
            results_dir="$2"
            shift ;;
        --skip-build) build=0 ;;
        -h|--help) print_help; exit 0 ;;
        *) usage_error "unknown option: $1" ;;
    esac
    shift
done

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
work="$(mktemp -d "${TMPDIR:-/tmp}/sluice-bench.XXXXXX")"
cleanup() {
    if [[ -n "$results_dir" && -d "$work" ]]; then
        mkdir -p "$results_dir" && cp -r "$work"/. "$results_dir"/ ||
            echo "bench-jmh: could not copy the results to $results_dir" >&2
    fi
    rm -rf "$work"
}
trap cleanup EXIT

if [[ "$mode" == full ]]; then
    jmh_opts=(-f 3 -wi 5 -w 2s -i 10 -r 2s)
    describe="full: 3 forks, 5 x 2 s warm-up, 10 x 2 s measurement"
else
    jmh_opts=(-f 1 -wi 3 -w 1s -i 6 -r 1s)
    describe="quick: 1 fork, 3 x 1 s warm-up, 6 x 1 s measurement"
fi
pipeline_json="$work/PipelineBenchmark.json"
maglev_json="$work/MaglevBuildBenchmark.json"
ref_json="$work/maglev_ref.jsonl"
tool_json="$work/maglev_tool.jsonl"
jar="$root/bench/target/sluice-benchmarks.jar"
maglev_ref="$root/native/build/maglev_ref"
# The scripts' Java (scripts/lib/java.sh); JMH forks run on the JVM that launched JMH.
# shellcheck source=scripts/lib/java.sh
source "$root/scripts/lib/java.sh"
select_java bench-jmh
# Agrona 2 reaches jdk.internal.misc.Unsafe, which Java 17 exports only on request (JMH forks get it from @Fork).
java_opts=(--add-exports=java.base/jdk.internal.misc=ALL-UNNAMED "${SLUICE_JAVA_RUNTIME_FLAGS[@]}")
combos=("100 65537" "1000 65537" "100 655373" "1000 655373")

# Other busy processes skew every figure (the pipeline's, memory-bound, most): say so next to the results.
load_average() {
    cut -d ' ' -f 1 /proc/loadavg 2>/dev/null || echo "?"
}
load_before="$(load_average)"

command -v jq >/dev/null || die "jq is required to read the JMH results (apt-get install -y jq)"

# --- build -------------------------------------------------------------------------------------------------------
if [[ "$build" -eq 1 ]]; then
    echo "== building the benchmark jar (mvn -pl bench -am)"
    (cd "$root" && mvn -B -q -DskipTests package -pl bench -am) || die "Maven build failed"
    # The C reference includes xxhash.h.
    # shellcheck source=scripts/lib/packages.sh
    source "$root/scripts/lib/packages.sh"
    install_missing_packages bench-jmh libxxhash-dev
    echo "== building the C reference (make -C native bench)"
    make -s -C "$root/native" bench || die "make -C native bench failed"
fi
[[ -f "$jar" ]] || die "no $jar: run without --skip-build"
[[ -x "$maglev_ref" ]] || die "no $maglev_ref: run without --skip-build"

# Runs one JMH benchmark class; shows progress lines, keeps the full text and JSON in $work.
run_jmh() {
    local name="$1"
    shift
    echo "== JMH $name ($describe)"
    local status
    set +e
    "$SLUICE_JAVA" -jar "$jar" "io\.sluice\.bench\.$name\." "${jmh_opts[@]}" "$@" -rf json -rff "$work/$name.json" \
        2>&1 | tee "$work/$name.txt" | grep --line-buffered -E '^(# Parameters:|Iteration +[0-9]+:)'
    status=${PIPESTATUS[0]}
    set -e
    if [[ "$status" -ne 0 ]]; then
        tail -n 40 "$work/$name.txt" >&2
        die "JMH $name failed (exit $status)"
    fi
}

# flood too: a SYN flood into a full table (a full window's scan, an eviction, an insert) must not allocate either
run_jmh PipelineBenchmark -prof gc -p mode=hit,miss,flood
run_jmh MaglevBuildBenchmark
run_jmh DutyCycleHistogramBenchmark -prof gc -p mode=hit

# --- JLBH: latency per burst at fixed offered rates (coordinated omission corrected) -----------------------------
burst_latency_txt="$work/BurstLatencyBenchmark.txt"
if [[ "$mode" == full ]]; then
    burst_latency_seconds=10
    burst_latency_opts=(--seconds "$burst_latency_seconds" --runs 5)
else
    burst_latency_seconds=3
    burst_latency_opts=(--seconds "$burst_latency_seconds" --runs 2)
fi
# chronicle-core (under JLBH) reaches JDK internals that Java 17 opens only on request.
chronicle_opts=(--add-opens=java.base/java.lang=ALL-UNNAMED --add-opens=java.base/java.lang.reflect=ALL-UNNAMED
    --add-opens=java.base/java.nio=ALL-UNNAMED --add-opens=java.base/sun.nio.ch=ALL-UNNAMED
    --add-opens=java.base/java.io=ALL-UNNAMED --add-opens=java.base/java.util=ALL-UNNAMED
    --add-exports=java.base/jdk.internal.ref=ALL-UNNAMED --add-exports=java.base/sun.nio.ch=ALL-UNNAMED
    --add-exports=jdk.unsupported/sun.misc=ALL-UNNAMED)
echo "== JLBH BurstLatencyBenchmark (${burst_latency_opts[*]}, offered 50% and 90% of the back-to-back rate)"
set +e
"$SLUICE_JAVA" "${java_opts[@]}" "${chronicle_opts[@]}" -Dagrona.disable.bounds.checks=true -XX:InlineSmallCode=6000 \
    -cp "$jar" io.sluice.bench.BurstLatencyBenchmark --flows 10000 --rates 0.5,0.9 "${burst_latency_opts[@]}" \
    --jlbh-log "$work/jlbh.log" 2>&1 | grep -v "^SLF4J" | tee "$burst_latency_txt"
status=${PIPESTATUS[0]}
set -e
[[ "$status" -eq 0 ]] || die "BurstLatencyBenchmark failed (exit $status)"
# The platform's own hiccups over the same kind of window: a clock-reading loop, no pipeline. They bound the tail
# JLBH can show (a burst that meets a 20 us gap takes 20 us more, and the bursts due behind it wait).
jitter_txt="$work/PlatformJitter.txt"
echo "== PlatformJitter ($burst_latency_seconds s of a clock-reading loop)"
"$SLUICE_JAVA" "${java_opts[@]}" -cp "$jar" io.sluice.bench.PlatformJitter --seconds "$burst_latency_seconds" \
    2>&1 | grep -v "^WARNING" | tee "$jitter_txt"
[[ "${PIPESTATUS[0]}" -eq 0 ]] || die "PlatformJitter failed"

# --- C reference and Java checksums ------------------------------------------------------------------------------
echo "== C reference (native/build/maglev_ref: median of 50 builds after 10) and Java MaglevTool checksums"
: > "$ref_json"
: > "$tool_json"
for combo in "${combos[@]}"; do
    read -r n m <<<"$combo"
    "$maglev_ref" --backends "$n" --table-size "$m" | tee -a "$ref_json"
    "$SLUICE_JAVA" "${java_opts[@]}" -cp "$jar" io.sluice.tools.maglev.MaglevTool --backends "$n" --table-size "$m" \
        --iterations 3 --warmup 1 --json >> "$tool_json"
done

# --- summary -----------------------------------------------------------------------------------------------------
failed=0

echo
echo "== Summary ($describe; +- is JMH's 99.9% confidence half-width)"
echo "Load average $load_before before, $(load_average) after (the benchmark adds ~1), on $(nproc) CPUs;" \
    "other busy processes inflate the figures"
echo "Java: $SLUICE_JAVA_VERSION ($JAVA_HOME; SLUICE_JAVA_HOME picks another)"
echo "Pipeline: bursts of 32 x 60-byte IPv4 TCP frames, 10,000 flows, 10 backends, table 2^20, M=65537;" \
    "hit: every flow in the table; miss: every entry expired; flood: every frame a new flow into a full table"
while IFS=$'\t' read -r bench pmode score error alloc; do
    if [[ "$bench" == processBurst || "$bench" == processBurstBoundsChecked ]]; then
        checks="bounds checks off (as the forwarder runs)"
        [[ "$bench" == processBurstBoundsChecked ]] && checks="bounds checks on"
        printf '  %-5s %8.1f +- %5.1f ns/packet   gc.alloc.rate.norm %s B/packet   %s\n' "$pmode" "$score" "$error" \
            "$alloc" "$checks"
        if ! awk -v a="$alloc" 'BEGIN { exit !(a < 1) }'; then
            echo "  ^ the pipeline allocates: it must not (expected ~0 B/packet)"
            failed=1
        fi
    else
        printf '  restore only (benchmark scaffolding, inside the figures above) %.1f ns/packet\n' "$score"
    fi
done < <(jq -r '.[] | [(.benchmark | split(".") | last), (.params.mode // "-"), .primaryMetric.score,
        .primaryMetric.scoreError, (.secondaryMetrics["gc.alloc.rate.norm"].score // "n/a")] | @tsv' "$pipeline_json" |
    awk -F'\t' 'BEGIN { OFS = "\t" } { if ($5 != "n/a") $5 = sprintf("%.3f", $5); if ($4 == "NaN") $4 = 0; print }')

duty_cycle_json="$work/DutyCycleHistogramBenchmark.json"
read -r timed timed_alloc < <(jq -r '.[] | select(.benchmark | endswith(".timedBurst")) |
    "\(.primaryMetric.score) \(.secondaryMetrics["gc.alloc.rate.norm"].score // "n/a")"' "$duty_cycle_json")
read -r recorded recorded_alloc < <(jq -r '.[] | select(.benchmark | endswith(".timedBurstRecorded")) |
    "\(.primaryMetric.score) \(.secondaryMetrics["gc.alloc.rate.norm"].score // "n/a")"' "$duty_cycle_json")
printf '  duty-cycle histogram: timed burst %.1f ns/packet, with the histogram recording %.1f (x%.3f); %s and %s B/packet\n' \
    "$timed" "$recorded" "$(awk -v a="$timed" -v b="$recorded" 'BEGIN { print b / a }')" "$timed_alloc" "$recorded_alloc"
echo "Burst latency (JLBH, 10,000 flows, hits; latency from when each burst was due, us):"
sed -n 's/^/  /p' "$burst_latency_txt"
sed -n 's/^/  /p' "$jitter_txt"
echo "Maglev table build (ms): Java = JMH average, C = maglev_ref median; same backends (10.0.0.0+i+1, weight 1)"
printf '  %-6s %-7s %16s %9s %7s  %s\n' N M "Java" "C" "Java/C" "tables"
for combo in "${combos[@]}"; do
    read -r n m <<<"$combo"
    read -r java_ms java_err < <(jq -r --arg n "$n" --arg m "$m" \
        '.[] | select(.params.backends == $n and .params.tableSize == $m) |
         "\(.primaryMetric.score) \(.primaryMetric.scoreError)"' "$maglev_json") ||
        die "no JMH result for N=$n M=$m"
    read -r c_ms c_sum < <(jq -r --argjson n "$n" --argjson m "$m" \
        'select(.backends == $n and .table_size == $m) | "\(.build_ms_median) \(.checksum)"' "$ref_json") ||
        die "no C reference result for N=$n M=$m"
    java_sum=$(jq -r --argjson n "$n" --argjson m "$m" \
        'select(.backends == $n and .table_size == $m) | .checksum' "$tool_json")
    if [[ "$java_sum" == "$c_sum" ]]; then
        same="identical ($c_sum)"
    else
        same="DIFFER: Java $java_sum, C $c_sum"
        failed=1
    fi
    if [[ "$java_err" == NaN ]]; then
        java_err=0
    fi
    printf '  %-6s %-7s %7.3f +- %5.3f %9.3f %6.2fx  %s\n' "$n" "$m" "$java_ms" "$java_err" "$c_ms" \
        "$(awk -v j="$java_ms" -v c="$c_ms" 'BEGIN { print j / c }')" "$same"
done

if [[ "$failed" -ne 0 ]]; then
    die "a check failed (see above)"
fi
