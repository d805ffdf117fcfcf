#!/usr/bin/env python3
"""Writing a history: the whole command against two programs inserting the same rows.

1. The whole commands, into a new SQLite file each (best of --repeat): `odds history collect --replay REC --speed max
   --history DB` (what fills a history, printing nothing) and `odds stream --replay REC --speed max --history DB
   > /dev/null`; beside them `odds live --replay REC --speed max --json` (the decoding alone) and the stream
   without --history.
2. The rows that command wrote to price_change, read back, inserted into a new file with the same schema in one
   transaction: by Python's sqlite3.executemany, and by a small C program with one prepared statement (bind,
   step, reset) -- the floor. Both time the insert alone (rows already in memory).
3. Bytes per price change on disk, and the rows of each table.

Usage: Benchmarks/history_write.py [--recording FIRE] [--frames 95000] [--binary .build/release/odds] [--repeat 3]
Without --recording, a TickOdds firehose recording is made first (odds sim --scenario firehose; odds record).
"""
import argparse
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time

C_FLOOR = r"""
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
/* Reads rows (selection_id, received_at, provider_at|"", price_text|"", num|"", den|"", suspended) as TSV into memory,
   then inserts them with one prepared statement in one transaction; prints the insert's seconds. */
typedef struct { long long sel, at, num, den; int has_num, susp; char text[32]; } Row;
static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + t.tv_nsec / 1e9; }
int main(int argc, char **argv) {
    FILE *f = fopen(argv[2], "r");
    size_t cap = 1 << 20, n = 0;
    Row *rows = malloc(cap * sizeof(Row));
    char line[256];
    while (fgets(line, sizeof line, f)) {
        if (n == cap) { cap *= 2; rows = realloc(rows, cap * sizeof(Row)); }
        Row *r = &rows[n++];
        char *fields[7]; int i = 0; char *p = line;
        for (; i < 7; i++) { fields[i] = p; p = strchr(p, '\t'); if (!p) { i++; break; } *p++ = 0; }
        fields[6][strcspn(fields[6], "\n")] = 0;
        r->sel = atoll(fields[0]); r->at = atoll(fields[1]);
        snprintf(r->text, sizeof r->text, "%s", fields[3]);
        r->has_num = fields[4][0] != 0; r->num = atoll(fields[4]); r->den = atoll(fields[5]); r->susp = atoi(fields[6]);
    }
    sqlite3 *db; sqlite3_open(argv[1], &db);
    sqlite3_exec(db, "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;", 0, 0, 0);
    sqlite3_stmt *st;
    sqlite3_prepare_v2(db, "INSERT INTO price_change (selection_id, received_at, provider_at, price_text, odds_num, odds_den, suspended) VALUES (?,?,?,?,?,?,?)", -1, &st, 0);
    double t0 = now();
    sqlite3_exec(db, "BEGIN", 0, 0, 0);
    for (size_t i = 0; i < n; i++) {
        Row *r = &rows[i];
        sqlite3_bind_int64(st, 1, r->sel); sqlite3_bind_int64(st, 2, r->at); sqlite3_bind_null(st, 3);
        if (r->text[0]) sqlite3_bind_text(st, 4, r->text, -1, SQLITE_STATIC); else sqlite3_bind_null(st, 4);
        if (r->has_num) { sqlite3_bind_int64(st, 5, r->num); sqlite3_bind_int64(st, 6, r->den); } else { sqlite3_bind_null(st, 5); sqlite3_bind_null(st, 6); }
        sqlite3_bind_int(st, 7, r->susp);
        if (sqlite3_step(st) != SQLITE_DONE) { fprintf(stderr, "%s\n", sqlite3_errmsg(db)); return 1; }
        sqlite3_reset(st);
    }
    sqlite3_exec(db, "COMMIT", 0, 0, 0);
    printf("%.3f %zu\n", now() - t0, n);
    sqlite3_finalize(st); sqlite3_close(db);
    return 0;
}
"""


def make_recording(binary, frames, path):
    sim = subprocess.Popen([binary, "sim", "--scenario", "firehose", "--port", "0"], stdout=subprocess.PIPE, text=True)
    env = dict(os.environ, ODDS_TICKODDS_KEY="demo-key")  # the simulator's default key
    try:
        for line in sim.stdout:
            if line.startswith("export ODDS_"):
                key, value = line[len("export "):].strip().split("=", 1)
                env[key] = value.strip("'")
            if "ODDS_TICKODDS_WS_URL" in env:
                break
        subprocess.run([binary, "record", "--provider", "tickodds", "--limit", str(frames), "-o", path], env=env, check=True)
    finally:
        sim.terminate()
        sim.wait()


def timed(cmd, **kw):
    start = time.perf_counter()
    subprocess.run(cmd, check=True, **kw)
    return time.perf_counter() - start


