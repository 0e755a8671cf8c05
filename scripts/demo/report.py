#!/usr/bin/python3
"""Turns the demo's raw measurements into outcomes: one subcommand per phase prints a few readable lines and
writes the phase's result (JSON, with "ok") for the summary.

  report.py traffic --client F --before P --after P --route TEXT --result F [--family 6]
                    [--decap-before F --decap-after F]
  report.py backend-failure --backend B --event T --deadline-s S --stream F --hold F --down F --result F
  report.py drain --backend B --event T --stream F --hold F --result F
  report.py forwarder-failure --hold F --before F --after F --killed NAME --withdrawn-s S --back-s S --result F
                              [--family 6]
  report.py backend-added --added B --backends N --before F --after F --hold F --result F
  report.py controller-restart --hold F --routes F --before P --after P --node NAME --status F --log F
                               --back-s S --routing R --result F
  report.py bad-input --sent F --before P --after P --serving F --result F
  report.py show --result F
  report.py summary --results DIR --elapsed S --stopped-during PHASE --json-out F
  report.py leftovers --summary F

P is a snapshot prefix: P.lb1.json, P.lb2.json (sluice stats --json) and P.sniff.json (sniff.py).
--family 6 reads the sniffer's IPv6 view (its "v6" object: the IPv6 VIP's packets, flows and SYNs).
--decap-before/--decap-after: the backends' sluice_gredecap counters, one line "NAME key=value ..." per backend.
"""
import argparse
import glob
import json
import os
import re
import subprocess
import sys

FORWARDERS = ("lb1", "lb2")
MBUFS_PER_WORKER = 8191


def load(path, default=None):
    try:
        with open(path) as f:
            text = f.read().strip()
        return json.loads(text) if text else ({} if default is None else default)
    except (OSError, ValueError):
        return {} if default is None else default


def snapshot(prefix):
    return {"stats": {lb: load("%s.%s.json" % (prefix, lb)) for lb in FORWARDERS},
            "snmp": {lb: ip_counters("%s.%s.snmp" % (prefix, lb)) for lb in FORWARDERS},
            "sniff": load(prefix + ".sniff.json")}


def ip_counters(path):
    """The Ip: lines of /proc/net/snmp as a dict."""
    try:
        with open(path) as f:
            rows = [x.split() for x in f if x.startswith("Ip:")]
        return {k: int(v) for k, v in zip(rows[0][1:], rows[1][1:])}
    except (OSError, IndexError, ValueError):
        return {}


def total(stats, key):
    return (stats.get("totals") or {}).get(key, 0) or 0


def reasons(stats, key):
    return (stats.get("totals") or {}).get(key) or {}


def vip_packets(stats, name):
    return sum(v.get("packets", 0) for v in stats.get("vips", []) if v.get("vip", "").split(" ")[0] == name)


def port_sum(stats, key):
    return sum(p.get(key, 0) or 0 for p in stats.get("ports", []))


def decap_counters(path):
    """Backend name -> its sluice_gredecap counters, from a file of lines "NAME key=value ..."."""
    counters = {}
    try:
        with open(path) as f:
            for row in f:
                words = row.split()
                if words:
                    counters[words[0]] = {k: int(v) for k, _, v in (w.partition("=") for w in words[1:]) if v.isdigit()}
    except OSError:
        pass
    return counters


def decap_delta(args, family):
    """Per backend: GRE packets of the family its decapsulator read and inner packets it wrote to its TUN."""
    before, after = decap_counters(args.decap_before), decap_counters(args.decap_after)
    outer, inner = ("rx_outer_ipv6", "decap_inner_ipv6") if family == "6" else ("rx_outer_ipv4", "decap_inner_ipv4")
    return {be: {"gre_read": c.get(outer, 0) - before.get(be, {}).get(outer, 0),
                 "decapsulated": c.get(inner, 0) - before.get(be, {}).get(inner, 0)}
            for be, c in sorted(after.items())}


def family_view(sniff, family):
    """The sniffer's counters and flows of one address family: its top level for IPv4, its "v6" object for IPv6."""
    return (sniff.get("v6") or {}) if family == "6" else sniff


def sniff_delta(before, after, key):
    return (after.get("counters") or {}).get(key, 0) - (before.get("counters") or {}).get(key, 0)


def write(result, path):
    with open(path, "w") as f:
        json.dump(result, f)


def line(text):
    print("  " + text, flush=True)


def verdict(ok, text):
    line(("PASS  " if ok else "MISS  ") + text)


def hold_summary(hold):
    details = hold.get("details", [])
    return {
        "connections": hold.get("connections", 0),
        "broken": hold.get("broken", 0),
        "changed_backend": hold.get("changed_backend", 0),
        "requests": hold.get("requests", 0),
        "max_stall_s": hold.get("max_latency_s", 0),
        "per_backend": hold.get("per_backend", {}),
        "errors": sorted({d["error"] for d in details if d.get("error")})[:5],
    }


def hold_line(hold, stall=True, note=""):
    """The line on a drill's long-lived connections (a hold_summary): count, broken, moved, longest stall."""
    text = "long-lived connections: %d, broken %d, changed backend %d" % (
        hold["connections"], hold["broken"], hold["changed_backend"])
    if stall:
        text += ", longest stall %.1f s" % hold["max_stall_s"]
    line(text + note)


def cmd_traffic(args):
    client = load(args.client)
    before, after = snapshot(args.before), snapshot(args.after)
    for snap in (before, after):
        snap["sniff"] = family_view(snap["sniff"], args.family)
    syn_via = (after["sniff"].get("syn_via") or {})
    per_forwarder = {lb: 0 for lb in FORWARDERS}
    unattributed = 0
    for _, sport, backend, _, _ in client.get("records", []):
        via = syn_via.get(str(sport))
        if backend is not None and via:
            per_forwarder[via] = per_forwarder.get(via, 0) + 1
        elif backend is not None:
            unattributed += 1
    tx = {lb: total(after["stats"][lb], "tx_packets") - total(before["stats"][lb], "tx_packets") for lb in FORWARDERS}
    misses = {lb: total(after["stats"][lb], "conn_misses") - total(before["stats"][lb], "conn_misses")
              for lb in FORWARDERS}
    s_before, s_after = before["sniff"], after["sniff"]
    gre_from = {lb: sniff_delta(s_before, s_after, "gre_from_fwd." + lb) for lb in FORWARDERS}
    syns = {lb: sniff_delta(s_before, s_after, "syn_from_fwd." + lb) for lb in FORWARDERS}
    client_to_vip = sniff_delta(s_before, s_after, "client_to_vip")
    vip_to_client = sniff_delta(s_before, s_after, "vip_to_client")
    replies_from = {k.split(".", 1)[1]: sniff_delta(s_before, s_after, k)
                    for k in (s_after.get("counters") or {}) if k.startswith("replies_from_be.")}
    through_forwarder = sniff_delta(s_before, s_after, "vip_source_on_fwd_links")
    per_backend = client.get("per_backend", {})
    gre_to = {k.split(".", 1)[1]: sniff_delta(s_before, s_after, k)
              for k in (s_after.get("counters") or {}) if k.startswith("gre_to_be.")}
    result = {
        "requests": client.get("requests", 0),
        "failed_requests": client.get("failed", 0),
        "errors": client.get("errors", {}),
        "per_backend": per_backend,
        "per_forwarder": per_forwarder,
        "unattributed_requests": unattributed,
        "route": args.route,
        "dsr": {
            "client_to_vip_packets": client_to_vip,
            "forwarder_tx_packets": tx,
            "forwarder_tx_total": sum(tx.values()),
            "gre_packets_from_forwarders": gre_from,
            "new_connections_seen_by_router_per_forwarder": syns,
            "forwarder_connection_misses": misses,
            "vip_to_client_packets": vip_to_client,
            "replies_from_backends": replies_from,
            "replies_through_forwarder": through_forwarder,
        },
        "dsr_replies_through_forwarder": through_forwarder,
    }
    spread = len([b for b in ("be1", "be2", "be3") if per_backend.get(b, 0) > 0]) == 3
    both = all(per_forwarder.get(lb, 0) > 0 for lb in FORWARDERS)
    tx_only_requests = sum(tx.values()) == client_to_vip == sum(gre_from.values())
    replies_direct = through_forwarder == 0 and sum(replies_from.values()) == vip_to_client > 0
    result["ok"] = (result["failed_requests"] == 0 and result["requests"] > 0 and spread and both and
                    tx_only_requests and replies_direct)
    if args.decap_before and args.decap_after:
        # The backends' own side: every GRE packet the router sent to a backend was read and decapsulated there.
        decap = decap_delta(args, args.family)
        result["dsr"]["gre_packets_to_backends"] = gre_to
        result["dsr"]["decapsulated_by_backends"] = decap
        decapsulated = sum(d["decapsulated"] for d in decap.values())
        result["ok"] = result["ok"] and decapsulated == sum(gre_to.values()) > 0 and all(
            d["decapsulated"] == d["gre_read"] for d in decap.values())
    line("router: " + " | ".join(x.strip() for x in args.route.splitlines()))
    line("requests %d, failed %d" % (result["requests"], result["failed_requests"]))
    line("per backend:   " + "  ".join("%s %d" % kv for kv in sorted(per_backend.items())))
    line("per forwarder: " + "  ".join("%s %d" % kv for kv in sorted(per_forwarder.items())) +
         "   (new connections the router saw leave each forwarder in GRE: %s; forwarders' own connection-table "
         "misses: %s)" % (" ".join("%s %d" % kv for kv in sorted(syns.items())),
                          " ".join("%s %d" % kv for kv in sorted(misses.items()))))
    line("DSR: client->VIP packets into the router %d = forwarder TX %d (%s) = GRE packets from the forwarders %d"
         % (client_to_vip, sum(tx.values()), ", ".join("%s %d" % kv for kv in sorted(tx.items())),
            sum(gre_from.values())))
    line("DSR: replies VIP->client %d, all arriving straight from the backends (%s); replies on a forwarder's "
         "link: %d" % (vip_to_client, ", ".join("%s %d" % kv for kv in sorted(replies_from.items())),
                       through_forwarder))
    if "decapsulated_by_backends" in result["dsr"]:
        line("GRE to the backends %d (%s); decapsulated by their sluice_gredecap %d (%s)" % (
            sum(gre_to.values()), ", ".join("%s %d" % kv for kv in sorted(gre_to.items())),
            sum(d["decapsulated"] for d in result["dsr"]["decapsulated_by_backends"].values()),
            ", ".join("%s %d" % (k, d["decapsulated"]) for k, d in result["dsr"]["decapsulated_by_backends"].items())))
    verdict(result["ok"], "no failed request, every backend and both forwarders used, forwarders sent only the "
            "client's packets, no reply passed a forwarder")
    write(result, args.result)


