#!/usr/bin/env bash
# CPU of the dashboard as a user runs it: `odds dash --provider all` (every provider fused) against
# `odds sim` at the demo's pace, in a real terminal (tmux), the simulator in its own process so that only
# the dashboard's own work is counted.
#
#   Benchmarks/dash-cpu.sh [--binary PATH] [--seconds 60] [--warmup 10] [--providers all] [--width 160] [--height 45]
#   Benchmarks/dash-cpu.sh --replay REC [--binary PATH] [--seconds 60] [--warmup 10] [--width 160] [--height 45]
#   ... --dash-args "--history /tmp/h.sqlite"     (more options for odds dash)
#
# With --replay, the dashboard replays a recording at its recorded pace instead (`odds dash --replay REC`:
# the provider's own decoder, no simulator): Benchmarks/dash_recording.py writes recordings of 2,000 or
# 20,000 events at 1,000 updates a second.
#
# Prints the dashboard's CPU (user + system, from /proc/PID/stat) as a share of one core over the run, the
# simulator's beside it, the dashboard's RSS at the end, and PASS (under 5 % of a core) or FAIL.
# Exit: 0 PASS, 1 FAIL, 2 a usage or setup error. Everything started is stopped on exit.
set -euo pipefail

binary=""
seconds=60
warmup=10
providers=all
replay=""
dash_args=""
width=160
height=45
while [[ $# -gt 0 ]]; do
    case "$1" in
        --binary) binary="$2"; shift 2 ;;
        --seconds) seconds="$2"; shift 2 ;;
        --warmup) warmup="$2"; shift 2 ;;
        --providers) providers="$2"; shift 2 ;;
        --replay) replay="$2"; shift 2 ;;
        --dash-args) dash_args="$2"; shift 2 ;;
        --width) width="$2"; shift 2 ;;
        --height) height="$2"; shift 2 ;;
        *) echo "dash-cpu.sh: unknown option $1" >&2; exit 2 ;;
    esac
done
root="$(cd "$(dirname "$0")/.." && pwd)"
if [[ -z "$binary" ]]; then
    binary="$root/.build/release/odds"
    [[ -x "$binary" ]] || binary="$root/.build/debug/odds"
fi
[[ -x "$binary" ]] || { echo "dash-cpu.sh: no odds binary at $binary (swift build -c release)" >&2; exit 2; }
command -v tmux >/dev/null || { echo "dash-cpu.sh: tmux is not installed" >&2; exit 2; }

work="$(mktemp -d)"
socket="odds-dash-cpu-$$"
sim_pid=""
cleanup() {
    tmux -L "$socket" kill-server 2>/dev/null || true
    if [[ -n "$sim_pid" ]]; then
        kill -TERM "$sim_pid" 2>/dev/null || true
        for _ in $(seq 1 100); do kill -0 "$sim_pid" 2>/dev/null || break; sleep 0.1; done
        kill -KILL "$sim_pid" 2>/dev/null || true
    fi
    rm -rf "$work"
}
trap cleanup EXIT INT TERM

if [[ -n "$replay" ]]; then
    [[ -r "$replay" ]] || { echo "dash-cpu.sh: cannot read $replay" >&2; exit 2; }
    command_line="dash --replay $replay${dash_args:+ $dash_args}"
    {
        echo "export ODDS_CONFIG=$work/none.toml LANG=C.UTF-8 TERM=xterm-256color"
        echo "exec \"$binary\" $command_line"
    } >"$work/run.sh"
else
    "$binary" sim --port 0 --no-rate-limit >"$work/sim.env" 2>"$work/sim.err" &
    sim_pid=$!
    for _ in $(seq 1 100); do grep -q "ODDS_SPORTSAPI_V1_WS_URL" "$work/sim.env" 2>/dev/null && break; sleep 0.1; done
    grep -q "ODDS_SPORTSAPI_V1_WS_URL" "$work/sim.env" || { echo "dash-cpu.sh: the simulator did not start" >&2; cat "$work/sim.err" >&2; exit 2; }
    command_line="dash --provider $providers${dash_args:+ $dash_args}"
    {
        grep '^export ' "$work/sim.env"
        for p in PULSESCORE TICKODDS BOLTODDS SPORTSAPI SPORTSAPI_V1; do echo "export ODDS_${p}_KEY=demo-key"; done
        echo "export ODDS_CONFIG=$work/none.toml LANG=C.UTF-8 TERM=xterm-256color"
        echo "exec \"$binary\" $command_line"
    } >"$work/run.sh"
fi

tmux -L "$socket" new-session -d -s dash -x "$width" -y "$height" "bash $work/run.sh"
dash_pid=""
for _ in $(seq 1 100); do
    dash_pid="$(pgrep -f "^$binary $command_line" | head -1 || true)"
    [[ -n "$dash_pid" ]] && break
    sleep 0.1
done
[[ -n "$dash_pid" ]] || { echo "dash-cpu.sh: the dashboard did not start" >&2; exit 2; }

ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
hz="$(getconf CLK_TCK)"
sleep "$warmup"
kill -0 "$dash_pid" 2>/dev/null || { echo "dash-cpu.sh: the dashboard exited during the warm-up" >&2; exit 2; }
sim_ticks() { if [[ -n "$sim_pid" ]]; then ticks "$sim_pid"; else echo 0; fi; }
d0="$(ticks "$dash_pid")"; s0="$(sim_ticks)"
sleep "$seconds"
kill -0 "$dash_pid" 2>/dev/null || { echo "dash-cpu.sh: the dashboard exited during the run" >&2; exit 1; }
d1="$(ticks "$dash_pid")"; s1="$(sim_ticks)"
header="$(tmux -L "$socket" capture-pane -p -t dash | head -1)"
rss="$(awk '/VmRSS/ {printf "%.1f", $2 * 1024 / 1e6}' "/proc/$dash_pid/status")"

dash_pct="$(awk -v t=$((d1 - d0)) -v hz="$hz" -v s="$seconds" 'BEGIN { printf "%.2f", t / hz / s * 100 }')"
sim_pct="$(awk -v t=$((s1 - s0)) -v hz="$hz" -v s="$seconds" 'BEGIN { printf "%.2f", t / hz / s * 100 }')"
echo "odds $command_line${sim_pid:+ against odds sim}, ${width}x${height}, ${seconds} s after ${warmup} s of warm-up ($binary)"
echo "header: ${header}"
echo "dashboard CPU: ${dash_pct} % of one core${sim_pid:+; simulator (another process): ${sim_pct} %}; dashboard RSS ${rss} MB"
if awk -v p="$dash_pct" 'BEGIN { exit !(p < 5) }'; then echo "PASS (under 5 % of a core)"; exit 0; fi
echo "FAIL (5 % of a core or more)"
exit 1
