"""Tournament statistics from game records.

Per game and seat: the win share (1 for the sole best return, 1/k in a k-way
tie for best, else 0), the rank (1 is best; tied seats share the mean of the
ranks they cover) and the score margin (the seat's score minus the best other
score; from the game's scores when it keeps them, else from the returns).

Games come in duplicate blocks (the same chance outcomes, every seat
rotation), so games within a block are not independent, but blocks are. Each
interval is therefore a Student-t 95% interval over per-block means: for each
block, the bot's mean over the seats it held in that block's games. Paired
this way, the luck of the draw cancels within a block and the interval is
narrower for it. With fewer than two blocks there is no interval (None).
When every block sits at a bound (all won, say), a t interval would have no
width; the exact binomial bound for n out of n is used instead.

The Elo difference of a two-bot run comes from the head-to-head score: in
each game, the share of (bot A seat, bot B seat) pairs that A's seat beat,
ties counting half. Elo = 400 log10(s / (1 - s)); its interval is the score
interval mapped through the same (monotone) function; a score of 0 or 1 has
an infinite Elo, reported as +-ELO_CAP. LOS, the likelihood of
superiority, is the probability that the true score exceeds 1/2 under the
interval's own distribution (Student's t over the block means; for blocks
all won or all lost, the exact binomial one, 1 - 2^-n or 2^-n), so that it
never contradicts the interval: LOS is above 97.5% exactly when the interval
lies above 1/2, and below 2.5% exactly when it lies below.
Every pair of bots that met gets the same head-to-head figures; with more
than two bots, `ratings` fits one Elo scale to all of them (Bradley-Terry)
with intervals from a bootstrap over blocks.
"""
from __future__ import annotations

import math
from collections import defaultdict

_EPS = 1e-9
ELO_CAP = 1200.0     # the Elo of a score of 0 or 1 is infinite; report this instead


def seat_outcomes(returns, scores=None):
    """[(win share, rank, margin)] per seat for one finished game.

    A solo game has nobody to beat: there the "win" is reaching the game's
    goal, which a one-player game's returns mark by being >= 0 (Van Gogh's
    solo utility is >= 0 exactly from 100 points)."""
    n = len(returns)
    margins_from = scores if scores is not None else returns
    if n == 1:          # the margin over nobody is the score itself
        return [(1.0 if returns[0] >= -_EPS else 0.0, 1.0, float(margins_from[0]))]
    out = []
    for s in range(n):
        greater = sum(1 for q in range(n) if returns[q] > returns[s] + _EPS)
        tied = sum(1 for q in range(n) if abs(returns[q] - returns[s]) <= _EPS)
        share = 1.0 / tied if greater == 0 else 0.0
        rank = greater + (tied + 1) / 2.0
        others = [margins_from[q] for q in range(n) if q != s]
        margin = float(margins_from[s]) - (max(others) if others else 0.0)
        out.append((share, rank, margin))
    return out


def interval(samples, bounds=None, confidence=0.95):
    """{"mean", "low", "high", "n"}: a t interval over independent samples."""
    n = len(samples)
    if n == 0:
        return {"mean": None, "low": None, "high": None, "n": 0}
    mean = sum(samples) / n
    if n < 2:
        return {"mean": mean, "low": None, "high": None, "n": n}
    var = sum((x - mean) ** 2 for x in samples) / (n - 1)
    if var == 0.0 and bounds is not None and mean in bounds:
        # Every block at a bound (say, all won): a t interval would have no
        # width; use the exact binomial bound for n successes out of n.
        reach = (1.0 - 0.025 ** (1.0 / n)) * (bounds[1] - bounds[0])
        low, high = (mean - reach, mean) if mean == bounds[1] else (mean, mean + reach)
        return {"mean": mean, "low": low, "high": high, "n": n}
    from scipy.special import stdtrit          # Student's t quantile (lighter than scipy.stats)
    half = float(stdtrit(n - 1, 0.5 + confidence / 2.0)) * math.sqrt(var / n)
    low, high = mean - half, mean + half
    if bounds is not None:
        low, high = max(bounds[0], low), min(bounds[1], high)
    return {"mean": mean, "low": low, "high": high, "n": n}


