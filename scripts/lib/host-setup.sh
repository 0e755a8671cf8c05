#!/usr/bin/env bash
# Prepares a host for one Sluice node, idempotently, from the node's config (read by the project's own config
# reader through `sluice host-facts`): hugepages per NUMA node, the vfio-pci binding of the PCI ports, the
# controller's CPUAffinity drop-in; and checks what it leaves to the operator (isolated worker cores, irqbalance,
# the CPU frequency governor, the NIC's NUMA node, transparent huge pages for the connection tables).
# usage: sluice host-setup [--dry-run] [--strict] [--page-size 2M|1G] --config FILE
# Exit status: 0 ready, 1 not ready (a FAIL line says what to do; with --strict a WARN too), 2 bad config or usage.
# SLUICE_HOST_ROOT=DIR reads and writes DIR/sys, DIR/proc and DIR/etc instead of the host's (a fake host layout
# for tests); commands (mount, modprobe, dpdk-devbind.py, driverctl) are then never run, only printed.
set -euo pipefail

usage() { sed -n 's/^# usage: //p' "${BASH_SOURCE[0]}"; }

HOST_ROOT=${SLUICE_HOST_ROOT:-}
SYS=$HOST_ROOT/sys
PROC=$HOST_ROOT/proc
ETC=$HOST_ROOT/etc
SLUICE=${SLUICE:?set by scripts/sluice}

DRY_RUN=0
STRICT=0
PAGE_SIZE=2M
CONFIG=""
while [[ $# -gt 0 ]]; do
    case "$1" in
        --dry-run) DRY_RUN=1 ;;
        --strict) STRICT=1 ;;
        --page-size) PAGE_SIZE=${2:-}; shift ;;
        --config) CONFIG=${2:-}; shift ;;
        -h|--help) usage; exit 0 ;;
        *) echo "host-setup: unknown argument '$1'" >&2; usage >&2; exit 2 ;;
    esac
    shift
done
[[ -n "$CONFIG" ]] || { echo "host-setup: --config FILE is required" >&2; usage >&2; exit 2; }
case "$PAGE_SIZE" in
    2M) PAGE_KB=2048 ;;
    1G) PAGE_KB=1048576 ;;
    *) echo "host-setup: --page-size must be 2M or 1G, got '$PAGE_SIZE'" >&2; exit 2 ;;
esac

WORK=$(mktemp -d /tmp/sluice-host-setup.XXXXXX)
trap 'rm -rf "$WORK"' EXIT

FAILS=0
WARNS=0
ok() { printf '  OK      %s\n' "$*"; }
info() { printf '  INFO    %s\n' "$*"; }
warn() { printf '  WARN    %s\n' "$*"; WARNS=$((WARNS + 1)); }
fail() { printf '  FAIL    %s\n' "$*"; FAILS=$((FAILS + 1)); }

# write_file PATH TEXT: writes TEXT to PATH (creating its directory), or says it would.
write_file() {
    if ((DRY_RUN)); then
        printf '  ACTION  would write %s: %s\n' "${1#"$HOST_ROOT"}" "$(printf '%s' "$2" | tr '\n' ';')"
        return 0
    fi
    mkdir -p "$(dirname "$1")"
    printf '%s\n' "$2" >"$1"
    printf '  ACTION  wrote %s: %s\n' "${1#"$HOST_ROOT"}" "$(printf '%s' "$2" | tr '\n' ';')"
}

# write_value PATH VALUE: writes a sysfs value, or says it would.
write_value() {
    if ((DRY_RUN)); then
        printf '  ACTION  would write %s > %s\n' "$2" "${1#"$HOST_ROOT"}"
        return 0
    fi
    printf '  ACTION  write %s > %s\n' "$2" "${1#"$HOST_ROOT"}"
    printf '%s\n' "$2" >"$1"
}

# run COMMAND...: runs a command that changes the host, or says it would (always only says on a fake host).
run() {
    if ((DRY_RUN)) || [[ -n "$HOST_ROOT" ]]; then
        printf '  ACTION  would run: %s\n' "$*"
        return 0
    fi
    printf '  ACTION  run: %s\n' "$*"
    "$@"
}

