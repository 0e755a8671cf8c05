# Sourced by scripts/demo.sh: the demo's addresses, network namespaces and links. Bash, no side effects when
# sourced; every function is idempotent enough to be called from a cleanup trap.

VIP=10.100.0.1
VIP_PORT=80
PROBE_PORT=9 # UDP VIP on the same address: the valid-but-odd frames of the bad-input drill land there
NS_CLIENT=sd-client
NS_ROUTER=sd-router
LB_NAMES=(lb1 lb2)
BE_NAMES=(be1 be2 be3 be4) # be4 exists from the start but joins the VIP only in the backend-added drill
CLIENT_IP=10.10.0.2
ROUTER_CLIENT_IP=10.10.0.1
CLIENT_IF=c-r        # in sd-client
ROUTER_CLIENT_IF=r-c # in sd-router
LB_IF=lb-r           # in each sd-lbN, the port DPDK binds
BE_IF=be-r           # in each sd-beN
ROUTER_AS=65000
LB_AS=65001
LINK_MTU=9000        # router <-> forwarders and backends: room for the 24 bytes of GRE
CLIENT_MTU=1500
# IPv6 (dual stack): every link also carries an IPv6 /64, the web VIP has an IPv6 twin with IPv6 backends.
VIP6=fd00:100::1
CLIENT_IP6=fd00:10::2
ROUTER_CLIENT_IP6=fd00:10::1

ns_of() { echo "sd-$1"; }                                  # lb1 -> sd-lb1
index_of() { echo "${1//[!0-9]/}"; }                         # lb2 -> 2
lb_ip() { echo "10.10.$(index_of "$1").2"; }
router_lb_ip() { echo "10.10.$(index_of "$1").1"; }
router_lb_if() { echo "r-$1"; }
router_lb_mac() { printf '02:5d:00:00:%02x:01' "$(index_of "$1")"; }
lb_mac() { printf '02:5d:00:00:%02x:02' "$(index_of "$1")"; }
be_ip() { echo "10.20.$(index_of "$1").2"; }
router_be_ip() { echo "10.20.$(index_of "$1").1"; }
router_be_if() { echo "r-$1"; }
lb_ip6() { echo "fd00:10:$(index_of "$1")::2"; }
router_lb_ip6() { echo "fd00:10:$(index_of "$1")::1"; }
be_ip6() { echo "fd00:20:$(index_of "$1")::2"; }
router_be_ip6() { echo "fd00:20:$(index_of "$1")::1"; }

# Gives an existing link's two ends their IPv6 /64 addresses (nodad: usable at once) and NS a default IPv6
# route via the router's end.
link_to_router_v6() {
    local ns=$1 node_if=$2 node_ip=$3 router_if=$4 router_ip=$5
    ip -n "$NS_ROUTER" addr add "$router_ip/64" dev "$router_if" nodad
    ip -n "$ns" addr add "$node_ip/64" dev "$node_if" nodad
    ip -n "$ns" -6 route add default via "$router_ip"
}

# Offloads off on a veth: the forwarder reads frames through AF_PACKET, which would otherwise see TCP segments
# with only a partial checksum (tx checksum offload) or 64 KiB super-frames (TSO/GSO/GRO).
no_offloads() {
    local ns=$1 dev=$2
    ip netns exec "$ns" ethtool -K "$dev" tx off rx off tso off gso off gro off >/dev/null 2>&1 || true
}

