"""report.html (self-contained: plots as base64 PNG, no outside file, script or
font) and games.csv, from results.json's dict and the journal.

Plots (matplotlib, Agg): ratings with 95% intervals (overall and per game),
the head-to-head matrix, the points each bot scored per game, the seat terms
and win shares by seat, the SPRT trace (where an SPRT ran), end reasons and
forfeits by bot. `PLOTS` lists their ids; each sits in the page as
<figure id="plot-ID">.
"""
from __future__ import annotations

import base64
import csv
import html
import io

PLOTS = ("ratings", "head_to_head", "points", "seats", "sprt", "faults")


def _fig_png(fig) -> str:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=90, bbox_inches="tight")
    import matplotlib.pyplot as plt
    plt.close(fig)
    return base64.b64encode(buf.getvalue()).decode("ascii")


def _plt():
    import matplotlib
    matplotlib.use("Agg", force=True)
    import matplotlib.pyplot as plt
    return plt


def plot_ratings(res):
    plt = _plt()
    tables = [("all games", res["ratings"]["overall"])] + \
        [(g, rows) for g, rows in res["ratings"]["per_game"].items()]
    tables = [(t, rows) for t, rows in tables if rows]
    if not tables:
        return None
    fig, axes = plt.subplots(1, len(tables), figsize=(4.2 * len(tables), 0.45 *
                             max(len(r) for _, r in tables) + 1.6), squeeze=False)
    for ax, (title, rows) in zip(axes[0], tables):
        rows = sorted(rows, key=lambda r: r["elo"])
        y = range(len(rows))
        elo = [r["elo"] for r in rows]
        lo = [r["elo"] - r["low"] if r["low"] is not None else 0 for r in rows]
        hi = [r["high"] - r["elo"] if r["high"] is not None else 0 for r in rows]
        ax.errorbar(elo, list(y), xerr=[lo, hi], fmt="o", capsize=3)
        ax.set_yticks(list(y), [r["bot"] for r in rows])
        ax.axvline(0, color="grey", lw=0.8)
        ax.set_title(title, fontsize=9)
        ax.set_xlabel("Elo (mean 0), 95% bootstrap interval")
    return fig


def plot_head_to_head(res):
    plt = _plt()
    h = res["head_to_head"]
    names = h["bots"]
    import numpy as np
    m = np.array([[np.nan if v is None else v for v in row] for row in h["score"]], dtype=float)
    fig, ax = plt.subplots(figsize=(1.0 + 0.7 * len(names), 0.8 + 0.6 * len(names)))
    im = ax.imshow(m, vmin=0, vmax=1, cmap="RdBu")
    ax.set_xticks(range(len(names)), names, rotation=45, ha="right")
    ax.set_yticks(range(len(names)), names)
    for i in range(len(names)):
        for j in range(len(names)):
            if not np.isnan(m[i, j]):
                ax.text(j, i, f"{m[i, j]:.2f}", ha="center", va="center", fontsize=8)
    ax.set_title("row bot's score against column bot (all games)", fontsize=9)
    fig.colorbar(im, ax=ax, shrink=0.8)
    return fig


def plot_points(res):
    plt = _plt()
    games = {}
    for key, values in res["points"].items():
        game, bot = key.rsplit("|", 1)
        if values:
            games.setdefault(game, []).append((bot, values))
    if not games:
        return None
    fig, axes = plt.subplots(1, len(games), figsize=(4.5 * len(games), 3.4), squeeze=False)
    for ax, (game, rows) in zip(axes[0], games.items()):
        ax.boxplot([v for _, v in rows])
        ax.set_xticks(range(1, len(rows) + 1), [b for b, _ in rows], rotation=45, ha="right")
        ax.set_title(f"{game}: points per game", fontsize=9)
    return fig


def plot_seats(res):
    plt = _plt()
    games = [(g, rows) for g, rows in res["seats"].items() if rows]
    if not games:
        return None
    fig, axes = plt.subplots(2, len(games), figsize=(4.2 * len(games), 5.4), squeeze=False)
    for i, (game, rows) in enumerate(games):
        seats = [r["seat"] for r in rows]
        elo = [r["elo"] or 0.0 for r in rows]
        lo = [(r["elo"] - r["low"]) if r["low"] is not None else 0 for r in rows]
        hi = [(r["high"] - r["elo"]) if r["high"] is not None else 0 for r in rows]
        ax = axes[0][i]
        ax.bar(seats, elo, yerr=[lo, hi], capsize=3, color="#4a7ab5")
        ax.axhline(0, color="grey", lw=0.8)
        ax.set_title(f"{game}: seat term (Elo vs seat 0)", fontsize=9)
        ax.set_xticks(seats)
        ax = axes[1][i]
        ws = [r["win_share"]["mean"] or 0 for r in rows]
        wlo = [ws[k] - r["win_share"]["low"] if r["win_share"]["low"] is not None else 0
               for k, r in enumerate(rows)]
        whi = [r["win_share"]["high"] - ws[k] if r["win_share"]["high"] is not None else 0
               for k, r in enumerate(rows)]
        ax.bar(seats, ws, yerr=[wlo, whi], capsize=3, color="#8fb34a")
        ax.axhline(1.0 / len(seats), color="grey", lw=0.8, ls="--")
        ax.set_title("win share by seat (dashed: fair)", fontsize=9)
        ax.set_xticks(seats)
        ax.set_xlabel("seat")
    return fig


