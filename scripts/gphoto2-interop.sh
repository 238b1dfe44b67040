#!/usr/bin/env bash
# gphoto2 as an independent PTP/IP client against `hdrshoot simulate`, on Sony protocol 3.00 and 2.00.
#
# For each protocol: --summary, --get-config shutterspeed, --set-config shutterspeed=1/250 then
# --get-config showing 1/250, and --capture-image-and-download producing a JPEG of the simulated size.
# Installs Debian's gphoto2 when missing. Exits non-zero on the first failure; stops the simulators it
# started (by PID). Usage: scripts/gphoto2-interop.sh [path/to/hdrshoot]
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v gphoto2 >/dev/null 2>&1; then
    echo "interop: installing gphoto2"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq gphoto2 >/dev/null
fi

if [ $# -ge 1 ]; then
    hdrshoot="$1"
else
    swift build --product hdrshoot >/dev/null
    hdrshoot="$(swift build --show-bin-path)/hdrshoot"
fi

work="$(mktemp -d)"
sim_pid=""
cleanup() {
    if [ -n "$sim_pid" ] && kill -0 "$sim_pid" 2>/dev/null; then
        kill "$sim_pid" 2>/dev/null || true
        wait "$sim_pid" 2>/dev/null || true
    fi
    rm -rf "$work"
}
trap cleanup EXIT

fail() {
    echo "interop: FAIL: $*" >&2
    exit 1
}

image_size=1000000

# Starts a simulator with the given options on a free port; sets sim_pid and port.
start_simulator() {
    local out="$work/simulator.out"
    : >"$out"
    "$hdrshoot" simulate --port 0 --image-size "$image_size" --step-delay 100 --processing-ms 100 \
        --capture-log "$work/captures.jsonl" "$@" >"$out" 2>&1 &
    sim_pid=$!
    for _ in $(seq 1 100); do
        if grep -q 'listening on' "$out"; then break; fi
        kill -0 "$sim_pid" 2>/dev/null || fail "simulator exited: $(cat "$out")"
        sleep 0.1
    done
    port="$(sed -n 's/.*listening on 127\.0\.0\.1:\([0-9][0-9]*\).*/\1/p' "$out")"
    [ -n "$port" ] || fail "simulator did not print its port: $(cat "$out")"
}

# Stops the simulator with SIGINT and checks its summary.
stop_simulator() {
    kill -INT "$sim_pid"
    wait "$sim_pid" || fail "simulator exited with status $?"
    sim_pid=""
    grep -q '1 frame(s) fired' "$work/simulator.out" || fail "simulator summary: $(cat "$work/simulator.out")"
}

# gphoto2 with a throwaway HOME (its settings file) against the running simulator.
gp() {
    HOME="$work/home" timeout 60 gphoto2 --port "ptpip:127.0.0.1:$port:$port" "$@" 2>&1
}

expect_output() {
    local what="$1" pattern="$2" output="$3"
    if ! grep -q -- "$pattern" <<<"$output"; then
        echo "$output" >&2
        fail "$what: expected '$pattern'"
    fi
    if grep -q '\*\*\* Error' <<<"$output"; then
        echo "$output" >&2
        fail "$what: gphoto2 reported an error"
    fi
}

for protocol in 3 2; do
    echo "interop: protocol $protocol"
    rm -rf "$work/home" "$work/captures.jsonl" "$work/download"
    mkdir -p "$work/home" "$work/download"
    start_simulator --protocol "$protocol"

    out="$(gp --summary)" || fail "--summary exited non-zero"
    expect_output "--summary" "Manufacturer: Sony Corporation" "$out"
    expect_output "--summary" "Model: ILCE-7M3" "$out"
    expect_output "--summary" "Shutter speed(0xd20d)" "$out"

    out="$(gp --get-config shutterspeed)" || fail "--get-config exited non-zero"
    expect_output "--get-config shutterspeed" "Current: 1/125" "$out"

    out="$(gp --set-config shutterspeed=1/250)" || { echo "$out" >&2; fail "--set-config shutterspeed=1/250 exited non-zero"; }
    grep -q '\*\*\* Error' <<<"$out" && { echo "$out" >&2; fail "--set-config reported an error"; }
    out="$(gp --get-config shutterspeed)" || fail "--get-config exited non-zero"
    expect_output "--get-config after set" "Current: 1/250" "$out"

    # --capture-image exits 0 even when it fails: check its words and the file.
    out="$(cd "$work/download" && gp --capture-image-and-download)" || fail "--capture-image-and-download exited non-zero"
    expect_output "--capture-image-and-download" "New file is in location" "$out"
    file="$(find "$work/download" -maxdepth 1 -type f -name '*.jpg' | head -1)"
    [ -n "$file" ] || fail "no file downloaded"
    size="$(stat -c %s "$file")"
    [ "$size" -eq "$image_size" ] || fail "downloaded $size bytes, expected $image_size"
    [ "$(head -c 2 "$file" | od -An -tx1 | tr -d ' ')" = "ffd8" ] || fail "download is not a JPEG"
    grep -q '"label":"1\\/250"\|"label":"1/250"' "$work/captures.jsonl" || fail "capture log: $(cat "$work/captures.jsonl")"

    stop_simulator
    echo "interop: protocol $protocol OK (summary, get/set shutterspeed 1/250, capture of $size bytes)"
done
echo "interop: all OK"
