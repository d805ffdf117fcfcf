#!/usr/bin/env bash
# Measures the resident memory (VmRSS) of `odds stream --provider tickodds` against the
# built-in simulator's firehose scenario (200 TickOdds ticks a second, all on 127.0.0.1).
#
#   Phase A (steady): stdout is read as fast as it comes, for --minutes N; RSS sampled every 5 s.
#   Phase B (stall):  stdout is a pipe nobody reads for --stall-seconds S (the writer blocks once
#                     the 64 KiB pipe buffer is full), RSS sampled every 5 s; then the pipe is
#                     drained for 10 s more and the stream is stopped.
#
# Targets: peak RSS <= 60 MB in both phases; mean RSS of the last minute within 5 % of the mean of
# the second minute (samples at 60 <= t < 120 s vs T-60 < t <= T; needs --minutes >= 3).
# MB here is 10^6 bytes (VmRSS is reported by the kernel in KiB).
#
# --provider P streams another provider, or several (`all`, or a comma list: every feed at once, each
# line naming its fused match), pointed at the same simulator.
#
# Usage: Benchmarks/memory.sh [--binary PATH] [--minutes N] [--stall-seconds S] [--provider P]
# Exit: 0 PASS, 1 FAIL, 2 usage or setup error.
set -euo pipefail

SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO_ROOT="$(cd "$SCRIPT_DIR/.." && pwd)"

BINARY=""
MINUTES=10
STALL=60
PROVIDER=tickodds
SAMPLE_EVERY=5      # seconds between RSS samples
DRAIN=10            # seconds of reading after the stall
LIMIT_MB=60         # peak target, both phases
FLAT_PCT=5          # last minute vs second minute
START_TIMEOUT=15    # seconds to wait for the simulator / the stream to come up
STOP_TIMEOUT=10     # seconds to wait for a process to exit after SIGTERM before SIGKILL

usage() {
    echo "Usage: Benchmarks/memory.sh [--binary PATH] [--minutes N] [--stall-seconds S]"
    echo "  --binary PATH        odds binary (default: .build/release/odds, else .build/debug/odds)"
    echo "  --minutes N          length of the steady phase in minutes (default: 10)"
    echo "  --stall-seconds S    how long stdout is not read in the stall phase (default: 60)"
    echo "  --provider P         the provider streamed: tickodds (default), another, all, or a comma list"
}

die() { echo "memory.sh: $*" >&2; exit 2; }

while [[ $# -gt 0 ]]; do
    case "$1" in
        --binary) [[ $# -ge 2 ]] || die "--binary needs a value"; BINARY="$2"; shift 2 ;;
        --binary=*) BINARY="${1#*=}"; shift ;;
        --minutes) [[ $# -ge 2 ]] || die "--minutes needs a value"; MINUTES="$2"; shift 2 ;;
        --minutes=*) MINUTES="${1#*=}"; shift ;;
        --stall-seconds) [[ $# -ge 2 ]] || die "--stall-seconds needs a value"; STALL="$2"; shift 2 ;;
        --stall-seconds=*) STALL="${1#*=}"; shift ;;
        --provider) [[ $# -ge 2 ]] || die "--provider needs a value"; PROVIDER="$2"; shift 2 ;;
        --provider=*) PROVIDER="${1#*=}"; shift ;;
        -h|--help) usage; exit 0 ;;
        *) usage >&2; die "unknown argument: $1" ;;
    esac
done

[[ "$MINUTES" =~ ^[0-9]+$ && "$MINUTES" -ge 1 ]] || die "--minutes must be a whole number >= 1"
[[ "$STALL" =~ ^[0-9]+$ && "$STALL" -ge 1 ]] || die "--stall-seconds must be a whole number >= 1"

if [[ -z "$BINARY" ]]; then
    if [[ -x "$REPO_ROOT/.build/release/odds" ]]; then
        BINARY="$REPO_ROOT/.build/release/odds"
    elif [[ -x "$REPO_ROOT/.build/debug/odds" ]]; then
        BINARY="$REPO_ROOT/.build/debug/odds"
    else
        die "no binary at .build/release/odds or .build/debug/odds under $REPO_ROOT (build it, or pass --binary)"
    fi
fi
[[ -x "$BINARY" ]] || die "not an executable: $BINARY"
BINARY="$(cd "$(dirname "$BINARY")" && pwd)/$(basename "$BINARY")"
BINARY_REAL="$(readlink -f "$BINARY")"
command -v python3 >/dev/null || die "python3 is needed for the line-counting reader"

