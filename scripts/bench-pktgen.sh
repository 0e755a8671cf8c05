#!/usr/bin/env bash
# Line-rate benchmark with pktgen-dpdk, the way operators measure a load balancer (issue 17): offered against
# delivered rate, the no-drop rate (RFC 2544 section 26.1, binary search with a loss tolerance), over frame
# sizes (64, 512, 1518, IMIX), flow counts and a SYN-flood mix, with the drops of each stage, a check that
# what comes back is GRE to the configured backends (frames counted per backend) and latency percentiles from
# pktgen's latency packets (one more trial per run, at the no-drop rate; not in --smoke).
#
# --local (the default): pktgen's two net_virtio_user ports are linked over vhost-user sockets to two net_vhost
# ports of the device under test, one after the other:
#   sink            dpdk-testpmd rxonly: what the generator sends alone (its ceiling on this machine)
#   testpmd-io      dpdk-testpmd --forward-mode=io (the I/O floor)
#   testpmd-5tswap  dpdk-testpmd --forward-mode=5tswap (parses L2-L4 and swaps addresses and ports)
#   sluice          the forwarder: net_vhost0 in, GRE to the VIP's backends out of net_vhost1
# Each device forwards on core 1 (its other threads on core 0); pktgen runs on core 0 (its display thread
# reniced). Rates come from DPDK telemetry (/ethdev/stats of pktgen and of the device), never from pktgen's
# screen. --ports PCI_A,PCI_B runs Sluice on two NIC ports instead (see docs/benchmarks.md, "Benchmarking on
# real NICs"), with pktgen on --gen-ports PCI_C,PCI_D of the same box.
#
# pktgen: --pktgen BINARY (or PKTGEN), or --pktgen-src TARBALL|DIR (or PKTGEN_SRC), built once with meson into
# native/build/pktgen-<version>/ and reused. Needs root (apt-get, hugepages: about 2.6 GB for pktgen).
set -euo pipefail

usage() {
    echo "usage: scripts/bench-pktgen.sh [--local | --ports PCI_A,PCI_B --gen-ports PCI_C,PCI_D [--gen-lcores MAP]" \
        "[--gen-map MAP] [--dut-mac MAC]] [--quick | --smoke] [--sizes LIST] [--flows LIST] [--syn-share S] [--tolerance PCT] [--seconds S] [--steps N]" \
        "[--devices LIST] [--pktgen BIN | --pktgen-src SRC] [--build-only] [--dry-run] [--json] [--results DIR]" \
        "[-h | --help]"
}

print_help() {
    usage
    cat <<'EOF'
  --local          pktgen <-> vhost-user <-> device under test on this machine (default)
  --ports A,B      Sluice on the NIC ports A (in, from the generator) and B (out, towards the generator);
                   needs --gen-ports C,D: pktgen's ports cabled to A and B (C -> A, B -> D)
  --gen-lcores MAP pktgen's EAL --lcores (default 0@0,1@0: main and worker lcore on core 0)
  --gen-map MAP    pktgen's -m matrix of lcores to ports (default 1.[0-1]: lcore 1 serves both ports; on NICs
                   e.g. "[1:2].0,[3:4].1" for an RX and a TX lcore per port)
  --dut-mac MAC    destination MAC of the generated frames (default 02:00:00:00:00:01; on NICs: port A's MAC)
  --quick          one short point per device (64 B, 10,000 flows, 1 s trials; a 3-step search for Sluice):
                   under 5 minutes here
  --smoke          Sluice only, one point of 2 s after the GRE check; asserts the GRE output, that frames
                   came back and that each of the flows made one connection entry (scripts/test.sh); no latency
  --sizes LIST     frame sizes with FCS, 64..1518, or imix (7 x 64, 4 x 570, 1 x 1518); default
                   64,512,1518,imix (--quick: 64)
  --flows LIST     flow counts (default 10000,1000000; --quick and --smoke: 10000); the first is used for every
                   size, the others at the first size only
  --syn-share S    also run the first size with this share of SYNs of new flows (default 0.1; 0: no SYN run;
                   not in --quick or --smoke)
  --tolerance PCT  loss a trial may have and still pass the no-drop search (default 0)
  --seconds S      length of each trial (default 3; --quick 1)
  --steps N        bisection steps of the no-drop search (default 6; --quick 3)
  --devices LIST   of sink, testpmd-io, testpmd-5tswap, sluice (default all four)
  --pktgen BIN     an installed pktgen binary (or PKTGEN=BIN)
  --pktgen-src SRC pktgen-dpdk source, a .tar.gz or a directory (or PKTGEN_SRC=SRC); built with meson into
                   native/build/pktgen-<version>/ once
  --build-only     build (or find) pktgen and stop: builds need not hold the benchmark lock
  --dry-run        print the device and generator command lines and stop (for --ports on a box without NICs)
  --json           end with one JSON line: generator_mpps, sluice_mpps, no_drop_mpps, testpmd_io_mpps,
                   testpmd_5tswap_mpps, gre_frames_checked, ratios, latency (per device: p50_us, p99_us,
                   p999_us, max_us, or nulls and a reason), sizes (per frame size), runs, load
  --results DIR    keep the logs, the trials (results.jsonl), the captured frames and the plot in DIR
                   (the plot, delivered vs offered per frame size, is written as DIR/pktgen.png; without
                   --results next to nothing: see the last lines of the report)
Run it under the shared lock: flock /tmp/sluice-heavy.lock timeout 900 scripts/bench-pktgen.sh ...
EOF
}

