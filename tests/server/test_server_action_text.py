"""Steps given as text over gRPC (ApplyAction, a record's steps, a hosted
match's SubmitAction) are read by exact match against the legal texts
(engine/textio.py): text naming no legal action is INVALID_ARGUMENT naming
the field, listing the legal texts and the closest; nothing is applied."""
from __future__ import annotations

import random

import grpc
import pytest

from easel import engine
from easel.server import positions
from easel.server.errors import InvalidArgument
from easel.v1 import engine_pb2 as pb

from server_helpers import assert_status

INVALID = grpc.StatusCode.INVALID_ARGUMENT


def _market_record():
    """A Starving Artists record up to a turn where canvases can be bought."""
    state = engine.load_game("starving_artists").new_initial_state()
    rng = random.Random(0)
    while state.is_chance_node() or not any(
            state.action_to_string(a).startswith("buy canvas ") for a in state.legal_actions()):
        state.apply_action(engine.draw_outcome(state, rng) if state.is_chance_node()
                           else rng.choice(state.legal_actions()))
    return state, positions.record_of(state)


def test_resolve_step_refuses_out_of_range_numbers():
    state, _ = _market_record()
    buy1 = next(state.action_to_string(a) for a in state.legal_actions()
                if state.action_to_string(a).startswith("buy canvas 1 "))
    assert positions.resolve_step(state, pb.Step(text=buy1), "action") == \
        state.string_to_action(buy1)
    for typed in ("buy canvas 0", "buy canvas 35", "5"):
        with pytest.raises(InvalidArgument) as e:
            positions.resolve_step(state, pb.Step(text=typed), "action")
        assert e.value.field == "action.text"
        assert "is not a legal move here" in str(e.value) and buy1 in str(e.value)


def test_apply_action_by_text_over_grpc(stub):
    state, record = _market_record()
    legal = stub.LegalActions(pb.LegalActionsRequest(position=pb.Position(record=record)),
                              timeout=30).actions
    buy1 = next(a for a in legal if a.text.startswith("buy canvas 1 "))
    r = stub.ApplyAction(pb.ApplyActionRequest(position=pb.Position(record=record),
                                               action=pb.Step(text=buy1.text.upper())), timeout=30)
    assert r.applied.id == buy1.id
    for typed in ("buy canvas 0", "buy canvas 35"):
        with pytest.raises(grpc.RpcError) as e:
            stub.ApplyAction(pb.ApplyActionRequest(position=pb.Position(record=record),
                                                   action=pb.Step(text=typed)), timeout=30)
        assert_status(e, INVALID, "action.text", f"{typed!r} is not a legal move here",
                      "legal moves: ", buy1.text, "closest: ")
    # in a record, the step that names nothing is the field named
    bad = pb.GameRecord()
    bad.CopyFrom(record)
    bad.steps.append(pb.Step(text="buy canvas 0"))
    with pytest.raises(grpc.RpcError) as e:
        stub.LegalActions(pb.LegalActionsRequest(position=pb.Position(record=bad)), timeout=30)
    assert_status(e, INVALID, f"position.record.steps[{len(record.steps)}].text",
                  "'buy canvas 0' is not a legal move here")


def test_a_bare_number_is_not_a_step_text(stub):
    rec = pb.GameRecord(game="pig", steps=[pb.Step(text="roll")])
    for typed in ("3", "Roll 0", "Roll 7"):
        with pytest.raises(grpc.RpcError) as e:
            stub.ApplyAction(pb.ApplyActionRequest(position=pb.Position(record=rec),
                                                   action=pb.Step(text=typed)), timeout=30)
        assert_status(e, INVALID, "action.text", "is not a possible outcome here",
                      "possible outcomes: Roll 1; Roll 2")
    r = stub.ApplyAction(pb.ApplyActionRequest(position=pb.Position(record=rec),
                                               action=pb.Step(id=3)), timeout=30)
    assert r.applied.text == "Roll 4"


def test_suggest_record_file_text_is_exact(tmp_path, capsys):
    from easel.server.cli import main
    path = tmp_path / "steps.txt"
    path.write_text("x in column 4\no 3\n")
    assert main(["suggest", "connect_four", "--record", str(path), "--iterations", "10"]) == 2
    err = capsys.readouterr().err
    assert "INVALID_ARGUMENT" in err and "'o 3' is not a legal move here" in err, err
    assert "write 'o in column 4'" in err, err          # the old form, answered