def stream_after(stream, event, backend):
    return [r for r in stream.get("records", []) if r[0] >= event and r[2] == backend]


def cmd_backend_failure(args):
    stream, hold = load(args.stream), load(args.hold)
    event = float(args.event)
    deadline = event + args.deadline_s
    records = stream.get("records", [])
    to_backend = [r for r in records if r[2] == args.backend]
    last = max([r[0] for r in to_backend if r[0] >= event] or [event])
    late = [r for r in to_backend if r[0] >= deadline]
    after_deadline = [r for r in records if r[0] >= deadline]
    failed = [r for r in records if r[2] is None]
    details = hold.get("details", [])
    others = [d for d in details if d["backend"] != args.backend]
    on_failed = [d for d in details if d["backend"] == args.backend]
    down = {}
    try:
        with open(args.down) as f:
            for text in f:
                name, seconds = text.split()
                down[name] = float(seconds)
    except OSError:
        pass
    # A new connection whose handshake or request is in flight when a controller takes the backend out can be
    # reset: the forwarder re-picks the flows of a backend marked down (as it does for the long-lived ones).
    # Such failures, in flight between the failure and the last controller's take-out, are counted apart;
    # any other failed new connection fails the drill.
    take_out_end = event + max(down.values()) if down else event
    during_take_out = [r for r in failed if r[0] <= take_out_end and r[0] + r[4] >= event]
    result = {
        "backend": args.backend,
        "detected_s": down,
        "last_new_connection_to_backend_s": round(last - event, 2),
        "new_connections_to_backend_after_deadline": len(late),
        "deadline_s": args.deadline_s,
        "new_connections_after_deadline": len(after_deadline),
        "new_connection_failures": len(failed) - len(during_take_out),
        "new_connection_failures_during_take_out": len(during_take_out),
        "new_connection_errors": sorted(set(r[3] for r in failed if r[3])),
        "long_lived_on_other_backends": len(others),
        "broken_on_other_backends": sum(1 for d in others if d["error"]),
        "changed_on_other_backends": sum(1 for d in others if len(d["backends"]) > 1),
        "long_lived_on_failed_backend": len(on_failed),
        "moved_from_failed_backend": sum(1 for d in on_failed if d["error"] or len(d["backends"]) > 1),
        "per_backend_after_deadline": count(r[2] for r in after_deadline),
    }
    result["ok"] = (len(late) == 0 and len(after_deadline) > 0 and result["new_connection_failures"] == 0 and
                    result["broken_on_other_backends"] == 0 and result["changed_on_other_backends"] == 0 and
                    len(down) == len(FORWARDERS) and len(others) > 0)
    line("controllers took %s out %s after its health check began failing" % (
        args.backend, ", ".join("%s %.1f s" % kv for kv in sorted(down.items()))))
    line("new connections: last one to %s started %.2f s after the failure; after %.1f s: %d new connections, "
         "%d to %s (%s); %d failed" % (args.backend, result["last_new_connection_to_backend_s"], args.deadline_s,
                                       len(after_deadline), len(late), args.backend,
                                       " ".join("%s %d" % kv for kv in result["per_backend_after_deadline"].items()),
                                       result["new_connection_failures"]))
    if during_take_out:
        line("new connections in flight while a controller took %s out, reset as designed: %d (%s)" % (
            args.backend, len(during_take_out), "; ".join(sorted(set(str(r[3]) for r in during_take_out)))))
    line("long-lived connections on the other backends: %d, broken %d, changed backend %d" % (
        len(others), result["broken_on_other_backends"], result["changed_on_other_backends"]))
    line("long-lived connections on %s: %d, reset and moved as designed (a backend marked down loses its flows): %d"
         % (args.backend, len(on_failed), result["moved_from_failed_backend"]))
    verdict(result["ok"], "no new connection reached %s after interval x fall (+1 s); the others untouched"
            % args.backend)
    write(result, args.result)


def count(items):
    counts = {}
    for item in items:
        counts[str(item)] = counts.get(str(item), 0) + 1
    return dict(sorted(counts.items()))


def cmd_drain(args):
    stream, hold = load(args.stream), load(args.hold)
    event = float(args.event)
    records = stream.get("records", [])
    after = [r for r in records if r[0] >= event]
    to_drained = [r for r in after if r[2] == args.backend]
    failed = [r for r in records if r[2] is None]
    details = hold.get("details", [])
    on_drained = [d for d in details if d["backend"] == args.backend]
    result = {
        "backend": args.backend,
        "new_connections_after_drain": len(after),
        "new_connections_to_drained": len(to_drained),
        "per_backend_after_drain": count(r[2] for r in after),
        "new_connection_failures": len(failed),
        "long_lived_on_drained": len(on_drained),
        "long_lived_on_drained_working": sum(1 for d in on_drained if not d["error"] and len(d["backends"]) == 1),
        "requests_on_drained_connections": sum(d["requests"] for d in on_drained),
        "long_lived": hold_summary(hold),
    }
    result["ok"] = (len(to_drained) == 0 and len(after) > 0 and len(failed) == 0 and len(on_drained) > 0 and
                    result["long_lived_on_drained_working"] == len(on_drained) and
                    hold.get("broken", 1) == 0 and hold.get("changed_backend", 1) == 0)
    line("after the drain: %d new connections, %d to %s (%s); %d failed" % (
        len(after), len(to_drained), args.backend,
        " ".join("%s %d" % kv for kv in result["per_backend_after_drain"].items()), len(failed)))
    line("long-lived connections on %s: %d, still answered by %s: %d (%d requests in all)" % (
        args.backend, len(on_drained), args.backend, result["long_lived_on_drained_working"],
        result["requests_on_drained_connections"]))
    line("all long-lived connections: %d, broken %d, changed backend %d" % (
        hold.get("connections", 0), hold.get("broken", 0), hold.get("changed_backend", 0)))
    verdict(result["ok"], "no new connection to the drained backend; its established connections keep working")
    write(result, args.result)


