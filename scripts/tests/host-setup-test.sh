#!/usr/bin/env bash
# Tests `sluice host-setup` on fake host layouts (SLUICE_HOST_ROOT: a made-up /sys, /proc and /etc with NUMA
# nodes, hugepages, a PCI NIC, an IOMMU or none, the kernel command line) whose verdicts are known, then on this
# real machine in --dry-run (which must change nothing).
# usage: scripts/tests/host-setup-test.sh
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
SLUICE=${SLUICE_LAUNCHER:-$ROOT/scripts/sluice}
WORK=$(mktemp -d /tmp/sluice-host-setup-test.XXXXXX)
trap '[[ -n "${KEEP:-}" ]] || rm -rf "$WORK"' EXIT
# shellcheck source=scripts/tests/lib.sh
source "$ROOT/scripts/tests/lib.sh"

# node_config FILE PORT CORES...: a node with one port and one worker per core.
node_config() {
    local file=$1 port=$2 core
    shift 2
    {
        printf 'node: {name: lb1, state_dir: %s/state}\n' "$WORK"
        printf 'forwarder:\n  eal_args: ["-a", "%s"]\n  ports: [{name: "%s"}]\n  workers:\n' "$port" "$port"
        for core in "$@"; do printf '    - {core: %s, rx_port: "%s"}\n' "$core" "$port"; done
        printf '  mbufs_per_worker: 8191\n  next_hop_mac: "02:00:00:00:00:fe"\n  tunnel_source_v4: 10.0.0.1\n'
        printf '  connection_table: {capacity: 65536}\n'
    } >"$file"
}

# fake_host DIR NODES CPUS_PER_NODE: a host tree with NODES NUMA nodes, no hugepages reserved, THP madvise.
fake_host() {
    local dir=$1 nodes=$2 per=$3 n cpu
    mkdir -p "$dir/sys/devices/system/cpu" "$dir/sys/kernel/mm/transparent_hugepage" "$dir/sys/kernel/iommu_groups" \
        "$dir/sys/bus/pci/devices" "$dir/sys/bus/pci/drivers/vfio-pci" "$dir/sys/bus/pci/drivers/ixgbe" \
        "$dir/sys/bus/pci/drivers/mlx5_core" "$dir/proc/1" "$dir/etc"
    echo "0-$((nodes * per - 1))" >"$dir/sys/devices/system/cpu/possible"
    for ((n = 0; n < nodes; n++)); do
        mkdir -p "$dir/sys/devices/system/node/node$n/hugepages/hugepages-2048kB" \
            "$dir/sys/devices/system/node/node$n/hugepages/hugepages-1048576kB"
        echo "$((n * per))-$((n * per + per - 1))" >"$dir/sys/devices/system/node/node$n/cpulist"
        echo 0 >"$dir/sys/devices/system/node/node$n/hugepages/hugepages-2048kB/nr_hugepages"
        echo 0 >"$dir/sys/devices/system/node/node$n/hugepages/hugepages-1048576kB/nr_hugepages"
    done
    for ((cpu = 0; cpu < nodes * per; cpu++)); do
        mkdir -p "$dir/sys/devices/system/cpu/cpu$cpu/cpufreq"
        echo powersave >"$dir/sys/devices/system/cpu/cpu$cpu/cpufreq/scaling_governor"
    done
    echo 'always [madvise] never' >"$dir/sys/kernel/mm/transparent_hugepage/enabled"
    echo 'BOOT_IMAGE=/vmlinuz root=/dev/sda1 ro quiet' >"$dir/proc/cmdline"
    echo 'nodev /dev/hugepages hugetlbfs rw,relatime,pagesize=2M 0 0' >"$dir/proc/mounts"
    echo 'MemAvailable:   16000000 kB' >"$dir/proc/meminfo"
    echo systemd >"$dir/proc/1/comm"
}

# fake_nic DIR BDF NODE DRIVER VENDOR
fake_nic() {
    local dev=$1/sys/bus/pci/devices/$2
    mkdir -p "$dev/net/eth9"
    echo "$3" >"$dev/numa_node"
    echo "$5" >"$dev/vendor"
    ln -s "../../../bus/pci/drivers/$4" "$dev/driver"
}

# host_setup DIR ARGS...: runs host-setup on the fake host DIR; output in $WORK/out, status in RC.
host_setup() {
    local dir=$1
    shift
    RC=0
    SLUICE_HOST_ROOT=$dir "$SLUICE" host-setup "$@" >"$WORK/out" 2>&1 || RC=$?
}

# expect DESCRIPTION STATUS TEXT...: RC is STATUS and the output has every TEXT line part.
expect() { expect_in "$WORK/out" 0 "$@"; }

tree_sum() { (cd "$1" && find . \( -type f -exec sha256sum {} + \) -o \( -type l -printf '%p -> %l\n' \) | sort | sha256sum); }

echo "== host-setup on fake hosts"

