"""Fit the Starving Artists evaluation's weights to game results.

    python tools/fit_starving_artists_value.py RECORDS.jsonl [...]

A tool on top of the layers (docs/design.md): it reads the arena's records
(easel.search.records) to refit weights that live in the engine
(engine/starving_artists/policies.py), so it belongs to neither. It runs
against an installed Easel, or a clone built in place with PYTHONPATH=. .

Reads arena records (`easel arena ... --records FILE`) of games with
`--players` players (two unless told), replays each through the core, and
takes a share of the positions where a player is to move. For each it
computes every player's `value_features` (policies.py) and, for every pair
of players, whether the first finished ahead of the second. It fits a
logistic model of that pair result on the difference of the two feature
vectors (a tie counts half a win), holding out every fifth game, and prints

- the fitted weights in `position_value` units, where the evaluation reads
  a difference d as winning about 1 / (1 + exp(-2 d / VALUE_SCALE)) of the
  time (the tanh of kit.pairwise_estimate, before its confidence factor);
- the held-out log loss of the current weights for that player count
  (policies.value_weights), of the fit and of a
  constant, so that a new fit is kept only when it predicts better.

The positions of one game are not independent, so the held-out games, not
the positions, are what the comparison rests on. docs/starving-artists-value.md
says which records the current weights come from and how they were rounded.

With more than two players the pairs are what the evaluation reads too:
`evaluate` turns the players' values into returns pair by pair
(kit.pairwise_estimate), so the same weights and the same pair model apply.
"""
from __future__ import annotations

import argparse
import random
import sys

import numpy as np

from easel import engine
from easel.engine.errors import EaselError
from easel.engine.starving_artists.policies import (VALUE_FEATURES, VALUE_SCALE, value_features,
                                                    value_weights)
from easel.search.records import RecordError, read_records, validate_record

HOLD_OUT = 5          # every fifth game is held out


def positions(paths, rate: float, seed: int, players: int = 2):
    """(feature differences, results in 0..1, game numbers, records skipped)
    from the records' Starving Artists games of `players` players, a row for
    every pair of players at every position taken. Every record is
    validated; the positions are read in the same replay."""
    rng = random.Random(seed)
    cache, wanted = {}, {}
    diffs, results, game_no = [], [], []
    n_games = skipped = 0
    for path in paths:
        for line_no, record in read_records(path):
            if isinstance(record, RecordError):
                raise RecordError(f"{path}: {record}")
            taken = []

            def visit(state, player):
                if player >= 0 and rng.random() < rate:
                    view = state.to_json()
                    taken.append([value_features(view, p) for p in range(players)])

            use = _starving_artists_of(record.get("game"), players, wanted)
            try:
                validate_record(record, line_no, cache=cache, visit=visit if use else None)
            except RecordError as e:
                raise RecordError(f"{path}: {e}") from None
            if not use:
                skipped += 1
                continue
            returns = record["returns"]
            for features in taken:
                for i, j in PAIRS[players]:
                    diffs.append([x - y for x, y in zip(features[i], features[j])])
                    results.append(_ahead(returns[i], returns[j]))
                    game_no.append(n_games)
            n_games += 1
    return (np.array(diffs, dtype=float).reshape(-1, len(VALUE_FEATURES)), np.array(results),
            np.array(game_no, dtype=int), skipped)


PAIRS = {n: [(i, j) for i in range(n) for j in range(i + 1, n)] for n in range(2, 5)}


def _ahead(a: float, b: float) -> float:
    """1 if a player's return beat the other's, 0 if it lost, 1/2 on a tie."""
    return 1.0 if a > b else 0.0 if a < b else 0.5


def _starving_artists_of(spec, players: int, known: dict) -> bool:
    """Whether a record's game string is Starving Artists of `players`
    players (a string that does not load is left to validate_record to name)."""
    if not isinstance(spec, str):
        return False
    if spec not in known:
        try:
            game = engine.load_game(spec)
            known[spec] = game.name == "starving_artists" and game.num_players() == players
        except EaselError:
            known[spec] = False
    return known[spec]