# expand LIST: "0-3,8,managed_irq,10-11" -> "0 1 2 3 8 10 11" (flags such as isolcpus's are skipped).
expand() {
    local part from to out=()
    local IFS=,
    for part in $1; do
        if [[ "$part" =~ ^([0-9]+)-([0-9]+)(:.*)?$ ]]; then
            from=${BASH_REMATCH[1]} to=${BASH_REMATCH[2]}
            while ((from <= to)); do out+=("$from"); from=$((from + 1)); done
        elif [[ "$part" =~ ^[0-9]+$ ]]; then
            out+=("$part")
        fi
    done
    IFS=' '
    echo "${out[*]:-}"
}

# compress "1 2 3 5" -> "1-3,5"
compress() {
    local c start="" prev="" out=""
    for c in $1; do
        if [[ -n "$prev" && $c -eq $((prev + 1)) ]]; then prev=$c; continue; fi
        [[ -n "$start" ]] && out+="${out:+,}$start$([[ $prev != "$start" ]] && echo "-$prev")"
        start=$c prev=$c
    done
    [[ -n "$start" ]] && out+="${out:+,}$start$([[ $prev != "$start" ]] && echo "-$prev")"
    echo "$out"
}

# covers LIST CORES: every core of CORES is in the expanded LIST.
covers() {
    local core
    for core in $2; do
        [[ " $1 " == *" $core "* ]] || return 1
    done
}

# missing_from LIST CORES: the cores of CORES not in LIST.
missing_from() {
    local core out=()
    for core in $2; do
        [[ " $1 " == *" $core "* ]] || out+=("$core")
    done
    echo "${out[*]:-}"
}

cmdline_value() { tr ' ' '\n' <"$PROC/cmdline" | sed -n "s/^$1=//p" | tail -n 1; }

node_of_cpu() {
    local dir
    for dir in "$SYS"/devices/system/node/node[0-9]*; do
        [[ -f "$dir/cpulist" ]] || continue
        if covers "$(expand "$(<"$dir/cpulist")")" "$1"; then
            echo "${dir##*node}"
            return 0
        fi
    done
    echo 0
}

# --- what the config asks for ---------------------------------------------------------------------------------
POSSIBLE=$(expand "$(cat "$SYS/devices/system/cpu/possible" 2>/dev/null || echo 0)")
CPU_COUNT=$(wc -w <<<"$POSSIBLE")
rc=0
"$SLUICE" host-facts --cores "$CPU_COUNT" "$CONFIG" >"$WORK/facts" 2>"$WORK/facts.err" || rc=$?
if [[ $rc -ne 0 ]]; then
    cat "$WORK/facts.err" >&2
    exit 2
fi
declare -A FACT
while IFS='=' read -r key value; do
    FACT[$key]=$value
done <"$WORK/facts"
WORKERS=${FACT[worker_cores]}
MIB=$((1 << 20))

echo "host-setup: node ${FACT[node]} from $CONFIG$( ((DRY_RUN)) && echo ' (dry run: nothing is changed)')"
echo "  worker cores $WORKERS of $(compress "$POSSIBLE"); PCI ports: ${FACT[pci_ports]:-none};" \
    "idle strategy ${FACT[idle_strategy]}"