# Links namespace NS to the router with a veth pair: NODE_IF in NS gets NODE_IP/24 and a default route via the
# router's end ROUTER_IF (ROUTER_IP/24); both ends get MTU and no offloads. NODE_MAC and ROUTER_MAC, when given,
# fix the two ends' MAC addresses.
link_to_router() {
    local ns=$1 node_if=$2 node_ip=$3 router_if=$4 router_ip=$5 mtu=$6 node_mac=${7:-} router_mac=${8:-}
    local node_address=() router_address=()
    if [[ -n $node_mac ]]; then node_address=(address "$node_mac"); fi
    if [[ -n $router_mac ]]; then router_address=(address "$router_mac"); fi
    ip -n "$ns" link add "$node_if" "${node_address[@]}" mtu "$mtu" type veth \
        peer name "$router_if" "${router_address[@]}" netns "$NS_ROUTER"
    ip -n "$NS_ROUTER" link set "$router_if" mtu "$mtu" up
    ip -n "$NS_ROUTER" addr add "$router_ip/24" dev "$router_if"
    ip -n "$ns" link set "$node_if" up
    ip -n "$ns" addr add "$node_ip/24" dev "$node_if"
    ip -n "$ns" route add default via "$router_ip"
    no_offloads "$ns" "$node_if"
    no_offloads "$NS_ROUTER" "$router_if"
}

# Removes the namespaces of this or an earlier run (killing whatever still runs inside), and the forwarders'
# shared-memory and DPDK runtime files. Only names with the demo's prefixes.
remove_topology() {
    local ns pid
    for ns in $(ip netns list 2>/dev/null | awk '{print $1}' | grep '^sd-' || true); do
        for pid in $(ip netns pids "$ns" 2>/dev/null || true); do
            kill -TERM "$pid" 2>/dev/null || true
        done
    done
    for ns in $(ip netns list 2>/dev/null | awk '{print $1}' | grep '^sd-' || true); do
        for _ in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do
            [[ -z $(ip netns pids "$ns" 2>/dev/null) ]] && break
            sleep 0.25
        done
        for pid in $(ip netns pids "$ns" 2>/dev/null || true); do
            kill -KILL "$pid" 2>/dev/null || true
        done
        ip netns del "$ns" 2>/dev/null || true
    done
    rm -rf /dev/shm/sluice-demo /var/run/dpdk/sluice-demo-* /dev/hugepages/sluice-demo-* 2>/dev/null || true
}

create_topology() {
    local lb be ns

    ip netns add "$NS_CLIENT"
    ip netns add "$NS_ROUTER"
    ip -n "$NS_CLIENT" link set lo up
    ip -n "$NS_ROUTER" link set lo up
    # Router: forwards, hashes ECMP by 5-tuple, and accepts the VIP as source from the backends (DSR replies
    # arrive on a backend link although the VIP's route points at the forwarders).
    ip netns exec "$NS_ROUTER" sysctl -qw net.ipv4.ip_forward=1 net.ipv4.fib_multipath_hash_policy=1 \
        net.ipv4.conf.all.rp_filter=0 net.ipv4.conf.default.rp_filter=0
    ip netns exec "$NS_ROUTER" sysctl -qw net.ipv6.conf.all.forwarding=1 net.ipv6.fib_multipath_hash_policy=1

    link_to_router "$NS_CLIENT" "$CLIENT_IF" "$CLIENT_IP" "$ROUTER_CLIENT_IF" "$ROUTER_CLIENT_IP" "$CLIENT_MTU"
    link_to_router_v6 "$NS_CLIENT" "$CLIENT_IF" "$CLIENT_IP6" "$ROUTER_CLIENT_IF" "$ROUTER_CLIENT_IP6"

    for lb in "${LB_NAMES[@]}"; do
        ns=$(ns_of "$lb")
        ip netns add "$ns"
        ip -n "$ns" link set lo up
        # A forwarder node does not route and does not own the VIP: its kernel drops the VIP packets that
        # DPDK's AF_PACKET socket picks up and forwards.
        ip netns exec "$ns" sysctl -qw net.ipv4.ip_forward=0
        link_to_router "$ns" "$LB_IF" "$(lb_ip "$lb")" "$(router_lb_if "$lb")" "$(router_lb_ip "$lb")" "$LINK_MTU" \
            "$(lb_mac "$lb")" "$(router_lb_mac "$lb")"
        link_to_router_v6 "$ns" "$LB_IF" "$(lb_ip6 "$lb")" "$(router_lb_if "$lb")" "$(router_lb_ip6 "$lb")"
    done

    for be in "${BE_NAMES[@]}"; do
        ns=$(ns_of "$be")
        ip netns add "$ns"
        # What sluice_gredecap needs (native/gredecap/sluice_gredecap.c): rp_filter off before the TUN exists,
        # the VIP on lo, the usual DSR ARP settings.
        ip netns exec "$ns" sysctl -qw net.ipv4.conf.all.rp_filter=0 net.ipv4.conf.default.rp_filter=0 \
            net.ipv4.conf.all.arp_ignore=1 net.ipv4.conf.all.arp_announce=2
        ip -n "$ns" link set lo up
        ip -n "$ns" addr add "$VIP/32" dev lo
        link_to_router "$ns" "$BE_IF" "$(be_ip "$be")" "$(router_be_if "$be")" "$(router_be_ip "$be")" "$LINK_MTU"
        ip -n "$ns" addr add "$VIP6/128" dev lo
        link_to_router_v6 "$ns" "$BE_IF" "$(be_ip6 "$be")" "$(router_be_if "$be")" "$(router_be_ip6 "$be")"
    done
}

