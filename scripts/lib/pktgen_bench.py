#!/usr/bin/env python3
"""The measuring half of scripts/bench-pktgen.sh: drives pktgen, reads DPDK telemetry, checks GRE, plots.

usage: pktgen_bench.py trials --control DIR --device NAME --gen-socket SOCK [--dut-socket SOCK] --size LABEL --frame-bytes B
                              [--mode point|search|sweep] [--seconds S] [--tolerance PCT] [--steps N]
                              [--capture] [--syn-offset] [--flow-bits K]
                              [--latency --latency-dst-ip A --latency-dst-mac M] --out FILE.jsonl
       pktgen_bench.py gre-check PCAP --vip A --port P --backends A,B,... --tunnel-source A [--next-hop-mac M]
       pktgen_bench.py plot RESULTS.jsonl OUT.png [--title T]
       pktgen_bench.py summary RESULTS.jsonl --date D --load-before L --load-after L --seconds S --flows N
                               --first-size S [--tolerance PCT] [--sizes-given] [--json]

trials: one pktgen process (running scripts/lib/pktgen-control.lua) is the generator; each trial sets a rate
(percent of pktgen's 10 Gb/s virtio link), starts port 0, waits, stops, and reads the ports' counters through
the DPDK telemetry sockets of pktgen and of the device under test (/ethdev/stats), never pktgen's screen. A
trial's loss is what port 0 sent and port 1 did not receive, counted from before the start to after a drain
(RFC 2544 section 26.1); its rates come from two samples inside the trial (steady state). search: the binary
search for the highest rate whose loss is within --tolerance percent; sweep: 20, 40, ..., 100 percent; point:
100 percent once. One JSON line per trial goes to --out.
--latency: then one more trial at the highest rate that passed (RFC 2544 section 26.2; 1 percent when none
did) with pktgen's latency packets: port 0 sends a timestamped UDP packet every LATENCY_GAP_US beside the load,
port 1 finds its timestamp when it comes back (through Sluice inside GRE: bench-pktgen.sh patches pktgen for
that) and pktgen's latency sampler writes every one it found to a file; the percentiles of those go to --out
as a line of kind "latency".
"""
import argparse
import collections
import json
import os
import socket
import struct
import sys
import time

LINK_BPS = 10e9  # pktgen's rate is a percentage of the link speed virtio-user reports: 10 Gb/s
LATENCY_GAP_US = 100  # one latency packet every 100 us: 10,000 a second beside the load
LATENCY_SAMPLES = 50000  # pktgen 23.06.1 keeps at most 50,108 per port (MAX_LATENCY_ENTRIES)


def telemetry(path, commands):
    """Answers of a DPDK telemetry socket (v2: SOCK_SEQPACKET, a JSON greeting, one JSON answer per command)."""
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    sock.settimeout(5)
    sock.connect(path)
    try:
        json.loads(sock.recv(16384).decode())
        answers = []
        for command in commands:
            sock.send(command.encode())
            answers.append(json.loads(sock.recv(1 << 20).decode()))
        return answers
    finally:
        sock.close()


def port_stats(path, ports=(0, 1)):
    keys = ("ipackets", "opackets", "imissed", "ierrors", "oerrors", "rx_nombuf")
    answers = telemetry(path, ["/ethdev/stats,%d" % p for p in ports])
    return [{k: a["/ethdev/stats"][k] for k in keys} for a in answers]


class Pktgen:
    """The command files pktgen-control.lua reads; each command waits for its acknowledgement."""

    def __init__(self, control, timeout=30.0):
        self.control = control
        self.timeout = timeout
        self.n = 0
        self._wait(os.path.join(control, "ready"))

    def _wait(self, path):
        deadline = time.monotonic() + self.timeout
        while not os.path.exists(path):
            if time.monotonic() > deadline:
                raise SystemExit("pktgen_bench: pktgen did not answer (%s)" % path)
            time.sleep(0.01)
        with open(path) as f:
            return f.read()

    def run(self, chunk):
        self.n += 1
        path = os.path.join(self.control, "cmd-%d" % self.n)
        with open(path + ".tmp", "w") as f:
            f.write(chunk)
        os.rename(path + ".tmp", path)
        answer = self._wait(os.path.join(self.control, "ack-%d" % self.n))
        if answer != "ok":
            raise SystemExit("pktgen_bench: pktgen: %s (for: %s)" % (answer, chunk))