die() {
    echo "bench-pktgen: $*" >&2
    exit 1
}

usage_error() {
    echo "bench-pktgen: $*" >&2
    usage >&2
    exit 2
}

log() {
    echo "bench-pktgen: $*" >&2
}

topology=local
dut_ports=""
gen_ports=""
gen_lcores="0@0,1@0"
gen_map="1.[0-1]"
dut_mac="02:00:00:00:00:01"
preset=full
sizes=""
flows_list=""
syn_share=""
tolerance=0
seconds=""
steps=""
devices="sink,testpmd-io,testpmd-5tswap,sluice"
pktgen_bin=${PKTGEN:-}
pktgen_src=${PKTGEN_SRC:-}
build_only=0
dry_run=0
json=0
results_dir=""
no_huge=0
while [[ $# -gt 0 ]]; do
    case "$1" in
        --local) topology=local ;;
        --quick) preset=quick ;;
        --smoke) preset=smoke ;;
        --build-only) build_only=1 ;;
        --dry-run) dry_run=1 ;;
        --json) json=1 ;;
        --ports|--gen-ports|--gen-lcores|--gen-map|--dut-mac|--sizes|--flows|--syn-share|--tolerance|--seconds|--steps|--devices|\
        --pktgen|--pktgen-src|--results)
            [[ $# -ge 2 ]] || usage_error "$1 needs a value"
            case "$1" in
                --ports) topology=ports; dut_ports=$2 ;;
                --gen-ports) gen_ports=$2 ;;
                --gen-lcores) gen_lcores=$2 ;;
                --gen-map) gen_map=$2 ;;
                --dut-mac) dut_mac=$2 ;;
                --sizes) sizes=$2 ;;
                --flows) flows_list=$2 ;;
                --syn-share) syn_share=$2 ;;
                --tolerance) tolerance=$2 ;;
                --seconds) seconds=$2 ;;
                --steps) steps=$2 ;;
                --devices) devices=$2 ;;
                --pktgen) pktgen_bin=$2 ;;
                --pktgen-src) pktgen_src=$2 ;;
                --results) results_dir=$2 ;;
            esac
            shift ;;
        -h|--help) print_help; exit 0 ;;
        *) usage_error "unknown option: $1" ;;
    esac
    shift
done

sizes_given=0
[[ -n "$sizes" ]] && sizes_given=1
case $preset in
    full) : "${sizes:=64,512,1518,imix}" "${flows_list:=10000,1000000}" "${syn_share:=0.1}" "${seconds:=3}" "${steps:=6}" ;;
    quick) : "${sizes:=64}" "${flows_list:=10000}" "${syn_share:=0}" "${seconds:=1}" "${steps:=3}" ;;
    smoke) : "${sizes:=64}" "${flows_list:=10000}" "${syn_share:=0}" "${seconds:=2}" "${steps:=0}"
        devices=sluice ;;
esac
# Latency (pktgen's latency packets, one more trial per run) in every preset but --smoke, whose counts it would
# change (its UDP flow is one more connection).
latency=1
[[ $preset != smoke ]] || latency=0
IFS=, read -r -a size_list <<< "$sizes"
IFS=, read -r -a flow_counts <<< "$flows_list"
IFS=, read -r -a device_list <<< "$devices"
for s in "${size_list[@]}"; do
    [[ "$s" == imix || ( "$s" =~ ^[0-9]+$ && "$s" -ge 64 && "$s" -le 1518 ) ]] ||
        usage_error "--sizes: '$s' is not 64..1518 or imix"
done
for f in "${flow_counts[@]}"; do
    [[ "$f" =~ ^[1-9][0-9]*$ && "$f" -le 16000000 ]] || usage_error "--flows: '$f' is not a count of 1..16000000"
done
for d in "${device_list[@]}"; do
    [[ "$d" =~ ^(sink|testpmd-io|testpmd-5tswap|sluice)$ ]] || usage_error "--devices: unknown device '$d'"
