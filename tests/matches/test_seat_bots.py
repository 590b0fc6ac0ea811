"""A hosted match's bot seat plays as the same bot played locally: the same
spec, with the seat's seed, makes every one of the seat's moves (issue #27,
defect 9: whatever plays through the server plays as the local bot)."""
from __future__ import annotations

from match_helpers import bot, events, steps_of

from easel import engine
from easel.search.specs import make_bot
from easel.server.matches import draws
from easel.v1 import matches_pb2 as pb


def test_a_bot_seat_makes_the_local_bots_moves(served):
    spec = "mcts(iterations=40,threads=1)"
    made = served.matches.CreateMatch(pb.CreateMatchRequest(
        game="vangogh(players=2)", seats=[bot(spec), bot(spec)]), timeout=30)
    evs = events(served.matches, made.match_id)
    assert evs[-1].WhichOneof("event") == "end"
    steps = steps_of(evs)
    seed = served.manager.get(made.match_id).row.seed
    game = engine.load_game("vangogh(players=2)", "core")
    local = [make_bot(spec, game, seed=draws.derive_int(seed, f"bot:{s}")) for s in range(2)]
    state = game.new_initial_state()
    checked = 0
    for _, action, player, by in steps:
        if by == "bot":
            assert local[player].step(state.clone()) == action, f"step {len(state.history())}"
            checked += 1
        state.apply_action(action)
    assert state.is_terminal() and checked > 50
