"""Every RPC of easel.v1.Engine over a real channel, and every kind of bad
input answered INVALID_ARGUMENT (or the right other code) naming the field."""
from __future__ import annotations

import grpc
import pytest
from google.protobuf import json_format
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection_pb2, reflection_pb2_grpc

from easel import engine
from easel.v1 import engine_pb2 as pb
from server_helpers import assert_status, record, settings

INVALID = grpc.StatusCode.INVALID_ARGUMENT


def test_list_games_describes_every_registered_game(stub):
    games = {g.name: g for g in stub.ListGames(pb.ListGamesRequest()).games}
    assert set(games) == {e.name for e in engine.registered_games()}
    pig = games["pig"]
    assert (pig.min_players, pig.max_players, pig.players_option) == (2, 10, "players")
    assert [o.name for o in pig.options] == sorted(o.name for o in pig.options)
    opts = {o.name: o for o in pig.options}
    assert opts["players"].type == pb.OPTION_TYPE_INT
    assert opts["players"].default_value.number_value == 2 and opts["players"].default_text == "2"
    assert opts["piglet"].type == pb.OPTION_TYPE_BOOL
    assert opts["piglet"].default_value.bool_value is False and opts["piglet"].default_text == "false"
    assert opts["winscore"].doc
    assert list(games["connect_four"].implementations) == ["core", "reference"]
    for name, g in games.items():
        entry = engine.game_entry(name)
        assert list(g.placeholder_data) == list(entry.placeholder_data)
        assert g.reads_structured_state == entry.capabilities.structured_states
        assert list(g.capabilities) == entry.capabilities.names()
        assert list(g.left_out) == list(entry.left_out)
    assert "structured_states" in games["vangogh"].capabilities
    assert "scores" in games["pig"].capabilities and "scores" not in games["connect_four"].capabilities


def test_new_game(stub):
    r = stub.NewGame(pb.NewGameRequest(game="pig(players=3, winscore=50)"))
    assert r.position.game == "pig(players=3,winscore=50)"
    assert r.position.kind == pb.NODE_KIND_DECISION and r.position.current_player == 0
    assert r.position.num_players == 3 and len(r.position.record.steps) == 0
    assert json_format.MessageToDict(r.position.state)["scores"] == [0, 0, 0]
    assert r.game.name == "pig"


def test_legal_actions_at_decision_and_chance_nodes(stub):
    r = stub.LegalActions(pb.LegalActionsRequest(position=record("connect_four", "x in column 4", "o in column 4")))
    assert [(a.id, a.text) for a in r.actions] == [(i, f"x in column {i + 1}") for i in range(7)]
    assert all(a.kind == pb.NODE_KIND_DECISION and a.player == 0 for a in r.actions)
    assert r.actions[3].structured["text"] == "x in column 4"
    r = stub.LegalActions(pb.LegalActionsRequest(position=record("pig", "roll")))
    assert r.position.kind == pb.NODE_KIND_CHANCE and r.position.current_player == -1
    assert [a.text for a in r.actions] == [f"Roll {i}" for i in range(1, 7)]
    assert sum(a.probability for a in r.actions) == pytest.approx(1.0)
    assert all(a.kind == pb.NODE_KIND_CHANCE for a in r.actions)


def test_apply_action_and_chance_outcome(stub):
    r = stub.ApplyAction(pb.ApplyActionRequest(position=record("pig"), action=pb.Step(text="roll")))
    assert r.applied.id == 0 and r.position.kind == pb.NODE_KIND_CHANCE
    follow = pb.Position(record=r.position.record)         # the returned record, sent back
    r = stub.ApplyAction(pb.ApplyActionRequest(
        position=follow, action=pb.Step(id=4, kind=pb.NODE_KIND_CHANCE)))
    assert r.applied.text == "Roll 5" and r.applied.probability == pytest.approx(1 / 6)
    assert json_format.MessageToDict(r.position.state)["turn_total"] == 5
    assert [s.text for s in r.position.record.steps] == ["roll", "Roll 5"]


def test_game_end_is_reported(stub):
    r = stub.ApplyAction(pb.ApplyActionRequest(
        position=record("connect_four", 3, 2, 3, 2, 3, 2), action=pb.Step(text="x in column 4")))
    assert r.position.kind == pb.NODE_KIND_TERMINAL and r.position.current_player == -4
    assert list(r.position.returns) == [1.0, -1.0]
    assert len(stub.LegalActions(pb.LegalActionsRequest(
        position=pb.Position(record=r.position.record))).actions) == 0


