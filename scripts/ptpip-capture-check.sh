#!/usr/bin/env bash
# Wire conformance: captures two PTP/IP conversations on loopback with tshark and has Wireshark's own
# PTP/IP dissector account for every byte (../shared/tools/ptpip-check/check_pcap.py):
#   1. gphoto2 (an independent client) driving `hdrshoot simulate`: summary, set shutter speed, capture;
#   2. one of our own client tests (the library's PTPIPClient against the simulator, capture + download);
#   3. `hdrshoot camera` (the Sony module's session start and property reads);
#   4. `hdrshoot run` of a one-frame plan (the Sony module's set, read-back, release, wait and download).
# Needs root (or CAP_NET_RAW) for the capture; installs tshark and gphoto2 when missing. Exits non-zero
# on any failure; stops every process it started, by PID.
set -euo pipefail
cd "$(dirname "$0")/.."

checker="../shared/tools/ptpip-check/check_pcap.py"
[ -f "$checker" ] || { echo "capture-check: $checker is missing" >&2; exit 1; }

need=()
command -v tshark >/dev/null 2>&1 || need+=(tshark)
command -v gphoto2 >/dev/null 2>&1 || need+=(gphoto2)
if [ "${#need[@]}" -gt 0 ]; then
    echo "capture-check: installing ${need[*]}"
    apt-get update -qq
    echo "wireshark-common wireshark-common/install-setuid boolean false" | debconf-set-selections
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
fi

swift build --product hdrshoot >/dev/null
swift build --build-tests >/dev/null
hdrshoot="$(swift build --show-bin-path)/hdrshoot"

work="$(mktemp -d)"
pids=()
cleanup() {
    for pid in "${pids[@]}"; do
        if kill -0 "$pid" 2>/dev/null; then
            kill "$pid" 2>/dev/null || true
            wait "$pid" 2>/dev/null || true
        fi
    done
    rm -rf "$work"
}
trap cleanup EXIT

fail() {
    echo "capture-check: FAIL: $*" >&2
    exit 1
}

free_port() {
    python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
}

# Starts tshark on loopback for one port; sets tshark_pid.
start_capture() {
    local port="$1" file="$2"
    tshark -i lo -B 256 -f "tcp port $port" -w "$file" >"$work/tshark.out" 2>&1 &
    tshark_pid=$!
    pids+=("$tshark_pid")
    for _ in $(seq 1 100); do
        if grep -q "Capturing on" "$work/tshark.out"; then sleep 1; return 0; fi
        kill -0 "$tshark_pid" 2>/dev/null || fail "tshark exited: $(cat "$work/tshark.out")"
        sleep 0.1
    done
    fail "tshark did not start: $(cat "$work/tshark.out")"
}

stop_capture() {
    sleep 0.5  # let the last segments reach the capture buffer
    kill -INT "$tshark_pid"
    wait "$tshark_pid" 2>/dev/null || true
}

# Checks a capture; `streams` is how many TCP streams/directions it must hold (2 per connection), so a
# conversation the capture missed fails instead of passing unseen.
check() {
    local file="$1" port="$2" what="$3" streams="$4"
    python3 "$checker" "$file" --port "$port" --list >"$work/list.txt" 2>&1 || { cat "$work/list.txt" >&2; fail "$what"; }
    grep -q "PTP/IP packets in .* frames, $streams TCP streams/directions, 0 problems" "$work/list.txt" \
        || { tail -3 "$work/list.txt" >&2; fail "$what: expected $streams TCP streams/directions"; }
    echo "capture-check: $what: OK ($(grep "PTP/IP packets in" "$work/list.txt" | sed "s/^[^:]*: //"))"
}

# 1. gphoto2 against the simulator (1 MB image: tshark keeps up with that at loopback speed).
port="$(free_port)"
start_capture "$port" "$work/gphoto2.pcapng"
"$hdrshoot" simulate --port "$port" --image-size 1000000 --step-delay 100 --processing-ms 100 >"$work/sim.out" 2>&1 &
sim_pid=$!
pids+=("$sim_pid")
for _ in $(seq 1 100); do grep -q 'listening on' "$work/sim.out" && break; sleep 0.1; done
mkdir -p "$work/home" "$work/download"
gp() { (cd "$work/download" && HOME="$work/home" timeout 60 gphoto2 --port "ptpip:127.0.0.1:$port:$port" "$@" 2>&1); }
gp --summary >/dev/null || fail "gphoto2 --summary"
gp --set-config shutterspeed=1/250 >/dev/null || fail "gphoto2 --set-config"
out="$(gp --capture-image-and-download)"
grep -q "New file is in location" <<<"$out" || fail "gphoto2 capture: $out"
kill -INT "$sim_pid"
wait "$sim_pid" || fail "simulator exit status"
stop_capture
# Three gphoto2 runs, each a command and an event connection.
check "$work/gphoto2.pcapng" "$port" "gphoto2 session" 12

# 2. One of our client tests: PTPIPClient against the simulator, release, download (300 kB).
port="$(free_port)"
start_capture "$port" "$work/client.pcapng"
HDRSHOOT_SIMULATOR_PORT="$port" swift test --skip-build \
    --filter "SimulatorLoopbackTests/releaseFiresAFrameAndTheImageIsDownloadedThenTheBufferEmpties" >"$work/test.out" 2>&1 \
    || { cat "$work/test.out" >&2; fail "client test"; }
grep -q "1 test" "$work/test.out" || { cat "$work/test.out" >&2; fail "the client test did not run"; }
stop_capture
check "$work/client.pcapng" "$port" "PTPIPClient test" 4

# 3. hdrshoot itself (the Sony module): `hdrshoot camera` against the simulator.
port="$(free_port)"
start_capture "$port" "$work/camera.pcapng"
"$hdrshoot" simulate --port "$port" --image-size 300000 >"$work/sim3.out" 2>&1 &
sim_pid=$!
pids+=("$sim_pid")
for _ in $(seq 1 100); do grep -q 'listening on' "$work/sim3.out" && break; sleep 0.1; done
XDG_CONFIG_HOME="$work/config" "$hdrshoot" camera --camera "127.0.0.1:$port" >"$work/camera.out" 2>&1 \
    || { cat "$work/camera.out" >&2; fail "hdrshoot camera"; }
kill -INT "$sim_pid"
wait "$sim_pid" || fail "simulator exit status"
stop_capture
check "$work/camera.pcapng" "$port" "hdrshoot camera" 4

# 4. hdrshoot shooting one frame (set, read back, release, wait, download) against the simulator.
port="$(free_port)"
start_capture "$port" "$work/run.pcapng"
"$hdrshoot" simulate --port "$port" --image-size 300000 >"$work/sim4.out" 2>&1 &
sim_pid=$!
pids+=("$sim_pid")
for _ in $(seq 1 100); do grep -q 'listening on' "$work/sim4.out" && break; sleep 0.1; done
"$hdrshoot" run --shadow 1/250 --highlight 1/250 --camera "127.0.0.1:$port" --confirm --no-network-monitor \
    --state-dir "$work/state" --output "$work/shots" </dev/null >"$work/run.out" 2>&1 \
    || { cat "$work/run.out" >&2; fail "hdrshoot run"; }
grep -q "Complete: 1 of 1 exposures saved" "$work/run.out" || { cat "$work/run.out" >&2; fail "hdrshoot run did not complete"; }
kill -INT "$sim_pid"
wait "$sim_pid" || fail "simulator exit status"
stop_capture
check "$work/run.pcapng" "$port" "hdrshoot run (one capture)" 4
echo "capture-check: all OK"
