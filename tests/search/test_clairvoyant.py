"""The clairvoyant bound (search/clairvoyant.py, `easel bound`): its search
meets exactly the draws the game will make, it is no bot spec, and a run
is reproducible and resumable."""
from __future__ import annotations

import json
import random

import pytest

from easel import engine
from easel.search import params
from easel.search._mcts import Tree
from easel.search.clairvoyant import (CLAIRVOYANT, Clairvoyant, ClairvoyantError, chance_outcome,
                                      chance_uniform, play_world, run_bound, shifted_world,
                                      summarize_solo, world_seed)
from easel.search.specs import BotSpecError, make_bot, parse_spec
from easel.server.cli import main

SOLO_VG = "vangogh(players=1)"
SOLO_SA = "starving_artists(players=1)"


def _decision_after_chance(game, world, min_chance):
    """A decision node of `world` reached after at least `min_chance` chance
    events (random decisions), and the chance events met."""
    rng = random.Random(world)
    state, k = game.new_initial_state(), 0
    while True:
        if state.is_chance_node():
            state.apply_action(chance_outcome(state, chance_uniform(world, k)))
            k += 1
        elif k >= min_chance:
            return state, k
        else:
            state.apply_action(rng.choice(state.legal_actions()))


@pytest.mark.parametrize("spec", [SOLO_SA, SOLO_VG])
def test_the_tree_meets_the_draws_the_game_makes(spec):
    """Every chance node of a clairvoyant tree rooted after k chance events
    has one child, the outcome the game's own stream gives there: the
    search sees this world's future, not another's (an offset of one would
    show other cubes)."""
    game = engine.load_game(spec)
    world = world_seed(7, 3)
    state, k = _decision_after_chance(game, world, 5)
    tree = Tree(state, form="pimc", seed=1, world_seed=shifted_world(world, k), uct_c=0.35,
                rollout="policy")
    tree.run(400)
    nodes, _ = tree.export()
    checked = 0
    stack = [(0, state.clone(), k)]
    while stack:
        i, pos, seen = stack.pop()
        c = int(nodes[i]["first_child"])
        kids = []
        while c >= 0:
            kids.append(c)
            c = int(nodes[c]["next_sibling"])
        if pos.is_chance_node():
            assert len(kids) <= 1
            if kids:
                want = chance_outcome(pos, chance_uniform(world, seen))
                assert int(nodes[kids[0]]["action"]) == want
                checked += 1
                nxt = pos.clone()
                nxt.apply_action(want)
                stack.append((kids[0], nxt, seen + 1))
        else:
            for c in kids:
                nxt = pos.clone()
                nxt.apply_action(int(nodes[c]["action"]))
                stack.append((c, nxt, seen))
    assert checked > 20


def test_chance_uniform_is_the_trees_stream_shifted():
    w = world_seed(1, 0)
    assert [chance_uniform(shifted_world(w, 5), j) for j in range(4)] == \
        [chance_uniform(w, 5 + j) for j in range(4)]
    assert all(0.0 <= chance_uniform(w, j) < 1.0 for j in range(100))


def test_a_world_plays_the_same_game_twice():
    game = engine.load_game(SOLO_VG)
    w = world_seed(3, 1)
    a = play_world(game, w, Clairvoyant(game, w, 30, seed=4).step)
    b = play_world(game, w, Clairvoyant(game, w, 30, seed=4).step)
    assert a.steps == b.steps and a.returns == b.returns


def test_knowing_the_future_beats_searching_blind_on_the_same_worlds():
    """Van Gogh solo at a small budget: told the draws, the search scores at
    least as much on average over the same worlds as the ordinary search.
    The margin is small at 200 iterations (686 to 675 points over these six
    worlds; 4 worlds once gave 450 to 451), so six worlds are played."""
    game = engine.load_game(SOLO_VG)
    clear, blind = [], []
    for i in range(6):
        w = world_seed(11, i)
        clear.append(play_world(game, w, Clairvoyant(game, w, 200, seed=i).step).scores[0])
        bot = make_bot(parse_spec("mcts(iterations=200)").with_seed(i), game)
        blind.append(play_world(game, w, lambda s, _k: bot.step(s.clone())).scores[0])
    assert sum(clear) >= sum(blind), (clear, blind)


