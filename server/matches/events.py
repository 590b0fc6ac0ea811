"""Matches as protobuf: MatchInfo, StepEvent, and the WatchMatch stream.

A stream reads the match's committed steps (memory for an open match, the
database for an ended one), so it costs no memory per event however far
behind its client is: a watcher that reconnects with from_step = n gets
steps n, n+1, ... exactly as the first time. Hints go only to streams opened
with the token of the seat that asked for them, and only those asked after
the stream opened (they are not part of the record).
"""
from __future__ import annotations

from easel.v1 import engine_pb2 as epb
from easel.v1 import matches_pb2 as pb

from .. import positions
from .match import ABORTED, EXPIRED, FINISHED, IN_PROGRESS, Match

STATUS = {IN_PROGRESS: pb.MATCH_STATUS_IN_PROGRESS, FINISHED: pb.MATCH_STATUS_FINISHED,
          ABORTED: pb.MATCH_STATUS_ABORTED, EXPIRED: pb.MATCH_STATUS_EXPIRED}
STATUS_NAMES = {v: k for k, v in STATUS.items()}
REASON = {"game_over": pb.END_REASON_GAME_OVER, "resigned": pb.END_REASON_RESIGNED,
          "time": pb.END_REASON_TIME, "bot_failed": pb.END_REASON_BOT_FAILED,
          "aborted": pb.END_REASON_ABORTED, "expired": pb.END_REASON_EXPIRED}


def turn(state, table_mode: bool) -> pb.Turn:
    chance = state.is_chance_node()
    return pb.Turn(player=state.current_player(), kind=positions.node_kind(state),
                   table=chance and table_mode)


def time_control(seat) -> pb.TimeControl:
    return pb.TimeControl(move_seconds=seat.move_seconds, clock_seconds=seat.clock_seconds,
                          increment_seconds=seat.increment)


def result(m: Match) -> pb.MatchResult | None:
    r = m.result
    if r is None:
        return None
    return pb.MatchResult(reason=REASON.get(r["reason"], pb.END_REASON_UNSPECIFIED),
                          returns=r.get("returns") or [], scores=r.get("scores") or [],
                          seat=r.get("seat", -1), detail=r.get("detail", ""))


def match_info(m: Match) -> pb.MatchInfo:
    """Hold m.cond (or own a transient, ended match)."""
    info = pb.MatchInfo(match_id=m.id, game=m.game.spec, status=STATUS[m.status],
                        chance=(pb.CHANCE_SOURCE_TABLE if m.table_mode
                                else pb.CHANCE_SOURCE_SERVER),
                        allow_hints=m.row.allow_hints, steps=len(m.steps),
                        turn=turn(m.state, m.table_mode), created_at=m.row.created_at,
                        updated_at=m.updated_at, scores=m.scores() or [])
    for s in m.seats:
        info.seats.add(seat=s.seat, kind=pb.SEAT_KIND_BOT if s.kind == "bot" else
                       pb.SEAT_KIND_CLIENT, bot=s.bot, name=s.name,
                       time_control=time_control(s),
                       clock_left_seconds=m.clock_left[s.seat] if s.clock_seconds > 0 else 0.0)
    res = result(m)
    if res is not None:
        info.result.CopyFrom(res)
    return info


def step_event(m: Match, step, state_after, clocks, with_position: bool) -> pb.StepEvent:
    """The event of `step`, `state_after` being the position it led to and
    `clocks` each seat's clock after it."""
    ev = pb.StepEvent(step=step.n, player=step.player, by=step.by, at=step.at,
                      turn=turn(state_after, m.table_mode),
                      scores=m.scores(state_after) or [], clocks=clocks)
    return ev


def fill_action(ev: pb.StepEvent, state_before, action: int) -> None:
    """Set ev.action (id, text, kind) from the position before the step."""
    game = state_before.get_game()
    ev.action.CopyFrom(epb.Step(id=action, kind=positions.node_kind(state_before),
                                text=game.codec.action_to_string(state_before.to_json(),
                                                                 action)))


def describe_step(m: Match, state_before, step, clocks, with_position=False) -> pb.StepEvent:
    """StepEvent for `step` applied to `state_before` (which it advances)."""
    ev = pb.StepEvent()
    fill_action(ev, state_before, step.action)
    state_before.apply_action(step.action)
    ev.MergeFrom(step_event(m, step, state_before, clocks, with_position))
    if with_position:
        ev.position.CopyFrom(positions.position_info(state_before, with_record=False))
    return ev


def clocks_through(m: Match, upto: int) -> list[float]:
    """Each seat's clock after the first `upto` steps."""
    clocks = [s.clock_seconds for s in m.seats]
    for s in m.steps[:upto]:
        if s.clock is not None and s.player >= 0:
            clocks[s.player] = s.clock
    return clocks


def end_event(m: Match) -> pb.MatchEvent:
    end = pb.MatchEnd(status=STATUS[m.status], steps=len(m.steps))
    res = result(m)
    if res is not None:
        end.result.CopyFrom(res)
    return pb.MatchEvent(end=end)


def watch(m: Match, from_step: int, hint_seat: int | None, with_positions: bool,
          active, stopping):
    """The events of `m` from step `from_step` on (see the module text).
    `active()` is false once the client has gone; `stopping()` once the
    server shuts down (the stream then ends; the client reconnects)."""
    with m.cond:
        info = match_info(m)
        hints_seen = len(m.hints) + m.hints_dropped
    walk = m.game.new_initial_state()
    for s in m.steps[:from_step]:       # steps are only ever appended: safe to read
        walk.apply_action(s.action)
    clocks = clocks_through(m, from_step)
    snap = pb.MatchSnapshot(match=info, step=from_step, turn=turn(walk, m.table_mode))
    if with_positions:
        snap.position.CopyFrom(positions.position_info(walk, with_record=False))
    yield pb.MatchEvent(snapshot=snap)
    i = from_step
    while True:
        with m.cond:
            while (len(m.steps) <= i and not m.ended
                   and len(m.hints) + m.hints_dropped <= hints_seen):
                if not active() or stopping():
                    return
                m.cond.wait(0.5)
            new = m.steps[i:]
            ended = m.ended
            first_kept = m.hints_dropped
            hints = [h for k, h in enumerate(m.hints) if first_kept + k >= hints_seen]
            hints_seen = len(m.hints) + m.hints_dropped
        for seat, step, analysis in hints:
            if hint_seat is not None and seat == hint_seat:
                yield pb.MatchEvent(hint=pb.HintEvent(step=step, analysis=analysis))
        for s in new:
            if s.clock is not None and s.player >= 0:
                clocks[s.player] = s.clock
            yield pb.MatchEvent(step=describe_step(m, walk, s, list(clocks), with_positions))
            i += 1
        if ended:
            with m.cond:       # an ended match takes no more steps
                last = end_event(m) if len(m.steps) <= i else None
            if last is not None:
                yield last
                return
        if not active() or stopping():
            return