def plot_sprt(res):
    plt = _plt()
    runs = [p for p in res["pairs"] if p.get("sprt")]
    if not runs:
        return None
    fig, ax = plt.subplots(figsize=(6.5, 3.6))
    for p in runs:
        t = p["sprt"]
        ax.plot(range(1, len(t["trace"]) + 1), t["trace"],
                label=f"{p['bots'][0]} vs {p['bots'][1]} ({p['game']})")
    t = runs[0]["sprt"]
    ax.axhline(t["upper"], color="green", ls="--", lw=0.8, label="accept H1")
    ax.axhline(t["lower"], color="red", ls="--", lw=0.8, label="accept H0")
    ax.set_xlabel("blocks")
    ax.set_ylabel("log-likelihood ratio")
    ax.set_title(f"SPRT elo0={t['elo0']:g} elo1={t['elo1']:g}", fontsize=9)
    ax.legend(fontsize=7)
    return fig


def plot_faults(res):
    plt = _plt()
    fig, axes = plt.subplots(1, 2, figsize=(10, 3.4))
    ax = axes[0]
    games = list(res["end_reasons"])
    reasons = sorted({r for c in res["end_reasons"].values() for r in c})
    bottom = [0] * len(games)
    for r in reasons:
        vals = [res["end_reasons"][g].get(r, 0) for g in games]
        ax.bar(range(len(games)), vals, bottom=bottom, label=r)
        bottom = [a + b for a, b in zip(bottom, vals)]
    ax.set_xticks(range(len(games)), games, rotation=20, ha="right", fontsize=7)
    ax.set_title("how games ended", fontsize=9)
    if reasons:
        ax.legend(fontsize=7)
    ax = axes[1]
    bots = list(res["faults"]["forfeits"])
    bottom = [0] * len(bots)
    for r in ("raise", "illegal", "timeout"):
        vals = [res["faults"]["forfeits"][b][r] for b in bots]
        ax.bar(range(len(bots)), vals, bottom=bottom, label=r)
        bottom = [a + b for a, b in zip(bottom, vals)]
    ax.set_xticks(range(len(bots)), bots, rotation=45, ha="right", fontsize=7)
    ax.set_title(f"forfeits by bot and reason; worker deaths: "
                 f"{res['faults']['worker_deaths']}", fontsize=9)
    ax.legend(fontsize=7)
    return fig


_MAKERS = {"ratings": plot_ratings, "head_to_head": plot_head_to_head, "points": plot_points,
           "seats": plot_seats, "sprt": plot_sprt, "faults": plot_faults}
_TITLES = {"ratings": "Ratings", "head_to_head": "Head to head", "points": "Points per game",
           "seats": "Seat advantage", "sprt": "SPRT", "faults": "End reasons and faults"}
_ABSENT = {"ratings": "No games yet.", "points": "No game here keeps points.",
           "seats": "No games yet.", "sprt": "No SPRT ran in this tournament.",
           "head_to_head": "No games yet.", "faults": "No games yet."}


def _n(x, fmt="{:+.0f}"):
    return "-" if x is None else fmt.format(x)


def _table(head, rows):
    e = html.escape
    out = ["<table><tr>" + "".join(f"<th>{e(str(h))}</th>" for h in head) + "</tr>"]
    for r in rows:
        out.append("<tr>" + "".join(f"<td>{e(str(c))}</td>" for c in r) + "</tr>")
    return "\n".join(out) + "</table>"