# The node config of forwarder LB (lb1, lb2) with the backends named in the remaining arguments.
write_node_config() {
    local lb=$1 file=$2 core
    shift 2
    core=$(($(index_of "$lb") - 1))
    {
        cat <<YAML
# Written by scripts/demo.sh: node $lb of the demo topology (docs/demo.md).
node:
  name: $lb
  state_dir: $(dirname "$file")/state # the operator's drains; never the real /var/lib/sluice in a demo
forwarder:
  eal_args: ["--no-pci", "--no-huge", "-m", "256", "--file-prefix=sluice-demo-$lb",
             "--vdev=net_af_packet0,iface=$LB_IF"]
  ports:
    - name: net_af_packet0
      mtu: 1500 # net_af_packet takes at most 1518-byte frames; the veth itself has MTU $LINK_MTU for GRE
  workers:
    - core: $core
      rx_port: net_af_packet0
  idle_strategy: backoff
  counters_dir: /dev/shm/sluice-demo
  own_mac: auto
  next_hop_mac: "$(router_lb_mac "$lb")"
  tunnel_source_v4: $(lb_ip "$lb")
  tunnel_source_v6: "$(lb_ip6 "$lb")"
  hash_seed: 0x5eed5eed5eed5eed
  connection_table:
    capacity: 65536
    # Short, so the backend-added drill can replay the same 5-tuples as new flows a few seconds later.
    # Long-lived connections send every 300 ms and keep their entries.
    tcp_idle_timeout: 4s
vips:
YAML
        local vip_name port proto
        for vip_name in web probe-udp; do
            if [[ $vip_name == web ]]; then port=$VIP_PORT proto=tcp; else port=$PROBE_PORT proto=udp; fi
            echo "  - name: $vip_name"
            echo "    address: $VIP"
            echo "    port: $port"
            echo "    protocol: $proto"
            [[ $proto == udp ]] && echo "    health_check: {port: $VIP_PORT}"
            echo "    backends:"
            local be
            for be in "$@"; do
                echo "      - {name: $be, address: $(be_ip "$be")}"
            done
        done
        # The IPv6 twin of web: same port, IPv6 backends (GRE over IPv6).
        echo "  - name: web6"
        echo "    address: \"$VIP6\""
        echo "    port: $VIP_PORT"
        echo "    protocol: tcp"
        echo "    backends:"
        for be in "$@"; do
            echo "      - {name: $be, address: \"$(be_ip6 "$be")\"}"
        done
        cat <<YAML
controller:
  health_checks: {type: http, path: /healthz, interval: 1s, timeout: 500ms, rise: 2, fall: 2}
  forwarder_liveness_timeout: 3s
  # Short hold-downs, so the backend-flap drill's backend is back within seconds (defaults: 30s up to 10m).
  flap_damping: {max_changes: 4, window: 60s, hold_down: 5s, max_hold_down: 10s}
  drain_time: 2s
  metrics: {address: 0.0.0.0, port: 9100} # also on the management link the demo's Prometheus scrapes
  bgp:
    local_as: $LB_AS
    peer_as: $ROUTER_AS
    router_id: $(lb_ip "$lb")
    local_address: $(lb_ip "$lb")
    # One session per family: the IPv6 neighbor carries web6 (docs/operations.md, dual stack).
    neighbors:
      - $(demo_neighbor "$lb")
      - $(demo_neighbor6 "$lb")
    exabgp: {external: false, command: exabgp}
YAML
    } >"$file"
}

