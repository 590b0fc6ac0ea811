"""Van Gogh constants, action ids and the per-game rule parameters.

The one source of the numbers both implementations use: the reference, the
codec and the field table import them; the core's `cdef enum` in state.pxd
repeats the integers Cython needs at compile time (tests/vangogh/test_fields.py
checks each against this module), and policy.pyx reads the evaluation's
weights from here when it is imported. The ids are the ones ENCODING.md
tabulates.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from easel.engine.errors import GameSpecError
from easel.engine.structcore import cached_rules

from .deck import MAX_CARDS, MAX_SPACES, Deck, load_deck  # noqa: F401 (MAX_CARDS: for fields.py)

COLOURS = ("yellow", "blue", "pink", "green", "purple")
COLOUR_NAMES = COLOURS + ("white",)
YELLOW_C, BLUE_C, PINK_C, GREEN_C, PURPLE_C = range(5)
WHITE = 5
N_COLOURS = 5
ORIENTS = ("lying down", "sideway", "upright", "upside down")
N_ORIENT = len(ORIENTS)
N_CODES = 24
# R6: lying down -> upright -> sideway -> upside down -> lying down.
PINK_CYCLE = (2, 3, 1, 0)

CHARS = ("Van Gogh", "Dr. Gachet", "Madame Ginoux", "Anna", "Postman", "Eugene")
VAN_GOGH, GACHET, GINOUX, ANNA, POSTMAN, EUGENE = range(6)
N_CHARS = 6
MAX_PLAYERS = 5
N_PAINTINGS = 3
TABLE_SIZE = 5
ACTIVE_CAP = 7
INACTIVE = 3
BOX_PER_COLOUR = 11
BOX_WHITES = 5
SOLO_ROUNDS = 5

# The heuristic evaluation (reference.py evaluate, policy.pyx vg_evaluate):
# palette worth of a white and of a coloured Minigogh, and the EP difference
# that counts as a clear lead.
EVAL_WHITE = 4
EVAL_COLOURED = 2
EVAL_SCALE = 10.0

# Decision action ids (ENCODING.md, "Decision actions").
DONE = 6
PAINT = 7                      # 7 + (src*3 + slot)*7 + space, src 0..24
REORIENT = 532                 # + code*4 + new orientation
RESTART = 628                  # + code
EPIPHANY = 652
TAKE = 653                     # + code
KEEP = 677                     # + colour
YELLOW = 682                   # + target*4 + new orientation, target 0..6
PINK = 710                     # + target, 0..23 active code, 24..26 inactive space
BLUE = 737
BLUE_ORIENT = 738              # + orientation
BLUE_DISCARD = 742             # + code
BRUSH = 766
NUM_ACTIONS = 767

assert PAINT + 25 * N_PAINTINGS * MAX_SPACES == REORIENT

PHASES = ("setup_cards", "setup_table", "setup_palette", "choose", "wait_keep", "step",
          "ginoux_draw", "ginoux_keep", "roll", "sec_draw", "eugene_take", "refill", "card",
          "blue_draw", "blue_orient", "blue_discard", "brush", "eor", "end")




def code_of(colour: int, orient: int) -> int:
    return colour * 4 + orient


def piece_name(code: int) -> str:
    return f"{COLOUR_NAMES[code // 4]}-{ORIENTS[code % 4]}"


def parse_piece(text) -> int:
    """'blue-sideway' (or 'blue sideway') -> code; ValueError otherwise."""
    if not isinstance(text, str):
        raise ValueError(f"a Minigogh must be text like 'blue-upright', got {text!r}")
    t = text.strip().lower().replace("_", " ")
    for c, cname in enumerate(COLOUR_NAMES):
        for o, oname in enumerate(ORIENTS):
            for sep in ("-", " "):
                if t == f"{cname}{sep}{oname}" or t == f"{cname}{sep}{oname.replace(' ', '-')}":
                    return code_of(c, o)
    raise ValueError(f"unknown Minigogh {text!r}: expected colour-orientation, colour in "
                     f"{', '.join(COLOUR_NAMES)}, orientation in {', '.join(ORIENTS)}")


def parse_colours(text: str, players: int) -> tuple[int, ...]:
    """The `colors` option: '' (default) or names separated by '-' or ';'."""
    if not text:
        if players == 1:
            return (YELLOW_C,)
        return tuple(range(players))
    names = [x.strip().lower() for x in text.replace(";", "-").split("-") if x.strip()]
    out = []
    for name in names:
        if name not in COLOURS:
            raise GameSpecError(f"vangogh: option 'colors': unknown colour {name!r}; "
                                f"colours: {', '.join(COLOURS)}")
        if COLOURS.index(name) in out:
            raise GameSpecError(f"vangogh: option 'colors': {name} given twice")
        out.append(COLOURS.index(name))
    if len(out) != players:
        raise GameSpecError(f"vangogh: option 'colors' names {len(out)} colours for "
                            f"{players} players")
    if players == 1 and out[0] == PURPLE_C:
        raise GameSpecError("vangogh: option 'colors': the solo game cannot use purple "
                            "(rulebook, Solo Setup)")
    return tuple(out)


def parse_roll(text: str) -> tuple[float, float, float, float]:
    """The `roll` option: 4 non-negative finite weights for lying down,
    sideway, upright, upside down, separated by '-' or ';' (normalised).
    Every field must be a number: an empty field (as in '1--2-1-1', where
    '-2' would otherwise pass for 2) is refused, so the canonical game string,
    which keeps the text, always reads as the weights used."""
    fields = text.replace(";", "-").split("-")
    what = f"vangogh: option 'roll'={text!r}"
    if len(fields) > 1 and any(not f.strip() for f in fields):
        raise GameSpecError(f"{what}: a weight is empty (weights cannot be negative; '-' "
                            f"separates them)")
    if len(fields) != 4:
        raise GameSpecError(f"{what}: needs 4 weights (lying down-sideway-upright-upside down) "
                            f"separated by '-', got {len(fields)} fields")
    w = []
    for i, (name, field) in enumerate(zip(("lying down", "sideway", "upright", "upside down"),
                                          fields)):
        if not field.strip():
            raise GameSpecError(f"{what}: weight {i + 1} ({name}) is empty (weights cannot be "
                                f"negative; '-' separates them)")
        try:
            x = float(field)
        except ValueError:
            raise GameSpecError(f"{what}: weight {i + 1} ({name}) {field.strip()!r} is not a "
                                f"number") from None
        if not math.isfinite(x):
            raise GameSpecError(f"{what}: weight {i + 1} ({name}) {field.strip()!r} is not "
                                f"finite")
        if x < 0:
            raise GameSpecError(f"{what}: weight {i + 1} ({name}) is negative")
        w.append(x)
    try:
        total = math.fsum(w)
    except OverflowError:
        total = math.inf
    if not math.isfinite(total):
        raise GameSpecError(f"{what}: the weights' sum overflows; use smaller numbers")
    if total <= 0:
        raise GameSpecError(f"{what}: the weights' sum must be positive")
    return tuple(x / total for x in w)


@dataclass(frozen=True)
class Rules:
    n: int
    solo: bool
    colours: tuple[int, ...]        # colour of each player
    owner: tuple[int, ...]          # player of each colour, -1 uncontrolled
    start: int
    roll: tuple[float, ...]
    purple_active: bool
    max_rounds: int
    solo_rounds: int
    turns_per_round: int
    deck: Deck


def make_rules(params: dict) -> Rules:
    n = params["players"]
    colours = parse_colours(params["colors"], n)
    owner = [-1] * N_COLOURS
    for p, c in enumerate(colours):
        owner[c] = p
    if not 0 <= params["start"] < n:
        raise GameSpecError(f"vangogh: option 'start'={params['start']}: must be a seat "
                            f"from 0 to {n - 1}")
    deck = load_deck(params["deck"])
    turns = 3 if n == 1 else (4 if n == 2 else n)
    return Rules(n=n, solo=n == 1, colours=colours, owner=tuple(owner), start=params["start"],
                 roll=parse_roll(params["roll"]), purple_active=params["purpleactive"],
                 max_rounds=params["maxrounds"], solo_rounds=SOLO_ROUNDS,
                 turns_per_round=turns, deck=deck)


def rules_of(game) -> Rules:
    return cached_rules(game, make_rules)


def max_game_length(r: Rules) -> int:
    """An honest bound on decisions (ENCODING.md 'Utilities and length')."""
    if r.solo:
        return r.solo_rounds * (r.turns_per_round * 5 + 2)
    return r.max_rounds * (r.turns_per_round * (r.n + 3) + 3)
