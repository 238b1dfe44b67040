#!/usr/bin/env bash
# Time at the tripod (issue 20): how long the camera must stay untouched, and how long until every file is saved,
# for hdrshoot and for gphoto2 on the same simulated body over a slow link.
#
# The body: `hdrshoot simulate --image-size 25000000 --bandwidth 1300000 --rtt 20` (a 25 MB image per frame over
# 1.3 MB/s of camera Wi-Fi, 20 ms round trips), the README's 3 x 5 plan (1/4 .. 1/1000, 15 frames, 8.3 s of
# exposures). Per tool it prints, from the simulator's capture log (when each release fired) and the tool's exit:
#   first->last release   the camera must not move in this time (goal: <= 1.1 x exposures + 0.25 s a frame)
#   enter->last release   from starting the tool to the last release
#   all saved             from the first release until every file is on disk and the tool exits
#                         (goal: <= 1.1 x bytes / throughput)
# Tools: A hdrshoot run --confirm; B gphoto2 --capture-image-and-download per frame; C gphoto2 --trigger-capture
# per frame, then --wait-event-and-download. A run that did not deliver 15 files is reported as FAILED.
#
# Usage: Benchmarks/tripod-time.sh [--image-size BYTES] [--bandwidth BYTES_PER_S] [--only A|B|C] [--keep]
# Takes about 5 minutes per tool at the defaults. Needs: swift (release build), gphoto2 (apt-get when missing).
set -euo pipefail
cd "$(dirname "$0")/.."

image_size=25000000
bandwidth=1300000
only=""
keep=0
while [ $# -gt 0 ]; do
    case "$1" in
        --image-size) image_size="$2"; shift ;;
        --bandwidth) bandwidth="$2"; shift ;;
        --only) only="$2"; shift ;;
        --keep) keep=1 ;;
        -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
        *) echo "tripod-time: unknown option $1 (see --help)" >&2; exit 64 ;;
    esac
    shift
done

if ! command -v gphoto2 >/dev/null 2>&1; then
    echo "tripod-time: installing gphoto2" >&2
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq gphoto2 >/dev/null
fi
echo "tripod-time: building hdrshoot (release)" >&2
swift build -c release --product hdrshoot >&2
hdrshoot="$(swift build -c release --show-bin-path)/hdrshoot"

