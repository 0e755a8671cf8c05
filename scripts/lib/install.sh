#!/usr/bin/env bash
# Installs an unpacked release: copies it to the prefix, writes its systemd units (with the prefix in their
# paths) and /etc/sluice; enables nothing. Run through `sluice install` from the unpacked tree.
# usage: sluice install [--prefix DIR] [--systemd-dir DIR] [--config-dir DIR]
set -euo pipefail

usage() { sed -n 's/^# usage: //p' "${BASH_SOURCE[0]}"; }
FROM=${1:?release directory}
shift
PREFIX=/opt/sluice
UNITS=/etc/systemd/system
CONFIG_DIR=/etc/sluice
while [[ $# -gt 0 ]]; do
    case "$1" in
        --prefix) PREFIX=${2:?--prefix DIR}; shift ;;
        --systemd-dir) UNITS=${2:?--systemd-dir DIR}; shift ;;
        --config-dir) CONFIG_DIR=${2:?--config-dir DIR}; shift ;;
        -h|--help) usage; exit 0 ;;
        *) echo "sluice install: unknown argument '$1'" >&2; usage >&2; exit 2 ;;
    esac
    shift
done
[[ "$PREFIX" == /* ]] || { echo "sluice install: --prefix must be absolute, got '$PREFIX'" >&2; exit 2; }
PREFIX=${PREFIX%/}
[[ "$(readlink -f "$FROM")" != "$(readlink -f "$PREFIX" 2>/dev/null || echo "$PREFIX")" ]] ||
    { echo "sluice install: already installed in $PREFIX" >&2; exit 2; }

STAGE=$(mktemp -d "${PREFIX%/*}/.sluice-install.XXXXXX" 2>/dev/null || mktemp -d)
trap 'rm -rf "$STAGE"' EXIT
cp -a "$FROM/." "$STAGE/"
# Replace the installed tree whole: a running forwarder keeps its open jar (the old inode) until it restarts.
if [[ -e "$PREFIX" ]]; then
    rm -rf "$PREFIX.old"
    mv "$PREFIX" "$PREFIX.old"
fi
mkdir -p "$(dirname "$PREFIX")"
mv "$STAGE" "$PREFIX"
chmod 0755 "$PREFIX"
trap - EXIT
rm -rf "$PREFIX.old"
echo "installed $(<"$PREFIX/VERSION") in $PREFIX"

mkdir -p "$UNITS"
for unit in "$PREFIX"/deploy/systemd/*.service; do
    sed "s#/opt/sluice#$PREFIX#g" "$unit" >"$UNITS/${unit##*/}"
    echo "wrote $UNITS/${unit##*/}"
done
mkdir -p "$CONFIG_DIR"
if [[ ! -e "$CONFIG_DIR/node.yaml" ]]; then
    cp "$PREFIX/docs/config.example.yaml" "$CONFIG_DIR/node.yaml.example"
    echo "wrote $CONFIG_DIR/node.yaml.example: write $CONFIG_DIR/node.yaml from it (docs/config.example.yaml)"
fi
cat <<NEXT
next: $PREFIX/bin/sluice check-config $CONFIG_DIR/node.yaml
      $PREFIX/bin/sluice host-setup --dry-run --config $CONFIG_DIR/node.yaml
      systemctl daemon-reload && systemctl enable --now sluice-host-setup sluice-forwarder sluice-controller
NEXT
