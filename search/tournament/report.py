"""report.html (self-contained: plots as base64 PNG, no outside file, script or
font) and games.csv, from results.json's dict and the journal; and the
journaled games as records (games.egn, written by the runner).

Plots (matplotlib, Agg), one chart per image so that no chart can overlap
another: ratings with 95% intervals (overall, and per game when there is
more than one), the points each bot scored per game, the seat terms and win
shares by seat, the SPRT trace (where an SPRT ran), end reasons and forfeits
(where a game did not end normally). The head-to-head matrix is an HTML
table coloured as a heatmap, each number in black or white, whichever
contrasts more with its cell. `PLOTS` lists the sections' ids; each sits in
the page as <figure id="plot-ID">, or as <p id="plot-ID-absent"> saying why
there is nothing to draw: no chart is drawn empty. Every chart is drawn
twice, 10 inches wide for a desktop and 4 for a phone (a <picture> picks
one), and shown at the page's full content width, from a phone's 390 px to
a desktop's 1100; wide tables scroll sideways in their own box.
"""
from __future__ import annotations

import base64
import csv
import html
import io
import textwrap

from ..stats import ELO_CAP

PLOTS = ("ratings", "head_to_head", "points", "seats", "sprt", "faults")
WIDE = 10.0             # inches: every chart is drawn this wide for a desktop page,
NARROW = 4.0            # and this wide for a phone's (at most PHONE_PX wide)
PHONE_PX = 600
DPI = 100
FORFEIT_REASONS = ("raise", "illegal", "timeout")


def _fig_png(fig) -> str:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=DPI)
    import matplotlib.pyplot as plt
    plt.close(fig)
    return base64.b64encode(buf.getvalue()).decode("ascii")


def _plt():
    import matplotlib
    matplotlib.use("Agg", force=True)
    import matplotlib.pyplot as plt
    return plt


def _figure(width: float, height: float, panels: int = 1):
    """A chart `width` inches wide whose panels sit side by side, or one
    above the other on a narrow one; constrained layout keeps labels apart."""
    plt = _plt()
    across = panels if width >= WIDE else 1
    down = panels // across
    fig, axes = plt.subplots(down, across, figsize=(width, height * down),
                             layout="constrained", squeeze=False)
    return fig, [ax for row in axes for ax in row]


def rating_tables(res) -> list[tuple[str, list]]:
    """(title, rows) of each rating table: all games, then each game; with
    one game, only that game's (the two would be the same fit)."""
    per_game = [(g, rows) for g, rows in res["ratings"]["per_game"].items() if rows]
    if len(per_game) == 1:
        return per_game
    overall = res["ratings"]["overall"]
    return ([("all games", overall)] if overall else []) + per_game


def plot_ratings(res, width: float = WIDE):
    charts = []
    for title, rows in rating_tables(res):
        rows = sorted(rows, key=lambda r: r["elo"])
        fig, (ax,) = _figure(width, 0.42 * len(rows) + 1.5)
        y = list(range(len(rows)))
        elo = [r["elo"] for r in rows]
        lo = [r["elo"] - r["low"] if r["low"] is not None else 0 for r in rows]
        hi = [r["high"] - r["elo"] if r["high"] is not None else 0 for r in rows]
        ax.errorbar(elo, y, xerr=[lo, hi], fmt="o", capsize=4)
        ax.set_yticks(y, [r["bot"] for r in rows])
        ax.set_ylim(-0.6, len(rows) - 0.4)
        ax.axvline(0, color="grey", lw=0.8)
        _title(ax, f"{title}: Elo (mean 0), 95% intervals", width)
        charts.append((f"{title}: Elo with 95% intervals", fig))
    return charts


