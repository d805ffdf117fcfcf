#!/usr/bin/env python3
"""Writes an `odds record` file of BoltOdds' initial state for a full subscription, for
`odds-bench ingest`: GAMES games x 8 books (default 2,000 x 8, about 30 MB), sent as the docs show
(initial_state messages batched in JSON arrays), after `socket_connected`.

    python3 Benchmarks/boltodds_initial_state.py [--games N] [--per-frame N] > /tmp/bolt-initial.ndjson
    swift run -c release odds-bench ingest /tmp/bolt-initial.ndjson --repeat 5

The shape follows the docs' example (Fixtures/docs/boltodds-initial-state.json): moneyline, spread
and total lines with alternate lines, American odds as strings, some suspended ("" or null), a deep
link per outcome. Deterministic: the same arguments write the same bytes.
"""
import argparse
import json
import random

BOOKS = ["draftkings", "fanduel", "betmgm", "caesars", "ballybet", "betrivers", "espnbet", "pinnacle"]
LEAGUES = ["NBA", "NFL", "MLB", "NHL", "EPL", "La Liga", "Serie A", "Bundesliga", "ATP", "WTA"]


def american(rng):
    if rng.random() < 0.5:
        return "-%d" % rng.randint(101, 900)
    return "+%d" % rng.randint(100, 1200)


def odds(rng):
    r = rng.random()
    if r < 0.02:
        return ""
    if r < 0.04:
        return None
    return american(rng)


def outcomes(rng, home, away, book, game_id):
    out = {}
    n = 0

    def add(key, name, line, over_under, target):
        nonlocal n
        n += 1
        out[key] = {
            "odds": odds(rng),
            "link": "https://sportsbook.%s.com/event/%d?outcomes=%d" % (book, game_id, 3815533797 + n),
            "outcome_name": name,
            "outcome_line": line,
            "outcome_over_under": over_under,
            "outcome_target": target,
        }

    for team in (home, away):
        add("%s Moneyline" % team, "Moneyline", None, None, team)
    for line in ("-1.5",):
        add("%s %s Spread" % (home, line), "Spread", line, None, home)
        add("%s %s Spread" % (away, line.replace("-", "+")), "Spread", line.replace("-", "+"), None, away)
    for total in ("8.5", "9.5"):
        add("Over %s Total" % total, "Total", total, "Over", None)
        add("Under %s Total" % total, "Total", total, "Under", None)
    return out


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--per-frame", type=int, default=4000, help="initial_state messages per frame")
    args = parser.parse_args()
    rng = random.Random(20261123)
    t = 1795440000000
    print(json.dumps({"t": t, "feed": "boltodds/odds", "frame": {"action": "socket_connected"}}, separators=(",", ":")))
    messages = []
    for g in range(args.games):
        home, away = "Home Team %d" % g, "Away Team %d" % g
        league = LEAGUES[g % len(LEAGUES)]
        label = "%s vs %s, 2026-11-23, %02d" % (home, away, g % 12 + 1)
        for b, book in enumerate(BOOKS):
            game_id = 1022036000 + g * 16 + b
            messages.append({
                "timestamp": "2026-11-23T19:45:03.048958+00:00",
                "action": "initial_state",
                "data": {
                    "sport": league, "sportsbook": book, "game": label, "home_team": home, "away_team": away,
                    "info": {"id": game_id, "game": label, "when": "2026-11-23, 01:09 PM",
                             "link": "https://sportsbook.%s.com/event/%d" % (book, game_id)},
                    "outcomes": outcomes(rng, home, away, book, game_id),
                },
            })
    for i in range(0, len(messages), args.per_frame):
        t += 5
        frame = messages[i:i + args.per_frame]
        print(json.dumps({"t": t, "feed": "boltodds/odds", "frame": frame}, separators=(",", ":")))


if __name__ == "__main__":
    main()
