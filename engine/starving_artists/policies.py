"""Game knowledge for Starving Artists bots: plain functions over the Python
state API (any implementation), never the search.

`heuristic(state, rng)` — a painter with a plan: sell every completed canvas;
paint whenever a cube fits (own colours before wilds, the canvas nearest
completion first); keep two unfinished canvases, buying the best value for
its cost (stars, food, paint value against squares still to fill with the
cubes at hand); otherwise work; use the free action to trade surplus cubes
(colours no canvas needs) for the colours the canvases lack; pay with surplus,
never a wild if another cube will do; take the colours needed most, wilds
first. Last Supper: discard the painting with the fewest stars. Solo
advance: return the colour needed less.

`evaluate(state)` — every player's expected return, pairwise from
`position_value` (stars, food earned, completed and partly painted canvases,
cubes, nutrition, the carrot; weights fitted to game results): what the
`greedy` bot scores the end of its turn by
(engine/kit.py, Policies). Solo has no opponent to rank against: None.
"""
from __future__ import annotations

from easel.engine.kit import pairwise_estimate

from .deck import load_deck
from .rules import (BUY, CUBE_NAMES, DONE, FULL, PAINT, PAINT_AT, PAY, RETURN, SELL, STUDY,
                    SUPPER, TAKE, TRADE, TRADES, WILD, WORK, split_paint_at)


def _card(deck, printed_id):
    """The deck's canvas the view names by its printed id."""
    i = deck.index_of(printed_id)
    if i < 0:       # never a silent other canvas (cards[-1])
        raise KeyError(f"no canvas of the deck has the printed id {printed_id!r}")
    return deck.cards[i]


def _needs(view, p):
    """Empty squares on p's canvases taking each colour (index 0..6); unfinished count."""
    need = [0] * 8
    unfinished = 0
    deck = load_deck(view["deck"])
    for cv in view["studios"][p]["canvases"]:
        sq = _card(deck, cv["canvas"]).squares
        if any(x is None for x in cv["cubes"]):
            unfinished += 1
        for k, x in enumerate(cv["cubes"]):
            if x is None:
                for c in sq[k]:
                    need[c] += 1
    return need, unfinished


def _canvas_value(card, cubes):
    """Worth of buying `card` with the cubes at hand: its rewards against the
    squares the studio cannot fill yet."""
    have = list(cubes)
    missing = 0
    for cols in card.squares:
        c = next((c for c in cols if have[c] > 0), None)
        if c is None:
            missing += 1
        else:
            have[c] -= 1
    return 2.0 * card.stars + 0.7 * card.food + 0.3 * card.paint - 1.2 * missing


def _score(view, p, need, unfinished, a):
    ph = view["phase"]
    st = view["studios"][p]
    cubes = [st["cubes"][c] for c in CUBE_NAMES]
    deck = load_deck(view["deck"])
    if a >= PAINT_AT:
        i, c, _ = split_paint_at(a)
        cv = next(x for x in st["canvases"] if x["canvas"] == deck.cards[i].id)
        empty = sum(1 for x in cv["cubes"] if x is None)
        return 50.0 - empty - (8.0 if c == WILD else 0.0)
    if SELL <= a < SUPPER:
        return 100.0
    if SUPPER <= a < PAINT_AT:
        return 20.0 - deck.cards[a - SUPPER].stars
    if ph == "pay":
        c = a - PAY
        surplus = cubes[c] - need[c]
        return surplus - (20.0 if c == WILD else 0.0)
    if ph in ("take", "collect"):
        c = a - TAKE
        return need[c] - 0.3 * cubes[c] + (30.0 if c == WILD else 0.0)
    if ph == "advance":
        return -need[a - RETURN]
    if a == DONE:
        return 10.0 if ph == "turn" else 0.0
    if a == PAINT:
        return 40.0
    if BUY <= a < BUY + 3:
        if unfinished >= 2:
            return -5.0
        m = view["market"][a - BUY]
        return 25.0 - 2.0 * (a - BUY + 1) + _canvas_value(_card(deck, m["canvas"]), cubes)
    if a == WORK:
        return 20.0
    if TRADE <= a < TRADE + 3:
        surplus = sum(max(0, cubes[c] - need[c]) for c in range(WILD))
        pay = TRADES[a - TRADE][0]         # solo's one trade is the first
        lacking = sum(1 for c in range(WILD) if need[c] > cubes[c]
                      and view["payday_pile"][CUBE_NAMES[c]] > 0)
        return 15.0 + (a - TRADE) if surplus >= pay and lacking > a - TRADE else -1.0
    if STUDY <= a < SELL:
        give, want = divmod(a - STUDY, 8)
        return 14.0 if cubes[give] - need[give] >= 4 and need[want] > cubes[want] else -2.0
    return -2.0

