#!/usr/bin/env bash
# Builds the release tarball sluice-<version>-linux-x86_64.tar.gz: the jars, the DPDK shim and sluice_gredecap
# built here (for Debian 12's DPDK 22.11 on x86-64), the launcher, the systemd units and docs/. The unpacked tree
# runs with a JDK (17 or later) and DPDK's runtime libraries, without Maven or a source tree; `bin/sluice install
# --prefix /opt/sluice` installs it.
# usage: scripts/package.sh [--out DIR] [--skip-build]
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
OUT=$ROOT/target
BUILD=1
while [[ $# -gt 0 ]]; do
    case "$1" in
        --out) OUT=${2:?--out DIR}; shift ;;
        --skip-build) BUILD=0 ;;
        -h|--help) sed -n 's/^# usage: //p' "${BASH_SOURCE[0]}"; exit 0 ;;
        *) echo "package.sh: unknown argument '$1'" >&2; sed -n 's/^# usage: //p' "${BASH_SOURCE[0]}" >&2; exit 2 ;;
    esac
    shift
done

STAGE=$(mktemp -d /tmp/sluice-package.XXXXXX)
trap 'rm -rf "$STAGE"' EXIT

VERSION=$(sed -n '0,/<version>/s:.*<version>\(.*\)</version>.*:\1:p' "$ROOT/pom.xml")
[[ -n "$VERSION" ]] || { echo "package.sh: no <version> in pom.xml" >&2; exit 1; }
NAME=sluice-$VERSION-linux-x86_64

if ((BUILD)); then
    # shellcheck source=scripts/lib/java.sh
    source "$ROOT/scripts/lib/java.sh"
    select_java package.sh
    echo "package.sh: building the native code and the jars (Java $SLUICE_JAVA_FEATURE)" >&2
    make -s -C "$ROOT/native" shim gredecap >&2
    # sluice_build_info names the commit the package was built from (unknown outside a git checkout).
    commit=$(git -C "$ROOT" rev-parse HEAD 2>/dev/null || echo unknown)
    # -DskipTests, not -Dmaven.test.skip: the forwarder's tests depend on common's test jar, which
    # -Dmaven.test.skip does not build, and a fresh machine has no copy of it in ~/.m2 to fall back on.
    (cd "$ROOT" && mvn -B -ntp -q -DskipTests -Dsluice.git.commit="$commit" -pl forwarder,controller,tools \
        -am package) >&2
fi

DIR=$STAGE/$NAME
mkdir -p "$DIR/bin" "$DIR/lib/sh" "$DIR/deploy" "$DIR/docs"
echo "$VERSION" >"$DIR/VERSION"
install -m 0755 "$ROOT/scripts/sluice" "$DIR/bin/sluice"
install -m 0755 "$ROOT/native/build/sluice_gredecap" "$DIR/bin/sluice_gredecap"
install -m 0644 "$ROOT/forwarder/target/sluice-forwarder-all.jar" "$ROOT/controller/target/sluice-controller-all.jar" \
    "$ROOT/tools/target/sluice-tools-all.jar" "$DIR/lib/"
install -m 0755 "$ROOT/native/build/libsluice_shim.so" "$DIR/lib/"
install -m 0644 "$ROOT/scripts/lib/java.sh" "$DIR/lib/sh/"
install -m 0755 "$ROOT/scripts/lib/host-setup.sh" "$ROOT/scripts/lib/backend-setup.sh" "$ROOT/scripts/lib/install.sh" \
    "$DIR/lib/sh/"
cp -r "$ROOT/deploy/systemd" "$DIR/deploy/"
cp -r "$ROOT/docs/." "$DIR/docs/"
cp "$ROOT/README.md" "$DIR/"
# What the shim was built against: the host needs the same DPDK (Debian 12: the dpdk package, 22.11).
{
    echo "version $VERSION"
    echo "built $(date -u +%Y-%m-%dT%H:%M:%SZ) on $(uname -m), $(. /etc/os-release && echo "$PRETTY_NAME")"
    echo "dpdk $(pkg-config --modversion libdpdk 2>/dev/null || echo unknown)"
    echo "commit $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo unknown)"
} >"$DIR/BUILD-INFO"

mkdir -p "$OUT"
tar -C "$STAGE" --owner=0 --group=0 -czf "$OUT/$NAME.tar.gz" "$NAME"
echo "$OUT/$NAME.tar.gz"