def plot_points(res, width: float = WIDE):
    games = {}
    for key, values in res["points"].items():
        game, bot = key.rsplit("|", 1)
        if values:
            games.setdefault(game, []).append((bot, values))
    charts = []
    for game, rows in games.items():
        fig, (ax,) = _figure(width, 3.8)
        ax.boxplot([v for _, v in rows])
        ax.set_xticks(range(1, len(rows) + 1), [b for b, _ in rows])
        _title(ax, f"{game}: points per game", width)
        charts.append((f"{game}: points per game", fig))
    return charts


def plot_seats(res, width: float = WIDE):
    """Per game, the seat terms (left out when every one and its interval is
    0: nothing to draw) and the win shares by seat."""
    charts = []
    for game, rows in res["seats"].items():
        if not rows:
            continue
        seats = [r["seat"] for r in rows]
        terms = any(r[k] for r in rows for k in ("elo", "low", "high"))
        fig, axes = _figure(width, 3.6, panels=2 if terms else 1)
        if terms:
            ax = axes.pop(0)
            elo = [r["elo"] or 0.0 for r in rows]
            lo = [(r["elo"] - r["low"]) if r["low"] is not None else 0 for r in rows]
            hi = [(r["high"] - r["elo"]) if r["high"] is not None else 0 for r in rows]
            ax.bar(seats, elo, yerr=[lo, hi], capsize=4, color="#4a7ab5")
            ax.axhline(0, color="grey", lw=0.8)
            _title(ax, f"{game}: seat term (Elo vs seat 0)", width)
            ax.set_xticks(seats)
            ax.set_xlabel("seat")
        ax = axes[0]
        ws = [r["win_share"]["mean"] or 0 for r in rows]
        wlo = [ws[k] - r["win_share"]["low"] if r["win_share"]["low"] is not None else 0
               for k, r in enumerate(rows)]
        whi = [r["win_share"]["high"] - ws[k] if r["win_share"]["high"] is not None else 0
               for k, r in enumerate(rows)]
        ax.bar(seats, ws, yerr=[wlo, whi], capsize=4, color="#8fb34a")
        ax.axhline(1.0 / len(seats), color="grey", lw=0.8, ls="--")
        _title(ax, f"{game}: win share (dashed: fair)", width)
        ax.set_xticks(seats)
        ax.set_xlabel("seat")
        charts.append((f"{game}: {'seat term and ' if terms else ''}win share by seat", fig))
    return charts


def plot_sprt(res, width: float = WIDE):
    runs = [p for p in res["pairs"] if p.get("sprt")]
    if not runs:
        return []
    # a narrow chart's legend goes below it, one line an entry: room for it
    fig, (ax,) = _figure(width, 4.5 if width >= WIDE else 3.0 + 0.2 * (len(runs) + 2))
    for p in runs:
        t = p["sprt"]
        ax.plot(range(1, len(t["trace"]) + 1), t["trace"],
                label=f"{p['bots'][0]} vs {p['bots'][1]} ({p['game']})")
    t = runs[0]["sprt"]
    ax.axhline(t["upper"], color="green", ls="--", lw=0.8, label="accept H1")
    ax.axhline(t["lower"], color="red", ls="--", lw=0.8, label="accept H0")
    ax.set_xlabel("blocks")
    ax.set_ylabel("log-likelihood ratio")
    _title(ax, f"SPRT elo0={t['elo0']:g} elo1={t['elo1']:g}", width)
    _legend(ax, width, len(runs) + 2)
    return [("log-likelihood ratio by block", fig)]


def _legend(ax, width: float, entries: int) -> None:
    """Beside the chart on a wide one, below it on a narrow one, in the
    figure's own margin (constrained layout makes room): never over the
    lines nor cut off."""
    handles, labels = ax.get_legend_handles_labels()
    if width >= WIDE:
        ax.figure.legend(handles, labels, fontsize=9, loc="outside right upper")
    else:
        ax.figure.legend(handles, labels, fontsize=9, loc="outside lower center",
                         ncols=1 if entries > 3 else entries)