# ---------------------------------------------------------------- processes and cleanup

WORK="$(mktemp -d "${TMPDIR:-/tmp}/odds-memory.XXXXXX")"
SIM_PID=""
STREAM_PID=""
READER_PID=""
CLEANED=0

# True while $1 is a live process (a zombie counts as gone).
alive() {
    local pid="$1" state
    [[ -n "$pid" && -r "/proc/$pid/stat" ]] || return 1
    state="$(awk '{ sub(/^.*\) /, ""); print $1 }' "/proc/$pid/stat" 2>/dev/null || true)"
    [[ -n "$state" && "$state" != "Z" && "$state" != "X" ]]
}

# Waits up to $2 seconds for $1 to exit; returns 1 on timeout.
wait_gone() {
    local pid="$1" limit=$(( $2 * 10 )) i=0
    while alive "$pid"; do
        (( i >= limit )) && return 1
        sleep 0.1
        i=$(( i + 1 ))
    done
    return 0
}

# SIGTERM, then SIGKILL after STOP_TIMEOUT; reaps the child and sets STOP_RC to its exit status.
# (Not to be called in a $(...) subshell: only the parent shell can reap its children.)
STOP_RC=0
stop_pid() {
    local pid="$1" rc=0
    STOP_RC=0
    [[ -n "$pid" ]] || return 0
    if alive "$pid"; then
        kill -TERM "$pid" 2>/dev/null || true
        if ! wait_gone "$pid" "$STOP_TIMEOUT"; then
            echo "memory.sh: pid $pid ignored SIGTERM for ${STOP_TIMEOUT}s; sending SIGKILL" >&2
            kill -KILL "$pid" 2>/dev/null || true
            wait_gone "$pid" 5 || true
        fi
    fi
    wait "$pid" 2>/dev/null || rc=$?
    STOP_RC=$rc
}

cleanup() {
    (( CLEANED )) && return 0
    CLEANED=1
    local pid
    for pid in "$STREAM_PID" "$READER_PID" "$SIM_PID"; do
        if [[ -n "$pid" ]]; then stop_pid "$pid" 2>/dev/null || true; fi
    done
    rm -rf "$WORK"
}
trap cleanup EXIT
trap 'echo "memory.sh: interrupted" >&2; cleanup; exit 130' INT
trap 'echo "memory.sh: terminated" >&2; cleanup; exit 143' TERM

now_us() { local t="${EPOCHREALTIME/[.,]/}"; echo "$(( 10#$t ))"; }

# Sleeps until the absolute time $1 (microseconds since the epoch).
sleep_until_us() {
    local d=$(( $1 - $(now_us) ))
    (( d > 0 )) && sleep "$(printf '%d.%06d' $(( d / 1000000 )) $(( d % 1000000 )))"
    return 0
}

rss_kb() { awk '/^VmRSS:/ { print $2; exit }' "/proc/$1/status" 2>/dev/null || true; }
kb_to_mb() { awk -v k="$1" 'BEGIN { printf "%.1f", k * 1024 / 1e6 }'; }

# A reader that counts the lines and bytes it reads (in 1 MiB reads) and keeps "<lines> <bytes>"
# up to date in the file $1 (every 0.25 s). With a delay $2 > 0 it holds stdin open without reading
# for that many seconds first, so the writer's pipe fills and blocks.
cat > "$WORK/reader.py" <<'PY'
import os, sys, time
out, delay = sys.argv[1], float(sys.argv[2])
def publish(lines, nbytes):
    tmp = out + ".tmp"
    with open(tmp, "w") as f:
        f.write("%d %d\n" % (lines, nbytes))
    os.replace(tmp, out)
publish(0, 0)
if delay > 0:
    time.sleep(delay)
lines = nbytes = 0
last = 0.0
while True:
    chunk = os.read(0, 1 << 20)
    if not chunk:
        break
    lines += chunk.count(b"\n")
    nbytes += len(chunk)
    now = time.monotonic()
    if now - last >= 0.25:
        publish(lines, nbytes)
        last = now
publish(lines, nbytes)
PY

read_count() { local c; c="$(cat "$1" 2>/dev/null || true)"; echo "${c%% *}"; }

# ---------------------------------------------------------------- simulator

SIM_ARGS=(sim --port 0 --key demo-key)
if "$BINARY" sim --help 2>&1 | grep -q -- '--scenario'; then
    SIM_ARGS+=(--scenario firehose)
    LOAD="--scenario firehose"
