#!/usr/bin/env python3
"""Reading a big history: `odds history matches` over a database of --rows price changes, and `odds history show`
of one match that has --match-rows of them, as commands (best of --repeat).

The database is made by odds itself (its schema, from a short demo recording), then filled by Python with
synthetic sources, selections and price changes spread over --days; the match shown gets --match-rows of them.

With --postgres the same database is made in a throwaway PostgreSQL server (see history_postgres.py), filled by
the server itself (generate_series), and read through a postgres:// URL.

With --before OLD, the database is made and read by OLD first, then opened by --binary (migrated forward if
its schema is newer) and read again: a before and after on the same data.

Usage: Benchmarks/history_read.py [--binary .build/release/odds] [--before OLD] [--rows 10000000] [--match-rows 200000] [--repeat 5] [--postgres]
"""
import argparse
import os
import random
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time


def timed(cmd, env):
    start = time.perf_counter()
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    return time.perf_counter() - start


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--binary", default=".build/release/odds")
    ap.add_argument("--before", help="an earlier build: makes the database and reads it first")
    ap.add_argument("--rows", type=int, default=10_000_000)
    ap.add_argument("--match-rows", type=int, default=200_000)
    ap.add_argument("--sources", type=int, default=5_000)
    ap.add_argument("--days", type=int, default=90)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--keep", help="keep the database at this path (and reuse it when it exists)")
    ap.add_argument("--postgres", action="store_true", help="a PostgreSQL history instead of a SQLite file")
    args = ap.parse_args()
    work = tempfile.mkdtemp(prefix="odds-history-read-")
    env = dict(os.environ, XDG_CONFIG_HOME=work, HOME=work, ODDS_DEMO_TICK="0.01")
    if args.postgres:
        return postgres(args, work, env)
    try:
        db = args.keep or os.path.join(work, "big.sqlite")
        maker = args.before or args.binary
        if not os.path.exists(db):
            rec = os.path.join(work, "tiny.ndjson")
            subprocess.run([maker, "record", "--provider", "tickodds", "--demo", "--limit", "20", "-o", rec],
                           check=True, env=env, stderr=subprocess.DEVNULL)
            subprocess.run([maker, "history", "collect", "--replay", rec, "--speed", "max", "--history", db],
                           check=True, env=env, stderr=subprocess.DEVNULL)
            fill(db, args)
        c = sqlite3.connect(db)
        total = c.execute("SELECT count(*) FROM price_change").fetchone()[0]
        target, rows = c.execute("SELECT event_id, price_changes FROM source ORDER BY price_changes DESC LIMIT 1").fetchone()
        c.close()
        size = os.path.getsize(db)
        print(f"database: {total:,} price changes, {size / 1e6:.0f} MB ({size / max(1, total):.0f} bytes a change)")
        compare(args, db, target, rows, env)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def compare(args, db, target, rows, env):
    if args.before:
        print(f"before: {args.before}")
        report(args, args.before, db, target, rows, env)
        # The first open by the later build migrates a history of an earlier schema: timed once, apart.
        start = time.perf_counter()
        subprocess.run([args.binary, "history", "stats", "--history", db], check=True, env=env, stdout=subprocess.DEVNULL)
        print(f"first open by the later build (migrating)  {(time.perf_counter() - start) * 1000:.1f} ms")
        print(f"after: {args.binary}")
    report(args, args.binary, db, target, rows, env)


def report(args, binary, db, target, rows, env):
    matches = [timed([binary, "history", "matches", "--history", db, "--json"], env) for _ in range(args.repeat)]
    since = [timed([binary, "history", "matches", "--history", db, "--since", "2h", "--json"], env) for _ in range(args.repeat)]
    show = [timed([binary, "history", "show", target, "--history", db, "--json"], env) for _ in range(args.repeat)]
    table = [timed([binary, "history", "show", target, "--history", db, "--format", "table"], env) for _ in range(args.repeat)]
    print(f"odds history matches --json                {min(matches) * 1000:.1f} ms")
    print(f"odds history matches --since 2h --json     {min(since) * 1000:.1f} ms")
    print(f"odds history show ({rows:,} rows) --json    {min(show) * 1000:.1f} ms")
    print(f"odds history show ({rows:,} rows) table     {min(table) * 1000:.1f} ms")


