"""Bot and search options: one definition (search/params.py) checked wherever
a value enters (spec strings, Search, MCTSBot, GreedyBot), every numeric
option with a documented range, unknown options refused with the valid ones,
and the node budget of one search held over all its trees."""
from __future__ import annotations

import math
import os
import re
import threading

import pytest

from easel import engine
from easel.search import params
from easel.search.specs import BOT_KINDS, BotSpecError, parse_spec

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

TABLES = {"random": params.RANDOM, "greedy": params.GREEDY, "heuristic": params.HEURISTIC,
          "mcts": params.MCTS, "level": params.LEVEL, "remote": params.REMOTE,
          "faulty": params.FAULTY}
NUMERIC = [(kind, p) for kind, table in TABLES.items() for p in table.values()
           if p.type in (int, float)]


def _text(p, value) -> str:
    if isinstance(value, float) and p.type is int:
        value = int(value)
    return repr(value) if isinstance(value, float) else str(value)


def test_every_numeric_option_has_a_documented_range():
    assert NUMERIC
    for kind, p in NUMERIC:
        assert p.low is not None and p.high is not None, (kind, p.name)
        assert p.doc and p.range_text().startswith(("an integer", "a number")), (kind, p.name)


@pytest.mark.parametrize("kind, p", NUMERIC, ids=[f"{k}.{p.name}" for k, p in NUMERIC])
def test_numeric_options_are_checked_at_their_bounds(kind, p):
    ok = [p.high] + ([] if p.low_open else [p.low])
    for value in ok:
        spec = parse_spec(f"{kind}({p.name}={_text(p, value)})")
        assert spec.args[p.name] == value
    step = 1 if p.type is int else max(abs(p.high), 1) * 1e-6
    bad = [p.high + step, p.low if p.low_open else p.low - step]
    if p.type is float:
        bad += [math.nan, math.inf, -math.inf]
    for value in bad:
        text = f"{kind}({p.name}={_text(p, value)})"
        with pytest.raises(BotSpecError) as e:
            parse_spec(text)
        assert f"{p.name} must be {p.range_text()}" in str(e.value), str(e.value)


@pytest.mark.parametrize("spec, near", [
    ("mcts(tme=1)", "time"), ("mcts(iteration=5)", "iterations"),
    ("mcts(max_node=5)", "max_nodes"), ("greedy(dept=1)", "depth"),
    ("random(sed=3)", "seed"), ("heuristic(sead=3)", "seed"),
    ("remote(timout=3)", "timeout"), ("faulty(mod=raise)", "mode"),
])
def test_an_unknown_option_names_the_closest_and_lists_them_all(spec, near):
    kind = spec.split("(")[0]
    with pytest.raises(BotSpecError) as e:
        parse_spec(spec)
    text = str(e.value)
    assert f"did you mean {near!r}?" in text, text
    assert "options: " + ", ".join(sorted(TABLES[kind])) in text, text


def test_unknown_mcts_options_no_longer_pass_through():
    with pytest.raises(BotSpecError, match="mcts has no option 'widen'"):
        parse_spec("mcts(iterations=40,widen=true)")


def test_a_bad_choice_names_the_choices():
    with pytest.raises(BotSpecError, match=r"form must be one of is, closed, pimc, got 'pimcc' "
                                           r"\(did you mean 'pimc'\?\)"):
        parse_spec("mcts(form=pimcc)")


def test_a_remote_bots_own_spec_is_checked_as_it_is_parsed():
    for inner, words in [("mcts(form=pimc,worlds=100000000)", "worlds must be"),
                         ("mcts(uct_c=nan)", "uct_c must be"),
                         ("mcts(tme=1)", "did you mean 'time'"),
                         ("faulty(mode=exit)", "does not play 'faulty'")]:
        with pytest.raises(BotSpecError) as e:
            parse_spec(f"remote(target=127.0.0.1:1,spec={inner})")
        assert "spec=" in str(e.value) and words in str(e.value), str(e.value)


# -- the same checks from Python ------------------------------------------------

