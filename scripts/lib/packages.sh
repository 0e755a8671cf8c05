# shellcheck shell=bash disable=SC2034
# Debian packages the scripts need, and one way to install the missing ones. Sourced by test.sh, demo.sh,
# bench-forwarder.sh and bench-pktgen.sh, so that a tool added for one of them is installed by all that need it.

# What building and running Sluice needs. dpdk-dev gives dpdk-testpmd; dpdk gives only dpdk-devbind.py (binding
# NIC ports to vfio-pci) and dpdk-hugepages.py.
SLUICE_BUILD_PACKAGES=(openjdk-17-jdk-headless maven gcc make pkg-config libxxhash-dev libdpdk-dev dpdk dpdk-dev)
# What the namespace topologies need (system tests, the demo): router, BGP, tools inside the namespaces.
SLUICE_TOPOLOGY_PACKAGES=(bird2 exabgp iproute2 curl python3-scapy ethtool jq)
# What the operations tests need (scripts/tests/): systemd-analyze for verifying the units.
SLUICE_OPS_PACKAGES=(systemd jq)
# The demo's metrics step and the alert-rule tests: a real Prometheus (and promtool), plots of its series.
SLUICE_TOPOLOGY_PACKAGES+=(prometheus python3-matplotlib)
# What scripts/bench-pktgen.sh needs: pktgen-dpdk's build (meson, ninja, Lua, libpcap, libnuma, libbsd) and the plot.
SLUICE_PKTGEN_PACKAGES=(meson ninja-build liblua5.3-dev libpcap-dev libnuma-dev libbsd-dev python3-matplotlib)
# FRR 8 (zebra, bgpd, vtysh): the second real router of the BGP tests (testkit FrrRouter).
SLUICE_TOPOLOGY_PACKAGES+=(frr)

# package_missing PACKAGE: succeeds when the package's tool or file is not on this machine.
package_missing() {
    case "$1" in
        openjdk-17-jdk-headless) ! command -v javac >/dev/null ;;
        maven) ! command -v mvn >/dev/null ;;
        gcc) ! command -v cc >/dev/null ;;
        libxxhash-dev) [[ ! -f /usr/include/xxhash.h ]] ;;
        libdpdk-dev) ! pkg-config --exists libdpdk 2>/dev/null ;;
        dpdk) ! command -v dpdk-devbind.py >/dev/null ;;
        dpdk-dev) ! command -v dpdk-testpmd >/dev/null ;;
        ninja-build) ! command -v ninja >/dev/null ;;
        liblua5.3-dev) ! pkg-config --exists lua5.3 2>/dev/null ;;
        libpcap-dev) ! pkg-config --exists libpcap 2>/dev/null ;;
        libnuma-dev) [[ ! -f /usr/include/numa.h ]] ;;
        libbsd-dev) ! pkg-config --exists libbsd 2>/dev/null ;;
        python3-matplotlib) ! /usr/bin/python3 -c 'import matplotlib' 2>/dev/null ;;
        bird2) ! command -v bird >/dev/null ;;
        systemd) ! command -v systemd-analyze >/dev/null ;;
        frr) [[ ! -x /usr/lib/frr/bgpd || ! -x /usr/lib/frr/zebra ]] || ! command -v vtysh >/dev/null ;;
        iproute2) ! command -v ip >/dev/null ;;
        # Debian's python3: the python3 first on PATH may be another build without scapy.
        python3-scapy) ! /usr/bin/python3 -c 'import scapy' 2>/dev/null ;;
        prometheus) ! command -v prometheus >/dev/null || ! command -v promtool >/dev/null ;;
        *) ! command -v "$1" >/dev/null ;;
    esac
}

# install_missing_packages WHO PACKAGE...: installs, with apt-get, those of the packages that are missing; WHO
# names the script in its messages. Without root, it says what is missing and exits 2.
install_missing_packages() {
    local who=$1 package
    shift
    local missing=()
    for package in "$@"; do
        if package_missing "$package"; then
            missing+=("$package")
        fi
    done
    [[ ${#missing[@]} -eq 0 ]] && return 0
    if [[ $(id -u) -ne 0 ]]; then
        echo "$who: need root to install ${missing[*]}" >&2
        exit 2
    fi
    echo "$who: installing ${missing[*]}" >&2
    apt-get update -q >&2
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${missing[@]}" >&2
}
