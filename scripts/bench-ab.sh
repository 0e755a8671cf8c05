#!/usr/bin/env bash
# A/B comparison of two builds of the packet pipeline (or of two sets of JVM options) on this noisy VM: runs
# PipelineBenchmark.processBurst (connection-table hits; misses with --mode miss) as single JMH forks, alternating
# A and B so both see the same minutes (A first in odd rounds, B first in even ones), and prints each round's
# pair of per-fork figures, their ratio, and a summary. A single JMH run here can move by 40% from one minute to
# the next, more than most changes under test; a change is worth keeping when B wins most rounds, not when one
# run looks better.
#
# The per-fork figure is the fastest of the fork's measurement iterations (--stat min, the default): this VM's
# host has slow phases of 10-40 s in which the same code takes about 60% longer, and they only ever add time.
# Six forks of one jar in a row on 2026-12-07 had iteration medians of 24.9-32.5 ns and minima of 24.7-24.9; the
# median of a fork that a slow phase covered says more about the host than about the code. --stat median gives
# the older figure.
#
# Build the two jars first, e.g.:
#   mvn -q -DskipTests install -pl forwarder,bench -am && cp bench/target/sluice-benchmarks.jar /tmp/b.jar
#   git stash; mvn -q -DskipTests install -pl forwarder,bench -am && cp bench/target/sluice-benchmarks.jar /tmp/a.jar
#   git stash pop
#   scripts/bench-ab.sh /tmp/a.jar /tmp/b.jar
# or compare JVM options on one jar:
#   scripts/bench-ab.sh --jvm-b "-XX:+UseParallelGC" bench/target/sluice-benchmarks.jar bench/target/sluice-benchmarks.jar
# A JVM option that wins here is not yet a win for the forwarder, whose compiled processBurst differs: judge it
# there too (scripts/bench-forwarder-ab.sh --opts-b OPTIONS). -XX:-UseFPUForSpilling took 12% off a 64-flow hit
# here and cost the forwarder 10% (docs/benchmarks.md, 2026-12-07).
# or two Java runtimes:
#   scripts/bench-ab.sh --java-b /usr/lib/jvm/temurin-25-jdk-amd64/bin/java JAR JAR
set -euo pipefail

usage() {
    echo "usage: scripts/bench-ab.sh [--flows N] [--mode hit|miss|flood] [--capacity C] [--rounds R]" \
        "[--stat min|median] [--jvm-a OPTIONS] [--jvm-b OPTIONS] [--java-a JAVA] [--java-b JAVA] JAR_A JAR_B"
}
print_help() {
    usage
    cat <<'EOF'
  --flows N        flows in the benchmark's frames (default 10000; 64 keeps everything in cache)
  --mode M         hit (default: every lookup finds its flow) or miss (every entry found has expired: the miss
                   path, Maglev lookup and insert; see PipelineBenchmark) or flood (every frame a new flow
                   into a full table: a full window's scan, an eviction, the insert). Both jars need the mode:
                   flood is in builds from 2026-12-03 on
  --capacity C     connection table entries (default 1048576, the forwarder's default). Hit mode fails when
                   a flow is evicted: 1,000,000 flows overflow some probe windows even of 2^21 entries; time
                   them with io.sluice.bench.PipelineCpuTime, which counts hits and misses instead
  --rounds R       rounds of one A fork and one B fork (default 6)
  --stat S         each fork's figure: min (default), the fastest of its measurement iterations, or median
  --jvm-a OPTIONS  extra JVM options for A's forks (e.g. "-XX:+UseParallelGC")
  --jvm-b OPTIONS  extra JVM options for B's forks
  --java-a JAVA    the java executable for A's forks (default: the scripts' Java, scripts/lib/java.sh)
  --java-b JAVA    the java executable for B's forks
Each fork: 4 x 1 s warm-up, 6 x 1 s measurement, run with the forwarder's JVM options (bounds checks off,
-XX:InlineSmallCode=6000, as scripts/sluice forwarder) before the extra ones. Takes about 22 s per fork.
EOF
}
die() {
    echo "bench-ab: $*" >&2
    exit 1
}
usage_error() {
    echo "bench-ab: $*" >&2
    usage >&2
    exit 2
}

flows=10000
mode=hit
capacity=1048576
rounds=6
stat=min
jvm_a=""
jvm_b=""
java_a=""
java_b=""
jars=()
while [[ $# -gt 0 ]]; do
    case "$1" in
        --flows|--mode|--capacity|--rounds|--stat|--jvm-a|--jvm-b|--java-a|--java-b)
            [[ $# -ge 2 ]] || usage_error "$1 needs a value"
            case "$1" in
                --flows) flows="$2" ;;
                --mode) mode="$2" ;;
                --capacity) capacity="$2" ;;
                --rounds) rounds="$2" ;;
                --stat) stat="$2" ;;
                --jvm-a) jvm_a="$2" ;;
                --jvm-b) jvm_b="$2" ;;
                --java-a) java_a="$2" ;;
                --java-b) java_b="$2" ;;
            esac
            shift ;;
        -h|--help) print_help; exit 0 ;;
        -*) usage_error "unknown option: $1" ;;
        *) jars+=("$1") ;;
    esac
    shift