def _title(ax, text: str, width: float) -> None:
    """The chart's title, wrapped to fit a narrow chart."""
    ax.set_title(textwrap.fill(text, int(width * 9)))


def _forfeits(res) -> dict:
    """{bot: {reason: n}} of the bots that forfeited at least once."""
    return {b: c for b, c in res["faults"]["forfeits"].items()
            if any(c.get(r, 0) for r in FORFEIT_REASONS)}


def _stacked(width: float, counts: dict, parts, xlabel: str, title: str):
    """A horizontal stacked bar a row ({row: {part: n}}), the first row on top."""
    rows = list(counts)
    fig, (ax,) = _figure(width, 0.45 * len(rows) + 1.8)
    left = [0] * len(rows)
    for part in parts:
        vals = [counts[r].get(part, 0) for r in rows]
        ax.barh(range(len(rows)), vals, left=left, label=part)
        left = [a + b for a, b in zip(left, vals)]
    ax.set_yticks(range(len(rows)), rows)
    ax.invert_yaxis()
    ax.set_xlabel(xlabel)
    _title(ax, title, width)
    _legend(ax, width, len(parts))
    return title, fig


def plot_faults(res, width: float = WIDE):
    """How games ended and who forfeited: only when a game did not end
    normally (a chart of nothing but "normal" says less than a sentence)."""
    ends = res["end_reasons"]
    if not any(n for c in ends.values() for r, n in c.items() if r != "normal"):
        return []
    charts = [_stacked(width, ends, sorted({r for c in ends.values() for r in c}), "games",
                       "how games ended")]
    forfeits = _forfeits(res)
    if forfeits:
        charts.append(_stacked(width, forfeits, FORFEIT_REASONS, "forfeited games",
                               "forfeits by bot and reason"))
    return charts


_MAKERS = {"ratings": plot_ratings, "points": plot_points, "seats": plot_seats,
           "sprt": plot_sprt, "faults": plot_faults}
_TITLES = {"ratings": "Ratings", "head_to_head": "Head to head", "points": "Points per game",
           "seats": "Seat advantage", "sprt": "SPRT", "faults": "End reasons and faults"}
_ABSENT = {"ratings": "No games yet.", "points": "No game here keeps points.",
           "seats": "No games yet.", "sprt": "No SPRT ran in this tournament.",
           "head_to_head": "No games yet.",
           "faults": "Every game ended normally: no forfeits."}


def _n(x, fmt="{:+.0f}"):
    return "-" if x is None else fmt.format(x)


def _elo(x) -> str:
    """An Elo figure; a score of 0 or 1 has an infinite Elo (stats.ELO_CAP)."""
    if x is None:
        return "-"
    if abs(x) >= ELO_CAP:
        return "+inf" if x > 0 else "-inf"
    return f"{x:+.0f}"


def _table(head, rows, cls: str = "") -> str:
    e = html.escape
    attr = f" class='{cls}'" if cls else ""
    out = [f"<div class='scroll'><table{attr}><tr>" +
           "".join(f"<th>{e(str(h))}</th>" for h in head) + "</tr>"]
    for r in rows:
        out.append("<tr>" + "".join(f"<td>{e(str(c))}</td>" for c in r) + "</tr>")
    return "\n".join(out) + "</table></div>"


def _luminance(rgb) -> float:
    """WCAG relative luminance of an sRGB colour (components in 0..1)."""
    lin = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in rgb]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def text_colour(rgb) -> str:
    """Black or white, whichever contrasts more with the background `rgb`
    (WCAG contrast ratio; the better of the two is at least 4.58:1)."""
    lum = _luminance(rgb)
    return "#000" if (lum + 0.05) / 0.05 >= 1.05 / (lum + 0.05) else "#fff"


