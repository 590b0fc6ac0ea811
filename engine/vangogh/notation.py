"""Van Gogh table notation: a position as a person at the table writes it.

    round 4
    chosen Eugene
    token 2
    scores 12 22 16
    painting 1 Placeholder painting 5: BU . . VD .
    painting 2 Placeholder painting 11: . . GU . . .
    painting 3 Placeholder painting 6: VU PD GS . YU
    framed Placeholder painting 13
    table BL PD GL GU VD
    waiting DrGachet GS, MadameGinoux YL GS, Anna YS GL
    palette 1: YL BL PS PD GL VU VD / . YS YU
    palette 2: YS BL PD VU / BL BS BU
    palette 3: PU

The grammar is in ENCODING.md ("Table notation"), the rules every game's
notation shares in docs/table-notation.md. Only what the table shows is
written; the rest is derived: the bag and the white supply (the box minus
every visible Minigogh), the deck (every card neither open nor framed), the
turn number (characters chosen), whose turn it is (the round's starter, R7,
and the turn number), the round's starter, who may use Anna's ability, the
actor of a primary action, an untouched inactive area (R14). A derived part
written anyway is checked against the derived value. Players, painting slots,
spaces and inactive spaces count from 1, as in the action texts.

`read` returns the JSON view after the one validating loader
(view.state_from_view) has accepted it, so every form of a position passes
the same checks; every problem of the text is named at once, each with its
line, its keyword and what to write.
"""
from __future__ import annotations

import re

from easel.engine.errors import GameSpecError, StateFormatError
from easel.engine.tablenotation import structured

# current_player_of, pending_at_rest, CHAR_WORDS: the names the package's
# tests and helpers take from here.
from .notation_derive import (current_player_of, default_actor,  # noqa: F401
                              default_inactive, default_phase, default_steps,
                              pending_at_rest, starter_of)
from .notation_lines import Statements, check_loads
from .notation_words import (CHAR_WORDS, COLOUR_LETTERS, MAX_ECHO, POSTMAN_BITS, Reader, Stop,
                             echo, short_piece, strip_comment)
from .rules import ANNA, CHARS, COLOURS, N_CHARS, N_COLOURS, rules_of

MAX_LINES = 200         # a position takes about 15; more is not a position
MAX_STATEMENTS = 400    # the same with several on a line (`;`)
# problems listed in one refusal (the rest counted): every game's one limit
from easel.engine.tablenotation import MAX_PROBLEMS  # noqa: E402


def _pieces(names) -> str:
    return " ".join(short_piece(x) for x in names) or "-"


def _colours(counts: dict) -> str:
    return " ".join(COLOUR_LETTERS[c] for c in range(N_COLOURS)
                    for _ in range(counts[COLOURS[c]])) or "-"


def _title(r, cid):
    """A card by its title; by its id (#id) where two cards share the title."""
    name = r.deck.cards[cid].name
    plain = (name.strip() == name and name not in ("", "-") and not name.startswith("#")
             and not re.search(r"[:,;]|\s#(\s|$)", name))
    if plain and sum(c.name.lower() == name.lower() for c in r.deck.cards) == 1:
        return name
    return f"#{cid}"


def write(game, view: dict, derived: bool = False) -> str:
    """The notation of `view`: the shortest form (every derived part and every
    line at its default left out), or with `derived` every part a person may
    write, derived ones included (the reader checks those)."""
    r = rules_of(game)
    taken = [ch["taken"] for ch in view["characters"]]
    lines = [f"round {view['round']}"]
    starter = starter_of(r, view["round"], view["token_holder"], taken[ANNA])
    if derived or starter is None:
        lines.append(f"turn {view['turn_player'] + 1}")
    chosen = [CHAR_WORDS[c] for c in range(N_CHARS) if taken[c]]
    if chosen or derived:
        lines.append("chosen " + (" ".join(chosen) or "-"))
    if view["token_holder"] >= 0 or derived:
        lines.append("token " + (str(view["token_holder"] + 1) if view["token_holder"] >= 0
                               else "-"))
    if view["ability_spent"] or derived:
        lines.append("ability " + ("spent" if view["ability_spent"] else "open"))
    if view["brush_used"] or (derived and r.solo):
        lines.append("brush " + ("used" if view["brush_used"] else "unused"))
    lines.append("scores " + " ".join(str(x) for x in view["scores"]))
    for slot, pv in enumerate(view["paintings"]):
        if pv["card"] < 0:
            lines.append(f"painting {slot + 1} -")
            continue
        line = f"painting {slot + 1} {_title(r, pv['card'])}"
        if derived or any(pv["occupants"]):
            line += ": " + " ".join(short_piece(x) if x else "." for x in pv["occupants"])
        lines.append(line)
    shown = set(view["deck"]) | {pv["card"] for pv in view["paintings"]}
    framed = [i for i in range(len(r.deck.cards)) if i not in shown]
    if framed:
        lines.append("framed " + ", ".join(_title(r, i) for i in framed))
    if view["table"] or derived:
        lines.append("table " + _pieces(view["table"]))
    waiting = [f"{CHAR_WORDS[c]} {_pieces(ch['waiting'])}"
               for c, ch in enumerate(view["characters"]) if ch["waiting"]]
    if waiting:
        lines.append("waiting " + ", ".join(waiting))
    for p, pal in enumerate(view["palettes"]):
        line = f"palette {p + 1}: {_pieces(pal['active'])}"
        if derived or pal["inactive"] != default_inactive(r, p):
            line += " / " + " ".join(short_piece(x) if x else "." for x in pal["inactive"])
        lines.append(line)
    lines += _write_pending(r, view, derived)
    return "\n".join(lines) + "\n"


