#!/usr/bin/env bash
# Builds the release tarball (scripts/package.sh), unpacks it in a temporary directory and runs it from there with
# no source tree and no Maven: --help, version, check-config; installs it with `sluice install` into a temporary
# prefix; checks the installed systemd units with `systemd-analyze verify`; restarts a controller of the installed
# tree with its shared memory wiped and checks that a drain survived (state in a temporary node.state_dir); and
# times a forwarder's stop (DPDK on net_null, --no-huge) against its unit's TimeoutStopSec.
# usage: scripts/tests/package-test.sh     (starts DPDK: run it under flock /tmp/sluice-heavy.lock)
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
WORK=$(mktemp -d /tmp/sluice-package-test.XXXXXX)
PIDS=()
# shellcheck source=scripts/tests/lib.sh
source "$ROOT/scripts/tests/lib.sh"
cleanup() {
    local rc=$? pid
    for pid in "${PIDS[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
    for pid in "${PIDS[@]}"; do wait "$pid" 2>/dev/null || true; done
    rm -rf "$WORK" "/var/run/dpdk/sluice-pkgtest-$$"
    exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# shellcheck source=scripts/lib/packages.sh
source "$ROOT/scripts/lib/packages.sh"
# shellcheck source=scripts/lib/forwarder-log.sh
source "$ROOT/scripts/lib/forwarder-log.sh"
install_missing_packages package-test "${SLUICE_OPS_PACKAGES[@]}"

echo "== release package"
"$ROOT/scripts/package.sh" --out "$WORK/out" >"$WORK/package.path" 2>"$WORK/package.log" ||
    { cat "$WORK/package.log"; exit 1; }
TARBALL=$(tail -n 1 "$WORK/package.path")
VERSION=$(sed -n '0,/<version>/s:.*<version>\(.*\)</version>.*:\1:p' "$ROOT/pom.xml")
[[ "$TARBALL" == "$WORK/out/sluice-$VERSION-linux-x86_64.tar.gz" && -s "$TARBALL" ]] &&
    pass "built $(basename "$TARBALL") ($(du -k "$TARBALL" | cut -f1) KiB)" || fail "no tarball: $TARBALL"
mkdir -p "$WORK/unpacked" "$WORK/fakebin"
tar -C "$WORK/unpacked" -xzf "$TARBALL"
TREE=$WORK/unpacked/sluice-$VERSION-linux-x86_64
for f in bin/sluice bin/sluice_gredecap lib/sluice-forwarder-all.jar lib/sluice-controller-all.jar lib/sluice-tools-all.jar \
    lib/libsluice_shim.so lib/sh/java.sh lib/sh/host-setup.sh lib/sh/backend-setup.sh lib/sh/install.sh \
    deploy/systemd/sluice-forwarder.service deploy/systemd/sluice-controller.service docs/operations.md VERSION; do
    [[ -e "$TREE/$f" ]] || fail "the tarball lacks $f"
done
[[ -z "$(find "$TREE" -name pom.xml -o -name '*.java' | head -n 1)" ]] && pass "the tarball has no sources or poms" ||
    fail "sources in the tarball"

# A Maven that fails loudly, first on PATH: the release must never build.
printf '#!/bin/sh\necho "mvn called: $*" >>%s/mvn-called\nexit 99\n' "$WORK" >"$WORK/fakebin/mvn"
chmod +x "$WORK/fakebin/mvn"
# run_release NAME COMMAND...: from / with the fake Maven first on PATH; output in $WORK/NAME.out, status in RC.
run_release() {
    local name=$1
    shift
    RC=0
    (cd / && PATH=$WORK/fakebin:$PATH "$@") >"$WORK/$name.out" 2>&1 || RC=$?
}
expect() { expect_in "$WORK/$1.out" 30 "$@"; } # expect NAME STATUS TEXT...

run_release help "$TREE/bin/sluice" --help
expect help 0 "usage: scripts/sluice <command>" "host-setup [--dry-run]" "backend-setup [--dry-run]" "install [--prefix DIR]"
run_release version "$TREE/bin/sluice" version
expect version 0 "$VERSION"
run_release check-config "$TREE/bin/sluice" check-config "$TREE/docs/config.example.yaml"
expect check-config 0 "node lb1: 1 port(s), 1 worker(s), 3 VIP(s) of 256"
printf 'node: {name: lb1}\nforwarder: {eal_args: [], ports: [], workers: []}\n' >"$WORK/bad.yaml"
run_release check-config-bad "$TREE/bin/sluice" check-config "$WORK/bad.yaml"
expect check-config-bad 2 "$WORK/bad.yaml: forwarder.ports:"
# Under systemd (JOURNAL_STREAM set, the units set SLUICE_JOURNAL_PRIORITIES) stderr lines carry the journal's
# error priority.
RC=0
(cd / && JOURNAL_STREAM=8:1 SLUICE_JOURNAL_PRIORITIES=1 "$TREE/bin/sluice" check-config "$WORK/bad.yaml") \
    2>"$WORK/journal.err" >/dev/null || RC=$?
[[ $RC -eq 2 ]] && grep -q "^<3>$WORK/bad.yaml: forwarder.ports:" "$WORK/journal.err" &&
    pass "under systemd, stderr lines are marked <3> (journal priority err)" ||
    fail "journal priority: exit $RC, stderr: $(cat "$WORK/journal.err")"
run_release backend-setup "$TREE/bin/sluice" backend-setup --dry-run --mode gredecap --vip 10.100.0.1 \
    --tunnel-source 10.0.0.1 --no-persist --run-dir "$WORK/run"
expect backend-setup 0 "would run: $TREE/bin/sluice_gredecap --tun sluice-decap0" "dry run done (gredecap decapsulation)"
run_release host-setup "$TREE/bin/sluice" host-setup --dry-run --config "$TREE/docs/config.example.yaml"
expect host-setup 0 "host-setup: node lb1 from $TREE/docs/config.example.yaml (dry run: nothing is changed)" \
    "eal_args has --no-huge" "verdict: READY"
[[ ! -e "$WORK/mvn-called" ]] && pass "nothing called Maven" || fail "Maven called: $(cat "$WORK/mvn-called")"

echo "== sluice install --prefix"
run_release install "$TREE/bin/sluice" install --prefix "$WORK/opt/sluice" --systemd-dir "$WORK/units" \
    --config-dir "$WORK/etc"
expect install 0 "installed $VERSION in $WORK/opt/sluice" "wrote $WORK/units/sluice-controller.service"
run_release installed-help "$WORK/opt/sluice/bin/sluice" --help
expect installed-help 0 "usage: scripts/sluice <command>"
ln -s "$WORK/opt/sluice/bin/sluice" "$WORK/fakebin/sluice"
run_release symlinked sluice version
expect symlinked 0 "$VERSION"
grep -q "ExecStart=$WORK/opt/sluice/bin/sluice controller" "$WORK/units/sluice-controller.service" &&
    ! grep -q /opt/sluice/ <(grep -h '^Exec' "$WORK/units"/*.service | grep -v "$WORK/opt/sluice") &&
    pass "installed units name the prefix" || fail "installed units still name /opt/sluice"
run_release reinstall "$TREE/bin/sluice" install --prefix "$WORK/opt/sluice" --systemd-dir "$WORK/units" \
    --config-dir "$WORK/etc"
expect reinstall 0 "installed $VERSION in $WORK/opt/sluice"

echo "== systemd units (systemd-analyze verify; systemd is not PID 1 here, so they are not run)"
cp "$WORK/units/sluice-exabgp@.service" "$WORK/units/sluice-exabgp@lb1.service"
RC=0
(cd "$WORK/units" && systemd-analyze verify --man=no sluice-forwarder.service sluice-controller.service \
    sluice-host-setup.service sluice-exabgp@lb1.service) >"$WORK/verify.out" 2>&1 || RC=$?
[[ $RC -eq 0 && ! -s "$WORK/verify.out" ]] && pass "systemd-analyze verify: no error, no warning" ||
    { fail "systemd-analyze verify: exit $RC"; cat "$WORK/verify.out"; }
# The same check finds a mistake (it only warns on unknown values, hence "no output" above).
sed 's/^KillMode=process/KillMode=processes/' "$WORK/units/sluice-controller.service" >"$WORK/broken.service"
systemd-analyze verify --man=no "$WORK/broken.service" >"$WORK/verify-broken.out" 2>&1 || true
grep -q "kill mode" "$WORK/verify-broken.out" && pass "systemd-analyze verify reports a bad KillMode" ||
    fail "systemd-analyze verify missed a bad KillMode: $(cat "$WORK/verify-broken.out")"
unit_value() { sed -n "s/^$2=//p" "$WORK/units/$1" | tail -n 1; }
[[ "$(unit_value sluice-controller.service KillMode)" == process ]] &&
    pass "controller: KillMode=process (ExaBGP outlives the controller's stop)" || fail "controller KillMode"
grep -q '^After=.*sluice-forwarder.service' "$WORK/units/sluice-controller.service" &&
    pass "controller ordered after the forwarder" || fail "controller not after the forwarder"
for unit in sluice-forwarder.service sluice-controller.service; do
    [[ "$(unit_value $unit Restart)" == on-failure && -n "$(unit_value $unit StartLimitBurst)" &&
        "$(unit_value $unit RestartPreventExitStatus)" == 2 ]] &&
        pass "$unit: Restart=on-failure, start limit, no restart on a bad config (2)" || fail "$unit restart policy"
done
[[ "$(unit_value sluice-forwarder.service LimitMEMLOCK)" == infinity ]] && pass "forwarder: LimitMEMLOCK=infinity" ||
    fail "forwarder LimitMEMLOCK"
# The controller's stop: 5 s for withdrawals + drain_time (default 10 s) + 5 s for ExaBGP, with room to spare.
stop_s=$(unit_value sluice-controller.service TimeoutStopSec)
((stop_s >= 10 + 5 + 5 + 10)) && pass "controller TimeoutStopSec=$stop_s covers a default stop (20 s)" ||
    fail "controller TimeoutStopSec=$stop_s too short"

echo "== a drain survives a controller restart with its shared memory wiped (installed tree, temporary state dir)"
PORT=$(/usr/bin/python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
cat >"$WORK/node.yaml" <<YAML
node: {name: pkgtest, state_dir: $WORK/state}
forwarder:
  eal_args: ["--no-pci", "--no-huge", "-m", "128", "--vdev=net_null0", "--file-prefix=sluice-pkgtest-$$"]
  ports: [{name: net_null0}]
  workers: [{core: $(($(nproc) - 1)), rx_port: net_null0}]
  idle_strategy: backoff
  mbufs_per_worker: 4095
  counters_dir: $WORK/shm
  next_hop_mac: "02:00:00:00:00:fe"
  tunnel_source_v4: 10.0.0.1
  connection_table: {capacity: 4096}
vips:
  - name: web
    address: 10.100.0.1
    port: 80
    protocol: tcp
    backends: [{name: be1, address: 127.0.0.1}, {name: be2, address: 127.0.0.2}]
controller:
  health_checks: {type: tcp, port: 9, interval: 1s, timeout: 500ms}
  metrics: {address: 127.0.0.1, port: $PORT}
YAML
SL=$WORK/opt/sluice/bin/sluice
start_controller() {
    (cd / && exec "$SL" controller --config "$WORK/node.yaml") >"$WORK/$1.log" 2>&1 &
    CONTROLLER=$!
    PIDS+=("$CONTROLLER")
    for _ in $(seq 100); do
        curl -sf "http://127.0.0.1:$PORT/status?format=json" >/dev/null 2>&1 && return 0
        sleep 0.2
    done
    fail "controller did not serve /status: $(cat "$WORK/$1.log")"
    return 1
}
stop_controller() {
    kill -TERM "$CONTROLLER"
    RC=0
    wait "$CONTROLLER" || RC=$?
}
drained() { curl -sf "http://127.0.0.1:$PORT/status?format=json" | jq -e '.vips[0].backends[0].drained' >/dev/null; }
start_controller ctl1
RC=0
"$SL" drain --config "$WORK/node.yaml" web be1 >"$WORK/drain.out" 2>&1 || RC=$?
expect drain 0 "drained"
drained && pass "be1 drained" || fail "be1 not drained"
stop_controller
[[ $RC -eq 0 && -s "$WORK/state/pkgtest/operator-overrides.tsv" ]] &&
    pass "controller stopped (exit 0); the drain is in $WORK/state/pkgtest/operator-overrides.tsv" ||
    fail "controller exit $RC, state: $(ls -R "$WORK/state" 2>&1)"
rm -rf "$WORK/shm"
start_controller ctl2
drained && pass "after a restart with the shared memory wiped, be1 is still drained" || fail "the drain was lost"
grep -q "restored 1 operator overrides from $WORK/state/pkgtest/operator-overrides.tsv" "$WORK/ctl2.log" &&
    pass "the controller says where it restored the drain from" || fail "no restore line: $(cat "$WORK/ctl2.log")"
stop_controller
[[ ! -e /var/lib/sluice/pkgtest ]] && pass "nothing written to the real /var/lib/sluice" ||
    fail "/var/lib/sluice/pkgtest exists"

echo "== the forwarder of the installed tree stops within its unit's TimeoutStopSec"
(cd / && exec "$SL" forwarder --config "$WORK/node.yaml") >"$WORK/fwd.log" 2>&1 &
FORWARDER=$!
PIDS+=("$FORWARDER")
if await_forwarder_running "$WORK/fwd.log" "$FORWARDER" 30; then
    start_ns=$(date +%s%N)
    kill -TERM "$FORWARDER"
    RC=0
    wait "$FORWARDER" || RC=$?
    stop_ms=$((($(date +%s%N) - start_ns) / 1000000))
    limit_s=$(unit_value sluice-forwarder.service TimeoutStopSec)
    [[ $RC -eq 0 ]] && ((stop_ms < limit_s * 1000)) &&
        pass "forwarder stopped cleanly in $stop_ms ms (TimeoutStopSec=${limit_s}s)" ||
        fail "forwarder stop: exit $RC after $stop_ms ms (limit ${limit_s}s): $(tail -n 5 "$WORK/fwd.log")"
else
    fail "forwarder did not start: $(tail -n 20 "$WORK/fwd.log")"
fi

summary package
