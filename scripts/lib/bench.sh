# shellcheck shell=bash
# Pieces the benchmark scripts share (bench-forwarder.sh, bench-pktgen.sh): the processes they start, hugepages,
# the machine's load. Sourced after the script has set FORWARDING_CORE (the core core_busy_percent watches) and
# no_huge (1: reserve_hugepages reserves nothing). Every process a script starts goes into pids, so that
# stop_started_processes (from the script's cleanup trap) stops exactly those.

# shellcheck source=scripts/lib/forwarder-log.sh
source "$(dirname "${BASH_SOURCE[0]}")/forwarder-log.sh"

pids=()
hugepages_added=0
hugetlbfs_mounted=0
hugepages_dir_made=0
hugepages_note=""

# Stops every process in pids (TERM, then KILL after 10 s).
stop_started_processes() {
    local pid
    for pid in ${pids[@]+"${pids[@]}"}; do
        if kill -0 "$pid" 2>/dev/null; then
            kill -TERM "$pid" 2>/dev/null || true
            for _ in $(seq 100); do
                kill -0 "$pid" 2>/dev/null || break
                sleep 0.1
            done
            kill -KILL "$pid" 2>/dev/null || true
            wait "$pid" 2>/dev/null || true
        fi
    done
}

meminfo() {
    awk -v key="$1:" '$1 == key { print $2 }' /proc/meminfo
}

# reserve_hugepages MEGABYTES: makes that much hugepage memory free and mounts hugetlbfs, as
# /work/shared/environment.md does; only what is missing is added, and release_hugepages (from the cleanup trap)
# gives exactly that back. Sets hugepages_note; fails (status 1) when the memory cannot be had.
reserve_hugepages() {
    local megabytes=$1
    if [[ $no_huge -eq 1 ]]; then
        hugepages_note="no (--no-huge given)"
        return 1
    fi
    if [[ $(id -u) -ne 0 ]]; then
        hugepages_note="no (not root: cannot reserve them)"
        return 1
    fi
    local page_kb need free total
    page_kb=$(meminfo Hugepagesize)
    [[ -n "$page_kb" && "$page_kb" -gt 0 ]] || { hugepages_note="no (kernel reports no hugepage size)"; return 1; }
    need=$(( (megabytes * 1024 + page_kb - 1) / page_kb ))
    free=$(meminfo HugePages_Free)
    if [[ $free -lt $need ]]; then
        total=$(cat /proc/sys/vm/nr_hugepages)
        echo $(( total + need - free )) > /proc/sys/vm/nr_hugepages 2>/dev/null || true
        hugepages_added=$(( $(cat /proc/sys/vm/nr_hugepages) - total ))
        free=$(meminfo HugePages_Free)
        if [[ $free -lt $need ]]; then
            release_hugepages
            hugepages_note="no (only $free of $need hugepages of $page_kb kB could be reserved)"
            return 1
        fi
    fi
    if [[ ! -d /dev/hugepages ]]; then
        mkdir -p /dev/hugepages
        hugepages_dir_made=1
    fi
    if ! mountpoint -q /dev/hugepages; then
        mount -t hugetlbfs nodev /dev/hugepages
        hugetlbfs_mounted=1
    fi
    if [[ $hugepages_added -gt 0 ]]; then
        hugepages_note="yes ($need x $page_kb kB pages; this script reserved $hugepages_added and gives them back)"
    else
        hugepages_note="yes ($need x $page_kb kB pages, already reserved)"
    fi
    return 0
}

release_hugepages() {
    if [[ $hugetlbfs_mounted -eq 1 ]]; then
        umount /dev/hugepages 2>/dev/null || true
        hugetlbfs_mounted=0
    fi
    if [[ $hugepages_dir_made -eq 1 ]]; then
        rmdir /dev/hugepages 2>/dev/null || true
        hugepages_dir_made=0
    fi
    if [[ $hugepages_added -gt 0 ]]; then
        local now
        now=$(cat /proc/sys/vm/nr_hugepages)
        echo $(( now > hugepages_added ? now - hugepages_added : 0 )) > /proc/sys/vm/nr_hugepages 2>/dev/null || true
        hugepages_added=0
    fi
}