def head_to_head_table(res) -> str:
    """The head-to-head matrix as an HTML heatmap: the row bot's score
    against the column bot, red (lost) to blue (won)."""
    from matplotlib import colormaps
    cmap = colormaps["RdBu"]
    h = res["head_to_head"]
    e = html.escape
    out = ["<div class='scroll'><table class='heatmap'><caption>row bot's score against "
           "column bot, all games (games in brackets)</caption><tr><th></th>" +
           "".join(f"<th>{e(b)}</th>" for b in h["bots"]) + "</tr>"]
    for i, name in enumerate(h["bots"]):
        cells = []
        for j, v in enumerate(h["score"][i]):
            if v is None:
                cells.append("<td class='none'>-</td>")
                continue
            rgb = cmap(float(v))[:3]
            bg = "#" + "".join(f"{round(c * 255):02x}" for c in rgb)
            cells.append(f"<td style='background:{bg};color:{text_colour(rgb)}'>{v:.2f} "
                         f"<small>({h['games'][i][j]})</small></td>")
        out.append(f"<tr><th>{e(name)}</th>" + "".join(cells) + "</tr>")
    return "\n".join(out) + "</table></div>"


_STYLE = ("body{font-family:sans-serif;max-width:1100px;margin:1em auto;padding:0 12px;"
          "color:#222}h1{overflow-wrap:anywhere}.scroll{overflow-x:auto;margin:.5em 0 1.2em}"
          "table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:2px 8px;"
          "text-align:right;white-space:nowrap}th{background:#eee}td:first-child,"
          "th:first-child{text-align:left}figure{margin:.5em 0 1.5em}figure img{display:block;"
          "width:100%;height:auto;margin:0 0 .8em}table.heatmap{width:100%}table.heatmap td"
          "{text-align:center;font-weight:bold}table.heatmap td.none{background:#fff}"
          "caption{text-align:left;padding:0 0 .3em}")


