#!/usr/bin/env python3
"""Writes an `odds record` file for the dashboard's end-to-end benchmark (`odds-bench dash --recording`):
EVENTS live events of one provider, then UPDATES price changes at RATE a second of recorded time, in the
provider's wire format as its docs show it (so that the benchmark runs the provider's own decoder).

    python3 Benchmarks/dash_recording.py --provider tickodds --events 2000 --updates 60000 --rate 1000 > tick-2000.ndjson
    python3 Benchmarks/dash_recording.py --provider boltodds --events 2000 --updates 60000 --rate 1000 > bolt-2000.ndjson
    swift run -c release odds-bench dash --recording tick-2000.ndjson --rate 1000 --seconds 60

TickOdds: a `snapshot` of every event, then `update` messages with `change: "odds"`, each carrying the
full refreshed event and the changed selection (tickodds.txt, "Server message types"). BoltOdds: the
initial state of EVENTS games x 8 books (boltodds_initial_state.py), then `line_update` messages of one
outcome of one book (boltodds.txt, "line_update"). Deterministic: the same arguments write the same bytes.
"""
import argparse
import json
import random

import boltodds_initial_state as bolt

T0 = 1795440000000
SPORTS = [("Soccer", ["Premier League", "La Liga", "Serie A", "Bundesliga", "Ligue 1", "Eredivisie"]),
          ("Basketball", ["NBA", "EuroLeague"]), ("Tennis", ["ATP", "WTA"]), ("Ice Hockey", ["NHL"])]


def line(t, feed, frame):
    return json.dumps({"t": t, "feed": feed, "frame": frame}, separators=(",", ":"))


def decimal(rng):
    return round(rng.uniform(1.05, 12.0), 2)


class Tick:
    """TickOdds events as the docs' event shape: marketGroups[] and the flat odds[]."""

    def __init__(self, rng, n):
        self.rng = rng
        self.events = [self.event(i) for i in range(n)]

    def event(self, i):
        sport, leagues = SPORTS[i % len(SPORTS)]
        fid = str(191700000 + i)
        home, away = "Home %d" % i, "Away %d" % i
        draw = sport == "Soccer"
        main = [("home", home, "home"), ("draw", "Draw", None), ("away", away, "away")] if draw else \
            [("home", home, "home"), ("away", away, "away")]
        groups = [{"name": "Fulltime Result" if draw else "Money Line", "key": "full_time_result" if draw else "money_line",
                   "industryKey": "h2h_3_way" if draw else "h2h", "period": "full_game", "type": "simple",
                   "selections": [{"id": "%s:%s:full_game:%s" % (fid, "full_time_result" if draw else "money_line", side),
                                   "name": name, "odds": decimal(self.rng), "side": side, "team": team, "isMain": True}
                                  for side, name, team in main]},
                  {"name": "Total", "key": "total", "industryKey": "totals", "period": "full_game", "type": "simple",
                   "selections": [{"id": "%s:total:full_game:%s" % (fid, side), "name": "%s 2.5" % side.title(),
                                   "odds": decimal(self.rng), "side": side, "team": None, "isMain": True, "handicap": 2.5}
                                  for side in ("over", "under")]}]
        return {"fixtureId": fid, "sportName": sport, "league": leagues[i % len(leagues)], "home": home, "away": away,
                "score": "%d-%d" % (i % 3, i % 2), "clock": "%02d:%02d" % (i % 90, i % 60), "period": "2nd Half",
                "status": "in_progress", "marketGroups": groups}

    @staticmethod
    def with_odds(event):
        e = dict(event)
        e["odds"] = [{"id": s["id"], "marketKey": g["key"], "industryKey": g["industryKey"], "period": g["period"],
                      "side": s["side"], "price": s["odds"], "groupingKey": "%s:%s" % (g["key"], g["period"])}
                     for g in event["marketGroups"] for s in g["selections"]]
        return e

    def first(self):
        return [{"type": "snapshot", "count": len(self.events), "events": [self.with_odds(e) for e in self.events]}]

    def update(self):
        e = self.rng.choice(self.events)
        g = self.rng.choice(e["marketGroups"])
        s = self.rng.choice(g["selections"])
        s["odds"] = decimal(self.rng)
        return {"type": "update", "fixtureId": e["fixtureId"], "change": "odds", "event": self.with_odds(e),
                "selection": {"id": s["id"], "name": s["name"], "odds": s["odds"], "handicap": s.get("handicap"),
                              "suspended": False},
                "marketName": g["name"]}


class Bolt:
    """BoltOdds games x 8 books, as boltodds_initial_state.py writes them; updates are line_update messages."""

    def __init__(self, rng, n):
        self.rng = rng
        self.messages = []
        for g in range(n):
            home, away = "Home Team %d" % g, "Away Team %d" % g
            league = bolt.LEAGUES[g % len(bolt.LEAGUES)]
            label = "%s vs %s, 2026-11-23, %02d" % (home, away, g % 12 + 1)
            for b, book in enumerate(bolt.BOOKS):
                game_id = 1022036000 + g * 16 + b
                self.messages.append({"timestamp": "2026-11-23T19:45:03.048958+00:00", "action": "initial_state", "data": {
                    "sport": league, "sportsbook": book, "game": label, "home_team": home, "away_team": away,
                    "info": {"id": game_id, "game": label, "when": "2026-11-23, 01:09 PM",
                             "link": "https://sportsbook.%s.com/event/%d" % (book, game_id)},
                    "outcomes": bolt.outcomes(rng, home, away, book, game_id)}})

    def first(self):
        return [self.messages[i:i + 4000] for i in range(0, len(self.messages), 4000)]

    def update(self):
        m = self.rng.choice(self.messages)["data"]
        key = self.rng.choice(sorted(m["outcomes"]))
        outcome = dict(m["outcomes"][key])
        outcome["odds"] = bolt.american(self.rng)
        data = {k: m[k] for k in ("sport", "sportsbook", "game", "home_team", "away_team", "info")}
        data["outcomes"] = {key: outcome}
        return {"timestamp": "2026-11-23T19:46:10.023175+00:00", "action": "line_update", "data": data}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--provider", choices=["tickodds", "boltodds"], required=True)
    parser.add_argument("--events", type=int, default=2000)
    parser.add_argument("--updates", type=int, default=60000)
    parser.add_argument("--rate", type=int, default=1000, help="updates per second of recorded time")
    args = parser.parse_args()
    rng = random.Random(20261125)
    if args.provider == "tickodds":
        feed, source = "tickodds/live", Tick(rng, args.events)
    else:
        feed, source = "boltodds/odds", Bolt(rng, args.events)
        print(line(T0, feed, {"action": "socket_connected"}))
    t = T0
    for frame in source.first():
        t += 5
        print(line(t, feed, frame))
    start = t
    for i in range(args.updates):
        print(line(start + 1 + i * 1000 // args.rate, feed, source.update()))


if __name__ == "__main__":
    main()