def los(means, score=None):
    """The likelihood of superiority (see the module's docstring) from the
    block means of a head-to-head score in [0, 1]; None with fewer than two
    blocks. `score`: their interval(means, bounds=(0, 1)), if at hand."""
    n = len(means)
    if n < 2:
        return None
    m = (score or interval(means, bounds=(0.0, 1.0)))["mean"]
    sd = math.sqrt(sum((x - m) ** 2 for x in means) / (n - 1))
    if sd == 0.0:
        if m in (0.0, 1.0):     # the interval is the exact binomial bound: so is this
            return 1.0 - 0.5 ** n if m == 1.0 else 0.5 ** n
        return 1.0 if m > 0.5 else 0.0 if m < 0.5 else 0.5
    from scipy.special import stdtr          # Student's t distribution function
    return float(stdtr(n - 1, (m - 0.5) / (sd / math.sqrt(n))))


def elo_of(score):
    if score is None:
        return None
    if score <= 0.0:
        return -ELO_CAP
    if score >= 1.0:
        return ELO_CAP
    return max(-ELO_CAP, min(ELO_CAP, 400.0 * math.log10(score / (1.0 - score))))


def head_score(rec, a: int, b: int):
    """Bot a's score against bot b in one game record: the share of (a's
    seat, b's seat) pairs in which a's seat did better, ties counting half;
    None when they did not both play."""
    r = rec["returns"]
    pairs = [(x, y) for x, ex in enumerate(rec["seats"]) if ex["bot"] == a
             for y, ey in enumerate(rec["seats"]) if ey["bot"] == b]
    if not pairs:
        return None
    return sum(1.0 if r[x] > r[y] + _EPS else 0.5 if abs(r[x] - r[y]) <= _EPS else 0.0
               for x, y in pairs) / len(pairs)


def summarize(records, labels, num_players):
    """The arena's statistics (a JSON-ready dict) from finished game records.

    labels: one display name per bot, in bot order."""
    k = len(labels)
    # bot -> block -> list of per-seat values
    per_bot = [defaultdict(lambda: defaultdict(list)) for _ in range(k)]
    per_seat = [defaultdict(list) for _ in range(num_players)]          # seat -> block -> shares
    bot_seat = [[[0, 0.0] for _ in range(num_players)] for _ in range(k)]   # games, share sum
    think = [[0.0, 0] for _ in range(k)]                                 # seconds, decisions
    head = defaultdict(lambda: defaultdict(list))    # (a, b), a < b -> block -> a's scores
    lengths, draws = [], 0
    for rec in records:
        outcomes = seat_outcomes(rec["returns"], rec.get("scores"))
        block = rec["block"]
        lengths.append(rec.get("decisions", len(rec["steps"])))
        if sum(1 for o in outcomes if o[0] > 0) > 1:
            draws += 1
        for seat, (share, rank, margin) in enumerate(outcomes):
            b = rec["seats"][seat]["bot"]
            cell = per_bot[b][block]
            cell["win"].append(share)
            cell["rank"].append(rank)
            cell["margin"].append(margin)
            if rec.get("scores") is not None:
                cell["score"].append(float(rec["scores"][seat]))
            per_seat[seat][block].append(share)
            bot_seat[b][seat][0] += 1
            bot_seat[b][seat][1] += share
        for seat, (secs, n_dec) in enumerate(zip(rec.get("think", []),
                                                 rec.get("seat_decisions", []))):
            b = rec["seats"][seat]["bot"]
            think[b][0] += secs
            think[b][1] += n_dec
        bots_in = sorted({e["bot"] for e in rec["seats"]})
        for i, a in enumerate(bots_in):
            for b in bots_in[i + 1:]:
                head[(a, b)][block].append(head_score(rec, a, b))

    def block_means(cells, key):
        return [sum(c[key]) / len(c[key]) for _, c in sorted(cells.items()) if c[key]]

    bots = []
    for b in range(k):
        cells = per_bot[b]
        games = sum(len(c["win"]) for c in cells.values())
        bots.append({
            "bot": b,
            "label": labels[b],
            "games": games,
            "win_rate": interval(block_means(cells, "win"), bounds=(0.0, 1.0)),
            "mean_rank": interval(block_means(cells, "rank"), bounds=(1.0, float(num_players))),
            "mean_margin": interval(block_means(cells, "margin")),
            "score": _score_summary(cells),
            "seconds_per_decision": (think[b][0] / think[b][1]) if think[b][1] else None,
            "by_seat": [{"seat": s, "games": bot_seat[b][s][0],
                         "win_rate": (bot_seat[b][s][1] / bot_seat[b][s][0])
                         if bot_seat[b][s][0] else None}
                        for s in range(num_players)],
        })

    seats = []
    for s in range(num_players):
        means = [sum(v) / len(v) for _, v in sorted(per_seat[s].items()) if v]
        seats.append({"seat": s, "games": sum(len(v) for v in per_seat[s].values()),
                      "win_rate": interval(means, bounds=(0.0, 1.0))})
    fair = 1.0 / num_players
    first = seats[0]["win_rate"] if seats else None
    first_adv = None
    if first and first["mean"] is not None and num_players > 1:
        first_adv = {key: (first[key] - fair if first[key] is not None else None)
                     for key in ("mean", "low", "high")}
        first_adv["n"] = first["n"]

    h2h = [_pair_result(head[pair], labels, pair, num_players) for pair in sorted(head)]
    elo = h2h[0] if k == 2 and h2h else None

    return {
        "games": len(lengths),
        "blocks": len({rec["block"] for rec in records}),
        "bots": bots,
        "seats": seats,
        "first_player_advantage": first_adv,
        "elo": elo,
        "head_to_head": h2h,
        "ratings": ratings(head, labels) if k > 2 else None,
        "draw_rate": (draws / len(lengths)) if lengths else None,
        "mean_decisions": (sum(lengths) / len(lengths)) if lengths else None,
    }


