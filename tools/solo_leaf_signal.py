"""What a solo Starving Artists position tells of a strong player's win, beyond
the search's own playouts from it.

    python tools/solo_leaf_signal.py JOURNAL [JOURNAL ...] --every 25 --playouts 16

Reads `easel bound` journals and `easel arena` records of
`starving_artists(players=1)` (tools/solo_game_shape.py reads the same; the
clairvoyant's games are skipped, its play knows the draws), replays every game
and, at every `--every`-th decision with a choice, plays `--playouts` games of
the rollout policy from that position as the search's playouts play them
(greedy, every chance event `search.clairvoyant.chance_outcome`). Each kept
position has three playout readings (the mean utility the search would back
up, with the game's default `loss_weight` and `loss_power`; the playouts' win
share; their mean stars) and the position's features
(tools/solo_outcome_spread.py), and is labelled with the recorded game's
result: did the strong player who reached it win?

It fits that result by logistic regression (scipy) on the readings, on the
features, and on both, holding out every fifth game, and prints the held-out
log loss and the area under the ROC curve by stage (canvases left). Where
the features add nothing to the playouts, an evaluation fitted to strong
players' games has nothing to tell the search that its playouts do not
already (docs/starving-artists-solo.md, "What strong games say of a
position").

A tool on top of the layers (docs/design.md): it reads states through the
Python API only, against an installed Easel or a clone built in place with
PYTHONPATH=. .
"""
from __future__ import annotations

import argparse
import json
import random
import sys

import numpy as np
from scipy import optimize, stats

from easel import engine
from easel.search import params
from easel.search.clairvoyant import chance_outcome

from solo_game_shape import GAME, actions_of, player_of
from solo_outcome_spread import FEATURES, features

HOLD_OUT = 5
READINGS = ("playout utility", "playout win share", "playout stars")
STAGES = (("12 or more canvases left", 12, 99), ("6-11 left", 6, 12), ("fewer than 6 left", 0, 6))


def utility(ret: float, loss_span: float, weight: float, power: float) -> float:
    """The search's utility of a solo return (search/_mcts.pyx `_utilities`):
    a win its return, a loss -1 + weight * progress ** power, at most 1."""
    if ret >= 0.0 or weight == 0.0:
        return ret
    progress = (ret + 1.0) / loss_span
    return min(-1.0 + weight * progress ** power, 1.0)


def playouts(state, rng: random.Random, n: int, shape: tuple) -> list[float]:
    """The three playout readings of `state`, from n rollout-policy games."""
    u = w = s = 0.0
    for _ in range(n):
        p = state.clone()
        while not p.is_terminal():
            if p.is_chance_node():
                p.apply_action(chance_outcome(p, rng.random()))
            else:
                p.apply_action(p.rollout_action(rng.uniform(0.05, 1.0), rng.random()))
        ret = float(p.returns()[0])
        u += utility(ret, *shape)
        w += ret >= 0.0
        s += p.to_json()["studios"][0]["stars"]
    return [u / n, w / n, s / n]


def positions(records, every: int, n: int, seed: int):
    """Rows of (game number, won, readings..., features...) of the kept positions."""
    game = engine.load_game(GAME)
    o = params.resolve_search(game, {})
    shape = (game.loss_span(), o["loss_weight"], o["loss_power"])
    rows = []
    for g, rec in enumerate(records):
        rng = random.Random(seed * 1_000_003 + g)
        state = game.new_initial_state()
        won = float(rec["returns"][0] >= 0.0)
        decision = 0
        for action in actions_of(rec):
            if not state.is_chance_node() and len(state.legal_actions()) > 1:
                if decision % every == every // 2:
                    rows.append([g, won] + playouts(state, rng, n, shape)
                                + features(state.to_json())[1:])
                decision += 1
            state.apply_action(action)
    return np.array(rows, dtype=float)


