#!/usr/bin/env bash
# Sluice end to end: real clients through a VIP, an ECMP router (BIRD) in front of two forwarders (DPDK on
# net_af_packet, each with its controller and ExaBGP), GRE to three backends that answer the clients directly
# (DSR). Shows the router's multipath route, many requests with their spread over backends and forwarders, the
# proof of DSR, then the failure drills and malformed frames on the wire. Everything runs in network namespaces
# (sd-*) that this script creates and always removes, also after a failure or Ctrl-C. See docs/demo.md.
# usage: scripts/demo.sh [--json] [--keep-going]
#   --json        print one JSON object with every measured outcome as the last line
#   --keep-going  run every drill even after one missed its target (default: stop at the first miss)
# Exit status: 0 when every drill met its target, 1 otherwise, 2 for bad arguments or a missing prerequisite.
# Needs root. SLUICE_DEMO_KEEP=1 keeps the work directory (logs, configs, measurements) for inspection;
# The topology is dual stack: the traffic step and drill 3 also run against the IPv6 VIP (GRE over IPv6, DSR).
# SLUICE_DEMO_ONLY="traffic drill1 ..." runs only those steps after the set-up (steps: traffic capture bad
# drill1..5 metrics exabgp-kill bird-restart forwarder-resync control-ring backend-flap rolling-restart pmtu
# node-freeze);
# SLUICE_DEMO_PLOT=FILE.png keeps the metrics step's plot of the dashboard's series.
# SLUICE_DEMO_BFD=0 runs the nodes and the router without BFD, SLUICE_DEMO_HOLD_TIME=N sets the nodes' BGP hold
# time (default 9): the node-freeze drill then measures the hold-time fallback (its target becomes N + 1 s);
# SLUICE_DEMO_FREEZE_SIGNAL=KILL makes that drill kill lb1's processes instead of freezing them.
set -euo pipefail

usage() { sed -n 's/^# usage: //p' "${BASH_SOURCE[0]}"; }

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
DEMO=$ROOT/scripts/demo
SLUICE=$ROOT/scripts/sluice
PY=/usr/bin/python3 # Debian's: it has scapy (the python3 first on PATH may be another build)
GREDECAP=$ROOT/native/build/sluice_gredecap
COUNTERS_DIR=/dev/shm/sluice-demo
# shellcheck source=scripts/demo/topology.sh
source "$DEMO/topology.sh"
# shellcheck source=scripts/lib/forwarder-log.sh
source "$ROOT/scripts/lib/forwarder-log.sh"

JSON=0
KEEP_GOING=0
for arg in "$@"; do
    case $arg in
        --json) JSON=1 ;;
        --keep-going) KEEP_GOING=1 ;;
        -h | --help) usage; exit 0 ;;
        *) echo "demo: unknown argument '$arg'" >&2; usage >&2; exit 2 ;;
    esac
done
[[ $(id -u) -eq 0 ]] || { echo "demo: needs root (network namespaces, DPDK, raw sockets)" >&2; exit 2; }

WORK=$(mktemp -d /tmp/sluice-demo.XXXXXX)
RESULTS=$WORK/results
SNAP=$WORK/snap
mkdir -p "$RESULTS" "$SNAP"
declare -A PIDS=()
START_S=$(date +%s.%N)
PHASE="start"
IN_USE=(be1 be2 be3) # the backends of the VIPs in the node configs; drill 4 adds be4

say() { printf '[%6.1fs] %s\n' "$(elapsed "$START_S")" "$*"; }
section() { printf '\n== %s\n' "$*"; }
now() { date +%s.%N; }
elapsed() { awk -v a="$(now)" -v b="$1" 'BEGIN { printf "%.3f", a - b }'; } # seconds since an earlier $(now)
since() { printf '%.1f' "$(elapsed "$1")"; }

# --- processes -----------------------------------------------------------------------------------------------

# start NAME NAMESPACE COMMAND...: runs COMMAND in the namespace in the background, output to $WORK/NAME.log.
# ip netns exec and scripts/sluice both exec, so the recorded pid is the process itself.
start() {
    local name=$1 ns=$2
    shift 2
    ip netns exec "$ns" "$@" >>"$WORK/$name.log" 2>&1 &
    PIDS[$name]=$!
}

running() {
    local stat
    stat=$(sed 's/.*) //' "/proc/$1/stat" 2>/dev/null) || return 1
    [[ ${stat%% *} != Z ]]
}

# stop NAME [SIGNAL] [SECONDS]: signals the process, waits for it, SIGKILL after SECONDS.
stop() {
    local name=$1 signal=${2:-TERM} seconds=${3:-10} pid i
    pid=${PIDS[$name]:-}
    [[ -n $pid ]] || return 0
    kill -"$signal" "$pid" 2>/dev/null || true
    for ((i = 0; i < seconds * 10; i++)); do
        running "$pid" || break
        sleep 0.1
    done
    kill -KILL "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
    unset "PIDS[$name]"
}

