#!/usr/bin/python3
"""The demo's Prometheus step: what a real Prometheus scraped from both controllers, checked against what the demo
measured itself (sluice stats, the controllers' status, the router's route), every dashboard query answered, the
alert rules loaded and healthy, and a plot of the dashboard's main series. Runs inside the Prometheus namespace.

  metrics.py wait-up --url U --targets N [--max-seconds S]
  metrics.py check --url U --t-before T --t-after T --t-drained T --t-undrained T --t-start T --t-end T
                   --before P --after P --status-dir D --route TEXT --client F --dashboard F --plot PNG --result F

At --t-drained one backend of the VIP is drained on lb1 only (the nodes' tables differ), at --t-undrained no more.

P is a snapshot prefix (P.lb1.json, P.lb2.json: sluice stats --json); D holds status-lb1.json, status-lb2.json.
"""
import argparse
import json
import re
import sys
import time
import urllib.parse
import urllib.request

FORWARDERS = ("lb1", "lb2")
VIP = "web"
# What Grafana substitutes in the dashboard's expressions, for querying them here.
DASHBOARD_VARIABLES = {"$__rate_interval": "5s", "$node": ".*"}


def api(url, path, **params):
    query = urllib.parse.urlencode(params)
    with urllib.request.urlopen("%s%s?%s" % (url, path, query), timeout=10) as response:
        body = json.load(response)
    if body.get("status") != "success":
        raise RuntimeError("%s: %s" % (path, body))
    return body["data"]


def instant(url, expr, at):
    return api(url, "/api/v1/query", query=expr, time="%.3f" % at)["result"]


def by_label(result, *labels):
    return {tuple(r["metric"].get(l, "") for l in labels) if len(labels) > 1 else r["metric"].get(labels[0], ""):
            float(r["value"][1]) for r in result}


def load(path):
    try:
        with open(path) as f:
            return json.loads(f.read().strip() or "{}")
    except (OSError, ValueError):
        return {}


def line(text):
    print("  " + text, flush=True)


def cmd_wait_up(args):
    deadline = time.time() + args.max_seconds
    while True:
        try:
            active = api(args.url, "/api/v1/targets")["activeTargets"]
            up = [t for t in active if t.get("health") == "up"]
            if len(up) >= args.targets:
                return 0
        except (OSError, RuntimeError, ValueError):
            pass
        if time.time() > deadline:
            sys.stderr.write("metrics: Prometheus does not have %d targets up\n" % args.targets)
            return 1
        time.sleep(0.2)


def short(name):
    return (name or "").split(" (")[0]


def stats_backend_packets(prefix):
    total = {}
    for lb in FORWARDERS:
        for b in load("%s.%s.json" % (prefix, lb)).get("backends", []):
            if short(b.get("vip")) == VIP:
                total[short(b.get("backend"))] = total.get(short(b.get("backend")), 0) + b.get("packets", 0)
    return total