def arguments():
    """The options both history write benchmarks take."""
    ap = argparse.ArgumentParser()
    ap.add_argument("--recording")
    ap.add_argument("--frames", type=int, default=95000)
    ap.add_argument("--binary", default=".build/release/odds")
    ap.add_argument("--repeat", type=int, default=3)
    return ap.parse_args()


def main():
    args = arguments()
    work = tempfile.mkdtemp(prefix="odds-history-bench-")
    try:
        rec = args.recording or os.path.join(work, "fire.ndjson")
        if not args.recording:
            make_recording(args.binary, args.frames, rec)
        devnull = open(os.devnull, "w")
        env = dict(os.environ, XDG_CONFIG_HOME=work, HOME=work)
        decode, plain, streamed, command, db = [], [], [], [], None
        for i in range(args.repeat):
            decode.append(timed([args.binary, "live", "--replay", rec, "--speed", "max", "--json"], stdout=devnull, stderr=devnull, env=env))
            plain.append(timed([args.binary, "stream", "--replay", rec, "--speed", "max", "--no-history"], stdout=devnull, stderr=devnull, env=env))
            streamed.append(timed([args.binary, "stream", "--replay", rec, "--speed", "max", "--history", os.path.join(work, f"s{i}.sqlite")],
                                  stdout=devnull, stderr=devnull, env=env))
            db = os.path.join(work, f"h{i}.sqlite")
            command.append(timed([args.binary, "history", "collect", "--replay", rec, "--speed", "max", "--history", db],
                                 stdout=devnull, stderr=devnull, env=env))
        src = sqlite3.connect(db)
        rows = src.execute("SELECT selection_id, received_at, provider_at, price_text, odds_num, odds_den, suspended FROM price_change").fetchall()
        schema = [r[0] for r in src.execute("SELECT sql FROM sqlite_master WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite_%'")]
        counts = {t: src.execute(f"SELECT count(*) FROM {t}").fetchone()[0] for t in ["source", "selection", "price_change", "score_change", "incident"]}
        src.close()
        size = sum(os.path.getsize(db + s) for s in ["", "-wal"] if os.path.exists(db + s))

        def fresh(name):
            path = os.path.join(work, name)
            c = sqlite3.connect(path)
            c.execute("PRAGMA journal_mode=WAL")
            c.execute("PRAGMA synchronous=NORMAL")
            for sql in schema:
                c.execute(sql)
            c.commit()
            return path, c

        py = []
        for i in range(args.repeat):
            _, c = fresh(f"py{i}.sqlite")
            start = time.perf_counter()
            c.execute("BEGIN")
            c.executemany("INSERT INTO price_change (selection_id, received_at, provider_at, price_text, odds_num, odds_den, suspended) VALUES (?,?,?,?,?,?,?)", rows)
            c.commit()
            py.append(time.perf_counter() - start)
            c.close()

        csrc = os.path.join(work, "floor.c")
        cbin = os.path.join(work, "floor")
        open(csrc, "w").write(C_FLOOR)
        subprocess.run(["gcc", "-O2", "-o", cbin, csrc, "-lsqlite3"], check=True)
        tsv = os.path.join(work, "rows.tsv")
        with open(tsv, "w") as f:
            for r in rows:
                f.write("\t".join("" if v is None else str(v) for v in r) + "\n")
        floor = []
        for i in range(args.repeat):
            path, c = fresh(f"c{i}.sqlite")
            c.close()
            out = subprocess.run([cbin, path, tsv], check=True, capture_output=True, text=True).stdout.split()
            floor.append(float(out[0]))

        best = lambda xs: min(xs)
        print(f"recording: {rec} ({os.path.getsize(rec) / 1e6:.1f} MB)")
        print(f"rows: {counts}")
        print(f"odds live --replay --speed max --json (decoding)  {best(decode):.3f} s")
        print(f"odds history collect --replay --speed max         {best(command):.3f} s")
        print(f"odds stream --replay --speed max --no-history     {best(plain):.3f} s")
        print(f"odds stream --replay --speed max --history DB     {best(streamed):.3f} s")
        print(f"python sqlite3.executemany, insert alone          {best(py):.3f} s")
        print(f"C, one prepared statement, insert alone (floor)   {best(floor):.3f} s")
        print(f"what --history adds to the stream                 {best(streamed) - best(plain):.3f} s")
        print(f"collect beyond the decoding alone                 {best(command) - best(decode):.3f} s")
        print(f"history collect / python insert                   {best(command) / best(py):.2f}x")
        print(f"history collect / C floor                         {best(command) / best(floor):.2f}x")
        print(f"bytes per price change on disk                    {size / max(1, counts['price_change']):.0f}")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