done
[[ "$syn_share" =~ ^(0|0?\.[0-9]+)$ ]] || usage_error "--syn-share must be in [0, 1), got '$syn_share'"
[[ "$tolerance" =~ ^[0-9]+(\.[0-9]+)?$ ]] || usage_error "--tolerance must be a percentage, got '$tolerance'"
[[ "$seconds" =~ ^[0-9]+(\.[0-9]+)?$ ]] && awk -v s="$seconds" 'BEGIN { exit !(s >= 0.5 && s <= 60) }' ||
    usage_error "--seconds must be 0.5..60, got '$seconds'"
[[ "$steps" =~ ^[0-9]+$ && "$steps" -le 12 ]] || usage_error "--steps must be 0..12, got '$steps'"
if [[ $topology == ports ]]; then
    [[ "$dut_ports" =~ ^[^,]+,[^,]+$ ]] || usage_error "--ports needs two PCI addresses, PCI_A,PCI_B"
    [[ "$gen_ports" =~ ^[^,]+,[^,]+$ ]] ||
        usage_error "--ports needs --gen-ports PCI_C,PCI_D (pktgen's ports; for a generator on a second box see docs/benchmarks.md)"
    device_list=(sluice)
fi

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
lib="$root/scripts/lib"
readonly FORWARDING_CORE=1
readonly DUT_MEMORY_MB=512
readonly GEN_MEMORY_MB=2600 # pktgen's default mbufs are 10 KiB: two ports need about 2.4 GB
readonly MAX_PCAP_FRAMES=131072
readonly VIP=10.100.0.1 VIP_PORT=80 TUNNEL_SOURCE=10.0.0.1 NEXT_HOP_MAC="02:00:00:00:00:fe"
readonly LATENCY_PORT=1028 # pktgen's LATENCY_DPORT
readonly BACKENDS=(10.1.0.1 10.1.0.2 10.1.0.3 10.1.0.4)
PYTHON=/usr/bin/python3 # Debian's: the python3 first on PATH may lack matplotlib
node="bench-pktgen-$$"
gen_prefix="sluice-bench-pktgen-gen-$$"
dut_prefix="sluice-bench-pktgen-dut-$$"
counters_root=/dev/shm/sluice
counters_root_made=0
work=""

# shellcheck source=scripts/lib/bench.sh
source "$lib/bench.sh"

