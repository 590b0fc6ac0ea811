"""A bot's move: read from the roots' children alone (so the time after the
search does not grow with the tree), the analysis's best candidate, or with
a temperature drawn among the well-visited first actions by their values."""
from __future__ import annotations

import math

import pytest
from search_helpers import position

from easel import engine
from easel.search import MCTSBot, mcts
from easel.search.errors import BotSpecError, SearchError
from easel.search.specs import parse_spec


# -- the decision reads the roots' children only ---------------------------------------

@pytest.mark.parametrize("name", ["starving_artists(players=2)", "vangogh(players=2)"])
@pytest.mark.parametrize("threads", [1, 2])
def test_a_decision_reads_only_the_roots_children(name, threads):
    # After the search, a bot's decision reads the roots' children alone:
    # as many nodes as the roots have decision children, however large the
    # tree (the analysis once walked the root player's whole turn region,
    # which in Starving Artists grows with the tree).
    game = engine.load_game(name)
    state = position(game, 3, 6)
    for iterations in (300, 6000):
        bot = MCTSBot(game, iterations=iterations, seed=4, threads=threads, early_stop=False)
        bot.step(state)
        trees = bot._search._trees
        children = sum(len(t.root_visits()) for t in trees)   # (root_visits reads them too)
        assert sum(t.nodes_read for t in trees) == 2 * children
        assert children <= threads * len(state.legal_actions())
    assert sum(t.n_nodes for t in trees) > 20 * children       # a tree far larger than that


@pytest.mark.parametrize("form", ["is", "closed", "pimc"])
def test_the_move_is_the_analysis_best(form):
    # The decision (from the roots' children) and the analysis rank the
    # first actions alike: the move played is the analysis's best candidate.
    game = engine.load_game("vangogh(players=2)")
    for seed in range(6):
        state = position(game, seed, 4 + seed)
        bot = MCTSBot(game, iterations=400, seed=seed, form=form, early_stop=False)
        move = bot.step(state)
        assert move == bot._search.analysis(top_k=1).best.action
        assert move == bot._search.analysis().best.action


# -- temperature -------------------------------------------------------------------------

def _moves(*rows):
    return [mcts.RootMove(a, visits=v, total=value * v) for a, v, value in rows]


def test_temperature_draws_by_value_among_the_well_visited():
    bot = MCTSBot(engine.load_game("connect_four"), iterations=10, seed=1, temperature=0.1)
    ranked = _moves((3, 100, 0.5), (2, 40, 0.4), (5, 9, 0.9))  # 5: under a tenth of 100 visits
    counts = {3: 0, 2: 0, 5: 0}
    for i in range(4000):
        counts[bot._choose(ranked, i)] += 1
    assert counts[5] == 0
    # exp(0.5 / 0.1) : exp(0.4 / 0.1) = e : 1, so 3 is drawn e / (1 + e) = 0.731 of the time
    assert abs(counts[3] / 4000 - math.e / (1 + math.e)) < 0.03
    cold = MCTSBot(engine.load_game("connect_four"), iterations=10, seed=1)
    assert cold.temperature == 0 and cold._choose(ranked, 0) == 3


def test_temperature_replays_from_the_seed_and_weakens_the_play():
    game = engine.load_game("vangogh(players=2)")
    state = position(game, 2, 5)

    def picks(temperature, seed):
        bot = MCTSBot(game, iterations=300, seed=seed, temperature=temperature)
        out = []
        for _ in range(12):
            bot.restart()
            out.append(bot.step(state))
        return out

    assert picks(0.3, 7) == picks(0.3, 7)
    assert len(set(picks(1.0, 7))) > 1          # hot: more than one move over the draws
    # cold: the most visited move every time, as before the option existed
    bot = MCTSBot(game, iterations=300, seed=7, temperature=0.0)
    for _ in range(6):
        bot.restart()
        assert bot.step(state) == bot._search.root_ranking()[0].action


@pytest.mark.parametrize("bad", [-0.1, 101, float("nan"), "hot"])
def test_temperature_range_is_checked(bad):
    game = engine.load_game("connect_four")
    with pytest.raises(SearchError, match="temperature must be a number from 0 to 100"):
        MCTSBot(game, temperature=bad)
    if isinstance(bad, float) and not math.isnan(bad):
        with pytest.raises(BotSpecError, match="temperature must be"):
            parse_spec(f"mcts(temperature={bad})")
