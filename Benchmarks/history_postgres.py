#!/usr/bin/env python3
"""Writing a history to PostgreSQL: the whole command against `psql \\copy` of the same rows.

1. A throwaway PostgreSQL server (initdb + pg_ctl, as the postgres user when run as root; 127.0.0.1, a free port,
   the server's default durability), stopped and removed at the end.
2. The whole command, into a new database each time (best of --repeat): `odds history collect --replay REC
   --speed max --history postgres://...`, and `odds stream --replay REC --speed max --history URL > /dev/null`.
3. The price rows that command wrote, read back with `\\copy ... TO` a file, then `\\copy ... FROM` it into a new
   database with the same schema (`pg_dump --schema-only` of the first: the same partitions and indexes) -- the
   floor for getting those rows into PostgreSQL.
4. Bytes per price change (`pg_total_relation_size` of every table, partitions and indexes included).

Usage: Benchmarks/history_postgres.py [--recording FIRE] [--binary .build/release/odds] [--repeat 3]
Without --recording, a TickOdds firehose recording is made first (as history_write.py does).
"""
import glob
import os
import pwd
import shutil
import socket
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from history_write import arguments, make_recording, timed  # noqa: E402


class Server:
    def __init__(self, work):
        bins = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), reverse=True)
        if not bins:
            sys.exit("no PostgreSQL server programs under /usr/lib/postgresql")
        self.bin = os.path.dirname(bins[0])
        self.folder = os.path.join(work, "pg")
        os.makedirs(self.folder, mode=0o700)
        self.root = os.getuid() == 0
        if self.root:
            pw = pwd.getpwnam("postgres")
            os.chown(work, pw.pw_uid, pw.pw_gid)
            os.chown(self.folder, pw.pw_uid, pw.pw_gid)
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        self.server("initdb", "-D", self.folder + "/data", "-U", "odds", "--auth=trust", "-E", "UTF8", "--locale=C")
        self.server("pg_ctl", "-D", self.folder + "/data", "-l", self.folder + "/log", "-w",
                    "-o", f"-c listen_addresses=127.0.0.1 -p {self.port} -k {self.folder}", "start")

    def server(self, program, *args):
        cmd = [os.path.join(self.bin, program), *args]
        if self.root:
            cmd = ["runuser", "-u", "postgres", "--"] + cmd
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)

    def url(self, db):
        return f"postgres://odds@127.0.0.1:{self.port}/{db}?sslmode=disable"

    def psql(self, sql, db="postgres", **kw):
        return subprocess.run(["psql", "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-h", self.folder, "-p", str(self.port),
                               "-U", "odds", "-d", db, "-c", sql], check=True, capture_output=True, text=True, **kw).stdout.strip()

    def stop(self):
        self.server("pg_ctl", "-D", self.folder + "/data", "-m", "immediate", "stop")


def main():
    args = arguments()
    binary = os.path.abspath(args.binary)
    work = tempfile.mkdtemp(prefix="odds-history-pg-bench-")
    server = None
    try:
        rec = os.path.abspath(args.recording) if args.recording else os.path.join(work, "fire.ndjson")
        if not args.recording:
            make_recording(binary, args.frames, rec)
        server = Server(work)
        devnull = open(os.devnull, "w")
        env = dict(os.environ, XDG_CONFIG_HOME=work, HOME=work)
        command, streamed, db = [], [], None
        for i in range(args.repeat):
            for name, runs, cmd in [(f"s{i}", streamed, ["stream"]), (f"h{i}", command, ["history", "collect"])]:
                server.psql(f"CREATE DATABASE {name}")
                runs.append(timed([binary, *cmd, "--replay", rec, "--speed", "max", "--history", server.url(name)],
                                  stdout=devnull, env=env))
            db = f"h{args.repeat - 1}"
        counts = {t: int(server.psql(f"SELECT count(*) FROM {t}", db)) for t in ["source", "selection", "price_change", "score_change", "incident"]}
        size = int(server.psql("""
            SELECT sum(pg_total_relation_size(c.oid))::bigint FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
            WHERE n.nspname = 'public' AND c.relkind = 'r'""", db))
        columns = "selection_id, received_at, provider_at, price_text, odds_num, odds_den, suspended"
        rows = os.path.join(work, "rows.tsv")
        server.psql(f"\\copy (SELECT {columns} FROM price_change ORDER BY seq) TO '{rows}'", db)
        schema = subprocess.run(["pg_dump", "--schema-only", "-h", server.folder, "-p", str(server.port), "-U", "odds", db],
                                check=True, capture_output=True, text=True).stdout
        floor = []
        for i in range(args.repeat):
            name = f"c{i}"
            server.psql(f"CREATE DATABASE {name}")
            subprocess.run(["psql", "-X", "-q", "-v", "ON_ERROR_STOP=1", "-h", server.folder, "-p", str(server.port), "-U", "odds", "-d", name],
                           input=schema, check=True, capture_output=True, text=True)
            floor.append(timed(["psql", "-X", "-q", "-h", server.folder, "-p", str(server.port), "-U", "odds", "-d", name,
                                "-c", f"\\copy price_change ({columns}) FROM '{rows}'"], stdout=devnull))

        best = min
        print(f"recording: {rec} ({os.path.getsize(rec) / 1e6:.1f} MB)")
        print(f"rows: {counts}")
        print(f"odds history collect --replay --speed max (PostgreSQL)  {best(command):.3f} s")
        print(f"odds stream --replay --speed max --history URL          {best(streamed):.3f} s")
        print(f"psql \\copy of the same price rows (floor)               {best(floor):.3f} s")
        print(f"history collect / psql \\copy                            {best(command) / best(floor):.2f}x")
        print(f"bytes per price change (all tables and indexes)         {size / max(1, counts['price_change']):.0f}")
    finally:
        if server:
            server.stop()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
