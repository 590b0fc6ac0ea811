"""The rating table of a level tournament, as docs/strength.md prints it.

    python tools/level_table.py RUN

RUN is the folder of a level tournament (examples/tournaments/levels-*.toml)
after `easel tournament` or `easel tournament --report RUN` wrote its
results.json. Prints, for each game of the run, one markdown row per bot,
strongest first: the level's mcts spec (from the journal's header, which
keeps what each `level(N)` bot stood for when it played), the rating with its
95% interval, the games, and the bot's mean wall seconds per searched
decision in the tournament. Then the steps the scale is read by: each level
against the level below, the rating difference and, where the two met, the
head-to-head score, its interval and the likelihood of superiority; a step
that is not positive, or a pair whose interval reaches 0.5, is marked. Last,
the scale's width: level 1 to level 10 (and the mean step), and `random` to
level 10.

A tool on top of the layers (docs/design.md): it reads the run's files only,
so it needs no game and no build.
"""
from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

LEVEL = re.compile(r"^level\s*\(?\s*(\d+)\s*\)?$")


def level_number(bot: str, spec: str) -> int | None:
    """N for a bot that is `level(N)` (by its spec, else its name). A regex,
    not search.specs.parse_spec, so that the tool needs no Easel install."""
    m = LEVEL.match(spec) or LEVEL.match(bot)
    return int(m.group(1)) if m else None


def load(run: Path) -> tuple[dict, dict]:
    """results.json and the journal header's level table of `run`."""
    res_path = run / "results.json"
    if not res_path.is_file():
        raise SystemExit(f"level_table: {res_path} not found; write it with "
                         f"`easel tournament --report {run}`")
    res = json.loads(res_path.read_text())
    levels = {}
    journal = run / "journal.jsonl"
    if journal.is_file():
        with journal.open() as f:
            head = json.loads(f.readline() or "{}")
        levels = head.get("levels") or {}
    return res, levels


def game_ratings(res: dict, game: str) -> list[dict]:
    """The ratings of `game` (a run of one game rates it overall too)."""
    return res["ratings"].get("per_game", {}).get(game) or res["ratings"]["overall"]


def _signed(x: float) -> str:
    return f"{x:+.0f}"


def rows(res: dict, levels: dict, game: str) -> list[str]:
    """The markdown rating table of `game`."""
    specs = res["config"]["bots"]
    plays = levels.get(game, {})
    seconds = res.get("timing", {}).get("seconds_per_decision", {})
    ratings = game_ratings(res, game)
    out = ["| bot | spec | Elo [95%] | games | s a decision |",
           "| --- | --- | --- | --- | --- |"]
    for r in sorted(ratings, key=lambda r: -r["elo"]):
        bot = r["bot"]
        n = level_number(bot, specs.get(bot, ""))
        name = f"level {n}" if n else f"`{bot}`"
        spec = f"`{plays[bot]}`" if bot in plays else ""
        s = seconds.get(bot)
        shown = "" if s is None else (f"{s:.2g}" if s < 0.01 else f"{s:.3g}")
        out.append(f"| {name} | {spec} | {_signed(r['elo'])} [{_signed(r['low'])}, "
                   f"{_signed(r['high'])}] | {r['games']} | {shown} |")
    return out


def _levels(res: dict, bots) -> dict[int, str]:
    """N -> the bot of `bots` that is level N."""
    specs = res["config"]["bots"]
    out = {level_number(b, specs.get(b, "")): b for b in bots}
    out.pop(None, None)
    return out


def steps(res: dict, game: str) -> list[str]:
    """Each level against the one below: rating step and head-to-head."""
    ratings = {r["bot"]: r for r in game_ratings(res, game)}
    by_level = _levels(res, ratings)
    pairs = {tuple(p["bots"]): p for p in res["pairs"] if p["game"] == game}
    out = []
    for n in sorted(by_level):
        if n - 1 not in by_level:
            continue
        lo, hi = by_level[n - 1], by_level[n]
        step = ratings[hi]["elo"] - ratings[lo]["elo"]
        line = f"level {n} over level {n - 1}: {_signed(step)} Elo"
        marks = [] if step > 0 else ["not monotone"]
        p, flip = pairs.get((hi, lo)), False
        if p is None and (lo, hi) in pairs:
            p, flip = pairs[(lo, hi)], True
        if p is not None:
            sc = p["score"]
            mean, low, high = sc["mean"], sc["low"], sc["high"]
            los = p.get("los")
            if flip:
                mean = 1 - mean
                low, high = (None, None) if low is None else (1 - high, 1 - low)
                los = None if los is None else 1 - los
            # A pair of one block (a partly played run) has no interval:
            # the report's interval is over blocks.
            interval = "" if low is None else f" [{low:.3f}, {high:.3f}]"
            line += (f"; head-to-head {mean:.3f}{interval} over {p['games']} games"
                     + ("" if los is None else f", LOS {100 * los:.1f}%"))
            if low is None:
                marks.append("one block, no interval")
            elif low <= 0.5:
                marks.append("not significant")
        else:
            marks.append("did not meet")
        out.append(line + (f"  ({', '.join(marks)})" if marks else ""))
    return out


def span(res: dict, game: str) -> list[str]:
    """How wide the scale is: the lowest level to the highest (and the mean
    step between them), and `random` (the floor a level 1 must clear) to the
    highest; docs/strength.md, "How far apart ten levels can stand"."""
    specs = res["config"]["bots"]
    ratings = {r["bot"]: r["elo"] for r in game_ratings(res, game)}
    by_level = _levels(res, ratings)
    if len(by_level) < 2:
        return []
    lo, hi = min(by_level), max(by_level)
    width = ratings[by_level[hi]] - ratings[by_level[lo]]
    out = [f"level {lo} to level {hi}: {_signed(width)} Elo, "
           f"{_signed(width / (hi - lo))} a step"]
    floor = [b for b in ratings if specs.get(b, "").replace(" ", "") in ("random", "random()")]
    if floor:
        out.append(f"random to level {hi}: {_signed(ratings[by_level[hi]] - ratings[floor[0]])} Elo")
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("run", type=Path, help="the tournament's folder (holds results.json)")
    args = ap.parse_args(argv)
    res, levels = load(args.run)
    prog = res.get("progress", {})
    for game in res["config"]["games"]:
        print(f"{res.get('name', '')} ({game}): {prog.get('games')} games in "
              f"{prog.get('blocks_counted')} of {prog.get('blocks_planned')} blocks"
              + ("" if prog.get("complete") else " (not complete)"))
        print()
        print("\n".join(rows(res, levels, game)))
        print()
        print("\n".join(steps(res, game)))
        print("\n".join(span(res, game)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
