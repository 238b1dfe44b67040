#!/usr/bin/env bash
# hdrshoot against gphoto2 on the same simulated Sony camera (issue 8).
#
# For every configuration it starts a fresh `hdrshoot simulate` (port 0) per run and times
#   A: `hdrshoot run --confirm` of the 3 x 5 plan (shadow 1/4, highlight 1/1000, 5 frames, 1 EV), images downloaded;
#   B: gphoto2 shooting the same 15 frames in ONE invocation: per frame `--set-config shutterspeed=S`
#      then `--capture-image-and-download`, files into a temporary folder.
# A run counts only when all 15 images arrived (files counted, sizes checked) and the tool exited 0; a run that
# did not complete is reported as FAILED, never timed. Prints one table (medians of the runs).
#
# Usage: Benchmarks/gphoto2-compare.sh [--quick] [--runs N] [--in-process] [--keep]
#   --quick       two configurations (3.00 capped, no added latency, 200 KB; 2.00 capped with 20 ms RTT) and the
#                 legacy Camera Remote API row (20 ms RTT), one run each: a smoke run for CI (about 40 s plus the build)
#   --runs N      runs of A and of B per configuration (default 3; the table shows medians)
#   --in-process  time `hdrshoot-bench bracket` (SonyCamera + BracketRunner in-process) instead of `hdrshoot run`
#   --only REGEX  run only the configurations whose name matches (e.g. --only '2.00')
#   --keep        keep the work folder (logs, op logs, images) and print its path
# Needs: swift (builds release), gphoto2 and GNU time (both installed with apt-get when missing).
set -euo pipefail
cd "$(dirname "$0")/.."

quick=0
runs=3
in_process=0
keep=0
only=""
while [ $# -gt 0 ]; do
    case "$1" in
        --quick) quick=1; runs=1 ;;
        --runs) runs="$2"; shift ;;
        --in-process) in_process=1 ;;
        --only) only="$2"; shift ;;
        --keep) keep=1 ;;
        -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
        *) echo "gphoto2-compare: unknown option $1 (see --help)" >&2; exit 64 ;;
    esac
    shift
done

# MARK: - Tools

