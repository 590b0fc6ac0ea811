"""Ratings from finishing orders: Plackett-Luce with ties and a seat term.

Model. In a game of n seats, seat s holding bot b has strength
exp(theta_b + gamma_{game,s}) (gamma_{game,0} = 0). The finishing order is
drawn as in Plackett-Luce: the winner is chosen among all seats with
probability proportional to strength, then the second among the rest, and
so on. Tied seats (a shared place) follow Efron's approximation: a group G
of d seats tied at a place, with R the seats not yet placed, contributes
prod_{l<d} w_{g_l} / (sum_R w - (l/d) sum_G w). The seat term takes up the
advantage of sitting first (or last) in each game, so that it does not leak
into the bots' ratings even when a bot's seats were not balanced (a
quarantined bot's skipped blocks, a sampled field). For two seats this is
the Bradley-Terry model with a first-move term; its ratings are on the Elo
scale (400 / ln 10 per unit of theta), so that a bot 100 points above
another wins a two-player game 64% of the time.

A weak Gaussian prior (sd PRIOR_SD on theta and gamma, about 520 Elo) keeps
a bot that won or lost everything at a finite rating; fits maximize the
penalized likelihood with SciPy's L-BFGS. Ratings are shown with mean 0 over
the rated bots. Intervals: 95% percentile bootstrap over blocks (blocks are
independent, the games within one are not): the blocks are resampled with
replacement and the model refitted, from a seed, so the same journal gives
the same intervals. A resample that holds none of a bot's games gives it no
draw, and each resample is centred on the bots it holds: a bot met in few
blocks (the ends of a ladder) is rated from the resamples that saw it,
never pulled to the prior's mean by those that did not.

choix (a maintained library of Luce-model fitters) has no seat term and no
ties; the tests check that this fitter, with the seat term off and no
ties, agrees with choix.opt_rankings.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

ELO_PER_THETA = 400.0 / math.log(10.0)
PRIOR_SD = 3.0


@dataclass
class GameData:
    """The games of one game spec (one seat count), as arrays."""
    spec: str
    bots: np.ndarray       # (G, n) bot index per seat
    coef: np.ndarray       # (G, n, n) stage t's weight of seat s in the denominator
    block: np.ndarray      # (G,) block number (index into the resampled list)

    @property
    def seats(self) -> int:
        return self.bots.shape[1]


def stages(places) -> np.ndarray:
    """The (n, n) Efron coefficients of one game's places (1 = best, ties equal)."""
    n = len(places)
    order = sorted(range(n), key=lambda s: places[s])
    coef = np.zeros((n, n))
    t = 0
    while t < n:
        group = [s for s in order if places[s] == places[order[t]]]
        remaining = order[t:]
        for l in range(len(group)):
            coef[t + l, remaining] = 1.0
            coef[t + l, group] -= l / len(group)
        t += len(group)
    return coef


def game_data(spec: str, games, bot_index: dict, block_index: dict) -> GameData:
    """games: (block key, [bot name per seat], places) for one game spec."""
    n = len(games[0][1])
    bots = np.array([[bot_index[b] for b in names] for _, names, _ in games], dtype=np.int64)
    coef = np.stack([stages(places) for _, _, places in games]) if games else \
        np.zeros((0, n, n))
    block = np.array([block_index[k] for k, _, _ in games], dtype=np.int64)
    return GameData(spec, bots.reshape(-1, n), coef, block)


def _unpack(x, k, data, seat_term):
    theta = x[:k]
    gammas, pos = [], k
    for d in data:
        if seat_term:
            gammas.append(np.concatenate([[0.0], x[pos:pos + d.seats - 1]]))
            pos += d.seats - 1
        else:
            gammas.append(np.zeros(d.seats))
    return theta, gammas


def _objective(x, k, data, weights, seat_term, prior_sd):
    theta, gammas = _unpack(x, k, data, seat_term)
    value = 0.0
    g_theta = np.zeros(k)
    g_gamma = []
    for d, gamma, w_games in zip(data, gammas, weights):
        eta = theta[d.bots] + gamma[None, :]                 # (G, n)
        eta = eta - eta.max(axis=1, keepdims=True)
        w = np.exp(eta)
        denom = np.matmul(d.coef, w[:, :, None])[:, :, 0]   # (G, n)
        live = denom > 0
        logd = np.log(np.where(live, denom, 1.0))
        # every seat is chosen at exactly one stage: sum_t eta_chosen = sum_s eta_s
        value += float(np.dot(w_games, eta.sum(axis=1) - logd.sum(axis=1)))
        inv = np.where(live, 1.0 / np.where(live, denom, 1.0), 0.0)
        back = np.matmul(inv[:, None, :], d.coef)[:, 0, :]  # sum_t coef[t, s] / denom[t]
        grad_eta = w_games[:, None] * (1.0 - w * back)
        g_theta += np.bincount(d.bots.ravel(), weights=grad_eta.ravel(), minlength=k)
        g_gamma.append(grad_eta.sum(axis=0)[1:])
    if prior_sd is not None:
        value -= 0.5 * float(np.dot(x, x)) / prior_sd ** 2
    grad = np.concatenate([g_theta] + (g_gamma if seat_term else []))
    if prior_sd is not None:
        grad = grad - x / prior_sd ** 2
    return -value, -grad