def cmd_check(args):
    url = args.url
    result = {}
    # Scrapes: both controllers up, their last scrape without error.
    targets = api(url, "/api/v1/targets")["activeTargets"]
    result["targets"] = {t["labels"].get("node", t["scrapeUrl"]): {
        "health": t["health"], "last_error": t.get("lastError", ""),
        "last_scrape_duration_s": round(t.get("lastScrapeDuration", 0), 4)} for t in targets}
    scrape_ok = sorted(result["targets"]) == sorted(FORWARDERS) and all(
        t["health"] == "up" and not t["last_error"] for t in result["targets"].values())
    result["scrape_ok"] = scrape_ok
    samples = instant(url, 'count by (node) ({job="sluice"})', args.t_after)
    result["series_per_node"] = {k: int(v) for k, v in by_label(samples, "node").items()}

    # Per-backend packets of the VIP over the load, summed over both nodes: Prometheus against sluice stats.
    expr = 'sum by (backend) (sluice_backend_packets_total{vip="%s"})' % VIP
    prom_before = by_label(instant(url, expr, args.t_before), "backend")
    prom_after = by_label(instant(url, expr, args.t_after), "backend")
    prom_delta = {b: int(prom_after[b] - prom_before.get(b, 0)) for b in prom_after}
    stats_before, stats_after = stats_backend_packets(args.before), stats_backend_packets(args.after)
    stats_delta = {b: stats_after[b] - stats_before.get(b, 0) for b in stats_after}
    client = load(args.client)
    answered = client.get("per_backend", {})
    duration = args.t_end - args.t_start
    window = max(2, int(round(duration)))
    rate = by_label(instant(url, 'sum by (backend) (rate(sluice_backend_packets_total{vip="%s"}[%ds]))' % (
        VIP, window), args.t_end), "backend")
    result["per_backend_packets_prometheus"] = dict(sorted(prom_delta.items()))
    result["per_backend_packets_demo"] = dict(sorted(stats_delta.items()))
    result["per_backend_pps_prometheus"] = {b: round(v, 1) for b, v in sorted(rate.items())}
    result["per_backend_pps_demo"] = {b: round(v / duration, 1) for b, v in sorted(stats_delta.items())}
    result["per_backend_requests"] = answered
    packets_agree = bool(prom_delta) and prom_delta == stats_delta and \
        all((stats_delta.get(b, 0) > 0) == (answered.get(b, 0) > 0) for b in set(stats_delta) | set(answered))
    # rate() extrapolates to the window's edges: the same order, not the same number.
    pps_agree = all(abs(rate.get(b, 0) - stats_delta[b] / duration) <= 0.35 * stats_delta[b] / duration + 1
                    for b in stats_delta)
    result["packets_agree"] = packets_agree
    result["pps_agree"] = pps_agree

    # VIP announcements: Prometheus against the controllers' status and the router's route.
    announced = by_label(instant(url, "sluice_vip_announced", args.t_after), "node", "vip")
    status_announced = {}
    for lb in FORWARDERS:
        for v in load("%s/status-%s.json" % (args.status_dir, lb)).get("vips", []):
            status_announced[(lb, v.get("name"))] = 1.0 if v.get("announced") else 0.0
    next_hops = len(re.findall(r"nexthop via", args.route))
    result["vip_announced_prometheus"] = {"%s/%s" % k: int(v) for k, v in sorted(announced.items())}
    result["vip_announced_status"] = {"%s/%s" % k: int(v) for k, v in sorted(status_announced.items())}
    result["route_next_hops"] = next_hops
    web_everywhere = all(announced.get((lb, VIP)) == 1.0 for lb in FORWARDERS)
    announced_agree = bool(announced) and announced == status_announced and web_everywhere == (next_hops == 2)
    result["announced_agree"] = announced_agree

    # Maglev fingerprints: one per VIP and node, the same on both nodes, the same as the counters file says.
    fingerprints = by_label(instant(url, "sluice_vip_maglev_fingerprint", args.t_after), "node", "vip")
    stats_fp = {}
    for lb in FORWARDERS:
        for v in load("%s.%s.json" % (args.after, lb)).get("vips", []):
            stats_fp[(lb, short(v.get("vip")))] = float(v.get("maglev_fingerprint", -1))
    vips = sorted({vip for _, vip in fingerprints})
    result["maglev_fingerprints"] = {"%s/%s" % k: "%013x" % int(v) for k, v in sorted(fingerprints.items())}
    fingerprints_agree = bool(vips) and fingerprints == stats_fp and all(
        len({fingerprints.get((lb, vip)) for lb in FORWARDERS}) == 1 and fingerprints.get((FORWARDERS[0], vip), 0) > 0
        for vip in vips)
    result["maglev_fingerprints_agree"] = fingerprints_agree

    # While lb1 alone had a backend drained: its fingerprint differed and the rule's alert was pending; afterwards
    # the fingerprints are back to the values before (a table depends only on its backends).
    drained = by_label(instant(url, 'sluice_vip_maglev_fingerprint{vip="%s"}' % VIP, args.t_drained), "node")
    undrained = by_label(instant(url, 'sluice_vip_maglev_fingerprint{vip="%s"}' % VIP, args.t_undrained), "node")
    pending = by_label(instant(url, 'ALERTS{alertname="SluiceMaglevTablesDiffer"}', args.t_drained), "vip",
                       "alertstate")
    pending_after = instant(url, 'ALERTS{alertname="SluiceMaglevTablesDiffer"}', args.t_undrained)
    before_drain = {n: v for (n, vip), v in fingerprints.items() if vip == VIP}
    result["maglev_disagreement"] = {
        "fingerprints_drained_on_lb1": {n: "%013x" % int(v) for n, v in sorted(drained.items())},
        "fingerprints_undrained": {n: "%013x" % int(v) for n, v in sorted(undrained.items())},
        "alert_while_drained": ["%s %s" % k for k in sorted(pending)],
        "alerts_after": len(pending_after),
    }
    disagreement_seen = (len(drained) == 2 and drained.get("lb1") != drained.get("lb2") and
                         drained.get("lb2") == before_drain.get("lb2") and (VIP, "pending") in pending and
                         undrained == before_drain and not pending_after)
    result["maglev_disagreement_seen"] = disagreement_seen

    # Mbuf pools: sampled, some free.
    available = by_label(instant(url, "sluice_port_mbufs_available", args.t_after), "node", "port")
    totals = by_label(instant(url, "sluice_port_mbufs_total", args.t_after), "node", "port")
    result["mbufs"] = {"%s/port%s" % k: [int(available.get(k, -1)), int(v)] for k, v in sorted(totals.items())}
    mbufs_ok = sorted({node for node, _ in totals}) == sorted(FORWARDERS) and all(
        0 < available.get(k, 0) <= v for k, v in totals.items())
    result["mbufs_ok"] = mbufs_ok

    # Every panel of the dashboard answers with data.
    dashboard = load(args.dashboard)
    panels = []
    for panel in dashboard.get("panels", []):
        for target in panel.get("targets", []):
            expr = target["expr"]
            for name, value in DASHBOARD_VARIABLES.items():
                expr = expr.replace(name, value)
            try:
                series = len(instant(url, expr, args.t_after))
                error = ""
            except (OSError, RuntimeError, ValueError) as e:
                series, error = 0, str(e)[:200]
            panels.append({"panel": panel["title"], "ref": target.get("refId"), "series": series, "error": error})
    empty = [p for p in panels if p["series"] == 0]
    result["dashboard_queries"] = len(panels)
    result["dashboard_empty_queries"] = empty
    dashboard_ok = len(panels) > 0 and not empty

    # The alert rules: loaded, every one evaluated without error against the live series.
    rules = [r for g in api(url, "/api/v1/rules")["groups"] for r in g["rules"]]
    result["alert_rules"] = len(rules)
    result["alert_rules_unhealthy"] = [{"name": r["name"], "error": r.get("lastError")} for r in rules
                                       if r.get("health") != "ok"]
    result["alerts_active"] = sorted("%s %s %s" % (a["labels"]["alertname"], a["labels"].get("node", ""), a["state"])
                                     for a in api(url, "/api/v1/alerts")["alerts"])
    rules_ok = len(rules) > 0 and not result["alert_rules_unhealthy"]

    result["plot"] = plot(url, args.t_start - 3, args.t_after, args.plot)
    result["ok"] = (scrape_ok and packets_agree and pps_agree and announced_agree and fingerprints_agree and mbufs_ok
                    and disagreement_seen and dashboard_ok and rules_ok and bool(result["plot"]))
    line("Prometheus scraped %s: %s" % (", ".join(sorted(result["targets"])), ", ".join(
        "%s %s (%d series, %.1f ms)" % (n, t["health"], result["series_per_node"].get(n, 0),
                                        1000 * t["last_scrape_duration_s"]) for n, t in sorted(result["targets"].items()))))
    line("packets per backend of VIP %s over %.1f s, both nodes: Prometheus %s, sluice stats %s; requests answered %s"
         % (VIP, duration, json.dumps(result["per_backend_packets_prometheus"]),
            json.dumps(result["per_backend_packets_demo"]), json.dumps(answered)))
    line("packets/s per backend: Prometheus rate() %s, sluice stats %s" % (
        json.dumps(result["per_backend_pps_prometheus"]), json.dumps(result["per_backend_pps_demo"])))
    line("VIP announced (Prometheus): %s; the controllers' status agrees: %s; router next hops %d" % (
        json.dumps(result["vip_announced_prometheus"]), "yes" if announced == status_announced else "NO", next_hops))
    line("Maglev fingerprints: %s" % json.dumps(result["maglev_fingerprints"]))
    line("be3 drained on lb1 only: fingerprints %s, alert %s; undrained: %s, %d alerts" % (
        json.dumps(result["maglev_disagreement"]["fingerprints_drained_on_lb1"]),
        ", ".join(result["maglev_disagreement"]["alert_while_drained"]) or "NONE",
        json.dumps(result["maglev_disagreement"]["fingerprints_undrained"]), len(pending_after)))
    line("mbufs free/total: %s" % json.dumps(result["mbufs"]))
    line("dashboard: %d queries, %d without data%s; alert rules: %d loaded, %d unhealthy; active alerts: %s" % (
        len(panels), len(empty), (" (" + "; ".join(p["panel"] for p in empty) + ")") if empty else "",
        len(rules), len(result["alert_rules_unhealthy"]), ", ".join(result["alerts_active"]) or "none"))
    line("plot of the dashboard's series: %s" % (result["plot"] or "NOT rendered"))
    print(("  PASS  " if result["ok"] else "  MISS  ") + "Prometheus agrees with the demo's own measurements; every "
          "dashboard query answers; every alert rule evaluates", flush=True)
    with open(args.result, "w") as f:
        json.dump(result, f)
    return 0