def test_the_clairvoyant_is_no_bot_spec():
    """It can never be seated in an arena, a match or the server's Suggest."""
    game = engine.load_game(SOLO_VG)
    for text in ("clairvoyant", "clairvoyant(iterations=10)", "bound"):
        with pytest.raises(BotSpecError):
            make_bot(parse_spec(text), game)


def test_bad_options_are_refused_by_name():
    game = engine.load_game(SOLO_VG)
    with pytest.raises(ClairvoyantError, match="form"):
        Clairvoyant(game, 1, 10, form="is")
    with pytest.raises(ClairvoyantError, match="iterations"):
        Clairvoyant(game, 1, 0)
    state, k = _decision_after_chance(game, 1, 0)
    with pytest.raises(ClairvoyantError, match="uct_c"):
        Clairvoyant(game, 1, 10, uct_c=-1.0).step(state, k)
    with pytest.raises(ClairvoyantError, match="solo"):
        run_bound("vangogh(players=2)", iterations=10, games=1)


def test_run_resumes_from_its_records(tmp_path):
    path = tmp_path / "bound.jsonl"
    first = run_bound(SOLO_VG, iterations=20, games=2, seed=5, vs=["random"],
                      records_path=str(path))
    lines = path.read_text().splitlines()
    assert len(lines) == 4
    path.write_text("\n".join(lines[:3]) + "\n")      # as if stopped during the last game
    played = []
    again = run_bound(SOLO_VG, iterations=20, games=2, seed=5, vs=["random"],
                      records_path=str(path), resume=True, on_record=played.append)
    assert len(played) == 1

    def untimed(summary):     # the replayed game's CPU time is its own
        return {**summary, "players": {who: {k: v for k, v in s.items() if k != "cpu_a_decision"}
                                       for who, s in summary["players"].items()}}
    assert untimed(again) == untimed(first)
    assert set(first["players"]) == {CLAIRVOYANT, "random"}
    assert first["players"][CLAIRVOYANT]["games"] == 2


def test_records_say_what_was_played_and_a_resume_never_mixes_two_searches(tmp_path):
    """Each record keeps its player's options as resolved (the game's
    defaults filled in); a journal resumed by code that resolves them
    otherwise (a default changed) plays those games again, and says so."""
    path = tmp_path / "bound.jsonl"
    spec = "mcts(iterations=30,uct_c=0.9)"
    run_bound(SOLO_SA, iterations=10, games=2, seed=3, vs=[spec, "random"],
              records_path=str(path))
    recs = [json.loads(x) for x in path.read_text().splitlines()]
    game = engine.load_game(SOLO_SA, "core")
    defaults = params.resolve_search(game, {})
    by = {(r["player"], r["index"]): r for r in recs}
    mine = by[(spec, 0)]["resolved"]
    assert mine["uct_c"] == 0.9 and mine["iterations"] == 30
    assert mine["loss_weight"] == defaults["loss_weight"]
    assert mine["rollout"] == defaults["rollout"] == "policy"     # the game's own default
    clair = by[(CLAIRVOYANT, 0)]["resolved"]
    assert clair["loss_power"] == defaults["loss_power"] and "form" not in clair
    assert by[("random", 0)]["resolved"] == {}
    # One game as if played under another default, one from before records
    # kept their options: both are played again, and nothing else is.
    edited = []
    for r in recs:
        if (r["player"], r["index"]) == (spec, 1):
            r["resolved"]["loss_weight"] = 1.5
        if (r["player"], r["index"]) == (CLAIRVOYANT, 1):
            del r["resolved"]
        edited.append(json.dumps(r))
    path.write_text("\n".join(edited) + "\n")
    played, stale = [], []
    run_bound(SOLO_SA, iterations=10, games=2, seed=3, vs=[spec, "random"],
              records_path=str(path), resume=True, on_record=played.append,
              on_stale=stale.append)
    assert stale == [2]
    assert sorted((r["player"], r["index"]) for r in played) == [(CLAIRVOYANT, 1), (spec, 1)]
    assert played[0]["resolved"]["loss_weight"] == defaults["loss_weight"]