def delta(after, before):
    return [{k: a[k] - b[k] for k in a} for a, b in zip(after, before)]


def trial(gen, args, percent, seconds):
    """One trial at percent of the link rate; returns its figures as a dict."""
    gen.run('pktgen.set("0", "rate", "%.4f")' % percent)
    before = port_stats(args.gen_socket)
    dut_before = port_stats(args.dut_socket) if args.dut_socket else None
    gen.run('pktgen.start("0")')
    time.sleep(0.5)  # ramp-up: rates are taken from the steady part
    t1, s1 = time.monotonic(), port_stats(args.gen_socket)
    d1 = port_stats(args.dut_socket) if args.dut_socket else None
    time.sleep(seconds)
    t2, s2 = time.monotonic(), port_stats(args.gen_socket)
    d2 = port_stats(args.dut_socket) if args.dut_socket else None
    gen.run('pktgen.stop("0")')
    time.sleep(0.5)  # drain: what is still in the rings counts as delivered
    after = port_stats(args.gen_socket)
    dut_after = port_stats(args.dut_socket) if args.dut_socket else None
    span = t2 - t1
    total = delta(after, before)
    steady = delta(s2, s1)
    sent, received = total[0]["opackets"], total[1]["ipackets"]
    line_mpps = LINK_BPS / ((args.frame_bytes + 20) * 8) / 1e6
    result = {
        "size": int(args.size) if args.size.isdigit() else args.size, "frame_bytes": args.frame_bytes, "percent": round(percent, 4),
        "target_mpps": round(line_mpps * percent / 100, 4),
        "offered_mpps": round(steady[0]["opackets"] / span / 1e6, 4),
        "delivered_mpps": round(steady[1]["ipackets"] / span / 1e6, 4),
        "sent": sent, "received": received,
        "loss_pct": round(100.0 * (sent - received) / sent, 6) if sent else 0.0,
        "gen_rx_missed": total[1]["imissed"] + total[1]["rx_nombuf"] + total[1]["ierrors"],
        "gen_tx_errors": total[0]["oerrors"], "seconds": round(span, 3),
    }
    if dut_before is not None:
        dut = delta(dut_after, dut_before)
        dut_steady = delta(d2, d1)
        result.update({
            "dut_rx": dut[0]["ipackets"], "dut_rx_missed": dut[0]["imissed"] + dut[0]["rx_nombuf"],
            "dut_tx": dut[1]["opackets"], "dut_tx_errors": dut[1]["oerrors"],
            "dut_lost": dut[0]["ipackets"] - dut[1]["opackets"],
            "dut_mpps": round(dut_steady[1]["opackets"] / span / 1e6, 4),
        })
    result["passed"] = result["loss_pct"] <= args.tolerance
    return result


