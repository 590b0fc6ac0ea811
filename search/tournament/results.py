"""results.json: a tournament's statistics, computed from its journal alone.

The schema (`format` "easel-tournament-results-v1") is documented in
docs/tournament.md. Everything but the "timing" table is a function of the
configuration and the journaled blocks, taken in plan order, so a resumed run
and an uninterrupted one give equal results, and so do two backends.

Which blocks count: every journaled block, except in a pairing stopped by
the SPRT, where only the blocks up to the one that decided count (blocks
played past it, already under way when it decided, are journaled but left
out), so the decision does not depend on which block finished first.
"""
from __future__ import annotations

import math
from collections import Counter, defaultdict

from ..arena import derive_seed
from ..stats import elo_of, interval, los, sprt as sprt_test
from . import ratings as rating_model
from .config import TournamentConfig, to_data

RESULTS_FORMAT = "easel-tournament-results-v1"
FORFEIT_REASONS = ("raise", "illegal", "timeout")


def head(places, x: int, y: int) -> float:
    """Seat x's score against seat y from the places: 1 better, 0.5 tied, 0 worse."""
    return 1.0 if places[x] < places[y] else 0.5 if places[x] == places[y] else 0.0


def counted_blocks(cfg: TournamentConfig, tasks, blocks: dict):
    """(the counted block entries in plan order, {pairing key: sprt result and trace})."""
    by_pairing = defaultdict(list)
    for t in tasks:
        by_pairing[(t.game, tuple(n for n, _ in t.field))].append(t)
    keep, sprt_runs = set(), {}
    for key, ts in by_pairing.items():
        if cfg.sprt is None or len(key[1]) != 2:
            keep.update(t.id for t in ts if t.id in blocks)
            continue
        scores, trace, decided_at = [], [], None
        for t in sorted(ts, key=lambda t: t.block):
            entry = blocks.get(t.id)
            if entry is None:
                break                      # not played yet: the test waits for it
            keep.add(t.id)
            s = _pair_scores(entry["games"], key[1][0], key[1][1])
            if s:
                scores.append(sum(s) / len(s))
                res = sprt_test(scores, cfg.sprt.elo0, cfg.sprt.elo1, cfg.sprt.alpha,
                                cfg.sprt.beta)
                trace.append(res["llr"])
                if res["decision"]:
                    decided_at = t.block
                    break
        final = sprt_test(scores, cfg.sprt.elo0, cfg.sprt.elo1, cfg.sprt.alpha, cfg.sprt.beta)
        final["trace"] = trace
        final["decided_at_block"] = decided_at
        sprt_runs[key] = final
    return [blocks[t.id] for t in tasks if t.id in keep], sprt_runs


class SprtTracker:
    """Whether a pairing's SPRT has decided, fed its blocks as they finish (in
    any order); it tests each block once, in block order, as `counted_blocks`
    does, so the running decision equals the final one."""

    def __init__(self, cfg: TournamentConfig, pair):
        self.cfg, self.pair = cfg, pair
        self.waiting = {}            # block number -> entry, ahead of the next expected
        self.next = 0
        self.scores = []
        self.decided = False

    def add(self, entry) -> bool:
        self.waiting[entry["block"]] = entry
        while not self.decided and self.next in self.waiting:
            s = _pair_scores(self.waiting.pop(self.next)["games"], *self.pair)
            self.next += 1
            if s:
                self.scores.append(sum(s) / len(s))
                c = self.cfg.sprt
                self.decided = sprt_test(self.scores, c.elo0, c.elo1, c.alpha,
                                         c.beta)["decision"] is not None
        return self.decided


def _pair_scores(games, a: str, b: str) -> list:
    out = []
    for rec in games:
        names = [s["bot"] for s in rec["seats"]]
        if a in names and b in names:
            out.append(head(rec["places"], names.index(a), names.index(b)))
    return out


def _pentanomial(block_scores_2):
    """Blocks of two games: how many scored 0, 0.5, 1, 1.5, 2 for the first bot."""
    counts = [0] * 5
    for v in block_scores_2:
        counts[int(round(2 * sum(v)))] += 1
    return dict(zip(["LL", "LD", "DD_WL", "WD", "WW"], counts))


def _summary(values):
    if not values:
        return None
    v = sorted(values)

    def q(p):
        pos = p * (len(v) - 1)
        lo = int(math.floor(pos))
        hi = min(lo + 1, len(v) - 1)
        return v[lo] + (v[hi] - v[lo]) * (pos - lo)
    return {"n": len(v), "mean": sum(v) / len(v), "min": v[0], "q1": q(0.25),
            "median": q(0.5), "q3": q(0.75), "max": v[-1]}


def _r(x, digits=6):
    return None if x is None else round(float(x), digits)