def render(res: dict) -> str:
    e = html.escape
    parts = [f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>{e(res['name'])}"
             "</title><style>body{font-family:sans-serif;max-width:1100px;margin:1em auto;"
             "color:#222}table{border-collapse:collapse;margin:.5em 0 1.2em}td,th{border:1px "
             "solid #ccc;padding:2px 8px;text-align:right}th{background:#eee}td:first-child"
             "{text-align:left}img{max-width:100%}figure{margin:.5em 0 1.5em}</style></head>"
             "<body>"]
    p = res["progress"]
    parts.append(f"<h1>{e(res['name'])}</h1><p>{p['games']} games in {p['blocks_counted']} "
                 f"counted blocks of {p['blocks_planned']} planned "
                 f"({'complete' if p['complete'] else 'not complete'}); games: "
                 f"{e(', '.join(res['config']['games']))}; format "
                 f"{e(res['config']['format'])}; seed {res['config']['seed']}; "
                 f"fingerprint {e(res['fingerprint'])}.</p>")
    parts.append("<h2>Ratings</h2><p>Plackett-Luce with ties and a per-seat term, Elo scale "
                 "(mean 0); 95% bootstrap intervals over blocks.</p>")
    tables = [("all games", res["ratings"]["overall"])] + list(res["ratings"]["per_game"].items())
    for title, rows in tables:
        parts.append(f"<h3>{e(title)}</h3>" + _table(
            ["bot", "Elo", "low", "high", "games"],
            [[r["bot"], _n(r["elo"]), _n(r["low"]), _n(r["high"]), r["games"]] for r in rows]))
    figs = {}
    for pid in PLOTS:
        fig = _MAKERS[pid](res)
        figs[pid] = None if fig is None else _fig_png(fig)
    for pid in PLOTS:
        parts.append(f"<h2>{_TITLES[pid]}</h2>")
        if figs[pid] is None:
            parts.append(f"<p class='absent' id='plot-{pid}-absent'>{_ABSENT[pid]}</p>")
        else:
            parts.append(f"<figure id='plot-{pid}'><img alt='{_TITLES[pid]}' "
                         f"src='data:image/png;base64,{figs[pid]}'></figure>")
        if pid == "head_to_head" and res["pairs"]:
            parts.append(_table(
                ["game", "pair", "games", "score", "Elo", "interval", "LOS", "pentanomial",
                 "SPRT"],
                [[pr["game"], " vs ".join(pr["bots"]), pr["games"],
                  _n(pr["score"]["mean"], "{:.3f}"), _n(pr["elo"]),
                  f"{_n(pr['low'])} .. {_n(pr['high'])}",
                  _n(pr["los"], "{:.1%}"),
                  " ".join(f"{k}={v}" for k, v in (pr["pentanomial"] or {}).items()) or "-",
                  (pr["sprt"]["decision"] or "undecided") if pr["sprt"] else "-"]
                 for pr in res["pairs"]]))
        if pid == "seats":
            for g, rows in res["seats"].items():
                parts.append(f"<h3>{e(g)}</h3>" + _table(
                    ["seat", "seat term (Elo)", "interval", "win share"],
                    [[r["seat"], _n(r["elo"]), f"{_n(r['low'])} .. {_n(r['high'])}",
                      _n(r["win_share"]["mean"], "{:.3f}")] for r in rows]))
        if pid == "faults":
            f = res["faults"]
            parts.append(_table(["bot", "raise", "illegal", "timeout"],
                                [[b, c["raise"], c["illegal"], c["timeout"]]
                                 for b, c in f["forfeits"].items()]))
            parts.append(f"<p>Worker deaths (blocks rerun): {f['worker_deaths']}; failed "
                         f"blocks: {len(f['failed_blocks'])}; quarantined: "
                         f"{e(', '.join(q['bot'] for q in f['quarantined']) or 'none')}.</p>")
    parts.append("<h2>Bots per game</h2>" + _table(
        ["game", "bot", "games", "win share", "mean place", "mean points"],
        [[b["game"], b["bot"], b["games"], _n(b["win_share"]["mean"], "{:.3f}"),
          _n(b["mean_place"], "{:.2f}"),
          _n((b["points"] or {}).get("mean"), "{:.1f}")] for b in res["bots"]]))
    t = res.get("timing")
    if t:
        parts.append("<h2>Timing</h2>" + _table(
            ["game", "seconds per game"], [[g, f"{v:.4f}"] for g, v in
                                           t["seconds_per_game"].items()]))
    parts.append("</body></html>")
    return "\n".join(parts)


CSV_COLUMNS = ("block_id", "game", "block", "game_index", "seat", "bot", "spec", "place",
               "return", "points", "end", "fault_reason", "decisions", "seconds")


def games_csv(journal_events) -> str:
    """One row per seat of every journaled game (first copy of each block)."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(CSV_COLUMNS)
    seen = set()
    for e in journal_events:
        if e.get("type") != "block" or e["id"] in seen:
            continue
        seen.add(e["id"])
        for rec in e["games"]:
            for s, seat in enumerate(rec["seats"]):
                fault = rec.get("fault")
                w.writerow([e["id"], rec["game"], rec["block"], rec["index"], s, seat["bot"],
                            seat["spec"], rec["places"][s], rec["returns"][s],
                            "" if rec.get("scores") is None else rec["scores"][s], rec["end"],
                            fault["reason"] if fault and fault["seat"] == s else "",
                            rec["seat_decisions"][s], rec["seconds"]])
    return buf.getvalue()