# Share of the last second core 1 spent busy, in percent: another busy-spinning process there halves every figure.
core_busy_percent() {
    local a b
    a=$(awk -v cpu="cpu$FORWARDING_CORE" '$1 == cpu { print $2+$3+$4+$7+$8+$9, $5+$6 }' /proc/stat)
    sleep 1
    b=$(awk -v cpu="cpu$FORWARDING_CORE" '$1 == cpu { print $2+$3+$4+$7+$8+$9, $5+$6 }' /proc/stat)
    awk -v a="$a" -v b="$b" 'BEGIN { split(a, x, " "); split(b, y, " "); busy = y[1] - x[1]; idle = y[2] - x[2];
        printf "%d", ((busy + idle) > 0 ? 100 * busy / (busy + idle) : 0) }'
}

load_average() {
    cut -d' ' -f1-3 /proc/loadavg
}

stamp_lines() {
    local line
    while IFS= read -r line; do
        printf '%s %s\n' "$EPOCHREALTIME" "$line"
    done
}

stop_process() {
    local pid=$1 signal=$2 limit=$3 status=0
    kill "-$signal" "$pid" 2>/dev/null || true
    local deadline=$(( SECONDS + limit ))
    while kill -0 "$pid" 2>/dev/null && (( SECONDS < deadline )); do
        sleep 0.1
    done
    if kill -0 "$pid" 2>/dev/null; then
        return 124
    fi
    wait "$pid" || status=$?
    forget_pid "$pid"
    return "$status"
}

# Forgets a reaped pid, so that cleanup never signals a number the kernel may have handed to someone else.
forget_pid() {
    local kept=() p
    for p in ${pids[@]+"${pids[@]}"}; do
        [[ "$p" == "$1" ]] || kept+=("$p")
    done
    pids=(${kept[@]+"${kept[@]}"})
}

# Runs a command in the background and waits for it: a trapped signal interrupts `wait` at once (it would wait
# for a foreground command to end), and cleanup then stops the command.
run_and_wait() {
    "$@" &
    local pid=$! status=0
    pids+=("$pid")
    wait "$pid" || status=$?
    forget_pid "$pid"
    return "$status"
}

ratio() {
    awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.3f", a / b; else printf "0" }'
}

# forwarder_config_head NODE EAL_ARG...: the first lines of a node config, up to forwarder.eal_args.
forwarder_config_head() {
    local node=$1 first=1 arg
    shift
    echo "node:"
    echo "  name: $node"
    echo "forwarder:"
    printf '  eal_args: ['
    for arg in "$@"; do
        [[ $first -eq 1 ]] || printf ', '
        printf '"%s"' "$arg"
        first=0
    done
    echo "]"
}

# remove_dpdk_leftovers PREFIX...: what a killed DPDK process of that --file-prefix leaves (a clean exit none).
remove_dpdk_leftovers() {
    local prefix
    for prefix in "$@"; do
        rm -f /dev/hugepages/"$prefix"map_* /dev/hugepages/"$prefix"map 2>/dev/null || true
        rm -rf "/var/run/dpdk/$prefix" 2>/dev/null || true
    done
}

# keep_results WHO WORK DIR: copies the work directory into DIR (when given) and removes it.
keep_results() {
    local who=$1 work=$2 dir=$3
    [[ -n "$work" && -d "$work" ]] || return 0
    if [[ -n "$dir" ]]; then
        mkdir -p "$dir" && cp -r "$work"/. "$dir"/ || echo "$who: could not copy the results to $dir" >&2
    fi
    rm -rf "$work"
}