# BFD between each node and the router (issue 15): the node's controller runs BIRD's protocol bfd as a sidecar
# and the router ties its BGP sessions to it (bfd on), so a frozen node leaves the ECMP set within 3 x 100 ms.
# SLUICE_DEMO_BFD=0 runs without it (the router then waits for the BGP hold time, SLUICE_DEMO_HOLD_TIME, default
# the router's 9 s), for measuring the fallback.
DEMO_BFD=${SLUICE_DEMO_BFD:-1}
DEMO_HOLD_TIME=${SLUICE_DEMO_HOLD_TIME:-9}

# demo_neighbor LB: the router as LB's BGP neighbor, with the hold time and (unless SLUICE_DEMO_BFD=0) BFD.
demo_neighbor() {
    local bfd=""
    if [[ $DEMO_BFD == 1 ]]; then bfd=", bfd: {min_rx: 100ms, min_tx: 100ms, multiplier: 3}"; fi
    echo "{address: $(router_lb_ip "$1"), hold_time: ${DEMO_HOLD_TIME}s$bfd}"
}

# demo_neighbor6 LB: the router's IPv6 address as LB's second neighbor (one session per family), same timers.
demo_neighbor6() {
    local bfd=""
    if [[ $DEMO_BFD == 1 ]]; then bfd=", bfd: {min_rx: 100ms, min_tx: 100ms, multiplier: 3}"; fi
    echo "{address: \"$(router_lb_ip6 "$1")\", local_address: \"$(lb_ip6 "$1")\", hold_time: ${DEMO_HOLD_TIME}s$bfd}"
}

write_bird_config() {
    local file=$1 lb
    {
        echo "router id $ROUTER_CLIENT_IP;"
        echo "protocol device { scan time 1; }"
        echo "protocol kernel kernel4 { ipv4 { export all; }; merge paths on; scan time 1; }"
        echo "template bgp lbs {"
        echo "    local as $ROUTER_AS;"
        echo "    connect delay time 1; connect retry time 1; error wait time 1, 2;"
        echo "    hold time 9; keepalive time 3;"
        if [[ $DEMO_BFD == 1 ]]; then echo "    bfd on;"; fi
        echo "}"
        if [[ $DEMO_BFD == 1 ]]; then
            echo "protocol bfd { interface \"*\" { min rx interval 100 ms; min tx interval 100 ms; multiplier 3; }; }"
        fi
        for lb in "${LB_NAMES[@]}"; do
            echo "protocol bgp $lb from lbs { neighbor $(lb_ip "$lb") as $LB_AS; ipv4 { import all; export none; }; }"
        done
        # IPv6: one session per family with each node, and the kernel's IPv6 table gets the ECMP route too.
        echo "protocol kernel kernel6 { ipv6 { export all; }; merge paths on; scan time 1; }"
        for lb in "${LB_NAMES[@]}"; do
            echo "protocol bgp ${lb}_v6 from lbs { neighbor $(lb_ip6 "$lb") as $LB_AS; ipv6 { import all; export none; }; }"
        done
    } >"$file"
}
