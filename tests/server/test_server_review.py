"""The Review RPC (server/review.py, docs/review.md): one ReviewedDecision
per turn then a summary, from a record or EGN text; every option checked
(INVALID_ARGUMENT naming the field), records over the turn limit refused
with RESOURCE_EXHAUSTED naming it, a cancel stopping the running search."""
from __future__ import annotations

import random
import time

import grpc
import pytest

from server_helpers import assert_status, settings

from easel import engine
from easel.search import egn, review
from easel.v1 import engine_pb2 as pb

GAME = "pig(winscore=20)"


def _played(spec: str = GAME, seed: int = 3, limit: int = 10_000):
    """[[player, action], ...] of a game of random play."""
    game = engine.load_game(spec)
    state, rng, steps = game.new_initial_state(), random.Random(seed), []
    while not state.is_terminal() and len(steps) < limit:
        a = (engine.draw_outcome(state, rng) if state.is_chance_node()
             else rng.choice(state.legal_actions()))
        steps.append([state.current_player(), a])
        state.apply_action(a)
    return game, steps, state


def _request(steps, spec: str = GAME, **kw):
    rec = pb.GameRecord(game=spec, steps=[pb.Step(id=a) for _, a in steps])
    return pb.ReviewRequest(record=rec, **kw)


def test_review_streams_a_decision_per_turn_then_the_summary(stub):
    game, steps, _ = _played()
    points = review.decision_points(steps, game.num_players())
    msgs = list(stub.Review(_request(steps, settings=settings(iterations=200, seed=4)),
                            timeout=60))
    assert [m.WhichOneof("item") for m in msgs] == ["decision"] * len(points) + ["summary"]
    assert [m.decision.step for m in msgs[:-1]] == [p.step for p in points]
    for m, p in zip(msgs, points):
        d = m.decision
        assert list(d.played_ids) == list(p.played) and d.player == p.player
        assert d.judgement != pb.JUDGEMENT_UNSPECIFIED and 0 <= d.loss <= 1
    s = msgs[-1].summary
    assert s.game == game.spec and s.decisions == len(points) and len(s.players) == 2
    assert s.blunder_threshold == review.BLUNDER and "mcts" in s.bot
    # the same review as the library's, with the same seed and budget
    local = list(review.Reviewer(game, review.Settings(iterations=200, seed=4)).review(steps))
    assert [m.decision.loss for m in msgs[:-1]] == pytest.approx([d.loss for d in local])


def test_review_says_which_drop_decided_each_loss(stub):
    spec = "vangogh"
    game, steps, _ = _played(spec, seed=2, limit=40)
    msgs = list(stub.Review(_request(steps, spec, settings=settings(iterations=100, seed=4)),
                            timeout=120))
    local = list(review.Reviewer(game, review.Settings(iterations=100, seed=4)).review(steps))
    there = [m.decision for m in msgs[:-1]]
    assert [d.loss_cause for d in there] == [d.cause for d in local]
    assert [d.margin_standard_error if d.HasField("margin_standard_error") else None
            for d in there] == pytest.approx([d.margin_se for d in local])
    assert all(d.margin_se is not None for d in local if not d.forced)
    assert {d.cause for d in local if d.loss > 0} <= {"win probability", "expected result",
                                                       "points"}
    assert all(d.cause == "" for d in local if d.loss == 0)


def test_review_reads_egn_text(stub):
    game, steps, state = _played()
    record = {"format": "easel-record-v1", "game": game.spec,
              "seats": [{"seat": 0, "spec": "random"}, {"seat": 1, "spec": "random"}],
              "steps": steps, "returns": list(state.returns())}
    text = egn.dumps(record) + "\n\n" + egn.dumps(record) + "\n"
    msgs = list(stub.Review(pb.ReviewRequest(egn_text=text, game_index=1,
                                             settings=settings(iterations=50)), timeout=60))
    assert msgs[-1].summary.decisions == len(review.decision_points(steps, 2))