@pytest.mark.parametrize("options, words", [
    (dict(uct_c=math.nan), "uct_c must be"), (dict(margin_weight=math.nan), "margin_weight"),
    (dict(threads=0), "threads must be"), (dict(threads=-1), "threads must be"),
    (dict(worlds=100_000_000, form="pimc"), "worlds must be"),
    (dict(policy_bias=math.inf), "policy_bias"), (dict(rollout_depth=-2), "rollout_depth"),
    (dict(time_limit=math.nan), "time_limit"), (dict(iterations=0), "iterations"),
    (dict(max_nodes=2 ** 40), "max_nodes"), (dict(reuse="no"), "reuse must be true or false"),
    (dict(max_node=5), "did you mean 'max_nodes'"),
])
def test_mctsbot_refuses_bad_options_when_made(options, words):
    from easel.search.mcts import MCTSBot, SearchError
    game = engine.load_game("connect_four")
    with pytest.raises(SearchError) as e:
        MCTSBot(game, **options)
    assert words in str(e.value), str(e.value)


def test_mctsbot_refuses_what_the_game_cannot_do_when_made():
    from easel.search.mcts import MCTSBot, SearchError
    game = engine.load_game("connect_four")        # no rollout policy
    with pytest.raises(SearchError, match="policy_bias.*no rollout policy"):
        MCTSBot(game, policy_bias=1.0)


def test_search_refuses_unknown_options_naming_the_valid_ones():
    from easel.search.mcts import Search, SearchError
    game = engine.load_game("connect_four")
    with pytest.raises(SearchError, match=r"did you mean 'uct_c'\?.*options: .*worlds"):
        Search(game, game.new_initial_state(), uct=1.0)
    with pytest.raises(SearchError, match="reuse"):      # a bot's option, not a search's
        Search(game, game.new_initial_state(), reuse=False)


def test_greedy_ranges_hold_from_python_too():
    from easel.search.bots import GreedyBot
    game = engine.load_game("pig")
    with pytest.raises(BotSpecError, match="budget must be an integer from 1 to 20000"):
        GreedyBot(game, budget=10 ** 7)


# -- the node budget of one search ----------------------------------------------

def test_the_node_budget_holds_over_every_tree():
    from easel.search.mcts import Search
    game = engine.load_game("connect_four")
    for options in (dict(threads=4), dict(form="pimc", worlds=4)):
        s = Search(game, game.new_initial_state(), seed=1, max_nodes=4096, **options)
        s.run(iterations=40_000)
        nodes = [t.n_nodes for t in s._trees]
        assert len(nodes) == 4 and sum(nodes) <= 4096, (options, nodes)
        assert s.iterations == 40_000            # a full tree still runs (it rolls out)


def test_a_trees_arenas_stay_within_its_cap():
    """Nodes and their turn statistics (a Starving Artists turn is a chain of
    decisions, so most nodes have both) stay within max_nodes records. In a
    fresh process: no spare arena left by another search."""
    import subprocess
    import sys
    code = ("import random; from easel import engine; from easel.search._mcts import Tree; "
            "g = engine.load_game('starving_artists(players=2)'); "
            "s = engine.play_chance(g.new_initial_state(), random.Random(1)); "
            "t = Tree(s, max_nodes=600, seed=1); t.run(20000); "
            "print(t.n_nodes, len(t.export()[1]), t.memory_bytes())")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=120)
    nodes, turn_nodes, memory = map(int, out.stdout.split())
    assert nodes == 600 and turn_nodes > 512           # the turn statistics outgrew 512
    assert memory <= 600 * (32 + 272), memory


def test_a_budget_too_small_for_the_trees_is_refused():
    from easel.search.mcts import Search, SearchError
    game = engine.load_game("pig")
    with pytest.raises(SearchError, match=r"worlds=64 needs max_nodes of at least 65536"):
        Search(game, game.new_initial_state(), form="pimc", worlds=64, max_nodes=65535)


def test_pimc_worlds_are_made_as_the_search_runs_and_a_cancel_stops_it():
    from easel.search.mcts import Search
    game = engine.load_game("pig")
    s = Search(game, game.new_initial_state(), seed=2, form="pimc", worlds=1024,
               max_nodes=1 << 21)
    assert len(s._trees) == 0                   # nothing allocated up front
    s.cancel()
    assert s.run(iterations=10_000) == 0 and len(s._trees) == 0
    s._resume()
    assert s.run(iterations=2048) == 2048 and len(s._trees) == 1024
    assert sum(t.n_nodes for t in s._trees) <= 1 << 21