def fit_logistic(x, y, l2: float = 1e-3, steps: int = 50):
    """Coefficients b of P(y) = 1 / (1 + exp(-x b)) by Newton's method, with
    an L2 penalty of l2 per position (keeps collinear features finite)."""
    n, k = x.shape
    b = np.zeros(k)
    for _ in range(steps):
        p = 1.0 / (1.0 + np.exp(-x @ b))
        hess = x.T @ (x * (p * (1.0 - p))[:, None]) + l2 * n * np.eye(k)
        step = np.linalg.solve(hess, x.T @ (p - y) + l2 * n * b)
        b -= step
        if np.max(np.abs(step)) < 1e-10:
            break
    return b


def log_loss(p, y) -> float:
    p = np.clip(p, 1e-9, 1.0 - 1e-9)
    return float(-np.mean(y * np.log(p) + (1.0 - y) * np.log(1.0 - p)))


def to_units(b):
    """Logistic coefficients as position_value weights (see the module text)."""
    return b * VALUE_SCALE / 2.0


def from_units(w):
    return np.asarray(w, dtype=float) * 2.0 / VALUE_SCALE


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(
        prog="fit_starving_artists_value.py",
        description="Fit the Starving Artists evaluation's weights to the results of recorded "
                    "games.")
    ap.add_argument("records", nargs="+", help="arena record files (JSON lines)")
    ap.add_argument("--rate", type=float, default=0.12,
                    help="share of decision points taken as positions (default 0.12)")
    ap.add_argument("--seed", type=int, default=1, help="seed of the position sampling")
    ap.add_argument("--l2", type=float, default=1e-3, help="L2 penalty per position (default 0.001)")
    ap.add_argument("--players", type=int, default=2,
                    help="players of the games read, 2 to 4 (default 2); others are skipped")
    args = ap.parse_args(argv)
    if not 0.0 < args.rate <= 1.0:
        ap.error(f"--rate must be in (0, 1], got {args.rate}")
    if args.l2 < 0.0:
        ap.error(f"--l2 must be at least 0, got {args.l2}")
    if args.players not in PAIRS:
        ap.error(f"--players must be 2, 3 or 4 (the evaluation compares players), "
                 f"got {args.players}")
    try:
        x, y, g, skipped = positions(args.records, args.rate, args.seed, args.players)
    except (OSError, EaselError) as e:
        print(f"fit_value: {e}", file=sys.stderr)
        return 2
    n_games = len(set(g.tolist()))
    pairs = len(PAIRS[args.players])
    print(f"{len(y) // pairs} positions ({len(y)} player pairs) from {n_games} "
          f"{args.players}-player games ({skipped} other records skipped)")
    test = g % HOLD_OUT == 0
    train = ~test
    if n_games < 2 * HOLD_OUT or len(set(y[train].tolist())) < 2:
        print("fit_value: too few games, or no game lost and won, to fit and hold out", file=sys.stderr)
        return 2
    b = fit_logistic(x[train], y[train], args.l2)
    weights = value_weights(args.players)
    current = from_units(weights)
    base = np.full(int(test.sum()), y[train].mean())
    print(f"held-out log loss ({int(test.sum())} player pairs of every {HOLD_OUT}th game): "
          f"current {log_loss(1 / (1 + np.exp(-x[test] @ current)), y[test]):.4f}, "
          f"fit {log_loss(1 / (1 + np.exp(-x[test] @ b)), y[test]):.4f}, "
          f"constant {log_loss(base, y[test]):.4f}")
    full = to_units(fit_logistic(x, y, args.l2))
    print(f"{'feature':<18}{'fit (all games)':>16}{'current':>10}")
    for name, w, c in zip(VALUE_FEATURES, full, weights):
        print(f"{name:<18}{w:>16.2f}{c:>10.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