else
    SIM_ARGS+=(--tick 0.005)
    LOAD="--tick 0.005 (this binary has no --scenario)"
fi

"$BINARY" "${SIM_ARGS[@]}" >"$WORK/sim.out" 2>"$WORK/sim.err" </dev/null &
SIM_PID=$!

TICKODDS_URL=""
TICKODDS_WS_URL=""
deadline=$(( $(now_us) + START_TIMEOUT * 1000000 ))
while :; do
    TICKODDS_URL="$(sed -n 's/^export ODDS_TICKODDS_URL=//p' "$WORK/sim.out" | head -n 1)"
    TICKODDS_WS_URL="$(sed -n 's/^export ODDS_TICKODDS_WS_URL=//p' "$WORK/sim.out" | head -n 1)"
    [[ -n "$TICKODDS_URL" && -n "$TICKODDS_WS_URL" ]] && break
    if ! alive "$SIM_PID"; then
        cat "$WORK/sim.err" >&2 || true
        die "the simulator exited before printing its address"
    fi
    (( $(now_us) > deadline )) && { cat "$WORK/sim.err" >&2 || true; die "the simulator printed no ODDS_TICKODDS_* lines within ${START_TIMEOUT}s"; }
    sleep 0.1
done
case "$TICKODDS_URL$TICKODDS_WS_URL" in
    *127.0.0.1*127.0.0.1*) ;;
    *) die "the simulator is not on 127.0.0.1: $TICKODDS_URL $TICKODDS_WS_URL" ;;
esac

# Every provider the simulator serves, with the simulator's key, for --provider other than tickodds.
PROVIDER_ENV=()
while IFS= read -r line; do
    PROVIDER_ENV+=("${line#export }")
done < <(grep '^export ODDS_' "$WORK/sim.out" | tr -d "'")
for p in PULSESCORE BOLTODDS SPORTSAPI SPORTSAPI_V1; do PROVIDER_ENV+=("ODDS_${p}_KEY=demo-key"); done

echo "binary:    $BINARY"
echo "provider:  $PROVIDER"
echo "simulator: $LOAD on $TICKODDS_URL (pid $SIM_PID)"
echo "steady phase: ${MINUTES} min; stall phase: ${STALL} s + ${DRAIN} s drain; sample every ${SAMPLE_EVERY} s; MB = 10^6 bytes"

# ---------------------------------------------------------------- stream helpers

# Starts the reader (with delay $2) and `odds stream` writing into it through a FIFO, so that
# $STREAM_PID is the odds process itself (not a pipeline). $1 names the phase's files.
start_stream() {
    local name="$1" delay="$2" fifo="$WORK/$1.fifo" deadline
    rm -f "$fifo"
    mkfifo "$fifo"
    python3 "$WORK/reader.py" "$WORK/$name.count" "$delay" <"$fifo" &
    READER_PID=$!
    env -u ODDS_SPORT -u ODDS_ODDS_FORMAT -u ODDS_PROVIDER -u ODDS_MAX_FRAME_MB -u ODDS_DEMO_SEED -u ODDS_DEMO_TICK \
        ODDS_CONFIG=/nonexistent-dir/x.toml XDG_CONFIG_HOME="$WORK/xdg" \
        ODDS_TICKODDS_KEY=demo-key ODDS_TICKODDS_URL="$TICKODDS_URL" ODDS_TICKODDS_WS_URL="$TICKODDS_WS_URL" \
        "${PROVIDER_ENV[@]}" \
        "$BINARY" stream --provider "$PROVIDER" --ndjson >"$fifo" 2>"$WORK/$name.err" </dev/null &
    STREAM_PID=$!
    # Until both ends of the FIFO are open the child is still a shell, not odds: wait for the exec.
    deadline=$(( $(now_us) + START_TIMEOUT * 1000000 ))
    local exe
    while exe="$(readlink "/proc/$STREAM_PID/exe" 2>/dev/null || true)"; \
          [[ "$exe" != "$BINARY_REAL" && "$exe" != "$BINARY_REAL (deleted)" ]]; do
        alive "$STREAM_PID" || { cat "$WORK/$name.err" >&2 || true; die "odds stream ($name) exited at start"; }
        (( $(now_us) > deadline )) && die "odds stream ($name) did not start within ${START_TIMEOUT}s"
        sleep 0.05
    done
}

