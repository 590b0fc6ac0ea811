"""Couleurs de Paris core against the reference, beyond the shared
differential suite (tests/test_differential.py, which compares the full JSON
view at every step and is slow for long games):

- a light differential over many games: player, legal actions, chance
  outcomes and probabilities and move texts at every step, the JSON view
  every 25 steps and at the end, the returns and scores (EASEL_CDP_DIFF games
  per player count; 2,000 with EASEL_FULL=1);
- sample_chance agrees with chance_outcomes;
- the rollout policy always returns a legal index, ends games, and the
  Python policies (policies.py) score every action as the core does;
- JSON round trips give the same bytes."""
from __future__ import annotations

import os
import random

import pytest

from easel import engine
from easel.search.bots import GreedyBot
from easel.engine.couleurs_de_paris import from_json, policies
from easel.engine.couleurs_de_paris.core import rollout_scores
from easel.engine.couleurs_de_paris.rules import rules_of

from cdp_helpers import load

if not engine.game_entry("couleurs_de_paris").has_core:
    pytest.skip("no core", allow_module_level=True)

FULL = os.environ.get("EASEL_FULL") == "1"


def _count():
    text = os.environ.get("EASEL_CDP_DIFF")
    return int(text) if text else (2000 if FULL else 30)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_light_differential(players):
    spec = f"couleurs_de_paris(players={players})"
    cg, rg = load(spec, "core"), load(spec, "reference")
    rng = random.Random(77 + players)
    for g in range(_count()):
        c, r = cg.new_initial_state(), rg.new_initial_state()
        step = 0
        keen = g % 2 == 1          # odd games follow the rollout policy, so they reach the end triggers
        while True:
            where = f"{spec} game {g} step {step}"
            assert c.current_player() == r.current_player(), where
            legal = r.legal_actions()
            assert c.legal_actions() == legal, where
            co, ro = c.chance_outcomes(), r.chance_outcomes()
            assert [a for a, _ in co] == [a for a, _ in ro], where
            assert all(abs(x - y) < 1e-12 for (_, x), (_, y) in zip(co, ro)), where
            if step % 25 == 0 or r.is_terminal():
                assert c.to_json() == r.to_json(), where
            if r.is_terminal():
                break
            if ro:
                a = engine.draw_outcome(r, rng)
            elif keen:
                a = c.rollout_action(rng.random(), rng.random())
            else:
                a = legal[rng.randrange(len(legal))]
            assert c.action_to_string(a) == r.action_to_string(a), where
            c.apply_action(a)
            r.apply_action(a)
            step += 1
        assert c.returns() == r.returns() and c.scores() == r.scores(), f"{spec} game {g}"


def test_sample_chance_matches_outcomes():
    s = load("couleurs_de_paris(players=3)", "core").new_initial_state()
    rng = random.Random(4)
    for _ in range(3):
        out = s.chance_outcomes()
        edges, acc = [], 0.0
        for a, p in out:
            edges.append((acc, acc + p, a))
            acc += p
        for u in [rng.random() for _ in range(200)] + [0.0, 0.999999999]:
            lo, hi, a = next(e for e in edges if e[0] <= u < e[1] or e is edges[-1])
            assert s.sample_chance(u) == a
        s.apply_action(out[0][0])


def test_rollout_policy_ends_games_and_mirrors_policies():
    g = load("couleurs_de_paris(players=4)", "core")
    data = rules_of(g).data
    rng = random.Random(9)
    rounds = []
    for k in range(20):
        s = g.new_initial_state()
        while not s.is_terminal():
            if s.is_chance_node():
                s.apply_action(engine.draw_outcome(s, rng))
                continue
            if k < 3:
                view = s.to_json()
                for a, v in rollout_scores(s).items():
                    assert abs(policies.action_score(view, a, data) - v) < 1e-9
            a = s.rollout_action(rng.random(), rng.random())
            assert a in s.legal_actions()
            s.apply_action(a)
        rounds.append(s.to_json()["round"])
    assert max(rounds) < 40, rounds            # the policy's games end by the rules


def test_heuristic_and_greedy_play_legal_moves():
    for impl in ("core", "reference"):
        g = load("couleurs_de_paris(players=2)", impl)
        greedy = GreedyBot(g, seed=1, budget=40)
        rng = random.Random(1)
        s = engine.play_chance(g.new_initial_state(), rng)
        for _ in range(60):
            if s.is_terminal():
                break
            if s.is_chance_node():
                s.apply_action(engine.draw_outcome(s, rng))
                continue
            assert policies.heuristic(s, rng) in s.legal_actions()
            assert greedy.step(s.clone()) in s.legal_actions()
            ev = policies.evaluate(s)
            assert len(ev) == 2 and abs(sum(ev)) < 1e-9 and max(map(abs, ev)) < 0.9 + 1e-12
            s.apply_action(policies.heuristic(s, rng))


def test_json_round_trip_gives_the_same_bytes():
    g = load("couleurs_de_paris(players=3)", "core")
    rng = random.Random(2)
    s = g.new_initial_state()
    for step in range(1500):
        if s.is_terminal():
            break
        if step % 37 == 0:
            t = from_json(g, s.to_json())
            assert t.raw() == s.raw(), f"step {step}"
        if s.is_chance_node():
            s.apply_action(engine.draw_outcome(s, rng))
        else:
            legal = s.legal_actions()
            s.apply_action(legal[rng.randrange(len(legal))])