# Always, also after a failure or Ctrl-C: stop everything, remove the namespaces and files, then print the
# summary of what was measured (and with --json its JSON line, which also says whether anything was left behind).
cleanup() {
    local rc=$? name status
    trap - EXIT INT TERM
    set +e
    # shellcheck disable=SC2086 # a node frozen by the node-freeze drill must run again to stop
    [[ -n ${FROZEN_PIDS:-} ]] && kill -CONT $FROZEN_PIDS 2>/dev/null
    if [[ $PHASE != done ]]; then
        echo "demo: stopped during '$PHASE' (status $rc); logs in $WORK until the summary is printed" >&2
    fi
    say "tearing down"
    for name in "${!PIDS[@]}"; do
        kill -TERM "${PIDS[$name]}" 2>/dev/null
    done
    for name in "${!PIDS[@]}"; do
        stop "$name" TERM 12
    done
    remove_topology
    section "Summary"
    report summary --results "$RESULTS" --elapsed "$(elapsed "$START_S")" --stopped-during "$PHASE" \
        --json-out "$WORK/summary.json"
    report leftovers --summary "$WORK/summary.json" >"$WORK/summary-final.json"
    status=$rc
    if [[ $status -eq 0 ]] && ! jq -e '.all_ok and .no_leftovers' "$WORK/summary-final.json" >/dev/null; then
        status=1
    fi
    [[ $JSON == 1 ]] && jq -c . "$WORK/summary-final.json"
    if [[ ${SLUICE_DEMO_KEEP:-0} == 1 ]]; then
        echo "demo: work directory kept: $WORK" >&2
    else
        rm -rf "$WORK"
    fi
    exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# wait_for SECONDS DESCRIPTION COMMAND...: polls COMMAND every 0.2 s; fails (with the description) after SECONDS.
wait_for() {
    local tries=$(($1 * 5)) what=$2
    shift 2
    until "$@" >/dev/null 2>&1; do
        tries=$((tries - 1))
        if ((tries <= 0)); then
            echo "demo: timed out waiting for $what" >&2
            return 1
        fi
        sleep 0.2
    done
}

# --- observation -----------------------------------------------------------------------------------------------

status_json() { ip netns exec "$(ns_of "$1")" curl -sf --max-time 2 "http://127.0.0.1:9100/status?format=json"; }

# backend_is LB VIP BACKEND FIELD VALUE: the controller's status shows the backend's field with that value.
backend_is() {
    status_json "$1" | jq -e --arg v "$2" --arg b "$3" --arg f "$4" --argjson want "$5" \
        '.vips[] | select(.name == $v) | .backends[] | select(.name == $b) | .[$f] == $want' >/dev/null
}

all_backends_eligible() {
    local lb=$1
    shift
    status_json "$lb" | jq -e --argjson names "$(printf '%s\n' "$@" | jq -R . | jq -s .)" \
        '.forwarder.alive and .forwarder.synchronized and
         ([.vips[].backends[] | select(.name as $n | $names | index($n)) | .eligible] | all) and
         ([.vips[].backends[]] | length) == (.vips | length) * ($names | length)' >/dev/null
}

bgp_configured() { status_json "$1" | jq -e '.bgp.configured and (.bgp.state | test("not configured") | not)' >/dev/null; }

bgp_established() { birdc -s "$WORK/bird.ctl" show protocols "$1" 2>/dev/null | grep -q Established; }

# Next hops of the router's route to the VIP: one line per forwarder address.
route_nexthops() { ip -n "$NS_ROUTER" route show "$VIP/32" 2>/dev/null | grep -o 'via [0-9.]*' | awk '{print $2}' | sort; }
route_has() { [[ $(route_nexthops | wc -l) -eq $1 ]]; }

# The same for the IPv6 VIP's route.
route6_nexthops() { ip -6 -n "$NS_ROUTER" route show "$VIP6/128" 2>/dev/null | grep -o 'via [0-9a-f:]*' | awk '{print $2}' | sort; }
route6_has() { [[ $(route6_nexthops | wc -l) -eq $1 ]]; }

forwarder_running() { forwarder_log_running "$WORK/fwd-$1.log"; }

stats_json() {
    "$SLUICE" stats --dir "$COUNTERS_DIR" --node "$1" --json --interval 0.1 2>/dev/null | tail -n 1 || true
}

sniff_dump() {
    local out=$1 old=0 i
    [[ -f $WORK/sniff.json ]] && old=$(jq .seq "$WORK/sniff.json")
    kill -USR1 "${PIDS[sniff]}"
    for ((i = 0; i < 50; i++)); do
        if [[ -f $WORK/sniff.json && $(jq .seq "$WORK/sniff.json" 2>/dev/null || echo 0) -gt $old ]]; then
            cp "$WORK/sniff.json" "$out"
            return 0
        fi
        sleep 0.1
    done
    echo '{}' >"$out"
}

# snapshot NAME: both forwarders' counters and the router's sniffer, into $SNAP/NAME.*.json.
snapshot() {
    local lb
    sleep 0.3 # the workers flush counters every millisecond; the sniffer reads what is queued
    for lb in "${LB_NAMES[@]}"; do
        stats_json "$lb" >"$SNAP/$1.$lb.json" &
        # The node kernel's IP counters: net_af_packet's fanout defragments before DPDK sees a frame.
        ip netns exec "$(ns_of "$lb")" cat /proc/net/snmp >"$SNAP/$1.$lb.snmp"
    done
    sniff_dump "$SNAP/$1.sniff.json"
    wait_jobs
}

wait_jobs() {
    local job
    for job in $(jobs -p); do
        [[ " ${PIDS[*]} " == *" $job "* ]] || wait "$job" 2>/dev/null || true
    done
}

report() { "$PY" "$DEMO/report.py" "$@"; }

# A drill's result file says "ok": true or false; a miss ends the demo (with its summary) unless --keep-going.
check_result() {
    local drill=$1
    if ! jq -e .ok "$RESULTS/$drill.json" >/dev/null 2>&1; then
        say "MISSED: $drill"
        if [[ $KEEP_GOING == 0 ]]; then
            finish
        fi
    fi
}

# skip_without_bgp DRILL REASON: without BGP routing, records DRILL as skipped for REASON, shows and checks it and
# succeeds (the drill then returns); with BGP it fails and the drill runs.
skip_without_bgp() {
    [[ $ROUTING != bgp ]] || return 1
    jq -n --arg why "$2" '{ok: false, skipped: $why}' >"$RESULTS/$1.json"
    report show --result "$RESULTS/$1.json"
    check_result "$1"
}

finish() {
    PHASE=done
    exit 0
}

# --- set-up ----------------------------------------------------------------------------------------------------

install_missing() {
    # shellcheck source=scripts/lib/packages.sh
    source "$ROOT/scripts/lib/packages.sh"
    install_missing_packages demo "${SLUICE_BUILD_PACKAGES[@]}" "${SLUICE_TOPOLOGY_PACKAGES[@]}"
}

build() {
    make -s -C "$ROOT/native" shim gredecap
    # scripts/sluice builds each jar on first use; build both now, before processes start in parallel.
    "$SLUICE" check-config "$WORK/lb1.yaml" >"$WORK/build.log" 2>&1 ||
        { cat "$WORK/build.log" >&2; return 1; }
    "$SLUICE" status --config "$WORK/lb1.yaml" >>"$WORK/build.log" 2>&1 || true # no controller yet: builds only
    [[ -f $ROOT/controller/target/sluice-controller-all.jar ]] || { cat "$WORK/build.log" >&2; return 1; }
}

start_backend() {
    local be=$1 ns
    ns=$(ns_of "$be")
    start "http-$be" "$ns" "$PY" "$DEMO/backend.py" --name "$be" --port "$VIP_PORT" --flag "$WORK/$be.fail" \
        --ready "$WORK/$be.ready" --max-seconds 1800
    start "decap-$be" "$ns" "$GREDECAP" --tun gre-decap0 --bind "$(be_ip "$be")" --bind "$(be_ip6 "$be")" \
        --stats "$WORK/decap-$be.stats"
}

backend_answers() { ip netns exec "$NS_ROUTER" curl -sf --max-time 1 "http://$(be_ip "$1"):$VIP_PORT/healthz"; }

start_forwarder() { start "fwd-$1" "$(ns_of "$1")" "$SLUICE" forwarder --config "$WORK/$1.yaml"; }

start_controller() { start "ctl-$1" "$(ns_of "$1")" "$SLUICE" controller --config "$WORK/$1.yaml"; }

bring_up() {
    local lb be
    PHASE="set-up"
    section "Set-up"
    say "removing leftovers of earlier runs (namespaces sd-*, $COUNTERS_DIR)"
    remove_topology
    install_missing
    for lb in "${LB_NAMES[@]}"; do
        write_node_config "$lb" "$WORK/$lb.yaml" be1 be2 be3
    done
    say "building (native shim, GRE decapsulator, forwarder and controller jars)"
    build
    say "creating namespaces: $NS_CLIENT, $NS_ROUTER, $(for lb in "${LB_NAMES[@]}"; do printf '%s, ' "$(ns_of "$lb")"; done)$(printf '%s ' "${BE_NAMES[@]/#/sd-}")"
    create_topology
    for be in "${BE_NAMES[@]}"; do
        start_backend "$be"
    done
    start sniff "$NS_ROUTER" "$PY" "$DEMO/sniff.py" --vip "$VIP" --vip6 "$VIP6" --client-if "$ROUTER_CLIENT_IF" \
        $(for lb in "${LB_NAMES[@]}"; do echo "--lb-if $(router_lb_if "$lb")=$lb"; done) \
        $(for be in "${BE_NAMES[@]}"; do echo "--be-if $(router_be_if "$be")=$be"; done) \
        --out "$WORK/sniff.json" --max-seconds 1800
    write_bird_config "$WORK/bird.conf"
    start bird "$NS_ROUTER" bird -f -c "$WORK/bird.conf" -s "$WORK/bird.ctl" -P "$WORK/bird.pid"
    for be in "${BE_NAMES[@]}"; do
        wait_for 15 "backend $be's HTTP server" backend_answers "$be"
        wait_for 5 "backend $be's GRE decapsulator" test -s "$WORK/decap-$be.stats"
    done
    say "backends be1..be4 answer HTTP, GRE decapsulators up (be4 stays out of the VIP until drill 4)"

    # One at a time: scripts/sluice rebuilds a jar whose sources changed, and two rebuilds at once would clash.
    for lb in "${LB_NAMES[@]}"; do
        start_forwarder "$lb"
        wait_for 120 "forwarder $lb" forwarder_running "$lb"
    done
    say "forwarders lb1 (core 0) and lb2 (core 1) running on net_af_packet"
    for lb in "${LB_NAMES[@]}"; do
        start_controller "$lb"
        wait_for 120 "controller $lb to serve its status" status_json "$lb"
    done
    for lb in "${LB_NAMES[@]}"; do
        wait_for 90 "controller $lb: forwarder synchronized and be1..be3 healthy" all_backends_eligible "$lb" be1 be2 be3
    done
    say "controllers: forwarders alive and synchronized, be1..be3 healthy on both nodes"

    ROUTING=bgp
    if ! bgp_configured lb1; then
        ROUTING=static
        say "NOTE: the controller does not speak BGP yet: static ECMP route instead (the forwarder-failure drill needs BGP)"
        ip -n "$NS_ROUTER" route add "$VIP/32" $(for lb in "${LB_NAMES[@]}"; do
            echo "nexthop via $(lb_ip "$lb") dev $(router_lb_if "$lb")"; done)
    else
        for lb in "${LB_NAMES[@]}"; do
            wait_for 60 "BGP session router-$lb established" bgp_established "$lb"
        done
        say "BGP: BIRD established with lb1 and lb2"
    fi
    wait_for 60 "the router's multipath route to $VIP via both forwarders" route_has 2
    say "router: $VIP via $(route_nexthops | tr '\n' ' ')(ECMP, hash policy L4)"
    jq -n --arg routing "$ROUTING" --arg route "$(ip -n "$NS_ROUTER" route show "$VIP/32")" \
        --arg bird "$(birdc -s "$WORK/bird.ctl" show protocols 2>/dev/null || true)" \
        --argjson setup_s "$(elapsed "$START_S")" \
        '{ok: true, routing: $routing, route: $route, bird_protocols: $bird, setup_s: $setup_s}' \
        >"$RESULTS/00-setup.json"
}

# The IPv6 half of the set-up (after bring_up): backends answer over IPv6, each node's IPv6 session is up and
# the router's IPv6 route to the IPv6 VIP has both forwarders as next hops.
backend_answers6() { ip netns exec "$NS_ROUTER" curl -sf --max-time 1 "http://[$(be_ip6 "$1")]:$VIP_PORT/healthz"; }

bring_up_v6() {
    local lb be
    PHASE="set-up IPv6"
    for be in "${BE_NAMES[@]}"; do
        wait_for 15 "backend $be's HTTP server over IPv6" backend_answers6 "$be"
    done
    if [[ $ROUTING == bgp ]]; then
        for lb in "${LB_NAMES[@]}"; do
            wait_for 60 "IPv6 BGP session router-$lb established" bgp_established "${lb}_v6"
        done
        say "BGP: BIRD established with lb1 and lb2 over IPv6 too (one session per family)"
    else
        ip -6 -n "$NS_ROUTER" route add "$VIP6/128" $(for lb in "${LB_NAMES[@]}"; do
            echo "nexthop via $(lb_ip6 "$lb") dev $(router_lb_if "$lb")"; done)
    fi
    wait_for 60 "the router's IPv6 multipath route to $VIP6 via both forwarders" route6_has 2
    say "router: $VIP6 via $(route6_nexthops | tr '\n' ' ')(IPv6 ECMP, hash policy L4)"
    jq -n --arg route "$(ip -6 -n "$NS_ROUTER" route show "$VIP6/128")" '{ok: true, route: $route}' \
        >"$RESULTS/00-setup-v6.json"
}

# --- phases ------------------------------------------------------------------------------------------------------

client() { ip netns exec "$NS_CLIENT" "$PY" "$DEMO/client.py" "$@"; }

# hold_start NAME ARGS...: long-lived connections in the background; returns once each has its first answer.
hold_start() {
    local name=$1
    shift
    rm -f "$WORK/$name.stop" "$WORK/$name.ready"
    start "$name" "$NS_CLIENT" "$PY" "$DEMO/client.py" hold --vip "$VIP" --ready "$WORK/$name.ready" \
        --stop-file "$WORK/$name.stop" --out "$WORK/$name.json" --max-seconds 150 "$@"
    wait_for 60 "$name: long-lived connections open" test -e "$WORK/$name.ready"
}

# stream_start NAME: new connections at 20 per second in the background until stopped.
stream_start() {
    rm -f "$WORK/$1.stop"
    start "$1" "$NS_CLIENT" "$PY" "$DEMO/client.py" requests --vip "$VIP" --rate 20 --concurrency 4 \
        --stop-file "$WORK/$1.stop" --out "$WORK/$1.json" --max-seconds 120
}

# client_stop NAME: asks a hold or stream client to end, waits for its result file.
client_stop() {
    touch "$WORK/$1.stop"
    wait_for 40 "$1 to finish" test -e "$WORK/$1.json"
    stop "$1"
}

phase_traffic() {
    PHASE=traffic
    section "Traffic: 600 HTTP requests from $NS_CLIENT to $VIP:$VIP_PORT, each on a new connection"
    kill -USR2 "${PIDS[sniff]}" # the sniffer forgets flows seen so far
    snapshot traffic-before
    client requests --vip "$VIP" --count 600 --concurrency 6 --out "$WORK/traffic.json" --max-seconds 120
    snapshot traffic-after
    report traffic --client "$WORK/traffic.json" --before "$SNAP/traffic-before" --after "$SNAP/traffic-after" \
        --route "$(ip -n "$NS_ROUTER" route show "$VIP/32")" --result "$RESULTS/01-traffic.json"
    check_result 01-traffic
}

# decap_snapshot FILE: each backend's sluice_gredecap counters, one line "NAME key=value ...". The stats files are
# rewritten every second: wait that long after traffic before the snapshot.
decap_snapshot() {
    local be
    for be in "${BE_NAMES[@]}"; do
        echo "$be $(cat "$WORK/decap-$be.stats" 2>/dev/null)"
    done >"$1"
}

# The traffic step again for the IPv6 VIP: GRE over IPv6 to the backends' IPv6 addresses, DSR replies.
phase_traffic_v6() {
    PHASE="traffic IPv6"
    section "Traffic IPv6: 600 HTTP requests from $NS_CLIENT to [$VIP6]:$VIP_PORT, each on a new connection"
    kill -USR2 "${PIDS[sniff]}"
    sleep 1.2
    decap_snapshot "$SNAP/traffic6-before.decap"
    snapshot traffic6-before
    client requests --vip "$VIP6" --count 600 --concurrency 6 --out "$WORK/traffic6.json" --max-seconds 120
    snapshot traffic6-after
    sleep 1.2
    decap_snapshot "$SNAP/traffic6-after.decap"
    report traffic --family 6 --client "$WORK/traffic6.json" --before "$SNAP/traffic6-before" \
        --after "$SNAP/traffic6-after" --route "$(ip -6 -n "$NS_ROUTER" route show "$VIP6/128")" \
        --decap-before "$SNAP/traffic6-before.decap" --decap-after "$SNAP/traffic6-after.decap" \
        --result "$RESULTS/01-traffic-v6.json"
    check_result 01-traffic-v6
}

# Malformed frames from the router into both forwarders, in the background during drills 1 and 2.
bad_input_start() {
    snapshot bad-before
    rm -f "$WORK/badframes.stop"
    start badframes "$NS_ROUTER" "$PY" "$DEMO/badframes.py" --vip "$VIP" --udp-port "$PROBE_PORT" \
        $(for lb in "${LB_NAMES[@]}"; do echo "--target $(router_lb_if "$lb"),$(lb_mac "$lb"),$(router_lb_mac "$lb"),$lb"; done) \
        --rounds 450 --stop-file "$WORK/badframes.stop" --out "$WORK/badframes.json" --max-seconds 60
    say "malformed frames: sending into both forwarders while drills 1 and 2 run"
}

bad_input_finish() {
    PHASE="bad input"
    wait_for 70 "the malformed-frame sender to finish" test -e "$WORK/badframes.json"
    stop badframes
    sleep 1
    snapshot bad-after
    section "Bad input on the wire"
    client requests --vip "$VIP" --count 30 --concurrency 3 --out "$WORK/bad-serving.json" --max-seconds 30
    report bad-input --sent "$WORK/badframes.json" --before "$SNAP/bad-before" --after "$SNAP/bad-after" \
        --serving "$WORK/bad-serving.json" --result "$RESULTS/07-bad-input.json"
    check_result 07-bad-input
}

drill_backend_failure() {
    PHASE="drill 1"
    section "Drill 1: backend be2's health check starts failing (interval 1s x fall 2)"
    hold_start hold1 --connections 18
    stream_start stream1
    sleep 2
    local t0 lb
    t0=$(now)
    touch "$WORK/be2.fail"
    say "be2 /healthz answers 503 from now on"
    for lb in "${LB_NAMES[@]}"; do
        wait_for 15 "$lb to take be2 out" backend_is "$lb" web be2 eligible false
        echo "$lb $(since "$t0")" >>"$WORK/drill1-down.txt"
    done
    say "both controllers took be2 out of the Maglev tables"
    sleep 4
    client_stop stream1
    client_stop hold1
    rm -f "$WORK/be2.fail"
    say "be2 healthy again; waiting for rise (2 checks)"
    for lb in "${LB_NAMES[@]}"; do
        wait_for 20 "$lb to take be2 back" backend_is "$lb" web be2 eligible true
    done
    report backend-failure --backend be2 --event "$t0" --deadline-s 3 --stream "$WORK/stream1.json" \
        --hold "$WORK/hold1.json" --down "$WORK/drill1-down.txt" --result "$RESULTS/02-backend-failure.json"
    check_result 02-backend-failure
}

drill_drain() {
    PHASE="drill 2"
    section "Drill 2: scripts/sluice drain web be3 (on both controllers)"
    hold_start hold2 --connections 12 --require-backend be3
    stream_start stream2
    sleep 1
    local t0 lb
    for lb in "${LB_NAMES[@]}"; do
        ip netns exec "$(ns_of "$lb")" "$SLUICE" drain --config "$WORK/$lb.yaml" web be3 >>"$WORK/drain.log" 2>&1 &
    done
    wait_jobs
    t0=$(now)
    for lb in "${LB_NAMES[@]}"; do
        wait_for 10 "$lb to show be3 drained" backend_is "$lb" web be3 drained true
    done
    say "be3 drained on both nodes: weight 0, established flows stay"
    sleep 4
    client_stop stream2
    client_stop hold2
    for lb in "${LB_NAMES[@]}"; do
        ip netns exec "$(ns_of "$lb")" "$SLUICE" undrain --config "$WORK/$lb.yaml" web be3 >>"$WORK/drain.log" 2>&1 &
    done
    wait_jobs
    for lb in "${LB_NAMES[@]}"; do
        wait_for 10 "$lb to show be3 undrained" backend_is "$lb" web be3 drained false
    done
    report drain --backend be3 --event "$t0" --stream "$WORK/stream2.json" --hold "$WORK/hold2.json" \
        --result "$RESULTS/03-drain.json"
    check_result 03-drain
}

drill_forwarder_failure() {
    PHASE="drill 3"
    section "Drill 3: forwarder lb1 killed (SIGKILL) under 48 long-lived connections"
    if [[ $ROUTING != bgp ]]; then
        jq -n '{ok: false, skipped: "the controller does not speak BGP yet: nothing would withdraw the VIP"}' \
            >"$RESULTS/04-forwarder-failure.json"
        report show --result "$RESULTS/04-forwarder-failure.json"
        check_result 04-forwarder-failure
        return
    fi
    kill -USR2 "${PIDS[sniff]}" # forget earlier flows
    hold_start hold3 --connections 48
    sleep 1.5
    sniff_dump "$SNAP/drill3-before.sniff.json"
    local t0 t_withdrawn t_restart t_back
    t0=$(now)
    stop fwd-lb1 KILL 5
    say "lb1's forwarder killed"
    wait_for 30 "the router to drop lb1 from the VIP's route" route_has 1
    t_withdrawn=$(now)
    say "router: $VIP via $(route_nexthops | tr '\n' ' ')$(since "$t0") s after the kill"
    sleep 4
    t_restart=$(now)
    start_forwarder lb1
    wait_for 90 "forwarder lb1 to run again" forwarder_running lb1
    wait_for 60 "lb1 to announce the VIP again" route_has 2
    t_back=$(now)
    say "forwarder lb1 restarted; router back to two next hops $(since "$t_restart") s after the restart"
    sleep 4
    client_stop hold3
    sniff_dump "$SNAP/drill3-after.sniff.json"
    report forwarder-failure --hold "$WORK/hold3.json" --before "$SNAP/drill3-before.sniff.json" \
        --after "$SNAP/drill3-after.sniff.json" --killed lb1 --withdrawn-s "$(awk -v a="$t_withdrawn" -v b="$t0" 'BEGIN { print a - b }')" \
        --back-s "$(awk -v a="$t_back" -v b="$t_restart" 'BEGIN { print a - b }')" --result "$RESULTS/04-forwarder-failure.json"
    check_result 04-forwarder-failure
}

# Drill 3 again for the IPv6 VIP: lb1's forwarder killed under long-lived IPv6 connections; the controller
# withdraws the IPv6 route too, the router moves lb1's flows to lb2, every connection keeps its backend.
drill_forwarder_failure_v6() {
    PHASE="drill 3 IPv6"
    section "Drill 3, IPv6: forwarder lb1 killed (SIGKILL) under 48 long-lived connections to [$VIP6]:$VIP_PORT"
    if skip_without_bgp 04-forwarder-failure-v6 "no BGP: nothing would withdraw the IPv6 VIP"; then return; fi
    kill -USR2 "${PIDS[sniff]}"
    hold_start hold3v6 --connections 48 --vip "$VIP6"
    sleep 1.5
    sniff_dump "$SNAP/drill3v6-before.sniff.json"
    local t0 t_withdrawn t_restart t_back
    t0=$(now)
    stop fwd-lb1 KILL 5
    say "lb1's forwarder killed"
    wait_for 30 "the router to drop lb1 from the IPv6 VIP's route" route6_has 1
    t_withdrawn=$(now)
    say "router: $VIP6 via $(route6_nexthops | tr '\n' ' ')$(since "$t0") s after the kill"
    sleep 4
    t_restart=$(now)
    start_forwarder lb1
    wait_for 90 "forwarder lb1 to run again" forwarder_running lb1
    wait_for 60 "lb1 to announce the IPv6 VIP again" route6_has 2
    t_back=$(now)
    wait_for 60 "lb1 to announce the IPv4 VIP again" route_has 2
    say "forwarder lb1 restarted; IPv6 route back to two next hops $(since "$t_restart") s after the restart"
    sleep 4
    client_stop hold3v6
    sniff_dump "$SNAP/drill3v6-after.sniff.json"
    report forwarder-failure --family 6 --hold "$WORK/hold3v6.json" --before "$SNAP/drill3v6-before.sniff.json" \
        --after "$SNAP/drill3v6-after.sniff.json" --killed lb1 \
        --withdrawn-s "$(awk -v a="$t_withdrawn" -v b="$t0" 'BEGIN { print a - b }')" \
        --back-s "$(awk -v a="$t_back" -v b="$t_restart" 'BEGIN { print a - b }')" \
        --result "$RESULTS/04-forwarder-failure-v6.json"
    check_result 04-forwarder-failure-v6
}

drill_backend_added() {
    PHASE="drill 4"
    section "Drill 4: backend be4 added (scripts/sluice reload on both controllers)"
    if ! "$SLUICE" help 2>/dev/null | grep -q '^  reload'; then
        jq -n '{ok: false, skipped: "scripts/sluice reload does not exist yet"}' >"$RESULTS/05-backend-added.json"
        report show --result "$RESULTS/05-backend-added.json"
        check_result 05-backend-added
        return
    fi
    client probe --vip "$VIP" --ports 41000-41399 --concurrency 8 --out "$WORK/probe-before.json"
    local probed lb
    probed=$(now)
    hold_start hold4 --connections 24
    for lb in "${LB_NAMES[@]}"; do
        write_node_config "$lb" "$WORK/$lb.yaml" "${IN_USE[@]}" be4
        ip netns exec "$(ns_of "$lb")" "$SLUICE" reload --config "$WORK/$lb.yaml" >>"$WORK/reload.log" 2>&1 &
    done
    wait_jobs
    IN_USE+=(be4)
    for lb in "${LB_NAMES[@]}"; do
        wait_for 20 "$lb to bring be4 up" backend_is "$lb" web be4 eligible true
    done
    say "be4 up on both nodes (after its rise checks)"
    # The probe's own connection entries must have expired (tcp_idle_timeout 4s) so its 5-tuples are new flows.
    while awk -v e="$(elapsed "$probed")" 'BEGIN { exit !(e < 5) }'; do sleep 0.2; done
    client probe --vip "$VIP" --ports 41000-41399 --concurrency 8 --out "$WORK/probe-after.json"
    sleep 1
    client_stop hold4
    report backend-added --added be4 --backends 4 --before "$WORK/probe-before.json" \
        --after "$WORK/probe-after.json" --hold "$WORK/hold4.json" --result "$RESULTS/05-backend-added.json"
    check_result 05-backend-added
}

drill_controller_restart() {
    PHASE="drill 5"
    section "Drill 5: controller lb1 restarted (SIGUSR2: exit for a restart, then a new controller)"
    hold_start hold5 --connections 24
    snapshot drill5-before
    # Watch the route every 100 ms while the controller is away (bounded: 600 samples).
    (for ((i = 0; i < 600; i++)); do
        [[ -e $WORK/routewatch.stop ]] && break
        echo "$(route_nexthops | wc -l)"
        sleep 0.1
    done) >"$WORK/routewatch.txt" &
    local watcher=$! t0 t_adopted
    t0=$(now)
    # SIGUSR2: the controller exits for a restart and leaves ExaBGP (and so the announcement) running; a new
    # controller adopts both the forwarder and ExaBGP.
    stop ctl-lb1 USR2 15
    say "controller lb1 exited for a restart; forwarder lb1 and ExaBGP keep running"
    sleep 1
    start_controller lb1
    wait_for 60 "the new controller lb1 to see its forwarder and healthy backends" \
        all_backends_eligible lb1 "${IN_USE[@]}"
    t_adopted=$(now)
    say "controller lb1 back after $(since "$t0") s"
    sleep 3
    touch "$WORK/routewatch.stop"
    wait "$watcher" || true
    client_stop hold5
    snapshot drill5-after
    status_json lb1 >"$WORK/drill5-status.json" || echo '{}' >"$WORK/drill5-status.json"
    report controller-restart --hold "$WORK/hold5.json" --routes "$WORK/routewatch.txt" \
        --before "$SNAP/drill5-before" --after "$SNAP/drill5-after" --node lb1 --status "$WORK/drill5-status.json" \
        --log "$WORK/ctl-lb1.log" --back-s "$(awk -v a="$t_adopted" -v b="$t0" 'BEGIN { print a - b }')" --routing "$ROUTING" \
        --result "$RESULTS/06-controller-restart.json"
    check_result 06-controller-restart
}

# --- chaos drills (issue 18): BGP speakers killed and restarted, a forwarder resynchronized -------------------

# route_watch_start NAME [SAMPLES]: samples the number of next hops of the router's route to the VIP every 100 ms
# into $WORK/NAME.txt ("seconds-since-start next-hops" per line) until $WORK/NAME.stop exists (bounded: SAMPLES,
# default 1200).
route_watch_start() {
    local name=$1 samples=${2:-1200} t0
    t0=$(now)
    rm -f "$WORK/$name.stop"
    (for ((i = 0; i < samples; i++)); do
        [[ -e $WORK/$name.stop ]] && break
        echo "$(elapsed "$t0") $(route_nexthops | wc -l)"
        sleep 0.1
    done) >"$WORK/$name.txt" &
    ROUTE_WATCHER=$!
}

route_watch_stop() {
    touch "$WORK/$1.stop"
    wait "$ROUTE_WATCHER" 2>/dev/null || true
}

exabgp_pid() { cat "$COUNTERS_DIR/$1/exabgp.pid" 2>/dev/null; }

# exabgp_replaced LB OLD-PID: a new ExaBGP (another pid, alive) runs for the node.
exabgp_replaced() {
    local pid
    pid=$(exabgp_pid "$1") || return 1
    [[ -n $pid && $pid != "$2" ]] && running "$pid"
}

drill_exabgp_kill() {
    PHASE="exabgp kill"
    section "Drill 6: lb1's ExaBGP killed (SIGKILL) 3 times in a row under 24 long-lived connections"
    if skip_without_bgp 21-exabgp-kill "no BGP: the controller does not speak BGP yet"; then return; fi
    hold_start hold6 --connections 24
    route_watch_start routewatch6
    local kill pid t0 t_back log_from
    log_from=$(wc -l <"$WORK/ctl-lb1.log")
    : >"$WORK/drill6-kills.txt"
    for kill in 1 2 3; do
        pid=$(exabgp_pid lb1)
        t0=$(now)
        kill -KILL "$pid"
        wait_for 60 "lb1's controller to restart ExaBGP (kill $kill)" exabgp_replaced lb1 "$pid"
        wait_for 60 "the router's route via lb1 back (kill $kill)" route_has 2
        t_back=$(now)
        say "kill $kill: ExaBGP pid $pid killed; new ExaBGP pid $(exabgp_pid lb1), route via lb1 back after $(since "$t0") s"
        echo "$kill $pid $(exabgp_pid lb1) $(awk -v a="$t_back" -v b="$t0" 'BEGIN { print a - b }')" >>"$WORK/drill6-kills.txt"
        sleep 0.5
    done
    sleep 2
    route_watch_stop routewatch6
    client_stop hold6
    tail -n +"$((log_from + 1))" "$WORK/ctl-lb1.log" >"$WORK/drill6-ctl.log"
    report exabgp-kill --hold "$WORK/hold6.json" --kills "$WORK/drill6-kills.txt" --routes "$WORK/routewatch6.txt" \
        --log "$WORK/drill6-ctl.log" --result "$RESULTS/21-exabgp-kill.json"
    check_result 21-exabgp-kill
}

drill_bird_restart() {
    PHASE="bird restart"
    section "Drill 7: the router's BGP daemon (BIRD) restarted under 24 long-lived connections"
    if skip_without_bgp 22-bird-restart "no BGP: the controller does not speak BGP yet"; then return; fi
    hold_start hold7 --connections 24
    route_watch_start routewatch7
    local t0 t_started t_back lb
    sleep 1
    t0=$(now)
    stop bird TERM 10
    say "BIRD stopped (SIGTERM: it closes its sessions and removes its routes from the router's kernel)"
    start bird "$NS_ROUTER" bird -f -c "$WORK/bird.conf" -s "$WORK/bird.ctl" -P "$WORK/bird.pid"
    t_started=$(now)
    for lb in "${LB_NAMES[@]}"; do
        wait_for 60 "BGP session router-$lb established again" bgp_established "$lb"
    done
    wait_for 60 "the router's multipath route back" route_has 2
    t_back=$(now)
    say "BIRD restarted; both sessions established and the route via both forwarders back $(since "$t_started") s after its start"
    sleep 3
    route_watch_stop routewatch7
    client_stop hold7
    report bird-restart --hold "$WORK/hold7.json" --routes "$WORK/routewatch7.txt" \
        --stopped-s "$(awk -v a="$t_started" -v b="$t0" 'BEGIN { print a - b }')" \
        --back-s "$(awk -v a="$t_back" -v b="$t_started" 'BEGIN { print a - b }')" --result "$RESULTS/22-bird-restart.json"
    check_result 22-bird-restart
}

# resync_sample LB: one line "route-next-hops-via-LB synchronized announced alive route-ms status-ms": the route
# is read first (at route-ms), then the controller's status (a snapshot taken at status-ms, at most 250 ms old). A
# route through LB with a status taken after it that says "not synchronized" means the VIP was announced before
# the forwarder confirmed the state.
resync_sample() {
    local hops status route_ms
    route_ms=$(date +%s%3N)
    hops=$(route_nexthops | grep -cx "$(lb_ip "$1")" || true)
    status=$(status_json "$1" 2>/dev/null || echo '{}')
    status=$(jq -r '[.forwarder.synchronized, ([.vips[] | select(.name == "web") | .announced][0]),
                      .forwarder.alive, (.time_ms // 0)] | map(tostring) | join(" ")' <<<"$status" 2>/dev/null ||
        echo "false false false 0")
    echo "$hops ${status% *} $route_ms ${status##* }"
}

drill_forwarder_resync() {
    PHASE="forwarder resync"
    section "Drill 8: forwarder lb2 killed and restarted while its controller runs (be3 drained: state to resend)"
    if skip_without_bgp 23-forwarder-resync "no BGP: nothing withdraws or announces the VIP"; then return; fi
    local lb t0 t_start t_back old_pid log_from i
    # An operator's drain on both nodes: state the restarted forwarder (which starts from its config, be3 weight 1)
    # does not have until the controller resends it.
    for lb in "${LB_NAMES[@]}"; do
        ip netns exec "$(ns_of "$lb")" "$SLUICE" drain --config "$WORK/$lb.yaml" web be3 >>"$WORK/drain.log" 2>&1 &
    done
    wait_jobs
    for lb in "${LB_NAMES[@]}"; do
        wait_for 10 "$lb to show be3 drained" backend_is "$lb" web be3 drained true
    done
    hold_start hold8 --connections 24
    log_from=$(wc -l <"$WORK/ctl-lb2.log")
    old_pid=${PIDS[fwd-lb2]}
    t0=$(now)
    stop fwd-lb2 KILL 5
    wait_for 30 "the router to drop lb2 from the VIP's route" route_has 1
    say "lb2's forwarder killed; router: $VIP via $(route_nexthops | tr '\n' ' ')"
    # What the dead forwarder left: its counters file (still naming it) and its control file.
    ls -l "$COUNTERS_DIR/lb2" >"$WORK/drill8-left.txt" 2>&1 || true
    stats_json lb2 >"$WORK/drill8-stats-dead.json"
    : >"$WORK/drill8-samples.txt"
    t_start=$(now)
    start_forwarder lb2
    for ((i = 0; i < 900; i++)); do # every ~0.1 s until the route via lb2 is back, at most about 90 s
        resync_sample lb2 >>"$WORK/drill8-samples.txt"
        [[ $(tail -n 1 "$WORK/drill8-samples.txt" | cut -d' ' -f1) == 1 ]] && break
        sleep 0.1
    done
    t_back=$(now)
    route_has 2 || { echo "demo: the route via lb2 did not come back" >&2; }
    say "forwarder lb2 restarted; route via lb2 back $(since "$t_start") s after its start"
    stats_json lb2 >"$WORK/drill8-stats-new.json"
    ip netns exec "$(ns_of lb2)" "$SLUICE" control --dir "$COUNTERS_DIR" --node lb2 state --json \
        >"$WORK/drill8-state.json" 2>>"$WORK/drill8-state.err" || echo '{}' >"$WORK/drill8-state.json"
    sleep 3
    client_stop hold8
    tail -n +"$((log_from + 1))" "$WORK/ctl-lb2.log" >"$WORK/drill8-ctl.log"
    for lb in "${LB_NAMES[@]}"; do
        ip netns exec "$(ns_of "$lb")" "$SLUICE" undrain --config "$WORK/$lb.yaml" web be3 >>"$WORK/drain.log" 2>&1 &
    done
    wait_jobs
    for lb in "${LB_NAMES[@]}"; do
        wait_for 10 "$lb to show be3 undrained" backend_is "$lb" web be3 drained false
    done
    report forwarder-resync --hold "$WORK/hold8.json" --samples "$WORK/drill8-samples.txt" --log "$WORK/drill8-ctl.log" \
        --state "$WORK/drill8-state.json" --drained "$(be_ip be3)" --old-pid "$old_pid" --new-pid "${PIDS[fwd-lb2]}" \
        --stats-dead "$WORK/drill8-stats-dead.json" --stats-new "$WORK/drill8-stats-new.json" \
        --left "$WORK/drill8-left.txt" --back-s "$(awk -v a="$t_back" -v b="$t_start" 'BEGIN { print a - b }')" \
        --result "$RESULTS/23-forwarder-resync.json"
    check_result 23-forwarder-resync
}

state_version() { jq -r '.process.forwarding_state_version // -1' "$1" 2>/dev/null || echo -1; }

# flap_checks LB on|off: the web VIP's health check for the flap drill, applied with `sluice reload`. The demo's
# checks run every 1 s: a backend toggled every 500 ms is a square wave of period 1 s, so each check lands in the
# same phase and sees no flap at all. For the drill the web VIP checks every 250 ms (about 2 checks per half
# period, rise and fall 2 as before; a timeout of 240 ms, as long as the interval allows: shorter ones failed the
# healthy backends' checks on this loaded 2-core machine), then the file goes back as it was. The other VIPs with
# be2 (web6, probe-udp) check "/" meanwhile, which the flag file does not fail: their 1 s checks drift against the
# toggling (the 40 toggles take 23 s, not 20) and saw some of it, so the forwarder's state versions, which the drill
# bounds, counted their changes too (a clean-clone run, 2026-12-07: +13 on lb1 for 6 changes of web).
flap_checks() {
    local lb=$1 file=$WORK/$1.yaml
    if [[ $2 == on ]]; then
        cp "$file" "$WORK/$lb.yaml.before-flap"
        awk '/^  - name: / { vip = $3 }
             vip != "web" && /^    health_check: \{port: [0-9]+\}$/ { sub(/\}$/, ", path: /}") }
             { print }
             vip == "web" && /^    protocol: tcp$/ { print "    health_check: {interval: 250ms, timeout: 240ms}" }
             vip == "web6" && /^    protocol: tcp$/ { print "    health_check: {path: /}" }' \
            "$WORK/$lb.yaml.before-flap" >"$file"
        grep -q "interval: 250ms" "$file" || { echo "demo: no web VIP in $file for the flap checks" >&2; return 1; }
        [[ $(grep -c "path: /}" "$file") == 2 ]] ||
            { echo "demo: web6 and probe-udp in $file not both moved to path /" >&2; return 1; }
    else
        cp "$WORK/$lb.yaml.before-flap" "$file"
    fi
    ip netns exec "$(ns_of "$lb")" "$SLUICE" reload --config "$file" >>"$WORK/reload.log" 2>&1
}

# flap_sample LB: one line "LB ms fingerprints healthy held_down flaps eligible": every VIP's Maglev fingerprint
# (VIP_MAGLEV_FINGERPRINT, from the controller's /metrics: label=value;...) and be2's state in VIP web (status).
flap_sample() {
    local lb=$1 ns ms fps st
    ns=$(ns_of "$lb")
    ms=$(date +%s%3N)
    fps=$(ip netns exec "$ns" curl -sf --max-time 1 "http://127.0.0.1:9100/metrics" 2>/dev/null |
        awk '/^sluice_vip_maglev_fingerprint\{/ { sub(/^sluice_vip_maglev_fingerprint/, ""); printf "%s=%s;", $1, $2 }')
    st=$(status_json "$lb" 2>/dev/null | jq -r '.vips[] | select(.name == "web") | .backends[] |
        select(.name == "be2") | "\(.healthy) \(.held_down) \(.flaps) \(.eligible)"' 2>/dev/null || true)
    echo "$lb $ms ${fps:-none} ${st:-none none none none}"
}

# flap_sampler STOP OUT: both nodes' samples every 250 ms until the STOP file exists (bounded: at most 120 s).
flap_sampler() {
    local stop=$1 out=$2 i lb
    for ((i = 0; i < 480; i++)); do
        [[ -e $stop ]] && break
        for lb in "${LB_NAMES[@]}"; do
            flap_sample "$lb" >>"$out"
        done
        sleep 0.25
    done
}

drill_backend_flap() {
    PHASE="backend flap"
    section "Drill 9: backend be2 flapping (its /healthz toggled every 500 ms for 20 s) under 24 long-lived connections"
    local lb i toggles=0 log_from=() t_flap t_end
    for lb in "${LB_NAMES[@]}"; do
        flap_checks "$lb" on
    done
    for lb in "${LB_NAMES[@]}"; do
        wait_for 10 "$lb to check be2 every 250 ms" backend_is "$lb" web be2 eligible true
    done
    sleep 1 # a few 250 ms checks of every backend before the flapping
    say "web VIP's checks every 250 ms (rise 2, fall 2) on both nodes, reloaded: they can see a 500 ms flap"
    hold_start hold9 --connections 24
    for lb in "${LB_NAMES[@]}"; do
        stats_json "$lb" >"$WORK/drill9-before.$lb.json"
        log_from+=("$(wc -l <"$WORK/ctl-$lb.log")")
    done
    rm -f "$WORK/drill9.stop"
    : >"$WORK/drill9-samples.txt"
    flap_sampler "$WORK/drill9.stop" "$WORK/drill9-samples.txt" &
    PIDS[flap-sampler]=$!
    t_flap=$(date +%s%3N)
    for ((i = 0; i < 40; i++)); do
        if [[ -e $WORK/be2.fail ]]; then rm -f "$WORK/be2.fail"; else touch "$WORK/be2.fail"; fi
        toggles=$((toggles + 1))
        sleep 0.5
    done
    rm -f "$WORK/be2.fail"
    t_end=$(date +%s%3N)
    say "be2 flapped $toggles times; healthy again from now on (flap damping may still hold it down)"
    sleep 3 # samples after the flapping: a hold-down outlasts it
    for lb in "${LB_NAMES[@]}"; do
        stats_json "$lb" >"$WORK/drill9-after.$lb.json"
    done
    touch "$WORK/drill9.stop"
    wait "${PIDS[flap-sampler]}" 2>/dev/null || true
    unset "PIDS[flap-sampler]"
    for lb in "${LB_NAMES[@]}"; do
        flap_checks "$lb" off
    done
    for lb in "${LB_NAMES[@]}"; do
        wait_for 40 "$lb to take be2 back (after any hold-down)" backend_is "$lb" web be2 eligible true
    done
    client_stop hold9
    local index=0
    : >"$WORK/drill9-nodes.txt"
    for lb in "${LB_NAMES[@]}"; do
        tail -n +"$((log_from[index] + 1))" "$WORK/ctl-$lb.log" >"$WORK/drill9-ctl.$lb.log"
        echo "$lb $(state_version "$WORK/drill9-before.$lb.json") $(state_version "$WORK/drill9-after.$lb.json") $WORK/drill9-ctl.$lb.log" \
            >>"$WORK/drill9-nodes.txt"
        index=$((index + 1))
    done
    report backend-flap --backend be2 --toggles "$toggles" --nodes "$WORK/drill9-nodes.txt" --hold "$WORK/hold9.json" \
        --samples "$WORK/drill9-samples.txt" --window "$t_flap $t_end" --result "$RESULTS/24-backend-flap.json"
    check_result 24-backend-flap
}

# forwarder_started_after LB N: the forwarder's log shows more than N starts.
forwarder_started_after() { (($(forwarder_log_starts "$WORK/fwd-$1.log") > $2)); }

# Drill 10, the rolling upgrade of docs/operations.md: each node in turn is taken out (its controller stopped with
# SIGTERM: withdraw, drain_time, ExaBGP stopped), its forwarder restarted, its controller started again; the next
# node goes only once this one announces the VIP again. Long-lived connections must all survive on their backend.
drill_rolling_restart() {
    PHASE="drill 10"
    section "Drill 10: rolling restart: each node's controller and forwarder restarted, one node after the other"
    if skip_without_bgp 08-rolling-restart "no BGP: nothing would withdraw a node before its restart"; then return; fi
    hold_start hold10 --connections 32
    route_watch_start rollwatch 1400
    local lb t0 t_out t_back old_fwd old_ctl runs
    : >"$WORK/rolling-nodes.txt"
    for lb in "${LB_NAMES[@]}"; do
        t0=$(now)
        old_fwd=${PIDS[fwd-$lb]} old_ctl=${PIDS[ctl-$lb]}
        stop "ctl-$lb" TERM 30
        wait_for 30 "the router to drop $lb from the VIP's route" route_has 1
        t_out=$(now)
        say "$lb out of service (controller withdrew the VIP, waited drain_time, stopped ExaBGP) after $(since "$t0") s"
        runs=$(forwarder_log_starts "$WORK/fwd-$lb.log")
        stop "fwd-$lb" TERM 30
        start_forwarder "$lb"
        wait_for 90 "forwarder $lb to run again" forwarder_started_after "$lb" "$runs"
        start_controller "$lb"
        wait_for 90 "controller $lb to see its forwarder and healthy backends" all_backends_eligible "$lb" "${IN_USE[@]}"
        wait_for 60 "$lb to announce the VIP again" route_has 2
        t_back=$(now)
        say "$lb back in the route $(since "$t_out") s after it left (forwarder pid $old_fwd -> ${PIDS[fwd-$lb]}," \
            "controller pid $old_ctl -> ${PIDS[ctl-$lb]})"
        echo "$lb $(awk -v a="$t_out" -v b="$t0" 'BEGIN { print a - b }') $(awk -v a="$t_back" -v b="$t_out" \
            'BEGIN { print a - b }') $old_fwd ${PIDS[fwd-$lb]} $old_ctl ${PIDS[ctl-$lb]}" >>"$WORK/rolling-nodes.txt"
        sleep 2
    done
    route_watch_stop rollwatch
    client_stop hold10
    report rolling-restart --hold "$WORK/hold10.json" --routes "$WORK/rollwatch.txt" --nodes "$WORK/rolling-nodes.txt" \
        --result "$RESULTS/08-rolling-restart.json"
    check_result 08-rolling-restart
}

# --- node freeze (issue 15): a node that cannot say goodbye ------------------------------------------------------

# lb1_next_hops: 1 while the router's route to the VIP has lb1 as a next hop, else 0.
lb1_next_hops() { route_nexthops | grep -cx "$(lb_ip lb1)" || true; }

# Drill 11: every process in lb1's namespace (forwarder, controller, ExaBGP and its relay, the BFD speaker) stopped
# with SIGSTOP, as a hung kernel or a frozen VM would: no FIN, no withdraw. The router must drop lb1 from the ECMP
# set by itself (BFD: 3 x 100 ms; without BFD the BGP hold time); connections it moves to lb2 keep their backend.
# Then SIGCONT, and lb1 must come back into the route by itself.
drill_node_freeze() {
    PHASE="node freeze"
    section "Drill 11: lb1 frozen (SIGSTOP of every process in its namespace) under 32 long-lived connections"
    if skip_without_bgp 25-node-freeze "no BGP: nothing tells the router about a frozen node"; then return; fi
    hold_start hold11 --connections 32
    route_watch_start freezewatch
    sleep 1
    local t0 t_gone="" t_cont t_back i runs signal=${SLUICE_DEMO_FREEZE_SIGNAL:-STOP}
    runs=$(forwarder_log_starts "$WORK/fwd-lb1.log")
    FROZEN_PIDS=$(ip netns pids "$(ns_of lb1)" | tr '\n' ' ')
    say "freezing lb1: SIG$signal to pids $FROZEN_PIDS"
    t0=$(now)
    # shellcheck disable=SC2086 # the pids are words
    kill -"$signal" $FROZEN_PIDS
    # Polled every 20 ms (the route watcher's 100 ms is too coarse for a target under 1 s); bounded at 30 s.
    for ((i = 0; i < 1500; i++)); do
        if [[ $(lb1_next_hops) == 0 ]]; then
            t_gone=$(now)
            break
        fi
        sleep 0.02
    done
    if [[ -n $t_gone ]]; then
        say "the router dropped lb1 from the VIP's route $(since "$t0") s after the freeze"
    else
        say "the router still routes to lb1 30 s after the freeze"
    fi
    sleep 2 # connections moved to lb2 run there a while
    t_cont=$(now)
    if [[ $signal == KILL ]]; then
        # SLUICE_DEMO_FREEZE_SIGNAL=KILL measures a node whose processes die instead (their sockets close): the
        # node is then started again as after a crash.
        FROZEN_PIDS=""
        stop fwd-lb1
        stop ctl-lb1
        start_forwarder lb1
        wait_for 90 "forwarder lb1 to run again" forwarder_started_after lb1 "$runs"
        start_controller lb1
        say "lb1's processes killed; forwarder and controller started again after $(since "$t0") s"
    else
        # shellcheck disable=SC2086
        kill -CONT $FROZEN_PIDS
        FROZEN_PIDS=""
        say "lb1 thawed (SIGCONT) after $(since "$t0") s"
    fi
    wait_for 90 "lb1 back in the VIP's route after the thaw" route_has 2
    t_back=$(now)
    say "lb1 back in the route $(since "$t_cont") s after SIGCONT"
    sleep 2
    route_watch_stop freezewatch
    client_stop hold11
    report node-freeze --hold "$WORK/hold11.json" --routes "$WORK/freezewatch.txt" --bfd "$DEMO_BFD" \
        --hold-time "$DEMO_HOLD_TIME" --signal "$signal" \
        --withdrawn-s "$([[ -n $t_gone ]] && awk -v a="$t_gone" -v b="$t0" 'BEGIN { print a - b }' || echo -1)" \
        --back-s "$(awk -v a="$t_back" -v b="$t_cont" 'BEGIN { print a - b }')" --result "$RESULTS/25-node-freeze.json"
    check_result 25-node-freeze
}

# ctl_action LB PATH?QUERY: an operator action (POST with the controller's token) on one node; prints the HTTP code.
ctl_action() {
    ip netns exec "$(ns_of "$1")" curl -s -o /dev/null -w '%{http_code}' --max-time 8 -X POST \
        -H "Authorization: Bearer $(cat "$COUNTERS_DIR/$1/controller.token")" "http://127.0.0.1:9100/$2"
}

# control_metric LB NAME: one of the forwarder's counters from the controller's /metrics (0 when absent).
control_metric() {
    ip netns exec "$(ns_of "$1")" curl -sf --max-time 2 "http://127.0.0.1:9100/metrics" |
        awk -v n="$2" '$1 == n { v = $2 } END { print v + 0 }'
}

# caught_up LB: the controller has no unconfirmed command and its forwarder is alive and synchronized.
caught_up() {
    status_json "$1" | jq -e '.forwarder | .unconfirmed_commands == 0 and .synchronized and .alive' >/dev/null
}

# Drill 12: a burst of operator commands (set-weight over the HTTP API) while lb1's forwarder is stopped (SIGSTOP,
# 2 s: inside the demo's 3 s liveness time-out, and TCP rides it out). The controller queues them, waits 200 ms
# for each answer, then retries once a second (logged) instead of spinning; after SIGCONT it catches up: every
# command answered, none rejected, the forwarder's weight the controller's, 0 unconfirmed, the forwarder never
# taken for dead. The controller alone writes about one command per 200 ms time-out, far from the ring's capacity,
# so `sluice control burst` (a second producer, its JVM started before the stop, released by a start file) fills
# the ring with set-weight commands right after SIGSTOP: the controller's commands then find it full ("command
# ring full" logged, retried every 1000 ms), and after SIGCONT every burst command is answered and accepted.
drill_control_ring() {
    PHASE="control ring"
    section "Drill 12: a burst of set-weight commands to lb1's controller while its forwarder is stopped for 2 s"
    local pid i t0 stall log_from applied0 rejected0 be2ip want burst burst_rc
    be2ip=$(be_ip be2)
    hold_start hold12 --connections 32
    stats_json lb1 >"$WORK/drill12-before.json"
    applied0=$(control_metric lb1 sluice_control_commands_applied_total)
    rejected0=$(control_metric lb1 sluice_control_commands_rejected_total)
    log_from=$(wc -l <"$WORK/ctl-lb1.log")
    pid=${PIDS[fwd-lb1]}
    : >"$WORK/drill12-requests.txt"
    rm -f "$WORK/drill12-burst.start"
    ip netns exec "$(ns_of lb1)" "$SLUICE" control --dir "$COUNTERS_DIR" --node lb1 burst "$VIP" "$VIP_PORT" tcp \
        "$be2ip" 2 --max 20000 --start-file "$WORK/drill12-burst.start" --timeout 30s \
        >"$WORK/drill12-burst.txt" 2>&1 &
    burst=$!
    PIDS[burst]=$burst # the cleanup trap ends it if the drill fails before waiting for it
    wait_for 30 "the burst tool to wait for its start file" grep -q '^waiting for' "$WORK/drill12-burst.txt"
    kill -STOP "$pid"
    t0=$(now)
    touch "$WORK/drill12-burst.start"
    for ((i = 0; i < 100; i++)); do # every ~30 ms for 2 s, at most 100
        awk -v e="$(elapsed "$t0")" 'BEGIN { exit !(e > 2.0) }' && break
        echo "$i $(ctl_action lb1 "set-weight?vip=web&backend=be2&weight=$((i % 3 + 2))")" \
            >>"$WORK/drill12-requests.txt" &
        sleep 0.03
    done
    kill -CONT "$pid"
    stall=$(elapsed "$t0")
    say "lb1's forwarder stopped for $(printf '%.1f' "$stall") s; $i set-weight requests sent to its controller"
    burst_rc=0
    wait "$burst" || burst_rc=$?
    unset "PIDS[burst]"
    echo "exit $burst_rc" >>"$WORK/drill12-burst.txt"
    say "burst: $(tr '\n' ' ' <"$WORK/drill12-burst.txt")"
    wait_jobs
    wait_for 20 "lb1's controller to catch up (0 unconfirmed commands)" caught_up lb1
    sleep 1 # the controller reads the forwarder's state every second
    status_json lb1 >"$WORK/drill12-status.json"
    ip netns exec "$(ns_of lb1)" "$SLUICE" control --dir "$COUNTERS_DIR" --node lb1 state --json \
        >"$WORK/drill12-state.json" 2>>"$WORK/drill12-state.err" || echo '{}' >"$WORK/drill12-state.json"
    stats_json lb1 >"$WORK/drill12-after.json"
    echo "$(control_metric lb1 sluice_control_commands_applied_total) $applied0" >"$WORK/drill12-applied.txt"
    echo "$(control_metric lb1 sluice_control_commands_rejected_total) $rejected0" >"$WORK/drill12-rejected.txt"
    client_stop hold12
    tail -n +"$((log_from + 1))" "$WORK/ctl-lb1.log" >"$WORK/drill12-ctl.log"
    # Undo: be2 back to its configured weight.
    want=$(jq -r '.vips[] | select(.name == "web") | .backends[] | select(.name == "be2") | .configured_weight' \
        "$WORK/drill12-status.json")
    ctl_action lb1 "set-weight?vip=web&backend=be2&weight=$want" >/dev/null
    wait_for 10 "lb1 to show be2 back at weight $want" backend_is lb1 web be2 weight "$want"
    report control-ring --hold "$WORK/hold12.json" --requests "$WORK/drill12-requests.txt" --log "$WORK/drill12-ctl.log" \
        --status "$WORK/drill12-status.json" --state "$WORK/drill12-state.json" --backend "$be2ip" \
        --applied "$WORK/drill12-applied.txt" --rejected "$WORK/drill12-rejected.txt" --stall-s "$stall" \
        --burst "$WORK/drill12-burst.txt" \
        --before "$WORK/drill12-before.json" --after "$WORK/drill12-after.json" --result "$RESULTS/26-control-ring.json"
    check_result 26-control-ring
}

# --- metrics: a real Prometheus scrapes both controllers (deploy/prometheus, deploy/grafana) ----------------------

NS_PROM=sd-prom # Prometheus's namespace: a management link to each forwarder node, apart from the data links
PROM_URL=http://127.0.0.1:9090
mgmt_ip() { echo "10.30.$(index_of "$1").2"; }    # the node's end of its management link
mgmt_peer_ip() { echo "10.30.$(index_of "$1").1"; }

# Prometheus in its own namespace, scraping every controller each second over the management links and
# evaluating deploy/prometheus/sluice-rules.yml; stopped by prometheus_stop or the cleanup trap.
prometheus_start() {
    local lb ns
    ip netns add "$NS_PROM"
    ip -n "$NS_PROM" link set lo up
    for lb in "${LB_NAMES[@]}"; do
        ns=$(ns_of "$lb")
        ip -n "$ns" link add m-prom type veth peer name "m-$lb" netns "$NS_PROM"
        ip -n "$ns" addr add "$(mgmt_ip "$lb")/24" dev m-prom
        ip -n "$ns" link set m-prom up
        ip -n "$NS_PROM" addr add "$(mgmt_peer_ip "$lb")/24" dev "m-$lb"
        ip -n "$NS_PROM" link set "m-$lb" up
    done
    {
        printf 'global: {scrape_interval: 1s, evaluation_interval: 1s}\n'
        printf 'rule_files: ["%s"]\n' "$ROOT/deploy/prometheus/sluice-rules.yml"
        printf 'scrape_configs:\n  - job_name: sluice\n    scrape_timeout: 900ms\n    static_configs:\n'
        for lb in "${LB_NAMES[@]}"; do
            printf '      - {targets: ["%s:9100"], labels: {node: %s}}\n' "$(mgmt_ip "$lb")" "$lb"
        done
    } >"$WORK/prometheus.yml"
    promtool check config "$WORK/prometheus.yml" >>"$WORK/prometheus.log" 2>&1 ||
        { cat "$WORK/prometheus.log" >&2; return 1; }
    start prometheus "$NS_PROM" prometheus --config.file="$WORK/prometheus.yml" \
        --storage.tsdb.path="$WORK/prometheus-data" --web.listen-address=127.0.0.1:9090 --log.level=warn
    ip netns exec "$NS_PROM" "$PY" "$DEMO/metrics.py" wait-up --url "$PROM_URL" --targets "${#LB_NAMES[@]}" \
        --max-seconds 30
}

prometheus_stop() { stop prometheus TERM 10; }

# drain_on NODE drain|undrain BACKEND: changes one backend of the VIP web on one node only.
drain_on() {
    local lb=$1 action=$2 be=$3 want=true
    [[ $action == drain ]] || want=false
    ip netns exec "$(ns_of "$lb")" "$SLUICE" "$action" --config "$WORK/$lb.yaml" web "$be" >>"$WORK/drain.log" 2>&1
    wait_for 10 "$lb to show $be ${action}ed" backend_is "$lb" web "$be" drained "$want"
}

# web_backend_packets NAME: the packets of each backend of the VIP web on both nodes, in snapshot NAME.
web_backend_packets() {
    local lb
    for lb in "${LB_NAMES[@]}"; do
        jq -c --arg lb "$lb" '[.backends[]? | select(.vip | startswith("web ")) | [$lb, .backend, .packets]]' \
            "$SNAP/$1.$lb.json" 2>/dev/null || echo '?'
    done
}

# quiet_snapshot NAME: takes snapshot NAME once the backends' counters stand still for 2.5 s (two snapshots that
# agree, at most 5 tries) and sets QUIET_AT to a moment in between: Prometheus's latest scrape before QUIET_AT
# then saw the same values as the snapshot.
quiet_snapshot() {
    local name=$1 try lb
    snapshot "$name"
    for ((try = 0; try < 5; try++)); do
        sleep 2.5 # at least two scrapes
        QUIET_AT=$(now)
        snapshot "$name-again"
        [[ $(web_backend_packets "$name") == "$(web_backend_packets "$name-again")" ]] && return 0
        for lb in "${LB_NAMES[@]}"; do
            cp "$SNAP/$name-again.$lb.json" "$SNAP/$name.$lb.json"
        done
    done
    say "NOTE: the backends' counters kept moving; comparing with Prometheus anyway"
}

phase_metrics() {
    PHASE=metrics
    section "Metrics: a Prometheus server scrapes both controllers every second; dashboard queries and alert rules"
    local t_before t_start t_end t_after t_drained t_undrained lb QUIET_AT
    prometheus_start
    say "Prometheus up in $NS_PROM, scraping $(for lb in "${LB_NAMES[@]}"; do printf '%s ' "$(mgmt_ip "$lb"):9100"; done)"
    quiet_snapshot metrics-before
    t_before=$QUIET_AT
    t_start=$(now)
    client requests --vip "$VIP" --count 360 --rate 60 --concurrency 4 --out "$WORK/metrics-traffic.json" \
        --max-seconds 60
    t_end=$(now)
    sleep 1.5 # the last connections' closing packets
    for lb in "${LB_NAMES[@]}"; do
        status_json "$lb" >"$WORK/status-$lb.json" || echo '{}' >"$WORK/status-$lb.json"
    done
    quiet_snapshot metrics-after
    t_after=$QUIET_AT
    # The nodes disagree for a moment: be3 drained on lb1 only changes lb1's table, and so its fingerprint.
    drain_on lb1 drain be3
    sleep 3 # scrapes and rule evaluations of the new table
    t_drained=$(now)
    drain_on lb1 undrain be3
    sleep 3
    t_undrained=$(now)
    say "be3 drained on lb1 only for about $(printf '%.0f' "$(elapsed "$t_drained")") s, then undrained"
    ip netns exec "$NS_PROM" "$PY" "$DEMO/metrics.py" check --url "$PROM_URL" --t-before "$t_before" \
        --t-after "$t_after" --t-drained "$t_drained" --t-undrained "$t_undrained" --t-start "$t_start" \
        --t-end "$t_end" --before "$SNAP/metrics-before" --after "$SNAP/metrics-after" --status-dir "$WORK" \
        --route "$(ip -n "$NS_ROUTER" route show "$VIP/32")" --client "$WORK/metrics-traffic.json" \
        --dashboard "$ROOT/deploy/grafana/dashboards/sluice-fleet.json" --plot "$WORK/dashboard.png" \
        --result "$RESULTS/08-metrics.json"
    [[ -n ${SLUICE_DEMO_PLOT:-} && -f $WORK/dashboard.png ]] && cp "$WORK/dashboard.png" "$SLUICE_DEMO_PLOT"
    prometheus_stop
    check_result 08-metrics
}

# Live capture on lb1 while the client makes requests (sluice capture --vip VIP:PORT, in its own process), then
# ping to the VIP, answered by whichever forwarder the router picks. The capture must hold every frame lb1 forwarded
# for the VIP, once as received and once as transmitted, and agree with lb1's counters; a third-party reader
# (scapy) must read the file.
capture_running() { [[ -f $1 && $(od -An -t d8 -j 128 -N 8 "$1" | tr -d ' ') != 0 ]]; }

demo_capture() {
    PHASE=capture
    local pcap=$WORK/capture-lb1.pcapng
    section "Live capture on lb1 (sluice capture --vip $VIP:$VIP_PORT) during 200 requests; ping $VIP"
    snapshot capture-before
    start capture-lb1 "$(ns_of lb1)" "$SLUICE" capture --dir "$COUNTERS_DIR" --node lb1 --vip "$VIP:$VIP_PORT" \
        -w "$pcap" --seconds 120 --json
    wait_for 60 "the capture on lb1 to start" capture_running "$COUNTERS_DIR/lb1/capture.dat"
    sleep 0.3 # every worker looks at the session word once per duty cycle
    client requests --vip "$VIP" --count 200 --concurrency 4 --out "$WORK/capture-traffic.json" --max-seconds 60
    ip netns exec "$NS_CLIENT" "$PY" "$DEMO/ping.py" --address "$VIP" --count 5 >"$WORK/ping.json"
    sleep 0.3
    stop capture-lb1 TERM 20
    snapshot capture-after
    local summary read_back
    summary=$(grep '^{' "$WORK/capture-lb1.log" | tail -n 1)
    [[ -n $summary ]] || summary='{}'
    read_back=$("$PY" -c 'import sys, logging; logging.getLogger("scapy").setLevel(logging.ERROR)
from scapy.all import rdpcap
print(len(rdpcap(sys.argv[1])))' "$pcap" 2>/dev/null || echo -1)
    jq -n --argjson tool "$summary" --argjson ping "$(cat "$WORK/ping.json")" --argjson read_back "$read_back" \
        --slurpfile b1 "$SNAP/capture-before.lb1.json" --slurpfile a1 "$SNAP/capture-after.lb1.json" \
        --slurpfile b2 "$SNAP/capture-before.lb2.json" --slurpfile a2 "$SNAP/capture-after.lb2.json" '
        def tot(s; k): (s.totals[k] // 0);
        def vip(s): ([s.vips[] | select(.vip | startswith("web")) | .packets] | add // 0);
        ($tool.written // -1) as $w |
        (vip($a1[0]) - vip($b1[0])) as $forwarded |
        (tot($a1[0]; "capture_frames") - tot($b1[0]; "capture_frames")) as $counted |
        (([$a1[0], $a2[0]] | map(tot(.; "icmp_echo_replies_v4")) | add) -
            ([$b1[0], $b2[0]] | map(tot(.; "icmp_echo_replies_v4")) | add)) as $replies |
        {written: $w, rx: $tool.rx, tx: $tool.tx, matched: $tool.matched, captured: $tool.captured,
         dropped: $tool.dropped, ended_by: $tool.ended_by, lb1_vip_packets_forwarded: $forwarded,
         capture_frames_counted: $counted, read_back_by_scapy: $read_back,
         ping_sent: $ping.sent, ping_answered: $ping.answered, ping_ttl: $ping.ttl, echo_replies_counted: $replies,
         ok: ($w > 0 and $w == $tool.captured and $tool.dropped == 0 and $tool.rx == $tool.tx and
              $tool.rx == $forwarded and $counted == $w and $read_back == $w and
              $ping.answered == $ping.sent and $replies == $ping.sent)}' >"$RESULTS/08-capture.json"
    say "capture: $(jq -c '{written, rx, tx, dropped, lb1_vip_packets_forwarded, capture_frames_counted,
        ping_answered, ok}' "$RESULTS/08-capture.json")"
    check_result 08-capture
}

# Path MTU: the forwarders' ports carry 1500 bytes and their tunnel_mtu follows (1500), as on most networks; the
# client's link is 1500 too. Its full-size TCP segments do not fit once encapsulated (1524 bytes): the forwarder
# answers ICMP fragmentation needed (MTU 1476) from the VIP, the client's TCP lowers its segment size and the 1 MB
# upload through the VIP completes instead of stalling in a path MTU black hole.
demo_pmtu_upload() {
    PHASE=pmtu
    section "Path MTU: a 1 MB HTTP upload through the VIP over a 1500-byte tunnel"
    local lb before=0 after=0 answer t0
    for lb in "${LB_NAMES[@]}"; do
        before=$((before + $(stats_json "$lb" | jq '(.totals.icmp_too_big_sent_v4 // 0)')))
    done
    head -c 1048576 /dev/urandom >"$WORK/upload.bin"
    # Forget any path MTU the client learnt before, so this upload starts at 1500.
    ip -n "$NS_CLIENT" route flush cache 2>/dev/null || true
    t0=$(now)
    answer=$(ip netns exec "$NS_CLIENT" curl -sS --max-time 30 -H 'Connection: close'         --data-binary @"$WORK/upload.bin" "http://$VIP:$VIP_PORT/upload" 2>"$WORK/pmtu-curl.err" || true)
    local seconds
    seconds=$(since "$t0")
    sleep 0.3 # the workers flush counters every millisecond
    for lb in "${LB_NAMES[@]}"; do
        after=$((after + $(stats_json "$lb" | jq '(.totals.icmp_too_big_sent_v4 // 0)')))
    done
    local pmtu
    pmtu=$(ip -n "$NS_CLIENT" route get "$VIP" 2>/dev/null | grep -o 'mtu [0-9]*' | awk '{print $2}' || true)
    jq -n --arg answer "$answer" --arg error "$(head -c 300 "$WORK/pmtu-curl.err")" --argjson sent $((after - before))         --argjson seconds "$seconds" --arg pmtu "${pmtu:-}" '
        ($answer | split(" ")) as $a |
        (($a[1] // "-1") | tonumber? // -1) as $received |
        {uploaded_bytes: 1048576, received_bytes: $received, backend: ($a[0] // null), seconds: $seconds,
         client_path_mtu: (if $pmtu == "" then null else ($pmtu | tonumber) end), icmp_too_big_sent: $sent,
         curl_error: $error, ok: ($received == 1048576 and $sent > 0)}' >"$RESULTS/09-pmtu.json"
    say "path MTU: $(jq -c '{received_bytes, backend, seconds, client_path_mtu, icmp_too_big_sent, ok}' \
        "$RESULTS/09-pmtu.json")"
    check_result 09-pmtu
}

# SLUICE_DEMO_ONLY="traffic drill3 ..." runs only the named steps after the set-up (for working on one drill).
step() {
    [[ -z ${SLUICE_DEMO_ONLY:-} || " $SLUICE_DEMO_ONLY " == *" $1 "* ]] || return 0
    PHASE=$1
    "${@:2}"
}

# Sleeps in the background, so a signal to this script is handled at once.
pause() {
    sleep "$1" &
    wait $!
}

bring_up
bring_up_v6
step traffic phase_traffic
step traffic phase_traffic_v6
step capture demo_capture
step pmtu demo_pmtu_upload
step bad bad_input_start
step drill1 drill_backend_failure
step drill2 drill_drain
step bad bad_input_finish
step drill3 drill_forwarder_failure
step drill3 drill_forwarder_failure_v6
step drill4 drill_backend_added
step drill5 drill_controller_restart
step metrics phase_metrics
step exabgp-kill drill_exabgp_kill
step bird-restart drill_bird_restart
step forwarder-resync drill_forwarder_resync
step control-ring drill_control_ring
step backend-flap drill_backend_flap
step rolling-restart drill_rolling_restart
step node-freeze drill_node_freeze
step pause pause "${SLUICE_DEMO_PAUSE:-0}"
finish
