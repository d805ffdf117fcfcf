#!/usr/bin/env python3
"""`odds alert` as a user runs it: the whole command over a recording, with and without rules.

The rules are the ones `odds-bench alert` measures (made from the recording's own teams and markets, printed with
--print-rules), kept in a throwaway config's [[alerts]]. Each round runs, interleaved:
  - `odds alert 'stale 1h' --replay REC --speed max --ndjson > /dev/null`: decoding, the store and one rule that
    never fires on a replay (the floor of the command);
  - `odds alert --replay REC --speed max --ndjson > /dev/null` with the N rules.
Reports the best of --repeat for each, their difference per price change, and the CPU the rules add at 1,000 price
changes a second; and the peak RSS of each (from /usr/bin/time -v when it exists).

Usage: Benchmarks/alert_command.py RECORDING [--binary .build/release/odds] [--bench .build/release/odds-bench]
       [--rules 100] [--repeat 3]
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time


def timed(cmd, env):
    """Wall seconds and peak RSS (MB, or None) of one run, its output thrown away."""
    gnu_time = "/usr/bin/time" if os.path.exists("/usr/bin/time") else None
    full = ([gnu_time, "-v"] if gnu_time else []) + cmd
    start = time.perf_counter()
    run = subprocess.run(full, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    elapsed = time.perf_counter() - start
    if run.returncode != 0:
        sys.exit(f"{' '.join(cmd)} exited {run.returncode}: {run.stderr[-500:]}")
    rss = re.search(r"Maximum resident set size \(kbytes\): (\d+)", run.stderr)
    return elapsed, (int(rss.group(1)) / 1024 if rss else None)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("recording")
    ap.add_argument("--binary", default=".build/release/odds")
    ap.add_argument("--bench", default=".build/release/odds-bench")
    ap.add_argument("--rules", type=int, default=100)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    rules = subprocess.run([args.bench, "alert", args.recording, "--rules", str(args.rules), "--print-rules"],
                           check=True, capture_output=True, text=True).stdout.splitlines()
    # Price changes, as odds-bench counts them (its first line), for the per-change figures.
    work = tempfile.mkdtemp(prefix="odds-alert-bench-")
    try:
        os.makedirs(os.path.join(work, "odds"))
        with open(os.path.join(work, "odds", "config.toml"), "w") as f:
            for r in rules:
                f.write("[[alerts]]\nrule = '%s'\n\n" % r.replace("'", ""))
        env = dict(os.environ, XDG_CONFIG_HOME=work, HOME=work)
        base = [args.binary, "alert", "--replay", args.recording, "--speed", "max", "--ndjson"]
        floor, full = [], []
        for _ in range(args.repeat):
            floor.append(timed(base[:2] + ["stale 1h"] + base[2:], env))
            full.append(timed(base, env))
        changes = None
        probe = subprocess.run([args.bench, "alert", args.recording, "--rules", "1", "--passes", "1"],
                               capture_output=True, text=True).stdout
        m = re.search(r"(\d+) price changes", probe)
        if m:
            changes = int(m.group(1))
        best_floor, best_full = min(t for t, _ in floor), min(t for t, _ in full)
        print(f"recording: {args.recording} ({os.path.getsize(args.recording) / 1e6:.1f} MB), {changes} price changes; {len(rules)} rules")
        print(f"odds alert 'stale 1h' --replay (decode, store)   {best_floor:.3f} s  peak RSS {max((r or 0) for _, r in floor):.1f} MB")
        print(f"odds alert --replay with the rules               {best_full:.3f} s  peak RSS {max((r or 0) for _, r in full):.1f} MB")
        if changes:
            per = (best_full - best_floor) / changes * 1e6
            print(f"the rules add {per:.1f} us a price change: {per / 10:.1f} % of a core at 1,000 price changes a second")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