def cmd_forwarder_failure(args):
    hold = load(args.hold)
    before, after = family_view(load(args.before), args.family), family_view(load(args.after), args.family)
    details = hold.get("details", [])
    flows_before = before.get("flows") or {}
    flows_after = after.get("flows") or {}
    via = {}
    moved = 0
    for d in details:
        carried = flows_before.get(str(d["sport"])) or []
        via_name = carried[-1] if carried else "unknown"
        via[via_name] = via.get(via_name, 0) + 1
        later = flows_after.get(str(d["sport"])) or []
        if via_name == args.killed and len(later) > 1:
            moved += 1
    summary = hold_summary(hold)
    result = {
        "killed": args.killed,
        "connections": summary["connections"],
        "per_forwarder_before": dict(sorted(via.items())),
        "moved_to_other_forwarder": moved,
        "broken_connections": summary["broken"],
        "changed_backend": summary["changed_backend"],
        "max_stall_s": summary["max_stall_s"],
        "errors": summary["errors"],
        "route_withdrawn_after_s": round(float(args.withdrawn_s), 2),
        "route_back_after_restart_s": round(float(args.back_s), 2),
        "per_backend": summary["per_backend"],
    }
    result["ok"] = (summary["connections"] >= 24 and summary["broken"] == 0 and summary["changed_backend"] == 0 and
                    all(via.get(lb, 0) > 0 for lb in FORWARDERS) and moved == via.get(args.killed, 0))
    line("%d long-lived connections: %s" % (summary["connections"], ", ".join(
        "%d via %s" % (n, name) for name, n in sorted(via.items()))))
    line("router dropped %s from the VIP's route %.1f s after the kill; %d connections moved to the other forwarder"
         % (args.killed, result["route_withdrawn_after_s"], moved))
    line("broken %d, changed backend %d, longest stall of one request %.1f s (TCP retransmission)" % (
        summary["broken"], summary["changed_backend"], summary["max_stall_s"]))
    line("%s restarted: back in the route %.1f s later; the flows that returned kept their backend too" % (
        args.killed, result["route_back_after_restart_s"]))
    verdict(result["ok"], "every connection survived the forwarder's death on the same backend")
    write(result, args.result)


def cmd_backend_added(args):
    before = load(args.before).get("flows", {})
    after = load(args.after).get("flows", {})
    ports = sorted(set(before) & set(after), key=int)
    valid = [p for p in ports if not before[p].startswith("error") and not after[p].startswith("error")]
    moved = [p for p in valid if before[p] != after[p]]
    to_new = [p for p in moved if after[p] == args.added]
    hold = hold_summary(load(args.hold))
    fraction = len(moved) / len(valid) if valid else 0.0
    expected = 1.0 / args.backends
    result = {
        "added": args.added,
        "flows": len(valid),
        "failed_probes": len(ports) - len(valid),
        "moved": len(moved),
        "moved_fraction": round(fraction, 3),
        "expected_fraction": round(expected, 3),
        "moved_to_added": len(to_new),
        "moved_between_old_backends": len(moved) - len(to_new),
        "after_per_backend": count(after[p] for p in valid),
        "long_lived": hold,
    }
    result["ok"] = (len(valid) >= 0.95 * len(ports) > 0 and abs(fraction - expected) <= 0.1 and
                    result["moved_between_old_backends"] <= 0.05 * len(valid) and
                    hold["broken"] == 0 and hold["changed_backend"] == 0 and hold["connections"] > 0)
    line("%d fixed 5-tuples probed before and after: %d moved (%.1f%%, expected about 1/%d = %.0f%%): %d to %s, "
         "%d between the old backends" % (len(valid), len(moved), 100 * fraction, args.backends, 100 * expected,
                                          len(to_new), args.added, result["moved_between_old_backends"]))
    line("spread after: " + "  ".join("%s %d" % kv for kv in result["after_per_backend"].items()))
    line("long-lived connections opened before the reload: %d, broken %d, changed backend %d" % (
        hold["connections"], hold["broken"], hold["changed_backend"]))
    verdict(result["ok"], "about 1/N of new-flow hashes moved, all to the new backend; established connections kept "
            "theirs")
    write(result, args.result)


def cmd_controller_restart(args):
    hold = hold_summary(load(args.hold))
    try:
        with open(args.routes) as f:
            samples = [int(x) for x in f.read().split()]
    except OSError:
        samples = []
    before, after = snapshot(args.before), snapshot(args.after)
    tx = total(after["stats"][args.node], "tx_packets") - total(before["stats"][args.node], "tx_packets")
    status = load(args.status)
    announced = [v.get("announced") for v in status.get("vips", [])]
    try:
        with open(args.log) as f:
            lines = f.read().splitlines()
    except OSError:
        lines = []
    restarts = [i for i, x in enumerate(lines) if "exiting for a restart" in x]
    after_restart = lines[restarts[-1] + 1:] if restarts else []
    adopted = [x.strip() for x in after_restart if "adopt" in x]
    result = {
        "node": args.node,
        "routing": args.routing,
        "route_samples": len(samples),
        "min_route_next_hops": min(samples) if samples else 0,
        "forwarder_tx_while_restarting": tx,
        "vip_announced_after": bool(announced) and all(announced),
        "back_after_s": round(float(args.back_s), 2),
        "exited_for_restart": bool(restarts),
        "adoption": adopted,
        "long_lived": hold,
        "broken_connections": hold["broken"],
    }
    result["ok"] = (hold["broken"] == 0 and hold["changed_backend"] == 0 and hold["connections"] > 0 and
                    bool(restarts) and
                    bool(samples) and min(samples) == len(FORWARDERS) and tx > 0 and
                    (result["vip_announced_after"] or args.routing != "bgp"))
    line("router's route to the VIP sampled %d times while the controller was away: never fewer than %d next hops"
         % (len(samples), result["min_route_next_hops"]))
    line("forwarder %s kept forwarding: %d packets sent meanwhile; new controller ready after %.1f s, VIP %s" % (
        args.node, tx, result["back_after_s"], "announced" if result["vip_announced_after"] else "NOT announced"))
    for text in adopted:
        line("log: " + text)
    line("long-lived connections: %d, broken %d, changed backend %d" % (
        hold["connections"], hold["broken"], hold["changed_backend"]))
    verdict(result["ok"], "forwarding continued and the VIP stayed announced")
    write(result, args.result)


def cmd_rolling_restart(args):
    hold = hold_summary(load(args.hold))
    samples = [hops for _, hops in route_samples(args.routes)]
    nodes = {}
    try:
        with open(args.nodes) as f:
            for row in f.read().splitlines():
                name, out_s, back_s, old_fwd, new_fwd, old_ctl, new_ctl = row.split()
                nodes[name] = {"out_after_s": round(float(out_s), 2), "back_after_s": round(float(back_s), 2),
                               "forwarder_restarted": old_fwd != new_fwd, "controller_restarted": old_ctl != new_ctl}
    except (OSError, ValueError):
        pass
    result = {
        "nodes": nodes,
        "restarted_nodes": sorted(n for n, r in nodes.items() if r["forwarder_restarted"] and r["controller_restarted"]),
        "route_samples": len(samples),
        "min_route_next_hops": min(samples) if samples else 0,
        "long_lived": hold,
        "connections": hold["connections"],
        "broken_connections": hold["broken"],
        "changed_backend": hold["changed_backend"],
    }
    result["ok"] = (hold["connections"] >= 24 and hold["broken"] == 0 and hold["changed_backend"] == 0 and
                    result["restarted_nodes"] == sorted(FORWARDERS) and bool(samples) and min(samples) >= 1)
    for name, r in sorted(nodes.items()):
        line("%s: out of the route %.1f s after its controller's SIGTERM, back %.1f s later (forwarder and "
             "controller restarted: %s)" % (name, r["out_after_s"], r["back_after_s"],
                                            r["forwarder_restarted"] and r["controller_restarted"]))
    line("router's route sampled %d times: never fewer than %d next hop(s)" % (len(samples),
                                                                              result["min_route_next_hops"]))
    hold_line(hold)
    verdict(result["ok"], "both nodes restarted one after the other without breaking a connection")
    write(result, args.result)