@pytest.mark.parametrize("make,fragments", [
    (lambda s: pb.ReviewRequest(), ["source"]),
    (lambda s: pb.ReviewRequest(egn_text="[Game \"nosuchgame\"]\n\n*\n"), ["egn_text"]),
    (lambda s: pb.ReviewRequest(egn_text="\n"), ["egn_text", "no game"]),
    (lambda s: _request(s, game_index=1), ["game_index"]),
    (lambda s: _request(s, game_index=-1), ["game_index"]),
    (lambda s: _request(s, spec="nosuchgame"), ["record.game"]),
    (lambda s: _request(s[:3] + [[0, 999]]), ["record.steps[3]"]),
    (lambda s: _request(s, settings=settings(iterations=10**9)), ["settings.budget.iterations"]),
    (lambda s: _request(s, settings=settings(seconds=-1.0)), ["settings.budget.seconds"]),
    (lambda s: _request(s, settings=settings(threads=99)), ["settings.threads"]),
    (lambda s: _request(s, settings=pb.SearchSettings(bot="random")), ["settings.bot"]),
    (lambda s: _request(s, settings=pb.SearchSettings(bot="mcts(uct_c=-3)")), ["settings.bot"]),
    (lambda s: _request(s, settings=pb.SearchSettings(num_candidates=-1)),
     ["settings.num_candidates"]),
    (lambda s: _request(s, settings=pb.SearchSettings(play_as_bot=True)),
     ["settings.play_as_bot"]),
])
def test_review_refuses_bad_requests_naming_the_field(stub, make, fragments):
    _, steps, _ = _played()
    with pytest.raises(grpc.RpcError) as e:
        list(stub.Review(make(steps), timeout=30))
    assert_status(e, grpc.StatusCode.INVALID_ARGUMENT, *fragments)


def test_a_record_over_the_turn_limit_is_refused_naming_it(make_server):
    srv = make_server(max_review_decisions=5)
    from easel.v1 import engine_pb2_grpc as pb_grpc
    with grpc.insecure_channel(f"127.0.0.1:{srv.port}") as ch:
        _, steps, _ = _played()
        with pytest.raises(grpc.RpcError) as e:
            list(pb_grpc.EngineStub(ch).Review(_request(steps), timeout=30))
    assert_status(e, grpc.StatusCode.RESOURCE_EXHAUSTED, "max_review_decisions", "at most 5")
    assert srv.running_searches() == 0


def test_cancelling_a_review_stops_its_search(stub, server):
    _, steps, _ = _played()
    call = stub.Review(_request(steps, settings=settings(seconds=10)), timeout=60)
    t0 = time.perf_counter()
    while not server.running_searches():
        assert time.perf_counter() - t0 < 10, "the review's search never started"
        time.sleep(0.005)
    call.cancel()
    t0 = time.perf_counter()
    while server.running_searches():
        assert time.perf_counter() - t0 < 5, "the search went on after the cancel"
        time.sleep(0.01)
    with pytest.raises(grpc.RpcError) as e:
        for _ in call:
            pass
    assert e.value.code() == grpc.StatusCode.CANCELLED


def test_the_client_reviews_a_game(server):
    from easel.client import EngineClient
    game, steps, _ = _played(seed=5)
    with EngineClient(f"127.0.0.1:{server.port}") as client:
        msgs = list(client.review(GAME, [a for _, a in steps], iterations=100, seed=2))
    assert msgs[-1].summary.decisions == len(msgs) - 1 == len(
        review.decision_points(steps, game.num_players()))


def test_easel_review_asks_a_server_as_it_reviews_here(server, tmp_path, capsys):
    import json

    from easel.server.cli import main
    game, steps, state = _played(seed=6)
    rec = {"format": "easel-record-v1", "game": game.spec,
           "seats": [{"seat": 0, "spec": "random"}, {"seat": 1, "spec": "random"}],
           "steps": steps, "returns": list(state.returns())}
    path = tmp_path / "game.jsonl"
    path.write_text(json.dumps(rec) + "\n")
    args = ["review", str(path), "--iterations", "120", "--seed", "3", "--json"]
    assert main(args) == 0
    here = json.loads(capsys.readouterr().out)
    assert main(args + ["--server", f"127.0.0.1:{server.port}"]) == 0
    there = json.loads(capsys.readouterr().out)
    assert [d["loss"] for d in there["decisions"]] == pytest.approx(
        [d["loss"] for d in here["decisions"]])
    assert there["players"] == here["players"]
    assert main(["review", str(path), "--auth-token-file", str(path)]) == 2
    assert "needs --server" in capsys.readouterr().err