PLOTS = [
    ("Packets/s per backend (VIP web, both nodes)",
     'sum by (backend) (rate(sluice_backend_packets_total{vip="web"}[5s]))',
     "{backend}"),
    ("Packets/s per VIP and node", "sum by (node, vip) (rate(sluice_vip_packets_total[5s]))", "{node} {vip}"),
    ("Connection-table entries", "sum by (node) (sluice_worker_connection_entries)", "{node}"),
    ("Longest duty cycle (ms)", "1000 * max by (node) (sluice_worker_max_duty_cycle_seconds)", "{node}"),
]


def plot(url, start, end, out):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return ""
    fig, axes = plt.subplots(2, 2, figsize=(10, 5.6), dpi=80)
    for ax, (title, expr, legend) in zip(axes.flat, PLOTS):
        for series in api(url, "/api/v1/query_range", query=expr, start="%.3f" % start, end="%.3f" % end,
                          step="1")["result"]:
            xs = [float(t) - start for t, _ in series["values"]]
            ys = [float(v) for _, v in series["values"]]
            ax.plot(xs, ys, label=legend.format(**series["metric"]) if series["metric"] else expr, linewidth=1.2)
        ax.set_title(title, fontsize=10)
        ax.set_xlabel("seconds", fontsize=8)
        ax.tick_params(labelsize=8)
        ax.grid(alpha=0.3)
        ax.legend(fontsize=7, loc="upper right")
    fig.suptitle("Sluice fleet dashboard series, from the demo's Prometheus (scrape interval 1 s)", fontsize=11)
    fig.tight_layout()
    fig.savefig(out)
    plt.close(fig)
    return out


def main():
    parser = argparse.ArgumentParser()
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("wait-up")
    p.add_argument("--url", required=True)
    p.add_argument("--targets", type=int, required=True)
    p.add_argument("--max-seconds", type=float, default=30)
    p = sub.add_parser("check")
    for option in ("--url", "--before", "--after", "--status-dir", "--route", "--client", "--dashboard", "--plot",
                   "--result"):
        p.add_argument(option, required=True)
    for option in ("--t-before", "--t-after", "--t-drained", "--t-undrained", "--t-start", "--t-end"):
        p.add_argument(option, type=float, required=True)
    args = parser.parse_args()
    return cmd_wait_up(args) if args.command == "wait-up" else cmd_check(args)


if __name__ == "__main__":
    sys.exit(main())