# Stops the stream and then its reader; prints the stream's stderr summary.
finish_stream() {
    local name="$1" rc
    stop_pid "$STREAM_PID"
    rc=$STOP_RC
    STREAM_PID=""
    # The reader sees EOF once the stream is gone; give it a moment before forcing it.
    wait_gone "$READER_PID" 5 || true
    stop_pid "$READER_PID"
    READER_PID=""
    echo "  stream exit status after SIGTERM: $rc; stderr: $(tail -n 3 "$WORK/$name.err" | tr '\n' ' ')"
}

# Takes one sample: prints and appends "t rss_kb lines" to $WORK/$name.samples. Returns 1 if the
# stream has died, 2 if the simulator has (the measurement is then meaningless).
SIM_DIED=0
sample() {
    local name="$1" t="$2" tag="$3" kb lines sim_kb
    if ! alive "$SIM_PID"; then
        SIM_DIED=1
        echo "  t=${t}s the simulator exited unexpectedly; its stderr begins:" >&2
        head -n 5 "$WORK/sim.err" | sed 's/^/    /' >&2 || true
        return 2
    fi
    if ! alive "$STREAM_PID"; then
        echo "  t=${t}s odds stream exited unexpectedly; stderr:" >&2
        tail -n 20 "$WORK/$name.err" >&2 || true
        return 1
    fi
    kb="$(rss_kb "$STREAM_PID")"
    [[ -n "$kb" ]] || { echo "  t=${t}s could not read /proc/$STREAM_PID/status" >&2; return 1; }
    lines="$(read_count "$WORK/$name.count")"
    sim_kb="$(rss_kb "$SIM_PID")"
    echo "$t $kb ${lines:-0} $tag" >>"$WORK/$name.samples"
    printf '  t=%ss rss=%sMB lines=%s%s  (sim rss=%sMB)\n' "$t" "$(kb_to_mb "$kb")" "${lines:-0}" \
        "${tag:+ [$tag]}" "$(kb_to_mb "${sim_kb:-0}")"
}

FAILURES=()

# ---------------------------------------------------------------- phase A: steady

echo
echo "phase A (steady, stdout read continuously): ${MINUTES} min"
TOTAL=$(( MINUTES * 60 ))
start_stream steady 0
t0=$(now_us)
: >"$WORK/steady.samples"
A_OK=1
for (( t = SAMPLE_EVERY; t <= TOTAL; t += SAMPLE_EVERY )); do
    sleep_until_us $(( t0 + t * 1000000 ))
    rc=0; sample steady "$t" "" || rc=$?
    if (( rc == 2 )); then A_OK=0; FAILURES+=("phase A: the simulator died at t=${t}s (measurement invalid)"); break; fi
    if (( rc != 0 )); then A_OK=0; FAILURES+=("phase A: odds stream exited at t=${t}s"); break; fi
done
finish_stream steady
A_LINES="$(read_count "$WORK/steady.count")"
if (( A_OK )) && [[ "${A_LINES:-0}" -eq 0 ]]; then
    FAILURES+=("phase A: odds stream wrote no lines (did it connect?)")
fi

# ---------------------------------------------------------------- phase B: stall

echo
echo "phase B (stdout not read for ${STALL} s, then read for ${DRAIN} s)"
: >"$WORK/stall.samples"
B_OK=0
B_LINES=0
B_LINES_FINAL=0
if (( SIM_DIED )) || ! alive "$SIM_PID"; then
    echo "  skipped: the simulator is not running"
    (( SIM_DIED )) || FAILURES+=("phase B: the simulator died before the stall phase (measurement invalid)")
else
start_stream stall "$STALL"
t0=$(now_us)
: >"$WORK/stall.samples"
B_OK=1
B_END=$(( STALL + DRAIN ))
for (( t = SAMPLE_EVERY; t <= B_END; t += SAMPLE_EVERY )); do
    sleep_until_us $(( t0 + t * 1000000 ))
    tag="stalled"
    (( t > STALL )) && tag="draining"
    rc=0; sample stall "$t" "$tag" || rc=$?
    if (( rc == 2 )); then B_OK=0; FAILURES+=("phase B: the simulator died at t=${t}s (measurement invalid)"); break; fi
    if (( rc != 0 )); then B_OK=0; FAILURES+=("phase B: odds stream exited at t=${t}s"); break; fi
done
# The last sample may fall short of STALL + DRAIN when DRAIN is not a multiple of SAMPLE_EVERY.
sleep_until_us $(( t0 + B_END * 1000000 ))
B_LINES="$(read_count "$WORK/stall.count")"
finish_stream stall
B_LINES_FINAL="$(read_count "$WORK/stall.count")"
fi

