# shellcheck shell=bash
# The forwarder's two log lines that scripts wait for, in one place: "sluice forwarder NODE running (...)" once its
# workers run (Forwarder.java) and "forwarder: stopped cleanly" after a clean stop (ForwarderMain.java). Sourced by
# the benchmark scripts (through bench.sh), demo.sh and the package test.

# forwarder_log_running LOG [NODE]: LOG shows the forwarder (of node NODE, when given) running.
forwarder_log_running() {
    if [[ -n ${2:-} ]]; then
        grep -q -- "sluice forwarder $2 running (" "$1" 2>/dev/null
    else
        grep -q -- " running (" "$1" 2>/dev/null
    fi
}

# forwarder_log_starts LOG: how many times LOG shows the forwarder running (0 when none, or no LOG yet).
forwarder_log_starts() {
    local count
    count=$(grep -c -- " running (" "$1" 2>/dev/null) || true
    echo "${count:-0}"
}

# forwarder_log_stopped_cleanly LOG: LOG ends the forwarder's run with its clean stop.
forwarder_log_stopped_cleanly() {
    grep -q -- "forwarder: stopped cleanly" "$1" 2>/dev/null
}

# await_forwarder_running LOG PID LIMIT_S [NODE]: waits until LOG shows the forwarder running; status 1 as soon as
# process PID has exited, or after LIMIT_S seconds.
await_forwarder_running() {
    local log=$1 pid=$2 limit=$3 node=${4:-}
    local deadline=$(( SECONDS + limit ))
    until forwarder_log_running "$log" "$node"; do
        kill -0 "$pid" 2>/dev/null || return 1
        (( SECONDS < deadline )) || return 1
        sleep 0.2
    done
}
