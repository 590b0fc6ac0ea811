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


def _play_client(served, match_id, token, moves, stop_after=None):
    """Play seat 0 of a Connect Four match, its i-th move `moves[i]` (or the
    first legal column), never one that ends the game (so the bot always
    moves next), until the end, or until `stop_after` of its moves are made
    and it is to move again."""
    from easel.v1 import engine_pb2 as epb
    state = engine.load_game("connect_four").new_initial_state()
    call = served.matches.WatchMatch(pb.WatchMatchRequest(match_id=match_id), timeout=60)
    for ev in call:
        kind = ev.WhichOneof("event")
        if kind == "snapshot":          # the steps before it come next, as history
            turn, n, live = ev.snapshot.turn, ev.snapshot.step, ev.snapshot.match.steps
        elif kind == "step":
            state.apply_action(ev.step.action.id)
            turn, n = ev.step.turn, ev.step.step + 1
        elif kind == "end":
            break
        else:
            continue
        if n < live or turn.player != 0 or turn.kind != epb.NODE_KIND_DECISION:
            continue
        mine = n // 2
        if stop_after is not None and mine >= stop_after:
            break
        def ends(a):
            after = state.clone()
            after.apply_action(a)
            return after.is_terminal()
        legal = [a for a in state.legal_actions() if not ends(a)] or state.legal_actions()
        action = moves[mine] if moves[mine] in legal else legal[0]
        served.matches.SubmitAction(pb.SubmitActionRequest(
            match_id=match_id, token=token, step=n, action=epb.Step(id=action)), timeout=10)
    call.cancel()


def test_a_bot_seat_resumed_after_a_restart_plays_on_as_the_local_bot(serve):
    """Connect Four has no chance event: the bot keeps one tree the whole
    game. A server that restarts loses it; the resumed seat rebuilds it
    (server/bot_replay.py) and makes the moves the local bot makes."""
    from match_helpers import client
    spec = "mcts(iterations=150,threads=1)"
    served = serve()
    made = served.matches.CreateMatch(pb.CreateMatchRequest(
        game="connect_four", seats=[client(), bot(spec)]), timeout=30)
    match_id, token = made.match_id, made.seat_tokens[0].token
    moves = [3, 2, 4, 1, 5, 0, 6, 3, 2, 4, 1, 5, 0, 6, 3, 2, 4, 1, 5, 0, 6]
    _play_client(served, match_id, token, moves, stop_after=4)    # the bot moved 4 times
    seed = served.manager.get(match_id).row.seed
    served.stop()
    again = serve()
    assert again.manager.resumed == 1
    _play_client(again, match_id, token, moves)
    evs = events(again.matches, match_id)
    record = [(a, p, by) for _, a, p, by in steps_of(evs)]
    game = engine.load_game("connect_four", "core")
    local = make_bot(spec, game, seed=draws.derive_int(seed, "bot:1"))
    state = game.new_initial_state()
    bot_moves = 0
    for action, player, by in record:
        if by == "bot":
            assert local.step(state.clone()) == action, f"bot move {bot_moves + 1}"
            bot_moves += 1
        state.apply_action(action)
    assert bot_moves > 4          # at least one after the restart