def cmd_bad_input(args):
    sent = load(args.sent)
    before, after = snapshot(args.before), snapshot(args.after)
    kinds = sent.get("kinds", [])
    result = {"rounds": sent.get("rounds", 0), "seconds": sent.get("seconds", 0), "send_errors": sent.get(
        "send_errors", {}), "per_forwarder": {}}
    ok = bool(kinds) and not sent.get("send_errors")
    total_sent = total_accounted = 0
    for lb in FORWARDERS:
        counts = sent.get("sent", {}).get(lb, [0] * len(kinds))
        b, a = before["stats"][lb], after["stats"][lb]
        expected_drops, expected_passes, expected_forward, expected_defrag = {}, {}, 0, 0
        for kind, n in zip(kinds, counts):
            if kind["verdict"] == "defrag":
                expected_defrag += n
            elif kind["verdict"] == "drop":
                expected_drops[kind["reason"]] = expected_drops.get(kind["reason"], 0) + n
            elif kind["verdict"] == "pass":
                expected_passes[kind["reason"]] = expected_passes.get(kind["reason"], 0) + n
            else:
                expected_forward += n
        drops_before, drops_after = reasons(b, "drop_reasons"), reasons(a, "drop_reasons")
        actual_drops = {r: drops_after.get(r, 0) - drops_before.get(r, 0)
                        for r in set(drops_after) | set(expected_drops)}
        actual_drops = {r: n for r, n in actual_drops.items() if n or r in expected_drops}
        passes_before, passes_after = reasons(b, "pass_reasons"), reasons(a, "pass_reasons")
        actual_passes = {r: passes_after.get(r, 0) - passes_before.get(r, 0) for r in expected_passes}
        forwarded = vip_packets(a, "probe-udp") - vip_packets(b, "probe-udp")
        defrag = after["snmp"][lb].get("ReasmReqds", 0) - before["snmp"][lb].get("ReasmReqds", 0)
        missed = port_sum(a, "rx_missed") - port_sum(b, "rx_missed")
        nombuf = port_sum(a, "rx_nombuf") - port_sum(b, "rx_nombuf")
        drops_match = all(actual_drops.get(r, 0) == n for r, n in expected_drops.items()) and \
            sum(actual_drops.values()) == sum(expected_drops.values())
        passes_cover = all(actual_passes.get(r, 0) >= n for r, n in expected_passes.items())
        sent_here = sum(counts)
        accounted = sum(min(actual_drops.get(r, 0), n) for r, n in expected_drops.items()) + \
            min(forwarded, expected_forward) + sum(min(actual_passes.get(r, 0), n) for r, n in expected_passes.items()) + \
            min(defrag, expected_defrag)
        total_sent += sent_here
        total_accounted += accounted
        alive = (a.get("alive") is True) and (a.get("process") or {}).get("forwarder_state") == "running"
        entry = {
            "sent": sent_here,
            "accounted": accounted,
            "expected_drops": dict(sorted(expected_drops.items())),
            "actual_drops": dict(sorted(actual_drops.items())),
            "expected_forwarded_to_udp_vip": expected_forward,
            "forwarded_to_udp_vip": forwarded,
            "expected_passes_at_least": expected_passes,
            "passes_including_kernel_traffic": actual_passes,
            "expected_fragments_held_by_kernel_defrag": expected_defrag,
            "fragments_held_by_kernel_defrag": defrag,
            "port_rx_missed": missed,
            "rx_nombuf": nombuf,
            "drops_match": drops_match,
            "alive": alive,
        }
        result["per_forwarder"][lb] = entry
        ok = ok and drops_match and forwarded == expected_forward and passes_cover and missed == 0 and \
            defrag == expected_defrag and \
            nombuf == 0 and alive and sent_here > MBUFS_PER_WORKER
        line("%s: %d bad frames (more than its %d mbufs): drops %d of %d expected, exactly per reason: %s; "
             "forwarded to the UDP VIP %d of %d; passes %s; fragments held by the kernel's AF_PACKET defrag %d of "
             "%d; rx missed %d, rx nombuf %d" % (
                 lb, sent_here, MBUFS_PER_WORKER, sum(actual_drops.values()), sum(expected_drops.values()),
                 "yes" if drops_match else "NO " + json.dumps({r: [expected_drops.get(r, 0), actual_drops.get(r, 0)]
                                                                for r in actual_drops
                                                                if expected_drops.get(r, 0) != actual_drops.get(r)}),
                 forwarded, expected_forward, "cover" if passes_cover else "SHORT", defrag, expected_defrag, missed,
                 nombuf))
    serving = load(args.serving)
    result["requests_after"] = serving.get("requests", 0)
    result["failed_requests_after"] = serving.get("failed", 0)
    result["bad_frames_sent"] = total_sent
    result["bad_frames_accounted"] = total_accounted
    ok = ok and serving.get("requests", 0) > 0 and serving.get("failed", 1) == 0 and total_sent == total_accounted
    result["ok"] = ok
    line("%d kinds of frames x %d rounds in %.1f s; %d sent, %d accounted for in the counters; afterwards %d "
         "requests, %d failed" % (len(kinds), result["rounds"], result["seconds"], total_sent, total_accounted,
                                  result["requests_after"], result["failed_requests_after"]))
    verdict(ok, "forwarders kept serving; the counters account for every bad frame; no mbuf leaked")
    write(result, args.result)


# --- chaos drills (issue 18) -------------------------------------------------------------------------------------

def route_samples(path):
    """The lines of a route watcher: (seconds, next hops)."""
    samples = []
    try:
        with open(path) as f:
            for text in f:
                parts = text.split()
                if len(parts) == 2:
                    samples.append((float(parts[0]), int(parts[1])))
    except (OSError, ValueError):
        pass
    return samples


def log_lines(path):
    try:
        with open(path) as f:
            return [x.strip() for x in f.read().splitlines()]
    except OSError:
        return []


# After its restart back-off, ExaBGP (Python) must start and open its session with the router: seconds on a loaded
# two-core machine.
EXABGP_START_ALLOWANCE_S = 15.0


def cmd_exabgp_kill(args):
    hold = hold_summary(load(args.hold))
    kills = []
    try:
        with open(args.kills) as f:
            for text in f:
                number, old, new, back = text.split()
                kills.append({"kill": int(number), "pid": int(old), "new_pid": int(new), "route_back_s": round(
                    float(back), 2)})
    except (OSError, ValueError):
        pass
    lines = log_lines(args.log)
    # "BGP: ExaBGP (pid N) exited ...; restarting it in D s": the controller's restart back-off for each death.
    delays = {}
    for text in lines:
        if "BGP: ExaBGP (pid " in text and "restarting it in " in text:
            pid = int(text.split("BGP: ExaBGP (pid ", 1)[1].split(")", 1)[0])
            delays[pid] = float(text.split("restarting it in ", 1)[1].split(" s", 1)[0])
    allowance = EXABGP_START_ALLOWANCE_S
    for k in kills:
        k["backoff_s"] = delays.get(k["pid"])
        k["within_backoff_plus_s"] = allowance
        k["ok"] = k["backoff_s"] is not None and k["route_back_s"] <= k["backoff_s"] + allowance
    samples = route_samples(args.routes)
    hops = [n for _, n in samples]
    result = {
        "node": "lb1",
        "kills": kills,
        "restart_backoffs_s": [k["backoff_s"] for k in kills],
        "route_back_s": [k["route_back_s"] for k in kills],
        "route_samples": len(samples),
        "min_route_next_hops": min(hops) if hops else 0,
        "route_next_hops_at_end": hops[-1] if hops else 0,
        "long_lived": hold,
        "broken_connections": hold["broken"],
    }
    result["ok"] = (len(kills) == 3 and all(k["ok"] for k in kills) and len({k["new_pid"] for k in kills}) == 3 and
                    hold["connections"] > 0 and hold["broken"] == 0 and hold["changed_backend"] == 0 and
                    result["min_route_next_hops"] >= 1 and result["route_next_hops_at_end"] == len(FORWARDERS))
    for k in kills:
        line("kill %d: ExaBGP pid %d -> restarted after the controller's back-off of %s s as pid %d; route via lb1 "
             "back %.1f s after the kill" % (k["kill"], k["pid"], k["backoff_s"], k["new_pid"], k["route_back_s"]))
    line("router's route sampled %d times: never fewer than %d next hop(s) (lb2 kept the VIP announced)" % (
        len(samples), result["min_route_next_hops"]))
    hold_line(hold)
    verdict(result["ok"], "each time the route came back within the restart back-off (+%.0f s to start ExaBGP and "
            "open the session); no connection broken" % allowance)
    write(result, args.result)


