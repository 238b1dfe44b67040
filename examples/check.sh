#!/usr/bin/env bash
# Runs every example script and compares its output with the .expected file beside it.
# Usage: examples/check.sh   (after 'swift build'; $HDRSHOOT overrides the binary)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
status=0
for script in "$here"/*.sh; do
    [ "$(basename "$script")" = "check.sh" ] && continue
    expected="${script%.sh}.expected"
    if diff -u "$expected" <(bash "$script" 2>&1); then
        echo "ok   $(basename "$script")"
    else
        echo "FAIL $(basename "$script") (output differs from $(basename "$expected"))"
        status=1
    fi
done
exit "$status"
