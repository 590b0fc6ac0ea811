"""Request builders and status assertions shared by the server tests."""
from __future__ import annotations

from easel.v1 import engine_pb2 as pb


def record(game, *steps, expected_player=None):
    rec = pb.GameRecord(game=game)
    for s in steps:
        rec.steps.append(s if isinstance(s, pb.Step) else
                         pb.Step(id=s) if isinstance(s, int) else pb.Step(text=s))
    if expected_player is not None:
        rec.expected_player = expected_player
    return pb.Position(record=rec)


from easel.client import settings  # noqa: E402,F401  (the tests build settings as clients do)


def assert_status(excinfo, code, *fragments):
    """The RpcError has `code` and its message contains every fragment."""
    err = excinfo.value
    assert err.code() == code, f"{err.code()} {err.details()}"
    for f in fragments:
        assert f in err.details(), f"{f!r} not in {err.details()!r}"


def opening(spec: str, seed: int = 1) -> list[int]:
    """The steps of the game's opening draws (chance only), drawn with `seed`."""
    import random

    from easel import engine
    state = engine.load_game(spec).new_initial_state()
    rng = random.Random(seed)
    steps = []
    while state.is_chance_node():
        steps.append(engine.draw_outcome(state, rng))
        state.apply_action(steps[-1])
    return steps