def _pair_result(blocks, labels, pair, num_players):
    """Bot a against bot b (pair = (a, b)): a's head-to-head score over the
    block means, its Elo and LOS, and the pentanomial counts."""
    a, b = pair
    means = [sum(v) / len(v) for _, v in sorted(blocks.items()) if v]
    score = interval(means, bounds=(0.0, 1.0))
    return {"bots": [labels[a], labels[b]],
            "score": score,
            "diff": elo_of(score["mean"]),
            "low": elo_of(score["low"]),
            "high": elo_of(score["high"]),
            "los": los(means, score),
            "pairs": _pentanomial(blocks) if num_players == 2 else None}


def _bradley_terry(wins, games):
    """Elo ratings (mean 0) from k x k matrices of scores and games, by
    Hunter's (2004) MM iteration for the Bradley-Terry model. Every pair that
    met gets one extra drawn game, a weak prior that keeps a bot that won or
    lost every game at a finite rating."""
    import numpy as np
    met = games > 0
    w = wins + 0.5 * met
    n = games + met
    total = w.sum(axis=1)
    p = np.ones(len(w))
    for _ in range(500):
        denom = (n / (p[:, None] + p[None, :])).sum(axis=1)
        new = np.where(denom > 0, total / np.where(denom > 0, denom, 1.0), p)
        new /= np.exp(np.log(new).mean())
        if np.max(np.abs(new - p)) < 1e-10:
            p = new
            break
        p = new
    r = 400.0 * np.log10(p)
    return r - r.mean()


RATING_RESAMPLES = 400


def ratings(head, labels, resamples: int = RATING_RESAMPLES):
    """Ratings of every bot of a tournament: Bradley-Terry Elo (mean 0) fitted
    to all head-to-head scores, with 95% intervals from a bootstrap over
    blocks (blocks are independent; games in a block are not). Seeded: the
    same records give the same intervals."""
    import numpy as np
    k = len(labels)
    blocks = sorted({blk for per in head.values() for blk in per})
    if not blocks:
        return None
    index = {blk: i for i, blk in enumerate(blocks)}
    wins = np.zeros((len(blocks), k, k))
    games = np.zeros((len(blocks), k, k))
    for (a, b), per in head.items():
        for blk, scores in per.items():
            i = index[blk]
            wins[i, a, b] += sum(scores)
            wins[i, b, a] += len(scores) - sum(scores)
            games[i, a, b] += len(scores)
            games[i, b, a] += len(scores)
    point = _bradley_terry(wins.sum(axis=0), games.sum(axis=0))
    rng = np.random.default_rng(0)
    draws = []
    if len(blocks) >= 2:
        for _ in range(resamples):
            pick = rng.integers(0, len(blocks), len(blocks))
            draws.append(_bradley_terry(wins[pick].sum(axis=0), games[pick].sum(axis=0)))
    draws = np.array(draws)
    out = []
    for b in range(k):
        low = high = None
        if len(draws):
            low, high = (float(x) for x in np.percentile(draws[:, b], [2.5, 97.5]))
        out.append({"bot": b, "label": labels[b], "elo": float(point[b]), "low": low,
                    "high": high, "games": int(games[:, b, :].sum())})
    return out


