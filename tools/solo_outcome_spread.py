"""How much of a solo Starving Artists game its position decides.

    python tools/solo_outcome_spread.py --games 5000 --seed 2

Plays the rollout policy alone (greedy, as the search's playouts play it:
every decision `state.rollout_action(u1, u2)` with u1 in [0.05, 1), every
chance event `search.clairvoyant.chance_outcome(state, u)`), keeps one
position in twenty where the player is to move, and fits the game's final
progress (the return of a loss, -1 + half the progress toward the goal; a win
counts as the goal reached, -0.5) on a few features of the position by least
squares, holding out every fifth game. It prints the share of the variance the
fit explains on the held-out games, over all positions and over those with
fewer than six canvases left: what is not explained is mostly the draws still
to come (docs/starving-artists-solo.md, "What did not close the gap").

A tool on top of the layers (docs/design.md): it reads states through the
Python API only, against an installed Easel or a clone built in place with
PYTHONPATH=. .
"""
from __future__ import annotations

import argparse
import random

import numpy as np

from easel import engine
from easel.search.clairvoyant import chance_outcome

FEATURES = ("constant", "stars", "paintings", "nutrition", "cubes", "wilds", "payday pile",
            "canvases left", "canvases held", "squares empty", "stars painted", "food painted",
            "stars x canvases left", "paintings x canvases left")
KEEP = 0.05           # share of the decisions whose position is kept
HOLD_OUT = 5          # every fifth game is held out
LATE = 6              # "late": fewer canvases left than this


def features(view) -> list[float]:
    st = view["studios"][0]
    fd = view["face_down"]
    # The canvases that can still be bought: the market and the face-down
    # canvases not set aside (RULINGS.md §32, §36).
    left = len(fd["unseen"]) - fd["set_aside"] + sum(1 for m in view["market"] if m)
    held = empty = stars_done = food_done = 0.0
    for cv in st["canvases"]:
        n = len(cv["cubes"])
        e = sum(1 for x in cv["cubes"] if x is None)
        if e:
            held += 1
            empty += e
        stars_done += cv["stars"] * (n - e) / n
        food_done += cv["food"] * (n - e) / n
    return [1.0, st["stars"], len(st["paintings"]), st["nutrition"], sum(st["cubes"].values()),
            st["cubes"]["wild"], sum(view["payday_pile"].values()), left, held, empty,
            stars_done, food_done, st["stars"] * left, len(st["paintings"]) * left]


def positions(games: int, seed: int):
    game = engine.load_game("starving_artists(players=1)")
    x, y, g = [], [], []
    for i in range(games):
        rng = random.Random(seed * 1_000_003 + i)
        state = game.new_initial_state()
        kept = []
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(chance_outcome(state, rng.random()))
                continue
            if rng.random() < KEEP:
                kept.append(features(state.to_json()))
            state.apply_action(state.rollout_action(rng.uniform(0.05, 1.0), rng.random()))
        progress = min(float(state.returns()[0]), -0.5)
        x += kept
        y += [progress] * len(kept)
        g += [i] * len(kept)
    return np.array(x), np.array(y), np.array(g)


def explained(x, y, fit, test) -> float:
    w, *_ = np.linalg.lstsq(x[fit], y[fit], rcond=None)
    residual = y[test] - x[test] @ w
    return 1.0 - float(np.mean(residual ** 2) / np.var(y[test]))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=5000)
    ap.add_argument("--seed", type=int, default=2)
    args = ap.parse_args(argv)
    if args.games < 2 * HOLD_OUT:
        ap.error(f"--games must be at least {2 * HOLD_OUT} (every {HOLD_OUT}th game is held "
                 f"out), got {args.games}")
    x, y, g = positions(args.games, args.seed)
    fit, test = g % HOLD_OUT != 0, g % HOLD_OUT == 0
    late = x[:, FEATURES.index("canvases left")] < LATE
    print(f"{len(y)} positions of {args.games} policy games; final progress "
          f"mean {y.mean():.3f}, sd {y.std():.3f} (a star is 0.025)")
    print(f"held-out variance explained: all positions {explained(x, y, fit, test):.2f}, "
          f"fewer than {LATE} canvases left {explained(x, y, fit & late, test & late):.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