def test_a_run_keeps_the_cpu_time_of_the_decisions_with_a_choice(tmp_path):
    path = tmp_path / "bound.jsonl"
    summary = run_bound(SOLO_VG, iterations=20, games=2, seed=5, vs=["mcts(iterations=30)"],
                        records_path=str(path))
    recs = [json.loads(x) for x in path.read_text().splitlines()]
    game = engine.load_game(SOLO_VG)
    for rec in recs:
        state, choices = game.new_initial_state(), 0
        for a in rec["steps"]:
            if not state.is_chance_node() and len(state.legal_actions()) > 1:
                choices += 1
            state.apply_action(a)
        assert rec["searched"] == choices > 0
        assert rec["cpu_seconds"] > 0.0
    for who in (CLAIRVOYANT, "mcts(iterations=30)"):
        mine = [r for r in recs if r["player"] == who]
        assert summary["players"][who]["cpu_a_decision"] == pytest.approx(
            sum(r["cpu_seconds"] for r in mine) / sum(r["searched"] for r in mine))
    # A journal of before the clock gives no figure rather than a wrong one.
    for rec in recs:
        del rec["cpu_seconds"], rec["searched"]
    assert "cpu_a_decision" not in summarize_solo(recs[:1])


def test_cli_bound(tmp_path, capsys):
    out = tmp_path / "s.json"
    assert main(["bound", SOLO_VG, "--iterations", "10", "--games", "1", "--seed", "2",
                 "--set", "uct_c=0.5", "--json", str(out)]) == 0
    text = capsys.readouterr().out
    assert "clairvoyant: 1 games, won" in text and "uct_c=0.5" in text
    assert json.loads(out.read_text())["players"][CLAIRVOYANT]["games"] == 1
    assert main(["bound", SOLO_VG, "--games", "1", "--set", "uct_c"]) == 2
    assert "KEY=VALUE" in capsys.readouterr().err
    assert main(["bound", "vangogh(players=3)", "--games", "1"]) == 2
    assert "solo" in capsys.readouterr().err
    journal = tmp_path / "j.jsonl"
    args = ["bound", SOLO_VG, "--iterations", "10", "--games", "1", "--records", str(journal)]
    assert main(args) == 0
    rec = json.loads(journal.read_text())
    rec["resolved"]["uct_c"] = 9.0                   # as if played under another default
    journal.write_text(json.dumps(rec) + "\n")
    capsys.readouterr()
    assert main(args + ["--resume"]) == 0
    assert "1 games of this run were played with other options" in capsys.readouterr().err
    assert len(journal.read_text().splitlines()) == 2


def test_the_clairvoyant_hands_its_tree_every_tree_option(monkeypatch):
    """A tree option added to search/params.py (here a made-up one) reaches
    the clairvoyant's tree like the others, with no list of them to keep."""
    from easel.search import params
    probe = params.Param("probe", float, 0.0, "a made-up tree option", low=0, high=1,
                         tree=True, game=True)
    monkeypatch.setitem(params.MCTS, "probe", probe)
    monkeypatch.setitem(params.SEARCH_KEYWORDS, "probe", probe)
    game = engine.load_game(SOLO_SA)
    state, _ = _decision_after_chance(game, 3, 1)
    c = Clairvoyant(game, world=3, iterations=10, probe=0.5, uct_c=0.7)
    options = c._resolved(state)
    assert options["probe"] == 0.5 and options["uct_c"] == 0.7
    assert set(options) == {p.name for p in params.MCTS.values() if p.tree} - {"form"}