cleanup() {
    local status=$?
    trap - EXIT
    trap '' INT TERM
    stop_started_processes
    remove_dpdk_leftovers "$gen_prefix" "$dut_prefix" "sluice-$node"
    rm -rf "${counters_root:?}/$node"
    [[ $counters_root_made -eq 1 ]] && { rmdir "$counters_root" 2>/dev/null || true; }
    release_hugepages
    keep_results bench-pktgen "$work" "$results_dir"
    exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

install_packages() {
    # shellcheck source=scripts/lib/packages.sh
    source "$lib/packages.sh"
    install_missing_packages bench-pktgen "${SLUICE_BUILD_PACKAGES[@]}" "${SLUICE_PKTGEN_PACKAGES[@]}" jq python3
}

# Sets pktgen_bin: the given binary, or the cached build of the given source (built when missing).
find_pktgen() {
    if [[ -n "$pktgen_bin" ]]; then
        [[ -x "$pktgen_bin" ]] || usage_error "--pktgen/PKTGEN: '$pktgen_bin' is not an executable"
        return
    fi
    [[ -n "$pktgen_src" ]] || usage_error "need pktgen: --pktgen BIN, --pktgen-src TARBALL|DIR, PKTGEN or PKTGEN_SRC"
    [[ -e "$pktgen_src" ]] || usage_error "--pktgen-src/PKTGEN_SRC: no such file or directory: $pktgen_src"
    local version src_dir unpacked=""
    if [[ -d "$pktgen_src" ]]; then
        src_dir=$(cd "$pktgen_src" && pwd)
    else
        unpacked=$(mktemp -d "${TMPDIR:-/tmp}/sluice-pktgen-src.XXXXXX")
        tar -xzf "$pktgen_src" -C "$unpacked" || { rm -rf "$unpacked"; die "cannot unpack $pktgen_src"; }
        # The release tarball has no top directory; a git archive has one.
        src_dir=$unpacked
        [[ -f "$src_dir/meson.build" ]] || src_dir=$(find "$unpacked" -mindepth 1 -maxdepth 1 -type d | head -1)
    fi
    [[ -f "$src_dir/VERSION" && -f "$src_dir/meson.build" ]] ||
        { rm -rf "$unpacked"; die "$pktgen_src is not a pktgen-dpdk source tree (no VERSION, meson.build)"; }
    version=$(tr -d '[:space:]' < "$src_dir/VERSION")
    [[ "$version" =~ ^[0-9A-Za-z._-]+$ ]] || { rm -rf "$unpacked"; die "odd pktgen VERSION '$version'"; }
    # The build is keyed by version and by the one change made to it (PKTGEN_PATCH_LEVEL, below).
    local cache="$root/native/build/pktgen-$version-sluice$PKTGEN_PATCH_LEVEL"
    pktgen_bin="$cache/build/app/pktgen"
    if [[ -x "$pktgen_bin" ]]; then
        log "pktgen $version: cached build $pktgen_bin"
        [[ -z "$unpacked" ]] || rm -rf "$unpacked"
        return
    fi
    log "pktgen $version: building into $cache (about a minute)"
    rm -rf "$cache.tmp"
    mkdir -p "$root/native/build"
    cp -r "$src_dir" "$cache.tmp"
    [[ -z "$unpacked" ]] || rm -rf "$unpacked"
    patch_pktgen "$cache.tmp"
    # Without the c_args the Lua library misses rte_version.h (environment.md).
    (cd "$cache.tmp" && meson setup build -Denable_lua=true -Dc_args="$(pkg-config --cflags libdpdk)" &&
        ninja -C build) > "$root/native/build/pktgen-$version.build.log" 2>&1 ||
        { tail -20 "$root/native/build/pktgen-$version.build.log" >&2; die "pktgen $version did not build"; }
    # meson keeps absolute paths: rebuild-free use from the final directory is all we need.
    mv "$cache.tmp" "$cache"
    [[ -x "$pktgen_bin" ]] || die "pktgen built, but $pktgen_bin is missing"
}

# Two changes to pktgen 23.06.1 for random bit fields (pktgen.rnd) on the frames of a pcap, which the SYN mix
# and flow counts above the pcap's size need: turning random bits on no longer turns the pcap mode off
# (EXCLUSIVE_MODES in app/pktgen-port-cfg.h), and the bits are written into every frame sent (23.06.1 writes
# them only in pktgen_send_burst, which its transmit loop no longer calls: its random mode changes nothing).
# A third for latency through Sluice: pktgen finds a latency packet's timestamp at a fixed offset (behind an
# Ethernet, IPv4 and UDP header, pktgen_tstamp_pointer); Sluice sends it back inside GRE, 24 bytes further on,
# so the receive side also looks behind the outer IPv4 and GRE header of a GRE frame (pktgen_tstamp_check).
readonly PKTGEN_PATCH_LEVEL=3
patch_pktgen() {
    "$PYTHON" - "$1/app/pktgen-cmds.c" "$1/app/pktgen.c" <<'EOF'
import sys
def replace(path, old, new):
    text = open(path).read()
    if old not in text:
        sys.exit("bench-pktgen: cannot patch %s: it is not as in pktgen 23.06.1" % path)
    open(path, "w").write(text.replace(old, new))
old = """    if (onOff == ENABLE_STATE) {
        pktgen_clr_port_flags(info, EXCLUSIVE_MODES);
        pktgen_set_port_flags(info, SEND_RANDOM_PKTS);"""
new = """    if (onOff == ENABLE_STATE) {
        pktgen_clr_port_flags(info, EXCLUSIVE_MODES & ~SEND_PCAP_PKTS); /* Sluice: random bits on pcap frames */
        pktgen_set_port_flags(info, SEND_RANDOM_PKTS);"""
replace(sys.argv[1], old, new)
old = """    mlen = pg_pktmbuf_alloc_bulk(mp, pkts, txCnt);
"""
new = """    mlen = pg_pktmbuf_alloc_bulk(mp, pkts, txCnt);
    if (mlen > 0 && pktgen_tst_port_flags(info, SEND_RANDOM_PKTS)) /* Sluice: random bits on every frame */
        pktgen_rnd_bits_apply(info, pkts, mlen, NULL);
"""
replace(sys.argv[2], old, new)
old = """static __inline__ void
pktgen_tstamp_check(port_info_t *info, struct rte_mbuf **pkts, uint16_t nb_pkts)
{"""
new = """/* Sluice: a frame that comes back GRE-encapsulated (IPv4 in IPv4, RFC 2784, 4-byte header) carries the
 * original IPv4 packet, and so the timestamp, behind the outer IPv4 and GRE headers: the frame as
 * pktgen_tstamp_pointer expects it starts that many bytes later (its Ethernet header is the outer headers' end). */
static __inline__ char *
sluice_tstamp_frame(struct rte_mbuf *m)
{
    char *p = rte_pktmbuf_mtod(m, char *);
    struct rte_ether_hdr *eth = (struct rte_ether_hdr *)p;
    struct rte_ipv4_hdr *ip = (struct rte_ipv4_hdr *)&eth[1];
    uint32_t outer = (ip->version_ihl & 0x0f) * 4;

    if (rte_pktmbuf_data_len(m) >= sizeof(*eth) + outer + 4 + sizeof(*ip) + sizeof(struct rte_udp_hdr) + 24 &&
        eth->ether_type == rte_cpu_to_be_16(RTE_ETHER_TYPE_IPV4) && ip->next_proto_id == 47 &&
        *(uint16_t *)((char *)ip + outer + 2) == rte_cpu_to_be_16(RTE_ETHER_TYPE_IPV4))
        return p + outer + 4;
    return p;
}

static __inline__ void
pktgen_tstamp_check(port_info_t *info, struct rte_mbuf **pkts, uint16_t nb_pkts)
{"""
replace(sys.argv[2], old, new)
old = """            tstamp_t *tstamp = pktgen_tstamp_pointer(info, rte_pktmbuf_mtod(pkts[i], char *));"""
new = """            tstamp_t *tstamp = pktgen_tstamp_pointer(info, sluice_tstamp_frame(pkts[i])); /* Sluice: GRE */"""
replace(sys.argv[2], old, new)
EOF
}

frame_bytes() {
    # Mean frame size with FCS, for the line rate pktgen's percentages refer to (IMIX: 7 x 64, 4 x 570, 1518).
    if [[ $1 == imix ]]; then echo 353.83; else echo "$1"; fi
}

write_sluice_config() {
    local file=$1 rx=$2 tx=$3
    shift 3
    {
        forwarder_config_head "$node" "$@"
        cat <<EOF
  ports:
    - name: $rx
    - name: $tx
      mtu: 1600 # room for a 1518-byte frame and its 24 bytes of outer IPv4 and GRE
  workers:
    - core: $FORWARDING_CORE
      rx_port: $rx
      tx_port: $tx
  idle_strategy: busy-spin
  next_hop_mac: "$NEXT_HOP_MAC"
  tunnel_source_v4: $TUNNEL_SOURCE
  counters_dir: $counters_root
vips:
  - name: web
    address: $VIP
    port: $VIP_PORT
    protocol: tcp
    backends:
EOF
        local b
        for b in "${BACKENDS[@]}"; do
            echo "      - address: $b"
        done
        if [[ $latency -eq 1 ]]; then
            # pktgen's latency packets are UDP to port 1028 (pktgen_latency_setup): a VIP of their own.
            printf '  - name: latency\n    address: %s\n    port: %s\n    protocol: udp\n    backends:\n' \
                "$VIP" "$LATENCY_PORT"
            for b in "${BACKENDS[@]}"; do
                echo "      - address: $b"
            done
        fi
    } > "$file"
}

dut_eal_args() {
    if [[ $topology == local ]]; then
        dut_eal=(--no-pci -m "$DUT_MEMORY_MB" "--vdev=net_vhost0,iface=$work/vhost0.sock,queues=1"
            "--vdev=net_vhost1,iface=$work/vhost1.sock,queues=1")
        dut_rx=net_vhost0
        dut_tx=net_vhost1
    else
        dut_eal=(-m "$DUT_MEMORY_MB" -a "${dut_ports%,*}" -a "${dut_ports#*,}")
        dut_rx=${dut_ports%,*}
        dut_tx=${dut_ports#*,}
    fi
    [[ $use_hugepages -eq 1 ]] || dut_eal+=(--no-huge)
}

# Starts the device under test in the background; sets dut_pid and dut_socket (its telemetry socket).
start_dut() {
    local device=$1
    dut_eal_args
    if [[ $device == sluice ]]; then
        local config="$work/node.yaml" out="$work/forwarder.log"
        write_sluice_config "$config" "$dut_rx" "$dut_tx" "${dut_eal[@]}"
        "$root/scripts/sluice" check-config "$config" > "$work/check-config.log" 2>&1 ||
            { cat "$work/check-config.log" >&2; die "the generated config does not pass check-config"; }
        [[ $dry_run -eq 0 ]] || { echo "sluice forwarder --config $config:"; cat "$config"; return; }
        SLUICE_JAVA_OPTS="-XX:ActiveProcessorCount=2 ${SLUICE_JAVA_OPTS:-}" taskset -c 0 \
            "$root/scripts/sluice" forwarder --config "$config" > "$out" 2>&1 < /dev/null &
        dut_pid=$!
        pids+=("$dut_pid")
        await_forwarder_running "$out" "$dut_pid" 120 "$node" ||
            { tail -30 "$out" >&2; die "the forwarder did not start"; }
        dut_socket="/var/run/dpdk/sluice-$node/dpdk_telemetry.v2"
    else
        local mode=${device#testpmd-}
        [[ $device == sink ]] && mode=rxonly
        local cmd=(dpdk-testpmd "${dut_eal[@]}" --in-memory --file-prefix="$dut_prefix" -l "0,$FORWARDING_CORE" --
            --forward-mode="$mode" --nb-cores=1 --coremask="$(printf '0x%x' $(( 1 << FORWARDING_CORE )))"
            --no-lsc-interrupt --total-num-mbufs=32768 -a --stats-period 10 --record-burst-stats)
        [[ $dry_run -eq 0 ]] || { echo "$device: ${cmd[*]}"; return; }
        "${cmd[@]}" > "$work/$device.log" 2>&1 < /dev/null &
        dut_pid=$!
        pids+=("$dut_pid")
        dut_socket="/var/run/dpdk/$dut_prefix/dpdk_telemetry.v2"
    fi
    local deadline=$(( SECONDS + 60 ))
    until [[ -S "$dut_socket" ]] && { [[ $topology != local ]] || [[ -S "$work/vhost1.sock" ]]; }; do
        kill -0 "$dut_pid" 2>/dev/null || { tail -30 "$work"/*.log >&2; die "$device stopped early"; }
        (( SECONDS < deadline )) || die "$device: no telemetry socket after 60 s"
        sleep 0.2
    done
}

stop_dut() {
    local device=$1 status=0
    stop_process "$dut_pid" "$([[ $device == sluice ]] && echo TERM || echo INT)" 30 || status=$?
    [[ $status -eq 0 ]] || log "$device exited with status $status"
    if [[ $device == sluice ]]; then
        forwarder_log_stopped_cleanly "$work/forwarder.log" || { sluice_clean=false; tail -20 "$work/forwarder.log" >&2; }
        [[ $status -eq 0 ]] || sluice_clean=false
    fi
}

# One JSON object of the forwarder's totals (scripts/sluice stats), read while the generator is stopped.
sluice_totals() {
    taskset -c 0 "$root/scripts/sluice" stats --node "$node" --dir "$counters_root" --json --count 1 2>/dev/null |
        jq -c '{rx_packets: .totals.rx_packets, forwarded: .totals.forwarded, tx_full_drops: .totals.tx_full_drops,
                dropped: .totals.dropped, conn_misses: .totals.conn_misses, duty_cycles: .totals.duty_cycles,
                conn_evictions: .totals.conn_evictions,
                tx_packets: .totals.tx_packets}'
}

# run_generator DEVICE SIZE FLOWS SYN MODE: one pktgen process for one traffic profile against the running device.
run_generator() {
    local device=$1 size=$2 flows=$3 syn=$4 mode=$5
    local tag="$device-$size-$flows-$syn"
    local pcap="$work/frames-$size-$flows-$syn.pcap" flow_bits=0 file_flows=$flows frame_options=()
    while (( file_flows > MAX_PCAP_FRAMES )); do
        # More flows than frames: random low bits of the established frames' source port make up the rest.
        flow_bits=$(( flow_bits + 1 ))
        file_flows=$(( (flows + (1 << flow_bits) - 1) >> flow_bits ))
    done
    if (( flow_bits > 0 )) || [[ $syn != 0 ]]; then frame_options=(--options); fi
    [[ -f "$pcap" ]] || "$PYTHON" "$lib/bench_frames.py" "$pcap" --flows "$file_flows" --size "$size" \
        --syn-share "$syn" --dst-mac "$dut_mac" "${frame_options[@]}" > "$work/frames-$size-$flows-$syn.txt"
    local frames max_frame pool_mb
    frames=$(awk '{ print $1 }' "$work/frames-$size-$flows-$syn.txt")
    max_frame=$([[ $size == imix ]] && echo 1518 || echo "$size")
    # pktgen keeps the whole pcap in a pool of its own (at least 24,576 buffers of the largest frame).
    pool_mb=$(( ( (frames > 24576 ? frames : 24576) * (max_frame + 320) ) / 1048576 + 64 ))
    local gen_eal=(--lcores="$gen_lcores" -m "$(( GEN_MEMORY_MB + pool_mb ))" --file-prefix="$gen_prefix")
    if [[ $topology == local ]]; then
        # 1024-descriptor rings (virtio-user's default is 256): 85 us of 3 Mpps, too little for a loaded core 0.
        gen_eal+=(--no-pci --in-memory --single-file-segments
            "--vdev=net_virtio_user0,path=$work/vhost0.sock,queues=1,queue_size=1024"
            "--vdev=net_virtio_user1,path=$work/vhost1.sock,queues=1,queue_size=1024")
    else
        gen_eal+=(--in-memory -a "${gen_ports%,*}" -a "${gen_ports#*,}")
    fi
    [[ $use_hugepages -eq 1 ]] || gen_eal+=(--no-huge)
    local control="$work/control-$tag"
    rm -rf "$control"
    mkdir -p "$control"
    local pin=""
    [[ $topology == local ]] && pin="taskset -c 0 " # on real NICs --gen-lcores places pktgen's lcores
    local cmd="$pin$pktgen_bin ${gen_eal[*]} -- -P -m '$gen_map' --rxd=1024 --txd=1024 -s 0:$pcap -f $lib/pktgen-control.lua"
    [[ $dry_run -eq 0 ]] || { echo "generator: $cmd"; return; }
    local capture=()
    [[ $device == sluice && $syn == 0 ]] && capture=(--capture)
    local before="{}"
    [[ $device == sluice ]] && before=$(sluice_totals)
    # pktgen wants a terminal even when scripted; a Lua error would leave it waiting: hence script and timeout.
    (cd "$control" && BENCH_PKTGEN_CONTROL="$control" exec timeout 600 \
        script -qfec "$cmd" "$work/pktgen-$tag.log" < /dev/null > /dev/null) &
    local gen_pid=$!
    pids+=("$gen_pid")
    local deadline=$(( SECONDS + 60 ))
    until [[ -f "$control/ready" ]]; do
        kill -0 "$gen_pid" 2>/dev/null || { tail -c 3000 "$work/pktgen-$tag.log" >&2; die "pktgen stopped early"; }
        (( SECONDS < deadline )) || die "pktgen: not ready after 60 s"
        sleep 0.2
    done
    renice_pktgen
    local trial_args=(--control "$control" --gen-socket "/var/run/dpdk/$gen_prefix/dpdk_telemetry.v2"
        --dut-socket "$dut_socket" --device "$device" --size "$size" --frame-bytes "$(frame_bytes "$size")"
        --flows "$flows" --syn-share "$syn" --mode "$mode" --seconds "$seconds" --tolerance "$tolerance"
        --steps "$steps" --flow-bits "$flow_bits" --out "$work/trials-$tag.jsonl" "${capture[@]}")
    [[ $syn != 0 ]] && trial_args+=(--syn-offset)
    [[ $latency -eq 1 && $device != sink ]] &&
        trial_args+=(--latency --latency-dst-ip "$VIP" --latency-dst-mac "$dut_mac")
    log "$device, $size B, $flows flows, SYN share $syn: $mode"
    run_and_wait taskset -c 0 "$PYTHON" "$lib/pktgen_bench.py" trials "${trial_args[@]}" ||
        { tail -c 3000 "$work/pktgen-$tag.log" >&2; die "the trials against $device failed"; }
    # pktgen quits by itself after the last command; TERM only if it does not.
    local status=0 waited=0
    while kill -0 "$gen_pid" 2>/dev/null && (( waited < 300 )); do
        sleep 0.1
        waited=$(( waited + 1 ))
    done
    stop_process "$gen_pid" TERM 30 || status=$?
    [[ $status -eq 0 ]] || log "pktgen exited with status $status"
    cat "$work/trials-$tag.jsonl" >> "$work/results.jsonl"
    if [[ $device == sluice ]]; then
        jq -c -n --argjson a "$before" --argjson b "$(sluice_totals)" --arg size "$size" --argjson flows "$flows" \
            --argjson syn "$syn" '{kind: "sluice_counters", size: (if $size == "imix" then $size else ($size | tonumber) end),
             flows: $flows, syn_share: $syn} + ($b | with_entries(.value -= $a[.key]))' >> "$work/results.jsonl"
        if [[ ${#capture[@]} -gt 0 ]]; then
            check_gre "$control" "$size" "$flows"
        fi
    fi
}

# pktgen's display thread polls its main lcore: it yields to the worker lcore sharing core 0.
renice_pktgen() {
    local pid task
    for pid in $(pgrep -f -- "--file-prefix=$gen_prefix" || true); do
        [[ "$(cat "/proc/$pid/comm" 2>/dev/null)" == pktgen ]] && break
        pid=""
    done
    [[ -n "$pid" ]] || return 0
    for task in /proc/"$pid"/task/*; do
        [[ "$(cat "$task/comm" 2>/dev/null)" == lcore-worker-* ]] || renice -n 19 -p "${task##*/}" > /dev/null 2>&1 || true
    done
}

check_gre() {
    local control=$1 size=$2 flows=$3 capture
    capture=$(find "$control" -maxdepth 1 -name 'pktgen-*-1.pcap' | head -1)
    [[ -n "$capture" ]] || die "GRE check: pktgen wrote no capture of port 1"
    mv "$capture" "$work/capture-$size-$flows.pcap"
    local backends
    backends=$(IFS=,; echo "${BACKENDS[*]}")
    local result
    result=$("$PYTHON" "$lib/pktgen_bench.py" gre-check "$work/capture-$size-$flows.pcap" --vip "$VIP" \
        --port "$VIP_PORT" --backends "$backends" --tunnel-source "$TUNNEL_SOURCE" --next-hop-mac "$NEXT_HOP_MAC") ||
        die "GRE check failed: $result"
    jq -c --arg p "$size B, $flows flows" '{kind: "gre", profile: $p} + .' <<< "$result" >> "$work/results.jsonl"
}

# The traffic profiles a device runs: SIZE FLOWS SYN, one per line.
profiles() {
    local device=$1 s f
    for s in "${size_list[@]}"; do echo "$s ${flow_counts[0]} 0"; done
    [[ $device == sluice ]] || return 0
    for f in "${flow_counts[@]:1}"; do echo "${size_list[0]} $f 0"; done
    [[ $syn_share == 0 ]] || echo "${size_list[0]} ${flow_counts[0]} $syn_share"
}

device_mode() {
    case "$preset:$1" in
        *:sink) echo point ;;
        quick:sluice) echo search ;;
        quick:*|smoke:*) echo point ;;
        *) echo sweep ;;
    esac
}

