"""Couleurs de Paris invariants after every step of many random games at 2, 3
and 4 players: pigments conserved colour by colour (supply + players +
unfinished paintings = the box: RULINGS.md §27), assistants conserved,
scores never decrease before the end, chance probabilities sum to 1, at most
12 pigments besides black once phase 3 is over (§20), every game ends.

Two walkers: uniform random choices, and a keen one that acts rather than
lays down and paints whenever it can, so that games reach both end triggers
(§23). Counts: 40 per player count and walker on the core and 6 on the
reference; 2,000 and 100 with EASEL_FULL=1; EASEL_CDP_GAMES sets any."""
from __future__ import annotations

import os
import random

import pytest

from easel import engine
from easel.engine.couleurs_de_paris.rules import LAYDOWN, PAINT, STOP, TOOL, USE

from cdp_helpers import BOX, IMPLS, load

# CI plays a few dozen per case; EASEL_FULL=1 plays thousands (2,000 per player
# count and walker on the core), and EASEL_CDP_GAMES sets any count.
GAMES = ({"core": 2000, "reference": 100} if os.environ.get("EASEL_FULL") == "1"
         else {"core": 40, "reference": 6})


def _games(impl):
    text = os.environ.get("EASEL_CDP_GAMES")
    return int(text) if text else GAMES[impl]


def keen(state, legal, rng):
    """Acts (not lays down), paints, and stops painting only when forced."""
    painting = [a for a in legal if PAINT <= a < STOP]
    if painting:
        return rng.choice(painting)
    acting = [a for a in legal if USE <= a < LAYDOWN]
    if acting and rng.random() < 0.9:
        return rng.choice(acting)
    useful = [a for a in legal if not LAYDOWN <= a < TOOL and a != STOP] or legal
    return rng.choice(useful)


def uniform(state, legal, rng):
    return legal[rng.randrange(len(legal))]


def check(view, prev, where):
    n = view["players"]
    counts = dict(view["supply"])
    for b in view["boards"]:
        for c, k in b["pigments"].items():
            counts[c] += k
        for pv in b["paintings"]:
            if not pv["finished"]:
                for x in pv["filled"]:
                    if x:
                        counts[x] += 1
        hired = b["assistants"]
        assert hired == 3 + sum(1 for x in b["bonus"].values() if x == "assistant"), where
        assert 3 <= hired <= 6, where
    assert counts == BOX, f"{where}: pigments {counts} != box {BOX}"
    placed = [0] * n
    for spot in list(view["lower_board"]) + list(view["upper_board"].values()):
        for q in spot["standing"] + spot["lying"]:
            placed[q] += 1
    for lv in view["lower_board"]:
        assert len(lv["standing"]) + len(lv["lying"]) <= lv["spaces"], where
    for p, b in enumerate(view["boards"]):
        if view["phase"] == "place":
            assert placed[p] + b["to_place"] == b["assistants"], where
        else:
            assert placed[p] <= b["assistants"], where
    if prev is not None and view["phase"] != "end":
        assert all(a >= b for a, b in zip(view["scores"], prev["scores"])), \
            f"{where}: scores fell from {prev['scores']} to {view['scores']}"
    if view["phase"] == "place" and view["round"] > 1:
        for p, b in enumerate(view["boards"]):
            kept = sum(k for c, k in b["pigments"].items() if c != "black")
            assert kept <= 12, f"{where}: player {p} kept {kept} pigments after phase 3"


def play(game, rng, walker, where):
    s = game.new_initial_state()
    prev = None
    triggers = 0
    for step in range(50 * game.max_game_length()):
        view = s.to_json()
        check(view, prev, f"{where} step {step}")
        prev = view
        if s.is_terminal():
            return s, view
        if s.is_chance_node():
            out = s.chance_outcomes()
            assert abs(sum(p for _, p in out) - 1.0) < 1e-12 and all(p > 0 for _, p in out)
            s.apply_action(engine.draw_outcome(s, rng))
        else:
            legal = s.legal_actions()
            assert legal, where
            s.apply_action(walker(s, legal, rng))
    pytest.fail(f"{where}: no end")


@pytest.mark.parametrize("impl", IMPLS)
@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("walker", [uniform, keen], ids=["uniform", "keen"])
def test_invariants_over_random_games(impl, players, walker):
    game = load(f"couleurs_de_paris(players={players})", impl)
    rng = random.Random(1000 * players + (walker is keen))
    ends = {"paintings": 0, "black": 0, "rounds": 0}
    for g in range(_games(impl)):
        s, view = play(game, rng, walker, f"{players}p {walker.__name__} game {g}")
        finished = max(sum(pv["finished"] for pv in b["paintings"]) for b in view["boards"])
        if finished >= 2:
            ends["paintings"] += 1
        elif view["supply"]["black"] == 0:
            ends["black"] += 1
        else:
            ends["rounds"] += 1
            assert view["round"] == 40
        r = s.returns()
        assert len(r) == players and all(-1.0 <= x <= 1.0 for x in r)
        assert abs(sum(r)) < 1e-9          # (beaten - beating) sums to zero
    if walker is keen:
        assert ends["paintings"] > 0, ends     # the keen walker reaches the end triggers
