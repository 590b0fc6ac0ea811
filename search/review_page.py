"""A review as one self-contained HTML page (`easel review --html FILE`):
the win-probability graph over the game as inline SVG (no script, no
network), each player's summary, and the flagged decisions with the turn the
search preferred. docs/review.md shows how to read it."""
from __future__ import annotations

import html
import math

from . import review

# Graph geometry (SVG user units; the SVG scales to the page's width): one
# rendition for wide screens and one for phones, whose text would otherwise
# shrink with the drawing; CSS shows the one that fits.
WIDE, NARROW = (900, 300), (380, 260)
LEFT, RIGHT, TOP, BOTTOM = 44, 10, 14, 34
COLOURS = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b")
MARKS = {"inaccuracy": ("#e0b000", 4), "mistake": ("#e07000", 5), "blunder": ("#c00000", 6)}


def _esc(x) -> str:
    return html.escape(str(x), quote=True)


def _pct(p: float) -> str:
    return "-" if p is None or (isinstance(p, float) and math.isnan(p)) else f"{100 * p:.1f}%"


def graph(decisions, num_players: int, size=WIDE, cls: str = "wide") -> str:
    """The SVG: one line per player, each point the deciding player's win
    probability after the turn played (x: the decision's step in the
    record); flagged decisions marked by class."""
    WIDTH, HEIGHT = size
    shown = [d for d in decisions if not d.forced]
    last = max((d.step for d in decisions), default=0) or 1
    w, h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def x(step):
        return LEFT + w * step / last

    def y(p):
        return TOP + h * (1.0 - p)

    parts = [f'<svg viewBox="0 0 {WIDTH} {HEIGHT}" role="img" class="graph {cls}" '
             f'aria-label="win probability over the game" xmlns="http://www.w3.org/2000/svg">']
    for q in (0.0, 0.25, 0.5, 0.75, 1.0):
        parts.append(f'<line x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{y(q):.1f}" y2="{y(q):.1f}" '
                     f'stroke="{"#999" if q == 0.5 else "#ddd"}" stroke-width="1"/>')
        parts.append(f'<text x="{LEFT - 6}" y="{y(q) + 4:.1f}" text-anchor="end" '
                     f'font-size="12">{int(q * 100)}%</text>')
    parts.append(f'<text x="{LEFT + w / 2:.1f}" y="{HEIGHT - 6}" text-anchor="middle" '
                 f'font-size="12">step of the record</text>')
    for p in range(num_players):
        pts = [(x(d.step), y(d.played_win)) for d in shown if d.player == p]
        colour = COLOURS[p % len(COLOURS)]
        if len(pts) > 1:
            parts.append('<polyline fill="none" stroke="{}" stroke-width="2" points="{}"/>'.format(
                colour, " ".join(f"{a:.1f},{b:.1f}" for a, b in pts)))
        for a, b in pts:
            parts.append(f'<circle cx="{a:.1f}" cy="{b:.1f}" r="2" fill="{colour}"/>')
    for d in shown:
        if d.classification in MARKS:
            colour, r = MARKS[d.classification]
            parts.append(f'<circle cx="{x(d.step):.1f}" cy="{y(d.played_win):.1f}" r="{r}" '
                         f'fill="none" stroke="{colour}" stroke-width="2">'
                         f'<title>move {d.move}, player {d.player + 1}: {d.classification}, '
                         f'-{100 * d.loss:.1f} in {_esc(d.cause)}</title></circle>')
    parts.append("</svg>")
    return "\n".join(parts)


def legend(num_players: int) -> str:
    items = [f'<span><i style="background:{COLOURS[p % len(COLOURS)]}"></i>player {p + 1}</span>'
             for p in range(num_players)]
    items += [f'<span><b style="border-color:{c}"></b>{k}</span>' for k, (c, _) in MARKS.items()]
    return '<p class="legend">' + " ".join(items) + "</p>"


