"""server/positions.py as plain functions: records replayed and validated,
positions described, steps applied."""
from __future__ import annotations

import pytest

from easel import engine
from easel.v1 import engine_pb2 as pb
from easel.server import positions
from easel.server.errors import InvalidArgument, Unimplemented


def rec(game, *steps, **kw):
    return pb.GameRecord(game=game, steps=[pb.Step(id=s) if isinstance(s, int) else
                                           pb.Step(text=s) for s in steps], **kw)


def test_replay_matches_engine_and_record_round_trips():
    state = positions.replay(rec("pig", "roll", "Roll 4", "stop", 0, 5, "roll"))
    direct = engine.load_game("pig").new_initial_state()
    for a in [0, 3, 1, 0, 5, 0]:
        direct.apply_action(a)
    assert state.history() == direct.history()
    assert state.to_json() == direct.to_json()
    back = positions.record_of(state)
    assert [s.id for s in back.steps] == [0, 3, 1, 0, 5, 0]
    assert [s.text for s in back.steps] == ["roll", "Roll 4", "stop", "roll", "Roll 6", "roll"]
    D, C = pb.NODE_KIND_DECISION, pb.NODE_KIND_CHANCE
    assert [s.kind for s in back.steps] == [D, C, D, D, C, D]
    again = positions.replay(back)          # id and text both given: they must agree
    assert again.to_json() == state.to_json()


def test_position_info_describes_the_state():
    state = positions.replay(rec("connect_four", "x in column 4", "o in column 4"))
    info = positions.position_info(state)
    assert info.game == "connect_four"
    assert info.kind == pb.NODE_KIND_DECISION and info.current_player == 0
    assert info.move_number == 2 and info.num_players == 2
    assert "xo" not in info.text and info.text.count("x") == 1
    assert dict(info.state)["current_player"] == 0
    assert not positions.position_info(state, with_record=False).HasField("record")


def test_game_string_is_canonical():
    state = positions.replay(rec("pig( players = 3 , winscore=100)"))
    assert state.get_game().spec == "pig(players=3)"


@pytest.mark.parametrize("record, field, fragment", [
    (rec(""), "position.record.game", "required"),
    (rec("chess"), "position.record.game", "unknown game 'chess'"),
    (rec("pig(players=11)"), "position.record.game", "players"),
    (rec("pig(colour=red)"), "position.record.game", "unknown option 'colour'"),
    (rec("pig(players=two)"), "position.record.game", "needs an int"),
    (rec("pig((("), "position.record.game", "malformed"),
    (rec("connect_four", 3, 9), "position.record.steps[1].id", "action 9 is illegal"),
    (rec("connect_four", "x in column 4", "x in column 10"), "position.record.steps[1].text", "not a legal move"),
    (rec("pig", "roll", 6), "position.record.steps[1].id", "not a possible chance outcome"),
    (rec("connect_four", 3, 3, 4, 4, 5, 5, 6, 6), "position.record.steps[7]", "already over"),
    (rec("connect_four", "x in column 4", expected_player=0), "position.record.expected_player",
     "player 1 is to move"),
])
def test_bad_records_name_the_field(record, field, fragment):
    with pytest.raises(InvalidArgument) as e:
        positions.replay(record)
    assert e.value.field == field
    assert fragment in str(e.value) and str(e.value).startswith(field + ":")


def test_step_kind_and_id_text_agreement_are_checked():
    with pytest.raises(InvalidArgument, match=r"steps\[0\].kind: step is marked NODE_KIND_CHANCE"):
        positions.replay(pb.GameRecord(game="pig", steps=[pb.Step(id=0, kind=pb.NODE_KIND_CHANCE)]))
    with pytest.raises(InvalidArgument, match="name different actions"):
        positions.replay(pb.GameRecord(game="connect_four", steps=[pb.Step(id=2, text="x in column 4")]))
    with pytest.raises(InvalidArgument, match="needs an id or a text"):
        positions.replay(pb.GameRecord(game="connect_four", steps=[pb.Step()]))


def test_expected_player_at_chance_and_end():
    positions.replay(rec("pig", "roll", expected_player=engine.PLAYER_CHANCE))
    positions.replay(rec("connect_four", 3, 3, 4, 4, 5, 5, 6,
                         expected_player=engine.PLAYER_TERMINAL))


def test_legal_actions_and_chance_outcomes():
    state = positions.replay(rec("pig(diceoutcomes=4)", "roll"))
    outcomes = positions.legal_actions(state)
    assert [a.text for a in outcomes] == ["Roll 1", "Roll 2", "Roll 3", "Roll 4"]
    assert all(a.kind == pb.NODE_KIND_CHANCE and a.player == -1 for a in outcomes)
    assert sum(a.probability for a in outcomes) == pytest.approx(1.0)
    assert dict(outcomes[2].structured) == {"id": 2, "text": "Roll 3", "kind": "chance",
                                            "player": -1}


def test_apply_step_by_text_and_id():
    state = positions.replay(rec("pig", "roll"))
    applied = positions.apply_step(state, pb.Step(text="roll 5"))
    assert (applied.id, applied.probability) == (4, pytest.approx(1 / 6))
    assert state.to_json()["turn_total"] == 5
    applied = positions.apply_step(state, pb.Step(id=1, kind=pb.NODE_KIND_DECISION))
    assert applied.text == "stop" and state.current_player() == 1


def test_structured_state_refused_where_the_game_cannot_read_it():
    from kit_fakes import fake_game
    with fake_game("opaque_nim"):                 # declares no structured_states
        msg = pb.StructuredState(game="opaque_nim", text='{"pile": 3}')
        with pytest.raises(Unimplemented, match="position.state: opaque_nim cannot read"):
            positions.from_structured(msg)
    with pytest.raises(InvalidArgument, match="position.state.text: not valid JSON"):
        positions.from_structured(pb.StructuredState(game="vangogh", text="{oops"))
    with pytest.raises(InvalidArgument, match="needs 'value'"):
        positions.from_structured(pb.StructuredState(game="vangogh"))


def test_structured_state_round_trip_where_supported():
    game = positions.load_game("vangogh", "game")
    state = game.new_initial_state()
    info = positions.position_info(state)
    back = positions.from_structured(pb.StructuredState(game=game.spec, value=info.state))
    assert back.to_json() == state.to_json()