def _clean(obj):
    """Round floats so that the JSON is stable across platforms' last bits."""
    if isinstance(obj, float):
        return round(obj, 6)
    if isinstance(obj, dict):
        return {k: _clean(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [_clean(v) for v in obj]
    return obj


def compute(cfg: TournamentConfig, tasks, journal_events) -> dict:
    blocks = {}
    for e in journal_events:
        if e.get("type") == "block" and e["id"] not in blocks:
            blocks[e["id"]] = e
    counted, sprt_runs = counted_blocks(cfg, tasks, blocks)
    names = list(cfg.bots)
    index = {n: i for i, n in enumerate(names)}
    block_keys = [e["id"] for e in counted]
    block_index = {k: i for i, k in enumerate(block_keys)}

    per_game = {g: [] for g in cfg.games}          # spec -> (block id, names, places)
    recs_by_game = defaultdict(list)
    for e in counted:
        for rec in e["games"]:
            per_game[e["game"]].append((e["id"], [s["bot"] for s in rec["seats"]],
                                        rec["places"]))
            recs_by_game[e["game"]].append((e["id"], rec))

    data = [rating_model.game_data(g, per_game[g], index, block_index)
            for g in cfg.games if per_game[g]]
    seed = derive_seed(cfg.seed, "bootstrap")
    overall = rating_model.rate(data, names, len(block_keys), cfg.bootstrap, seed)
    by_game = {}
    for d in data:
        ids = sorted({int(b) for b in d.block})
        remap = {b: i for i, b in enumerate(ids)}
        import numpy as np
        d2 = rating_model.GameData(d.spec, d.bots, d.coef,
                                   np.array([remap[int(b)] for b in d.block], dtype=np.int64))
        by_game[d.spec] = rating_model.rate([d2], names, len(ids), cfg.bootstrap, seed)

    # -- per bot and game: outcomes, places, points, forfeits --------------------------
    bots_out = []
    faults = {n: Counter() for n in names}
    end_reasons = {g: Counter() for g in cfg.games}
    for g in cfg.games:
        per_bot_block = {n: defaultdict(list) for n in names}
        place_sum = {n: [0.0, 0] for n in names}
        points = {n: [] for n in names}
        seat_wins = defaultdict(lambda: defaultdict(list))     # seat -> block -> win share
        for bid, rec in recs_by_game[g]:
            places = rec["places"]
            best = [s for s, p in enumerate(places) if p == 1]
            end_reasons[g]["normal" if rec["end"] == "normal"
                           else f"forfeit:{rec['fault']['reason']}"] += 1
            if rec["end"] != "normal":
                faults[rec["fault"]["bot"]][rec["fault"]["reason"]] += 1
            for s, seat in enumerate(rec["seats"]):
                share = (1.0 / len(best)) if s in best else 0.0
                per_bot_block[seat["bot"]][bid].append(share)
                place_sum[seat["bot"]][0] += places[s]
                place_sum[seat["bot"]][1] += 1
                seat_wins[s][bid].append(share)
                if rec.get("scores") is not None:
                    points[seat["bot"]].append(float(rec["scores"][s]))
        for n in names:
            if not place_sum[n][1]:
                continue
            means = [sum(v) / len(v) for _, v in sorted(per_bot_block[n].items(),
                                                        key=lambda kv: block_index[kv[0]])]
            bots_out.append({"game": g, "bot": n, "games": place_sum[n][1],
                             "win_share": interval(means, bounds=(0.0, 1.0)),
                             "mean_place": place_sum[n][0] / place_sum[n][1],
                             "points": _summary(points[n]), "points_values": points[n]})
        rows = by_game.get(g, {}).get("seats", {}).get(g, [])
        seat_rows = []
        for s in sorted(seat_wins):
            means = [sum(v) / len(v) for _, v in sorted(seat_wins[s].items(),
                                                        key=lambda kv: block_index[kv[0]])]
            term = rows[s] if s < len(rows) else {}
            seat_rows.append({"seat": s, "win_share": interval(means, bounds=(0.0, 1.0)),
                              "elo": term.get("elo"), "low": term.get("low"),
                              "high": term.get("high")})
        if seat_rows:
            overall.setdefault("seat_table", {})[g] = seat_rows

    # -- pairs: head-to-head per game, Elo/LOS/pentanomial/SPRT for two players --------
    pairs = []
    matrix = {a: {b: [0.0, 0] for b in names} for a in names}
    for g in cfg.games:
        pair_blocks = defaultdict(lambda: defaultdict(list))
        for bid, rec in recs_by_game[g]:
            seat_names = [s["bot"] for s in rec["seats"]]
            for x, a in enumerate(seat_names):
                for y, b in enumerate(seat_names):
                    if x != y:
                        sc = head(rec["places"], x, y)
                        matrix[a][b][0] += sc
                        matrix[a][b][1] += 1
                        if index[a] < index[b]:
                            pair_blocks[(a, b)][bid].append(sc)
        for (a, b), per in sorted(pair_blocks.items(), key=lambda kv: (index[kv[0][0]],
                                                                       index[kv[0][1]])):
            ordered = [per[k] for k in sorted(per, key=lambda k: block_index[k])]
            means = [sum(v) / len(v) for v in ordered]
            score = interval(means, bounds=(0.0, 1.0))
            two = all(len(v) == 2 for v in ordered) and ordered
            run = sprt_runs.get((g, (a, b)))
            diff = by_game[g]["difference"](a, b)
            pairs.append({"game": g, "bots": [a, b], "games": sum(len(v) for v in ordered),
                          "blocks": len(ordered), "score": score,
                          "elo": elo_of(score["mean"]), "low": elo_of(score["low"]),
                          "high": elo_of(score["high"]), "los": los(means, score),
                          "pentanomial": _pentanomial(ordered) if two else None,
                          "rating_difference": diff,
                          "sprt": run})

    # -- faults, blocks, quarantine --------------------------------------------------
    deaths = [e for e in journal_events if e.get("type") == "worker_died"]
    failed = {}
    for e in journal_events:
        if e.get("type") == "block_failed" and e["id"] not in blocks:
            failed.setdefault(e["id"], e)
    quarantined = []
    for e in journal_events:
        if e.get("type") == "quarantine" and e["bot"] not in [q["bot"] for q in quarantined]:
            quarantined.append({"bot": e["bot"], "forfeits": e["forfeits"]})
    total_games = sum(len(e["games"]) for e in counted)
    return _clean({
        "format": RESULTS_FORMAT,
        "name": cfg.name,
        "fingerprint": cfg.fingerprint(),
        "config": {k: v for k, v in to_data(cfg).items() if k != "run"},
        "progress": {"blocks_planned": len(tasks), "blocks_journaled": len(blocks),
                     "blocks_counted": len(counted), "blocks_failed": len(failed),
                     "games": total_games,
                     "complete": all(t.id in blocks or t.id in failed for t in tasks)
                     or _all_stopped(cfg, tasks, blocks, failed, sprt_runs, quarantined)},
        "ratings": {"overall": overall["bots"],
                    "per_game": {g: by_game[g]["bots"] for g in by_game}},
        "seats": overall.get("seat_table", {}),
        "pairs": pairs,
        "head_to_head": {"bots": names,
                         "score": [[(matrix[a][b][0] / matrix[a][b][1]) if matrix[a][b][1]
                                    else None for b in names] for a in names],
                         "games": [[matrix[a][b][1] for b in names] for a in names]},
        "bots": [{k: v for k, v in row.items() if k != "points_values"} for row in bots_out],
        "points": {f"{row['game']}|{row['bot']}": row["points_values"] for row in bots_out},
        "end_reasons": {g: dict(sorted(c.items())) for g, c in end_reasons.items()},
        "faults": {"forfeits": {n: {r: faults[n][r] for r in FORFEIT_REASONS} for n in names},
                   "worker_deaths": len(deaths),
                   "worker_deaths_by_block": dict(Counter(e["id"] for e in deaths)),
                   "failed_blocks": [{"id": f["id"], "attempts": f["attempts"],
                                      "detail": f["detail"]} for f in failed.values()],
                   "quarantined": quarantined},
    })


def _all_stopped(cfg, tasks, blocks, failed, sprt_runs, quarantined):
    """Every block is played, failed, past its pairing's SPRT decision, or skipped for
    a quarantined bot."""
    gone = {q["bot"] for q in quarantined}
    for t in tasks:
        if t.id in blocks or t.id in failed:
            continue
        names = tuple(n for n, _ in t.field)
        if gone & set(names):
            continue
        run = sprt_runs.get((t.game, names))
        if run is not None and run["decision"]:
            continue
        return False
    return True


def timing(journal_events, tasks_count=None) -> dict:
    """Wall and think seconds from the journal (these differ from run to run)."""
    secs = [e["seconds"] for e in journal_events if e.get("type") == "block"]
    games = sum(len(e["games"]) for e in journal_events if e.get("type") == "block")
    think = defaultdict(lambda: [0.0, 0])
    per_game = defaultdict(lambda: [0.0, 0])
    for e in journal_events:
        if e.get("type") != "block":
            continue
        for rec in e["games"]:
            per_game[rec["game"]][0] += rec["seconds"]
            per_game[rec["game"]][1] += 1
            for s, seat in enumerate(rec["seats"]):
                think[seat["bot"]][0] += rec["think"][s]
                think[seat["bot"]][1] += rec["seat_decisions"][s]
    return {"block_seconds": round(sum(secs), 3), "games": games,
            "seconds_per_game": {g: round(v[0] / v[1], 6) for g, v in per_game.items() if v[1]},
            "seconds_per_decision": {b: round(v[0] / v[1], 6) for b, v in think.items()
                                     if v[1]}}