def run_trials(args):
    gen = Pktgen(args.control)
    # pcap mode first: random bits on top of it need the patched pktgen (bench-pktgen.sh, patch_pktgen).
    gen.run('pktgen.pcap("0", "on")')
    if args.syn_offset:
        # Random source ports for the SYN frames (see bench_frames.py --options): every one a new flow.
        gen.run('pktgen.rnd("0", 0, 34, "XXXXXXXXXXXXXXXX................")')
    if args.flow_bits > 0:
        mask = "." * (16 - args.flow_bits) + "X" * args.flow_bits + "." * 16
        gen.run('pktgen.rnd("0", 1, 38, "%s")' % mask)
    results = []

    def record(r, stage):
        r["stage"] = stage
        r["device"] = args.device
        r["flows"] = args.flows
        r["syn_share"] = args.syn_share
        results.append(r)
        print("pktgen_bench: %-6s %-5s %6.2f%%: offered %.3f Mpps, delivered %.3f Mpps, loss %.4f%%"
              % (args.size, stage, r["percent"], r["offered_mpps"], r["delivered_mpps"], r["loss_pct"]),
              file=sys.stderr)
        return r

    if args.capture:
        # A slow, short trial whose first frames port 1 keeps (pktgen writes them to a pcap when capture stops).
        gen.run('pktgen.capture("1", "on")')
        record(trial(gen, args, 1.0, 1.0), "check")
        gen.run('pktgen.capture("1", "off")')
    if args.mode == "sweep":
        for percent in (20, 40, 60, 80):
            record(trial(gen, args, percent, args.seconds), "sweep")
    full = record(trial(gen, args, 100.0, args.seconds), "max")
    if args.mode in ("search", "sweep"):
        # RFC 2544 26.1: the highest rate with no loss above the tolerance, by bisection of the offered rate.
        if full["passed"]:
            full["no_drop"] = True
        else:
            # Above what the generator managed to send at 100% there is nothing to find.
            # (At 100% a starved generator may send less than at a lower rate: the best trial so far counts.)
            top = max(results, key=lambda r: r["offered_mpps"])
            low, high = 0.0, min(100.0, top["percent"] * 1.05)
            best = None
            for _ in range(args.steps):
                mid = (low + high) / 2
                r = record(trial(gen, args, mid, args.seconds), "search")
                if r["passed"]:
                    low, best = mid, r
                else:
                    high = mid
            if best is not None:
                best["no_drop"] = True
    lines = [dict(r) for r in results]
    if args.latency:
        lines.append(latency_trial(gen, args, results))
    gen.run('return "quit"')
    with open(args.out, "w") as out:
        for r in lines:
            out.write(json.dumps(r) + "\n")


