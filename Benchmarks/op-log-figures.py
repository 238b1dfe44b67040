#!/usr/bin/env python3
"""Figures of one benchmark run from the simulator's logs (used by gphoto2-compare.sh).

Usage: op-log-figures.py RUN_DIR WALL_SECONDS FRAMES IMAGE_BYTES
Reads RUN_DIR/captures.jsonl (one line per fired frame, with the exposure actually held) and
RUN_DIR/ops.jsonl (one line per PTP operation served) and prints three numbers:
  overhead per frame in ms: (wall time - sum of exposures held) / frames
  PTP operations per frame: every operation of the run (session start-up and close included) / frames
  download throughput in MB/s: image bytes / time from each GetObject request to the next request
"""
import json
import sys


def main() -> None:
    run_dir, wall, frames, image_bytes = sys.argv[1], float(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
    with open(f"{run_dir}/captures.jsonl") as file:
        held = sum(json.loads(line)["exposureSeconds"] for line in file if line.strip())
    with open(f"{run_dir}/ops.jsonl") as file:
        ops = [json.loads(line) for line in file if line.strip()]
    ops.sort(key=lambda op: op["index"])
    transfer_time = 0.0
    transferred = 0
    for current, following in zip(ops, ops[1:]):
        if current["name"] in ("GetObject", "GetPartialObject") and current["dataInBytes"] > 0:
            transfer_time += following["time"] - current["time"]
            transferred += current["dataInBytes"]
    throughput = transferred / transfer_time / 1e6 if transfer_time > 0 else 0.0
    if transferred == 0:
        throughput = 0.0
    print(f"{(wall - held) / frames * 1000:.1f} {len(ops) / frames:.2f} {throughput:.1f}")
    del image_bytes


if __name__ == "__main__":
    main()