# 1. A tuned two-node host: NIC on node 1 bound to vfio-pci, workers isolated on node 1, pages reserved there at
#    boot, performance governor: ready, with no warning but the one about core affinity of other services.
H=$WORK/tuned
fake_host "$H" 2 4
fake_nic "$H" 0000:3b:00.0 1 vfio-pci 0x8086
mkdir -p "$H/sys/kernel/iommu_groups/17"
echo 'BOOT_IMAGE=/vmlinuz ro isolcpus=managed_irq,domain,5-6 nohz_full=5-6 rcu_nocbs=5-6 hugepagesz=2M hugepages=0:0,1:128' \
    >"$H/proc/cmdline"
echo 128 >"$H/sys/devices/system/node/node1/hugepages/hugepages-2048kB/nr_hugepages"
for cpu in 5 6; do echo performance >"$H/sys/devices/system/cpu/cpu$cpu/cpufreq/scaling_governor"; done
mkdir -p "$H/etc/modules-load.d"; echo vfio-pci >"$H/etc/modules-load.d/sluice-vfio.conf"
node_config "$WORK/tuned.yaml" 0000:3b:00.0 5 6
host_setup "$H" --config "$WORK/tuned.yaml"
# 8191 mbufs x 2 queues x 2560 B + 64 MiB EAL = 103.99 MiB = 52 pages of 2M, on node 1 where the NIC is.
expect "tuned host is ready" 0 "NUMA node 1: 128 x 2M reserved, 52 needed (103 MiB)" \
    "0000:3b:00.0 is on NUMA node 1, as every worker core" "0000:3b:00.0 is bound to vfio-pci" \
    "persistent: the kernel command line reserves them" "isolcpus covers worker cores 5 6" \
    "nohz_full covers worker cores 5 6" "rcu_nocbs covers worker cores 5 6" "core 5 runs the performance governor" \
    "sluice-controller.service.d/50-sluice-cpu-affinity.conf: # Written by sluice host-setup" "CPUAffinity=0-4 7" \
    "verdict: READY"
grep -q WARN "$WORK/out" && fail "tuned host: no WARN expected" || pass "tuned host: no warning"

# 2. The same NIC on node 0, bound to its kernel driver, no IOMMU, no pages, nothing isolated, irqbalance running:
#    not ready; the dry run says what it would do and what the operator must do, and changes nothing.
H=$WORK/untuned
fake_host "$H" 2 4
fake_nic "$H" 0000:3b:00.0 0 ixgbe 0x8086
echo irqbalance >"$H/proc/1/comm"
node_config "$WORK/untuned.yaml" 0000:3b:00.0 5 6
before=$(tree_sum "$H")
host_setup "$H" --dry-run --config "$WORK/untuned.yaml"
expect "untuned host: dry run" 1 "(dry run: nothing is changed)" \
    "would write 52 > /sys/devices/system/node/node0/hugepages/hugepages-2048kB/nr_hugepages" \
    "add 'hugepagesz=2M hugepages=0:52' to GRUB_CMDLINE_LINUX" \
    "is on NUMA node 0 but worker cores 5 6 are on node(s) 1 1" \
    "FAIL    0000:3b:00.0: no IOMMU is on" "intel_iommu=on iommu=pt" \
    "isolcpus does not cover worker core(s) 5 6: add 'isolcpus=5-6'" \
    "irqbalance runs and may move IRQs onto worker cores: set IRQBALANCE_BANNED_CPULIST=5-6" \
    "core 5 runs the powersave governor" "verdict: NOT READY (1 failed"
[[ "$(tree_sum "$H")" == "$before" ]] && pass "dry run left the fake host unchanged" ||
    fail "dry run changed the fake host"

# 3. With an IOMMU the binding is an action: dpdk-devbind.py (or driverctl), and a modules-load.d file.
mkdir -p "$H/sys/kernel/iommu_groups/3"
host_setup "$H" --dry-run --config "$WORK/untuned.yaml"
expect "untuned host with an IOMMU: binding planned" 0 "would run: modprobe vfio-pci" \
    "$(command -v driverctl >/dev/null && echo 'driverctl set-override 0000:3b:00.0 vfio-pci' ||
        echo 'dpdk-devbind.py --bind=vfio-pci 0000:3b:00.0')" \
    "would write /etc/modules-load.d/sluice-vfio.conf: vfio-pci" "is the kernel interface eth9" "verdict: READY"
host_setup "$H" --dry-run --strict --config "$WORK/untuned.yaml"
expect "--strict turns warnings into not ready" 1 "verdict: NOT READY (0 failed" ", --strict)"

# 4. A one-node host for real (on the fake tree): reserves the pages, persists them in sysctl.d, writes the
#    drop-ins; a second run finds everything done and changes nothing.
H=$WORK/single
fake_host "$H" 1 4
echo 'nodev /dev/hugepages hugetlbfs rw,relatime 0 0' >"$H/proc/mounts"
node_config "$WORK/single.yaml" net_null0 2 3
sed -i 's/"-a", "net_null0"/"--no-pci", "--vdev=net_null0"/' "$WORK/single.yaml"
host_setup "$H" --config "$WORK/single.yaml"
# Two ports' pools? One port, two queues: 8191 x 2 x 2560 + 64 MiB = 103.99 MiB: 52 pages on node 0 (core 0's).
expect "one-node host: set up" 0 "write 52 > /sys/devices/system/node/node0/hugepages/hugepages-2048kB/nr_hugepages" \
    "NUMA node 0: 52 x 2M reserved now" "wrote /etc/sysctl.d/80-sluice-hugepages.conf" \
    "no PCI ports in the config" "verdict: READY"