missing=()
command -v gphoto2 >/dev/null 2>&1 || missing+=(gphoto2)
[ -x /usr/bin/time ] || missing+=(time)
if [ ${#missing[@]} -gt 0 ]; then
    echo "gphoto2-compare: installing ${missing[*]}" >&2
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
fi

echo "gphoto2-compare: building hdrshoot (release)" >&2
swift build -c release --product hdrshoot >&2
[ "$in_process" = 1 ] && swift build -c release --product hdrshoot-bench >&2
bin="$(swift build -c release --show-bin-path)"
hdrshoot="$bin/hdrshoot"
if [ "$in_process" = 0 ] && ! "$hdrshoot" run --help >/dev/null 2>&1; then
    echo "gphoto2-compare: this hdrshoot has no 'run' command; use --in-process" >&2
    exit 1
fi

work="$(mktemp -d /tmp/gphoto2-compare.XXXXXX)"
sim_pid=""
cleanup() {
    if [ -n "$sim_pid" ] && kill -0 "$sim_pid" 2>/dev/null; then
        kill "$sim_pid" 2>/dev/null || true
        wait "$sim_pid" 2>/dev/null || true
    fi
    if [ "$keep" = 1 ]; then echo "gphoto2-compare: work folder kept: $work" >&2; else rm -rf "$work"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# MARK: - The plan (from hdrshoot itself, so A and B shoot the same speeds)

plan_args=(--shadow 1/4 --highlight 1/1000 --frames 5 --ev 1)
# gphoto2 spells Sony's speeds 1/1000 ... 1/3, 4/10 ... 8/10, 1, 13/10 ... 25/10, 2, 4 ...: labels ending in "
# become whole seconds or tenths.
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
frames=${#speeds[@]}
[ "$frames" -eq 15 ] || { echo "gphoto2-compare: expected a 15-frame plan, got $frames: ${speeds[*]}" >&2; exit 1; }
# Exposure time of every frame in seconds (for the "real exposure" sum).
labels_to_seconds() { python3 -c '
import sys
from fractions import Fraction
total = Fraction(0)
for label in sys.argv[1:]:
    total += Fraction(label)
print(float(total))' "$@"; }
echo "gphoto2-compare: plan ${speeds[*]} (exposure sum $(labels_to_seconds "${speeds[@]}") s)" >&2

# MARK: - Simulator

# Starts a fresh simulator with the configuration's options; sets sim_pid and port.
start_simulator() {
    local dir="$1"; shift
    "$hdrshoot" simulate --port 0 --capture-log "$dir/captures.jsonl" --op-log "$dir/ops.jsonl" "$@" \
        >"$dir/simulator.out" 2>&1 &
    sim_pid=$!
    for _ in $(seq 1 200); do
        grep -qs 'listening on' "$dir/simulator.out" && break
        kill -0 "$sim_pid" 2>/dev/null || { echo "simulator exited: $(cat "$dir/simulator.out")" >&2; return 1; }
        sleep 0.05
    done
    port="$(sed -n 's/.*listening on 127\.0\.0\.1:\([0-9][0-9]*\).*/\1/p' "$dir/simulator.out")"
    [ -n "$port" ] || { echo "simulator printed no port: $(cat "$dir/simulator.out")" >&2; return 1; }
}

stop_simulator() {
    if [ -n "$sim_pid" ]; then
        kill -INT "$sim_pid" 2>/dev/null || true
        wait "$sim_pid" 2>/dev/null || true
        sim_pid=""
    fi
}

# MARK: - One run

now() { date +%s.%N; }

# Runs A or B once in $dir; writes $dir/result: "ok WALL RSS_KB" or "failed REASON".
run_once() {
    local tool="$1" dir="$2" image_size="$3"; shift 3
    mkdir -p "$dir/images" "$dir/home"
    start_simulator "$dir" "$@" || { echo "failed simulator" >"$dir/result"; return; }
    local status=0 start end
    start="$(now)"
    if [ "$tool" = A ]; then
        if [ "$in_process" = 1 ]; then
            /usr/bin/time -f %M -o "$dir/rss" timeout 600 "$bin/hdrshoot-bench" bracket --port "$port" --out "$dir/images" \
                >"$dir/tool.out" 2>&1 || status=$?
        else
            HOME="$dir/home" /usr/bin/time -f %M -o "$dir/rss" timeout 600 "$hdrshoot" run --confirm \
                --camera "127.0.0.1:$port" --output "$dir/images" --state-dir "$dir/state" "${plan_args[@]}" \
                >"$dir/tool.out" 2>&1 </dev/null || status=$?
        fi
    else
        local gp_args=()
        for speed in "${speeds[@]}"; do
            gp_args+=(--set-config "shutterspeed=$speed" --capture-image-and-download)
        done
        HOME="$dir/home" /usr/bin/time -f %M -o "$dir/rss" timeout 600 gphoto2 --port "ptpip:127.0.0.1:$port:$port" \
            --filename "$dir/images/%f.%C" "${gp_args[@]}" >"$dir/tool.out" 2>&1 || status=$?
    fi
    end="$(now)"
    stop_simulator
    local files sizes_ok
    files="$(find "$dir/images" -type f -iname '*.jpg' | wc -l)"
    sizes_ok="$(find "$dir/images" -type f -iname '*.jpg' ! -size "${image_size}c" | wc -l)"
    if [ "$status" -ne 0 ]; then
        echo "failed exit-$status" >"$dir/result"
    elif grep -q '\*\*\* Error' "$dir/tool.out"; then
        echo "failed gphoto2-error" >"$dir/result"
    elif [ "$files" -ne "$frames" ]; then
        echo "failed $files-of-$frames-files" >"$dir/result"
    elif [ "$sizes_ok" -ne 0 ]; then
        echo "failed $sizes_ok-files-of-wrong-size" >"$dir/result"
    else
        echo "ok $(python3 -c "print($end - $start)") $(tail -1 "$dir/rss")" >"$dir/result"
    fi
    rm -rf "$dir/images"
}

# MARK: - Configurations: name | simulator options | image size

# Both tools wait for the same camera: 10 ms image processing, 20 ms until a 2.00 notch step applies.
# "capped" holds every exposure at most 10 ms (protocol cost dominates); "real" holds the real exposure
# times (8.27 s in all); "slow-body" adds the simulator's default timing (300 ms processing, 200 ms notch delay).
camera_timing=(--processing-ms 10 --step-delay 20)
capped=(--exposure-cap 0.01 "${camera_timing[@]}")
configurations=(
    "3.00 capped 0ms 200KB|--protocol 3 ${capped[*]}|200000"
    "3.00 capped 20ms 200KB|--protocol 3 --rtt 20 ${capped[*]}|200000"
    "3.00 capped 0ms 25MB|--protocol 3 ${capped[*]}|25000000"
    "3.00 capped 20ms 25MB|--protocol 3 --rtt 20 ${capped[*]}|25000000"
    "2.00 capped 0ms 200KB|--protocol 2 ${capped[*]}|200000"
    "2.00 capped 20ms 200KB|--protocol 2 --rtt 20 ${capped[*]}|200000"
    "2.00 capped 0ms 25MB|--protocol 2 ${capped[*]}|25000000"
    "2.00 capped 20ms 25MB|--protocol 2 --rtt 20 ${capped[*]}|25000000"
    "3.00 real 0ms 200KB|--protocol 3 ${camera_timing[*]}|200000"
    "2.00 real 20ms 200KB|--protocol 2 --rtt 20 ${camera_timing[*]}|200000"
    "3.00 real 0ms 200KB slow-body|--protocol 3|200000"
)
if [ "$quick" = 1 ]; then
    configurations=("${configurations[0]}" "${configurations[5]}")
fi

# Wall time minus the exposures the simulator held for this run (its capture log): time spent on anything else.
beyond_exposure() { python3 -c '
import json, sys
held = sum(json.loads(line)["exposureSeconds"] for line in open(sys.argv[1] + "/captures.jsonl") if line.strip())
print(float(sys.argv[2]) - held)' "$1" "$2"; }

median() { python3 -c 'import statistics, sys; print(statistics.median(float(x) for x in sys.argv[1:]))' "$@"; }

table="$work/table.tsv"
printf 'configuration\tA hdrshoot s\tB gphoto2 s\tA/B\tA/B beyond exposure\toverhead/frame ms\tsteady ms\tops/frame\tdownload MB/s\tpeak RSS MB\n' >"$table"
index=0
for entry in "${configurations[@]}"; do
    IFS='|' read -r name options image_size <<<"$entry"
    [ -n "$only" ] && ! grep -Eq -- "$only" <<<"$name" && continue
    index=$((index + 1))
    # shellcheck disable=SC2206
    sim_options=($options --image-size "$image_size")
    a_walls=(); b_walls=(); a_beyond=(); b_beyond=(); a_rss=(); a_overheads=(); a_steady=(); a_ops=(); a_mbps=(); a_fail=""; b_fail=""
    for run in $(seq 1 "$runs"); do
        for tool in A B; do
            dir="$work/c$index/$tool$run"
            mkdir -p "$dir"
            echo "gphoto2-compare: [$name] $tool run $run" >&2
            run_once "$tool" "$dir" "$image_size" "${sim_options[@]}"
            read -r verdict wall rss <"$dir/result"
            if [ "$verdict" != ok ]; then
                echo "gphoto2-compare: [$name] $tool run $run FAILED ($wall); see $dir/tool.out" >&2
                [ "$keep" = 1 ] || tail -5 "$dir/tool.out" >&2
                if [ "$tool" = A ]; then a_fail="FAILED($wall)"; else b_fail="FAILED($wall)"; fi
                continue
            fi
            if [ "$tool" = A ]; then
                a_walls+=("$wall"); a_rss+=("$rss"); a_beyond+=("$(beyond_exposure "$dir" "$wall")")
                read -r overhead steady ops mbps < <(python3 Benchmarks/op-log-figures.py "$dir" "$wall" "$frames")
                a_overheads+=("$overhead"); a_steady+=("$steady"); a_ops+=("$ops"); a_mbps+=("$mbps")
            else
                b_walls+=("$wall"); b_beyond+=("$(beyond_exposure "$dir" "$wall")")
            fi
        done
    done
    a="${a_fail:-$(median "${a_walls[@]}")}"
    b="${b_fail:-$(median "${b_walls[@]}")}"
    if [ -z "$a_fail" ] && [ -z "$b_fail" ]; then
        ratio="$(python3 -c "print(f'{$a / $b:.2f}')")"
        beyond="$(python3 -c "print(f'{$(median "${a_beyond[@]}") / $(median "${b_beyond[@]}"):.2f}')")"
    else
        ratio="-"; beyond="-"
    fi
    if [ -z "$a_fail" ]; then
        row="$(printf '%.2f\t%s\t%s\t%s\t%.0f\t%.0f\t%.1f\t%.0f\t%.1f' "$a" "$(printf '%.2f' "$b" 2>/dev/null || echo "$b")" "$ratio" "$beyond" \
            "$(median "${a_overheads[@]}")" "$(median "${a_steady[@]}")" "$(median "${a_ops[@]}")" "$(median "${a_mbps[@]}")" \
            "$(python3 -c "print(max(int(x) for x in '${a_rss[*]}'.split()) / 1024)")")"
    else
        row="$(printf '%s\t%s\t-\t-\t-\t-\t-\t-\t-' "$a" "$b")"
    fi
    printf '%s\t%s\n' "$name" "$row" >>"$table"
    [ "$keep" = 1 ] || rm -rf "$work/c$index"
done

# MARK: - The legacy row: hdrshoot on the Camera Remote API (gphoto2 cannot drive it, so A only)

# The simulated legacy body (`simulate --api`) with 20 ms added before every HTTP answer, exposures capped at 10 ms,
# 10 ms StillSaving and sets applying 20 ms late; hdrshoot sets, confirms, fires and downloads each postview
# (200 KB) before the next frame. Overhead per frame = (wall - exposures held) / 15, from its capture log.
legacy_name="legacy API capped 20ms 200KB"
if [ -z "$only" ] || grep -Eq -- "$only" <<<"$legacy_name"; then
    legacy_walls=(); legacy_overheads=(); legacy_rss=(); legacy_fail=""
    for run in $(seq 1 "$runs"); do
        dir="$work/legacy/A$run"
        mkdir -p "$dir/images" "$dir/home"
        echo "gphoto2-compare: [$legacy_name] A run $run" >&2
        "$hdrshoot" simulate --api --port 0 --rtt 20 --exposure-cap 0.01 --processing-ms 10 --quirk set-delay:20 \
            --image-size 200000 --capture-log "$dir/captures.jsonl" >"$dir/simulator.out" 2>&1 &
        sim_pid=$!
        for _ in $(seq 1 200); do
            grep -qs 'listening on' "$dir/simulator.out" && break
            sleep 0.05
        done
        url="$(sed -n 's/.*listening on \(http:\/\/127\.0\.0\.1:[0-9][0-9]*\).*/\1/p' "$dir/simulator.out")"
        status=0
        start="$(now)"
        if [ -n "$url" ]; then
            HOME="$dir/home" /usr/bin/time -f %M -o "$dir/rss" timeout 600 "$hdrshoot" run --confirm --camera "$url" \
                --output "$dir/images" --state-dir "$dir/state" "${plan_args[@]}" >"$dir/tool.out" 2>&1 </dev/null \
                || status=$?
        else
            status=99
        fi
        end="$(now)"
        stop_simulator
        files="$(find "$dir/images" -type f -iname '*.jpg' | wc -l)"
        if [ "$status" -ne 0 ] || [ "$files" -ne "$frames" ]; then
            legacy_fail="FAILED(exit-$status,$files-of-$frames-files)"
            [ "$keep" = 1 ] || tail -5 "$dir/tool.out" >&2
            continue
        fi
        wall="$(python3 -c "print($end - $start)")"
        legacy_walls+=("$wall")
        legacy_overheads+=("$(python3 -c "print(1000 * $(beyond_exposure "$dir" "$wall") / $frames)")")
        legacy_rss+=("$(tail -1 "$dir/rss")")
    done
    if [ -z "$legacy_fail" ]; then
        printf '%s\t%.2f\t-\t-\t-\t%.0f\t-\t-\t-\t%.1f\n' "$legacy_name" "$(median "${legacy_walls[@]}")" \
            "$(median "${legacy_overheads[@]}")" \
            "$(python3 -c "print(max(int(x) for x in '${legacy_rss[*]}'.split()) / 1024)")" >>"$table"
    else
        printf '%s\t%s\t-\t-\t-\t-\t-\t-\t-\t-\n' "$legacy_name" "$legacy_fail" >>"$table"
    fi
    [ "$keep" = 1 ] || rm -rf "$work/legacy"
fi

a_label="hdrshoot run --confirm"
[ "$in_process" = 1 ] && a_label="hdrshoot-bench bracket (in-process)"
echo
echo "hdrshoot vs gphoto2 $(gphoto2 --version | head -1 | awk '{print $2}'), plan ${speeds[*]}; $runs run(s) each, medians"
echo "A = $a_label; B = gphoto2, one invocation. Simulator: --processing-ms 10 --step-delay 20, capped adds"
echo "--exposure-cap 0.01, real = real exposure times; slow-body = simulator defaults (300 ms processing, 200 ms notch delay)."
echo "A/B beyond exposure = (A wall - exposures A's camera held) / (B wall - exposures B's camera held): the time each tool"
echo "adds to the exposures themselves; overhead/frame = (A wall - exposure held) / 15; steady = median time from one release (S1 down) to the next minus"
echo "the exposure held (no start-up); ops/frame = all PTP operations of A (start-up and close included) / 15;"
echo "download MB/s = image bytes / time from each GetObject request to the next request (A); RSS = A's peak."
echo "legacy API = hdrshoot on the simulated Camera Remote API body (simulate --api --rtt 20, exposures capped at 10 ms,"
echo "10 ms saving, sets applying 20 ms late, 200 KB postviews); gphoto2 cannot drive that API, so only A is timed."
column -t -s $'\t' "$table"
# A configuration whose shoot did not complete is a failure of the benchmark run, not a figure.
if grep -q FAILED "$table"; then
    echo "gphoto2-compare: at least one run did not complete (see FAILED above)" >&2
    exit 1
fi