def postgres(args, work, env):
    from history_postgres import Server
    server = Server(work)
    try:
        server.psql("CREATE DATABASE big")
        url = server.url("big")
        rec = os.path.join(work, "tiny.ndjson")
        maker = args.before or args.binary
        subprocess.run([maker, "record", "--provider", "tickodds", "--demo", "--limit", "20", "-o", rec],
                       check=True, env=env, stderr=subprocess.DEVNULL)
        subprocess.run([maker, "history", "collect", "--replay", rec, "--speed", "max", "--history", url],
                       check=True, env=env, stderr=subprocess.DEVNULL)
        start = time.perf_counter()
        fill_postgres(server, args)
        total = int(server.psql("SELECT count(*) FROM price_change", "big"))
        size = int(server.psql("SELECT sum(pg_total_relation_size(c.oid)) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
                               "WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p')", "big"))
        print(f"database: {total:,} price changes, {size / 1e6:.0f} MB ({size / max(1, total):.0f} bytes a change); "
              f"filled in {time.perf_counter() - start:.0f} s")
        compare(args, url, "bench-target", args.match_rows, env)
    finally:
        server.stop()
        shutil.rmtree(work, ignore_errors=True)


def fill_postgres(server, args):
    day_ms = 86_400_000
    now = int(time.time() * 1000)
    start = now - args.days * day_ms
    days = range(start // day_ms, now // day_ms + 1)
    parts = []
    for d in days:
        name = time.strftime("price_change_%Y%m%d", time.gmtime(d * 86_400))
        parts.append(f"CREATE TABLE IF NOT EXISTS {name} PARTITION OF price_change FOR VALUES FROM ({d * day_ms}) TO ({(d + 1) * day_ms})")
    server.psql(";\n".join(parts), "big")
    span = args.days * day_ms - 3 * 3_600_000
    per = (args.rows - args.match_rows) // args.sources
    server.psql(f"""
        INSERT INTO source (provider, event_id, sport, league, home, away, start_time, first_seen, last_seen, price_changes)
        SELECT 'tickodds', 'bench-' || i, 'soccer', 'Bench League', 'Home ' || i, 'Away ' || i, f + 3600000, f, f + 10800000, {per}
        FROM (SELECT i, {start} + floor(random() * {span})::bigint AS f FROM generate_series(0, {args.sources - 1}) i) s;
        INSERT INTO source (provider, event_id, sport, league, home, away, start_time, first_seen, last_seen, price_changes)
        VALUES ('tickodds', 'bench-target', 'soccer', 'Bench League', 'Target Home', 'Target Away', {now - 3_600_000},
                {now - 3 * 3_600_000}, {now}, {args.match_rows});
        INSERT INTO selection (source_id, book, market_id, line, selection_key, market_name, selection_name)
        SELECT o.id, 'tickodds', m.market, '', m.sel, m.market, m.sel FROM source o CROSS JOIN (VALUES
            ('full_time_result:full_game', 'home'), ('full_time_result:full_game', 'draw'), ('full_time_result:full_game', 'away'),
            ('total_goals:full_game', 'over'), ('total_goals:full_game', 'under'),
            ('both_teams_to_score:full_game', 'yes'), ('both_teams_to_score:full_game', 'no')) AS m(market, sel)
        WHERE o.event_id LIKE 'bench-%'
        ON CONFLICT DO NOTHING;
        CREATE TEMP TABLE ord AS SELECT id, source_id, row_number() OVER (PARTITION BY source_id ORDER BY id) - 1 AS k FROM selection;
        CREATE INDEX ON ord (source_id, k);
        INSERT INTO price_change (selection_id, received_at, price_text, odds_num, odds_den, suspended)
        SELECT s.id, o.first_seen + g * (10800000 / n.n), to_char(p.num / 100.0, 'FM9990.00'), p.num, 100, false
        FROM source o
        CROSS JOIN LATERAL (SELECT CASE WHEN o.event_id = 'bench-target' THEN {args.match_rows} ELSE {per} END AS n) n
        CROSS JOIN LATERAL generate_series(0, n.n - 1) g
        JOIN ord s ON s.source_id = o.id AND s.k = g % 7
        CROSS JOIN LATERAL (SELECT 101 + floor(random() * 4899)::bigint + g * 0 AS num) p
        WHERE o.event_id LIKE 'bench-%'
        ORDER BY o.first_seen + g * (10800000 / n.n);
        UPDATE selection s SET last_at = a.l FROM (
            SELECT selection_id, max(received_at) AS l FROM price_change GROUP BY selection_id) a
        WHERE s.id = a.selection_id;
        """, "big")
    if server.psql("SELECT count(*) FROM information_schema.columns WHERE table_name = 'selection' AND column_name = 'first_at'", "big") == "1":
        server.psql("""UPDATE selection s SET first_at = a.f FROM (
            SELECT selection_id, min(received_at) AS f FROM price_change GROUP BY selection_id) a WHERE s.id = a.selection_id""", "big")
    server.psql("VACUUM ANALYZE", "big")


def fill(db, args):
    c = sqlite3.connect(db)
    c.execute("PRAGMA journal_mode=WAL")
    c.execute("PRAGMA synchronous=NORMAL")
    rnd = random.Random(7)
    now = int(time.time() * 1000)
    start = now - args.days * 86_400_000
    c.execute("BEGIN")
    sources = []
    for i in range(args.sources):
        first = start + rnd.randrange(args.days * 86_400_000 - 3 * 3_600_000)
        cur = c.execute("""INSERT INTO source (provider, event_id, sport, league, home, away, start_time, first_seen, last_seen, price_changes)
                           VALUES ('tickodds', ?, 'soccer', 'Bench League', ?, ?, ?, ?, ?, 0)""",
                        (f"bench-{i}", f"Home {i}", f"Away {i}", first + 3_600_000, first, first + 3 * 3_600_000))
        sources.append((cur.lastrowid, first))
    # The match shown: live now.
    cur = c.execute("""INSERT INTO source (provider, event_id, sport, league, home, away, start_time, first_seen, last_seen, price_changes)
                       VALUES ('tickodds', 'bench-target', 'soccer', 'Bench League', 'Target Home', 'Target Away', ?, ?, ?, 0)""",
                    (now - 3_600_000, now - 3 * 3_600_000, now))
    target = (cur.lastrowid, now - 3 * 3_600_000)
    selections = {}
    for sid, _ in sources + [target]:
        ids = []
        for m, names in [("full_time_result:full_game", ["home", "draw", "away"]), ("total_goals:full_game", ["over", "under"]),
                         ("both_teams_to_score:full_game", ["yes", "no"])]:
            for n in names:
                cur = c.execute("""INSERT INTO selection (source_id, book, market_id, line, selection_key, market_name, selection_name)
                                   VALUES (?, 'tickodds', ?, '', ?, ?, ?)""", (sid, m, n, m, n))
                ids.append(cur.lastrowid)
        selections[sid] = ids
    c.commit()

    def rows(sid, first, n):
        ids = selections[sid]
        for k in range(n):
            num = rnd.randrange(101, 5000)
            yield (ids[k % len(ids)], first + k * (3 * 3_600_000 // max(1, n)), None, f"{num / 100:.2f}", num, 100, 0)

    other = args.rows - args.match_rows
    per = other // len(sources)
    c.execute("BEGIN")
    for sid, first in sources:
        c.executemany("INSERT INTO price_change VALUES (?,?,?,?,?,?,?)", rows(sid, first, per))
        c.execute("UPDATE source SET price_changes = ? WHERE id = ?", (per, sid))
    c.executemany("INSERT INTO price_change VALUES (?,?,?,?,?,?,?)", rows(target[0], target[1], args.match_rows))
    c.execute("UPDATE source SET price_changes = ? WHERE id = ?", (args.match_rows, target[0]))
    # What a writer keeps beside each selection: its first and last stored change.
    c.execute("UPDATE selection SET last_at = (SELECT max(received_at) FROM price_change p WHERE p.selection_id = selection.id)")
    if any(r[1] == "first_at" for r in c.execute("PRAGMA table_info(selection)")):
        c.execute("UPDATE selection SET first_at = (SELECT min(received_at) FROM price_change p WHERE p.selection_id = selection.id)")
    c.commit()
    c.execute("ANALYZE")
    c.close()


if __name__ == "__main__":
    sys.exit(main())
