#!/usr/bin/env bash
# libsonyapi (PyPI libsonyapi==1.0, a Python client of Sony's legacy Camera Remote API) as an independent
# client of legacy-simulator, on 127.0.0.1 only.
#
# Makes a Python 3 virtualenv (in .build/remote-api-venv, kept between runs), pip-installs libsonyapi==1.0
# (which brings requests), starts legacy-simulator on a free port, and runs scripts/remote-api-interop.py:
# libsonyapi's connect() reads the device description, then the API list, startRecMode, a shutter speed,
# actTakePicture and the postview download. libsonyapi's own discovery (SSDP multicast) is never called.
# Exits non-zero on the first failure; stops the simulator it started (by PID).
# Usage: scripts/remote-api-interop.sh [path/to/legacy-simulator]
set -euo pipefail
cd "$(dirname "$0")/.."

if ! python3 -c "import venv, ensurepip" >/dev/null 2>&1; then
    echo "interop: installing python3-venv"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-venv >/dev/null
fi

venv=.build/remote-api-venv
if ! "$venv/bin/python" -c "import libsonyapi, requests" >/dev/null 2>&1; then
    rm -rf "$venv"
    python3 -m venv "$venv"
    "$venv/bin/pip" install -q "libsonyapi==1.0"
fi

if [ $# -ge 1 ]; then
    simulator="$1"
else
    swift build --product legacy-simulator >/dev/null
    simulator="$(swift build --show-bin-path)/legacy-simulator"
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

"$simulator" --port 0 >"$work/simulator.out" 2>&1 &
sim_pid=$!
for _ in $(seq 1 100); do
    if grep -q 'listening on' "$work/simulator.out"; then break; fi
    kill -0 "$sim_pid" 2>/dev/null || { echo "interop: FAIL: simulator exited: $(cat "$work/simulator.out")" >&2; exit 1; }
    sleep 0.1
done
url="$(sed -n 's/^listening on \(http:\/\/127\.0\.0\.1:[0-9]*\/dd\.xml\)$/\1/p' "$work/simulator.out")"
[ -n "$url" ] || { echo "interop: FAIL: simulator did not print its URL: $(cat "$work/simulator.out")" >&2; exit 1; }

# Loopback only: no proxy may sit between libsonyapi and the simulator.
NO_PROXY=127.0.0.1 no_proxy=127.0.0.1 "$venv/bin/python" scripts/remote-api-interop.py "$url"
echo "interop: libsonyapi against legacy-simulator passed"