def render(res: dict) -> str:
    e = html.escape
    parts = [f"<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'><meta "
             f"name='viewport' content='width=device-width, initial-scale=1'><title>"
             f"{e(res['name'])}</title><style>{_STYLE}</style></head><body>"]
    p = res["progress"]
    reach = f" (reach {int(res['config']['reach'])})" if res["config"].get("reach") else ""
    parts.append(f"<h1>{e(res['name'])}</h1><p>{p['games']} games in {p['blocks_counted']} "
                 f"counted blocks of {p['blocks_planned']} planned "
                 f"({'complete' if p['complete'] else 'not complete'}); games: "
                 f"{e(', '.join(res['config']['games']))}; format "
                 f"{e(res['config']['format'])}{reach}; seed {res['config']['seed']}; "
                 f"fingerprint {e(res['fingerprint'])}.</p>")
    for pid in PLOTS:
        parts.append(f"<h2>{_TITLES[pid]}</h2>")
        if pid == "ratings":
            parts.append("<p>Plackett-Luce with ties and a per-seat term, Elo scale (mean 0); "
                         "95% bootstrap intervals over blocks.</p>")
        if pid == "head_to_head":
            body = head_to_head_table(res) if res["head_to_head"]["bots"] else None
        else:
            wide, narrow = _MAKERS[pid](res, WIDE), _MAKERS[pid](res, NARROW)
            body = "".join(
                f"<picture><source media='(max-width: {PHONE_PX}px)' "
                f"srcset='data:image/png;base64,{_fig_png(small)}'>"
                f"<img alt='{e(_TITLES[pid])}: {e(name)}' "
                f"src='data:image/png;base64,{_fig_png(fig)}'></picture>"
                for (name, fig), (_, small) in zip(wide, narrow)) or None
        if body is None:
            parts.append(f"<p class='absent' id='plot-{pid}-absent'>{_ABSENT[pid]}</p>")
        else:
            parts.append(f"<figure id='plot-{pid}'>{body}</figure>")
        if pid == "ratings":
            for title, rows in rating_tables(res):
                parts.append(f"<h3>{e(title)}</h3>" + _table(
                    ["bot", "Elo", "low", "high", "games"],
                    [[r["bot"], _n(r["elo"]), _n(r["low"]), _n(r["high"]), r["games"]]
                     for r in rows]))
        if pid == "head_to_head" and res["pairs"]:
            parts.append("<p>Each pair: the first bot's score (ties half) with its 95% "
                         "interval over blocks as Elo, and its likelihood of superiority "
                         "(LOS), which is above 97.5% exactly when the interval lies above "
                         "0.</p>")
            parts.append(_table(
                ["game", "pair", "games", "score", "Elo", "interval", "LOS", "pentanomial",
                 "SPRT"],
                [[pr["game"], " vs ".join(pr["bots"]), pr["games"],
                  _n(pr["score"]["mean"], "{:.3f}"), _elo(pr["elo"]),
                  f"{_elo(pr['low'])} .. {_elo(pr['high'])}",
                  _n(pr["los"], "{:.1%}"),
                  " ".join(f"{k}={v}" for k, v in (pr["pentanomial"] or {}).items()) or "-",
                  (pr["sprt"]["decision"] or "undecided") if pr["sprt"] else "-"]
                 for pr in res["pairs"]], cls="pairs"))
        if pid == "seats":
            for g, rows in res["seats"].items():
                parts.append(f"<h3>{e(g)}</h3>" + _table(
                    ["seat", "seat term (Elo)", "interval", "win share"],
                    [[r["seat"], _n(r["elo"]), f"{_n(r['low'])} .. {_n(r['high'])}",
                      _n(r["win_share"]["mean"], "{:.3f}")] for r in rows]))
        if pid == "faults":
            f = res["faults"]
            forfeits = _forfeits(res)
            if forfeits:
                parts.append(_table(["bot", *FORFEIT_REASONS],
                                    [[b, *(c.get(r, 0) for r in FORFEIT_REASONS)]
                                     for b, c in forfeits.items()]))
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
        parts.append("<h2>Timing</h2><p>Wall-clock seconds on the machines that played "
                     "(the one part of the results that differs between equal runs).</p>")
        parts.append(_table(["game", "seconds per game"],
                            [[g, f"{v:.4f}"] for g, v in t["seconds_per_game"].items()]))
        parts.append(_table(["bot", "seconds per decision"],
                            [[b, f"{v:.6f}"] for b, v in
                             t.get("seconds_per_decision", {}).items()]))
    parts.append("</body></html>")
    return "\n".join(parts)


CSV_COLUMNS = ("block_id", "game", "block", "game_index", "seat", "bot", "spec", "place",
               "return", "points", "end", "fault_reason", "decisions", "seconds")


def journal_games(journal_events):
    """(block entry, game record) of every journaled game, the first copy of
    each block, in journal order."""
    seen = set()
    for e in journal_events:
        if e.get("type") != "block" or e["id"] in seen:
            continue
        seen.add(e["id"])
        for rec in e["games"]:
            yield e, rec


def game_records(journal_events, event: str):
    """Every journaled game's record as games.egn holds it: the journal's
    record with the tournament's name (event) and its block's id (round)."""
    for e, rec in journal_games(journal_events):
        yield {"event": event, "round": e["id"], **rec}


def games_csv(journal_events) -> str:
    """One row per seat of every journaled game (first copy of each block)."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(CSV_COLUMNS)
    for e, rec in journal_games(journal_events):
        for s, seat in enumerate(rec["seats"]):
            fault = rec.get("fault")
            w.writerow([e["id"], rec["game"], rec["block"], rec["index"], s, seat["bot"],
                        seat["spec"], rec["places"][s], rec["returns"][s],
                        "" if rec.get("scores") is None else rec["scores"][s], rec["end"],
                        fault["reason"] if fault and fault["seat"] == s else "",
                        rec["seat_decisions"][s], rec["seconds"]])
    return buf.getvalue()
