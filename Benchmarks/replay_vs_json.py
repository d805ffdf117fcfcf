#!/usr/bin/env python3
"""The command a user runs against Python's json.loads over the same frames, interleaved in one sitting.

Usage: replay_vs_json.py RECORDING BINARY [BINARY...] [--runs N] [--format tsv|json|ndjson|csv] [--idle SECONDS]

Each round runs every binary once as `BINARY live --replay RECORDING --speed max --format FORMAT`
(stdout and stderr to /dev/null; timed from spawn to exit, as a shell would see it), alternating
their order, then json.loads once over every frame of the recording (garbage collector off, as in
timeit). A noisy machine slows both alike, so the ratios are taken within the sitting: median to
median and best to best. Exit: 0, or 2 for a usage error.
"""
import gc
import json
import os
import statistics
import sys
import time


def main(argv):
    args, runs, fmt, idle = [], 21, "tsv", 0.0
    i = 0
    while i < len(argv):
        if argv[i] == "--runs" and i + 1 < len(argv):
            runs = int(argv[i + 1]); i += 2
        elif argv[i] == "--format" and i + 1 < len(argv):
            fmt = argv[i + 1]; i += 2
        elif argv[i] == "--idle" and i + 1 < len(argv):
            idle = float(argv[i + 1]); i += 2
        else:
            args.append(argv[i]); i += 1
    if len(args) < 2 or runs < 1 or idle < 0:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    recording, binaries = args[0], args[1:]
    frames = []
    with open(recording, "rb") as f:
        for line in f:
            line = line.strip()
            at = line.find(b'"frame":')
            if at >= 0 and line.endswith(b"}"):
                frames.append(line[at + 8:-1])
    devnull = os.open(os.devnull, os.O_WRONLY)
    times = {b: [] for b in binaries}
    loads = []
    for r in range(runs):
        for b in (binaries if r % 2 == 0 else binaries[::-1]):
            time.sleep(idle)
            start = time.perf_counter_ns()
            pid = os.posix_spawn(b, [b, "live", "--replay", recording, "--speed", "max", "--format", fmt], os.environ,
                                 file_actions=[(os.POSIX_SPAWN_DUP2, devnull, 1), (os.POSIX_SPAWN_DUP2, devnull, 2)])
            os.waitpid(pid, 0)
            times[b].append((time.perf_counter_ns() - start) / 1e6)
        time.sleep(idle)
        gc.disable()
        start = time.perf_counter_ns()
        for frame in frames:
            json.loads(frame)
        loads.append((time.perf_counter_ns() - start) / 1e6)
        gc.enable()
    median, best = statistics.median(loads), min(loads)
    print(f"json.loads over {len(frames)} frames: median {median:.1f} ms, best {best:.1f} ms ({runs} runs)")
    for b in binaries:
        m, low = statistics.median(times[b]), min(times[b])
        print(f"{b}: median {m:.1f} ms ({median / m:.2f}x json.loads' median), best {low:.1f} ms ({best / low:.2f}x its best)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
