#!/usr/bin/env bash
# Runs every example script and compares its output with the .expected file beside it, then runs each
# field example (examples/field/) against the simulated camera in a private HOME: it must exit 0 and
# shoot (and merge, where it merges) every bracket.
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

hdrshoot="${HDRSHOOT:-$here/../.build/debug/hdrshoot}"
hdrshoot="$(cd "$(dirname "$hdrshoot")" && pwd)/$(basename "$hdrshoot")"
# field <script> <expected text> [VAR=value...] [-- arguments...]: runs it in a fresh folder with its own
# HOME and state; passes when it exits 0 and its output has the expected text.
field() {
    local script="$1" expected="$2" work log variables=()
    shift 2
    while [ "$#" -gt 0 ] && [ "$1" != "--" ]; do variables+=("$1"); shift; done
    [ "$#" -gt 0 ] && shift
    work="$(mktemp -d)"
    log="$work/log"
    if (cd "$work" && env HOME="$work/home" XDG_CONFIG_HOME="$work/config" XDG_STATE_HOME="$work/state" \
        HDRSHOOT_STATE_DIR= HDRSHOOT="$hdrshoot" CAMERA=simulator "${variables[@]}" bash "$here/field/$script" "$@" \
        </dev/null >"$log" 2>&1) && grep -q "$expected" "$log"; then
        echo "ok   field/$script"
    else
        echo "FAIL field/$script (exit status or output; its log follows)"
        tail -20 "$log"
        status=1
    fi
    rm -rf "$work"
}
merged="bracket: merged .* into merged.jpg"
command -v enfuse >/dev/null || merged="Complete: "
field real-estate-interior.sh "$merged" SHADOW=1/60 HIGHLIGHT=1/1000 SESSION="House 'one'" -- Kitchen "Living room"
field dusk-to-night.sh "Series done" EVERY=3s COUNT=2 SHADOW=1/125 HIGHLIGHT=1/1000 SHIFT=1/3
field raspberry-pi.sh "repetition" LAUNCHER=direct EVERY=3s COUNT=2 SHADOW=1/250 HIGHLIGHT=1/1000
exit "$status"
