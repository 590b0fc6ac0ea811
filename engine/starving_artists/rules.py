"""Starving Artists constants, action ids and the per-game rule parameters.

Shared by the reference, the codec, the view and (as documentation) the
core: the ids here are the ones ENCODING.md tabulates; § numbers cite
RULINGS.md.
"""
from __future__ import annotations

from dataclasses import dataclass

from easel.engine.errors import GameSpecError
from easel.engine.structcore import cached_rules

from .deck import COLOURS, MAX_CARDS, MAX_SQUARES, Deck, load_deck

CUBE_NAMES = COLOURS + ("wild",)
RED, ORANGE, YELLOW, GREEN, BLUE, VIOLET, BLACK, WILD = range(8)
N_CUBES = 8                          # seven colours and the clear (wild) cube
# §1: the box's 150 cubes, per cube colour (red ... black, wild).
BOX = (15, 20, 20, 20, 30, 15, 20, 10)
BOX_TOTAL = 150
FULL = 5                             # nutrition track: 5 (full) down to 1
MAX_PLAYERS = 4
MARKET = 3                           # market slots; slot i costs i + 1 cubes
PAYDAY_CUBES = 4
WORK_CUBES = 3
PAINT_CUBES = 4
EXCESS_FOOD_CUBES = 4
START_CUBES = 6
SOLO_START_CUBES = 2
SOLO_ACTIONS = 2
TRADES = ((2, 1), (5, 2), (9, 3))    # §14: cubes paid -> cubes taken
SOLO_TRADES = ((2, 1),)
RESET_COST = 2
STUDY_CUBES = 4
# §27: fame by player count (stars, paintings); the solo goal is 20 / 10.
FAME = {1: (20, 10), 2: (20, 10), 3: (18, 9), 4: (15, 7)}

# Decision action ids (ENCODING.md, "Decision actions").
WORK = 0
PAINT = 1
BUY = 2                 # + slot (0: 1 cube, 1: 2 cubes, 2: 3 cubes)
RESET = 5
TRADE = 6               # + trade (0: 2 for 1, 1: 5 for 2, 2: 9 for 3)
DONE = 9
PAY = 10                # + cube colour 0..7
TAKE = 18               # + cube colour 0..7
RETURN = 26             # + colour 0..6
STUDY = 33              # + given colour * 8 + wanted colour
SELL = 97               # + canvas
SUPPER = SELL + MAX_CARDS                 # 257 + canvas
PAINT_AT = SUPPER + MAX_CARDS             # 417 + (canvas*8 + cube)*16 + square
NUM_ACTIONS = PAINT_AT + MAX_CARDS * N_CUBES * MAX_SQUARES   # 20897

PHASES = ("setup", "draw", "canvas", "dawn", "supper", "turn", "paint", "pay", "take",
          "announce", "feed", "collect", "advance", "dusk", "end")
(SETUP, DRAW, CANVAS, DAWN, SUPPER_P, TURN, PAINT_P, PAY_P, TAKE_P, ANNOUNCE, FEED, COLLECT,
 ADVANCE, DUSK, END) = range(len(PHASES))

# What a PAY sequence pays for (pay_for).
PAY_BUY, PAY_TRADE, PAY_RESET = 0, 1, 2
PAY_FOR = ("buy", "trade", "reset")
TO_PILE = -1            # draw_to: the payday pile

# Where a canvas is (loc): the face-down pile's unknown part, the known part
# under it (cards put back by a reset), the market, out of the game, a studio,
# a player's sold paintings.
UNSEEN, QUEUE, IN_MARKET, REMOVED = 0, 1, 2, 3
STUDIO0 = 4             # + player
SOLD0 = 8               # + player


def paint_at(canvas: int, cube: int, square: int) -> int:
    return PAINT_AT + (canvas * N_CUBES + cube) * MAX_SQUARES + square


def split_paint_at(action: int) -> tuple[int, int, int]:
    rest, square = divmod(action - PAINT_AT, MAX_SQUARES)
    canvas, cube = divmod(rest, N_CUBES)
    return canvas, cube, square


def parse_cube(text) -> int:
    """'blue' (or 'purple', 'clear', 'wild') -> cube colour index; ValueError otherwise."""
    if not isinstance(text, str):
        raise ValueError(f"a cube colour must be text, got {text!r}")
    t = text.strip().lower()
    t = {"purple": "violet", "clear": "wild"}.get(t, t)
    if t not in CUBE_NAMES:
        raise ValueError(f"unknown cube colour {text!r}; colours: {', '.join(CUBE_NAMES)}")
    return CUBE_NAMES.index(t)


@dataclass(frozen=True)
class Rules:
    n: int
    solo: bool
    start: int
    deck: Deck
    fame_stars: int
    fame_paintings: int
    colour_study: bool
    last_supper: bool
    set_aside: int              # solo: canvases set aside unseen
    start_cubes: int
    trades: tuple

    @property
    def n_cards(self) -> int:
        return len(self.deck.cards)


def make_rules(params: dict) -> Rules:
    n = params["players"]
    solo = n == 1
    if not 0 <= params["start"] < n:
        raise GameSpecError(f"starving_artists: option 'start'={params['start']}: must be a "
                            f"seat from 0 to {n - 1}")
    deck = load_deck(params["deck"])
    stars, paintings = FAME[n]
    set_aside = params["setaside"] if solo else 0
    if solo and len(deck.cards) < set_aside + MARKET:
        raise GameSpecError(f"starving_artists: option 'setaside'={set_aside}: the solo game "
                            f"sets aside {set_aside} of {len(deck.cards)} canvases and needs "
                            f"{MARKET} more for the market")
    return Rules(n=n, solo=solo, start=params["start"], deck=deck,
                 fame_stars=params["famestars"] or stars,
                 fame_paintings=params["famepaintings"] or paintings,
                 colour_study=params["colourstudy"], last_supper=params["lastsupper"],
                 set_aside=set_aside, start_cubes=SOLO_START_CUBES if solo else START_CUBES,
                 trades=SOLO_TRADES if solo else TRADES)


def rules_of(game) -> Rules:
    return cached_rules(game, make_rules)


def max_days(r: Rules) -> int:
    """An honest bound on the days of a game (ENCODING.md 'Length').

    Multi-player: until someone starves every player loses one nutrition a
    day, and nutrition comes only from the 5 each starts with, the food of
    sold paintings (each canvas is sold at most once) and, with Last Supper,
    the stars of discarded paintings; the day someone starves is the last.
    Solo: every day ends by removing a market canvas, so the pile of
    (deck - set aside) canvases lasts at most that many days (plus the day
    the market runs dry)."""
    food = sum(c.food for c in r.deck.cards)
    stars = sum(c.stars for c in r.deck.cards) if r.last_supper else 0
    by_food = (FULL * r.n + food + stars) // r.n + 1
    if r.solo:
        return min(by_food, r.n_cards - r.set_aside + 1)
    return by_food


def max_game_length(r: Rules) -> int:
    """Decisions per day, at most: per player two turns of (choice, 4 paints
    or 3 payments, done, free action choice, 9 payments, 3 takes, end) = 40,
    announcements (one per completed canvas, at most 50 with 150 cubes, and
    'no more'), a Last Supper choice; per day 150 collection picks (the pile
    holds at most 150 cubes) and, solo, 16 split-square returns and sales."""
    per_day = r.n * (2 * 20 + 51 + 1) + 150 + 16 + 51
    return max_days(r) * per_day
