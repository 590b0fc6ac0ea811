"""tools/solo_game_shape.py: how solo games ended, read from bound journals
and arena records (docs/starving-artists-solo.md, "Where level 10 falls
short")."""
from __future__ import annotations

import importlib.util
import json
import random
from pathlib import Path

import pytest

from easel import engine
from easel.search.clairvoyant import chance_outcome

_PATH = Path(__file__).resolve().parents[2] / "tools" / "solo_game_shape.py"
_spec = importlib.util.spec_from_file_location("solo_game_shape", _PATH)
tool = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(tool)


def _policy_game(seed: int):
    """A whole solo game of the rollout policy: (actor, action) steps and the end."""
    game = engine.load_game(tool.GAME)
    rng = random.Random(seed)
    state, steps = game.new_initial_state(), []
    while not state.is_terminal():
        if state.is_chance_node():
            a = chance_outcome(state, rng.random())
        else:
            a = state.rollout_action(rng.uniform(0.05, 1.0), rng.random())
        steps.append([state.current_player(), a])
        state.apply_action(a)
    return steps, state


def _bound_record(index, steps, iterations=2000):
    return {"game": tool.GAME, "index": index, "player": "clairvoyant",
            "iterations": iterations, "steps": [a for _, a in steps]}


def _arena_record(index, steps, spec="mcts(iterations=10)"):
    return {"game": tool.GAME, "index": index, "seats": [{"seat": 0, "spec": spec}],
            "steps": steps}


@pytest.fixture(scope="module")
def games():
    return [_policy_game(seed) for seed in range(6)]


def test_a_game_reads_the_same_from_either_record_form_and_matches_its_end(games):
    for i, (steps, end) in enumerate(games):
        a = tool.shape(_bound_record(i, steps))
        b = tool.shape(_arena_record(i, steps))
        assert a == b
        studio = end.to_json()["studios"][0]
        assert a["won"] == (end.returns()[0] >= 0.0)
        assert a["stars"] == studio["stars"]
        assert a["paintings"] == len(studio["paintings"])
        assert a["unfinished"] == sum(any(c is None for c in cv["cubes"])
                                      for cv in studio["canvases"])
        # Every painting and every canvas held was bought once.
        assert len(a["buys"]) >= a["paintings"] + len(studio["canvases"])
        assert a["short"] == (0 if a["won"] else max(20 - a["stars"], 0))


def test_players_are_named_by_spec_or_clairvoyant_budget(games):
    steps, _ = games[0]
    assert tool.player_of(_bound_record(0, steps, 32000)) == "clairvoyant/32000"
    assert tool.player_of(_arena_record(0, steps, "level(10)")) == "level(10)"


def test_an_illegal_or_unfinished_record_is_refused_with_its_game(games):
    steps, _ = games[0]
    bad = _bound_record(7, steps)
    bad["steps"] = bad["steps"][:40] + [10**6]
    with pytest.raises(ValueError, match="game 7 .*not legal"):
        tool.shape(bad)
    with pytest.raises(ValueError, match="game 7 .*does not reach the end"):
        tool.shape(_bound_record(7, steps[:40]))


def test_main_summarises_pairs_and_refuses_another_game(games, tmp_path, capsys):
    path = tmp_path / "j.jsonl"
    with open(path, "w") as f:
        for i, (steps, _) in enumerate(games):
            f.write(json.dumps(_bound_record(i, steps)) + "\n")
            f.write(json.dumps(_arena_record(i, steps)) + "\n")
    assert tool.main([str(path), "--pair", "clairvoyant/2000", "mcts(iterations=10)"]) == 0
    out = capsys.readouterr().out
    won = sum(end.returns()[0] >= 0.0 for _, end in games)
    assert f"clairvoyant/2000: {won} of 6 won" in out
    assert f"6 common worlds: both won {won}, only clairvoyant/2000 0, " \
           f"only mcts(iterations=10) 0, neither {6 - won}" in out
    assert tool.main([str(path), "--pair", "clairvoyant/2000", "level(3)"]) == 2
    assert "no games of level(3)" in capsys.readouterr().err
    other = tmp_path / "o.jsonl"
    other.write_text(json.dumps({"game": "vangogh(players=1)", "index": 0, "steps": []}) + "\n")
    assert tool.main([str(other)]) == 2
    assert "not starving_artists(players=1)" in capsys.readouterr().err


def test_summary_counts_losses_a_last_canvas_would_have_won():
    g = [{"won": True, "stars": 20, "paintings": 8, "buys": [3, 2], "unfinished": 0,
          "short": 0, "would_win": False},
         {"won": False, "stars": 18, "paintings": 7, "buys": [2, 2, 3], "unfinished": 1,
          "short": 2, "would_win": True},
         {"won": False, "stars": 15, "paintings": 6, "buys": [1], "unfinished": 0,
          "short": 5, "would_win": False}]
    s = tool.summary(g)
    assert (s["won"], s["unfinished_at_end"], s["lost_with_unfinished"], s["would_win"]) == \
        (1, 1, 1, 1)
    assert s["short"] == {2: 1, 5: 1}
    assert s["buys"] == 2.0 and s["stars_a_buy"] == pytest.approx(13 / 6)
