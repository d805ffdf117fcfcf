#!/usr/bin/env python3
"""Peak memory of `odds` when a WebSocket sends it very large frames, over a real loopback socket.

Usage: big_frame.py RECORDING [--binary PATH] [--command stream|live|record] [--port N] [--timeout S]

Serves the frames of an `odds record` recording of BoltOdds' odds connection (e.g. one initial state of
3,000 games x 8 books, a 51.7 MB frame, as `boltodds_initial_state.py` writes) as WebSocket text
messages on 127.0.0.1, each message in one frame, the way the provider's server would send them; any
plain HTTP request (BoltOdds' `get_info`) gets a small JSON answer. Then runs

  stream   `odds stream --provider boltodds` until it has written one line per message of the data
           frames (or --timeout), then SIGTERM;
  live     `odds live --provider boltodds --format tsv` (it exits by itself);
  record   `odds record --provider boltodds --limit N` for the recording's N frames;

against it (ODDS_BOLTODDS_* pointing at the server, ODDS_MAX_FRAME_MB raised to fit the largest
frame) and reports the process's peak resident memory (VmHWM, sampled every 20 ms until it exits)
(or, for a command that exits by itself, the kernel's count at its exit) next to the largest frame's
size. MB = 10^6 bytes.
Exit: 0 measured, 1 the command failed or timed out, 2 usage or setup error.
"""

import argparse
import base64
import hashlib
import json
import os
import shutil
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import time

FRAME_KEY = b',"frame":'


def frames_of(path):
    out = []
    with open(path, "rb") as f:
        for line in f:
            line = line.rstrip(b"\r\n")
            i = line.find(FRAME_KEY)
            if i < 0 or not line.endswith(b"}"):
                continue
            if b'"feed":"boltodds/odds"' not in line[:i]:
                continue
            out.append(line[i + len(FRAME_KEY):-1])
    return out