def fit_logistic(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Weights of a logistic regression (a small ridge keeps it finite)."""
    def loss(w):
        z = x @ w
        value = np.sum(np.logaddexp(0.0, z) - y * z) + 1e-3 * w @ w
        grad = x.T @ (1.0 / (1.0 + np.exp(-z)) - y) + 2e-3 * w
        return value, grad
    return optimize.minimize(loss, np.zeros(x.shape[1]), jac=True, method="L-BFGS-B").x


def held_out(x, y, fit, test) -> tuple[float, float]:
    """Held-out log loss and area under the ROC curve of a fit on `fit`."""
    w = fit_logistic(x[fit], y[fit])
    z = x[test] @ w
    log_loss = float(np.mean(np.logaddexp(0.0, z) - y[test] * z))
    won, lost = z[y[test] == 1], z[y[test] == 0]
    auc = stats.mannwhitneyu(won, lost).statistic / (len(won) * len(lost))
    return log_loss, float(auc)


def report(rows: np.ndarray) -> str:
    g, y = rows[:, 0], rows[:, 1]
    readings, feats = rows[:, 2:2 + len(READINGS)], rows[:, 2 + len(READINGS):]
    fit, test = g % HOLD_OUT != 0, g % HOLD_OUT == 0
    left = feats[:, FEATURES.index("canvases left") - 1]
    lines = [f"{len(rows)} positions of {len(set(g))} games; the games won: {y.mean():.3f} "
             f"of the positions; held out every {HOLD_OUT}th game"]
    for name, lo, hi in STAGES:
        stage = (left >= lo) & (left < hi)
        if len(set(y[stage & fit])) < 2 or len(set(y[stage & test])) < 2:
            lines.append(f"{name}: too few positions of both results")
            continue
        sd = lambda m: (m - m[stage & fit].mean(0)) / (m[stage & fit].std(0) + 1e-12)
        one = np.ones((len(rows), 1))
        models = {"the playouts": np.hstack([one, sd(readings)]),
                  "the features": np.hstack([one, sd(feats)]),
                  "both": np.hstack([one, sd(readings), sd(feats)])}
        lines.append(f"{name}: {int(stage.sum())} positions, won {y[stage].mean():.3f}")
        base = y[stage & fit].mean()
        base_loss = -float(np.mean(y[stage & test] * np.log(base)
                                   + (1 - y[stage & test]) * np.log(1 - base)))
        lines.append(f"  {'the base rate':14s} log loss {base_loss:.4f}")
        for label, x in models.items():
            log_loss, auc = held_out(x, y, stage & fit, stage & test)
            lines.append(f"  {label:14s} log loss {log_loss:.4f}  AUC {auc:.3f}")
    return "\n".join(lines)


def read(paths) -> list[dict]:
    out = []
    for path in paths:
        with open(path, encoding="utf-8") as f:
            for n, line in enumerate(f, 1):
                if not line.strip():
                    continue
                try:
                    rec = json.loads(line)
                except json.JSONDecodeError as e:
                    raise SystemExit(f"{path}:{n}: not a JSON line ({e.msg})")
                if rec.get("game", GAME) != GAME:
                    raise SystemExit(f"{path}:{n}: a game of {rec['game']!r}, not {GAME}")
                if not player_of(rec).startswith("clairvoyant"):
                    out.append(rec)
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("journals", nargs="+", help="easel bound journals or easel arena records")
    ap.add_argument("--every", type=int, default=25, help="keep every N-th decision (default 25)")
    ap.add_argument("--playouts", type=int, default=16,
                    help="playouts a kept position (default 16)")
    ap.add_argument("--seed", type=int, default=1, help="the playouts' seed (default 1)")
    args = ap.parse_args(argv)
    for name in ("every", "playouts"):
        if not 1 <= getattr(args, name) <= 10_000:
            ap.error(f"--{name} must be from 1 to 10000, got {getattr(args, name)}")
    records = read(args.journals)
    if len(records) < 2 * HOLD_OUT:
        ap.error(f"{len(records)} games of a searching player: at least {2 * HOLD_OUT} are needed "
                 f"(every {HOLD_OUT}th is held out)")
    print(report(positions(records, args.every, args.playouts, args.seed)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