def _write_pending(r, view, derived):
    """What is under way, each line only where it is not at its default."""
    pend = view["pending"]
    ph = view["phase"]
    out = []
    char = pend["act_char"]
    if derived or ph != default_phase(char):
        out.append(f"phase {ph}")
    if char is not None:
        out.append(f"doing {CHAR_WORDS[CHARS.index(char)]} "
                   f"{'primary' if pend['act_primary'] else 'secondary'}")
    actor = default_actor(r, ph, char, pend["act_primary"], view["turn_player"],
                          view["ability_player"])
    if pend["act_player"] != actor or (derived and pend["act_player"] >= 0):
        out.append(f"actor {pend['act_player'] + 1}" if pend["act_player"] >= 0 else "actor -")
    if pend["postman_used"]:
        out.append("used " + " ".join(w for w, bit in POSTMAN_BITS
                                      if pend["postman_used"] & bit))
    base = pend["resume"] or (pend["card_resume"] if ph == "card" else ph)
    if pend["steps_left"] != default_steps(r, base, char, pend["act_primary"],
                                           pend["postman_used"]) or (derived and
                                                                    pend["steps_left"]):
        out.append(f"steps {pend['steps_left']}")
    if any(pend["hand"].values()):
        out.append("hand " + _colours(pend["hand"]))
    if pend["draws_left"]:
        out.append(f"draws {pend['draws_left']}")
    if any(pend["roll_queue"].values()):
        out.append("queue " + _colours(pend["roll_queue"]))
    if pend["blue_colour"] is not None:
        out.append("blue " + COLOUR_LETTERS[COLOURS.index(pend["blue_colour"])])
    if pend["resume"] is not None:
        out.append(f"resume {pend['resume']}")
    if pend["card_slot"] is not None:
        out.append(f"card-slot {pend['card_slot']} then {pend['card_resume']}")
    if pend["eor_char"] is not None:
        nxt = pend["eor_char"]
        out.append("eor " + (CHAR_WORDS[CHARS.index(nxt)] if nxt in CHARS else nxt))
    if pend["setup_k"]:
        out.append(f"setup {pend['setup_k']}")
    return out


def _lines(text):
    """(line number, keyword, words, text after the keyword) of each
    statement; a `;` also ends a statement (one line may hold several)."""
    for no, raw in enumerate(text.splitlines(), start=1):
        for part in strip_comment(raw).split(";"):
            body = part.strip()
            if body:
                head, _, rest = body.partition(" ")
                yield no, head, rest.strip()


def read(game, text) -> dict:
    """The JSON view of the position the notation `text` describes, checked by
    the loader; a StateFormatError names every problem at once."""
    if not isinstance(text, str):
        raise StateFormatError(f"vangogh notation must be text, got {type(text).__name__}")
    rd = Reader(game)
    lines = text.splitlines()
    if len(lines) > MAX_LINES:
        raise StateFormatError(f"vangogh notation: {len(lines)} lines; a position takes at most "
                               f"{MAX_LINES} (limit MAX_LINES)")
    got = Statements(rd)
    first = True
    for k, (no, head, rest) in enumerate(_lines(text)):
        if k == MAX_STATEMENTS:
            raise StateFormatError(f"vangogh notation: more than {MAX_STATEMENTS} statements; a "
                                   f"position takes about 15 (limit MAX_STATEMENTS)")
        rd.where = f"line {no} ({head.lower().rstrip(':')[:MAX_ECHO]})"
        if head.lower().startswith("vangogh"):
            rd.where = f"line {no} (game)"
            if not first:
                rd.add("the game string goes on the first line", "it first, or leave it out")
            _check_header(rd, head + (" " + rest if rest else ""))
        else:
            try:
                got.statement(no, head, rest)
            except Stop:
                pass
        first = False
    rd.where = ""
    view = got.view()
    if view is not None and not rd.problems:
        check_loads(rd, game, view, got)
    _raise_any(rd)
    return view


def _check_header(rd, body):
    from ..tablenotation import same_game
    game = rd.game
    try:
        same = same_game(game, body)
    except (GameSpecError, StateFormatError) as e:
        rd.add(f"{echo(body)} is not a game string ({echo(e)})", game.spec)
        return
    if not same:
        rd.add(f"the notation is for {echo(body)}, the game read is {game.spec}",
               f"{game.spec} or leave it out")


def _raise_any(rd):
    if not rd.problems:
        return
    texts = [(f"{where}: " if where else "") + problem
             + ("" if write is None else f"; write {write}")
             for where, problem, write in rd.problems]
    more = (f"; and {len(texts) - MAX_PROBLEMS} more (the first {MAX_PROBLEMS} are listed)"
            if len(texts) > MAX_PROBLEMS else "")
    message = "vangogh notation: " + (texts[0] if len(texts) == 1 else
                                      f"{len(texts)} problems: " + "; ".join(
                                          f"({k}) {t}" for k, t in
                                          enumerate(texts[:MAX_PROBLEMS], start=1)) + more)
    raise StateFormatError(message, structured(rd.problems))