def cmd_bird_restart(args):
    hold = hold_summary(load(args.hold))
    samples = route_samples(args.routes)
    gone = [t for t, n in samples if n == 0]
    result = {
        "route_gone_s": round(max(gone) - min(gone) + 0.1, 1) if gone else 0.0,
        "bird_down_s": round(float(args.stopped_s), 2),
        "route_back_after_bird_start_s": round(float(args.back_s), 2),
        "route_samples": len(samples),
        "route_next_hops_at_end": samples[-1][1] if samples else 0,
        "long_lived": hold,
        "broken_connections": hold["broken"],
    }
    result["ok"] = (hold["connections"] > 0 and hold["broken"] == 0 and hold["changed_backend"] == 0 and
                    result["route_next_hops_at_end"] == len(FORWARDERS))
    line("BIRD down %.1f s; the router had no route to the VIP for about %.1f s; back via both forwarders %.1f s "
         "after BIRD started" % (result["bird_down_s"], result["route_gone_s"],
                                 result["route_back_after_bird_start_s"]))
    hold_line(hold, note=" (TCP retransmission)")
    verdict(result["ok"], "the sessions and the route came back by themselves; connections waited and survived")
    write(result, args.result)


def cmd_forwarder_resync(args):
    hold = hold_summary(load(args.hold))
    samples = []
    try:
        with open(args.samples) as f:
            for text in f:
                parts = text.split()
                if len(parts) == 6:
                    samples.append((int(parts[0]), parts[1] == "true", parts[2] == "true", parts[3] == "true",
                                    int(parts[4]), int(parts[5])))
    except (OSError, ValueError):
        pass
    # The route is read before the status: a route through the node while a status snapshot taken after it still
    # says "not synchronized" means the VIP went out before the forwarder confirmed the whole state. (A snapshot
    # older than the route reading may lag by up to 250 ms and proves nothing either way.)
    early = [s for s in samples if s[0] > 0 and not s[1] and s[5] >= s[4]]
    unsynced = [s for s in samples if not s[1]]
    lines = log_lines(args.log)
    resync = [x for x in lines if "resynchronizing the forwarder" in x]
    synced_at = next((i for i, x in enumerate(lines) if "forwarder synchronized" in x), None)
    announce_at = next((i for i, x in enumerate(lines) if "VIP web: announce" in x), None)
    state = load(args.state)
    drained = [b for v in state.get("vips", []) if v.get("name") == "web" for b in v.get("backends", [])
               if b.get("address") == args.drained]
    drained_ok = bool(drained) and all(b.get("weight") == 0 and b.get("maglev_slots", 1) == 0 for b in drained)
    dead, new = load(args.stats_dead), load(args.stats_new)
    try:
        with open(args.left) as f:
            left = f.read()
    except OSError:
        left = ""
    result = {
        "node": "lb2",
        "samples_until_announced": len(samples),
        "samples_not_synchronized": len(unsynced),
        "route_before_synchronized": len(early),
        "resync_log": resync[-1:] if resync else [],
        "synchronized_before_announce": synced_at is not None and announce_at is not None and synced_at < announce_at,
        "drained_backend_in_new_forwarder": drained,
        "drain_resent": drained_ok,
        "route_back_s": round(float(args.back_s), 2),
        "counters_file_left_behind": "counters.dat" in left,
        "stats_of_dead_forwarder": {"pid": dead.get("pid"), "alive": dead.get("alive")},
        "stats_of_new_forwarder": {"pid": new.get("pid"), "alive": new.get("alive"),
                                   "state": (new.get("process") or {}).get("forwarder_state")},
        "old_pid": int(args.old_pid),
        "new_pid": int(args.new_pid),
        "long_lived": hold,
        "broken_connections": hold["broken"],
    }
    takeover = (result["counters_file_left_behind"] and dead.get("pid") == result["old_pid"] and
                dead.get("alive") is False and new.get("pid") == result["new_pid"] and new.get("alive") is True and
                result["stats_of_new_forwarder"]["state"] == "running")
    result["counters_file_taken_over"] = takeover
    result["ok"] = (bool(samples) and samples[-1][0] == 1 and not early and bool(resync) and
                    result["synchronized_before_announce"] and drained_ok and takeover and
                    hold["connections"] > 0 and hold["broken"] == 0 and hold["changed_backend"] == 0)
    line("dead forwarder's files left behind: counters.dat %s; sluice stats: pid %s alive %s" % (
        "yes" if result["counters_file_left_behind"] else "NO", dead.get("pid"), dead.get("alive")))
    line("new forwarder pid %s took the counters file over: sluice stats pid %s alive %s state %s" % (
        args.new_pid, new.get("pid"), new.get("alive"), result["stats_of_new_forwarder"]["state"]))
    line("controller: %s; 'forwarder synchronized' logged %s 'VIP web: announce'" % (
        resync[-1] if resync else "NO resynchronization logged",
        "before" if result["synchronized_before_announce"] else "NOT before"))
    line("route and status sampled %d times until the route via lb2 was back (%.1f s after the start): %d samples "
         "not yet synchronized, route via lb2 before synchronization: %d" % (
             len(samples), result["route_back_s"], len(unsynced), len(early)))
    line("drained be3 in the new forwarder's state: %s" % (
        ", ".join("weight %s slots %s" % (b.get("weight"), b.get("maglev_slots")) for b in drained) or "MISSING"))
    hold_line(hold, stall=False)
    verdict(result["ok"], "state resent (the drain too), VIP announced only after synchronization, counters file "
            "taken over, no connection broken")
    write(result, args.result)


def burst_summary(path):
    """The output of `sluice control burst` plus the "exit N" line the demo appends."""
    text = ""
    try:
        with open(path) as f:
            text = f.read()
    except OSError:
        pass
    written = re.search(r"^written (\d+);", text, re.M)
    answers = re.search(r"^accepted (\d+), rejected (\d+), unanswered (\d+)", text, re.M)
    status = re.search(r"^exit (\d+)$", text, re.M)
    return {
        "written": int(written.group(1)) if written else 0,
        "ring_full": bool(re.search(r"^written \d+; ring full", text, re.M)),
        "accepted": int(answers.group(1)) if answers else 0,
        "rejected": int(answers.group(2)) if answers else -1,
        "unanswered": int(answers.group(3)) if answers else -1,
        "exit": int(status.group(1)) if status else -1,
    }


def cmd_control_ring(args):
    hold = hold_summary(load(args.hold))
    codes = []
    try:
        with open(args.requests) as f:
            codes = [text.split()[1] if len(text.split()) == 2 else "none" for text in f]
    except OSError:
        pass
    lines = log_lines(args.log)
    operator = [x for x in lines if "operator: VIP web backend be2: weight" in x]
    backoff = [x for x in lines if "forwarder did not confirm" in x and "retrying every 1000 ms" in x]
    ring_full = [x for x in lines if "command ring full" in x]
    dead = [x for x in lines if "forwarder dead" in x or "resynchronizing the forwarder" in x]
    status = load(args.status)
    mine = [b for v in status.get("vips", []) if v.get("name") == "web" for b in v.get("backends", [])
            if b.get("address") == args.backend]
    state = load(args.state)
    theirs = [b for v in state.get("vips", []) if v.get("name") == "web" for b in v.get("backends", [])
              if b.get("address") == args.backend]

    def delta(path):
        try:
            with open(path) as f:
                after, before = (float(x) for x in f.read().split())
            return int(after - before)
        except (OSError, ValueError):
            return -1

    applied, rejected = delta(args.applied), delta(args.rejected)
    burst = burst_summary(args.burst)
    controller_weight = mine[0].get("weight") if mine else None
    result = {
        "node": "lb1",
        "stall_s": round(args.stall_s, 2),
        "requests": len(codes),
        "answered_200": codes.count("200"),
        "operator_commands_logged": len(operator),
        "backoff_logged": len(backoff),
        "backoff_log": backoff[:1],
        "ring_full_logged": len(ring_full),
        "forwarder_taken_for_dead": len(dead),
        "forwarder_commands_applied": applied,
        "forwarder_commands_rejected": rejected,
        "controller_weight": controller_weight,
        "forwarder_weights": [b.get("weight") for b in theirs],
        "state_version_before": (load(args.before).get("process") or {}).get("forwarding_state_version"),
        "state_version_after": (load(args.after).get("process") or {}).get("forwarding_state_version"),
        "unconfirmed_commands": (status.get("forwarder") or {}).get("unconfirmed_commands"),
        "burst": burst,
        "ring_filled": burst["written"] > 0 and burst["ring_full"],
        "long_lived": hold,
        "broken_connections": hold["broken"],
    }
    converged = (controller_weight is not None and len(theirs) == 1 and
                 theirs[0].get("weight") == controller_weight and result["unconfirmed_commands"] == 0)
    result["converged"] = converged
    result["ok"] = (len(codes) > 0 and result["answered_200"] == len(codes) and len(operator) == len(codes) and
                    len(backoff) > 0 and not dead and applied >= len(codes) + burst["written"] and rejected == 0 and
                    result["ring_filled"] and len(ring_full) > 0 and burst["exit"] == 0 and
                    burst["accepted"] == burst["written"] and burst["rejected"] == 0 and
                    burst["unanswered"] == 0 and converged and hold["connections"] > 0 and hold["broken"] == 0 and hold["changed_backend"] == 0)
    line("forwarder stopped %.1f s; %d set-weight requests, %d answered 200, %d logged by the controller" % (
        result["stall_s"], len(codes), result["answered_200"], len(operator)))
    line("burst (sluice control burst): %d set-weight written, ring %s; answers: %d accepted, %d rejected, "
         "%d unanswered; exit %s" % (burst["written"], "FULL" if burst["ring_full"] else "NOT full",
                                      burst["accepted"], burst["rejected"], burst["unanswered"], burst["exit"]))
    line("controller backed off: %s; 'command ring full' logged %d time(s); taken for dead: %d" % (
        backoff[0] if backoff else "NO back-off logged", len(ring_full), len(dead)))
    line("forwarder's commands applied +%d, rejected +%d; state version %s -> %s; be2 weight: controller %s, "
         "forwarder %s; unconfirmed %s" % (applied, rejected, result["state_version_before"],
                                           result["state_version_after"], controller_weight,
                                           result["forwarder_weights"], result["unconfirmed_commands"]))
    hold_line(hold)
    verdict(result["ok"], "the ring filled and the controller found it full, every command answered and applied, "
            "none rejected, the forwarder's weight the controller's, no connection broken")
    write(result, args.result)