def percentile(values, q):
    """Nearest rank of sorted values."""
    return values[max(0, min(len(values) - 1, int(-(-q * len(values) // 100)) - 1))]


def latency_trial(gen, args, results):
    """One trial with pktgen's latency packets and sampler; returns a line of kind "latency" (in us)."""
    passed = [r for r in results if r["passed"] and r["stage"] != "check"]
    if passed:
        percent = max(passed, key=lambda r: r["percent"])["percent"]
        at = "the highest rate without loss above the tolerance"
    else:
        # A light load instead: at 1% (0.15 Mpps of 64 B) the generator's own rings stay short.
        percent = 1.0
        at = "1% of the link: no rate passed"
    control = os.path.abspath(args.control)
    samples_file = os.path.join(control, "latency-samples.txt")
    counts_file = os.path.join(control, "latency-counts.txt")
    # The latency packet is a copy of the single packet (pktgen_latency_setup): addressed to the device; it is
    # UDP to port 1028 (LATENCY_DPORT), which bench-pktgen.sh gives Sluice as a UDP VIP.
    gen.run('pktgen.set_mac("0", "dst", "%s")' % args.latency_dst_mac)
    gen.run('pktgen.set_ipaddr("0", "dst", "%s")' % args.latency_dst_ip)
    gen.run('pktgen.latency("0-1", "rate", %d)' % LATENCY_GAP_US)
    gen.run('pktgen.latency("0-1", "enable")')
    gen.run('pktgen.latsampler_params("1", "simple", %d, 1000000, "%s")' % (LATENCY_SAMPLES, samples_file))
    gen.run('pktgen.latsampler("1", "on")')
    r = trial(gen, args, percent, args.seconds)
    gen.run('pktgen.latsampler("1", "off")')  # writes the samples
    gen.run('local t = pktgen.pktStats("1")[1].latency\n'
            'local f = io.open("%s", "w")\n'
            'f:write(string.format("%%d %%d\\n", t.num_pkts, t.num_skipped))\n'
            'f:close()' % counts_file)
    gen.run('pktgen.latency("0-1", "disable")')
    line = {"kind": "latency", "device": args.device, "size": r["size"], "flows": args.flows,
            "syn_share": args.syn_share, "at": at, "percent": r["percent"], "offered_mpps": r["offered_mpps"],
            "delivered_mpps": r["delivered_mpps"], "loss_pct": r["loss_pct"], "seconds": r["seconds"]}
    values = []
    if os.path.exists(samples_file):
        with open(samples_file) as f:
            values = sorted(int(v) / 1000.0 for v in f.read().split()[1:])  # header "Latency", then ns
    with open(counts_file) as f:
        found, skipped = (int(v) for v in f.read().split())
    # found: latency packets pktgen matched; skipped: gaps in their sequence (lost ones), which it leaves out.
    line.update({"samples": len(values), "found": found, "skipped": skipped})
    if values:
        line.update({"min_us": round(values[0], 2), "p50_us": round(percentile(values, 50), 2),
                     "p99_us": round(percentile(values, 99), 2), "p999_us": round(percentile(values, 99.9), 2),
                     "max_us": round(values[-1], 2)})
    else:
        line.update({"p50_us": None, "p99_us": None, "p999_us": None, "max_us": None,
                     "reason": "no latency packet came back with its timestamp (%d found by pktgen)" % found})
    print("pktgen_bench: %-6s latency at %.2f%% (%s): %d samples, p50 %s us, p99 %s us, p99.9 %s us, max %s us"
          % (args.size, percent, at, len(values), line["p50_us"], line["p99_us"], line["p999_us"], line["max_us"]),
          file=sys.stderr)
    return line


def gre_check(args):
    """Counts the frames of a pcap per backend; every frame must be GRE from tunnel_source to a backend, with
    the original TCP packet to VIP:port inside (RFC 2784)."""
    backends = args.backends.split(",")
    vip = socket.inet_aton(args.vip)
    source = socket.inet_aton(args.tunnel_source)
    mac = bytes.fromhex(args.next_hop_mac.replace(":", "")) if args.next_hop_mac else None
    per_backend = collections.Counter()
    bad = collections.Counter()
    frames = 0
    with open(args.pcap, "rb") as f:
        data = f.read()
    if len(data) < 24 or struct.unpack("<I", data[:4])[0] not in (0xA1B2C3D4, 0xA1B23C4D):
        raise SystemExit("pktgen_bench: %s is not a pcap file" % args.pcap)
    offset = 24
    while offset + 16 <= len(data):
        incl = struct.unpack("<I", data[offset + 8:offset + 12])[0]
        frame = data[offset + 16:offset + 16 + incl]
        offset += 16 + incl
        frames += 1
        reason = None
        if mac is not None and frame[0:6] != mac:
            reason = "destination MAC is not the next hop"
        elif frame[12:14] != b"\x08\x00":
            reason = "not IPv4"
        elif frame[14 + 9] != 47:
            reason = "not GRE"
        elif frame[14 + 12:14 + 16] != source:
            reason = "outer source is not the tunnel source"
        else:
            outer_len = (frame[14] & 0x0F) * 4
            gre = 14 + outer_len
            inner = gre + 4
            if frame[gre + 2:gre + 4] != b"\x08\x00":
                reason = "GRE payload is not IPv4"
            elif frame[inner + 16:inner + 20] != vip:
                reason = "inner destination is not the VIP"
            elif frame[inner + 9] != 6 or \
                    struct.unpack("!H", frame[inner + (frame[inner] & 0x0F) * 4 + 2:][:2])[0] != args.port:
                reason = "inner packet is not TCP to the VIP's port"
            else:
                backend = socket.inet_ntoa(frame[14 + 16:14 + 20])
                if backend in backends:
                    per_backend[backend] += 1
                else:
                    reason = "outer destination %s is not a configured backend" % backend
        if reason:
            bad[reason] += 1
    result = {"frames": frames, "gre_to_backends": sum(per_backend.values()),
              "per_backend": {b: per_backend[b] for b in backends}, "bad": dict(bad)}
    print(json.dumps(result))
    missing = [b for b in backends if per_backend[b] == 0]
    if frames == 0 or bad or missing:
        print("pktgen_bench: GRE check failed: %d frames, bad %s, backends without frames %s"
              % (frames, dict(bad), missing), file=sys.stderr)
        sys.exit(1)


def plot(args):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    series = collections.defaultdict(list)
    with open(args.results) as f:
        for line in f:
            r = json.loads(line)
            # The sink returns nothing by design: it has no delivered rate to plot.
            if r.get("kind", "trial") == "trial" and r.get("stage") != "check" and r["device"] != "sink":
                series[(r["device"], profile_name(r))].append((r["offered_mpps"], r["delivered_mpps"]))
    fig, ax = plt.subplots(figsize=(6.4, 4.2), dpi=80)
    top = 0.0
    for (device, profile), points in sorted(series.items()):
        points.sort()
        xs, ys = zip(*points)
        top = max(top, max(xs), max(ys))
        ax.plot(xs, ys, marker="o", markersize=3, linestyle="-" if device == "sluice" else "--",
                label="%s, %s" % (device, profile))
    ax.plot([0, top], [0, top], color="grey", linewidth=0.5, label="no loss")
    ax.set_xlabel("offered (generator TX), Mpps")
    ax.set_ylabel("delivered (generator RX), Mpps")
    ax.set_title(args.title, fontsize=9)
    ax.legend(fontsize=7)
    ax.grid(True, linewidth=0.3)
    fig.tight_layout()
    fig.savefig(args.out)


def profile_name(r):
    name = "%s B" % r["size"] if r["size"] != "imix" else "IMIX"
    name += ", %d flows" % r["flows"]
    if r.get("syn_share"):
        name += ", %g%% SYN" % (100 * r["syn_share"])
    return name


def latency_entry(device, line):
    """A run's latency for the summary: the percentiles in us, or nulls and why there are none."""
    entry = {"p50_us": None, "p99_us": None, "p999_us": None, "max_us": None}
    if device == "sink":
        entry["reason"] = "nothing comes back from testpmd rxonly"
    elif line is None:
        entry["reason"] = "no latency trial in this run (--smoke runs none)"
    else:
        entry.update({k: line[k] for k in ("p50_us", "p99_us", "p999_us", "max_us", "samples", "found",
                                              "skipped", "at", "percent", "offered_mpps",
                                              "delivered_mpps", "loss_pct") if k in line})
        if "min_us" in line:
            entry["min_us"] = line["min_us"]
        if line.get("reason"):
            entry["reason"] = line["reason"]
    return entry


def summary(args):
    """The human table and the --json line, from the trials, the forwarder's counters and the GRE checks."""
    trials, counters, gre, latency = [], {}, [], {}
    with open(args.results) as f:
        for line in f:
            r = json.loads(line)
            kind = r.get("kind", "trial")
            if kind == "trial":
                trials.append(r)
            elif kind == "sluice_counters":
                counters[(r["size"], r["flows"], r["syn_share"])] = r
            elif kind == "gre":
                gre.append(r)
            elif kind == "latency":
                latency[(r["device"], r["size"], r["flows"], r["syn_share"])] = r
    runs = collections.OrderedDict()
    for r in trials:
        runs.setdefault((r["device"], r["size"], r["flows"], r["syn_share"]), []).append(r)
    ceiling = {}  # generator alone (testpmd rxonly as the sink), per frame size
    for (device, size, flows, syn), rs in runs.items():
        if device == "sink":
            ceiling[size] = max(x["offered_mpps"] for x in rs if x["stage"] == "max")
    rows, per_size = [], collections.OrderedDict()
    for (device, size, flows, syn), rs in runs.items():
        full = [x for x in rs if x["stage"] == "max"][-1]
        best = [x for x in rs if x.get("no_drop")]
        no_drop = best[-1]["delivered_mpps"] if best else 0.0
        searched = any(x["stage"] == "search" for x in rs) or bool(best)
        notes = []
        c = counters.get((size, flows, syn)) if device == "sluice" else None
        if c is not None and c["duty_cycles"] > 0:
            burst = c["rx_packets"] / c["duty_cycles"]
            c["mean_rx_burst"] = round(burst, 2)
            if burst < 16:
                notes.append("generator-limited: the forwarder's polls brought %.1f packets of 32 on average" % burst)
        if c is not None and (syn or flows > 131072):
            expected = syn * c["rx_packets"] if syn else flows
            notes.append("new flows (connection misses): %d, expected about %d%s" % (
                c["conn_misses"], expected, "" if c["conn_misses"] >= 0.5 * expected else
                " (too few: is pktgen patched for random bits on pcap frames? see bench-pktgen.sh)"))
        if size in ceiling and device != "sink" and full["delivered_mpps"] >= 0.9 * ceiling[size]:
            notes.append("generator-limited: delivered >= 90%% of what the generator sends alone (%.2f Mpps)"
                         % ceiling[size])
        if full["offered_mpps"] < 0.9 * full["target_mpps"] and full["loss_pct"] <= args.tolerance:
            notes.append("the generator sent %.2f of %.2f Mpps asked, loss within the tolerance" %
                         (full["offered_mpps"], full["target_mpps"]))
        row = {"device": device, "profile": profile_name(full), "size": size, "flows": flows, "syn_share": syn,
               "offered_mpps": full["offered_mpps"], "delivered_mpps": full["delivered_mpps"],
               "loss_pct": full["loss_pct"], "no_drop_mpps": no_drop if searched else None,
               "gen_rx_missed": full["gen_rx_missed"], "dut_rx_missed": full.get("dut_rx_missed", 0),
               "dut_lost": full.get("dut_lost", 0), "generator_limited": any("generator-limited" in n for n in notes),
               "notes": notes}
        if c is not None:
            row["sluice_counters"] = {k: c[k] for k in c if k not in ("kind", "size", "flows", "syn_share")}
        row["latency"] = latency_entry(device, latency.get((device, size, flows, syn)))
        rows.append(row)
        if flows == args.flows and not syn:
            per_size.setdefault(str(size), {})
            key = {"sink": "generator", "sluice": "sluice", "testpmd-io": "testpmd_io",
                   "testpmd-5tswap": "testpmd_5tswap"}.get(device, device)
            per_size[str(size)][key + "_mpps"] = full["delivered_mpps" if device != "sink" else "offered_mpps"]
            if device == "sluice" and searched:
                per_size[str(size)]["no_drop_mpps"] = no_drop
    print("pktgen -> vhost-user -> device under test (forwarding on core 1) -> vhost-user -> pktgen (core 0)")
    print("  %s; load average before %s, after %s (%d cores); loss tolerance %g%%; trials of %g s"
          % (args.date, args.load_before, args.load_after, os.cpu_count(), args.tolerance, args.seconds))
    print("  %-15s %-28s %9s %10s %8s %10s %11s %11s %9s" % ("device", "traffic", "offered", "delivered", "loss %",
          "no-drop", "gen rx miss", "dut rx miss", "dut lost"))
    for row in rows:
        sink = row["device"] == "sink"  # frames end in testpmd rxonly: nothing comes back, by design
        print("  %-15s %-28s %9.3f %10s %8s %10s %11d %11d %9s" % (
            row["device"], row["profile"], row["offered_mpps"],
            "-" if sink else "%.3f" % row["delivered_mpps"], "-" if sink else "%.4f" % row["loss_pct"],
            "%.3f" % row["no_drop_mpps"] if row["no_drop_mpps"] is not None else "-", row["gen_rx_missed"],
            row["dut_rx_missed"], "-" if sink else row["dut_lost"]))
        for note in row["notes"]:
            print("  %15s   %s" % ("", note))
        lat = row["latency"]
        if lat.get("p50_us") is not None:
            print("  %15s   latency at %.3f Mpps offered (%s): p50 %.1f us, p99 %.1f us, p99.9 %.1f us, max %.1f us"
                  " (%d samples)" % ("", lat["offered_mpps"], lat["at"], lat["p50_us"], lat["p99_us"], lat["p999_us"],
                                     lat["max_us"], lat["samples"]))
        elif not sink:
            print("  %15s   latency: not measured: %s" % ("", lat["reason"]))
        if "sluice_counters" in row:
            c = row["sluice_counters"]
            print("  %15s   forwarder: rx %d, forwarded %d, tx full drops %d, dropped %d, connection misses %d"
                  " (%.1f%% of rx), evictions %d%s" % ("", c["rx_packets"], c["forwarded"], c["tx_full_drops"],
                                        c["dropped"], c["conn_misses"], 100.0 * c["conn_misses"] / max(1, c["rx_packets"]),
                                        c.get("conn_evictions", 0),
                                        ", mean rx burst %.1f" % c["mean_rx_burst"] if "mean_rx_burst" in c else ""))
    checked = sum(g["gre_to_backends"] for g in gre)
    for g in gre:
        print("  GRE check (%s): %d frames captured, all GRE to a backend: %s" % (
            g["profile"], g["frames"], ", ".join("%s %d" % kv for kv in g["per_backend"].items())))
    first = lambda device: next((r for r in rows if r["device"] == device and r["flows"] == args.flows
                                 and not r["syn_share"] and str(r["size"]) == str(args.first_size)), None)
    sink, sluice, io, swap = first("sink"), first("sluice"), first("testpmd-io"), first("testpmd-5tswap")
    ratio = lambda a, b: round(a / b, 3) if a is not None and b else None
    out = {
        "generator_mpps": sink["offered_mpps"] if sink else None,
        "sluice_mpps": sluice["delivered_mpps"] if sluice else None,
        "no_drop_mpps": sluice["no_drop_mpps"] if sluice else None,
        "testpmd_io_mpps": io["delivered_mpps"] if io else None,
        "testpmd_5tswap_mpps": swap["delivered_mpps"] if swap else None,
        "gre_frames_checked": checked,
        "frame_size": args.first_size, "flows": args.flows,
    }
    out["ratio_io"] = ratio(out["sluice_mpps"], out["testpmd_io_mpps"])
    out["ratio_5tswap"] = ratio(out["sluice_mpps"], out["testpmd_5tswap_mpps"])
    out["ratio_generator"] = ratio(out["sluice_mpps"], out["generator_mpps"])
    out["generator_limited"] = bool(sluice and sluice["generator_limited"])
    # Per device, at the first size and flow count: p50/p99/p99.9/max in us, or nulls and the reason.
    out["latency"] = {device: row["latency"] for device, row in
                      (("sink", sink), ("testpmd-io", io), ("testpmd-5tswap", swap), ("sluice", sluice)) if row}
    if len(per_size) > 1 or args.sizes_given:
        out["sizes"] = per_size
    out["runs"] = rows
    out["tolerance_pct"] = args.tolerance
    out["date"] = args.date
    out["load_before"] = args.load_before
    out["load_after"] = args.load_after
    print("  sluice/testpmd_io %s, sluice/testpmd_5tswap %s, sluice/generator alone %s%s" % (
        out["ratio_io"], out["ratio_5tswap"], out["ratio_generator"],
        " (the generator, not Sluice, was the limit)" if out["generator_limited"] else ""))
    if args.json:
        print(json.dumps(out, separators=(",", ":")))


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    t = sub.add_parser("trials")
    t.add_argument("--control", required=True)
    t.add_argument("--gen-socket", required=True)
    t.add_argument("--dut-socket")
    t.add_argument("--device", required=True)
    t.add_argument("--size", required=True)
    t.add_argument("--frame-bytes", type=float, required=True)
    t.add_argument("--mode", choices=("point", "search", "sweep"), default="search")
    t.add_argument("--seconds", type=float, default=3.0)
    t.add_argument("--tolerance", type=float, default=0.0)
    t.add_argument("--steps", type=int, default=6)
    t.add_argument("--flows", type=int, default=0, help="recorded with each trial")
    t.add_argument("--syn-share", type=float, default=0.0, help="recorded with each trial")
    t.add_argument("--capture", action="store_true")
    t.add_argument("--syn-offset", action="store_true")
    t.add_argument("--flow-bits", type=int, default=0)
    t.add_argument("--latency", action="store_true")
    t.add_argument("--latency-dst-ip", default="10.100.0.1")
    t.add_argument("--latency-dst-mac", default="02:00:00:00:00:01")
    t.add_argument("--out", required=True)
    g = sub.add_parser("gre-check")
    g.add_argument("pcap")
    g.add_argument("--vip", required=True)
    g.add_argument("--port", type=int, required=True)
    g.add_argument("--backends", required=True)
    g.add_argument("--tunnel-source", required=True)
    g.add_argument("--next-hop-mac")
    p = sub.add_parser("plot")
    p.add_argument("results")
    p.add_argument("out")
    p.add_argument("--title", default="delivered vs offered")
    m = sub.add_parser("summary")
    m.add_argument("results")
    m.add_argument("--date", required=True)
    m.add_argument("--load-before", required=True)
    m.add_argument("--load-after", required=True)
    m.add_argument("--tolerance", type=float, default=0.0)
    m.add_argument("--seconds", type=float, required=True)
    m.add_argument("--flows", type=int, required=True)
    m.add_argument("--first-size", required=True)
    m.add_argument("--sizes-given", action="store_true")
    m.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    {"trials": run_trials, "gre-check": gre_check, "plot": plot, "summary": summary}[args.command](args)


if __name__ == "__main__":
    main(sys.argv[1:])
