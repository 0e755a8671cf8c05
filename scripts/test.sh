#!/usr/bin/env bash
# Runs Sluice's whole test suite on a fresh machine: installs what is missing, builds, tests.
# usage: scripts/test.sh [extra Maven arguments]
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"

log() { printf '== %s\n' "$*"; }

install_packages() {
    local missing=()
    command -v javac >/dev/null || missing+=(openjdk-17-jdk-headless)
    command -v mvn >/dev/null || missing+=(maven)
    command -v cc >/dev/null || missing+=(gcc)
    command -v make >/dev/null || missing+=(make)
    command -v pkg-config >/dev/null || missing+=(pkg-config)
    [[ -f /usr/include/xxhash.h ]] || missing+=(libxxhash-dev)
    pkg-config --exists libdpdk 2>/dev/null || missing+=(libdpdk-dev)
    command -v dpdk-testpmd >/dev/null || missing+=(dpdk)
    command -v bird >/dev/null || missing+=(bird2)
    command -v exabgp >/dev/null || missing+=(exabgp)
    command -v ip >/dev/null || missing+=(iproute2)
    command -v curl >/dev/null || missing+=(curl)
    /usr/bin/python3 -c 'import scapy' 2>/dev/null || missing+=(python3-scapy)
    if [[ ${#missing[@]} -gt 0 ]]; then
        log "installing ${missing[*]}"
        if [[ $(id -u) -ne 0 ]]; then
            echo "test.sh: need root to install ${missing[*]}" >&2
            exit 2
        fi
        apt-get update -q
        DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${missing[@]}"
    fi
}

install_packages

log "building native code and running the DPDK shim smoke test (net_ring, net_null, net_pcap)"
make -s -C native all test
make -s -C native gredecap-test

log "building and running the Java tests"
mvn -B -ntp verify "$@"

log "cross-checking the Java Maglev build against the C reference"
c_sum=$(native/build/maglev_ref --backends 100 --table-size 65537 --seed 7 --iterations 1 --warmup 0 |
    sed -n 's/.*"checksum":"\([0-9a-f]*\)".*/\1/p')
java_sum=$(scripts/sluice maglev --backends 100 --table-size 65537 --seed 7 --iterations 1 --warmup 0 --json |
    sed -n 's/.*"checksum":"\([0-9a-f]*\)".*/\1/p')
if [[ -z "$c_sum" || "$c_sum" != "$java_sum" ]]; then
    echo "Maglev cross-check: FAILED (C $c_sum, Java $java_sum)"
    echo "0 passed, 1 failed"
    exit 1
fi
echo "Maglev cross-check: C and Java tables identical (checksum $c_sum)"

log "end to end: demo topology, failure drills, malformed frames (scripts/e2e-test.sh)"
scripts/e2e-test.sh

log "all tests passed"
