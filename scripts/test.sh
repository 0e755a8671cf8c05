#!/usr/bin/env bash
# Runs Sluice's whole test suite on a fresh machine: installs what is missing, builds, tests.
# usage: scripts/test.sh [extra Maven arguments]
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"

log() { printf '== %s\n' "$*"; }

# shellcheck source=scripts/lib/packages.sh
source "$ROOT/scripts/lib/packages.sh"
install_missing_packages test.sh "${SLUICE_BUILD_PACKAGES[@]}" "${SLUICE_TOPOLOGY_PACKAGES[@]}"
# The Java the launcher will run (scripts/lib/java.sh), so the tests run on it too.
# shellcheck source=scripts/lib/java.sh
source "$ROOT/scripts/lib/java.sh"
select_java test.sh
log "Java $SLUICE_JAVA_FEATURE: $JAVA_HOME"

log "building native code and running the DPDK shim smoke test (net_ring, net_null, net_pcap)"
make -s -C native all test
make -s -C native gredecap-test

log "ExaBGP relay: its failure paths on real sockets (python3 -m unittest, exabgp/tests)"
python3 -m unittest discover -s exabgp/tests

log "building and running the Java tests"
mvn -B -ntp verify "$@"

log "fuzzing every fuzz target for ${SLUICE_FUZZ_SECONDS:-30} s on top of its corpus (scripts/fuzz.sh --minutes N for longer)"
scripts/fuzz.sh --seconds "${SLUICE_FUZZ_SECONDS:-30}"

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

log "package map: docs/architecture.md against the source tree (scripts/tests/package-map-test.sh)"
scripts/tests/package-map-test.sh
log "host set-up: verdicts on fake host layouts, --dry-run on this machine (scripts/tests/host-setup-test.sh)"
scripts/tests/host-setup-test.sh
log "backend set-up: kernel path as --dry-run, gredecap path in namespaces (scripts/tests/backend-setup-test.sh)"
scripts/tests/backend-setup-test.sh
log "release package: build, run unpacked, install, systemd-analyze verify, a drain across a restart (scripts/tests/package-test.sh)"
scripts/tests/package-test.sh
log "alert rules: promtool check config/rules and the rules' unit tests (deploy/prometheus)"
promtool check config deploy/prometheus/prometheus.yml
promtool test rules deploy/prometheus/tests/sluice-rules-test.yml

log "end to end: demo topology, failure drills, malformed frames (scripts/e2e-test.sh)"
scripts/e2e-test.sh

log "line rate smoke: pktgen-dpdk -> vhost-user -> forwarder -> GRE back to pktgen (scripts/bench-pktgen.sh --smoke)"
# Counts, never speed: GRE to every backend in the captured frames, frames back, one connection per flow.
# pktgen's source sits beside the clone in CI and development (../shared); its build is cached in native/build.
install_missing_packages test.sh "${SLUICE_PKTGEN_PACKAGES[@]}"
export PKTGEN_SRC=${PKTGEN_SRC:-$ROOT/../shared/third_party/pktgen-23.06.1.tar.gz}
scripts/bench-pktgen.sh --build-only > /dev/null
timeout 600 scripts/bench-pktgen.sh --smoke

log "all tests passed"