def serve(listener, frames, stop):
    info = json.dumps({"sports": ["NBA", "NFL", "MLB", "NHL", "Soccer"],
                       "sportsbooks": ["draftkings", "fanduel", "betmgm", "caesars", "pointsbet", "bet365",
                                       "betrivers", "unibet"]}).encode()

    def one(conn):
        try:
            request = b""
            while b"\r\n\r\n" not in request:
                chunk = conn.recv(65536)
                if not chunk:
                    return
                request += chunk
            keys = [l.split(b":", 1)[1].strip() for l in request.split(b"\r\n")
                    if l.lower().startswith(b"sec-websocket-key:")]
            if not keys:
                conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nConnection: close\r\n"
                             b"Content-Length: " + str(len(info)).encode() + b"\r\n\r\n" + info)
                return
            accept = base64.b64encode(hashlib.sha1(keys[0] + b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11").digest())
            conn.sendall(b"HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                         b"Sec-WebSocket-Accept: " + accept + b"\r\n\r\n")
            for payload in frames:
                n = len(payload)
                if n < 126:
                    head = bytes([0x81, n])
                elif n < 65536:
                    head = b"\x81\x7e" + struct.pack(">H", n)
                else:
                    head = b"\x81\x7f" + struct.pack(">Q", n)
                conn.sendall(head + payload)
            conn.settimeout(0.5)
            while not stop.is_set():
                try:
                    if not conn.recv(65536):
                        return
                except socket.timeout:
                    continue
        except OSError:
            pass
        finally:
            conn.close()

    listener.settimeout(0.5)
    while not stop.is_set():
        try:
            conn, _ = listener.accept()
        except socket.timeout:
            continue
        except OSError:
            return
        threading.Thread(target=one, args=(conn,), daemon=True).start()


def serve_recording(path, port):
    """The server process: loads the frames, says `serving PORT FRAMES MESSAGES LARGEST`, serves until killed."""
    try:
        frames = frames_of(path)
    except OSError as e:
        print("big_frame.py: cannot read %s: %s" % (path, e.strerror), file=sys.stderr)
        return 2
    if not frames:
        print("big_frame.py: %s holds no boltodds/odds frames" % path, file=sys.stderr)
        return 2
    messages = 0
    for f in frames:
        try:
            v = json.loads(f)
        except ValueError:
            continue
        if isinstance(v, list):
            messages += sum(1 for m in v if isinstance(m, dict) and "data" in m)
        elif isinstance(v, dict) and "data" in v:
            messages += 1
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", port))
    listener.listen(8)
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    print("serving %d %d %d %d" % (listener.getsockname()[1], len(frames), messages, max(len(f) for f in frames)), flush=True)
    serve(listener, frames, stop)
    return 0


def peak_kb(pid):
    try:
        with open("/proc/%d/status" % pid) as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except OSError:
        return None
    return None


def main():
    parser = argparse.ArgumentParser(description="Peak memory of odds on very large WebSocket frames.")
    parser.add_argument("recording")
    parser.add_argument("--binary", default=None)
    parser.add_argument("--command", choices=["stream", "live", "record"], default="stream")
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--timeout", type=float, default=120)
    parser.add_argument("--keep", action="store_true",
                        help="keep the run's output, stderr and recording (tens of MB) and say where")
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        return serve_recording(args.recording, args.port)

    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    binary = args.binary or next((p for p in (os.path.join(root, ".build/release/odds"),
                                              os.path.join(root, ".build/debug/odds")) if os.path.exists(p)), None)
    if not binary or not os.path.exists(binary):
        print("big_frame.py: no odds binary (build it, or pass --binary)", file=sys.stderr)
        return 2
    # The server is a process of its own: this one stays small, so that the peak the kernel reports
    # for the command (which starts from its parent's at fork) is the command's own.
    server = subprocess.Popen([sys.executable, os.path.abspath(__file__), args.recording, "--serve",
                               "--port", str(args.port)], stdout=subprocess.PIPE)
    ready = server.stdout.readline().decode().split()
    if len(ready) != 5 or ready[0] != "serving":
        server.kill()
        server.wait()
        print("big_frame.py: the server did not start", file=sys.stderr)
        return 2
    port, frame_count, messages, largest = (int(x) for x in ready[1:])
    env = dict(os.environ)
    env.update({"ODDS_BOLTODDS_WS_URL": "ws://127.0.0.1:%d/api" % port,
                "ODDS_BOLTODDS_URL": "http://127.0.0.1:%d/api" % port,
                "ODDS_BOLTODDS_KEY": "bench-key",
                "ODDS_MAX_FRAME_MB": str(largest // (1 << 20) + 2),
                "NO_COLOR": "1"})
    workdir = tempfile.mkdtemp(prefix="odds-big-frame-")
    out_path = os.path.join(workdir, "out")
    command = {"stream": ["stream", "--provider", "boltodds"],
               "live": ["live", "--provider", "boltodds", "--format", "tsv"],
               "record": ["record", "--provider", "boltodds", "--limit", str(frame_count),
                          "--output", os.path.join(workdir, "rec.ndjson")]}[args.command]
    status = 1
    with open(out_path, "wb") as out, open(os.path.join(workdir, "err"), "wb") as err:
        started = time.monotonic()
        proc = subprocess.Popen([binary] + command, stdout=out, stderr=err, env=env)
        peak = 0
        done = False
        try:
            while time.monotonic() - started < args.timeout:
                p = peak_kb(proc.pid)
                if p:
                    peak = max(peak, p)
                pid, code, usage = os.wait4(proc.pid, os.WNOHANG)
                if pid:
                    # Exited by itself: the kernel's own peak (KiB), exact.
                    proc.returncode = code
                    peak = max(peak, usage.ru_maxrss)
                    done = os.WIFEXITED(code) and os.WEXITSTATUS(code) == 0
                    break
                if args.command == "stream":
                    out.flush()
                    with open(out_path, "rb") as f:
                        lines = sum(chunk.count(b"\n") for chunk in iter(lambda: f.read(1 << 20), b""))
                    if lines >= messages:
                        done = True
                        break
                time.sleep(0.02)
            elapsed = time.monotonic() - started
        finally:
            if proc.returncode is None:
                p = peak_kb(proc.pid)
                if p:
                    peak = max(peak, p)
                proc.send_signal(signal.SIGTERM)
                try:
                    proc.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait()
            server.terminate()
            server.wait()
            # The output of a 50 MB frame is as large: removed unless asked for.
            if args.keep:
                print("kept          %s" % workdir)
            else:
                shutil.rmtree(workdir, ignore_errors=True)
    print("largest frame   %.1f MB (%d frames, %d messages)" % (largest / 1e6, frame_count, messages))
    print("odds %-10s peak %.1f MB (VmHWM), %.2f s%s" % (args.command, peak * 1024 / 1e6, elapsed,
                                                         "" if done else " (timed out)"))
    if done:
        status = 0
    return status


if __name__ == "__main__":
    sys.exit(main())
