"""The JSON form of a Starving Artists state (`to_json`) and its loader (`from_json`).

The view shows the whole table as players name it (cube colours, canvas
titles, each square's colours and cube) and carries the phase machine's
pending fields, so it is a complete, loadable position. Which fields it
holds, where and in what form is the field table's (fields.py), which writes
the view and reads it back field by field, raising StateFormatError naming
the first one of a wrong type or out of range. Here the lists naming canvases
are read back into where each canvas is (a canvas in two places or nowhere is
refused, naming the field), the cubes on the studio canvases and the derived
counts; then consistency.check_position refuses, in one error naming every
field at fault, positions play cannot reach (RULINGS.md, "Invariants of play").
"""
from __future__ import annotations

from easel.engine.viewfields import Problems, ViewFields

from .consistency import check_position, cube_holders
from .fields import FIELDS, canvas_index
from .rules import (CUBE_NAMES, IN_MARKET, N_CUBES, QUEUE, REMOVED, SOLD0, STUDIO0, UNSEEN, WILD,
                    parse_cube, rules_of)


def state_view(s) -> dict:
    """The JSON view of `s`, a reference state or the core's struct view (fields.py)."""
    return FIELDS.view(s)


_F = ViewFields("starving_artists")
_bad = _F.bad


def _list(v, field, hi=None):
    return _F.list(v, field, most=hi)


def state_from_view(cls, game, view):
    """A reference state from a JSON view: each field as the field table reads
    it (type, shape, range; the first bad one raises), then where each canvas
    is and the cubes on the canvases from the lists naming them, then the
    fields against each other (consistency.check_position), every
    disagreement collected into one error."""
    r = rules_of(game)
    n = r.n
    nc = r.n_cards
    s = cls(game)
    FIELDS.read(view, s, r)
    problems = Problems("starving_artists")
    placed = {}

    cards = r.deck.cards

    def place(i, where, field, named=True):
        """The canvas the view names by its printed id (`named`), or canvas
        i by its deck index (read from the struct), is at `where`. A number
        where the view names a canvas is refused (an old deck index), never
        taken as an index."""
        if named:
            i = canvas_index(r, _F, i, field)
        if i in placed:
            _bad(field, f"canvas {cards[i].id!r} is also in {placed[i]}")
        placed[i] = field
        s.loc[i] = where
        return i

    for slot, i in enumerate(s.market):
        if i >= 0:
            place(i, IN_MARKET, f"market[{slot}].canvas", named=False)
    fd = view["face_down"]
    for k, i in enumerate(_list(fd["unseen"], "face_down.unseen")):
        place(i, UNSEEN, f"face_down.unseen[{k}]")
    for k, i in enumerate(s.queue):
        place(i, QUEUE, f"face_down.known_under[{k}]", named=False)
    for k, i in enumerate(_list(view["removed"], "removed")):
        place(i, REMOVED, f"removed[{k}]")
    for p, sv in enumerate(view["studios"]):
        f = f"studios[{p}]"
        for k, cv in enumerate(_list(sv["canvases"], f"{f}.canvases")):
            cf = f"{f}.canvases[{k}]"
            if not isinstance(cv, dict) or "canvas" not in cv or "cubes" not in cv:
                _bad(cf, "must be an object with 'canvas' and 'cubes'")
            i = place(cv["canvas"], STUDIO0 + p, f"{cf}.canvas")
            _read_cubes(s, i, cv["cubes"], f"{cf}.cubes")
        for k, i in enumerate(_list(sv["paintings"], f"{f}.paintings")):
            place(i, SOLD0 + p, f"{f}.paintings[{k}]")
        stars = sum(r.deck.cards[i].stars for i in range(nc) if s.loc[i] == SOLD0 + p)
        if s.stars[p] != stars:
            problems.add(f"{f}.stars", "the stars of the paintings sold (§24)", stars)
        s.stars[p] = stars
        s.paintings[p] = sum(1 for i in range(nc) if s.loc[i] == SOLD0 + p)
    sel = s.selling
    for k, i in enumerate(sel):
        if not STUDIO0 <= s.loc[i] < STUDIO0 + n:
            _bad(f"pending.selling[{k}]", "must be a canvas in a studio")
    if len(set(sel)) != len(sel):
        _bad("pending.selling", "a canvas is announced twice")
    if len(s.got) != len(s.order):
        _bad("pending.got", "must have one count per selling entry once collection starts")
    if s.adv_card >= 0:
        if s.adv_card in placed:
            _bad("pending.adv_card", f"canvas {cards[s.adv_card].id!r} is also in "
                                     f"{placed[s.adv_card]}")
        s.loc[s.adv_card] = IN_MARKET
        placed[s.adv_card] = "pending.adv_card"
    missing = [i for i in range(nc) if i not in placed]
    if missing:
        _bad("face_down.unseen", f"canvases {[cards[i].id for i in missing[:8]]} are "
                                 f"nowhere; list them in face_down.unseen")
    cp = view["current_player"]
    if cp != s._current_player():
        problems.add(["current_player", "phase", "pending.actor"],
                     "the player to move follows from the phase and the actor",
                     s._current_player())
    check_position(s, problems)
    return s


def _read_cubes(s, i, cubes, field):
    """The cubes on canvas i from its view's list (null for an empty square)."""
    card = s.r.deck.cards[i]
    cubes = _list(cubes, field)
    if len(cubes) != len(card.squares):
        _bad(field, f"{card.title} has {len(card.squares)} squares")
    for q, x in enumerate(cubes):
        qf = f"{field}[{q}]"
        if x is None:
            continue
        try:
            c = parse_cube(x)
        except ValueError as e:
            _bad(qf, str(e))
        if c != WILD and c not in card.squares[q]:
            _bad(qf, f"a {x} cube cannot lie on a "
                     f"{'/'.join(CUBE_NAMES[k] for k in card.squares[q])} square")
        s.cubes[i][q] = c


def cube_totals(s):
    """Cubes per colour wherever they are: bag, pile, trade hold, studios, canvases."""
    return [sum(k for _, k in cube_holders(s, c)) for c in range(N_CUBES)]
