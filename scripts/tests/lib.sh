# Shared by the shell tests in scripts/tests: PASS/FAIL lines and their counts, the check of a command's status
# and output, and the closing summary.
# usage: source "$ROOT/scripts/tests/lib.sh"     (after set -euo pipefail; the test sets RC to the status it checks)
PASSED=0
FAILED=0
pass() { printf '  PASS  %s\n' "$*"; PASSED=$((PASSED + 1)); }
fail() { printf '  FAIL  %s\n' "$*"; FAILED=$((FAILED + 1)); }

# expect_in FILE LINES DESCRIPTION STATUS TEXT...: RC is STATUS and FILE has every TEXT line part; on failure shows
# FILE indented (its first LINES lines, all of it when LINES is 0).
expect_in() {
    local file=$1 lines=$2 what=$3 want=$4 text missing=""
    shift 4
    for text in "$@"; do grep -qF -- "$text" "$file" || missing+=" [$text]"; done
    if [[ $RC -eq $want && -z "$missing" ]]; then
        pass "$what (exit $RC)"
    else
        fail "$what: exit $RC (want $want), missing:$missing"
        if ((lines > 0)); then sed 's/^/        /' "$file" | head -n "$lines"; else sed 's/^/        /' "$file"; fi
    fi
}

# summary NAME: prints the counts; succeeds only when nothing failed (make it the script's last command).
summary() {
    echo "$1: $PASSED passed, $FAILED failed"
    ((FAILED == 0))
}