BAD_POSITIONS = [
    (pb.Position(), "position", "a position is required"),
    (record(""), "position.record.game", "required"),
    (record("go"), "position.record.game", "unknown game 'go'"),
    (record("pig(players=1)"), "position.record.game", "between 2 and 10"),
    (record("pig(speed=3)"), "position.record.game", "unknown option 'speed'"),
    (record("pig(players=2"), "position.record.game", "malformed"),
    (record("connect_four", 3, 7), "position.record.steps[1].id", "action 7 is illegal"),
    (record("connect_four", "x in column 4", "drop"), "position.record.steps[1].text", "not a legal move"),
    (record("pig", "roll", 9), "position.record.steps[1].id", "not a possible chance outcome"),
    (record("pig", pb.Step(text="roll", kind=pb.NODE_KIND_CHANCE)),
     "position.record.steps[0].kind", "marked NODE_KIND_CHANCE"),
    (record("connect_four", pb.Step()), "position.record.steps[0]", "needs an id or a text"),
    (record("connect_four", 0, 1, 0, 1, 0, 1, 0, 1), "position.record.steps[7]", "over"),
    (record("connect_four", "x in column 2", expected_player=0), "position.record.expected_player",
     "player 1 is to move"),
    (pb.Position(state=pb.StructuredState(game="pig", text="[1, 2]")), "position.state.text",
     "JSON object"),
    (pb.Position(state=pb.StructuredState(game="nope", text="{}")), "position.state.game",
     "unknown game"),
]


@pytest.mark.parametrize("position, field, fragment", BAD_POSITIONS,
                         ids=[f"{b[1]}-{i}" for i, b in enumerate(BAD_POSITIONS)])
@pytest.mark.parametrize("rpc", ["LegalActions", "ApplyAction", "Suggest", "Analyze"])
def test_bad_positions_are_refused_naming_the_field(stub, rpc, position, field, fragment):
    if rpc == "LegalActions":
        call = lambda: stub.LegalActions(pb.LegalActionsRequest(position=position), timeout=10)
    elif rpc == "ApplyAction":
        call = lambda: stub.ApplyAction(pb.ApplyActionRequest(
            position=position, action=pb.Step(id=0)), timeout=10)
    elif rpc == "Suggest":
        call = lambda: stub.Suggest(pb.SuggestRequest(position=position), timeout=10)
    else:
        call = lambda: list(stub.Analyze(pb.AnalyzeRequest(position=position), timeout=10))
    with pytest.raises(grpc.RpcError) as e:
        call()
    assert_status(e, INVALID, field + ":", fragment)


def test_bad_game_string_in_new_game(stub):
    with pytest.raises(grpc.RpcError) as e:
        stub.NewGame(pb.NewGameRequest(game="pig(players=x)"))
    assert_status(e, INVALID, "game:", "'players' needs an int")
    with pytest.raises(grpc.RpcError) as e:
        stub.NewGame(pb.NewGameRequest())
    assert_status(e, INVALID, "game:", "required")


def test_bad_action_to_apply(stub):
    cases = [
        (pb.ApplyActionRequest(position=record("connect_four")), "action:", "required"),
        (pb.ApplyActionRequest(position=record("connect_four"), action=pb.Step(id=-1)),
         "action.id:", "illegal"),
        (pb.ApplyActionRequest(position=record("connect_four"), action=pb.Step(text="x in column 9")),
         "action.text:", "not a legal move"),
        (pb.ApplyActionRequest(position=record("pig", "roll"), action=pb.Step(text="stop")),
         "action.text:", "it is a chance node"),
        (pb.ApplyActionRequest(position=record("pig"),
                               action=pb.Step(text="Roll 3", kind=pb.NODE_KIND_CHANCE)),
         "action.kind:", "player 0 is to move"),
    ]
    for request, field, fragment in cases:
        with pytest.raises(grpc.RpcError) as e:
            stub.ApplyAction(request)
        assert_status(e, INVALID, field, fragment)


def test_structured_state_unsupported_is_unimplemented(stub):
    from kit_fakes import fake_game
    with fake_game("opaque_nim"):                 # declares no structured_states
        pos = pb.Position(state=pb.StructuredState(game="opaque_nim", text='{"pile": 3}'))
        with pytest.raises(grpc.RpcError) as e:
            stub.LegalActions(pb.LegalActionsRequest(position=pos))
    assert_status(e, grpc.StatusCode.UNIMPLEMENTED, "position.state:", "game record")