# The evaluation is a weighted sum of these features of one player's studio,
# in this order (policy.pyx sums them in the same order, for the same doubles).
# The weights are a logistic fit of game results on the difference of two
# players' features, over positions from recorded two-player search games
# (tools/fit_starving_artists_value.py; docs/starving-artists-value.md gives the data and the fit),
# rounded to quarters. A canvas announced for sale counts as sold (its stars,
# the food it feeds within the cap, its food, its paint): the sale completes
# only after the collection turns, and the fit's own weights for announced
# canvases rest on few positions.
VALUE_FEATURES = (
    "stars", "nutrition", "cubes", "wilds", "food_earned", "carrot", "starved",
    "canvases",                 # unfinished or complete, not announced
    "near_stars", "near_food",  # the two canvases nearest completion ...
    "near_stars_done", "near_food_done",  # ... and the same times the share painted
    "far_stars_done", "far_food_done",    # the others, times the share painted
    "sale_stars", "sale_meals", "sale_food", "sale_paint")  # announced canvases
VALUE_WEIGHTS = (
    3.0, 0.75, 0.75, 0.5, 1.75, -1.0, -0.5,
    2.0,
    -1.0, 2.0,
    3.25, 3.0,
    4.25, 4.5,
    3.0, 0.75, 1.75, 0.75)
# Four players: the same fit over pairs of players in recorded four-player
# games (docs/starving-artists-value.md, "Four players"), rounded and with
# announced canvases counted as sold in the same way. Three players keep the
# two-player weights: a three-player fit predicted their games hardly better
# (the same page).
VALUE_WEIGHTS_4P = (
    4.25, 1.5, 1.0, 1.0, 0.5, -1.0, 0.5,
    2.0,
    1.0, -0.75,
    2.5, 4.75,
    0.25, 1.0,
    4.25, 1.5, 0.5, 1.0)
VALUE_SCALE = 15.0       # position_value units: three per star
VALUE_CONFIDENCE = 0.9   # evaluate's estimates stay inside the terminal values


def heuristic(state, rng):
    legal = state.legal_actions()
    if len(legal) == 1:
        return legal[0]
    view = state.to_json()
    p = state.current_player()
    need, unfinished = _needs(view, p)
    scored = [(_score(view, p, need, unfinished, a), a) for a in legal]
    best = max(s for s, _ in scored)
    return rng.choice([a for s, a in scored if s >= best - 1e-9])


def value_features(view, p):
    """Player p's VALUE_FEATURES, as floats (not the rules)."""
    st = view["studios"][p]
    deck = load_deck(view["deck"])
    f = [0.0] * len(VALUE_FEATURES)
    f[0] = float(st["stars"])
    f[1] = float(st["nutrition"])
    f[2] = float(sum(st["cubes"].values()))
    f[3] = float(st["cubes"]["wild"])
    f[4] = float(st["food_earned"])
    f[5] = 1.0 if view["first_player"] == p else 0.0
    f[6] = 0.0 if st["alive"] else 1.0
    announced = set(view["pending"]["selling"])
    progress = []
    for cv in st["canvases"]:
        card = _card(deck, cv["canvas"])
        if cv["canvas"] in announced:       # printed ids, both
            f[14] += card.stars
            f[15] += min(card.food, FULL - st["nutrition"])
            f[16] += card.food
            f[17] += card.paint
            continue
        f[7] += 1.0
        done = sum(1 for x in cv["cubes"] if x is not None) / len(cv["cubes"])
        progress.append((done, 4 * card.stars + card.food, card.stars, card.food))
    # Nearest completion first, then the more valuable (stars count four
    # times food), then the more stars: the two nearest are worth a share at
    # once (else buying one never pays within a turn), the rest only their
    # progress (they tie up cubes the first two need).
    for k, (done, _, stars, food) in enumerate(sorted(progress, reverse=True)):
        if k < 2:
            f[8] += stars
            f[9] += food
            f[10] += stars * done
            f[11] += food * done
        else:
            f[12] += stars * done
            f[13] += food * done
    return f


def value_weights(players: int):
    """The evaluation's weights for a game of `players` players."""
    return VALUE_WEIGHTS_4P if players == 4 else VALUE_WEIGHTS


def position_value(view, p):
    """A rough worth of player p's position (not the rules)."""
    v = 0.0
    for w, x in zip(value_weights(len(view["studios"])), value_features(view, p)):
        v += w * x
    return v


def evaluate(state):
    """Expected rank returns: a position VALUE_SCALE ahead of another player's
    (five stars) reads as winning that pair about 7 times in 8."""
    view = state.to_json()
    n = len(view["studios"])
    if n < 2:
        return None
    return pairwise_estimate([position_value(view, p) for p in range(n)], VALUE_SCALE,
                             VALUE_CONFIDENCE)
