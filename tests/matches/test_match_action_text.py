"""A hosted match's SubmitAction (what `easel play` sends for a typed move)
reads text by exact match against the legal texts: a bare number or a
loose form is INVALID_ARGUMENT listing the legal moves, and changes nothing."""
from __future__ import annotations

import grpc
import pytest

from match_helpers import assert_status, client, epb, pb


def test_submit_action_text_is_exact(served):
    made = served.matches.CreateMatch(pb.CreateMatchRequest(
        game="connect_four", seats=[client(), client()]), timeout=30)
    m, t0 = made.match_id, made.seat_tokens[0].token

    def submit(text):
        return served.matches.SubmitAction(pb.SubmitActionRequest(
            match_id=m, token=t0, step=0, action=epb.Step(text=text)), timeout=10)

    for typed in ("3", "x 3", "x in column 8", "x"):
        with pytest.raises(grpc.RpcError) as e:
            submit(typed)
        assert_status(e, grpc.StatusCode.INVALID_ARGUMENT, "action.text",
                      f"{typed!r} is not a legal move here", "legal moves: x in column 1; x in column 2; x in column 3")
    got = served.matches.GetMatch(pb.GetMatchRequest(match_id=m), timeout=10)
    assert got.match.steps == 0
    assert submit(" X in  Column 4 ").step.action.id == 3