SPRT_MIN_BLOCKS = 10       # no decision before this many complete blocks
SPRT_MIN_VARIANCE = 1e-3   # floor on the block-score variance (a run of identical blocks)


def score_of_elo(elo: float) -> float:
    """The expected score of a bot `elo` points stronger (logistic Elo)."""
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


def sprt(block_scores, elo0: float, elo1: float, alpha: float = 0.05, beta: float = 0.05):
    """A sequential probability ratio test of H0: Elo = elo0 against H1: Elo
    = elo1 on the first bot's per-block head-to-head scores (independent
    samples), as fastchess and fishtest run to stop a match once it has
    decided. The log-likelihood ratio is the generalized SPRT's normal
    approximation, n (s1 - s0) (2 mean - s0 - s1) / (2 variance), with s0,
    s1 the expected scores of elo0 and elo1. It is compared with Wald's
    bounds ln(beta / (1 - alpha)) and ln((1 - beta) / alpha); the decision
    waits for SPRT_MIN_BLOCKS blocks, and the variance has a floor, so a few
    identical blocks cannot decide alone."""
    if not elo1 > elo0:
        raise ValueError(f"SPRT needs elo1 > elo0, got elo0={elo0}, elo1={elo1}")
    for name, v in (("alpha", alpha), ("beta", beta)):
        if not 0.0 < v < 0.5:
            raise ValueError(f"SPRT {name} must be in (0, 0.5), got {v}")
    lower = math.log(beta / (1.0 - alpha))
    upper = math.log((1.0 - beta) / alpha)
    n = len(block_scores)
    llr = 0.0
    if n >= 2:
        mean = sum(block_scores) / n
        var = max(sum((x - mean) ** 2 for x in block_scores) / (n - 1), SPRT_MIN_VARIANCE)
        s0, s1 = score_of_elo(elo0), score_of_elo(elo1)
        llr = n * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * var)
    decision = None
    if n >= SPRT_MIN_BLOCKS:
        decision = "H1" if llr >= upper else "H0" if llr <= lower else None
    return {"elo0": elo0, "elo1": elo1, "alpha": alpha, "beta": beta, "llr": llr,
            "lower": lower, "upper": upper, "blocks": n, "decision": decision}


def _score_summary(cells):
    """The bot's own final scores: mean (interval over block means), median
    and quartiles over games; None when the game keeps no score."""
    scores = sorted(x for c in cells.values() for x in c["score"])
    if not scores:
        return None

    def quantile(q):
        pos = q * (len(scores) - 1)
        lo = int(math.floor(pos))
        hi = min(lo + 1, len(scores) - 1)
        return scores[lo] + (scores[hi] - scores[lo]) * (pos - lo)

    means = [sum(c["score"]) / len(c["score"]) for _, c in sorted(cells.items()) if c["score"]]
    return {"mean": interval(means), "median": quantile(0.5), "q1": quantile(0.25),
            "q3": quantile(0.75), "min": scores[0], "max": scores[-1], "n": len(scores)}


def _pentanomial(head):
    """For blocks of exactly two games: how many blocks bot A scored 0, 0.5,
    1, 1.5 and 2 in (losses-losses ... wins-wins), as fastchess reports pairs."""
    blocks = [v for v in head.values() if len(v) == 2]
    if not blocks or len(blocks) != len(head):
        return None
    counts = [0] * 5
    for v in blocks:
        counts[int(round(2 * sum(v)))] += 1
    return dict(zip(["LL", "LD", "DD_WL", "WD", "WW"], counts))