# ---------------------------------------------------------------- summary

stats() {   # file lo hi -> "count mean max" of rss_kb for lo <= t < hi (lo/hi in seconds)
    awk -v lo="$2" -v hi="$3" '$1 >= lo && $1 < hi { n++; s += $2; if ($2 > m) m = $2 }
        END { if (n) printf "%d %.1f %d\n", n, s / n, m; else print "0 0 0" }' "$1"
}

echo
echo "summary (MB = 10^6 bytes)"
read -r a_n _ a_max < <(stats "$WORK/steady.samples" 0 1000000000)
read -r s_n _ s_max < <(stats "$WORK/stall.samples" 0 $(( STALL + 1 )))
read -r d_n _ d_max < <(stats "$WORK/stall.samples" $(( STALL + 1 )) 1000000000)
b_max=$(( s_max > d_max ? s_max : d_max ))
a_last_t="$(awk '{ t = $1 } END { print t + 0 }' "$WORK/steady.samples")"
a_rate="$(awk -v l="${A_LINES:-0}" -v s="$a_last_t" 'BEGIN { printf "%.0f", (s > 0 ? l / s : 0) }')"

if (( a_n > 0 )); then
    echo "  phase A peak RSS:            $(kb_to_mb "$a_max") MB over $a_n samples; ${A_LINES:-0} lines read (~${a_rate}/s)"
    (( a_max * 1024 > LIMIT_MB * 1000000 )) && FAILURES+=("phase A peak $(kb_to_mb "$a_max") MB > ${LIMIT_MB} MB")
else
    echo "  phase A peak RSS:            no samples"
fi

if (( MINUTES >= 3 )); then
    # Second minute: 60 <= t < 120. Last minute: TOTAL-60 < t <= TOTAL (the same number of samples).
    read -r m2_n m2_mean _ < <(stats "$WORK/steady.samples" 60 120)
    read -r ml_n ml_mean _ < <(stats "$WORK/steady.samples" $(( TOTAL - 60 + 1 )) $(( TOTAL + 1 )))
    if (( m2_n > 0 && ml_n > 0 )); then
        pct="$(awk -v a="$m2_mean" -v b="$ml_mean" 'BEGIN { printf "%+.1f", (b - a) * 100 / a }')"
        echo "  minute 2 mean RSS:           $(kb_to_mb "$m2_mean") MB ($m2_n samples, 60 <= t < 120 s)"
        echo "  last minute mean RSS:        $(kb_to_mb "$ml_mean") MB ($ml_n samples, $(( TOTAL - 60 )) < t <= $TOTAL s); ${pct} % vs minute 2"
        if awk -v p="$pct" -v lim="$FLAT_PCT" 'BEGIN { exit !((p < 0 ? -p : p) > lim) }'; then
            FAILURES+=("last-minute mean differs from minute 2 by ${pct} % (limit ±${FLAT_PCT} %)")
        fi
    else
        echo "  flatness:                    no samples (stream died early)"
    fi
else
    echo "  flatness (minute 2 vs last): n/a (run ≥ 3 minutes)"
fi

if (( s_n > 0 )); then
    echo "  phase B peak RSS (stalled):  $(kb_to_mb "$s_max") MB over $s_n samples (0 < t <= ${STALL} s)"
    if (( d_n > 0 )); then
        echo "  phase B peak RSS (draining): $(kb_to_mb "$d_max") MB over $d_n samples; ${B_LINES_FINAL:-0} lines read after the stall"
    fi
    (( b_max * 1024 > LIMIT_MB * 1000000 )) && FAILURES+=("phase B peak $(kb_to_mb "$b_max") MB > ${LIMIT_MB} MB")
    if (( B_OK )) && [[ "${B_LINES:-0}" -eq 0 ]]; then
        echo "  warning: the stream wrote no lines in the ${DRAIN} s after the stall"
    fi
else
    echo "  phase B peak RSS:            no samples"
fi

echo
if (( ${#FAILURES[@]} == 0 )); then
    echo "PASS (peak <= ${LIMIT_MB} MB in both phases; flatness $( (( MINUTES >= 3 )) && echo "within ±${FLAT_PCT} %" || echo "n/a"))"
    exit 0
fi
echo "FAIL"
for f in "${FAILURES[@]}"; do echo "  - $f"; done
exit 1
