"""How solo Starving Artists games were won and lost, read from their records.

    python tools/solo_game_shape.py JOURNAL [JOURNAL ...]
    python tools/solo_game_shape.py bound.jsonl --pair clairvoyant/32000 "mcts(iterations=77000)"

Reads `easel bound` journals and `easel arena` records of
`starving_artists(players=1)` (either form, several files at once), replays
every game to its end and prints, for each player (a bot spec, or
`clairvoyant/N` for the clairvoyant at N iterations): the games won, stars
and paintings a game, purchases and the stars a purchase, the games that
ended with a canvas still unfinished, and of the lost games how many stars
short they ended and how many that unfinished canvas would have won. With
`--pair A B` it also counts the worlds (a record's `index`) each of two
players won alone. docs/starving-artists-solo.md ("Where level 10 falls
short") reads it.

A tool on top of the layers (docs/design.md): it reads states through the
Python API only, against an installed Easel or a clone built in place with
PYTHONPATH=. .
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
from collections import Counter

from easel import engine

GAME = "starving_artists(players=1)"


def player_of(record: dict) -> str:
    """The bound journal names its player (the clairvoyant with its budget);
    an arena record names the spec of its one seat."""
    if "player" in record:
        if record["player"] == "clairvoyant":
            return f"clairvoyant/{record['iterations']}"
        return record["player"]
    return record["seats"][0]["spec"]


def actions_of(record: dict) -> list[int]:
    """A bound journal keeps the bare actions; an arena record [actor, action]."""
    return [s[1] if isinstance(s, list) else s for s in record["steps"]]


def shape(record: dict, game=None) -> dict:
    """One game replayed: its end and what it bought on the way."""
    game = game or engine.load_game(GAME)
    state = game.new_initial_state()
    held: set[str] = set()
    buys = []
    for action in actions_of(record):
        if not state.is_legal(action):
            raise ValueError(f"game {record.get('index')} of {player_of(record)}: "
                             f"action {action} is not legal at move {state.move_number()}")
        state.apply_action(action)
        canvases = state.to_json()["studios"][0]["canvases"]
        for cv in canvases:
            if cv["canvas"] not in held:
                buys.append(cv["stars"])
        held = {cv["canvas"] for cv in canvases}
    if not state.is_terminal():
        raise ValueError(f"game {record.get('index')} of {player_of(record)} does not reach "
                         f"the end")
    studio = state.to_json()["studios"][0]
    unfinished = [cv for cv in studio["canvases"] if any(c is None for c in cv["cubes"])]
    won = state.returns()[0] >= 0.0
    short = 0 if won else max(20 - studio["stars"], 0)
    return {"index": record.get("index"), "won": won, "stars": studio["stars"],
            "paintings": len(studio["paintings"]), "buys": buys,
            "unfinished": len(unfinished),
            "short": short,
            # The rules' goal is 20 stars or 10 paintings (RULINGS.md §36):
            # one more painting of that canvas's stars would have reached it.
            "would_win": (not won) and bool(unfinished) and (
                studio["stars"] + max(cv["stars"] for cv in unfinished) >= 20
                or len(studio["paintings"]) + 1 >= 10)}


def read(paths) -> dict[str, dict[int, dict]]:
    """Each player's games by world index, from every file given."""
    game = engine.load_game(GAME)
    out: dict[str, dict[int, dict]] = {}
    for path in paths:
        with open(path) as f:
            for n, line in enumerate(f, 1):
                if not line.strip():
                    continue
                record = json.loads(line)
                if record.get("game") != GAME:
                    raise ValueError(f"{path} line {n}: a game of {record.get('game')!r}, "
                                     f"not {GAME}")
                out.setdefault(player_of(record), {})[record["index"]] = shape(record, game)
    return out


def summary(games: list[dict]) -> dict:
    lost = [g for g in games if not g["won"]]
    buys = [s for g in games for s in g["buys"]]
    return {"games": len(games), "won": sum(g["won"] for g in games),
            "stars": statistics.mean(g["stars"] for g in games),
            "paintings": statistics.mean(g["paintings"] for g in games),
            "buys": len(buys) / len(games),
            "stars_a_buy": statistics.mean(buys) if buys else 0.0,
            "unfinished_at_end": sum(g["unfinished"] > 0 for g in games),
            "lost_with_unfinished": sum(g["unfinished"] > 0 for g in lost),
            "would_win": sum(g["would_win"] for g in lost),
            "short": dict(sorted(Counter(g["short"] for g in lost).items()))}


def paired(a: dict[int, dict], b: dict[int, dict]) -> Counter:
    """Worlds both players played, counted by (A won, B won)."""
    return Counter((a[i]["won"], b[i]["won"]) for i in sorted(a.keys() & b.keys()))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("files", nargs="+", metavar="JOURNAL")
    ap.add_argument("--pair", nargs=2, metavar=("A", "B"),
                    help="two players (as printed) whose common worlds to pair")
    args = ap.parse_args(argv)
    try:
        players = read(args.files)
    except (OSError, ValueError, KeyError) as e:
        print(f"solo_game_shape: {e}", file=sys.stderr)
        return 2
    for name, games in players.items():
        s = summary(list(games.values()))
        print(f"{name}: {s['won']} of {s['games']} won; {s['stars']:.2f} stars, "
              f"{s['paintings']:.2f} paintings a game; {s['buys']:.2f} purchases a game at "
              f"{s['stars_a_buy']:.2f} stars; {s['unfinished_at_end']} ended with a canvas "
              f"unfinished ({s['lost_with_unfinished']} of them lost, {s['would_win']} of "
              f"those that canvas would have won); lost games short by (stars: games) "
              f"{s['short']}")
    if args.pair:
        missing = [p for p in args.pair if p not in players]
        if missing:
            print(f"solo_game_shape: no games of {', '.join(missing)} "
                  f"(players: {', '.join(players)})", file=sys.stderr)
            return 2
        c = paired(players[args.pair[0]], players[args.pair[1]])
        a, b = args.pair
        print(f"{sum(c.values())} common worlds: both won {c[True, True]}, only {a} "
              f"{c[True, False]}, only {b} {c[False, True]}, neither {c[False, False]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