done
[[ ${#jars[@]} -eq 2 ]] || usage_error "need two benchmark jars, got ${#jars[@]}"
[[ "$flows" =~ ^[0-9]+$ && "$flows" -ge 32 ]] || usage_error "--flows must be an integer >= 32, got '$flows'"
[[ "$mode" == hit || "$mode" == miss || "$mode" == flood ]] ||
    usage_error "--mode must be hit, miss or flood, got '$mode'"
[[ "$capacity" =~ ^[0-9]+$ ]] || usage_error "--capacity must be an integer, got '$capacity'"
[[ "$rounds" =~ ^[0-9]+$ && "$rounds" -ge 1 ]] || usage_error "--rounds must be an integer >= 1, got '$rounds'"
[[ "$stat" == min || "$stat" == median ]] || usage_error "--stat must be min or median, got '$stat'"
for jar in "${jars[@]}"; do
    [[ -f "$jar" ]] || usage_error "no such jar: $jar"
done
# shellcheck source=scripts/lib/java.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/java.sh"
select_java bench-ab
java_a=$(command -v "${java_a:-$SLUICE_JAVA}") || usage_error "no java executable: $java_a"
java_b=$(command -v "${java_b:-$SLUICE_JAVA}") || usage_error "no java executable: $java_b"

# The forwarder's options (scripts/sluice forwarder); -jvmArgsAppend replaces the @Fork ones, so repeat them.
base_opts="--add-exports=java.base/jdk.internal.misc=ALL-UNNAMED -Dagrona.disable.bounds.checks=true"
base_opts+=" -XX:InlineSmallCode=6000"

# median FORMAT VALUE...: the median of the values, printed with the printf format
median() {
    local format="$1"
    shift
    printf '%s\n' "$@" | sort -g | awk -v f="$format" \
        '{ v[NR] = $1 } END { printf f, NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
# smallest VALUE...: the smallest of the values, as given
smallest() {
    printf '%s\n' "$@" | sort -g | head -n 1
}

# Measurement iterations of each fork.
iterations=6

# Runs one fork and prints its figure (ns/packet): the fastest or the median of its measurement iterations.
fork_figure() {
    local java="$1" jar="$2" extra="$3" output values
    output=$("$java" -jar "$jar" 'io\.sluice\.bench\.PipelineBenchmark\.processBurst$' -p mode="$mode" \
        -p flows="$flows" -p capacity="$capacity" -wi 4 -w 1 -i "$iterations" -r 1 -f 1 -jvm "$java" \
        -jvmArgsAppend "$base_opts $extra" 2>&1) ||
        { echo "$output" | tail -n 20 >&2; die "JMH failed for $jar"; }
    # only lines whose third field is a number: flood mode's tear-down prints text on an iteration's line
    mapfile -t values < <(echo "$output" | awk '/^Iteration +[0-9]+:/ && $3 ~ /^[0-9.]+$/ { print $3 }')
    [[ ${#values[@]} -gt 0 ]] || die "no measurement iterations in the output for $jar"
    if [[ "$stat" == min ]]; then
        printf '%.1f\n' "$(smallest "${values[@]}")"
    else
        median '%.1f\n' "${values[@]}"
    fi
}

echo "bench-ab: PipelineBenchmark.processBurst, mode $mode, $flows flows, capacity $capacity, $rounds rounds (ns/packet, each fork's $stat of $iterations iterations)"
echo "  A = $java_a -jar ${jars[0]} ${jvm_a}"
echo "  B = $java_b -jar ${jars[1]} ${jvm_b}"
a_values=()
b_values=()
for ((round = 1; round <= rounds; round++)); do
    if ((round % 2)); then
        a=$(fork_figure "$java_a" "${jars[0]}" "$jvm_a")
        b=$(fork_figure "$java_b" "${jars[1]}" "$jvm_b")
    else
        b=$(fork_figure "$java_b" "${jars[1]}" "$jvm_b")
        a=$(fork_figure "$java_a" "${jars[0]}" "$jvm_a")
    fi
    a_values+=("$a")
    b_values+=("$b")
    printf '  round %d: A %6.1f  B %6.1f  B/A %.3f\n' "$round" "$a" "$b" "$(awk -v a="$a" -v b="$b" 'BEGIN { print b / a }')"
done

ratios=()
wins=0
for ((i = 0; i < rounds; i++)); do
    ratios+=("$(awk -v a="${a_values[i]}" -v b="${b_values[i]}" 'BEGIN { print b / a }')")
    if awk -v a="${a_values[i]}" -v b="${b_values[i]}" 'BEGIN { exit !(b < a) }'; then
        wins=$((wins + 1))
    fi
done
min_a=$(smallest "${a_values[@]}")
min_b=$(smallest "${b_values[@]}")
# Two figures for B against A: the median of the rounds' ratios, and the ratio of each side's fastest fork (the
# one a slow phase of the host touched least; the steadier of the two when some rounds ran in a slow phase).
echo "summary: A median $(median %.1f "${a_values[@]}") min $min_a | B median $(median %.1f "${b_values[@]}")" \
    "min $min_b | B/A median $(median %.3f "${ratios[@]}"), of the minima" \
    "$(awk -v a="$min_a" -v b="$min_b" 'BEGIN { printf "%.3f", b / a }'), B faster in $wins of $rounds rounds"
