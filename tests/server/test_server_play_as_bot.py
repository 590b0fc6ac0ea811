"""Suggest with play_as_bot (server/bot_replay.py): the bot's own move, its
own default budget, its options, the limit on rebuilding it, and the calls
that refuse it."""
from __future__ import annotations

import random

import grpc
import pytest

from easel import engine
from easel.search.specs import make_bot
from easel.v1 import engine_pb2 as pb
from server_helpers import assert_status, record


def as_bot(bot: str, seed: int = 5, **kw) -> pb.SearchSettings:
    return pb.SearchSettings(bot=bot, seed=seed, num_candidates=1, play_as_bot=True, **kw)


def test_the_bots_own_default_budget_applies(stub):
    """No budget: the bot's 1,000 iterations (stopping early as it does), not
    the server's default (300 here), and the local bot's very move."""
    local = make_bot("mcts(seed=5)", engine.load_game("connect_four", "core"))
    state = local.game.new_initial_state()
    move = local.step(state)
    r = stub.Suggest(pb.SuggestRequest(position=record("connect_four"), settings=as_bot("mcts")),
                     timeout=60)
    assert r.analysis.iterations == local._search.iterations > 300
    assert r.analysis.candidates[0].id == move
    assert r.analysis.bot == "mcts(seed=5,threads=1,iterations=1000)"


def test_the_bots_options_are_taken_only_when_playing_as_the_bot(stub):
    settings = pb.SearchSettings(bot="mcts(iterations=50,reuse=false)", num_candidates=1)
    with pytest.raises(grpc.RpcError) as e:
        stub.Suggest(pb.SuggestRequest(position=record("connect_four"), settings=settings),
                     timeout=30)
    assert_status(e, grpc.StatusCode.INVALID_ARGUMENT, "settings.bot", "applies to a bot playing a whole game")
    r = stub.Suggest(pb.SuggestRequest(position=record("connect_four", "x in column 4", "o in column 4"),
                                       settings=as_bot("mcts(iterations=50,reuse=false)")),
                     timeout=30)
    assert r.analysis.candidates


def test_analyze_refuses_play_as_bot(stub):
    with pytest.raises(grpc.RpcError) as e:
        list(stub.Analyze(pb.AnalyzeRequest(position=record("connect_four"),
                                            settings=as_bot("mcts(iterations=50)")), timeout=30))
    assert_status(e, grpc.StatusCode.INVALID_ARGUMENT, "settings.play_as_bot", "only Suggest")


def test_rebuilding_the_bot_is_bounded(make_server):
    """Connect Four has no chance event, so the bot's tree goes back to its
    first decision: a server that keeps no bot must redo every one of them."""
    srv = make_server(max_replayed_searches=2, bot_cache_entries=0)
    ch = grpc.insecure_channel(f"127.0.0.1:{srv.port}")
    from easel.v1 import engine_pb2_grpc as pb_grpc
    stub = pb_grpc.EngineStub(ch)
    steps = ["x in column 2", "o in column 2", "x in column 3", "o in column 3"]            # x searched twice before: allowed
    ok = stub.Suggest(pb.SuggestRequest(position=record("connect_four", *steps),
                                        settings=as_bot("mcts(iterations=30)")), timeout=30)
    assert ok.analysis.candidates
    with pytest.raises(grpc.RpcError) as e:
        stub.Suggest(pb.SuggestRequest(position=record("connect_four", *steps, "x in column 4", "o in column 4"),
                                       settings=as_bot("mcts(iterations=30)")), timeout=30)
    assert_status(e, grpc.StatusCode.RESOURCE_EXHAUSTED, "settings.play_as_bot",
                  "3 searches", "max_replayed_searches")
    # asking again cannot help: gRPC's retry policy (easel/client/retry.py) is told not to
    assert ("grpc-retry-pushback-ms", "-1") in tuple(e.value.trailing_metadata())
    ch.close()
    calls = []
    real = srv.servicer._play_as_bot
    srv.servicer._play_as_bot = lambda *a: calls.append(1) or real(*a)
    from easel.client import EngineClient
    with EngineClient(f"127.0.0.1:{srv.port}", timeout=30) as retrying:
        with pytest.raises(grpc.RpcError) as e:
            retrying.suggest("connect_four", [*steps, "x in column 4", "o in column 4"], bot="mcts(iterations=30)",
                             play_as_bot=True)
    assert e.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED and calls == [1]


def test_a_forced_move_is_made_without_a_search(stub):
    game = engine.load_game("starving_artists", "core")
    rng = random.Random(3)
    state, steps = game.new_initial_state(), []
    while state.is_chance_node() or len(state.legal_actions()) != 1:
        action = (engine.draw_outcome(state, rng) if state.is_chance_node()
                  else rng.choice(state.legal_actions()))
        state.apply_action(action)
        steps.append(action)
    r = stub.Suggest(pb.SuggestRequest(position=record("starving_artists", *steps),
                                       settings=as_bot("mcts(iterations=50)")), timeout=30)
    assert r.stop_reason == pb.STOP_REASON_NO_SEARCH
    assert [c.id for c in r.analysis.candidates] == state.legal_actions()
    assert r.analysis.iterations == 0 and r.analysis.bot == "mcts(seed=5,threads=1,iterations=50)"
