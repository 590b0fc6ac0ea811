"""A search's analysis (easel.v1.Analysis) as a person reads it: what
`easel suggest` prints and `easel analyze` redraws (README, "Reading a hint").

One row per candidate, a whole turn: rank, win probability in %, visits,
expected scores (games with scores) and the turn's steps joined by "; ";
under it the line of play the search expects after the turn, one segment
per player's turn ("player 2: ...") separated by " | ", chance outcomes in
brackets ("[draw blue]"; "[draw blue?]" for one the search did not sample
and assumed, the most likely). Players are counted from 1, as at the table.
A note says whether the two leading turns are told apart
(Analysis.leaders_apart).
"""
from __future__ import annotations

import re

CHANCE_KEY = "[...]: a chance outcome; [...?]: one the search assumed (the most likely)"
# The text the search gives a chance outcome it assumed rather than sampled
# (engine.proto, PvStep.id): "(chance: Roll 1, say)".
_ASSUMED = re.compile(r"^\(chance: (.*), say\)$")


def player_name(player: int) -> str:
    return f"player {player + 1}"


def step_text(step) -> str:
    """One step of a turn or line: a decision's own text, a chance outcome in
    brackets."""
    if not step.is_chance:
        return step.text
    m = _ASSUMED.match(step.text)
    return f"[{m.group(1)}?]" if m else f"[{step.text}]"


def turn_text(candidate) -> str:
    """The candidate's whole turn (Candidate.turn; from pv and turn_length
    when a server older than `turn` sent it)."""
    steps = list(candidate.turn) or list(candidate.pv[:max(candidate.turn_length, 1)])
    return "; ".join(step_text(s) for s in steps)


def line_segments(candidate, player: int) -> list[tuple[int, list[str]]]:
    """The line of play after the candidate's turn, cut into players' turns:
    [(player, step texts)]. A chance outcome joins the turn it falls in (one
    right after the candidate's turn is that turn's: `player`'s, the
    player to move); a decision by another player than the current
    segment's starts the next segment."""
    turn_length = len(candidate.turn) or max(candidate.turn_length, 1)
    segments: list[tuple[int, list[str]]] = []
    for s in candidate.pv[turn_length:]:
        if s.is_chance:
            if not segments:
                segments.append((player, []))
        elif not segments or s.player != segments[-1][0]:
            segments.append((s.player, []))
        segments[-1][1].append(step_text(s))
    return segments


def line_text(candidate, player: int) -> str:
    """The line of play as text: "player 2: ...; ... | player 1: ..."."""
    return " | ".join(f"{player_name(who)}: {'; '.join(steps)}"
                      for who, steps in line_segments(candidate, player))


def scores_text(candidate) -> str:
    return " / ".join(f"{s:.1f}" for s in candidate.expected_scores)


def percent(p: float) -> str:
    return f"{100.0 * p:.1f}%"


def has_chance(analysis) -> bool:
    return any(s.is_chance for c in analysis.candidates for s in c.pv)


def note(analysis, stop_reason: int | None = None) -> str:
    """What a person should know of the ranking's reliability: whether the
    two leading turns are told apart (said even when one row is shown, for
    the server compares the first two whatever it sends); "" for a bot's
    single move."""
    from easel.v1 import engine_pb2 as pb
    if not analysis.HasField("leaders_apart"):
        return ""
    it = f"{analysis.iterations:,} iterations"
    if not analysis.leaders_apart:
        return (f"The top two are within noise after {it}: either may be the better; "
                f"search longer (--iterations, --time) to tell them apart.")
    if len(analysis.candidates) < 2:        # one row: nothing to tell it from on the page
        return ""
    if stop_reason == pb.STOP_REASON_TOLD_APART:
        return f"The two leading turns were told apart after {it}, and the search stopped there."
    return "The two leading turns are told apart."


def header(analysis, game: str = "") -> str:
    where = f"{game}: " if game else ""
    return (f"{where}{player_name(analysis.player)} to move; {analysis.iterations:,} iterations "
            f"in {analysis.elapsed_seconds:.2f} s ({analysis.bot})")


def columns(analysis) -> list[str]:
    n = max((len(c.expected_scores) for c in analysis.candidates), default=0)
    cols = ["rank", "win", "visits"]
    if n:
        cols.append("scores (" + " / ".join(f"p{i + 1}" for i in range(n)) + ")")
    return cols + ["turn"]


def rows(analysis) -> list[dict]:
    """Each candidate's cells, as strings: rank, win, visits, scores (games
    with scores), turn, line."""
    out = []
    for c in analysis.candidates:
        row = {"rank": str(c.rank), "win": percent(c.win_probability), "visits": str(c.visits),
               "turn": turn_text(c), "line": line_text(c, analysis.player)}
        if c.expected_scores:
            row["scores"] = scores_text(c)
        out.append(row)
    return out


def render(analysis, game: str = "", stop_reason: int | None = None) -> str:
    """The whole text of a hint: header, note, a row per turn with its line
    under it, and a key to the brackets when a line holds chance."""
    lines = [header(analysis, game)]
    text = note(analysis, stop_reason)
    if text:
        lines.append(text)
    table = rows(analysis)
    scores_w = max([len(r.get("scores", "")) for r in table] + [0])
    head = ["rank", "   win", " visits"]
    if scores_w:
        label = columns(analysis)[3]
        scores_w = max(scores_w, len(label))
        head.append(label.ljust(scores_w))
    lines.append("  ".join(head + ["turn"]))
    for r in table:
        cells = [r["rank"].rjust(4), r["win"].rjust(6), r["visits"].rjust(7)]
        if scores_w:
            cells.append(r.get("scores", "").ljust(scores_w))
        lines.append("  ".join(cells + [r["turn"]]))
        if r["line"]:
            lines.append(" " * 6 + "then " + r["line"])
    if has_chance(analysis):
        lines.append(CHANCE_KEY)
    return "\n".join(lines)