# --- hugepages ------------------------------------------------------------------------------------------------
check_hugepages() {
    echo "hugepages ($PAGE_SIZE pages for DPDK's mbuf pools; sized from mbufs_per_worker and the receive queues)"
    if [[ ${FACT[no_huge]} == true ]]; then
        info "eal_args has --no-huge: DPDK takes ordinary memory (tests; slower, no IOVA for a PCI NIC): none needed"
        return 0
    fi
    local -A need=()
    local main_node pool port bytes node total=0
    main_node=$(node_of_cpu "${FACT[main_lcore]}")
    for pool in ${FACT[pools]}; do
        port=${pool%:*} bytes=${pool##*:} node=$main_node
        if [[ -n "${FACT[pci_ports]}" && " ${FACT[pci_ports]} " == *" $port "* ]]; then
            node=$(cat "$SYS/bus/pci/devices/$(pci_full "$port")/numa_node" 2>/dev/null || echo -1)
            ((node >= 0)) || node=$main_node
        fi
        need[$node]=$((${need[$node]:-0} + bytes))
    done
    for node in "${!need[@]}"; do
        need[$node]=$((need[$node] + FACT[eal_overhead_bytes]))
        total=$((total + need[$node]))
    done
    if ((FACT[eal_memory_bytes] > total)); then
        need[$main_node]=$((need[$main_node] + FACT[eal_memory_bytes] - total))
        info "eal_args asks for $((FACT[eal_memory_bytes] / MIB)) MiB (-m/--socket-mem), more than the pools need"
    fi
    local page_bytes=$((PAGE_KB * 1024)) pages dir have got nodes=0 per_node="" all=0
    for node in $(printf '%s\n' "${!need[@]}" | sort -n); do
        pages=$(((need[$node] + page_bytes - 1) / page_bytes))
        all=$((all + pages)); nodes=$((nodes + 1)); per_node+="${per_node:+,}$node:$pages"
        dir=$SYS/devices/system/node/node$node/hugepages/hugepages-${PAGE_KB}kB
        if [[ ! -d "$dir" ]]; then
            fail "NUMA node $node has no $PAGE_SIZE hugepages ($dir missing): $([[ $PAGE_SIZE == 1G ]] &&
                echo 'the CPU lacks pdpe1gb or the kernel was booted without hugepagesz=1G; use --page-size 2M' ||
                echo 'a kernel without hugetlbfs')"
            continue
        fi
        have=$(<"$dir/nr_hugepages")
        ((have > pages)) && all=$((all + have - pages)) # keep what others reserved when persisting
        if ((have >= pages)); then
            ok "NUMA node $node: $have x $PAGE_SIZE reserved, $pages needed ($((need[$node] / MIB)) MiB)"
            continue
        fi
        write_value "$dir/nr_hugepages" "$pages"
        ((DRY_RUN)) && { info "NUMA node $node needs $pages x $PAGE_SIZE ($((need[$node] / MIB)) MiB), has $have"; continue; }
        got=$(<"$dir/nr_hugepages")
        if ((got >= pages)); then
            ok "NUMA node $node: $got x $PAGE_SIZE reserved now"
        else
            fail "NUMA node $node: the kernel reserved only $got of $pages x $PAGE_SIZE (memory fragmented): reserve" \
                "them at boot (kernel command line below) and reboot"
        fi
    done
    local cmdline="hugepagesz=$PAGE_SIZE hugepages=$per_node"
    [[ $PAGE_SIZE == 1G ]] && cmdline="default_hugepagesz=1G $cmdline"
    if [[ $PAGE_SIZE == 2M && $nodes -eq 1 && -z "$(ls -d "$SYS"/devices/system/node/node1 2>/dev/null)" ]]; then
        local sysctl_file=$ETC/sysctl.d/80-sluice-hugepages.conf want
        want=$(printf '# Written by sluice host-setup for node %s: DPDK mbuf pools\nvm.nr_hugepages = %s' \
            "${FACT[node]}" "$all")
        if [[ -f "$sysctl_file" && "$(<"$sysctl_file")" == "$want" ]]; then
            ok "persistent: ${sysctl_file#"$HOST_ROOT"} sets vm.nr_hugepages = $all at boot"
        else
            write_file "$sysctl_file" "$want"
        fi
    elif cmdline_reserves "$per_node"; then
        ok "persistent: the kernel command line reserves them ($cmdline)"
    else
        warn "not persistent across a reboot: $( ((nodes > 1)) && echo 'vm.nr_hugepages cannot say which NUMA node;' )" \
            "add '$cmdline' to GRUB_CMDLINE_LINUX in /etc/default/grub, run update-grub, reboot" \
            "(or enable sluice-host-setup.service, which runs this at every boot)"
    fi
    if awk -v kb="$PAGE_KB" '$3 == "hugetlbfs" && ($4 ~ "pagesize=" (kb == 2048 ? "2M" : "1024M") || \
        ($4 !~ /pagesize=/ && kb == 2048)) { found = 1 } END { exit !found }' "$PROC/mounts"; then
        ok "hugetlbfs of $PAGE_SIZE pages mounted ($(awk '$3 == "hugetlbfs" { print $2 }' "$PROC/mounts" | head -n 1))"
    else
        local mount_point=/dev/hugepages
        [[ $PAGE_SIZE == 1G ]] && mount_point=/dev/hugepages1G
        run mkdir -p "$mount_point"
        run mount -t hugetlbfs -o "pagesize=$PAGE_SIZE" nodev "$mount_point"
        info "persistent mount: systemd's dev-hugepages.mount mounts /dev/hugepages (2M); for 1G add" \
            "'nodev /dev/hugepages1G hugetlbfs pagesize=1G 0 0' to /etc/fstab"
    fi
}

