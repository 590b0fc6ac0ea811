"""The JSON form of a Van Gogh state (`to_json`) and its loader (`from_json`).

The view names things as players do ('blue-upright', 'Madame Ginoux') and
shows the whole table; it also carries the phase machine's pending fields so
that it is a complete, loadable position (used by the scenario tests and the
gRPC structured position). Which fields it holds, where and in what form
is the field table's (fields.py), which writes the view and reads it back
field by field, raising StateFormatError naming the bad one. Here the fields
are then checked against each other: the open cards, the Minigoghs adding up
to the box (11 per colour counting the score token, 5 whites), and
consistency.py's position checks.
"""
from __future__ import annotations

from easel.engine.contract_ids import PLAYER_CHANCE, PLAYER_TERMINAL
from easel.engine.viewfields import ViewFields

from .consistency import check_position
from .fields import FIELDS
from .rules import (BOX_PER_COLOUR, BOX_WHITES, COLOUR_NAMES, N_CHARS, N_CODES, N_COLOURS,
                    N_PAINTINGS, WHITE, rules_of)

_F = ViewFields("vangogh")
_bad = _F.bad


def state_view(s) -> dict:
    """The JSON view of `s`, a reference state or the core's struct view (fields.py)."""
    return FIELDS.view(s)


def state_from_view(cls, game, view):
    """A reference state of class `cls` from a JSON view: every field as the
    field table reads it (type, shape, range), then the fields against each
    other; StateFormatError names the field."""
    r = rules_of(game)
    s = cls(game)
    FIELDS.read(view, s, r)
    _check_paintings(s)
    _check_box(s)
    check_position(s)
    cp = view["current_player"]
    if cp != s._current_player():
        _bad("current_player", f"{cp!r} disagrees with the position: "
                               f"{_who(s._current_player())} acts")
    return s


def _check_paintings(s):
    """An open card is neither in the deck nor on another slot, and no painting is full."""
    for slot in range(N_PAINTINGS):
        cid = s.painting[slot]
        if cid < 0:
            continue
        f = f"paintings[{slot}]"
        if s.deck[cid]:
            _bad(f"{f}.card", f"card {cid} is also listed in the deck")
        if cid in s.painting[:slot]:
            _bad(f"{f}.card", f"card {cid} is on two slots")
        size = len(s.r.deck.cards[cid].orient)
        if all(s.occ[slot][k] >= 0 for k in range(size)):
            _bad(f"{f}.occupants", "a full painting is scored and removed at once")


def _who(player):
    return {PLAYER_CHANCE: "chance", PLAYER_TERMINAL: "nobody (the game is over)"}.get(
        player, f"player {player}")


def box_counts(s):
    """Minigoghs per colour (0..4) and whites, wherever they are, score tokens included."""
    counts = [1 + s.bag[c] + s.hand[c] + s.roll_q[c] for c in range(N_COLOURS)] + [s.whites]
    if s.blue_colour >= 0:
        counts[s.blue_colour] += 1

    def add(code, k=1):
        counts[code // 4] += k
    for code in range(N_CODES):
        add(code, s.table[code])
        for p in range(s.r.n):
            add(code, s.active[p][code])
    for p in range(s.r.n):
        for x in s.inactive[p]:
            if x >= 0:
                add(x)
    for c in range(N_CHARS):
        for x in s.char_wait[c]:
            if x >= 0:
                add(x)
    for slot in range(N_PAINTINGS):
        for x in s.occ[slot]:
            if x >= 0:
                add(x)
    return counts


def _check_box(s):
    counts = box_counts(s)
    for c in range(N_COLOURS + 1):
        box = BOX_WHITES if c == WHITE else BOX_PER_COLOUR
        if counts[c] != box:
            where = "whites" if c == WHITE else f"bag.{COLOUR_NAMES[c]}"
            _bad(where, f"{COLOUR_NAMES[c]} Minigoghs add up to {counts[c]} "
                        f"(score token included); the box holds {box}")
