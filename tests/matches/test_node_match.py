"""The Node.js example examples/node/match.js plays a client seat of a hosted
match to the end from the event stream, against a real server."""
from __future__ import annotations

import os
import shutil
import subprocess

import pytest

from match_helpers import pb

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
NODE_DIR = os.path.join(ROOT, "examples", "node")


def _node_ready():
    if shutil.which("node") is None:
        return "node is not installed"
    if not os.path.isdir(os.path.join(NODE_DIR, "node_modules", "@grpc", "grpc-js")):
        return "examples/node/node_modules is missing: run `npm ci` in examples/node"
    return None


needs_node = pytest.mark.skipif(
    _node_ready() is not None and os.environ.get("EASEL_REQUIRE_NODE") != "1",
    reason=str(_node_ready()))


def run_node(*args):
    assert _node_ready() is None, _node_ready()     # CI sets EASEL_REQUIRE_NODE=1
    out = subprocess.run(["node", "match.js", *args], cwd=NODE_DIR, capture_output=True,
                         text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    return out.stdout


@needs_node
def test_node_creates_and_plays_a_match(served):
    text = run_node("--server", served.address, "--game", "pig", "--vs", "mcts(iterations=30)")
    lines = text.splitlines()
    assert lines[0].startswith("created match ") and "pig, seat 0 (node)" in lines[0]
    assert any("seat 0 (client): roll" in ln or "seat 0 (client): stop" in ln for ln in lines)
    assert any("chance (server): " in ln for ln in lines)
    end = lines[-1]
    assert end.startswith("end: MATCH_STATUS_FINISHED END_REASON_GAME_OVER after ")
    match_id = lines[0].split()[2].rstrip(":")
    got = served.matches.GetMatch(pb.GetMatchRequest(match_id=match_id), timeout=10).match
    assert f"after {got.steps} steps" in end
    assert sorted(got.result.returns) == [-1.0, 1.0]


@needs_node
def test_node_joins_a_match_as_a_client_seat(served):
    made = served.matches.CreateMatch(pb.CreateMatchRequest(
        game="connect_four", seats=[pb.SeatConfig(bot="random"), pb.SeatConfig(client=True)]),
        timeout=10)
    text = run_node("--server", served.address, "--match", made.match_id,
                    "--token", made.seat_tokens[0].token, "--seat", "1")
    assert f"joined match {made.match_id}: connect_four, seat 1" in text
    assert "seat 1 (client): o" in text and "seat 0 (bot): x" in text
    assert "end: MATCH_STATUS_FINISHED END_REASON_GAME_OVER" in text