def fit(data, k: int, weights=None, seat_term: bool = True, prior_sd: float | None = PRIOR_SD,
        start=None):
    """theta (k,) and gamma per game (seat 0 = 0), natural units; None weights: all 1."""
    from scipy.optimize import minimize
    if weights is None:
        weights = [np.ones(len(d.bots)) for d in data]
    size = k + (sum(d.seats - 1 for d in data) if seat_term else 0)
    x0 = np.zeros(size) if start is None else np.asarray(start, dtype=float)
    res = minimize(_objective, x0, args=(k, data, weights, seat_term, prior_sd), jac=True,
                   method="BFGS", options={"maxiter": 2000, "gtol": 1e-9})
    theta, gammas = _unpack(res.x, k, data, seat_term)
    return theta.copy(), [g.copy() for g in gammas], res.x


def _elo(theta) -> float:
    """On the Elo scale, to 0.01: finer digits are the optimizer's tolerance, not data."""
    return round(float(theta) * ELO_PER_THETA, 2) + 0.0


def _games_per_bot(data, k: int, weights=None) -> np.ndarray:
    """(k,) games each bot played in `data`, each game counted by its weight
    (a bootstrap resample's block counts; None: once)."""
    out = np.zeros(k)
    for i, d in enumerate(data):
        w = None if weights is None else np.repeat(weights[i], d.seats)
        out += np.bincount(d.bots.ravel(), weights=w, minlength=k)
    return out


def rate(data, names, n_blocks: int, bootstrap: int = 200, seed: int = 0,
         seat_term: bool = True):
    """Ratings of the bots that played in `data`, with bootstrap intervals.

    Returns {"bots": [{"bot", "elo", "low", "high", "games"}], "seats":
    {spec: [{"seat", "elo", "low", "high"}]}, "difference": f(a, b) -> {"elo",
    "low", "high"}}; Elo relative to the rated bots' mean (bots) and to seat 0
    (seats)."""
    k = len(names)
    games_of = _games_per_bot(data, k).astype(np.int64)
    rated = np.flatnonzero(games_of > 0)
    if len(rated) == 0:
        return {"bots": [], "seats": {}, "difference": None}
    theta, gammas, x = fit(data, k, seat_term=seat_term)
    point = theta - theta[rated].mean()
    draws_t, draws_g = [], []
    if bootstrap and n_blocks >= 2:
        rng = np.random.default_rng(seed)
        for _ in range(bootstrap):
            counts = np.bincount(rng.integers(0, n_blocks, n_blocks), minlength=n_blocks)
            weights = [counts[d.block].astype(float) for d in data]
            t, g, _ = fit(data, k, weights=weights, seat_term=seat_term, start=x)
            # A resample that drew none of a bot's blocks (a ladder's end
            # bots play in few) says nothing of it: its theta there is the
            # prior's. It gets no draw (NaN), and the resample is centred on
            # the bots it holds, at their point ratings' mean, so that the
            # absent bot's prior value does not shift the others either.
            games_in = _games_per_bot(data, k, weights)
            held = rated[games_in[rated] > 0]
            t = t - t[held].mean() + point[held].mean()
            t[games_in == 0] = np.nan
            draws_t.append(t)
            draws_g.append(g)

    def span(samples):
        samples = [v for v in samples if not np.isnan(v)]
        if not samples:
            return None, None
        lo, hi = np.percentile(np.array(samples), [2.5, 97.5])
        return _elo(lo), _elo(hi)

    bots = []
    for b in rated:
        low, high = span([t[b] for t in draws_t])
        bots.append({"bot": names[b], "elo": _elo(point[b]),
                     "low": low, "high": high, "games": int(games_of[b])})
    bots.sort(key=lambda r: -r["elo"])
    seats = {}
    for i, d in enumerate(data):
        rows = []
        for s in range(d.seats):
            low, high = span([g[i][s] for g in draws_g]) if s else (0.0, 0.0)
            if not draws_g:
                low = high = None if s else 0.0
            rows.append({"seat": s, "elo": _elo(gammas[i][s]),
                         "low": low, "high": high})
        seats[d.spec] = rows
    index = {n: i for i, n in enumerate(names)}

    def difference(a: str, b: str) -> dict:
        """Bot a's rating minus bot b's, with its own bootstrap interval (the two
        ratings' intervals overlap more than their difference's would say)."""
        i, j = index[a], index[b]
        low, high = span([t[i] - t[j] for t in draws_t])
        return {"elo": _elo(point[i] - point[j]), "low": low, "high": high}
    return {"bots": bots, "seats": seats, "difference": difference}
