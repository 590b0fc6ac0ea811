"""Couleurs de Paris constants, action ids and per-game rule parameters.

Shared by the reference, the codec, the view and (as documentation) the
core: the ids here are the ones ENCODING.md tabulates. Section numbers (§N)
are those of RULINGS.md.
"""
from __future__ import annotations

from dataclasses import dataclass

from easel.engine.errors import GameSpecError
from easel.engine.structcore import cached_rules

from .data import (ACTION_NAMES, MAX_PAINTINGS, PAINT_COLOURS, POSITIONS, SPACES,
                   SUPPLY_COLOURS, TOOLS, TRACK_LEN, BoardData, load_data)

# Colours (pigment indices): the six paint colours in wheel order, then white, black.
RED, ORANGE, YELLOW, GREEN, BLUE, VIOLET, WHITE, BLACK = range(8)
N_COLOURS = 8
N_PAINT = 6            # colours a painting space can require
N_PAYABLE = 7          # colours that can pay for an improvement (§13): all but black
PRIMARIES = (RED, YELLOW, BLUE)
# A secondary colour s is mixed from the primaries beside it on the wheel.
MIX = {ORANGE: (RED, YELLOW), GREEN: (YELLOW, BLUE), VIOLET: (BLUE, RED)}

# Action kinds of the wheel (lower board), then the centre spaces (upper board).
K_BLACK, K_IMPROVE, K_TAKE, K_PAINT = 6, 7, 8, 9
N_WHEEL = 10
C_FIRST, C_IMITATOR, C_ROTATE, C_WHITE = 10, 11, 12, 13
N_LOCATIONS = 14       # 10 lower-board actions + 4 centre spaces
CENTRE_NAMES = ("first player", "imitator", "rotate", "white")
LOCATION_NAMES = ("acquire red", "mix orange", "acquire yellow", "mix green", "acquire blue",
                  "mix violet", "mix black", "improve a tool", "take a painting", "paint",
                  "first player", "imitator", "rotate the board", "acquire white")
TUBE, PALETTE, BRUSH = range(3)
N_TOOLS = 3
BONUS_LEVEL = 6        # §12: the development bonus space (start space = level 1)
LIMIT = 12             # §20: pigments kept after phase 3 (black excluded)
WHITE_PER_PAINTING = 3
MAX_ASSISTANTS = 6
START_ASSISTANTS = 3
N_EASELS = 4

# Decision action ids (ENCODING.md, "Decision actions").
PLACE = 0              # + location 0..13
USE = 16               # + location: lay the assistant down and perform the action
LAYDOWN = 32           # + location: lay the assistant down without acting (§22)
TOOL = 48              # + tool 0..2
PAY = 52               # + colour 0..6
BONUS_ASSISTANT = 60
BONUS_POINTS = 61
TAKE = 64              # + easel 0..3
IMITATE = 68           # + wheel action 0..9
PAINT = 80             # + card*9 + space: the space's own colour
PAINT_WHITE = PAINT + MAX_PAINTINGS * SPACES          # 368: + card*9 + space, a white pigment
STOP = PAINT_WHITE + MAX_PAINTINGS * SPACES           # 656: stop painting
ROTATE_0 = 657
ROTATE_2 = 658
DISCARD = 660          # + colour 0..6
STAND = 668            # + wheel action 0..9 (the lower-board space facing it)
RESERVED = 680         # 680..719: kept for bonus cards and painter tiles (§26)
NUM_ACTIONS = 720

# Phases of the state machine (ENCODING.md, "Phases").
PHASES = ("deal", "place", "act", "tool", "pay", "bonus", "take", "imitate", "paint",
          "rotate", "refill", "discard", "stand", "end")
(DEAL, PLACE_P, ACT, TOOL_P, PAY_P, BONUS_P, TAKE_P, IMITATE_P, PAINT_P, ROTATE_P, REFILL,
 DISCARD_P, STAND_P, END) = range(14)
CHANCE_PHASES = (DEAL, REFILL)

assert STOP == 656 and PAINT_WHITE == 368

# The core's rollout policy (policy.pyx) plays a uniform move with this
# probability, else its rule of thumb (docs/strength.md, "How the search
# defaults were measured").
ROLLOUT_EPSILON = 0.15


@dataclass(frozen=True)
class Rules:
    n: int
    first: int                      # seat of the first player at setup
    max_rounds: int
    easels: int                     # 3 with 2 players (§2), else 4
    data: BoardData
    slot_of: tuple[int, ...]        # wheel slot of each action kind
    capacity: tuple[int, ...]       # usable spaces per lower-board position (§2, §5)
    tracks: tuple[tuple[int, ...], ...]
    supply: tuple[int, ...]         # the box, per colour
    total: int                      # pigment cubes in the box


def make_rules(params: dict) -> Rules:
    n = params["players"]
    if not 0 <= params["first"] < n:
        raise GameSpecError(f"couleurs_de_paris: option 'first'={params['first']}: must be a "
                            f"seat from 0 to {n - 1}")
    d = load_data(params["data"])
    if len(d.paintings) < 4:
        raise GameSpecError("couleurs_de_paris: the data file needs at least 4 paintings")
    slot_of = [0] * N_WHEEL
    for slot, kind in enumerate(d.wheel):
        slot_of[kind] = slot
    cover = d.tiles[n]
    cap = tuple(d.lower_spaces[q] - cover[q] for q in range(POSITIONS))
    return Rules(n=n, first=params["first"], max_rounds=params["maxrounds"],
                 easels=3 if n == 2 else 4, data=d, slot_of=tuple(slot_of), capacity=cap,
                 tracks=d.tracks, supply=d.supply, total=sum(d.supply))


def rules_of(game) -> Rules:
    return cached_rules(game, make_rules)


def position_of(r: Rules, rot: int, kind: int) -> int:
    """The lower-board position facing wheel action `kind` after `rot` clockwise steps."""
    return (r.slot_of[kind] + rot) % POSITIONS


def kind_at(r: Rules, rot: int, pos: int) -> int:
    """The wheel action facing lower-board position `pos`."""
    return r.data.wheel[(pos - rot) % POSITIONS]


def amount(r: Rules, tool: int, level: int) -> int:
    return r.tracks[tool][level - 1]


def max_game_length(r: Rules) -> int:
    """An honest bound on decisions (ENCODING.md "Length"): per round, placing
    and acting for at most 6 assistants each (an action takes at most 1 + 7
    decisions: choose, tool, 2 payments, bonus; or choose, imitate, up to 6
    paints and a stop), the rotation, at most every cube discarded, standing."""
    per_round = r.n * MAX_ASSISTANTS * (1 + 9) + 1 + r.total + r.n
    return r.max_rounds * per_round