def flap_samples(path, window):
    """Per node, the drill's samples (ms, web VIP's Maglev fingerprint, be2 healthy, held_down, flaps, eligible)
    from flap_sample lines, within [flap start, end of the samples]."""
    start = int(window.split()[0])
    nodes = {}
    try:
        with open(path) as f:
            for text in f:
                parts = text.split()
                if len(parts) != 7 or int(parts[1]) < start:
                    continue
                fingerprints = dict(kv.rsplit("=", 1) for kv in parts[2].split(";") if "=" in kv)
                web = [v for k, v in fingerprints.items() if '"web"' in k] or \
                      [v for k, v in fingerprints.items() if "web" in k]
                nodes.setdefault(parts[0], []).append({
                    "ms": int(parts[1]), "fingerprint": web[0] if web else None, "healthy": parts[3] == "true",
                    "held_down": parts[4] == "true", "flaps": int(parts[5]) if parts[5].isdigit() else None,
                    "eligible": parts[6] == "true"})
    except (OSError, ValueError):
        pass
    return nodes


def flap_figures(samples):
    """Fingerprint changes between consecutive samples, those while held down, flap-damping triggers seen."""
    prints = [x for x in samples if x["fingerprint"] is not None]
    changes = sum(1 for a, b in zip(prints, prints[1:]) if a["fingerprint"] != b["fingerprint"])
    held_changes = sum(1 for a, b in zip(prints, prints[1:])
                       if a["fingerprint"] != b["fingerprint"] and a["held_down"] and b["held_down"])
    flaps = [x["flaps"] for x in samples if x["flaps"] is not None]
    held = [x for x in samples if x["held_down"]]
    return {
        "samples": len(samples),
        "fingerprint_samples": len(prints),
        "maglev_fingerprint_changes": changes,
        "maglev_fingerprint_values": len({x["fingerprint"] for x in prints}),
        "fingerprint_changes_while_held_down": held_changes,
        "held_down_samples": len(held),
        "held_down_and_eligible_samples": sum(1 for x in held if x["eligible"]),
        "held_down_s": round((held[-1]["ms"] - held[0]["ms"]) / 1000.0, 1) if held else 0,
        "damping_triggers": (flaps[-1] - flaps[0]) if flaps else 0,
    }


def cmd_backend_flap(args):
    details = load(args.hold).get("details", [])
    hold = hold_summary(load(args.hold))
    others = [d for d in details if d["backend"] != args.backend]
    on_flapping = [d for d in details if d["backend"] == args.backend]
    samples = flap_samples(args.samples, args.window)
    nodes = {}
    try:
        with open(args.nodes) as f:
            for text in f:
                name, before, after, log = text.split()
                lines = log_lines(log)
                nodes[name] = {
                    "state_versions": int(after) - int(before),
                    "health_changes_sent": sum(1 for x in lines
                                               if "VIP web: forwarder sets backend %s " % args.backend in x),
                    "hold_downs": sum(1 for x in lines if "VIP web: backend %s held down" % args.backend in x),
                    "version_read": int(before) >= 0 and int(after) >= 0,
                }
                nodes[name].update(flap_figures(samples.get(name, [])))
    except (OSError, ValueError):
        pass
    toggles = int(args.toggles)
    # The Maglev table is rebuilt once per state version: it must not follow every toggle. The drill's 250 ms
    # checks (rise and fall 2) see the 500 ms flap; flap damping holds the backend down once it changes more than
    # max_changes (4) times in the window, for 5 s then 10 s: about 10 changes in 20 s where the checks alone
    # would make one per toggle.
    bound = toggles // 4
    result = {
        "backend": args.backend,
        "toggles": toggles,
        "per_node": nodes,
        "max_state_versions_allowed": bound,
        "long_lived_on_other_backends": len(others),
        "broken_on_other_backends": sum(1 for d in others if d["error"]),
        "changed_on_other_backends": sum(1 for d in others if len(d["backends"]) > 1),
        "long_lived_on_flapping_backend": len(on_flapping),
        "broken_on_flapping_backend": sum(1 for d in on_flapping if d["error"]),
        "long_lived": hold,
    }
    result["damped_on_every_node"] = len(nodes) == len(FORWARDERS) and all(
        n["hold_downs"] >= 1 and n["damping_triggers"] >= 1 and n["held_down_samples"] > 0 and
        n["held_down_and_eligible_samples"] == 0 for n in nodes.values())
    result["maglev_churn_bounded"] = len(nodes) == len(FORWARDERS) and all(
        n["version_read"] and n["state_versions"] <= bound and n["fingerprint_samples"] > 0 and
        1 <= n["maglev_fingerprint_changes"] <= bound and n["fingerprint_changes_while_held_down"] == 0
        for n in nodes.values())
    result["ok"] = (result["damped_on_every_node"] and result["maglev_churn_bounded"] and
                    len(others) > 0 and result["broken_on_other_backends"] == 0 and
                    result["changed_on_other_backends"] == 0)
    for name, n in sorted(nodes.items()):
        line("%s: %d toggles -> %d health changes of VIP web sent to the forwarder, %d hold-down(s) by flap damping "
             "(%d triggers in status, held down in %d of %d samples over %.1f s, eligible meanwhile %d), forwarding "
             "state versions +%d, Maglev fingerprint changed %d times (%d while held down)" % (
                 name, toggles, n["health_changes_sent"], n["hold_downs"], n["damping_triggers"],
                 n["held_down_samples"], n["samples"], n["held_down_s"], n["held_down_and_eligible_samples"],
                 n["state_versions"], n["maglev_fingerprint_changes"], n["fingerprint_changes_while_held_down"]))
    line("long-lived connections on the other backends: %d, broken %d, changed backend %d; on %s: %d, broken %d "
         "(reset when it is marked down, as designed)" % (
             len(others), result["broken_on_other_backends"], result["changed_on_other_backends"], args.backend,
             len(on_flapping), result["broken_on_flapping_backend"]))
    verdict(result["ok"], "flap damping held %s down on both nodes; the Maglev table did not follow the flapping "
            "(at most %d versions and fingerprint changes for %d toggles); the other backends' connections "
            "untouched" % (args.backend, bound, toggles))
    write(result, args.result)


# --- node freeze (issue 15) --------------------------------------------------------------------------------------

# With BFD (3 x 100 ms) the router must drop a frozen node within this; without, within the hold time plus this.
NODE_FREEZE_TARGET_S = 1.0


