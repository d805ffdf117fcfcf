#!/usr/bin/env bash
# Key press to frame, as a person sees it: `odds dash --replay REC` in tmux, each key sent with
# `tmux send-keys` and the pane (with its attributes) read every 2 ms until it changes.
#
#   Benchmarks/dash-keys.sh --replay REC [--binary PATH] [--load 14] [--width 200] [--height 60] [KEY...]
#
# Keys default to: j j G s / Escape. Prints milliseconds per key (tmux's own delay included); a key whose
# frame does not change the pane within 2 s prints "no change". Bench recordings: Benchmarks/dash_recording.py.
# Exit: 0 done, 2 a usage or setup error. The tmux server it starts is stopped on exit.
set -euo pipefail

binary=""
replay=""
load=14
width=200
height=60
keys=()
while [[ $# -gt 0 ]]; do
    case "$1" in
        --binary) binary="$2"; shift 2 ;;
        --replay) replay="$2"; shift 2 ;;
        --load) load="$2"; shift 2 ;;
        --width) width="$2"; shift 2 ;;
        --height) height="$2"; shift 2 ;;
        --*) echo "dash-keys.sh: unknown option $1" >&2; exit 2 ;;
        *) keys+=("$1"); shift ;;
    esac
done
[[ ${#keys[@]} -gt 0 ]] || keys=(j j G s / Escape)
root="$(cd "$(dirname "$0")/.." && pwd)"
[[ -n "$binary" ]] || binary="$root/.build/release/odds"
[[ -x "$binary" ]] || { echo "dash-keys.sh: no odds binary at $binary (swift build -c release)" >&2; exit 2; }
[[ -r "$replay" ]] || { echo "dash-keys.sh: --replay REC is needed (Benchmarks/dash_recording.py writes one)" >&2; exit 2; }
command -v tmux >/dev/null || { echo "dash-keys.sh: tmux is not installed" >&2; exit 2; }

socket="odds-dash-keys-$$"
work="$(mktemp -d)"
cleanup() { tmux -L "$socket" kill-server 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT INT TERM

tmux -L "$socket" new-session -d -s dash -x "$width" -y "$height" \
    "ODDS_CONFIG=$work/none.toml LANG=C.UTF-8 TERM=xterm-256color exec \"$binary\" dash --replay \"$replay\""
sleep "$load"
pane() { tmux -L "$socket" capture-pane -e -p -t dash | sed 1d | md5sum; }
echo "odds dash --replay $replay, ${width}x${height}, keys after ${load} s ($binary)"
for key in "${keys[@]}"; do
    before="$(pane)"
    start=$(date +%s%N)
    tmux -L "$socket" send-keys -t dash "$key"
    changed=""
    for _ in $(seq 1 1000); do
        [[ "$(pane)" != "$before" ]] && { changed=1; break; }
        sleep 0.002
        (( ($(date +%s%N) - start) / 1000000 < 2000 )) || break
    done
    end=$(date +%s%N)
    if [[ -n "$changed" ]]; then echo "$key: $(( (end - start) / 1000000 )) ms"; else echo "$key: no change"; fi
    sleep 0.5
done
