"""Whole turns and games played call by call: several steps applied in one
call, a mid-turn Suggest that keeps to the turn it suggested, and the replay
cache (same answers as a full replay, found by record prefix, bounded)."""
from __future__ import annotations

import random

import grpc
import pytest

from easel import engine
from easel.v1 import engine_pb2 as pb
from easel.v1 import engine_pb2_grpc as pb_grpc
from easel.server import positions
from easel.server.replay_cache import Entry, RecordKeys, ReplayCache
from server_helpers import assert_status, record, settings


def test_apply_several_steps_in_one_call(stub):
    r = stub.ApplyAction(pb.ApplyActionRequest(
        position=record("pig"), actions=[pb.Step(text="roll"), pb.Step(text="Roll 4"),
                                         pb.Step(text="stop")]), timeout=5)
    assert [a.text for a in r.applied_steps] == ["roll", "Roll 4", "stop"]
    assert r.applied.text == "stop" and r.position.current_player == 1
    assert [s.text for s in r.position.record.steps] == ["roll", "Roll 4", "stop"]
    r = stub.ApplyAction(pb.ApplyActionRequest(position=record("pig"), action=pb.Step(text="roll"),
                                               actions=[pb.Step(id=2)]), timeout=5)
    assert [a.text for a in r.applied_steps] == ["roll", "Roll 3"]
    with pytest.raises(grpc.RpcError) as e:
        stub.ApplyAction(pb.ApplyActionRequest(
            position=record("pig"), actions=[pb.Step(text="roll"), pb.Step(text="stop")]),
            timeout=5)
    assert_status(e, grpc.StatusCode.INVALID_ARGUMENT, "actions[1].text:", "chance node")
    with pytest.raises(grpc.RpcError) as e:
        stub.ApplyAction(pb.ApplyActionRequest(position=record("pig")), timeout=5)
    assert_status(e, grpc.StatusCode.INVALID_ARGUMENT, "action:", "required")


def _turn(c):
    return [s.id for s in c.pv[:c.turn_length]]


def _play_turns(stub, wanted, from_here=False, seed=5, iterations=300):
    """Play Van Gogh with the top suggestion; at each multi-step turn, take
    its first step and ask again. (agreements, disagreements)."""
    game = engine.load_game("vangogh")
    state = game.new_initial_state()
    rng = random.Random(seed)
    steps, agree, disagree = [], 0, 0

    def ask():
        s = settings(iterations=iterations, seed=1, threads=1)
        s.search_from_here = from_here
        return stub.Suggest(pb.SuggestRequest(position=record("vangogh", *steps), settings=s),
                            timeout=60)

    while not state.is_terminal() and agree + disagree < wanted:
        if state.is_chance_node():
            steps.append(engine.draw_outcome(state, rng))
            state.apply_action(steps[-1])
            continue
        turn = _turn(ask().analysis.candidates[0])
        state.apply_action(turn[0])
        steps.append(turn[0])
        if len(turn) > 1:
            again = ask().analysis
            if _turn(again.candidates[0]) == turn[1:]:
                agree += 1
                assert again.HasField("plan_move_number") or from_here
            else:
                disagree += 1
            for a in turn[1:]:
                state.apply_action(a)
                steps.append(a)
    return agree, disagree


def test_asking_again_mid_turn_keeps_the_suggested_turn(stub):
    agree, disagree = _play_turns(stub, wanted=8)
    assert (agree, disagree) == (8, 0)


def test_search_from_here_searches_the_position_itself(stub):
    s = settings(iterations=200, seed=1)
    s.search_from_here = True
    game = engine.load_game("vangogh")
    state = game.new_initial_state()
    rng = random.Random(2)
    steps = []
    while state.is_chance_node():
        steps.append(engine.draw_outcome(state, rng))
        state.apply_action(steps[-1])
    r = stub.Suggest(pb.SuggestRequest(position=record("vangogh", *steps), settings=s), timeout=60)
    assert not r.analysis.HasField("plan_move_number")


# -- the replay cache ------------------------------------------------------------------------

