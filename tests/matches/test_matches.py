"""Hosted matches on real servers: whole matches of every registered game
(bots only, one client seat, table mode), the tokens, stale and illegal
steps, resumable streams, hints, limits, clocks, expiry, failures, restarts."""
from __future__ import annotations

import sqlite3
import threading
import time

import grpc
import pytest

from easel import engine
from easel.server.matches import Store, draws
from easel.server.matches.store import StoreError
from match_helpers import (all_games, assert_status, bot, check_record, client, epb, events,
                           pb, play_stream, steps_of)

GAMES = all_games()


def create(served, game, seats, **kw):
    return served.matches.CreateMatch(pb.CreateMatchRequest(game=game, seats=seats, **kw),
                                      timeout=30)


def n_players(game):
    return engine.load_game(game).num_players()


def final(served, match_id):
    return served.matches.GetMatch(pb.GetMatchRequest(match_id=match_id, with_record=True),
                                   timeout=30)


def assert_consecutive(evs, start=0):
    assert evs[0].WhichOneof("event") == "snapshot" and evs[0].snapshot.step == start
    nums = [s[0] for s in steps_of(evs)]
    assert nums == list(range(start, start + len(nums)))


# -- whole matches ----------------------------------------------------------------------

@pytest.mark.parametrize("game", GAMES)
def test_bot_only_match(served, game):
    seats = [bot("mcts(iterations=60)")] + [bot("random")] * (n_players(game) - 1)
    made = create(served, game, seats)
    assert not made.seat_tokens and not made.table_token and made.creator_token
    evs = events(served.matches, made.match_id)
    assert_consecutive(evs)
    end = evs[-1].end
    assert end.status == pb.MATCH_STATUS_FINISHED
    assert end.result.reason == pb.END_REASON_GAME_OVER
    actions = [s[1] for s in steps_of(evs)]
    assert end.steps == len(actions)
    check_record(made.match.game, actions, end.result.returns)
    bys = {s[3] for s in steps_of(evs)}
    assert bys <= {"bot", "server"} and "bot" in bys
    got = final(served, made.match_id)
    assert [s.id for s in got.record.steps] == actions
    assert got.match.status == pb.MATCH_STATUS_FINISHED


@pytest.mark.parametrize("game", GAMES)
def test_match_with_one_client_seat(served, game):
    seats = [client()] + [bot("mcts(iterations=40)")] * (n_players(game) - 1)
    made = create(served, game, seats)
    assert [t.seat for t in made.seat_tokens] == [0]
    evs, acked = play_stream(served.matches, made.match_id, {0: made.seat_tokens[0].token})
    assert evs[-1].end.result.reason == pb.END_REASON_GAME_OVER
    steps = steps_of(evs)
    check_record(made.match.game, [s[1] for s in steps], evs[-1].end.result.returns)
    mine = {n: a for n, a, p, by in steps if by == "client"}
    assert mine == acked and acked
    assert all(p == 0 for n, a, p, by in steps if by == "client")


@pytest.mark.parametrize("game", GAMES)
def test_table_mode(served, game):
    seats = [client()] + [bot("random")] * (n_players(game) - 1)
    made = create(served, game, seats, chance=pb.CHANCE_SOURCE_TABLE)
    assert made.table_token and made.match.chance == pb.CHANCE_SOURCE_TABLE
    evs, acked = play_stream(served.matches, made.match_id, {0: made.seat_tokens[0].token},
                             table_token=made.table_token, seed=3)
    steps = steps_of(evs)
    check_record(made.match.game, [s[1] for s in steps])
    chance = [s for s in steps if s[2] == -1]
    assert all(s[3] == "table" for s in chance)        # the server drew nothing
    for n, a, p, by in steps:
        if by in ("table", "client"):
            assert acked[n] == a
    if engine.load_game(game).max_chance_outcomes() > 0:
        assert chance, "a game with chance should have had chance steps"


# -- tokens, steps, errors ----------------------------------------------------------------