def cmd_node_freeze(args):
    hold = hold_summary(load(args.hold))
    samples = route_samples(args.routes)
    bfd = args.bfd == "1"
    withdrawn = round(float(args.withdrawn_s), 3)
    # A killed node's sockets close (the router hears it at once); a frozen one's stay open.
    target = NODE_FREEZE_TARGET_S if bfd or args.signal == "KILL" else float(args.hold_time) + NODE_FREEZE_TARGET_S
    hops = [n for _, n in samples]
    result = {
        "node": "lb1",
        "bfd": bfd,
        "signal": args.signal,
        "hold_time_s": int(args.hold_time),
        "node_freeze_withdraw_s": withdrawn,
        "target_s": target,
        "route_back_after_thaw_s": round(float(args.back_s), 2),
        "route_samples": len(samples),
        "min_route_next_hops": min(hops) if hops else 0,
        "route_next_hops_at_end": hops[-1] if hops else 0,
        "long_lived": hold,
        "connections": hold["connections"],
        "broken_connections": hold["broken"],
        "changed_backend": hold["changed_backend"],
    }
    result["ok"] = (0 <= withdrawn < target and hold["connections"] > 0 and hold["broken"] == 0 and
                    hold["changed_backend"] == 0 and result["min_route_next_hops"] >= 1 and
                    result["route_next_hops_at_end"] == len(FORWARDERS))
    line("lb1 %s: the router dropped it from the VIP's route after %s (target < %.1f s, %s); back %.1f s "
         "after SIGCONT or restart" % ("frozen" if args.signal == "STOP" else "killed (SIG%s)" % args.signal,
                                       "%.3f s" % withdrawn if withdrawn >= 0 else "never (30 s)", target,
                            "BFD 3 x 100 ms" if bfd else "BGP hold time %s s, no BFD" % args.hold_time,
                            result["route_back_after_thaw_s"]))
    line("router's route sampled %d times: never fewer than %d next hop(s)" % (len(samples),
                                                                               result["min_route_next_hops"]))
    hold_line(hold)
    verdict(result["ok"], "the frozen node left the ECMP set in time; its connections kept their backend on lb2")
    write(result, args.result)


def cmd_show(args):
    result = load(args.result)
    if result.get("skipped"):
        line("SKIPPED: " + result["skipped"])


DRILLS = [
    ("02-backend-failure", "backend_failure", "1. backend failure"),
    ("03-drain", "drain", "2. drain"),
    ("04-forwarder-failure", "forwarder_failure", "3. forwarder failure"),
    ("04-forwarder-failure-v6", "forwarder_failure_v6", "3. forwarder failure v6"),
    ("05-backend-added", "backend_added", "4. backend added"),
    ("06-controller-restart", "controller_restart", "5. controller restart"),
    ("07-bad-input", "bad_input", "bad input on the wire"),
    ("21-exabgp-kill", "exabgp_kill", "6. ExaBGP killed x3"),
    ("22-bird-restart", "bird_restart", "7. router BGP restart"),
    ("23-forwarder-resync", "forwarder_resync", "8. forwarder resync"),
    ("26-control-ring", "control_ring", "12. command burst"),
    ("24-backend-flap", "backend_flap", "9. backend flapping"),
    ("08-rolling-restart", "rolling_restart", "10. rolling restart"),
    ("25-node-freeze", "node_freeze", "11. node frozen"),
    ("08-metrics", "metrics", "metrics (Prometheus)"),
    ("08-capture", "capture", "live capture and ping"),
    ("09-pmtu", "pmtu", "path MTU upload"),
]


def cmd_summary(args):
    setup = load(os.path.join(args.results, "00-setup.json"))
    traffic = load(os.path.join(args.results, "01-traffic.json"))
    summary = {
        "routing": setup.get("routing"),
        "route": " ".join((setup.get("route") or "").split()),
        "setup_s": round(setup.get("setup_s", 0), 1),
        "requests": traffic.get("requests", 0),
        "failed_requests": traffic.get("failed_requests", 0),
        "per_backend": traffic.get("per_backend", {}),
        "per_forwarder": traffic.get("per_forwarder", {}),
        "dsr_replies_through_forwarder": traffic.get("dsr_replies_through_forwarder"),
        "dsr": traffic.get("dsr", {}),
        "traffic_ok": bool(traffic.get("ok")),
        "drills": {},
    }
    all_ok = bool(setup.get("ok")) and bool(traffic.get("ok"))
    print("  routing: %s; %s" % (summary["routing"], summary["route"]))
    print("  traffic: %d requests, %d failed; backends %s; forwarders %s; replies through a forwarder: %s  [%s]" % (
        summary["requests"], summary["failed_requests"], json.dumps(summary["per_backend"]),
        json.dumps(summary["per_forwarder"]), summary["dsr_replies_through_forwarder"],
        "PASS" if traffic.get("ok") else "MISS"))
    all_ok = summarize_ipv6(args.results, summary) and all_ok
    for file_name, key, title in DRILLS:
        result = load(os.path.join(args.results, file_name + ".json"), default=None)
        if not result:
            summary["drills"][key] = {"ok": False, "ran": False}
            all_ok = False
            print("  %-24s not run" % title)
            continue
        summary["drills"][key] = result
        all_ok = all_ok and bool(result.get("ok"))
        print("  %-24s %s%s" % (title, "PASS" if result.get("ok") else "MISS", brief(key, result)))
    summary["broken_connections_on_forwarder_failure"] = summary["drills"].get("forwarder_failure", {}).get(
        "broken_connections")
    summary["bad_frames_sent"] = summary["drills"].get("bad_input", {}).get("bad_frames_sent")
    summary["bad_frames_accounted"] = summary["drills"].get("bad_input", {}).get("bad_frames_accounted")
    summary["prometheus_scrape_ok"] = bool(summary["drills"].get("metrics", {}).get("scrape_ok"))
    summary["pmtu_upload_ok"] = bool(summary["drills"].get("pmtu", {}).get("ok"))
    summary["icmp_too_big_sent"] = summary["drills"].get("pmtu", {}).get("icmp_too_big_sent", 0)
    summary["node_freeze_withdraw_s"] = summary["drills"].get("node_freeze", {}).get("node_freeze_withdraw_s")
    summary["node_freeze_broken_connections"] = summary["drills"].get("node_freeze", {}).get("broken_connections")
    summary["elapsed_s"] = round(float(args.elapsed), 1)
    if args.stopped_during != "done":
        summary["stopped_during"] = args.stopped_during
        all_ok = False
        print("  STOPPED during %s" % args.stopped_during)
    summary["all_ok"] = all_ok
    print("  %s in %.0f s" % ("every drill met its target" if all_ok else "NOT every drill met its target",
                              summary["elapsed_s"]))
    write(summary, args.json_out)


def summarize_ipv6(results, summary):
    """The IPv6 set-up and traffic (01-traffic-v6.json) into the summary; true when both met their targets."""
    setup = load(os.path.join(results, "00-setup-v6.json"))
    traffic = load(os.path.join(results, "01-traffic-v6.json"))
    summary["ipv6_route"] = " ".join((setup.get("route") or "").split())
    summary["ipv6_requests"] = traffic.get("requests", 0)
    summary["ipv6_failed_requests"] = traffic.get("failed_requests", 0)
    summary["ipv6_per_backend"] = traffic.get("per_backend", {})
    summary["ipv6_per_forwarder"] = traffic.get("per_forwarder", {})
    summary["ipv6_dsr_replies_through_forwarder"] = traffic.get("dsr_replies_through_forwarder")
    summary["ipv6_dsr"] = traffic.get("dsr", {})
    summary["ipv6_traffic_ok"] = bool(traffic.get("ok"))
    print("  IPv6: %s" % summary["ipv6_route"])
    print("  IPv6 traffic: %d requests, %d failed; backends %s; forwarders %s; replies through a forwarder: %s  "
          "[%s]" % (summary["ipv6_requests"], summary["ipv6_failed_requests"], json.dumps(summary["ipv6_per_backend"]),
                    json.dumps(summary["ipv6_per_forwarder"]), summary["ipv6_dsr_replies_through_forwarder"],
                    "PASS" if traffic.get("ok") else "MISS"))
    return bool(setup.get("ok")) and bool(traffic.get("ok"))