def test_record_keys_are_digests_of_prefixes():
    rec = pb.GameRecord(game="pig(players=3)", steps=[pb.Step(text="roll"), pb.Step(id=3),
                                                       pb.Step(id=1, text="stop", kind=1)] * 40)
    rec.expected_player = 2
    keys = RecordKeys(rec)
    for n in [0, 1, 2, 57, 119, 120]:
        short = pb.GameRecord(game=rec.game, steps=rec.steps[:n])
        assert keys.key(n) == RecordKeys(short).key(n)
    assert keys.key(5) != keys.key(6)
    other = pb.GameRecord(game="pig", steps=rec.steps[:5])
    assert RecordKeys(other).key(5) != keys.key(5)          # the game string is part of it


def _calls(game_spec, rng, n):
    """A game played call by call: the records of each call."""
    state = engine.load_game(game_spec).new_initial_state()
    steps, out = [], []
    while not state.is_terminal() and len(steps) < n:
        if state.is_chance_node():
            state.apply_action(engine.draw_outcome(state, rng))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
        steps.append(state.history()[-1])
        out.append(list(steps))
    return out


@pytest.mark.parametrize("game", ["pig", "vangogh", "connect_four"])
def test_cached_replays_answer_as_full_replays(game):
    cache = ReplayCache(max_entries=8)
    calls = _calls(game, random.Random(4), 150)
    for steps in calls:
        rec = pb.GameRecord(game=game, steps=[pb.Step(id=a) for a in steps])
        fresh_state, fresh_rec, fresh_turn = positions.replay_full(rec)
        state, out, turn = positions.replay_full(rec, cache=cache)
        assert state.to_json() == fresh_state.to_json() and out == fresh_rec
        assert turn == fresh_turn and state.history() == fresh_state.history()
    assert cache.hits == len(calls) - 1 and len(cache) <= 8


def test_a_cached_prefix_does_not_excuse_a_bad_step():
    cache = ReplayCache()
    good = pb.GameRecord(game="connect_four", steps=[pb.Step(text="x in column 4"), pb.Step(text="o in column 4")])
    positions.replay_full(good, cache=cache)
    bad = pb.GameRecord(game="connect_four", steps=list(good.steps) + [pb.Step(id=9)])
    with pytest.raises(positions.InvalidArgument, match=r"position.record.steps\[2\].id"):
        positions.replay_full(bad, cache=cache)
    again = pb.GameRecord(game="connect_four", steps=good.steps, expected_player=1)
    with pytest.raises(positions.InvalidArgument, match="expected_player"):
        positions.replay_full(again, cache=cache)
    assert cache.hits == 2
    # a hit hands out a copy: changing it leaves the cache as it was
    state, _, _ = positions.replay_full(good, cache=cache)
    state.apply_action(0)
    state2, _, _ = positions.replay_full(good, cache=cache)
    assert state2.move_number() == 2


def test_the_cache_is_bounded():
    cache = ReplayCache(max_entries=3, max_steps=10)
    for n in range(1, 8):
        rec = pb.GameRecord(game="pig", steps=[pb.Step(text="stop")] * n)
        state, out, _ = positions.replay_full(rec, cache=cache)
    assert len(cache) <= 3 and cache._steps <= 10
    cache.put(b"x", Entry(state, pb.GameRecord(steps=[pb.Step()] * 11), (0, None)))
    assert b"x" not in cache._entries                # larger than the whole cache


def test_server_answers_are_the_same_with_and_without_the_cache(make_server):
    with_cache = make_server()
    without = make_server(replay_cache_entries=0)
    assert with_cache.cache is not None and without.cache is None
    answers = []
    for srv in (with_cache, without):
        with grpc.insecure_channel(f"127.0.0.1:{srv.port}") as ch:
            stub = pb_grpc.EngineStub(ch)
            got = []
            for steps in _calls("vangogh", random.Random(9), 60):
                pos = record("vangogh", *steps)
                got.append(stub.LegalActions(pb.LegalActionsRequest(position=pos), timeout=10))
            answers.append(got)
    assert answers[0] == answers[1]
    assert with_cache.cache.hits >= 55