work="$(mktemp -d /tmp/tripod-time.XXXXXX)"
sim_pid=""
cleanup() {
    if [ -n "$sim_pid" ] && kill -0 "$sim_pid" 2>/dev/null; then
        kill "$sim_pid" 2>/dev/null || true
        wait "$sim_pid" 2>/dev/null || true
    fi
    if [ "$keep" = 1 ]; then echo "tripod-time: work folder kept: $work" >&2; else rm -rf "$work"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

plan_args=(--shadow 1/4 --highlight 1/1000 --frames 5 --ev 1)
mapfile -t speeds < <("$hdrshoot" plan "${plan_args[@]}" --json | python3 -c '
import json, sys
for s in json.load(sys.stdin)["sets"]:
    for f in s:
        label = f["label"]
        if label.endswith("\""):
            tenths = round(f["numerator"] * 10 / f["denominator"])
            label = str(tenths // 10) if tenths % 10 == 0 else f"{tenths}/10"
        print(label)
')
exposures="$(python3 -c '
import sys
from fractions import Fraction
print(float(sum(Fraction(s) for s in sys.argv[1:])))' "${speeds[@]}")"
frames=${#speeds[@]}
now() { date +%s.%N; }

start_simulator() {
    local dir="$1"
    "$hdrshoot" simulate --port 0 --image-size "$image_size" --bandwidth "$bandwidth" --rtt 20 \
        --capture-log "$dir/captures.jsonl" >"$dir/simulator.out" 2>&1 &
    sim_pid=$!
    for _ in $(seq 1 200); do
        grep -qs 'listening on' "$dir/simulator.out" && break
        sleep 0.05
    done
    port="$(sed -n 's/.*listening on 127\.0\.0\.1:\([0-9][0-9]*\).*/\1/p' "$dir/simulator.out")"
    [ -n "$port" ] || { echo "tripod-time: simulator printed no port" >&2; exit 1; }
}

stop_simulator() {
    kill -INT "$sim_pid" 2>/dev/null || true
    wait "$sim_pid" 2>/dev/null || true
    sim_pid=""
}

# Runs tool $1 in $work/$1; prints one table row.
run_tool() {
    local tool="$1" dir="$work/$1"
    mkdir -p "$dir/images" "$dir/home"
    local sim_start enter end status=0
    sim_start="$(now)"
    start_simulator "$dir"
    enter="$(now)"
    case "$tool" in
        A)
            HOME="$dir/home" timeout 1200 "$hdrshoot" run "${plan_args[@]}" --camera "127.0.0.1:$port" --confirm \
                --no-network-monitor --output "$dir/images/shoot" >"$dir/tool.out" 2>&1 || status=$?
            ;;
        B)
            local args=()
            for s in "${speeds[@]}"; do args+=(--set-config "shutterspeed=$s" --capture-image-and-download); done
            (cd "$dir/images" && HOME="$dir/home" timeout 1200 gphoto2 --port "ptpip:127.0.0.1:$port:$port" "${args[@]}" \
                >"$dir/tool.out" 2>&1) || status=$?
            ;;
        C)
            local args=()
            for s in "${speeds[@]}"; do args+=(--set-config "shutterspeed=$s" --trigger-capture); done
            (cd "$dir/images" && HOME="$dir/home" timeout 1200 gphoto2 --port "ptpip:127.0.0.1:$port:$port" "${args[@]}" \
                "--wait-event-and-download=${frames}f" >"$dir/tool.out" 2>&1) || status=$?
            ;;
    esac
    end="$(now)"
    stop_simulator
    local files
    files="$(find "$dir/images" -type f \( -iname '*.jpg' -o -iname '*.arw' \) -size +1k | wc -l)"
    python3 - "$tool" "$dir/captures.jsonl" "$sim_start" "$enter" "$end" "$files" "$frames" "$status" \
        "$exposures" "$image_size" "$bandwidth" <<'PY'
import json, sys
tool, log, sim_start, enter, end, files, frames, status, exposures, size, bandwidth = sys.argv[1:]
sim_start, enter, end, exposures = float(sim_start), float(enter), float(end), float(exposures)
frames, files, status, size, bandwidth = int(frames), int(files), int(status), int(size), int(bandwidth)
names = {"A": "hdrshoot run", "B": "gphoto2 capture+download", "C": "gphoto2 trigger, then download"}
releases = [json.loads(line)["time"] for line in open(log)] if files or True else []
if status != 0 or files < frames or len(releases) < frames:
    print(f"{names[tool]:32} FAILED (exit {status}, {files} files, {len(releases)} releases)")
    sys.exit(0)
first, last = min(releases), max(releases)
tripod = last - first
enter_to_last = sim_start + last - enter
saved = end - (sim_start + first)
goal_tripod = 1.1 * exposures + 0.25 * frames
goal_saved = 1.1 * frames * size / bandwidth
print(f"{names[tool]:32} {tripod:8.1f} s {enter_to_last:8.1f} s {saved:8.1f} s   "
      f"(goals: tripod <= {goal_tripod:.1f} s, saved <= {goal_saved:.1f} s; {len(releases)} releases)")
PY
}

echo "tripod-time: ${frames} frames x ${image_size} B at ${bandwidth} B/s, 20 ms RTT; exposures ${exposures} s"
printf '%-32s %10s %10s %10s\n' "tool" "1st->last" "enter->last" "all saved"
for tool in A B C; do
    if [ -n "$only" ] && [ "$tool" != "$only" ]; then continue; fi
    run_tool "$tool"
done
