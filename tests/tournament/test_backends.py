"""Backends and remote bots: Ray gives the local backend's results for a seed;
a remote(...) bot plays through another server's Suggest."""
from __future__ import annotations

import pytest
from tournament_helpers import without_timing


CONFIG = {
    "seed": 21, "games": ["pig(winscore=30)", "vangogh(players=3)"],
    "bots": {"h": "heuristic", "r": "random", "g": "greedy(budget=10)",
             "m": "mcts(iterations=30,threads=1)"},
    "games_per_field": 6, "report": {"bootstrap": 20},
}


def test_ray_and_local_backends_give_identical_results(run_tournament, tmp_path):
    import ray              # part of the test extra: a missing Ray fails here, not skips
    local, _ = run_tournament(CONFIG, backend="local", jobs=2, report=False)
    try:
        from easel.search.tournament.runner import neutral_directory
        with neutral_directory():
            ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False,
                     runtime_env={"env_vars": {"PYTHONPATH": _home()}})
        remote, _ = run_tournament(CONFIG, backend="ray", report=False)
        # a Ray worker that dies: the driver sees the lost task and runs the block again
        marker = tmp_path / "ray-died-once"
        crash, _ = run_tournament(
            {"seed": 2, "games": ["connect_four"], "format": "gauntlet", "challenger": "c",
             "bots": {"c": f"faulty(mode=exit,after=3,once={marker})", "r": "random"},
             "games_per_field": 4, "report": {"bootstrap": 0}}, backend="ray", report=False)
    finally:
        ray.shutdown()
    assert local["progress"]["games"] == remote["progress"]["games"] == 6 * 6 + 4 * 6
    assert without_timing(local) == without_timing(remote)
    assert marker.exists()
    assert crash["faults"]["worker_deaths"] == 1 and crash["faults"]["failed_blocks"] == []
    assert crash["progress"]["games"] == 4 and crash["progress"]["complete"]


def _home():
    import os

    import easel
    return os.path.dirname(os.path.dirname(os.path.abspath(easel.__file__)))


@pytest.fixture
def engine_server():
    from easel.server.analysis import Limits
    from easel.server.service import build_server
    srv = build_server(port=0, host="127.0.0.1", limits=Limits()).start()
    yield f"127.0.0.1:{srv.port}"
    srv.stop(0)


def test_a_remote_bot_plays_through_suggest(run_tournament, engine_server):
    data = {"seed": 3, "games": ["connect_four"], "format": "head-to-head",
            "bots": {"there": f"remote(target={engine_server},spec=mcts(iterations=200))",
                     "here": "random"},
            "games_per_field": 4, "report": {"bootstrap": 0}}
    res, _ = run_tournament(data, jobs=1, report=False)
    assert res["faults"]["forfeits"]["there"] == {"raise": 0, "illegal": 0, "timeout": 0}
    assert res["progress"]["games"] == 4
    (pair,) = res["pairs"]
    assert pair["bots"] == ["there", "here"] and pair["score"]["mean"] >= 0.75
    # the same seed plays the same remote moves again
    again, _ = run_tournament(data, jobs=2, report=False)
    assert without_timing(again) == without_timing(res)


def test_an_unreachable_remote_bot_forfeits(run_tournament):
    data = {"seed": 3, "games": ["connect_four"], "format": "head-to-head",
            "bots": {"gone": "remote(target=127.0.0.1:1,spec=mcts,timeout=2)",
                     "here": "random"},
            "games_per_field": 2, "report": {"bootstrap": 0}}
    res, out = run_tournament(data, report=False)
    assert res["faults"]["forfeits"]["gone"]["raise"] == 2


def test_the_server_refuses_remote_and_faulty_bots(engine_server):
    """Network input is hostile: a request must not make the server connect to
    another host or kill itself."""
    import grpc

    from easel.client import EngineClient
    with EngineClient(engine_server, timeout=30) as client:
        for spec in ("remote(target=127.0.0.1:1,spec=mcts)", "faulty(mode=exit)"):
            try:
                client.suggest("connect_four", [], bot=spec)
            except grpc.RpcError as e:
                assert e.code() == grpc.StatusCode.INVALID_ARGUMENT
                assert "settings.bot" in e.details() and "does not play" in e.details()
            else:
                raise AssertionError(f"{spec} was played")
        assert client.suggest("connect_four", [], bot="random").candidates


def test_a_remote_token_comes_from_the_environment(run_tournament, engine_server, monkeypatch):
    monkeypatch.delenv("EASEL_TEST_NO_TOKEN", raising=False)
    data = {"seed": 3, "games": ["connect_four"], "format": "head-to-head",
            "bots": {"there": f"remote(target={engine_server},spec=random,"
                              "token_env=EASEL_TEST_NO_TOKEN)", "here": "random"},
            "games_per_field": 2, "report": {"bootstrap": 0}}
    res, out = run_tournament(data, report=False)
    assert res["faults"]["forfeits"]["there"]["raise"] == 2
    import json
    import os
    with open(os.path.join(out, "journal.jsonl")) as f:
        details = [g["fault"]["detail"] for line in f.readlines()[1:]
                   for g in json.loads(line).get("games", []) if g["fault"]]
    assert all("EASEL_TEST_NO_TOKEN (token_env) is not set" in d for d in details)
