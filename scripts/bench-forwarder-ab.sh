#!/usr/bin/env bash
# Compares two forwarder builds (or two JVM option sets, or two table sizes) end to end: alternating
# scripts/bench-forwarder.sh runs, A first in odd rounds and B first in even ones, each line the run's Sluice Mpps,
# testpmd io Mpps and their ratio, then the medians and how many rounds B won (by ratio_io, which carries the
# machine's drift between runs: testpmd io runs in the same script minutes apart), and each side's GC events and
# safepoints inside the measured windows (issue 19 asks for none).
# usage: scripts/bench-forwarder-ab.sh [--rounds R] [--seconds N] [--warmup N] [--opts-a "..."] [--opts-b "..."]
#        [--args-a "..."] [--args-b "..."] [TREE_A [TREE_B]]
set -euo pipefail

usage() {
    echo "usage: scripts/bench-forwarder-ab.sh [--rounds R] [--seconds N] [--warmup N] [--opts-a OPTS]" \
        "[--opts-b OPTS] [--args-a ARGS] [--args-b ARGS] [TREE_A [TREE_B]] [-h | --help]"
}

print_help() {
    usage
    cat <<'EOF'
  TREE_A, TREE_B  source trees (e.g. git worktree add /tmp/a <commit>) whose scripts/bench-forwarder.sh runs (each
                  builds its own jar when stale); default: this tree for both, to compare options
  --rounds R      rounds of one A run and one B run (default 4)
  --seconds N     each run's window (default 8); --warmup N its warm-up (default 4)
  --opts-a OPTS   SLUICE_JAVA_OPTS for A's forwarder (e.g. -Dsluice.warmup.bursts=0); --opts-b for B's
  --args-a ARGS   more bench-forwarder.sh arguments for A (e.g. --capacity 32768); --args-b for B's
Needs what bench-forwarder.sh needs (root, the machine to itself). Takes about R x 100 s.
EOF
}

usage_error() {
    echo "bench-forwarder-ab: $*" >&2
    usage >&2
    exit 2
}

whole() {
    [[ "$2" =~ ^[1-9][0-9]*$ ]] || usage_error "$1 needs a whole number >= 1, got '$2'"
}

here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
rounds=4
seconds=8
warmup=4
opts_a=""
opts_b=""
args_a=""
args_b=""
trees=()
while [[ $# -gt 0 ]]; do
    case "$1" in
        --rounds|--seconds|--warmup)
            [[ $# -ge 2 ]] || usage_error "$1 needs a value"
            whole "$1" "$2"
            case "$1" in --rounds) rounds=$2 ;; --seconds) seconds=$2 ;; --warmup) warmup=$2 ;; esac
            shift ;;
        --opts-a|--opts-b|--args-a|--args-b)
            [[ $# -ge 2 ]] || usage_error "$1 needs a value"
            case "$1" in
                --opts-a) opts_a=$2 ;;
                --opts-b) opts_b=$2 ;;
                --args-a) args_a=$2 ;;
                --args-b) args_b=$2 ;;
            esac
            shift ;;
        -h|--help) print_help; exit 0 ;;
        -*) usage_error "unknown option: $1" ;;
        *) trees+=("$1") ;;
    esac
    shift
done
[[ ${#trees[@]} -le 2 ]] || usage_error "at most two trees, got ${#trees[@]}"
tree_a=${trees[0]:-$here}
tree_b=${trees[1]:-$tree_a}
for tree in "$tree_a" "$tree_b"; do
    [[ -x "$tree/scripts/bench-forwarder.sh" ]] || usage_error "no scripts/bench-forwarder.sh in $tree"
done
command -v jq > /dev/null || usage_error "needs jq (scripts/bench-forwarder.sh installs it: run it once)"

logs="$(mktemp -d "${TMPDIR:-/tmp}/sluice-bench-forwarder-ab.XXXXXX")"
trap 'rm -rf "$logs"' EXIT

# run SIDE ROUND: one bench-forwarder run of side A or B; prints "sluice io ratio load pauses" (pauses: the GC events
# and safepoints inside Sluice's window, which the issue asks to be 0).
run() {
    local side=$1 round=$2 tree opts args log
    if [[ $side == A ]]; then tree=$tree_a opts=$opts_a args=$args_a; else tree=$tree_b opts=$opts_b args=$args_b; fi
    log="$logs/$round-$side.log"
    # shellcheck disable=SC2086 # ARGS is a list of arguments
    if ! SLUICE_JAVA_OPTS="$opts" "$tree/scripts/bench-forwarder.sh" --json --seconds "$seconds" \
        --warmup "$warmup" $args > "$log" 2>&1; then
        tail -n 20 "$log" >&2
        echo "bench-forwarder-ab: the $side run of round $round failed" >&2
        exit 1
    fi
    tail -n 1 "$log" | jq -r '"\(.sluice_mpps) \(.testpmd_io_mpps) \(.ratio_io) \(.load_before | split(" ")[0])" +
        " \(.gc_events_in_window + .safepoints_in_window)"'
}

echo "bench-forwarder-ab: $rounds rounds of bench-forwarder.sh --seconds $seconds --warmup $warmup"
echo "  A = $tree_a ${opts_a:+SLUICE_JAVA_OPTS=\"$opts_a\"} $args_a"
echo "  B = $tree_b ${opts_b:+SLUICE_JAVA_OPTS=\"$opts_b\"} $args_b"
results=()
for (( r = 1; r <= rounds; r++ )); do
    if (( r % 2 )); then order=(A B); else order=(B A); fi
    declare -A line=()
    for side in "${order[@]}"; do
        line[$side]=$(run "$side" "$r")
    done
    read -r sa ia ra la pa <<< "${line[A]}"
    read -r sb ib rb lb pb <<< "${line[B]}"
    echo "  round $r ($(date -u +%H:%M) UTC, load $la/$lb): A $sa Mpps (io $ia, ratio $ra)  B $sb Mpps (io $ib," \
        "ratio $rb)  B/A $(awk -v a="$ra" -v b="$rb" 'BEGIN { printf "%.3f", b / a }')"
    results+=("$ra $rb $sa $sb $pa $pb")
    unset line
done
printf '%s\n' "${results[@]}" | awk '
    function median(v, n,   i, j, t) {
        for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (v[j] < v[i]) { t = v[i]; v[i] = v[j]; v[j] = t }
        return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
    }
    { ra[NR] = $1; rb[NR] = $2; sa[NR] = $3; sb[NR] = $4; q[NR] = $2 / $1; if ($2 > $1) won++; pa += $5; pb += $6 }
    END {
        printf "summary: ratio_io median A %.3f B %.3f | Sluice Mpps median A %.2f B %.2f |", median(ra, NR),
            median(rb, NR), median(sa, NR), median(sb, NR)
        printf " B/A median %.3f, B ahead in %d of %d rounds\n", median(q, NR), won + 0, NR
        printf "GC events and safepoints in the measured windows: A %d, B %d\n", pa, pb
    }'
