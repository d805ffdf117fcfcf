#!/usr/bin/env bash
# The dashboard's memory when it opens a long match's history: `odds dash --replay` of a one-match TickOdds
# recording (the match `bench-target`), in a real terminal (tmux), with `--history DB` and with `--no-history`;
# Enter opens the match's detail pane, which with a history reads what the history kept of it.
#
#   Benchmarks/history_read.py --rows 400000 --match-rows 200000 --keep /tmp/big.sqlite   # the history, once
#   Benchmarks/dash-history-memory.sh --history /tmp/big.sqlite [--binary PATH] [--runs 3]
#
# Prints the dashboard's anonymous memory (RssAnon: the heap, not the binary's pages, which the page cache
# makes vary) before and after Enter, each run with and without the history in turn, and PASS when the
# history adds under 10 MB after Enter in every run. Exit: 0 PASS, 1 FAIL, 2 a usage or setup error.
set -euo pipefail

binary=""
history=""
runs=3
while [[ $# -gt 0 ]]; do
    case "$1" in
        --binary) binary="$2"; shift 2 ;;
        --history) history="$2"; shift 2 ;;
        --runs) runs="$2"; shift 2 ;;
        *) echo "usage: $0 --history DB [--binary PATH] [--runs N]" >&2; exit 2 ;;
    esac
done
cd "$(dirname "$0")/.."
binary="${binary:-.build/release/odds}"
[[ -x "$binary" && -f "$history" ]] || { echo "needs an odds binary ($binary) and a history (--history)" >&2; exit 2; }
command -v tmux >/dev/null || { echo "needs tmux" >&2; exit 2; }

work="$(mktemp -d)"
session="odds-dash-memory-$$"
trap 'tmux kill-session -t "$session" 2>/dev/null || true; rm -rf "$work"' EXIT
mkdir -p "$work/home"
# The match the history keeps, live, priced in one market: what the dashboard shows and asks the history about.
now=$(($(date +%s) * 1000))
cat > "$work/rec.ndjson" <<EOF
{"t":$now,"feed":"tickodds/live","frame":{"type":"snapshot","count":1,"events":[{"fixtureId":"bench-target","sportName":"Soccer","league":"Bench League","home":"Target Home","away":"Target Away","score":"0-0","clock":"15:00","period":"1st Half","status":"in_progress","marketGroups":[{"name":"Fulltime Result","key":"full_time_result","industryKey":"h2h_3_way","period":"full_game","type":"simple","selections":[{"id":"bench-target:ftr:home","name":"Target Home","odds":2.14,"side":"home","team":"home","isMain":true},{"id":"bench-target:ftr:draw","name":"Draw","odds":2.86,"side":"draw","team":null,"isMain":true},{"id":"bench-target:ftr:away","name":"Target Away","odds":4.20,"side":"away","team":"away","isMain":true}]}]}]}}
EOF

anon() { awk '/RssAnon/ {print $2}' "/proc/$1/status"; }
# One run: prints "before after" in kB.
measure() {
    local args="$1"
    tmux kill-session -t "$session" 2>/dev/null || true
    tmux new-session -d -s "$session" -x 160 -y 45 \
        "exec env HOME=$work/home XDG_CONFIG_HOME=$work/home $binary dash --replay $work/rec.ndjson --speed 1 $args 2>/dev/null"
    sleep 3
    local pid before after
    pid=$(tmux list-panes -t "$session" -F '#{pane_pid}')
    before=$(anon "$pid")
    tmux send-keys -t "$session" Enter
    sleep 6
    after=$(anon "$pid")
    tmux send-keys -t "$session" q
    sleep 1
    echo "$before $after"
}

pass=1
for ((i = 1; i <= runs; i++)); do
    read -r hb ha <<<"$(measure "--history $history")"
    read -r nb na <<<"$(measure "--no-history")"
    added=$(( (ha - na) * 1024 ))
    printf 'run %d: with the history %d -> %d kB, without %d -> %d kB after Enter: the history adds %.1f MB\n' \
        "$i" "$hb" "$ha" "$nb" "$na" "$(echo "$added / 1000000" | bc -l)"
    (( added < 10000000 )) || pass=0
done
if (( pass )); then echo PASS; exit 0; else echo FAIL; exit 1; fi
