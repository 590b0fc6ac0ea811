"""The JSON form of a Couleurs de Paris state (`to_json`) and its loader.

The view shows the whole table as players name it (colours, tools, the
action facing each lower-board space, who stands or lies where) and carries
the phase machine's pending fields, so it is a complete, loadable position
(scenario tests, the gRPC structured position, the table notation). Which
fields it holds, where and in what form is the field table's (fields.py),
which writes the view and reads it back field by field, raising
StateFormatError naming the first one of a wrong type or out of range. Here
the fields are then checked against each other: a card in two places, the
assistants on the boards, the derived fields (`removed`, `scores`,
`final_round`, the actions facing the lower board, who acts at a chance node
or the end), and consistency.check_position, which refuses, in one error
naming every field at fault, positions play cannot reach (RULINGS.md,
"Invariants of play").
"""
from __future__ import annotations

from easel.engine.contract_ids import PLAYER_CHANCE, PLAYER_TERMINAL
from easel.engine.viewfields import Problems, ViewFields

from .consistency import check_position
from .data import ACTION_NAMES, SPACES
from .fields import FIELDS, removed
from .rules import (BLACK, CHANCE_PHASES, END, MAX_ASSISTANTS, WHITE_PER_PAINTING, kind_at,
                    rules_of)

_F = ViewFields("couleurs_de_paris")
_bad = _F.bad


def state_view(s) -> dict:
    """The view of a reference state (the core's struct reads into one): fields.py."""
    return FIELDS.view(s)


def state_from_view(cls, game, view):
    """A reference state from a JSON view: each field as the field table reads
    it (type, shape, range; the first bad one raises), then the fields against
    each other (a card in two places raises; the derived fields and
    consistency.check_position are collected into one error)."""
    r = rules_of(game)
    n = r.n
    s = cls(game)
    FIELDS.read(view, s, r)
    problems = Problems("couleurs_de_paris")

    # -- a card in one place only
    for e, c in enumerate(s.easel):
        if c >= 0 and (s.owner[c] >= 0 or c in s.easel[:e]):
            _bad(f"easels[{e}]", f"painting {c} is also elsewhere")
    for i, c in enumerate(view["deck"]):
        if s.owner[c] >= 0 or c in s.easel:
            _bad(f"deck[{i}]", f"painting {c} is listed twice")
    for p in range(n):
        on_board = sum(s.stand[p]) + sum(s.lie[p])
        if on_board > MAX_ASSISTANTS:
            _bad(f"boards[{p}].assistants", f"{on_board} of player {p}'s assistants on the "
                                            f"boards; nobody has more than {MAX_ASSISTANTS}")

    # -- the derived fields
    for p, b in enumerate(view["boards"]):
        for i, pv in enumerate(b["paintings"]):
            pf = f"boards[{p}].paintings[{i}]"
            c = pv["card"]
            if bin(s.whites[c]).count("1") > WHITE_PER_PAINTING:
                problems.add(f"{pf}.filled", f"more than {WHITE_PER_PAINTING} white pigments "
                                             f"(§15)")
            full = s.fill[c] == (1 << SPACES) - 1
            if pv["finished"] != full:
                problems.add(f"{pf}.finished", "a painting is finished exactly when every "
                                               "space holds a pigment (§15)", full)
    if view["removed"] != removed(s):
        problems.add("removed", "must list the paintings neither in the deck, on an easel nor "
                                "held", removed(s))
    for q, lv in enumerate(view["lower_board"]):
        if lv["action"] != ACTION_NAMES[kind_at(r, s.rot, q)] or lv["spaces"] != r.capacity[q]:
            problems.add([f"lower_board[{q}].action", "rotation"],
                         f"position {q + 1} faces {ACTION_NAMES[kind_at(r, s.rot, q)]!r} with "
                         f"{r.capacity[q]} spaces at rotation {s.rot}")
    cp = view["current_player"]
    if s.phase in CHANCE_PHASES:
        if cp != PLAYER_CHANCE:
            problems.add(["current_player", "phase"], "a deal is a chance node", PLAYER_CHANCE)
    elif s.phase == END:
        if cp != PLAYER_TERMINAL:
            problems.add(["current_player", "phase"], "the game is over", PLAYER_TERMINAL)
    s.final = 1 if (any(len(s.finished_cards(p)) >= 2 for p in range(n))
                    or (s.supply[BLACK] == 0 and r.supply[BLACK] > 0)) else 0
    if view["final_round"] != bool(s.final):
        problems.add("final_round", "the last round starts exactly when someone has finished "
                                    "2 paintings or the last black pigment is taken (§23)",
                     bool(s.final))
    want = [s.score(p) for p in range(n)]
    if view["scores"] != want:
        problems.add("scores", "the running scores follow from the position (§24)", want)
    check_position(s, problems)
    return s