def brief(key, r):
    if r.get("skipped"):
        return "  (%s)" % r["skipped"]
    if key == "forwarder_failure_v6":
        key = "forwarder_failure"
    if key == "pmtu":
        return "  %s of %s bytes received by %s in %s s; %s ICMP too big sent; client path MTU %s" % (
            r.get("received_bytes"), r.get("uploaded_bytes"), r.get("backend"), r.get("seconds"),
            r.get("icmp_too_big_sent"), r.get("client_path_mtu"))
    if key == "capture":
        return "  %s frames (%s rx, %s tx, %s capture drops) for %s forwarded; ping %s/%s answered" % (
            r.get("written"), r.get("rx"), r.get("tx"), r.get("dropped"), r.get("lb1_vip_packets_forwarded"),
            r.get("ping_answered"), r.get("ping_sent"))
    if key == "backend_failure":
        return "  taken out after %s s; last new connection to it at +%.2f s; other backends: %d broken" % (
            "/".join("%.1f" % v for v in r.get("detected_s", {}).values()), r.get("last_new_connection_to_backend_s",
                                                                                   0),
            r.get("broken_on_other_backends", -1))
    if key == "drain":
        return "  %d new connections to the drained backend; %d/%d of its established ones kept working" % (
            r.get("new_connections_to_drained", -1), r.get("long_lived_on_drained_working", 0),
            r.get("long_lived_on_drained", 0))
    if key == "forwarder_failure":
        return "  %d connections (%s), %d moved, %d broken, %d changed backend; withdrawn after %.1f s" % (
            r.get("connections", 0), ", ".join("%s %d" % kv for kv in r.get("per_forwarder_before", {}).items()),
            r.get("moved_to_other_forwarder", 0), r.get("broken_connections", -1), r.get("changed_backend", -1),
            r.get("route_withdrawn_after_s", 0))
    if key == "backend_added":
        return "  %.1f%% of flows moved (expected %.0f%%), %d between old backends; established: %d broken" % (
            100 * r.get("moved_fraction", 0), 100 * r.get("expected_fraction", 0),
            r.get("moved_between_old_backends", -1), r.get("long_lived", {}).get("broken", -1))
    if key == "controller_restart":
        return "  min next hops %d, forwarder sent %d packets meanwhile, %d broken" % (
            r.get("min_route_next_hops", 0), r.get("forwarder_tx_while_restarting", 0), r.get("broken_connections", -1))
    if key == "exabgp_kill":
        return "  back-offs %s s, route back after %s s; min next hops %d; %d broken" % (
            "/".join(str(x) for x in r.get("restart_backoffs_s", [])),
            "/".join("%.1f" % x for x in r.get("route_back_s", [])), r.get("min_route_next_hops", 0),
            r.get("broken_connections", -1))
    if key == "bird_restart":
        return "  no route for %.1f s, back %.1f s after BIRD started; %d broken" % (
            r.get("route_gone_s", 0), r.get("route_back_after_bird_start_s", 0), r.get("broken_connections", -1))
    if key == "forwarder_resync":
        return "  announced only after sync: %s; drain resent: %s; counters file taken over: %s; %d broken" % (
            "yes" if r.get("route_before_synchronized", 1) == 0 and r.get("synchronized_before_announce") else "NO",
            "yes" if r.get("drain_resent") else "NO", "yes" if r.get("counters_file_taken_over") else "NO",
            r.get("broken_connections", -1))
    if key == "control_ring":
        return ("  %d commands + a burst of %d (ring %s) in a %.1f s forwarder stop: %d applied, %d rejected, "
                "ring full logged %d, back-off logged %s; %d broken") % (
            r.get("requests", 0), (r.get("burst") or {}).get("written", 0),
            "filled" if r.get("ring_filled") else "NOT filled", r.get("stall_s", 0),
            r.get("forwarder_commands_applied", -1), r.get("forwarder_commands_rejected", -1),
            r.get("ring_full_logged", 0), "yes" if r.get("backoff_logged") else "NO", r.get("broken_connections", -1))
    if key == "backend_flap":
        return "  %d toggles; state versions / fingerprint changes / hold-downs %s; other backends: %d broken" % (
            r.get("toggles", 0), ", ".join("%s +%d/%d/%d" % (k, v.get("state_versions", -1),
                                                              v.get("maglev_fingerprint_changes", -1),
                                                              v.get("hold_downs", -1))
                                           for k, v in sorted(r.get("per_node", {}).items())),
            r.get("broken_on_other_backends", -1))
    if key == "rolling_restart":
        return "  %s restarted in turn; min next hops %d; %d connections, %d broken, %d changed backend" % (
            "+".join(r.get("restarted_nodes", [])) or "none", r.get("min_route_next_hops", 0),
            r.get("connections", 0), r.get("broken_connections", -1), r.get("changed_backend", -1))
    if key == "node_freeze":
        return "  dropped from the route after %.3f s (%s); %d connections, %d broken, %d changed backend" % (
            r.get("node_freeze_withdraw_s", -1), "BFD" if r.get("bfd") else "hold time only",
            r.get("connections", 0), r.get("broken_connections", -1), r.get("changed_backend", -1))
    if key == "bad_input":
        return "  %d bad frames sent, %d accounted for; %d requests after, %d failed" % (
            r.get("bad_frames_sent", 0), r.get("bad_frames_accounted", 0), r.get("requests_after", 0),
            r.get("failed_requests_after", -1))
    if key == "metrics":
        return "  scrapes %s; packets per backend %s; fingerprints agree %s; %d dashboard queries, %d empty" % (
            "ok" if r.get("scrape_ok") else "FAILED", "agree" if r.get("packets_agree") else "DIFFER",
            r.get("maglev_fingerprints_agree"), r.get("dashboard_queries", 0), len(r.get("dashboard_empty_queries", [])))
    return ""


def cmd_leftovers(args):
    summary = load(args.summary)
    leftovers = []
    namespaces = subprocess.run(["ip", "netns", "list"], capture_output=True, text=True).stdout.split("\n")
    leftovers += ["namespace " + n.split()[0] for n in namespaces if n.startswith("sd-")]
    for pattern in ("/dev/shm/sluice-demo", "/var/run/dpdk/sluice-demo-*", "/dev/hugepages/sluice-demo-*"):
        leftovers += ["file " + p for p in glob.glob(pattern)]
    me = os.getpid()
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) in (me, os.getppid()):
            continue
        try:
            with open("/proc/%s/cmdline" % entry, "rb") as f:
                cmdline = f.read().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        if "sluice-demo" in cmdline and "report.py" not in cmdline and "demo.sh" not in cmdline:
            leftovers.append("process %s: %s" % (entry, cmdline[:120]))
    summary["leftovers"] = leftovers
    summary["no_leftovers"] = not leftovers
    print(json.dumps(summary))
    if leftovers:
        sys.stderr.write("demo: left behind: %s\n" % "; ".join(leftovers))


def main():
    parser = argparse.ArgumentParser()
    sub = parser.add_subparsers(dest="command", required=True)

    def add(name, *options):
        p = sub.add_parser(name)
        for option in options:
            kind = float if option.endswith("-s") and option not in ("--back-s", "--withdrawn-s") else str
            if option == "--backends":
                kind = int
            p.add_argument(option, type=kind, required=option != "--route")
        if name == "traffic":
            p.add_argument("--route", default="")
        if name in ("traffic", "forwarder-failure"):
            p.add_argument("--family", choices=("4", "6"), default="4")
        if name == "traffic":
            p.add_argument("--decap-before", default="")
            p.add_argument("--decap-after", default="")
        return p

    add("traffic", "--client", "--before", "--after", "--result")
    add("backend-failure", "--backend", "--event", "--deadline-s", "--stream", "--hold", "--down", "--result")
    add("drain", "--backend", "--event", "--stream", "--hold", "--result")
    add("forwarder-failure", "--hold", "--before", "--after", "--killed", "--withdrawn-s", "--back-s", "--result")
    add("backend-added", "--added", "--backends", "--before", "--after", "--hold", "--result")
    add("controller-restart", "--hold", "--routes", "--before", "--after", "--node", "--status", "--log", "--back-s",
        "--routing", "--result")
    add("rolling-restart", "--hold", "--routes", "--nodes", "--result")
    add("bad-input", "--sent", "--before", "--after", "--serving", "--result")
    add("exabgp-kill", "--hold", "--kills", "--routes", "--log", "--result")
    add("bird-restart", "--hold", "--routes", "--stopped-s", "--back-s", "--result")
    add("forwarder-resync", "--hold", "--samples", "--log", "--state", "--drained", "--old-pid", "--new-pid",
        "--stats-dead", "--stats-new", "--left", "--back-s", "--result")
    add("control-ring", "--hold", "--requests", "--log", "--status", "--state", "--backend", "--applied",
        "--rejected", "--stall-s", "--before", "--after", "--burst", "--result")
    add("backend-flap", "--backend", "--toggles", "--nodes", "--hold", "--samples", "--window", "--result")
    add("node-freeze", "--hold", "--routes", "--bfd", "--hold-time", "--signal", "--withdrawn-s", "--back-s", "--result")
    add("show", "--result")
    add("summary", "--results", "--elapsed", "--stopped-during", "--json-out")
    add("leftovers", "--summary")
    args = parser.parse_args()
    handler = globals()["cmd_" + args.command.replace("-", "_")]
    handler(args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