def test_wrong_tokens(served):
    made = create(served, "connect_four", [client(), client()])
    other = create(served, "connect_four", [client(), bot("random")])
    m = made.match_id
    t0, t1 = (t.token for t in made.seat_tokens)

    def submit(token, step=0, text="x in column 4"):
        return served.matches.SubmitAction(pb.SubmitActionRequest(
            match_id=m, token=token, step=step, action=epb.Step(text=text)), timeout=10)

    for bad in ("", "nonsense", other.seat_tokens[0].token, made.creator_token):
        with pytest.raises(grpc.RpcError) as e:
            submit(bad)
        assert_status(e, grpc.StatusCode.PERMISSION_DENIED, "token")
    with pytest.raises(grpc.RpcError) as e:          # seat 1's token on seat 0's turn
        submit(t1, text="o in column 4")
    assert_status(e, grpc.StatusCode.FAILED_PRECONDITION, "step 0", "seat 0", "you are seat 1")
    with pytest.raises(grpc.RpcError) as e:
        served.matches.Abort(pb.AbortRequest(match_id=m, token=t0), timeout=10)
    assert_status(e, grpc.StatusCode.PERMISSION_DENIED, "creator token")
    with pytest.raises(grpc.RpcError) as e:
        served.matches.Resign(pb.ResignRequest(match_id=m, token=made.creator_token), timeout=10)
    assert_status(e, grpc.StatusCode.PERMISSION_DENIED)
    with pytest.raises(grpc.RpcError) as e:
        served.matches.WatchMatch(pb.WatchMatchRequest(match_id=m, token="x"), timeout=10).next()
    assert_status(e, grpc.StatusCode.PERMISSION_DENIED)
    with pytest.raises(grpc.RpcError) as e:
        served.matches.GetMatch(pb.GetMatchRequest(match_id="0123456789abcdef"), timeout=10)
    assert_status(e, grpc.StatusCode.NOT_FOUND)
    assert submit(t0).step.action.text == "x in column 4"
    # the database keeps hashes only
    with sqlite3.connect(served.db) as db:
        blob = b"".join(bytes(r[0] or b"") for r in db.execute("SELECT token_hash FROM seats"))
        blob += b"".join(bytes(r[0]) for r in db.execute("SELECT creator_hash FROM matches"))
    for token in (t0, t1, made.creator_token):
        assert token.encode() not in blob


def test_stale_and_future_step_numbers(served):
    made = create(served, "connect_four", [client(), client()])
    m, (t0, t1) = made.match_id, [t.token for t in made.seat_tokens]

    def submit(token, step, text):
        return served.matches.SubmitAction(pb.SubmitActionRequest(
            match_id=m, token=token, step=step, action=epb.Step(text=text)), timeout=10)

    submit(t0, 0, "x in column 4")
    for wrong in (0, 2, -1):
        with pytest.raises(grpc.RpcError) as e:
            submit(t1, wrong, "o in column 4")
        assert_status(e, grpc.StatusCode.FAILED_PRECONDITION, "the match is at step 1",
                      "seat 1 (client) is to move")
    assert submit(t1, 1, "o in column 4").step.step == 1
    assert final(served, m).match.steps == 2


def test_illegal_steps_change_nothing(served):
    made = create(served, "connect_four", [client(), client()])
    m, t0 = made.match_id, made.seat_tokens[0].token
    for step, field in ((epb.Step(text="x in column 10"), "action.text"), (epb.Step(id=42), "action.id"),
                        (epb.Step(text="o in column 4"), "action.text"),
                        (epb.Step(id=3, kind=epb.NODE_KIND_CHANCE), "action.kind"),
                        (epb.Step(), "action")):
        with pytest.raises(grpc.RpcError) as e:
            served.matches.SubmitAction(pb.SubmitActionRequest(
                match_id=m, token=t0, step=0, action=step), timeout=10)
        assert_status(e, grpc.StatusCode.INVALID_ARGUMENT, field)
    got = final(served, m)
    assert got.match.steps == 0 and got.match.turn.player == 0