if [[ $dry_run -eq 0 ]]; then
    install_packages
fi
find_pktgen
[[ $build_only -eq 0 ]] || { echo "$pktgen_bin"; exit 0; }
make -s -C "$root/native" shim >&2

work="$(mktemp -d "${TMPDIR:-/tmp}/sluice-bench-pktgen.XXXXXX")"
[[ -d "$counters_root" ]] || { mkdir -p "$counters_root"; counters_root_made=1; }
: > "$work/results.jsonl"
use_hugepages=1
if [[ $dry_run -eq 1 ]]; then
    hugepages_note="not reserved (--dry-run)"
elif reserve_hugepages $(( GEN_MEMORY_MB + DUT_MEMORY_MB + 1024 )); then
    use_hugepages=1
else
    die "pktgen needs hugepages (about 2.6 GB): $hugepages_note"
fi
log "hugepages: $hugepages_note"

load_before=$(load_average)
date_utc=$(date -u '+%Y-%m-%d %H:%M UTC')
core_busy_before=$(core_busy_percent)
(( core_busy_before <= 20 )) ||
    log "WARNING: core $FORWARDING_CORE was ${core_busy_before}% busy before the start (another process?)"
sluice_clean=true
for device in "${device_list[@]}"; do
    start_dut "$device"
    while read -r size flows syn; do
        run_generator "$device" "$size" "$flows" "$syn" "$(device_mode "$device")"
    done < <(profiles "$device")
    [[ $dry_run -eq 1 ]] || stop_dut "$device"