[[ "$(<"$H/sys/devices/system/node/node0/hugepages/hugepages-2048kB/nr_hugepages")" == 52 ]] &&
    grep -qx 'vm.nr_hugepages = 52' "$H/etc/sysctl.d/80-sluice-hugepages.conf" &&
    grep -qx 'CPUAffinity=0-1' "$H/etc/systemd/system/sluice-controller.service.d/50-sluice-cpu-affinity.conf" &&
    pass "one-node host: nr_hugepages 52, sysctl.d and the CPUAffinity drop-in written" ||
    fail "one-node host: files not as expected"
before=$(tree_sum "$H")
host_setup "$H" --config "$WORK/single.yaml"
expect "one-node host: second run" 0 "NUMA node 0: 52 x 2M reserved, 52 needed" \
    "persistent: /etc/sysctl.d/80-sluice-hugepages.conf sets vm.nr_hugepages = 52 at boot" "verdict: READY"
grep -q ACTION "$WORK/out" && fail "second run still acts: $(grep ACTION "$WORK/out")" ||
    pass "second run: no action (idempotent)"
[[ "$(tree_sum "$H")" == "$before" ]] && pass "second run changed nothing" || fail "second run changed files"

# 5. 1 GiB pages: none at run time on this fake host's node; the kernel command line is the way.
host_setup "$H" --dry-run --page-size 1G --config "$WORK/single.yaml"
expect "1G pages" 0 "would write 1 > /sys/devices/system/node/node0/hugepages/hugepages-1048576kB/nr_hugepages" \
    "add 'default_hugepagesz=1G hugepagesz=1G hugepages=0:1'" "would run: mount -t hugetlbfs -o pagesize=1G"

# 6. mlx5: bifurcated, stays on mlx5_core, no IOMMU needed.
H=$WORK/mlx5
fake_host "$H" 1 4
fake_nic "$H" 0000:5e:00.0 0 mlx5_core 0x15b3
echo 64 >"$H/sys/devices/system/node/node0/hugepages/hugepages-2048kB/nr_hugepages"
node_config "$WORK/mlx5.yaml" 0000:5e:00.0 2 3
host_setup "$H" --dry-run --config "$WORK/mlx5.yaml"
expect "mlx5 NIC" 0 "is Mellanox/NVIDIA (mlx5): its PMD is bifurcated" "0000:5e:00.0 is bound to mlx5_core" \
    "verdict: READY"
grep -qE 'bind=vfio-pci|set-override|modprobe vfio' "$WORK/out" && fail "mlx5: a vfio-pci binding planned" || pass "mlx5: no vfio-pci binding planned"

# 7. A bad config: file, field and reason, exit 2; a missing PCI device: not ready.
sed 's/core: 5/core: 99/' "$WORK/tuned.yaml" >"$WORK/bad.yaml"
host_setup "$WORK/tuned" --dry-run --config "$WORK/bad.yaml"
expect "bad config" 2 "$WORK/bad.yaml: forwarder.workers[0].core: core 99 does not exist"
host_setup "$WORK/tuned" --dry-run --config "$WORK/tuned.yaml" --page-size 4K
expect "bad page size" 2 "--page-size must be 2M or 1G"

echo "== host-setup --dry-run on this machine (no NIC, no IOMMU)"
node_config "$WORK/here.yaml" 0000:00:1f.6 1
RC=0
"$SLUICE" host-setup --dry-run --config "$WORK/here.yaml" >"$WORK/out" 2>&1 || RC=$?
expect "a PCI port this machine lacks: not ready" 1 "0000:00:1f.6: no such PCI device on this host" \
    "verdict: NOT READY"
node_config "$WORK/here.yaml" net_null0 1
sed -i 's/"-a", "net_null0"/"--no-pci", "--no-huge", "-m", "256", "--vdev=net_null0"/' "$WORK/here.yaml"
etc_before=$(ls -la /etc/sysctl.d /etc/systemd/system 2>/dev/null | sha256sum)
RC=0
"$SLUICE" host-setup --dry-run --config "$WORK/here.yaml" >"$WORK/out" 2>&1 || RC=$?
expect "a --no-huge vdev node: ready" 0 "eal_args has --no-huge" "no PCI ports in the config" "verdict: READY"
[[ "$(ls -la /etc/sysctl.d /etc/systemd/system 2>/dev/null | sha256sum)" == "$etc_before" ]] &&
    pass "dry run on this machine wrote nothing to /etc" || fail "dry run on this machine changed /etc"

summary host-setup