def test_create_refuses_bad_requests(served):
    cases = [
        (dict(game="chess", seats=[client(), client()]), "game"),
        (dict(game="connect_four", seats=[client()]), "seats: connect_four has 2 players"),
        (dict(game="connect_four", seats=[client(), bot("mcts(iterations=x)")]), "seats[1].bot"),
        (dict(game="connect_four", seats=[client(), bot("alphazero")]), "seats[1].bot"),
        (dict(game="connect_four", seats=[client(), bot("mcts(iterations=9999999)")]),
         "over this server's limit"),
        (dict(game="connect_four", seats=[client(), bot("mcts(threads=16)")]), "CPU share"),
        (dict(game="connect_four", seats=[client(), pb.SeatConfig()]), "seats[1]: set 'bot'"),
        (dict(game="connect_four", seats=[client(), bot("remote(target=127.0.0.1:1,spec=mcts)")]),
         "seats[1].bot: the server does not play 'remote' bots"),
        (dict(game="connect_four", seats=[client(), bot("faulty(mode=exit)")]),
         "seats[1].bot: the server does not play 'faulty' bots"),
        (dict(game="pig", seats=[bot("greedy(budget=10000000)"), client()]),
         "seats[0].bot: bot spec 'greedy(budget=10000000)': budget must be an integer from 1 "
         "to 20000"),
        (dict(game="connect_four", seats=[client(), pb.SeatConfig(
            client=True, time_control=pb.TimeControl(move_seconds=-1))]),
         "seats[1].time_control.move_seconds"),
        (dict(game="connect_four", seats=[client(), pb.SeatConfig(
            client=True, time_control=pb.TimeControl(increment_seconds=2))]),
         "needs a clock"),
        (dict(game="connect_four", seats=[client(), pb.SeatConfig(client=True, name="x" * 65)]),
         "seats[1].name"),
    ]
    for request, fragment in cases:
        with pytest.raises(grpc.RpcError) as e:
            served.matches.CreateMatch(pb.CreateMatchRequest(**request), timeout=10)
        assert_status(e, grpc.StatusCode.INVALID_ARGUMENT, fragment)
    assert served.manager.open_count() == 0


# -- streams -------------------------------------------------------------------------------

