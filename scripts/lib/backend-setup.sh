#!/usr/bin/env bash
# Prepares a Linux backend for Sluice's forwarders, idempotently: GRE decapsulation (the kernel's gre0/ip6gre0,
# or one named tunnel per forwarder with --named; sluice_gredecap in user space where the kernel has no ip_gre),
# the VIPs on lo, rp_filter off, the DSR ARP settings, accept_local on request, and the MSS that keeps clients'
# packets plus the tunnel overhead within the forwarders' tunnel_mtu.
# usage: sluice backend-setup [--dry-run] --vip ADDR[,ADDR...] --tunnel-source ADDR[/LEN][,...] [--gre-key] [--mode auto|kernel|gredecap] [--named] [--local ADDR[,ADDR]] [--tunnel-mtu N] [--client-mtu N] [--accept-local] [--tun NAME] [--run-dir DIR] [--no-persist]
# --tunnel-source: the forwarders' tunnel_source_v4/v6 (the outer source of their GRE packets), or their
# tunnel_entropy.source_prefix_v4/v6 as ADDR/LEN. --gre-key: the forwarders set tunnel_entropy.gre_key. --local: this
# backend's address(es) the forwarders send GRE to (gredecap --bind). --tunnel-mtu: the forwarders' tunnel_mtu
# (default 1500, the path MTU from the forwarders to this backend); --client-mtu: the clients' MTU (default 1500).
# Exit status: 0 set up (or, with --dry-run, nothing to stop it), 1 a step failed, 2 bad arguments.
set -euo pipefail

usage() { sed -n 's/^# usage: //p' "${BASH_SOURCE[0]}"; }

DRY_RUN=0
MODE=auto
NAMED=0
GRE_KEY=0
VIPS=""
SOURCES=""
LOCALS=""
TUNNEL_MTU=1500
CLIENT_MTU=1500
ACCEPT_LOCAL=0
TUN=sluice-decap0
RUN_DIR=/run/sluice
PERSIST=1
GREDECAP=${SLUICE_GREDECAP:-sluice_gredecap}
while [[ $# -gt 0 ]]; do
    case "$1" in
        --dry-run) DRY_RUN=1 ;;
        --mode) MODE=${2:-}; shift ;;
        --named) NAMED=1 ;;
        --gre-key) GRE_KEY=1 ;;
        --vip) VIPS=${2:-}; shift ;;
        --tunnel-source) SOURCES=${2:-}; shift ;;
        --local) LOCALS=${2:-}; shift ;;
        --tunnel-mtu) TUNNEL_MTU=${2:-}; shift ;;
        --client-mtu) CLIENT_MTU=${2:-}; shift ;;
        --accept-local) ACCEPT_LOCAL=1 ;;
        --tun) TUN=${2:-}; shift ;;
        --run-dir) RUN_DIR=${2:-}; shift ;;
        --no-persist) PERSIST=0 ;;
        -h|--help) usage; exit 0 ;;
        *) echo "backend-setup: unknown argument '$1'" >&2; usage >&2; exit 2 ;;
    esac
    shift
done

bad() { echo "backend-setup: $*" >&2; exit 2; }
is_v4() { [[ "$1" =~ ^([0-9]{1,3})\.([0-9]{1,3})\.([0-9]{1,3})\.([0-9]{1,3})$ ]] &&
    ((BASH_REMATCH[1] < 256 && BASH_REMATCH[2] < 256 && BASH_REMATCH[3] < 256 && BASH_REMATCH[4] < 256)); }
