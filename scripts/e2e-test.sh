#!/usr/bin/env bash
# End-to-end test: runs the demo (scripts/demo.sh --json --keep-going: clients, ECMP router, two forwarders,
# GRE backends with DSR, the five failure drills and malformed frames, all in network namespaces) and checks
# every outcome in its JSON line, one PASS/FAIL line per check, then that nothing was left behind.
# usage: scripts/e2e-test.sh
# Needs root. Takes about two minutes. Exit status 0 when every check passes, 1 otherwise.
set -euo pipefail

usage() { sed -n 's/^# usage: //p' "${BASH_SOURCE[0]}"; }
[[ $# -eq 0 ]] || { usage >&2; exit 2; }

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
OUTPUT=$(mktemp /tmp/sluice-e2e.XXXXXX)
cleanup() {
    local rc=$?
    rm -f "$OUTPUT" "$OUTPUT.json"
    exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

PASSED=0
FAILED=0

# check DESCRIPTION JQ-EXPRESSION: passes when the expression is true on the demo's JSON; prints what it saw.
check() {
    local what=$1 expression=$2 seen
    seen=$(jq -c "$expression" "$OUTPUT.json" 2>/dev/null || echo "unreadable")
    if [[ $seen == true ]]; then
        printf '  PASS  %s\n' "$what"
        PASSED=$((PASSED + 1))
    else
        printf '  FAIL  %s (%s)\n' "$what" "$expression"
        FAILED=$((FAILED + 1))
    fi
}

# value DESCRIPTION JQ-EXPRESSION: prints a measured value next to the checks (not a check).
value() { printf '        %s: %s\n' "$1" "$(jq -c "$2" "$OUTPUT.json" 2>/dev/null || echo '?')"; }

echo "e2e: running scripts/demo.sh --json --keep-going (output in $OUTPUT while it runs)"
demo_status=0
"$ROOT/scripts/demo.sh" --json --keep-going >"$OUTPUT" 2>&1 || demo_status=$?
tail -n 1 "$OUTPUT" >"$OUTPUT.json"
if ! jq -e 'type == "object"' "$OUTPUT.json" >/dev/null 2>&1; then
    echo "e2e: the demo's last line is not a JSON object (exit status $demo_status); its output:"
    cat "$OUTPUT"
    echo "e2e test: FAILED"
    exit 1
fi

echo "set-up and traffic"
check "routing through BGP (BIRD and ExaBGP), not a static route" '.routing == "bgp"'
check "the router's route to the VIP has two next hops" '(.route | [scan("nexthop via")] | length) == 2'
check "requests were made" '.requests >= 100'
check "failed_requests == 0" '.failed_requests == 0'
value "per backend" '.per_backend'
check "requests spread over all three backends" '[.per_backend["be1", "be2", "be3"] // 0 | . > 0] | all'
value "per forwarder" '.per_forwarder'
check "requests spread over both forwarders" '[.per_forwarder["lb1", "lb2"] // 0 | . > 0] | all'
check "every request attributed to a forwarder" '([.per_forwarder[]] | add) == .requests - .failed_requests'
check "dsr_replies_through_forwarder == 0" '.dsr_replies_through_forwarder == 0'
value "DSR packets" '.dsr | {client_to_vip_packets, forwarder_tx_total, vip_to_client_packets}'
check "forwarders' TX grew by exactly the client->VIP packets" \
    '.dsr.forwarder_tx_total == .dsr.client_to_vip_packets and .dsr.client_to_vip_packets > 0'
check "every reply came straight from a backend" \
    '([.dsr.replies_from_backends[]] | add) == .dsr.vip_to_client_packets and .dsr.vip_to_client_packets > 0'

echo "drill 1: backend failure"
value "detected after (s)" '.drills.backend_failure.detected_s'
check "both controllers took the failing backend out" '(.drills.backend_failure.detected_s | length) == 2'
check "no new connection to it after interval x fall (+1 s)" \
    '.drills.backend_failure.new_connections_to_backend_after_deadline == 0 and .drills.backend_failure.new_connections_after_deadline > 0'
value "new connections reset while it was taken out (by design)" \
    '.drills.backend_failure.new_connection_failures_during_take_out'
check "no other new connection failed" '.drills.backend_failure.new_connection_failures == 0'
check "connections to the other backends untouched" \
    '.drills.backend_failure.long_lived_on_other_backends > 0 and .drills.backend_failure.broken_on_other_backends == 0 and .drills.backend_failure.changed_on_other_backends == 0'
check "drill outcome ok" '.drills.backend_failure.ok == true'

echo "drill 2: drain"
check "no new connection to the drained backend" \
    '.drills.drain.new_connections_to_drained == 0 and .drills.drain.new_connections_after_drain > 0'
check "its established long-lived connections keep working" \
    '.drills.drain.long_lived_on_drained > 0 and .drills.drain.long_lived_on_drained_working == .drills.drain.long_lived_on_drained'
check "no connection broken" '.drills.drain.long_lived.broken == 0 and .drills.drain.new_connection_failures == 0'
check "drill outcome ok" '.drills.drain.ok == true'

echo "drill 3: forwarder failure"
value "connections per forwarder before the kill" '.drills.forwarder_failure.per_forwarder_before'
check "dozens of long-lived connections over both forwarders" \
    '.drills.forwarder_failure.connections >= 24 and ([.drills.forwarder_failure.per_forwarder_before["lb1", "lb2"] // 0 | . > 0] | all)'
check "the killed forwarder's connections moved to the other one" \
    '.drills.forwarder_failure.moved_to_other_forwarder == .drills.forwarder_failure.per_forwarder_before.lb1'
check "broken_connections_on_forwarder_failure == 0" '.broken_connections_on_forwarder_failure == 0'
check "every connection kept its backend" '.drills.forwarder_failure.changed_backend == 0'
value "route withdrawn after (s)" '.drills.forwarder_failure.route_withdrawn_after_s'
check "drill outcome ok" '.drills.forwarder_failure.ok == true'

echo "IPv6: the dual-stack topology, traffic to the IPv6 VIP and drill 3 over IPv6"
check "the router's IPv6 route to the IPv6 VIP has two next hops (one IPv6 session per node)" \
    '(.ipv6_route | [scan("nexthop via fd00:10:")] | length) == 2'
check "IPv6 requests were made" '.ipv6_requests >= 100'
check "ipv6_failed_requests == 0" '.ipv6_failed_requests == 0'
value "IPv6 per backend" '.ipv6_per_backend'
check "IPv6 requests spread over all three backends" '[.ipv6_per_backend["be1", "be2", "be3"] // 0 | . > 0] | all'
value "IPv6 per forwarder" '.ipv6_per_forwarder'
check "IPv6 requests spread over both forwarders, each one attributed" \
    '([.ipv6_per_forwarder["lb1", "lb2"] // 0 | . > 0] | all) and ([.ipv6_per_forwarder[]] | add) == .ipv6_requests - .ipv6_failed_requests'
check "ipv6_dsr_replies_through_forwarder == 0" '.ipv6_dsr_replies_through_forwarder == 0'
value "IPv6 DSR packets" '.ipv6_dsr | {client_to_vip_packets, forwarder_tx_total, gre_packets_from_forwarders, vip_to_client_packets}'
check "forwarders' TX grew by exactly the client->VIP packets, all GRE over IPv6" \
    '.ipv6_dsr.forwarder_tx_total == .ipv6_dsr.client_to_vip_packets and .ipv6_dsr.client_to_vip_packets > 0 and
     ([.ipv6_dsr.gre_packets_from_forwarders[]] | add) == .ipv6_dsr.client_to_vip_packets'
check "every IPv6 reply came straight from a backend" \
    '([.ipv6_dsr.replies_from_backends[]] | add) == .ipv6_dsr.vip_to_client_packets and .ipv6_dsr.vip_to_client_packets > 0'
value "GRE over IPv6 decapsulated per backend (sluice_gredecap)" '.ipv6_dsr.decapsulated_by_backends'
check "the backends' sluice_gredecap decapsulated every GRE-over-IPv6 packet the router sent them" \
    '([.ipv6_dsr.gre_packets_to_backends[]] | add) > 0 and
     ([.ipv6_dsr.decapsulated_by_backends[].decapsulated] | add) == ([.ipv6_dsr.gre_packets_to_backends[]] | add)'
check "IPv6 traffic outcome ok" '.ipv6_traffic_ok == true'
value "IPv6 connections per forwarder before the kill" '.drills.forwarder_failure_v6.per_forwarder_before'
check "drill 3 IPv6: dozens of long-lived IPv6 connections over both forwarders" \
    '.drills.forwarder_failure_v6.connections >= 24 and ([.drills.forwarder_failure_v6.per_forwarder_before["lb1", "lb2"] // 0 | . > 0] | all)'
check "drill 3 IPv6: the killed forwarder's connections moved to the other one" \
    '.drills.forwarder_failure_v6.moved_to_other_forwarder == .drills.forwarder_failure_v6.per_forwarder_before.lb1'
check "drill 3 IPv6: no connection broken, every one kept its backend" \
    '.drills.forwarder_failure_v6.broken_connections == 0 and .drills.forwarder_failure_v6.changed_backend == 0'
value "IPv6 route withdrawn after (s)" '.drills.forwarder_failure_v6.route_withdrawn_after_s'
check "drill 3 IPv6: outcome ok" '.drills.forwarder_failure_v6.ok == true'

echo "drill 4: backend added"
value "moved fraction (expected 1/4)" '.drills.backend_added.moved_fraction'
check "about 1/N of new-flow hashes moved" '(.drills.backend_added.moved_fraction - 0.25 | fabs) <= 0.1'
check "the moved flows went to the new backend" \
    '.drills.backend_added.moved_between_old_backends <= 0.05 * .drills.backend_added.flows'
check "established connections kept their backend" \
    '.drills.backend_added.long_lived.broken == 0 and .drills.backend_added.long_lived.changed_backend == 0'
check "drill outcome ok" '.drills.backend_added.ok == true'

echo "drill 5: controller restart"
check "the VIP stayed announced (two next hops throughout)" '.drills.controller_restart.min_route_next_hops == 2'
check "forwarding continued" '.drills.controller_restart.forwarder_tx_while_restarting > 0'
check "no connection broken" '.drills.controller_restart.broken_connections == 0'
check "drill outcome ok" '.drills.controller_restart.ok == true'

echo "drill 10: rolling restart (each node's controller and forwarder restarted in turn)"
value "per node: out of the route after / back after (s)" \
    '.drills.rolling_restart.nodes | map_values([.out_after_s, .back_after_s])'
check "both nodes' forwarders and controllers restarted, one after the other" \
    '.drills.rolling_restart.restarted_nodes == ["lb1", "lb2"]'
check "the VIP always had a next hop" '.drills.rolling_restart.min_route_next_hops >= 1'
check "long-lived connections held through both restarts" '.drills.rolling_restart.connections >= 24'
check "no connection broken" '.drills.rolling_restart.broken_connections == 0'
check "no connection changed backend" '.drills.rolling_restart.changed_backend == 0'
check "drill outcome ok" '.drills.rolling_restart.ok == true'

echo "bad input on the wire"
value "bad frames sent / accounted" '[.bad_frames_sent, .bad_frames_accounted]'
check "the counters account for every malformed frame sent" \
    '.bad_frames_sent > 0 and .bad_frames_sent == .bad_frames_accounted'
check "drop counters match exactly, per reason, on both forwarders" \
    '[.drills.bad_input.per_forwarder[] | .drops_match] | all'
check "no mbuf leaked (more bad frames than a pool holds, rx_nombuf 0)" \
    '[.drills.bad_input.per_forwarder[] | .sent > 8191 and .rx_nombuf == 0] | all'
check "forwarders kept serving" '.drills.bad_input.requests_after > 0 and .drills.bad_input.failed_requests_after == 0'
check "drill outcome ok" '.drills.bad_input.ok == true'

echo "drill 6: ExaBGP killed three times"
value "restart back-offs / route back after (s)" '[.drills.exabgp_kill.restart_backoffs_s, .drills.exabgp_kill.route_back_s]'
check "three kills, three new ExaBGP processes" \
    '(.drills.exabgp_kill.kills | length) == 3 and ([.drills.exabgp_kill.kills[].new_pid] | unique | length) == 3'
check "the back-off grew with each death (1 s, 2 s, 4 s)" '.drills.exabgp_kill.restart_backoffs_s == [1, 2, 4]'
check "each time the route came back within the back-off (+ ExaBGP start-up)" '[.drills.exabgp_kill.kills[].ok] | all'
check "the other forwarder kept the VIP announced" '.drills.exabgp_kill.min_route_next_hops >= 1'
check "no connection broken, none changed backend" \
    '.drills.exabgp_kill.long_lived.connections > 0 and .drills.exabgp_kill.broken_connections == 0 and .drills.exabgp_kill.long_lived.changed_backend == 0'
check "drill outcome ok" '.drills.exabgp_kill.ok == true'

echo "drill 7: the router's BGP daemon restarted"
value "no route for / back after BIRD start (s)" '[.drills.bird_restart.route_gone_s, .drills.bird_restart.route_back_after_bird_start_s]'
check "the route via both forwarders came back" '.drills.bird_restart.route_next_hops_at_end == 2'
check "no connection broken, none changed backend" \
    '.drills.bird_restart.long_lived.connections > 0 and .drills.bird_restart.broken_connections == 0 and .drills.bird_restart.long_lived.changed_backend == 0'
check "drill outcome ok" '.drills.bird_restart.ok == true'

echo "drill 8: forwarder restarted while its controller runs"
check "the controller resent its state (the operator's drain included)" \
    '(.drills.forwarder_resync.resync_log | length) == 1 and .drills.forwarder_resync.drain_resent == true'
check "the VIP was announced only after the forwarder confirmed the state" \
    '.drills.forwarder_resync.synchronized_before_announce == true and .drills.forwarder_resync.route_before_synchronized == 0'
check "the dead forwarder's counters file was left behind and taken over by the new one" \
    '.drills.forwarder_resync.counters_file_left_behind == true and .drills.forwarder_resync.counters_file_taken_over == true'
check "no connection broken, none changed backend" \
    '.drills.forwarder_resync.long_lived.connections > 0 and .drills.forwarder_resync.broken_connections == 0 and .drills.forwarder_resync.long_lived.changed_backend == 0'
check "drill outcome ok" '.drills.forwarder_resync.ok == true'

echo "drill 12: a burst of operator commands and a full command ring while a forwarder is stopped (SIGSTOP, 2 s)"
value "requests, commands applied / rejected by the forwarder, state version before -> after, ring full logged" \
    '.drills.control_ring | [.requests, .forwarder_commands_applied, .forwarder_commands_rejected, .state_version_before, .state_version_after, .ring_full_logged]'
check "every set-weight request answered 200 and logged by the controller" \
    '.drills.control_ring as $r | $r.requests > 0 and $r.answered_200 == $r.requests and $r.operator_commands_logged == $r.requests'
check "the controller backed off (retry every 1000 ms logged) and never took the forwarder for dead" \
    '.drills.control_ring.backoff_logged > 0 and .drills.control_ring.forwarder_taken_for_dead == 0'
check "nothing lost: every command applied, none rejected, the forwarder's weight the controller's, 0 unconfirmed" \
    '.drills.control_ring as $r | $r.forwarder_commands_applied >= $r.requests and $r.forwarder_commands_rejected == 0 and $r.converged == true and $r.unconfirmed_commands == 0'
check "no connection broken, none changed backend" \
    '.drills.control_ring.long_lived.connections > 0 and .drills.control_ring.broken_connections == 0 and .drills.control_ring.long_lived.changed_backend == 0'
value "burst (sluice control burst): written, ring full, accepted / rejected / unanswered, exit" \
    '.drills.control_ring.burst | [.written, .ring_full, .accepted, .rejected, .unanswered, .exit]'
check "the burst filled the ring and the controller found it full (back-off logged)" \
    '.drills.control_ring as $r | $r.burst.written > 0 and $r.burst.ring_full == true and $r.ring_filled == true and $r.ring_full_logged > 0'
check "every burst command answered and accepted, all applied by the forwarder" \
    '.drills.control_ring as $r | $r.burst.exit == 0 and $r.burst.accepted == $r.burst.written and $r.burst.rejected == 0 and $r.burst.unanswered == 0 and $r.forwarder_commands_applied >= $r.requests + $r.burst.written'
check "drill outcome ok" '.drills.control_ring.ok == true'

echo "drill 9: backend flapping"
value "per node: state versions, health changes sent, hold-downs" \
    '.drills.backend_flap.per_node | map_values([.state_versions, .health_changes_sent, .hold_downs])'
check "the Maglev tables did not follow every flap" \
    '.drills.backend_flap as $f | $f.toggles >= 40 and ([$f.per_node[] | .state_versions >= 0 and .state_versions <= $f.toggles / 4] | all) and ($f.per_node | length) == 2'
check "connections to the other backends untouched" \
    '.drills.backend_flap.long_lived_on_other_backends > 0 and .drills.backend_flap.broken_on_other_backends == 0 and .drills.backend_flap.changed_on_other_backends == 0'
value "per node: damping triggers, held-down samples / s, Maglev fingerprint changes (while held)" \
    '.drills.backend_flap.per_node | map_values([.damping_triggers, .held_down_samples, .held_down_s, .maglev_fingerprint_changes, .fingerprint_changes_while_held_down])'
check "the checks saw the flapping: flap damping held the backend down on both nodes" \
    '.drills.backend_flap.damped_on_every_node == true and ([.drills.backend_flap.per_node[] | .hold_downs >= 1 and .held_down_samples > 0] | all)'
check "the VIP's Maglev fingerprint changed, but at most toggles/4 times and never while held down" \
    '.drills.backend_flap as $f | ([$f.per_node[] | .maglev_fingerprint_changes >= 1 and .maglev_fingerprint_changes <= $f.toggles / 4 and .fingerprint_changes_while_held_down == 0] | all) and ($f.per_node | length) == 2'
check "drill outcome ok" '.drills.backend_flap.ok == true'

echo "metrics: a real Prometheus scrapes both controllers (deploy/prometheus, deploy/grafana)"
check "prometheus_scrape_ok: both controllers scraped without error" '.prometheus_scrape_ok == true'
value "packets per backend over the load, both nodes (Prometheus / sluice stats)" \
    '[.drills.metrics.per_backend_packets_prometheus, .drills.metrics.per_backend_packets_demo]'
check "Prometheus's per-backend packet counts equal the counters the demo read itself" \
    '.drills.metrics.packets_agree == true and ([.drills.metrics.per_backend_packets_demo[]] | add) > 0'
value "packets/s per backend (Prometheus rate() / sluice stats)" \
    '[.drills.metrics.per_backend_pps_prometheus, .drills.metrics.per_backend_pps_demo]'
check "Prometheus's per-backend packet rates agree with the demo's (within 35%)" '.drills.metrics.pps_agree == true'
check "VIP announced state in Prometheus = the controllers' status = the router's two next hops" \
    '.drills.metrics.announced_agree == true and .drills.metrics.route_next_hops == 2'
value "Maglev fingerprints" '.drills.metrics.maglev_fingerprints'
check "both nodes' Maglev fingerprints of each VIP are equal (and equal to the counters file's)" \
    '.drills.metrics.maglev_fingerprints_agree == true and (.drills.metrics.maglev_fingerprints | length) >= 2'
value "be3 drained on lb1 only" '.drills.metrics.maglev_disagreement'
check "a backend drained on one node only: fingerprints differ, SluiceMaglevTablesDiffer pending, then equal again" \
    '.drills.metrics.maglev_disagreement_seen == true'
check "mbuf pools sampled on both nodes, some mbufs free" '.drills.metrics.mbufs_ok == true'
check "every dashboard panel's expression returns data" \
    '.drills.metrics.dashboard_queries > 10 and (.drills.metrics.dashboard_empty_queries | length) == 0'
check "every alert rule loaded and evaluates without error" \
    '.drills.metrics.alert_rules >= 12 and (.drills.metrics.alert_rules_unhealthy | length) == 0'
check "drill outcome ok" '.drills.metrics.ok == true'

echo "live capture and ping"
value "capture" '.drills.capture | {written, rx, tx, dropped, lb1_vip_packets_forwarded, capture_frames_counted}'
check "the capture holds every frame lb1 forwarded for the VIP, as received and as transmitted" \
    '.drills.capture.rx > 0 and .drills.capture.rx == .drills.capture.tx and
     .drills.capture.rx == .drills.capture.lb1_vip_packets_forwarded'
check "file, tool and counters agree; no capture drops" \
    '.drills.capture.written == .drills.capture.captured and .drills.capture.dropped == 0 and
     .drills.capture.capture_frames_counted == .drills.capture.written'
check "scapy reads the pcapng back" '.drills.capture.read_back_by_scapy == .drills.capture.written'
check "ping to the VIP answered by the forwarders, every reply counted" \
    '.drills.capture.ping_answered == .drills.capture.ping_sent and .drills.capture.ping_sent > 0 and
     .drills.capture.echo_replies_counted == .drills.capture.ping_sent'
check "drill outcome ok" '.drills.capture.ok == true'

echo "path MTU: a 1 MB upload through the VIP over a 1500-byte tunnel"
value "pmtu" '.drills.pmtu | {received_bytes, seconds, client_path_mtu, icmp_too_big_sent}'
check "the upload completed" '.pmtu_upload_ok == true and .drills.pmtu.received_bytes == 1048576'
check "the forwarders answered its full-size segments with ICMP fragmentation needed" '.icmp_too_big_sent > 0'
check "the client learnt the tunnel's MTU (1476)" '.drills.pmtu.client_path_mtu == 1476'

echo "drill 11: lb1 frozen (SIGSTOP of its whole namespace), BFD to the router"
value "node_freeze_withdraw_s / route back after SIGCONT (s)" '[.node_freeze_withdraw_s, .drills.node_freeze.route_back_after_thaw_s]'
check "the drill ran with BFD" '.drills.node_freeze.bfd == true'
check "the router dropped the frozen node within 1 s" '.node_freeze_withdraw_s >= 0 and .node_freeze_withdraw_s < 1'
check "the other forwarder kept the VIP announced" '.drills.node_freeze.min_route_next_hops >= 1'
check "lb1 came back into the route after the thaw" '.drills.node_freeze.route_next_hops_at_end == 2'
check "no connection broken, none changed backend" \
    '.drills.node_freeze.connections > 0 and .node_freeze_broken_connections == 0 and .drills.node_freeze.changed_backend == 0'
check "drill outcome ok" '.drills.node_freeze.ok == true'

echo "afterwards"
check "the demo reports no leftovers" '.no_leftovers == true'
if ip netns list | grep -q '^sd-' || compgen -G "/dev/shm/sluice-demo" >/dev/null ||
    compgen -G "/var/run/dpdk/sluice-demo-*" >/dev/null; then
    printf '  FAIL  nothing left behind: %s\n' "$(ip netns list | grep '^sd-' | tr '\n' ' ')"
    FAILED=$((FAILED + 1))
else
    printf '  PASS  nothing left behind (no sd-* namespace, no /dev/shm/sluice-demo, no DPDK runtime files)\n'
    PASSED=$((PASSED + 1))
fi
if [[ $demo_status -eq 0 ]]; then
    printf '  PASS  scripts/demo.sh exited 0\n'
    PASSED=$((PASSED + 1))
else
    printf '  FAIL  scripts/demo.sh exited %s\n' "$demo_status"
    FAILED=$((FAILED + 1))
fi

if [[ $FAILED -ne 0 ]]; then
    echo "--- demo output"
    cat "$OUTPUT"
    echo "e2e test: FAILED ($PASSED passed, $FAILED failed)"
    exit 1
fi
echo "e2e test: PASSED ($PASSED passed, $FAILED failed, $(jq .elapsed_s "$OUTPUT.json") s)"