def test_watch_from_zero_and_from_the_middle(served):
    made = create(served, "pig", [bot("mcts(iterations=30)"), bot("random")])
    whole = events(served.matches, made.match_id, positions=True)
    total = whole[-1].end.steps
    assert total > 10
    for start in (0, 1, total // 2, total - 1, total):
        part = events(served.matches, made.match_id, from_step=start, positions=True)
        assert_consecutive(part, start)
        assert steps_of(part) == steps_of(whole)[start:]
        assert part[-1].end == whole[-1].end
        if start:
            assert part[0].snapshot.position.text == whole[start].step.position.text
    with pytest.raises(grpc.RpcError) as e:
        events(served.matches, made.match_id, from_step=total + 1)
    assert_status(e, grpc.StatusCode.INVALID_ARGUMENT, "from_step", f"0 to {total}")


def test_a_watcher_that_reconnects_misses_nothing(served):
    made = create(served, "connect_four", [client(), bot("random")])
    m, t0 = made.match_id, made.seat_tokens[0].token
    seen, sent = [], set()
    state = engine.load_game("connect_four").new_initial_state()
    start = 0
    while True:        # read at most three events per connection, then hang up
        call = served.matches.WatchMatch(pb.WatchMatchRequest(match_id=m, from_step=start),
                                         timeout=30)
        done = False
        for k, ev in zip(range(3), call):
            kind = ev.WhichOneof("event")
            if kind == "snapshot":
                assert ev.snapshot.step == start
                turn = ev.snapshot.turn
            elif kind == "step":
                seen.append(ev.step.action.id)
                state.apply_action(ev.step.action.id)
                turn = ev.step.turn
            else:
                done = True
                break
            if turn.player == 0 and not state.is_terminal() and len(seen) not in sent:
                sent.add(len(seen))        # (a snapshot repeats the turn we acted on)
                served.matches.SubmitAction(pb.SubmitActionRequest(
                    match_id=m, token=t0, step=len(seen),
                    action=epb.Step(id=state.legal_actions()[0])), timeout=10)
        call.cancel()
        if done:
            break
        start = len(seen)
    assert seen == [s.id for s in final(served, m).record.steps]


# -- hints ----------------------------------------------------------------------------------

def hint(served, m, token, iterations=200):
    return served.matches.RequestHint(pb.RequestHintRequest(
        match_id=m, token=token, settings=epb.SearchSettings(
            budget=epb.Budget(iterations=iterations), num_candidates=3)), timeout=60)


def test_hints_refused_where_not_allowed(served):
    made = create(served, "connect_four", [client(), bot("random")])
    with pytest.raises(grpc.RpcError) as e:
        hint(served, made.match_id, made.seat_tokens[0].token)
    assert_status(e, grpc.StatusCode.PERMISSION_DENIED, "does not allow hints")
    allowed = create(served, "connect_four", [client(), client()], allow_hints=True)
    with pytest.raises(grpc.RpcError) as e:          # seat 1 asks on seat 0's turn
        hint(served, allowed.match_id, allowed.seat_tokens[1].token)
    assert_status(e, grpc.StatusCode.FAILED_PRECONDITION, "your own turn")
    with pytest.raises(grpc.RpcError) as e:
        hint(served, allowed.match_id, allowed.creator_token)
    assert_status(e, grpc.StatusCode.PERMISSION_DENIED)


def test_hints_reach_only_their_own_seat(served):
    made = create(served, "connect_four", [client(), client()], allow_hints=True)
    m, (t0, t1) = made.match_id, [t.token for t in made.seat_tokens]
    streams = {name: [] for name in ("seat0", "seat1", "anyone")}
    tokens = {"seat0": t0, "seat1": t1, "anyone": ""}
    threads = []
    ready = threading.Barrier(4)

    def reader(name):
        call = served.matches.WatchMatch(pb.WatchMatchRequest(match_id=m, token=tokens[name]),
                                         timeout=60)
        for k, ev in enumerate(call):
            streams[name].append(ev)
            if k == 0:
                ready.wait()
            if ev.WhichOneof("event") == "end":
                return

    for name in streams:
        threads.append(threading.Thread(target=reader, args=(name,)))
        threads[-1].start()
    ready.wait(timeout=30)
    h = hint(served, m, t0)
    assert h.step == 0 and h.analysis.candidates and h.analysis.player == 0
    served.matches.SubmitAction(pb.SubmitActionRequest(
        match_id=m, token=t0, step=0, action=epb.Step(id=h.analysis.candidates[0].id)),
        timeout=10)
    h1 = hint(served, m, t1)
    assert h1.step == 1 and h1.analysis.player == 1
    served.matches.Resign(pb.ResignRequest(match_id=m, token=t1), timeout=10)
    for t in threads:
        t.join(timeout=30)
    kinds = {name: [e.WhichOneof("event") for e in evs] for name, evs in streams.items()}
    assert kinds["seat0"].count("hint") == 1 and kinds["seat1"].count("hint") == 1
    assert "hint" not in kinds["anyone"]
    got0 = [e.hint for e in streams["seat0"] if e.WhichOneof("event") == "hint"][0]
    got1 = [e.hint for e in streams["seat1"] if e.WhichOneof("event") == "hint"][0]
    assert got0.step == 0 and got0.analysis == h.analysis
    assert got1.step == 1 and got1.analysis == h1.analysis
    # nor are hints part of the record
    assert "hint" not in [e.WhichOneof("event") for e in events(served.matches, m, token=t0)]


# -- ends ------------------------------------------------------------------------------------

def test_resign_and_abort(served):
    made = create(served, "connect_four", [client(), bot("random")])
    r = served.matches.Resign(pb.ResignRequest(match_id=made.match_id,
                                               token=made.seat_tokens[0].token), timeout=10)
    assert r.match.status == pb.MATCH_STATUS_FINISHED
    assert r.match.result.reason == pb.END_REASON_RESIGNED and r.match.result.seat == 0
    assert list(r.match.result.returns) == [-1.0, 1.0]
    with pytest.raises(grpc.RpcError) as e:
        served.matches.SubmitAction(pb.SubmitActionRequest(
            match_id=made.match_id, token=made.seat_tokens[0].token, step=0,
            action=epb.Step(text="x in column 1")), timeout=10)
    assert_status(e, grpc.StatusCode.FAILED_PRECONDITION, "has ended")
    other = create(served, "pig", [client(), client()])
    a = served.matches.Abort(pb.AbortRequest(match_id=other.match_id,
                                             token=other.creator_token), timeout=10)
    assert a.match.status == pb.MATCH_STATUS_ABORTED and not a.match.result.returns
    evs = events(served.matches, other.match_id)
    assert evs[-1].end.status == pb.MATCH_STATUS_ABORTED
    listed = served.matches.ListMatches(pb.ListMatchesRequest(
        status=pb.MATCH_STATUS_ABORTED), timeout=10).matches
    assert [x.match_id for x in listed] == [other.match_id]


def test_client_seat_loses_on_time(served):
    made = create(served, "connect_four", [
        pb.SeatConfig(client=True, time_control=pb.TimeControl(move_seconds=0.3)),
        bot("random")])
    evs = events(served.matches, made.match_id, timeout=20)
    end = evs[-1].end
    assert end.result.reason == pb.END_REASON_TIME and end.result.seat == 0
    assert list(end.result.returns) == [-1.0, 1.0] and end.steps == 0


def test_bot_plays_within_its_clock(served):
    tc = pb.TimeControl(clock_seconds=1.0, increment_seconds=0.05)
    made = create(served, "connect_four", [pb.SeatConfig(bot="mcts", time_control=tc),
                                           pb.SeatConfig(bot="mcts", time_control=tc)])
    evs = events(served.matches, made.match_id, timeout=60)
    assert evs[-1].end.result.reason == pb.END_REASON_GAME_OVER
    clocks = [list(e.step.clocks) for e in evs if e.WhichOneof("event") == "step"]
    assert all(0 < c <= 1.0 + 0.05 * 21 for row in clocks for c in row)
    assert clocks[-1][0] < 1.0 + 0.05 * len(clocks)    # time was spent


def test_idle_matches_expire(serve):
    served = serve(idle_expiry=0.3)
    made = create(served, "connect_four", [client(), client()])
    evs = events(served.matches, made.match_id, timeout=20)
    assert evs[-1].end.status == pb.MATCH_STATUS_EXPIRED
    assert evs[-1].end.result.reason == pb.END_REASON_EXPIRED


def test_a_failing_bot_ends_its_seat_not_the_server(served, monkeypatch):
    from easel.server.matches import seats

    def broken(self, state, clock):
        raise RuntimeError("out of ideas")
    monkeypatch.setattr(seats.SeatBot, "move", broken)
    made = create(served, "connect_four", [client(), bot("random")])
    served.matches.SubmitAction(pb.SubmitActionRequest(
        match_id=made.match_id, token=made.seat_tokens[0].token, step=0,
        action=epb.Step(text="x in column 4")), timeout=10)
    end = events(served.matches, made.match_id)[-1].end
    assert end.result.reason == pb.END_REASON_BOT_FAILED and end.result.seat == 1
    assert "RuntimeError: out of ideas" in end.result.detail
    monkeypatch.undo()
    again = create(served, "connect_four", [bot("random"), bot("random")])
    assert events(served.matches, again.match_id)[-1].end.result.reason == \
        pb.END_REASON_GAME_OVER


def test_a_step_is_acknowledged_only_once_committed(served, monkeypatch):
    made = create(served, "connect_four", [client(), client()])

    def disk_full(*a, **k):
        raise sqlite3.OperationalError("database or disk is full")
    monkeypatch.setattr(Store, "append_step", disk_full)
    with pytest.raises(grpc.RpcError) as e:
        served.matches.SubmitAction(pb.SubmitActionRequest(
            match_id=made.match_id, token=made.seat_tokens[0].token, step=0,
            action=epb.Step(text="x in column 4")), timeout=10)
    assert_status(e, grpc.StatusCode.INTERNAL)
    monkeypatch.undo()
    assert final(served, made.match_id).match.steps == 0
    assert served.matches.SubmitAction(pb.SubmitActionRequest(
        match_id=made.match_id, token=made.seat_tokens[0].token, step=0,
        action=epb.Step(text="x in column 4")), timeout=10).step.step == 0


# -- limits ------------------------------------------------------------------------------------

def test_limits_say_which(serve):
    served = serve(max_open_matches=3, max_open_per_client=2, max_streams=2,
                   max_streams_per_match=1)
    a = create(served, "connect_four", [client(), client()])
    create(served, "connect_four", [client(), client()])
    with pytest.raises(grpc.RpcError) as e:
        create(served, "connect_four", [client(), client()])
    assert_status(e, grpc.StatusCode.RESOURCE_EXHAUSTED, "limit max_open_per_client")
    served.manager._clients[a.match_id] = "someone else"
    create(served, "connect_four", [client(), client()])
    for mid in served.manager._clients:        # this client is under its own limit
        served.manager._clients[mid] = "someone else"
    with pytest.raises(grpc.RpcError) as e:
        create(served, "connect_four", [client(), client()])
    assert_status(e, grpc.StatusCode.RESOURCE_EXHAUSTED, "limit max_open_matches",
                  "retry then")     # none has waited the idle grace yet
    first = served.matches.WatchMatch(pb.WatchMatchRequest(match_id=a.match_id), timeout=10)
    next(first)
    with pytest.raises(grpc.RpcError) as e:
        next(served.matches.WatchMatch(pb.WatchMatchRequest(match_id=a.match_id), timeout=10))
    assert_status(e, grpc.StatusCode.RESOURCE_EXHAUSTED, "limit max_streams_per_match")
    first.cancel()


def test_one_server_per_database(served):
    with pytest.raises(StoreError, match="in use by another server"):
        Store(served.db)


# -- restarts ------------------------------------------------------------------------------------

def test_open_matches_resume_after_a_restart(serve, tmp_path):
    served = serve()
    made = create(served, "pig", [client(), bot("mcts(iterations=30)")])
    m, t0 = made.match_id, made.seat_tokens[0].token
    seen = []
    call = served.matches.WatchMatch(pb.WatchMatchRequest(match_id=m), timeout=30)
    for ev in call:                      # play three of our turns, then the server goes
        if ev.WhichOneof("event") == "step":
            seen.append(ev.step.action.id)
            turn, n = ev.step.turn, ev.step.step + 1
        elif ev.WhichOneof("event") == "snapshot":
            turn, n = ev.snapshot.turn, 0
        if turn.player == 0 and turn.kind == epb.NODE_KIND_DECISION:
            if n > 12:
                break
            served.matches.SubmitAction(pb.SubmitActionRequest(
                match_id=m, token=t0, step=n, action=epb.Step(text="roll")), timeout=10)
    call.cancel()
    served.stop()
    again = serve()
    assert again.manager.resumed == 1
    evs, acked = play_stream(again.matches, m, {0: t0}, seed=5)
    steps = steps_of(evs)
    assert [s[1] for s in steps[:len(seen)]] == seen
    check_record("pig", [s[1] for s in steps])
    again.stop()
    # every server draw is the one the seed and the step number fix
    store = Store(again.db)
    seed = store.seed_of(m)
    state = engine.load_game("pig").new_initial_state()
    for n, a, p, by in steps:
        if by == "server":
            assert a == draws.draw(seed, n, state)
        state.apply_action(a)
    store.close()


def test_pondering_grows_the_tree_within_the_budget(serve):
    served = serve(ponder_threads=1)
    made = create(served, "connect_four", [client(), bot("mcts(iterations=200)")])
    host = served.manager._open[made.match_id].host
    deadline = time.time() + 10           # seat 0 (the client) thinks; the bot ponders
    while host.pondered == 0 and time.time() < deadline:
        time.sleep(0.05)
    assert host.pondered > 0
    assert served.manager.cpu.busy()[1] <= 1
    served.matches.SubmitAction(pb.SubmitActionRequest(
        match_id=made.match_id, token=made.seat_tokens[0].token, step=0,
        action=epb.Step(text="x in column 4")), timeout=10)
    deadline = time.time() + 20
    while final(served, made.match_id).match.steps < 2 and time.time() < deadline:
        time.sleep(0.05)
    assert final(served, made.match_id).match.steps == 2
    assert host.bots[1].bot._searches == 1      # its move grew the tree it pondered


def test_abort_cuts_a_thinking_bot_short(served):
    made = create(served, "connect_four", [bot("mcts(time=15)"), client()])
    time.sleep(0.3)                                  # the bot is searching its first move
    started = time.monotonic()
    served.matches.Abort(pb.AbortRequest(match_id=made.match_id, token=made.creator_token),
                         timeout=10)
    deadline = time.monotonic() + 10
    while made.match_id in served.manager._open and time.monotonic() < deadline:
        time.sleep(0.02)
    assert made.match_id not in served.manager._open     # the host has exited
    assert time.monotonic() - started < 5
    assert final(served, made.match_id).match.steps == 0


def test_table_token_reports_chance_only(served):
    made = create(served, "pig", [client(), client()], chance=pb.CHANCE_SOURCE_TABLE)
    m, t0, table = made.match_id, made.seat_tokens[0].token, made.table_token

    def submit(token, step, text):
        return served.matches.SubmitAction(pb.SubmitActionRequest(
            match_id=m, token=token, step=step, action=epb.Step(text=text)), timeout=10)

    with pytest.raises(grpc.RpcError) as e:
        submit(table, 0, "roll")
    assert_status(e, grpc.StatusCode.FAILED_PRECONDITION, "table token acts only for chance")
    assert submit(t0, 0, "roll").step.turn.table
    with pytest.raises(grpc.RpcError) as e:
        submit(t0, 1, "Roll 3")
    assert_status(e, grpc.StatusCode.FAILED_PRECONDITION, "the table reports it")
    with pytest.raises(grpc.RpcError) as e:
        submit(table, 1, "Roll 7")
    assert_status(e, grpc.StatusCode.INVALID_ARGUMENT, "action.text")
    ev = submit(table, 1, "Roll 3").step
    assert ev.by == "table" and ev.player == -1 and ev.action.kind == epb.NODE_KIND_CHANCE
    time.sleep(0.2)                      # the server draws nothing by itself meanwhile
    assert final(served, m).match.steps == 2


def test_list_matches_pages_newest_first(served):
    ids = [create(served, "connect_four", [client(), client()]).match_id for _ in range(5)]
    seen, token = [], ""
    while True:
        page = served.matches.ListMatches(pb.ListMatchesRequest(page_size=2, page_token=token),
                                          timeout=10)
        assert len(page.matches) <= 2
        seen += [m.match_id for m in page.matches]
        token = page.next_page_token
        if not token:
            break
    assert seen == ids[::-1]
    assert all(m.status == pb.MATCH_STATUS_IN_PROGRESS for m in page.matches)
    for bad, field in ((dict(page_size=501), "page_size"), (dict(page_token="zz"), "page_token"),
                       (dict(status=42), "status")):
        with pytest.raises(grpc.RpcError) as e:
            served.matches.ListMatches(pb.ListMatchesRequest(**bad), timeout=10)
        assert_status(e, grpc.StatusCode.INVALID_ARGUMENT, field)