is_v6() { [[ "$1" == *:* && "$1" =~ ^[0-9a-fA-F:.]+$ ]]; }
# A tunnel_entropy source prefix: ADDR/LEN, IPv4 /8../31 or IPv6 /64../127 (what the forwarder accepts).
is_prefix() {
    [[ "$1" == */* ]] || return 1
    local a=${1%/*} l=${1##*/}
    [[ "$l" =~ ^[0-9]+$ ]] || return 1
    if is_v4 "$a"; then ((l >= 8 && l <= 31)); elif is_v6 "$a"; then ((l >= 64 && l <= 127)); else return 1; fi
}
[[ -n "$VIPS" ]] || bad "--vip ADDR[,ADDR...] is required"
[[ -n "$SOURCES" ]] || bad "--tunnel-source ADDR[,ADDR...] is required (the forwarders' tunnel_source_v4/v6)"
[[ "$MODE" =~ ^(auto|kernel|gredecap)$ ]] || bad "--mode must be auto, kernel or gredecap, got '$MODE'"
[[ "$TUNNEL_MTU" =~ ^[0-9]+$ ]] && ((TUNNEL_MTU >= 576 && TUNNEL_MTU <= 65535)) ||
    bad "--tunnel-mtu must be 576..65535, got '$TUNNEL_MTU'"
[[ "$CLIENT_MTU" =~ ^[0-9]+$ ]] && ((CLIENT_MTU >= 576 && CLIENT_MTU <= 65535)) ||
    bad "--client-mtu must be 576..65535, got '$CLIENT_MTU'"
((${#TUN} >= 1 && ${#TUN} <= 15)) || bad "--tun must be 1-15 characters, got '$TUN'"
VIP4=() VIP6=() SRC4=() SRC6=() LOCAL4=() LOCAL6=()
for a in ${VIPS//,/ }; do
    if is_v4 "$a"; then VIP4+=("$a"); elif is_v6 "$a"; then VIP6+=("$a"); else bad "--vip: '$a' is not an IP address"; fi
done
PREFIXED=0
for a in ${SOURCES//,/ }; do
    if is_prefix "$a"; then
        PREFIXED=1
        if is_v4 "${a%/*}"; then SRC4+=("$a"); else SRC6+=("$a"); fi
    elif is_v4 "$a"; then SRC4+=("$a"); elif is_v6 "$a"; then SRC6+=("$a"); else
        bad "--tunnel-source: '$a' is not an IP address or a source prefix (IPv4 ADDR/8..31, IPv6 ADDR/64..127)"; fi
done
# The kernel matches a GRE packet to a configured tunnel by its key exactly (ip_tunnel_key_match: a keyless tunnel
# takes only keyless GRE, a keyed one only its own key) and by its remote address; what matches no tunnel goes to
# the fallback device gre0/ip6gre0, which takes any key and any source. Per-flow keys and per-flow sources match
# no named tunnel.
if ((NAMED && GRE_KEY)); then
    bad "--named with --gre-key: a named tunnel has one key (or none) and the kernel matches keys exactly, so" \
        "the forwarders' per-flow keys would never reach it; use the fallback devices gre0/ip6gre0 (drop --named)"
fi
if ((NAMED && PREFIXED)); then
    bad "--named with a source prefix: a named tunnel has one remote address, the forwarders send from a" \
        "different one per flow; use the fallback devices gre0/ip6gre0 (drop --named)"
fi
for a in ${LOCALS//,/ }; do
    if is_v4 "$a"; then LOCAL4+=("$a"); elif is_v6 "$a"; then LOCAL6+=("$a"); else bad "--local: '$a' is not an IP address"; fi
done
((${#LOCAL4[@]} <= 1 && ${#LOCAL6[@]} <= 1)) || bad "--local: at most one address per family"

FAILS=0
ok() { printf '  OK      %s\n' "$*"; }
info() { printf '  INFO    %s\n' "$*"; }
fail() { printf '  FAIL    %s\n' "$*"; FAILS=$((FAILS + 1)); }
# act DESCRIPTION -- COMMAND...: runs a command that changes the host, or says it would.
run() {
    if ((DRY_RUN)); then
        printf '  ACTION  would run: %s\n' "$*"
        return 0
    fi
    printf '  ACTION  run: %s\n' "$*"
    "$@" || { fail "'$*' failed"; return 1; }
}

echo "backend-setup: VIPs $(echo "${VIP4[*]:-}" "${VIP6[*]:-}"); GRE from $(echo "${SRC4[*]:-}" "${SRC6[*]:-}")$( ((DRY_RUN)) &&
    echo ' (dry run: nothing is changed)')"

# --- which decapsulator ---------------------------------------------------------------------------------------
kernel_has() { [[ -d /sys/module/$1 ]] || modprobe -n -q "$1" 2>/dev/null; }
if [[ "$MODE" == auto ]]; then
    MODE=kernel
    if ((${#SRC4[@]})) && ! kernel_has ip_gre; then MODE=gredecap; fi
    if ((${#SRC6[@]})) && ! kernel_has ip6_gre; then MODE=gredecap; fi
    if [[ "$MODE" == gredecap ]]; then
        info "this kernel has no ip_gre/ip6_gre module: falling back to sluice_gredecap (user-space GRE" \
            "decapsulation into the TUN $TUN; slower than the kernel, fine for tests and small backends)"
    else
        info "the kernel decapsulates GRE (ip_gre$( ((${#SRC6[@]})) && echo ', ip6_gre'))"
    fi
fi

# Outer header the forwarders add: IPv4 20 + GRE 4, IPv6 40 + GRE 4, and the key's 4 with --gre-key.
KEY_BYTES=$((GRE_KEY * 4))
OVERHEAD=$((24 + KEY_BYTES))
((${#SRC6[@]})) && OVERHEAD=$((44 + KEY_BYTES))

sysctl_get() { sysctl -n "$1" 2>/dev/null || echo ""; }
SYSCTL_LINES=()
# want_sysctl KEY VALUE: sets it unless it has that value already; remembers the all/default ones for the
# sysctl.d file (a device's own do not exist at boot, and it inherits conf.default when it appears).
want_sysctl() {
    [[ "$1" == net.ipv4.conf.all.* || "$1" == net.ipv4.conf.default.* ]] && SYSCTL_LINES+=("$1 = $2")
    if [[ "$(sysctl_get "$1")" == "$2" ]]; then
        ok "$1 = $2"
    else
        run sysctl -qw "$1=$2" || true
    fi
}

# --- addresses and sysctls (before the TUN exists: it inherits conf.default) -------------------------------------
echo "VIPs on lo (the backend accepts the VIP as its own; replies leave with the VIP as source: DSR)"
if ip link show lo | grep -q '[<,]UP[,>]'; then ok "lo is up"; else run ip link set lo up || true; fi
for a in "${VIP4[@]}"; do
    if ip -4 addr show dev lo | grep -qw "inet $a/32"; then ok "$a/32 on lo"; else run ip addr add "$a/32" dev lo || true; fi
done
for a in "${VIP6[@]}"; do
    if ip -6 addr show dev lo | grep -qiw "inet6 $a/128"; then ok "$a/128 on lo"; else
        run ip addr add "$a/128" dev lo nodad || true; fi
done
echo "sysctls"
if ((${#VIP4[@]} || ${#SRC4[@]})); then
    # The inner packet's source is the client, whose route is not the tunnel: reverse-path filtering would drop it
    # (the kernel applies the larger of conf.all and the device's).
    want_sysctl net.ipv4.conf.all.rp_filter 0
    want_sysctl net.ipv4.conf.default.rp_filter 0
    # Do not answer ARP for the VIPs on lo, nor use them as the source of our own ARP requests.
    want_sysctl net.ipv4.conf.all.arp_ignore 1
    want_sysctl net.ipv4.conf.all.arp_announce 2
fi

# --- decapsulation --------------------------------------------------------------------------------------------
DEVICES=()
declare -A DEVICE_OVERHEAD=() # the outer header of the GRE a device receives: IPv4 20 or IPv6 40, + GRE 4
setup_kernel() {
    echo "kernel GRE$( ((NAMED)) && echo ': one named tunnel per forwarder' || echo ': the fallback devices gre0/ip6gre0')"
    ((${#SRC4[@]})) && run modprobe ip_gre
    ((${#SRC6[@]})) && run modprobe ip6_gre
    local i=0 src dev
    if ((NAMED)); then
        for src in "${SRC4[@]}" "${SRC6[@]}"; do
            dev=sluice-gre$i; i=$((i + 1))
            DEVICES+=("$dev")
            DEVICE_OVERHEAD[$dev]=$(is_v4 "$src" && echo $((24 + KEY_BYTES)) || echo $((44 + KEY_BYTES)))
            if ip link show "$dev" >/dev/null 2>&1; then
                ok "$dev exists"
            elif is_v4 "$src"; then
                run ip link add "$dev" type gre remote "$src" local "${LOCAL4[0]:-any}" ttl 64
            else
                run ip link add "$dev" type ip6gre remote "$src" local "${LOCAL6[0]:-::}" hoplimit 64
            fi
            run ip link set "$dev" up
        done
        info "named tunnels accept GRE only from their forwarder's tunnel source"
    else
        if ((${#SRC4[@]})); then DEVICES+=(gre0); DEVICE_OVERHEAD[gre0]=$((24 + KEY_BYTES)); run ip link set gre0 up; fi
        if ((${#SRC6[@]})); then
            DEVICES+=(ip6gre0); DEVICE_OVERHEAD[ip6gre0]=$((44 + KEY_BYTES)); run ip link set ip6gre0 up
        fi
        if ((GRE_KEY)); then
            info "keyed GRE (the forwarders' gre_key): a key per flow matches no configured tunnel, so gre0/ip6gre0" \
                "receive it whatever the key (give no tunnel on this host 'key' with the forwarders' addresses)"
        fi
        info "gre0/ip6gre0 accept GRE from any source: allow it only from ${SRC4[*]:-} ${SRC6[*]:-}, e.g." \
            "nft add rule inet filter input ip protocol gre ip saddr != { ${SRC4[*]:-0.0.0.0} } drop"
    fi
    for dev in "${DEVICES[@]}"; do
        if ((${#SRC4[@]} || ${#VIP4[@]})); then want_sysctl "net.ipv4.conf.$dev.rp_filter" 0; fi
        if ((ACCEPT_LOCAL)); then want_sysctl "net.ipv4.conf.$dev.accept_local" 1; fi
    done
}

setup_gredecap() {
    echo "sluice_gredecap (user space: raw GRE sockets into the TUN $TUN)"
    local pid_file=$RUN_DIR/sluice-gredecap.pid args=(--tun "$TUN" --stats "$RUN_DIR/sluice-gredecap.stats")
    ((${#LOCAL4[@]})) && args+=(--bind "${LOCAL4[0]}")
    ((${#LOCAL6[@]})) && args+=(--bind "${LOCAL6[0]}")
    ((${#SRC4[@]})) || args+=(--no-ipv4)
    ((${#SRC6[@]})) || args+=(--no-ipv6)
    local bin
    bin=$(command -v "$GREDECAP" || true)
    if [[ -z "$bin" ]]; then
        fail "no sluice_gredecap at '$GREDECAP' (in a source tree: make -C native gredecap)"
        return 0
    fi
    DEVICES+=("$TUN")
    DEVICE_OVERHEAD[$TUN]=$( ((${#SRC4[@]})) && echo $((24 + KEY_BYTES)) || echo $((44 + KEY_BYTES)))
    local pid
    pid=$(cat "$pid_file" 2>/dev/null || true)
    if [[ -n "$pid" && -r /proc/$pid/cmdline ]] && tr '\0' ' ' <"/proc/$pid/cmdline" | grep -q -- "--tun $TUN "; then
        ok "sluice_gredecap runs (pid $pid, pid file $pid_file)"
    elif ((DRY_RUN)); then
        printf '  ACTION  would run: %s %s & (pid file %s)\n' "$bin" "${args[*]}" "$pid_file"
    else
        mkdir -p "$RUN_DIR"
        printf '  ACTION  run: %s %s & (pid file %s, log %s)\n' "$bin" "${args[*]}" "$pid_file" "$RUN_DIR/sluice-gredecap.log"
        setsid "$bin" "${args[@]}" </dev/null >>"$RUN_DIR/sluice-gredecap.log" 2>&1 &
        echo $! >"$pid_file"
        local tries=50
        until ip link show "$TUN" >/dev/null 2>&1; do
            tries=$((tries - 1))
            if ((tries == 0)) || [[ ! -d /proc/$(<"$pid_file") ]]; then
                fail "sluice_gredecap did not bring $TUN up: $(tail -n 3 "$RUN_DIR/sluice-gredecap.log")"
                return 0
            fi
            sleep 0.1
        done
        ok "sluice_gredecap runs (pid $(<"$pid_file")); it does not filter by source: GRE from anyone who can" \
            "reach ${LOCAL4[0]:-this host} is decapsulated"
    fi
    if ((${#SRC4[@]} || ${#VIP4[@]})); then want_sysctl "net.ipv4.conf.$TUN.rp_filter" 0; fi
    if ((ACCEPT_LOCAL)); then want_sysctl "net.ipv4.conf.$TUN.accept_local" 1; fi
    info "not persistent: run backend-setup again at boot (or a unit running $bin ${args[*]})"
}

if [[ "$MODE" == kernel ]]; then setup_kernel; else setup_gredecap; fi

# --- MTU and MSS ----------------------------------------------------------------------------------------------
echo "MTU (tunnel overhead $OVERHEAD bytes; the forwarders' tunnel_mtu $TUNNEL_MTU, clients' MTU $CLIENT_MTU)"
inner_mtu=$((TUNNEL_MTU - OVERHEAD))
for dev in "${DEVICES[@]}"; do
    mtu=$((TUNNEL_MTU - DEVICE_OVERHEAD[$dev]))
    if ((DRY_RUN)) && ! ip link show "$dev" >/dev/null 2>&1; then
        printf '  ACTION  would run: ip link set %s mtu %s\n' "$dev" "$mtu"
    elif [[ "$(cat "/sys/class/net/$dev/mtu" 2>/dev/null)" == "$mtu" ]]; then
        ok "$dev mtu $mtu"
    else
        run ip link set "$dev" mtu "$mtu" || true
    fi
done
# default_route -4|-6: the first default route, without the flags `ip route change` does not take.
default_route() { ip "$1" route show default | head -n 1 | sed -E 's/ (linkdown|dead|offload|trap|rt_offload)//g'; }
if ((CLIENT_MTU + OVERHEAD <= TUNNEL_MTU)); then
    ok "a client's full-size packet ($CLIENT_MTU) plus $OVERHEAD fits tunnel_mtu $TUNNEL_MTU: no MSS change needed"
else
    # The backend's SYN-ACK tells clients the largest segment to send: advmss on the routes its replies take.
    mss4=$((inner_mtu - 40)) mss6=$((inner_mtu - 60))
    route=""
    if ((${#VIP4[@]})); then
        route=$(default_route -4)
        if [[ -z "$route" ]]; then
            fail "no IPv4 default route to set advmss $mss4 on: set it on the routes to the clients, or clients" \
                "send $CLIENT_MTU-byte packets that do not fit the tunnel (the forwarders drop them as" \
                "ENCAPSULATED_TOO_BIG)"
        elif [[ "$route" == *"advmss $mss4"* ]]; then
            ok "IPv4 default route has advmss $mss4"
        else
            # shellcheck disable=SC2086
            run ip -4 route change ${route%% advmss*} advmss "$mss4" || true
        fi
    fi
    if ((${#VIP6[@]})); then
        route=$(default_route -6)
        if [[ -z "$route" ]]; then
            fail "no IPv6 default route to set advmss $mss6 on: set it on the routes to the IPv6 clients"
        elif [[ "$route" == *"advmss $mss6"* ]]; then
            ok "IPv6 default route has advmss $mss6"
        else
            # shellcheck disable=SC2086
            run ip -6 route change ${route%% advmss*} advmss "$mss6" || true
        fi
    fi
    info "advmss is a route attribute: keep it in the network configuration (ifupdown 'post-up ip route change" \
        "... advmss', systemd-networkd [Route] TCPAdvertisedMaximumSegmentSize=) so that it survives a reboot"
fi

# --- persistence ----------------------------------------------------------------------------------------------
if ((PERSIST)) && ((${#SYSCTL_LINES[@]})); then
    file=/etc/sysctl.d/80-sluice-backend.conf
    want=$(printf '# Written by sluice backend-setup\n'; printf '%s\n' "${SYSCTL_LINES[@]}")
    if [[ -f "$file" && "$(<"$file")" == "$want" ]]; then
        ok "$file keeps the sysctls across reboots"
    elif ((DRY_RUN)); then
        printf '  ACTION  would write %s: %s\n' "$file" "$(printf '%s' "$want" | tr '\n' ';')"
    else
        printf '%s\n' "$want" >"$file"
        printf '  ACTION  wrote %s\n' "$file"
    fi
    info "the VIPs on lo and the devices' own sysctls are not persistent: add the VIPs to the network" \
        "configuration; devices inherit conf.default"
fi
info "health checks through the tunnel: check the VIP on this backend (curl --interface $(
    [[ ${#VIP4[@]} -gt 0 ]] && echo "${VIP4[0]}" || echo "${VIP6[0]}") ... from here, or a check the forwarders'" \
    "node sends GRE-encapsulated), not only the backend's own address (docs/operations.md, \"Backends\")"

if ((FAILS)); then
    echo "backend-setup: $FAILS step(s) failed"
    exit 1
fi
echo "backend-setup: $( ((DRY_RUN)) && echo 'dry run done' || echo 'done') ($MODE decapsulation)"