def test_a_cancel_reaches_a_running_pimc_search():
    """A liveness check, not a timing: the search could run for hours."""
    from easel.search.mcts import Search
    game = engine.load_game("pig")
    s = Search(game, game.new_initial_state(), seed=3, form="pimc", worlds=1024,
               max_nodes=1 << 21)
    started = threading.Event()
    done = []

    def work():
        started.set()
        done.append(s.run(iterations=10 ** 9))

    t = threading.Thread(target=work, daemon=True)
    t.start()
    started.wait(10)
    s.cancel()
    t.join(60)
    assert not t.is_alive() and done and done[0] < 10 ** 9


def test_worlds_made_as_the_search_runs_search_as_before():
    """Making the PIMC worlds as the search runs keeps every tree's seeds: the
    analyses are the ones the worlds made up front gave (recorded before)."""
    from easel.search.mcts import Search
    game = engine.load_game("connect_four")
    s = Search(game, game.new_initial_state(), seed=11, form="pimc", worlds=8)
    s.run(iterations=400)
    s.run(iterations=400)
    assert [(c.action, c.visits, c.votes) for c in s.analysis().candidates] == [
        (3, 145, 3), (4, 121, 2), (5, 114, 1), (2, 111, 1), (1, 101, 1), (6, 118, 0), (0, 90, 0)]
    pig = engine.load_game("pig")
    s = Search(pig, pig.new_initial_state(), seed=5, form="pimc", worlds=3, threads=2)
    s.run(iterations=900)
    assert [(c.action, c.visits, c.votes) for c in s.analysis().candidates] == [
        (0, 681, 3), (1, 219, 0)]


# -- texts derived from the definitions -----------------------------------------

def test_docs_bots_md_holds_the_generated_tables():
    from easel.search.specs import bots_markdown
    with open(os.path.join(ROOT, "docs", "bots.md"), encoding="utf-8") as f:
        page = f.read()
    m = re.search(r"<!-- generated: easel bots --markdown -->\n(.*)"
                  r"<!-- end generated -->", page, re.S)
    assert m, "docs/bots.md lost its generated block"
    assert m.group(1) == bots_markdown(), "docs/bots.md is stale: rerun easel bots --markdown"


def test_help_lists_every_option_with_its_range():
    from easel.search.specs import bots_help
    text = bots_help()
    assert set(TABLES) == set(BOT_KINDS)
    for table in TABLES.values():
        for p in table.values():
            assert f"{p.name}: {p.range_text()}" in text.replace("\n        ", " "), p.name


def test_generic_defaults_come_from_the_table():
    from easel.search import mcts
    d = params.generic_defaults()
    assert d == dict(uct_c=2.0, form="is", rollout_depth=-1, margin_weight=0.0, margin_cap=1.0,
                     worlds=8, rollout="random", policy_bias=0.0, loss_weight=0.0,
                     loss_power=1.0)
    assert mcts.search_defaults(engine.load_game("connect_four")) == d


def _other_value(p):
    """A value of tree option `p` other than its default, within its range."""
    if p.choices:
        return next(c for c in p.choices if c != p.default)
    return type(p.default)(p.default + 1 if p.high is None or p.default + 1 <= p.high
                           else p.default - 1)


def test_every_tree_option_reaches_the_tree_by_its_name():
    """Each search option marked tree=True arrives in the C tree as given
    (search/_mcts.pxd, TreeOptionsC: a field per option, filled at once), and
    a search hands each of its trees the same ones."""
    from easel.search._mcts import TREE_OPTIONS, Tree
    from easel.search.mcts import Search
    tree_params = [p for p in params.MCTS.values() if p.tree]
    assert set(TREE_OPTIONS) == {p.name for p in tree_params}
    game = engine.load_game("starving_artists(players=2)")      # has every capability
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    assert Tree(state).options == {p.name: p.default for p in tree_params}
    given = {p.name: _other_value(p) for p in tree_params}
    assert Tree(state, **given).options == given
    s = Search(game, state, seed=1, threads=2, **given)
    assert [t.options for t in s._trees] == [given, given]


def test_the_options_a_game_may_set_are_marked_where_they_are_listed():
    """docs/bots.md's mcts table (and --help, from the same words) marks the
    options a game's search_defaults may set (game=True), so that no page
    keeps its own list of them."""
    from easel.search.specs import bots_markdown
    mcts_rows = bots_markdown().split("### `mcts`")[1].split("### ")[0].splitlines()
    for p in params.MCTS.values():
        row = next(r for r in mcts_rows if r.startswith(f"| `{p.name}` |"))
        assert ("(a game may set its default)" in row) == p.game, p.name