STYLE = """
body{font-family:system-ui,sans-serif;margin:0 auto;padding:12px;max-width:1100px;color:#222}
h1{font-size:1.3em;margin:.2em 0}h2{font-size:1.1em;margin:1em 0 .4em}
.graph{width:100%;height:auto;border:1px solid #ddd;background:#fff}
.graph.narrow{display:none}
.legend span{margin-right:1em;white-space:nowrap;font-size:.9em}
.legend i{display:inline-block;width:14px;height:4px;margin-right:4px;vertical-align:middle}
.legend b{display:inline-block;width:9px;height:9px;border:2px solid;border-radius:50%;
margin-right:4px;vertical-align:middle}
.scroll{overflow-x:auto}
table{border-collapse:collapse;font-size:.9em;width:100%}
th,td{border-bottom:1px solid #ddd;padding:4px 6px;text-align:left;vertical-align:top}
td.n{text-align:right;white-space:nowrap}
td.turn{word-break:break-word;min-width:10em}
.inaccuracy{color:#8a6d00}.mistake{color:#b35300}.blunder{color:#c00000;font-weight:bold}
.meta{color:#555;font-size:.9em}
@media (max-width:600px){
.graph.wide{display:none}.graph.narrow{display:block}
table.cards tr{display:block;border-bottom:1px solid #bbb;padding:4px 0}
table.cards tr.head{display:none}
table.cards td{display:block;border:none;padding:1px 4px;text-align:left}
table.cards td::before{content:attr(data-label) ": ";font-weight:600;color:#555}
}
"""


def _table(head, rows) -> str:
    """A table whose cells carry their column's name (data-label), so that
    on a phone each row reads as a card of labelled lines (STYLE).
    rows: (row class or "", [(cell class or "", text)])."""
    out = ['<div class="scroll"><table class="cards"><tr class="head">'
           + "".join(f"<th>{_esc(h)}</th>" for h in head) + "</tr>"]
    for cls, cells in rows:
        out.append((f'<tr class="{cls}">' if cls else "<tr>") + "".join(
            f'<td{f" class={c}" if c else ""} data-label="{_esc(h)}">{_esc(t)}</td>'
            for h, (c, t) in zip(head, cells)) + "</tr>")
    out.append("</table></div>")
    return "\n".join(out)


def page(game: str, decisions, num_players: int, settings_text: str, title: str = "") -> str:
    """The whole HTML page of a review."""
    summary = review.summarise(decisions, num_players)
    out = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
           '<meta name="viewport" content="width=device-width, initial-scale=1">',
           f"<title>Review: {_esc(title or game)}</title><style>{STYLE}</style></head><body>",
           f"<h1>Review of {_esc(title or game)}</h1>",
           f'<p class="meta">{_esc(game)}; {len(decisions)} turns reviewed; '
           f'{_esc(settings_text)}. A turn\'s loss is the largest drop, from the best turn to '
           f'the one played, of win probability, of expected result (the search\'s value, '
           f'with the score margin where the game weighs it) and, where the game weighs the '
           f'margin, of points of score (a drop of {review.POINTS_UNIT:g} score scale counts '
           f'as 100), in points of 100. '
           f'Inaccuracy from {100 * review.INACCURACY:g}, mistake from '
           f'{100 * review.MISTAKE:g}, blunder from {100 * review.BLUNDER:g}.</p>',
           "<h2>Win probability</h2>",
           '<p class="meta">Each point: the deciding player\'s win probability after the turn '
           'played, as the search estimates it.</p>',
           graph(decisions, num_players), graph(decisions, num_players, NARROW, "narrow"),
           legend(num_players), "<h2>Players</h2>"]
    rows = []
    for s in summary:
        worst = ", ".join(f"move {m}: -{100 * loss:.1f}" for loss, m, _ in s.biggest) or "-"
        rows.append(("", [("", f"player {s.player + 1}"), ("n", s.decisions),
                          ("n", f"{s.accuracy:.1f}"), ("n", f"{100 * s.mean_loss:.1f}"),
                          ("n", s.counts["inaccuracy"]), ("n", s.counts["mistake"]),
                          ("n", s.counts["blunder"]), ("", worst)]))
    out.append(_table(["player", "turns", "accuracy", "mean loss", "inaccuracies", "mistakes",
                       "blunders", "biggest losses"], rows))
    flagged = review.flagged(decisions)
    out.append(f"<h2>Flagged turns ({len(flagged)})</h2>")
    if flagged:
        out.append(_table(
            ["move", "player", "played", "win", "result", "better", "win", "result", "loss",
             "class", "lost in"],
            [(d.classification, [("n", d.move), ("", f"player {d.player + 1}"),
                                 ("turn", d.played_text), ("n", _pct(d.played_win)),
                                 ("n", _pct(d.played_value)), ("turn", d.best_text),
                                 ("n", _pct(d.best_win)), ("n", _pct(d.best_value)),
                                 ("n", f"-{100 * d.loss:.1f}"), ("", d.classification),
                                 ("", review.cause_text(d))])
             for d in flagged]))
    else:
        out.append("<p>No turn lost enough to be flagged.</p>")
    out.append("</body></html>")
    return "\n".join(out) + "\n"
