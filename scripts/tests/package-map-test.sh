#!/usr/bin/env bash
# Checks docs/architecture.md's "Package map" against the source tree, both ways: every Java package of the modules
# (main sources, and systemtest's test sources) has a row, every row names a package that exists, in the module the
# row says, and no package has two rows. Reads files only: no build, no lock needed.
# usage: scripts/tests/package-map-test.sh [-h | --help]
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
WORK=$(mktemp -d /tmp/sluice-package-map-test.XXXXXX)
cleanup() {
    local rc=$?
    rm -rf "$WORK"
    exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

usage() {
    echo "usage: scripts/tests/package-map-test.sh [-h | --help]"
}
case "${1:-}" in
    -h|--help) usage; exit 0 ;;
    "") ;;
    *) usage >&2; exit 2 ;;
esac

# shellcheck source=scripts/tests/lib.sh
source "$ROOT/scripts/tests/lib.sh"

# "module package" for every directory holding a .java file other than package-info.java; packages relative to
# io.sluice (io/sluice/forwarder/lb -> forwarder.lb).
tree_packages() {
    local module dir
    for module in common forwarder controller tools testkit bench systemtest; do
        dir="$ROOT/$module/src/main/java"
        [[ $module == systemtest ]] && dir="$ROOT/$module/src/test/java"
        [[ -d "$dir/io/sluice" ]] || continue
        find "$dir/io/sluice" -name '*.java' ! -name package-info.java -printf '%h\n' | sort -u |
            sed "s|^$dir/io/sluice/||; s|/|.|g; s|^|$module |"
    done | sort
}

# "module package" for every row of the table under "## Package map" (up to the next "## " heading).
map_rows() {
    awk '/^## Package map/ { inside = 1; next } inside && /^## / { exit }
        inside && /^\| [a-z]+ \| `[a-z.]+` \|/ {
            split($0, cell, "|"); gsub(/[ `]/, "", cell[2]); gsub(/[ `]/, "", cell[3]); print cell[2], cell[3] }' \
        "$ROOT/docs/architecture.md" | sort
}

echo "== package map (docs/architecture.md) against the tree"
tree_packages > "$WORK/tree"
map_rows > "$WORK/map"
RC=0
if [[ -s "$WORK/map" ]]; then
    pass "the package map has $(wc -l < "$WORK/map") rows"
else
    fail "no rows found under '## Package map' in docs/architecture.md"
fi
duplicates=$(awk '{ print $2 }' "$WORK/map" | sort | uniq -d)
if [[ -z "$duplicates" ]]; then
    pass "no package has two rows"
else
    fail "packages with more than one row: $(echo "$duplicates" | tr '\n' ' ')"
fi
missing=$(comm -23 "$WORK/tree" "$WORK/map")
if [[ -z "$missing" ]]; then
    pass "every package of the tree ($(wc -l < "$WORK/tree")) has a row"
else
    fail "packages with no row (module package): $(echo "$missing" | paste -sd, -)"
fi
stale=$(comm -13 "$WORK/tree" "$WORK/map")
if [[ -z "$stale" ]]; then
    pass "every row names a package of its module"
else
    fail "rows naming no package of that module (module package): $(echo "$stale" | paste -sd, -)"
fi
summary package-map-test
