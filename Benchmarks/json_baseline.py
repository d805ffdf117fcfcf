#!/usr/bin/env python3
"""JSON parse-throughput baseline for an `odds record` recording.

Usage: json_baseline.py RECORDING [--repeat N] [--json] [--include-rest]

Every recording line is {"t":<unix ms>,"feed":"<provider>/<connection>"[,"demo":true],"frame":<frame>}
(or "text":"..." instead of "frame" for a frame that was not JSON). The recorder writes "frame" as the
last key, so the frame's bytes are everything after the first `,"frame":` up to the line's final `}`:
they are taken from the line as they are, never re-serialised. Outside the timed part every line is
parsed once with json.loads and the extracted bytes are checked to parse to the same value as the
line's "frame" member.

Skipped: lines with "text" instead of "frame", REST bodies (feed ending in "/rest", unless
--include-rest), empty lines, and lines that are not JSON (e.g. a line cut short by kill -9); the
counts go to stderr.

Timed (time.perf_counter, best of --repeat runs, garbage collector off as in timeit): json.loads
on every frame as bytes, and orjson.loads too when orjson is importable. MB = 10^6 bytes of frames.
"""

import argparse
import gc
import json
import sys
import time

FRAME_KEY = b',"frame":'


def fail(message, code=2):
    print("json_baseline.py: " + message, file=sys.stderr)
    sys.exit(code)


def load_frames(path, include_rest):
    """Returns (frames, skipped) where frames is a list of bytes and skipped a dict of counts."""
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        fail("cannot read %s: %s" % (path, e.strerror or e))
    frames = []
    skipped = {"text": 0, "rest": 0, "empty": 0, "not_json": 0}
    pieces = data.split(b"\n")
    if pieces and pieces[-1] == b"":
        pieces.pop()  # the file's final newline ends the last line; it does not start an empty one
    for number, raw in enumerate(pieces, start=1):
        line = raw.rstrip(b" \t\r")
        if not line.strip():
            skipped["empty"] += 1
            continue
        try:
            record = json.loads(line)
        except ValueError:
            skipped["not_json"] += 1
            continue
        if not isinstance(record, dict):
            fail("line %d is not a recording line (not a JSON object)" % number)
        if "frame" not in record:
            if "text" in record:
                skipped["text"] += 1
                continue
            fail('line %d has neither "frame" nor "text"' % number)
        feed = record.get("feed")
        if isinstance(feed, str) and feed.endswith("/rest") and not include_rest:
            skipped["rest"] += 1
            continue
        # `,"frame":` cannot occur inside a JSON string (a quote there is escaped), so its first
        # occurrence is the key itself; and "t" always precedes it, so it is never at offset 0.
        start = line.find(FRAME_KEY)
        if start < 0 or not line.endswith(b"}"):
            fail('line %d: no `,"frame":` key, or the line does not end with "}"' % number)
        frame = line[start + len(FRAME_KEY):-1]
        try:
            same = json.loads(frame) == record["frame"]
        except ValueError:
            same = False
        if not same:
            fail('line %d: the bytes after `,"frame":` are not the frame ("frame" is not the last key?)' % number)
        frames.append(bytes(frame))
    return frames, skipped


def best_time(loads, frames, repeat):
    best = float("inf")
    gc_was_enabled = gc.isenabled()
    try:
        for _ in range(repeat):
            gc.collect()
            gc.disable()
            start = time.perf_counter()
            for frame in frames:
                loads(frame)
            elapsed = time.perf_counter() - start
            if gc_was_enabled:
                gc.enable()
            best = min(best, elapsed)
    finally:
        if gc_was_enabled:
            gc.enable()
    return best


def main():
    parser = argparse.ArgumentParser(
        description="Parse throughput of json.loads (and orjson, if installed) on the frames of an odds recording.")
    parser.add_argument("recording", help="NDJSON recording written by `odds record`")
    parser.add_argument("--repeat", type=int, default=5, help="timed runs; the best is reported (default: 5)")
    parser.add_argument("--json", action="store_true", help="print one JSON object instead of a table")
    parser.add_argument("--include-rest", action="store_true", help='also time REST bodies (feeds ending in "/rest")')
    args = parser.parse_args()
    if args.repeat < 1:
        fail("--repeat must be at least 1")

    frames, skipped = load_frames(args.recording, args.include_rest)
    notes = ["%d %s" % (n, what.replace("_", " ")) for what, n in skipped.items() if n]
    if notes:
        print("json_baseline.py: skipped lines: " + ", ".join(notes), file=sys.stderr)
    if not frames:
        fail("no frames to parse in %s" % args.recording, 1)
    total = sum(len(f) for f in frames)

    parsers = [("json.loads", json.loads)]
    try:
        import orjson
        parsers.append(("orjson", orjson.loads))
    except ImportError:
        if not args.json:
            print("json_baseline.py: orjson is not installed; timing json.loads only", file=sys.stderr)

    results = {}
    for name, loads in parsers:
        seconds = best_time(loads, frames, args.repeat)
        results[name] = {
            "seconds": seconds,
            "mb_per_s": total / seconds / 1e6 if seconds > 0 else None,
            "msgs_per_s": len(frames) / seconds if seconds > 0 else None,
        }

    if args.json:
        print(json.dumps({"frames": len(frames), "bytes": total, "parsers": results}))
        return
    print("recording: %s" % args.recording)
    print("frames:    %d (%d bytes, %.1f bytes/frame); best of %d runs"
          % (len(frames), total, total / len(frames), args.repeat))
    print()
    print("%-12s %12s %12s %14s" % ("parser", "seconds", "MB/s", "msgs/s"))
    for name, r in results.items():
        print("%-12s %12.6f %12.1f %14.0f" % (name, r["seconds"], r["mb_per_s"] or 0, r["msgs_per_s"] or 0))


if __name__ == "__main__":
    main()