# cmdline_reserves NODE:PAGES,...: the kernel command line reserves at least these pages of PAGE_SIZE per node
# (hugepagesz=SIZE hugepages=N, or hugepages=0:N,1:M per node).
cmdline_reserves() {
    [[ "$(cmdline_value hugepagesz)" == "$PAGE_SIZE" ]] || return 1
    local given entry node pages have
    given=$(cmdline_value hugepages)
    for entry in ${1//,/ }; do
        node=${entry%%:*} pages=${entry##*:}
        if [[ "$given" =~ ^[0-9]+$ ]]; then
            have=$given
        else
            have=$(tr ',' '\n' <<<"$given" | sed -n "s/^$node://p")
        fi
        ((${have:-0} >= pages)) || return 1
    done
}

pci_full() { [[ "$1" =~ ^[0-9a-fA-F]{4}: ]] && echo "${1,,}" || echo "0000:${1,,}"; }

# --- PCI ports: vfio-pci, IOMMU, NUMA, mlx5 --------------------------------------------------------------------
check_ports() {
    echo "PCI ports (vfio-pci through dpdk-devbind.py; NUMA node against the worker cores)"
    if [[ -z "${FACT[pci_ports]}" ]]; then
        info "no PCI ports in the config (only virtual devices): nothing to bind"
        return 0
    fi
    local port bdf dev vendor driver node core worker_nodes="" iommu=0
    for core in $WORKERS; do worker_nodes+=" $(node_of_cpu "$core")"; done
    [[ -n "$(ls -A "$SYS/kernel/iommu_groups" 2>/dev/null)" ]] && iommu=1
    for port in ${FACT[pci_ports]}; do
        bdf=$(pci_full "$port")
        dev=$SYS/bus/pci/devices/$bdf
        if [[ ! -e "$dev" ]]; then
            fail "$bdf: no such PCI device on this host (list them with lspci -D or dpdk-devbind.py --status)"
            continue
        fi
        vendor=$(cat "$dev/vendor" 2>/dev/null || echo unknown)
        driver=$(basename "$(readlink "$dev/driver" 2>/dev/null || echo none)")
        node=$(cat "$dev/numa_node" 2>/dev/null || echo -1)
        if ((node >= 0)); then
            if [[ "$(tr ' ' '\n' <<<"$worker_nodes" | sed '/^$/d' | sort -u | paste -sd ' ')" == "$node" ]]; then
                ok "$bdf is on NUMA node $node, as every worker core"
            else
                warn "$bdf is on NUMA node $node but worker cores $WORKERS are on node(s)$worker_nodes: every" \
                    "packet crosses the interconnect; move the workers to node $node's cores" \
                    "($(cat "$SYS/devices/system/node/node$node/cpulist" 2>/dev/null || echo '?'))"
            fi
        else
            info "$bdf reports no NUMA node (one-node machine or VM)"
        fi
        if [[ "$vendor" == 0x15b3 ]]; then
            info "$bdf is Mellanox/NVIDIA (mlx5): its PMD is bifurcated and runs over the kernel's mlx5_core," \
                "so no vfio-pci binding and no IOMMU needed; it needs rdma-core (libibverbs, libmlx5) and the" \
                "kernel netdev stays up; keep flow isolation in mind (the kernel still sees what DPDK does not take)"
            if [[ "$driver" == mlx5_core ]]; then
                ok "$bdf is bound to mlx5_core"
            else
                fail "$bdf is bound to $driver; mlx5 needs mlx5_core: dpdk-devbind.py --bind=mlx5_core $bdf"
            fi
            continue
        fi
        if [[ "$driver" == vfio-pci ]]; then
            ok "$bdf is bound to vfio-pci"
            continue
        fi
        if ((iommu == 0)); then
            fail "$bdf: no IOMMU is on (${SYS#"$HOST_ROOT"}/kernel/iommu_groups is empty), and vfio-pci needs one:" \
                "turn on VT-d (Intel) or AMD-Vi in the firmware and add 'intel_iommu=on iommu=pt' or" \
                "'amd_iommu=on iommu=pt' to the kernel command line, then reboot (vfio's unsafe no-IOMMU mode," \
                "modprobe vfio enable_unsafe_noiommu_mode=1, gives DMA to user space without protection)"
            continue
        fi
        if [[ -d "$dev/net" ]]; then
            info "$bdf is the kernel interface $(ls "$dev/net" | tr '\n' ' ')- it disappears from the kernel" \
                "(dpdk-devbind.py refuses an interface that is up: never the one carrying SSH)"
        fi
        run modprobe vfio-pci
        if command -v driverctl >/dev/null; then
            run driverctl set-override "$bdf" vfio-pci
            info "driverctl keeps the binding across reboots"
        else
            run dpdk-devbind.py --bind=vfio-pci "$bdf"
            warn "$bdf: a dpdk-devbind.py binding does not survive a reboot: install driverctl" \
                "(driverctl set-override $bdf vfio-pci) or enable sluice-host-setup.service"
        fi
        if ((DRY_RUN == 0)) && [[ -z "$HOST_ROOT" ]]; then
            driver=$(basename "$(readlink "$dev/driver" 2>/dev/null || echo none)")
            [[ "$driver" == vfio-pci ]] && ok "$bdf is bound to vfio-pci now" ||
                fail "$bdf is still bound to $driver after binding"
        fi
    done
    local modules=$ETC/modules-load.d/sluice-vfio.conf
    if [[ -f "$modules" ]] && grep -qx vfio-pci "$modules"; then
        ok "${modules#"$HOST_ROOT"} loads vfio-pci at boot"
    elif ((iommu)); then
        write_file "$modules" "vfio-pci"
    fi
}

# --- what host-setup checks but leaves to the operator ----------------------------------------------------------
check_cores() {
    echo "worker cores (left to the operator: kernel command line, irqbalance, governor)"
    local param list missing
    local -A why=([isolcpus]="the scheduler puts no other task there" [nohz_full]="the timer tick stops there"
        [rcu_nocbs]="RCU callbacks run elsewhere")
    for param in isolcpus nohz_full rcu_nocbs; do
        list=$(expand "$(cmdline_value "$param")")
        missing=$(missing_from "$list" "$WORKERS")
        if [[ -z "$missing" ]]; then
            ok "$param covers worker cores $WORKERS"
        else
            warn "$param does not cover worker core(s) $missing: add '$param=$(compress "$WORKERS")' to the kernel" \
                "command line (GRUB_CMDLINE_LINUX in /etc/default/grub, update-grub, reboot) so that" \
                "${why[$param]}"
        fi
    done
    if covers "$WORKERS" 0; then
        warn "a worker runs on core 0, where the kernel does its housekeeping: use other cores"
    fi
    local comm running=0 banned
    for comm in "$PROC"/[0-9]*/comm; do
        [[ -r "$comm" && "$(<"$comm")" == irqbalance ]] && running=1 && break
    done
    if ((running)); then
        banned=$(expand "$(sed -n 's/^IRQBALANCE_BANNED_CPULIST=//p' "$ETC/default/irqbalance" 2>/dev/null |
            tr -d '"' | tail -n 1)")
        if covers "$banned" "$WORKERS"; then
            ok "irqbalance runs and IRQBALANCE_BANNED_CPULIST keeps IRQs off the worker cores"
        elif covers "$(expand "$(cmdline_value isolcpus)")" "$WORKERS"; then
            ok "irqbalance runs and leaves the isolcpus cores (the worker cores) alone"
        else
            warn "irqbalance runs and may move IRQs onto worker cores: set" \
                "IRQBALANCE_BANNED_CPULIST=$(compress "$WORKERS") in /etc/default/irqbalance and restart it"
        fi
    else
        info "irqbalance does not run: IRQ affinities stay as set (/proc/irq/*/smp_affinity_list)"
    fi
    local core governor file
    for core in $WORKERS; do
        file=$SYS/devices/system/cpu/cpu$core/cpufreq/scaling_governor
        if [[ ! -r "$file" ]]; then
            info "core $core has no cpufreq governor (fixed frequency, or a VM)"
            continue
        fi
        governor=$(<"$file")
        if [[ "$governor" == performance ]]; then
            ok "core $core runs the performance governor"
        else
            warn "core $core runs the $governor governor: frequency changes add latency; cpupower -c $core" \
                "frequency-set -g performance (and turn deep C-states off in the firmware)"
        fi
    done
}

check_memory() {
    echo "connection tables ($((FACT[connection_table_bytes] / MIB)) MiB, Java off-heap memory on transparent huge pages)"
    local thp
    thp=$(cat "$SYS/kernel/mm/transparent_hugepage/enabled" 2>/dev/null || echo "")
    if [[ "$thp" == *"[always]"* || "$thp" == *"[madvise]"* ]]; then
        ok "transparent huge pages: $thp"
    else
        warn "transparent huge pages are '${thp:-absent}': the connection tables fall back to 4 KiB pages (more" \
            "TLB misses); echo madvise > /sys/kernel/mm/transparent_hugepage/enabled"
    fi
    local available
    available=$(awk '/^MemAvailable:/ { printf "%d", $2 * 1024 }' "$PROC/meminfo" 2>/dev/null || echo 0)
    if ((available > 0 && available < FACT[connection_table_bytes])); then
        fail "only $((available / MIB)) MiB available for $((FACT[connection_table_bytes] / MIB)) MiB of" \
            "connection tables: lower forwarder.connection_table.capacity"
    fi
}

# The controller's and ExaBGP's threads keep off the worker cores; the forwarder keeps every core (it pins its
# workers itself).
write_affinity() {
    echo "systemd CPUAffinity (the controller and ExaBGP off the worker cores)"
    local house
    house=$(compress "$(missing_from "$WORKERS" "$POSSIBLE")")
    if [[ -z "$house" ]]; then
        warn "every core is a worker core: the controller and the kernel have none of their own"
        return 0
    fi
    local unit file want
    want=$(printf '# Written by sluice host-setup: the cores that are not worker cores (%s)\n[Service]\nCPUAffinity=%s' \
        "$(compress "$WORKERS")" "${house//,/ }")
    for unit in sluice-controller sluice-exabgp@; do
        file=$ETC/systemd/system/$unit.service.d/50-sluice-cpu-affinity.conf
        if [[ -f "$file" && "$(<"$file")" == "$want" ]]; then
            ok "${file#"$HOST_ROOT"}: CPUAffinity=${house//,/ }"
        else
            write_file "$file" "$want"
        fi
    done
    info "for every other service too: CPUAffinity=${house//,/ } in /etc/systemd/system.conf"
}

check_hugepages
check_ports
check_memory
check_cores
write_affinity
if ((FAILS > 0)) || ((STRICT && WARNS > 0)); then
    echo "verdict: NOT READY ($FAILS failed, $WARNS warning(s)$( ((STRICT)) && echo ', --strict'))"
    exit 1
fi
echo "verdict: READY ($WARNS warning(s))"
