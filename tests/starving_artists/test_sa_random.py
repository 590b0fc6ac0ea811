"""Starving Artists invariants after every step of thousands of random games,
at every player count and solo: the 150 cubes are conserved (bag + payday
pile + trade hold + studios + canvases), nutrition stays in 0..5 (1..5 while
alive), every canvas is in exactly one place, every game ends within the
declared length, chance probabilities sum to 1.

The random player leans toward progress (selling, painting, buying) half of
the time, so that sales, collection turns, feeding and fame happen often;
otherwise it picks uniformly. Counts: EASEL_SA_RANDOM_GAMES per variant and
implementation (default 250; 2,000 with EASEL_FULL=1)."""
from __future__ import annotations

import os
import random
import zlib

import pytest

from easel import engine
from easel.engine.starving_artists.rules import (BOX, BUY, PAINT, PAINT_AT, SELL, SOLD0,
                                                 STUDIO0, SUPPER, WORK)
from easel.engine.starving_artists.view import cube_totals

from sa_helpers import IMPLS

GAMES = int(os.environ.get("EASEL_SA_RANDOM_GAMES",
                           "2000" if os.environ.get("EASEL_FULL") == "1" else "100"))
SPECS = ["starving_artists(players=1)", "starving_artists(players=2)",
         "starving_artists(players=3)", "starving_artists(players=4)",
         "starving_artists(players=2,colourstudy=true,lastsupper=true)",
         "starving_artists(players=1,lastsupper=true,colourstudy=true)"]


def progress_choice(state, rng):
    """Most of the time a player who means to sell: sell, paint whatever fits,
    buy a canvas while owning fewer than two, else work; sometimes any move."""
    legal = state.legal_actions()
    if rng.random() < 0.2:
        return rng.choice(legal)
    for keen in ([a for a in legal if SELL <= a < SUPPER],
                 [a for a in legal if a >= PAINT_AT],
                 [a for a in legal if a == PAINT]):
        if keen:
            return rng.choice(keen)
    owned = len(state.to_json()["studios"][state.current_player()]["canvases"])
    buys = [a for a in legal if BUY <= a < BUY + 3]
    if buys and owned < 2:
        return rng.choice(buys)
    if WORK in legal:
        return WORK
    return rng.choice(legal)


def _check_reference(s, where):
    tot = cube_totals(s)
    assert tot == list(BOX), f"{where}: cubes {tot} != box {list(BOX)}"
    for p in range(s.r.n):
        lo = 1 if s.alive[p] else 0
        assert lo <= s.nutrition[p] <= (5 if s.alive[p] else 0), f"{where}: nutrition {p}"
        assert all(x >= 0 for x in s.studio[p]), where
        assert s.stars[p] == sum(s.r.deck.cards[i].stars for i in range(s.r.n_cards)
                                 if s.loc[i] == SOLD0 + p), where
    assert all(x >= 0 for x in s.bag) and all(x >= 0 for x in s.pile), where
    for i in range(s.r.n_cards):
        if not STUDIO0 <= s.loc[i] < SOLD0:
            assert all(c < 0 for c in s.cubes[i]), f"{where}: paint on canvas {i} off a studio"
        assert s.cubes[i].count(7) <= 1, f"{where}: two wilds on canvas {i}"


def _check_view(v, where):
    tot = [v["bag"][c] + v["payday_pile"][c] + v["pending"]["held"][c] for c in v["bag"]]
    for st in v["studios"]:
        for k, c in enumerate(v["bag"]):
            tot[k] += st["cubes"][c]
        for cv in st["canvases"]:
            for x in cv["cubes"]:
                if x:
                    tot[list(v["bag"]).index(x)] += 1
        assert 0 <= st["nutrition"] <= 5, where
    assert tot == list(BOX), f"{where}: cubes {tot}"


@pytest.mark.parametrize("impl", IMPLS)
@pytest.mark.parametrize("spec", SPECS)
def test_invariants_in_random_games(spec, impl):
    g = engine.load_game(spec, implementation=impl)
    rng = random.Random(zlib.crc32(spec.encode()))      # str hash() differs per process
    games = GAMES
    if "colourstudy" in spec:
        games = max(1, games // 4)
    sold = 0
    ends = {"starved": 0, "famous": 0, "won": 0, "lost": 0}
    k = 0
    # Random play sells in only a few per cent of games: play on past the count
    # (up to 8 times it) until a sale has been checked too.
    while k < games or (sold == 0 and k < 8 * games):
        k += 1
        s = g.new_initial_state()
        steps = 0
        while not s.is_terminal():
            where = f"{spec} {impl} game {k} step {steps}"
            if s.is_chance_node():
                outs = s.chance_outcomes()
                assert abs(sum(p for _, p in outs) - 1.0) < 1e-9, where
                assert all(p > 0 for _, p in outs), where
                a = engine.draw_outcome(s, rng)
            else:
                a = progress_choice(s, rng)
                if SELL <= a < SUPPER:
                    sold += 1
            s.apply_action(a)
            steps += 1
            if impl == "reference":
                _check_reference(s, where)
            elif steps % 7 == 0 or s.is_terminal():
                _check_view(s.to_json(), where)
            assert s.decisions_taken() <= g.max_game_length(), where
        v = s.to_json()
        if g.num_players() == 1:
            ends["won" if v["result"] > 0 else "lost"] += 1
            assert v["result"] != 0
        else:
            starved = not all(st["alive"] for st in v["studios"])
            ends["starved" if starved else "famous"] += 1
        r = s.returns()
        assert all(-1.0 <= x <= 1.0 for x in r)
        if g.num_players() > 1:
            assert abs(sum(r)) < 1e-9
    assert sold > 0, f"{spec}: random play never sold a canvas"
