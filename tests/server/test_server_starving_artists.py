"""Every RPC of easel.v1.Engine for Starving Artists (2 players and solo):
ListGames describes it, NewGame, LegalActions at chance and decision nodes
(texts as players say them, probabilities by the bag), ApplyAction by text,
Suggest and Analyze, the structured JSON state both ways, and a whole game
sent as a record that the server replays to its end."""
from __future__ import annotations

import random

import pytest
from google.protobuf import json_format

from easel import engine
from easel.v1 import engine_pb2 as pb
from server_helpers import record, settings

GAME = "starving_artists(players=2)"


def test_list_games_describes_starving_artists(stub):
    games = {g.name: g for g in stub.ListGames(pb.ListGamesRequest()).games}
    g = games["starving_artists"]
    assert (g.min_players, g.max_players) == (1, 4)
    assert "player-to-player trades are not supported" in g.description
    assert any("player-to-player trades" in x for x in g.left_out)
    assert {"notation", "structured_states", "rollout_policy", "heuristic_bot"} <= set(g.capabilities)
    assert {"players", "deck", "colourstudy", "lastsupper", "famestars"} <= {o.name for o in g.options}
    assert g.reads_structured_state


def test_new_game_and_setup_draws(stub):
    r = stub.NewGame(pb.NewGameRequest(game=GAME))
    assert r.position.kind == pb.NODE_KIND_CHANCE and r.position.num_players == 2
    state = json_format.MessageToDict(r.position.state)
    assert state["bag"]["blue"] == 30 and state["phase"] == "setup"
    r = stub.LegalActions(pb.LegalActionsRequest(position=record(GAME)))
    probs = {a.text: a.probability for a in r.actions}
    assert probs["draw blue"] == pytest.approx(30 / 150) and probs["draw wild"] == pytest.approx(10 / 150)


def _opening_steps(seed=3):
    g = engine.load_game(GAME)
    s = g.new_initial_state()
    rng = random.Random(seed)
    steps = []
    while s.is_chance_node():
        a = engine.draw_outcome(s, rng)
        steps.append(s.action_to_string(a))
        s.apply_action(a)
    return steps


def test_decisions_by_text_and_suggest(stub):
    steps = _opening_steps()
    r = stub.LegalActions(pb.LegalActionsRequest(position=record(GAME, *steps)))
    texts = [a.text for a in r.actions]
    assert "work" in texts and any(t.startswith("buy canvas 1 (") for t in texts)
    r = stub.ApplyAction(pb.ApplyActionRequest(position=record(GAME, *steps),
                                               action=pb.Step(text="work")))
    assert r.position.kind == pb.NODE_KIND_CHANCE
    s = stub.Suggest(pb.SuggestRequest(position=record(GAME, *steps),
                                       settings=settings(iterations=200, seed=1)))
    assert s.analysis.candidates and s.analysis.candidates[0].text in texts
    reports = list(stub.Analyze(pb.AnalyzeRequest(position=record(GAME, *steps),
                                                  settings=settings(iterations=200, seed=1))))
    assert reports


def test_structured_state_round_trip(stub):
    steps = _opening_steps()
    r = stub.LegalActions(pb.LegalActionsRequest(position=record(GAME, *steps)))
    st = pb.StructuredState(game=r.position.game, value=r.position.state)
    back = stub.LegalActions(pb.LegalActionsRequest(position=pb.Position(state=st)))
    assert [a.id for a in back.actions] == [a.id for a in r.actions]


@pytest.mark.parametrize("spec", [GAME, "starving_artists(players=1)"])
def test_whole_game_as_a_record(stub, spec):
    g = engine.load_game(spec)
    s = g.new_initial_state()
    rng = random.Random(5)
    steps = []
    while not s.is_terminal():
        a = engine.draw_outcome(s, rng) if s.is_chance_node() else rng.choice(s.legal_actions())
        steps.append(pb.Step(id=a))
        s.apply_action(a)
    r = stub.LegalActions(pb.LegalActionsRequest(position=record(spec, *steps)))
    assert r.position.kind == pb.NODE_KIND_TERMINAL
    assert list(r.position.returns) == pytest.approx(s.returns())
