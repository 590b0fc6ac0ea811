"""Couleurs de Paris through the service: ListGames describes it (its left-out
parts and placeholder data included), a whole game is played call by call
(LegalActions + ApplyAction on returned records, chance nodes with their
probabilities), structured states are read back, a bad one is refused, and
Suggest searches it."""
from __future__ import annotations

import json
import random

import grpc
import pytest
from google.protobuf import json_format

from easel import engine
from easel.v1 import engine_pb2 as pb
from server_helpers import assert_status, settings

pytestmark = pytest.mark.skipif(
    "couleurs_de_paris" not in {e.name for e in engine.registered_games()},
    reason="Couleurs de Paris is not registered in this build")

SHORT = "couleurs_de_paris(maxrounds=2)"


def test_list_games_describes_it(stub):
    games = {g.name: g for g in stub.ListGames(pb.ListGamesRequest()).games}
    g = games["couleurs_de_paris"]
    assert (g.min_players, g.max_players, g.players_option) == (2, 4, "players")
    assert "LEFT OUT" in g.description and "PLACEHOLDER" in g.description
    assert {o.name for o in g.options} == {"players", "first", "maxrounds", "data"}
    assert len(g.placeholder_data) == 4 and g.reads_structured_state
    assert list(g.implementations) == ["core", "reference"]


def test_whole_game_call_by_call(stub):
    rng = random.Random(5)
    pos = pb.Position(record=stub.NewGame(pb.NewGameRequest(game=SHORT)).position.record)
    for step in range(3000):
        legal = stub.LegalActions(pb.LegalActionsRequest(position=pos), timeout=30)
        if legal.position.kind == pb.NODE_KIND_TERMINAL:
            break
        if legal.position.kind == pb.NODE_KIND_CHANCE:
            assert sum(a.probability for a in legal.actions) == pytest.approx(1.0)
        choice = rng.choice(list(legal.actions))
        r = stub.ApplyAction(pb.ApplyActionRequest(
            position=pos, action=pb.Step(text=choice.text, kind=choice.kind)), timeout=30)
        assert r.applied.id == choice.id
        pos = pb.Position(record=r.position.record)
    else:
        pytest.fail("no end")
    view = json_format.MessageToDict(legal.position.state)
    assert view["phase"] == "end" and view["round"] == 2


def test_structured_state_and_refusal(stub):
    rng = random.Random(1)
    pos = pb.Position(record=stub.NewGame(pb.NewGameRequest(game=SHORT)).position.record)
    for _ in range(20):
        legal = stub.LegalActions(pb.LegalActionsRequest(position=pos), timeout=30)
        choice = rng.choice(list(legal.actions))
        info = stub.ApplyAction(pb.ApplyActionRequest(position=pos, action=pb.Step(
            id=choice.id)), timeout=30).position
        pos = pb.Position(record=info.record)
    view = json_format.MessageToDict(info.state)
    r = stub.LegalActions(pb.LegalActionsRequest(position=pb.Position(
        state=pb.StructuredState(game=SHORT, text=json.dumps(view)))), timeout=30)
    assert r.position.state == info.state
    view["boards"][0]["pigments"]["red"] += 1
    with pytest.raises(grpc.RpcError) as e:
        stub.LegalActions(pb.LegalActionsRequest(position=pb.Position(
            state=pb.StructuredState(game=SHORT, text=json.dumps(view)))), timeout=30)
    assert_status(e, grpc.StatusCode.INVALID_ARGUMENT, "supply.red")


def test_suggest(stub):
    pos = pb.Position(record=stub.NewGame(pb.NewGameRequest(game=SHORT)).position.record)
    info = stub.LegalActions(pb.LegalActionsRequest(position=pos), timeout=30).position
    while info.kind == pb.NODE_KIND_CHANCE:
        legal = stub.LegalActions(pb.LegalActionsRequest(position=pos), timeout=30)
        info = stub.ApplyAction(pb.ApplyActionRequest(
            position=pos, action=pb.Step(id=legal.actions[0].id)), timeout=30).position
        pos = pb.Position(record=info.record)
    a = stub.Suggest(pb.SuggestRequest(position=pos, settings=settings(iterations=200, seed=1)),
                     timeout=60).analysis
    assert a.iterations == 200 and a.candidates
    assert all(c.text.startswith("place assistant on") for c in a.candidates)
