"""Clients for the match tests: seats that play random legal moves from the
event stream, a table that reports chance outcomes, and record checks."""
from __future__ import annotations

import random

import grpc

from easel import engine
from easel.v1 import engine_pb2 as epb
from easel.v1 import matches_pb2 as pb


def all_games() -> list[str]:
    return [e.name for e in engine.registered_games()]


def bot_for(game: str, strong: bool = False) -> str:
    return "mcts(iterations=60)" if strong else "random"


def events(stub, match_id, from_step=0, token="", positions=False, timeout=120):
    return list(stub.WatchMatch(pb.WatchMatchRequest(match_id=match_id, from_step=from_step,
                                                     token=token, positions=positions),
                                timeout=timeout))


def steps_of(evs) -> list[tuple[int, int, int, str]]:
    return [(e.step.step, e.step.action.id, e.step.player, e.step.by)
            for e in evs if e.WhichOneof("event") == "step"]


def play_stream(stub, match_id, tokens: dict, table_token: str = "", seed: int = 0,
                timeout: float = 120, on_event=None):
    """Play every client seat in `tokens` ({seat: token}) and the table (if
    a table token is given) with random legal moves, from one event stream,
    until the end. Returns (events, acknowledged {step: action})."""
    rng = random.Random(seed)
    first = next(iter(tokens.values()), "")
    stream = stub.WatchMatch(pb.WatchMatchRequest(match_id=match_id, token=first),
                             timeout=timeout)
    evs, acked = [], {}
    state = None
    for ev in stream:
        evs.append(ev)
        if on_event is not None:
            on_event(ev)
        kind = ev.WhichOneof("event")
        if kind == "snapshot":
            state = engine.load_game(ev.snapshot.match.game).new_initial_state()
            n, turn = ev.snapshot.step, ev.snapshot.turn
            live = ev.snapshot.match.steps      # events before it are history: no acting
        elif kind == "step":
            state.apply_action(ev.step.action.id)
            n, turn = ev.step.step + 1, ev.step.turn
        elif kind == "end":
            break
        else:
            continue
        if n < live:
            continue
        if turn.kind == epb.NODE_KIND_CHANCE and turn.table and table_token:
            outcomes = state.chance_outcomes()
            action = rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0]
            token = table_token
        elif turn.kind == epb.NODE_KIND_DECISION and turn.player in tokens:
            action = rng.choice(state.legal_actions())
            token = tokens[turn.player]
        else:
            continue
        text = state.action_to_string(action)
        r = stub.SubmitAction(pb.SubmitActionRequest(match_id=match_id, token=token, step=n,
                                                     action=epb.Step(text=text)), timeout=30)
        assert r.step.step == n and r.step.action.id == action
        acked[n] = action
    return evs, acked


def check_record(game: str, actions: list[int], returns=None):
    """Replay: every step legal, the game over, returns as reported."""
    state = engine.load_game(game).new_initial_state()
    for i, a in enumerate(actions):
        assert not state.is_terminal(), f"step {i} after the end"
        assert state.is_legal(a), f"step {i}: {a} illegal"
        state.apply_action(a)
    assert state.is_terminal()
    if returns is not None:
        assert list(returns) == list(state.returns())
    return state


def assert_status(excinfo, code, *fragments):
    err = excinfo.value
    assert err.code() == code, f"{err.code()} {err.details()}"
    for f in fragments:
        assert f in err.details(), f"{f!r} not in {err.details()!r}"


def client(): return pb.SeatConfig(client=True)   # noqa: E704


def bot(spec): return pb.SeatConfig(bot=spec)      # noqa: E704


__all__ = ["grpc", "pb", "epb"]
