"""Van Gogh through the service, where it is registered: a game played step
by step over RPCs, structured states both ways, and search (or UNIMPLEMENTED
while its core is not built)."""
from __future__ import annotations

import json
import random

import grpc
import pytest
from google.protobuf import json_format

from easel import engine
from easel.v1 import engine_pb2 as pb
from server_helpers import assert_status, settings

pytestmark = pytest.mark.skipif("vangogh" not in {e.name for e in engine.registered_games()},
                                reason="Van Gogh is not registered in this build")

GAME = "vangogh(players=2)"


def _play(stub, steps, seed=0):
    """Walk `steps` random steps by LegalActions + ApplyAction on returned records."""
    rng = random.Random(seed)
    pos = pb.Position(record=stub.NewGame(pb.NewGameRequest(game=GAME)).position.record)
    for _ in range(steps):
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
    return pos, r.position


def test_play_over_rpcs_and_replay_by_ids(stub):
    pos, info = _play(stub, 25)
    assert len(info.record.steps) == 25
    by_id = pb.Position(record=pb.GameRecord(game=GAME, steps=[
        pb.Step(id=s.id) for s in info.record.steps]))
    again = stub.LegalActions(pb.LegalActionsRequest(position=by_id), timeout=30).position
    assert again.state == info.state and again.text == info.text


def test_structured_state_in_both_forms(stub):
    _, info = _play(stub, 15, seed=1)
    view = json_format.MessageToDict(info.state)
    for structured in (pb.StructuredState(game=GAME, value=info.state),
                       pb.StructuredState(game=GAME, text=json.dumps(view))):
        r = stub.LegalActions(pb.LegalActionsRequest(
            position=pb.Position(state=structured)), timeout=30)
        assert r.position.state == info.state
        assert not r.position.HasField("record")           # history unknown
        direct = stub.LegalActions(pb.LegalActionsRequest(
            position=pb.Position(record=info.record)), timeout=30)
        assert [a.id for a in r.actions] == [a.id for a in direct.actions]


def test_impossible_structured_state_is_invalid(stub):
    bad = pb.Position(state=pb.StructuredState(game=GAME, text='{"players": "many"}'))
    with pytest.raises(grpc.RpcError) as e:
        stub.LegalActions(pb.LegalActionsRequest(position=bad), timeout=30)
    assert_status(e, grpc.StatusCode.INVALID_ARGUMENT, "position.state.text:", "not a valid vangogh")


def test_suggest_or_unimplemented(stub):
    pos, info = _play(stub, 40, seed=2)
    while info.kind == pb.NODE_KIND_CHANCE:       # resolve chance so a player is to move
        legal = stub.LegalActions(pb.LegalActionsRequest(position=pos), timeout=30)
        info = stub.ApplyAction(pb.ApplyActionRequest(
            position=pos, action=pb.Step(id=legal.actions[0].id)), timeout=30).position
        pos = pb.Position(record=info.record)
    if info.kind == pb.NODE_KIND_TERMINAL:
        pytest.skip("the random game ended early")
    request = pb.SuggestRequest(position=pos, settings=settings(iterations=200, seed=1))
    try:
        entry_core = engine.load_game(GAME).implementation == "core"
    except ImportError:
        entry_core = False
    if not entry_core:
        with pytest.raises(grpc.RpcError) as e:
            stub.Suggest(request, timeout=60)
        assert_status(e, grpc.StatusCode.UNIMPLEMENTED, "settings.bot:", "no fast core")
        a = stub.Suggest(pb.SuggestRequest(position=pos, settings=settings(bot="random", seed=1)),
                         timeout=60).analysis
        assert len(a.candidates) == 1
        return
    a = stub.Suggest(request, timeout=60).analysis
    assert a.iterations == 200 and a.player == info.current_player and a.candidates
    assert all(c.turn_length >= 1 and len(c.pv) >= c.turn_length for c in a.candidates)