done
[[ $dry_run -eq 0 ]] || exit 0
load_after=$(load_average)

summary_args=(--date "$date_utc" --load-before "$load_before" --load-after "$load_after" --tolerance "$tolerance"
    --seconds "$seconds" --flows "${flow_counts[0]}" --first-size "${size_list[0]}")
[[ $sizes_given -eq 1 ]] && summary_args+=(--sizes-given)
[[ $json -eq 1 ]] && summary_args+=(--json)
"$PYTHON" "$lib/pktgen_bench.py" plot "$work/results.jsonl" "$work/pktgen.png" \
    --title "pktgen -> vhost-user -> device (core 1), $date_utc, load $load_before" ||
    log "the plot failed (python3-matplotlib?)"
report=$("$PYTHON" "$lib/pktgen_bench.py" summary "$work/results.jsonl" "${summary_args[@]}")
if [[ $preset == smoke ]]; then
    # Counts, never speed: frames came back, the capture was GRE to every backend, one connection per flow.
    jq -e -s --argjson flows "${flow_counts[0]}" '
        (map(select(.kind == "gre")) | length == 1 and .[0].gre_to_backends > 0) and
        (map(select(.kind == "sluice_counters")) | .[0].conn_misses == $flows) and
        (map(select(.stage == "max")) | .[0].received > 0 and .[0].sent > 0)' "$work/results.jsonl" > /dev/null ||
        { echo "$report"; cat "$work/results.jsonl" >&2; die "smoke: the counts are not what they should be"; }
fi
[[ "$sluice_clean" == true ]] || { echo "$report"; die "the forwarder did not stop cleanly"; }
if [[ $json -eq 1 ]]; then
    sed '$d' <<< "$report"
else
    echo "$report"
fi
if [[ -n "$results_dir" ]]; then
    echo "  trials (results.jsonl), logs, captured frames and the plot (pktgen.png): $results_dir"
else
    echo "  (no --results DIR: the trials and the plot were not kept)"
fi
[[ $json -eq 0 ]] || tail -1 <<< "$report"
