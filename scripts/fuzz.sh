#!/usr/bin/env bash
# Fuzzes every Jazzer fuzz test (@FuzzTest) for a bounded time each, one at a time (Jazzer fuzzes one test per JVM),
# through Maven's surefire so the test JVM gets the module's usual flags. The plain build (mvn verify) runs the same
# tests in regression mode only: their checked-in inputs under src/test/resources/<package>/<Class>Inputs/<method>/.
# usage: scripts/fuzz.sh [--minutes N | --seconds N] [--only SUBSTRING] [--list]
# A finding fails the run: Jazzer writes the input as crash-<sha1> into the test's Inputs/<method>/ directory (the
# regression corpus); fix the code and commit the input with the fix. Inputs that found new coverage collect in
# <module>/.cifuzz-corpus/ (not committed) and seed the next run. Prints executions per second per target.
# Default: 1 minute per target. Runs longer than 30 s belong under the shared lock on shared machines:
#   flock /tmp/sluice-heavy.lock scripts/fuzz.sh --minutes 10
set -euo pipefail

usage() { sed -n 's/^# usage: //p' "${BASH_SOURCE[0]}"; }

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"

# module class#method: every fuzz test in the tree. A new @FuzzTest gets a line here.
TARGETS=(
    "common io.sluice.common.config.NodeConfigFuzzTest#readsAnyText"
    "forwarder io.sluice.forwarder.pipeline.PacketPipelineFuzzTest#processesAnyFrame"
    "forwarder io.sluice.forwarder.pipeline.PacketPipelineFuzzTest#processesAnyBurst"
    "forwarder io.sluice.forwarder.pipeline.IcmpTooBigFuzzTest#answersAnyFrameWithWellFormedErrors"
    "forwarder io.sluice.forwarder.agent.ControlChannelFuzzTest#survivesAnyCommandBytes"
    "controller io.sluice.controller.bgp.ExaBgpRelayFuzzTest#readsAnyRelayBytes"
)

seconds=60
only=""
while [[ $# -gt 0 ]]; do
    case $1 in
        --minutes) [[ $# -ge 2 && $2 =~ ^[0-9]+$ && $2 -gt 0 ]] || { usage >&2; exit 2; }; seconds=$(($2 * 60)); shift 2 ;;
        --seconds) [[ $# -ge 2 && $2 =~ ^[0-9]+$ && $2 -gt 0 ]] || { usage >&2; exit 2; }; seconds=$2; shift 2 ;;
        --only) [[ $# -ge 2 ]] || { usage >&2; exit 2; }; only=$2; shift 2 ;;
        --list) printf '%s\n' "${TARGETS[@]}"; exit 0 ;;
        -h|--help) usage; exit 0 ;;
        *) usage >&2; exit 2 ;;
    esac
done

# shellcheck source=scripts/lib/java.sh
source "$ROOT/scripts/lib/java.sh"
select_java fuzz.sh

LOGS="$ROOT/target/fuzz"
mkdir -p "$LOGS"
SUMMARY=$(mktemp /tmp/sluice-fuzz.XXXXXX)
cleanup() {
    local rc=$?
    rm -f "$SUMMARY"
    exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

echo "== fuzzing each target for ${seconds}s (Java $SLUICE_JAVA_FEATURE, $(date -u +%Y-%m-%dT%H:%MZ), load $(cut -d' ' -f1-3 /proc/loadavg))"
failed=0
ran=0
for target in "${TARGETS[@]}"; do
    module=${target%% *}
    test=${target#* }
    [[ -z "$only" || "$test" == *"$only"* ]] || continue
    ran=$((ran + 1))
    log="$LOGS/${test##*.}.log"
    log=${log//#/.}
    printf -- '-- %s (%s) ... ' "$test" "$module"
    # -max_total_time after Jazzer's own arguments overrides the annotation's maxDuration (libFuzzer takes the last
    # value); Jazzer reads its extra libFuzzer arguments from the jazzer.internal.arg.N configuration parameters.
    # The budget covers Maven, the JVM and instrumentation on top of the fuzzing time.
    status=0
    JAZZER_FUZZ=1 timeout $((seconds + 300)) mvn -B -ntp -pl "$module" -am test \
        -Dtest="$test" -Dsurefire.failIfNoSpecifiedTests=false \
        -Djazzer.internal.arg.0=fuzz -Djazzer.internal.arg.1="-max_total_time=$seconds" \
        >"$log" 2>&1 || status=$?
    runs=$(sed -n 's/^Done \([0-9]*\) runs in \([0-9]*\) second.*/\1 \2/p' "$log" | tail -1)
    if [[ $status -eq 0 && -n "$runs" ]]; then
        read -r n s <<<"$runs"
        rate=$((n / (s > 0 ? s : 1)))
        cov=$(sed -n 's/^#[0-9]*[[:space:]]*DONE[[:space:]]*cov: \([0-9]*\).*/\1/p' "$log" | tail -1)
        echo "ok: $n runs in ${s}s, $rate exec/s, coverage ${cov:-?} edges"
        printf '%s\t%s\t%s\t%s\t%s\n' "$test" "$n" "$s" "$rate" "${cov:-?}" >>"$SUMMARY"
    else
        failed=$((failed + 1))
        echo "FAILED (exit $status; log $log)"
        # The finding: libFuzzer's report, the exception and where the input was written.
        grep -v '^INFO: \(Instrumented\|Loaded\)\|^WARN: Failed to instrument\|Unsupported class file\|^[[:space:]]*at java\.\|^[[:space:]]*at org\.\(junit\|apache\)' "$log" |
            grep -A25 -m1 'ParseDictionaryFile\|== Java Exception\|==[0-9]*== ERROR\|FuzzTestFinding\|ExitCode\|BUILD FAILURE\|COMPILATION ERROR' || tail -40 "$log"
        grep -o 'Test unit written to [^ ]*\|crash-[0-9a-f]\{40\}' "$log" | sort -u || true
    fi
done
if [[ $ran -eq 0 ]]; then
    echo "fuzz.sh: no target matches '$only' (scripts/fuzz.sh --list)" >&2
    exit 2
fi

echo "== summary (target, runs, seconds, exec/s, coverage)"
column -t -s $'\t' "$SUMMARY" 2>/dev/null || cat "$SUMMARY"
if [[ $failed -gt 0 ]]; then
    echo "$((ran - failed)) passed, $failed failed"
    exit 1
fi
echo "$ran passed, 0 failed"