BAD_SETTINGS = [
    (settings(iterations=0), "settings.budget.iterations:", "at least 1"),
    (settings(iterations=10**9), "settings.budget.iterations:", "limit of 200000"),
    (settings(seconds=-1.0), "settings.budget.seconds:", "positive"),
    (settings(seconds=float("nan")), "settings.budget.seconds:", "positive"),
    (settings(seconds=3600.0), "settings.budget.seconds:", "limit of 20"),
    (settings(iterations=10, threads=-2), "settings.threads:", "at least 1"),
    (settings(iterations=10, threads=64), "settings.threads:", "limit of 2"),
    (settings(iterations=10, num_candidates=-1), "settings.num_candidates:", "0 (all)"),
    (settings(bot="alphazero"), "settings.bot:", "unknown bot 'alphazero'"),
    (settings(bot="mcts(iterations=many)"), "settings.bot:", "must be an int"),
    (settings(bot="mcts(iterations=10000000)"), "settings.bot:", "limit of 200000"),
    (settings(bot="mcts(threads=9)"), "settings.bot:", "limit of 2"),
    (settings(bot="mcts(form=magic)", iterations=10), "settings.bot:", "form"),
    (settings(bot="mcts(uct_c=-1)", iterations=10), "settings.bot:", "uct_c"),
    (settings(bot="mcts(colour=3)", iterations=10), "settings.bot:", "colour"),
    (settings(bot="greedy(depth=-1)"), "settings.bot:", "depth"),
]


@pytest.mark.parametrize("search, field, fragment", BAD_SETTINGS,
                         ids=[b[1] + str(i) for i, b in enumerate(BAD_SETTINGS)])
def test_bad_search_settings_are_refused_naming_the_field(stub, server, search, field, fragment):
    with pytest.raises(grpc.RpcError) as e:
        stub.Suggest(pb.SuggestRequest(position=record("connect_four"), settings=search),
                     timeout=20)
    assert_status(e, INVALID, field, fragment)
    with pytest.raises(grpc.RpcError) as e:
        list(stub.Analyze(pb.AnalyzeRequest(position=record("connect_four"), settings=search),
                          timeout=20))
    assert_status(e, INVALID, field, fragment)


def test_nothing_to_search(stub):
    for pos, fragment in [(record("connect_four", 0, 1, 0, 1, 0, 1, 0), "the game is over"),
                          (record("pig", "roll"), "chance node")]:
        with pytest.raises(grpc.RpcError) as e:
            stub.Suggest(pb.SuggestRequest(position=pos, settings=settings(iterations=10)))
        assert_status(e, INVALID, "position:", fragment)


def test_bad_report_interval(stub):
    with pytest.raises(grpc.RpcError) as e:
        list(stub.Analyze(pb.AnalyzeRequest(position=record("pig"), report_interval_ms=3,
                                            settings=settings(iterations=10))))
    assert_status(e, INVALID, "report_interval_ms:", "10 to 600000")


def test_oversized_request_is_refused(make_server):
    srv = make_server(max_message_bytes=4096)
    with grpc.insecure_channel(f"127.0.0.1:{srv.port}") as ch:
        stub = __import__("easel.v1.engine_pb2_grpc", fromlist=["x"]).EngineStub(ch)
        big = record("pig", *(["roll", "Roll 2", "stop"] * 300))
        with pytest.raises(grpc.RpcError) as e:
            stub.LegalActions(pb.LegalActionsRequest(position=big), timeout=10)
        assert e.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
        # the server is unharmed
        assert stub.NewGame(pb.NewGameRequest(game="pig"), timeout=10).position.game == "pig"


def test_health_and_reflection(channel):
    health = health_pb2_grpc.HealthStub(channel)
    for service in ("", "easel.v1.Engine"):
        r = health.Check(health_pb2.HealthCheckRequest(service=service), timeout=5)
        assert r.status == health_pb2.HealthCheckResponse.SERVING
    refl = reflection_pb2_grpc.ServerReflectionStub(channel)
    answers = list(refl.ServerReflectionInfo(iter([
        reflection_pb2.ServerReflectionRequest(list_services=""),
        reflection_pb2.ServerReflectionRequest(file_containing_symbol="easel.v1.Engine"),
    ]), timeout=5))
    names = {s.name for s in answers[0].list_services_response.service}
    assert {"easel.v1.Engine", "grpc.health.v1.Health"} <= names
    assert answers[1].file_descriptor_response.file_descriptor_proto
