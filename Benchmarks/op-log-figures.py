#!/usr/bin/env python3
"""Figures of one benchmark run from the simulator's logs (used by gphoto2-compare.sh).

Usage: op-log-figures.py RUN_DIR WALL_SECONDS FRAMES
Reads RUN_DIR/captures.jsonl (one line per fired frame, with the exposure actually held) and
RUN_DIR/ops.jsonl (one line per PTP operation served) and prints four numbers:
  overhead per frame in ms: (wall time - sum of exposures held) / frames
  steady overhead per frame in ms: median over consecutive frames of the time from one release (S1 down,
    0x9207 0xD2C1) to the next, minus the exposure held of the first (no session start-up or close)
  PTP operations per frame: every operation of the run (session start-up and close included) / frames
  download throughput in MB/s: image bytes / time from each GetObject request to the next request
"""
import json
import statistics
import sys


def main() -> None:
    run_dir, wall, frames = sys.argv[1], float(sys.argv[2]), int(sys.argv[3])
    with open(f"{run_dir}/captures.jsonl") as file:
        captures = sorted((json.loads(line) for line in file if line.strip()), key=lambda record: record["frame"])
    held = sum(record["exposureSeconds"] for record in captures)
    with open(f"{run_dir}/ops.jsonl") as file:
        ops = [json.loads(line) for line in file if line.strip()]
    ops.sort(key=lambda op: op["index"])
    # S1 (0xD2C1 = 53953) goes down and up once per frame: every other S1 operation is a release.
    releases = [op["time"] for op in ops if op["name"] == "SDIO_ControlDevice" and op["parameters"][:1] == [53953]][::2]
    gaps = [later - earlier - record["exposureSeconds"]
            for earlier, later, record in zip(releases, releases[1:], captures)]
    steady = statistics.median(gaps) * 1000 if gaps else 0.0
    transfer_time = 0.0
    transferred = 0
    for current, following in zip(ops, ops[1:]):
        if current["name"] in ("GetObject", "GetPartialObject") and current["dataInBytes"] > 0:
            transfer_time += following["time"] - current["time"]
            transferred += current["dataInBytes"]
    throughput = transferred / transfer_time / 1e6 if transfer_time > 0 else 0.0
    if transferred == 0:
        throughput = 0.0
    print(f"{(wall - held) / frames * 1000:.1f} {steady:.1f} {len(ops) / frames:.2f} {throughput:.1f}")


if __name__ == "__main__":
    main()
