"""Who a client is, for the per-client limits: the name of its token where
the server has a token list, else its IP address -- never something a client
mints for free (a made-up `authorization` header, a new connection). And a
full server makes room by ending the longest-idle match of another client
after a short grace, instead of refusing newcomers until the idle expiry."""
from __future__ import annotations

import os
import secrets
import time

import grpc
import pytest

from easel.server.analysis import Limits
from easel.server.auth import Clients, peer_key, read_tokens
from easel.server.matches import MatchLimits, MatchManager, Store
from easel.server.matches.errors import LimitReached
from easel.server.service import build_server
from easel.v1 import matches_pb2_grpc
from match_helpers import assert_status, client, pb

TWO_CLIENT_SEATS = [{"kind": "client"}, {"kind": "client"}]


def create(stub, metadata=None):
    return stub.CreateMatch(pb.CreateMatchRequest(game="connect_four",
                                                  seats=[client(), client()]),
                            timeout=30, metadata=metadata)


def own_channel(address):
    """A channel on a connection of its own (another source port)."""
    ch = grpc.insecure_channel(address, options=[("grpc.use_local_subchannel_pool", 1)])
    grpc.channel_ready_future(ch).result(timeout=10)
    return ch


def test_made_up_bearer_headers_and_new_connections_are_the_same_client(serve):
    served = serve(max_open_per_client=2, max_open_matches=50)
    for _ in range(2):
        create(served.matches, (("authorization", f"Bearer {secrets.token_hex(16)}"),))
    for md in [(("authorization", f"Bearer {secrets.token_hex(16)}"),), None]:
        with pytest.raises(grpc.RpcError) as e:
            create(served.matches, md)
        assert_status(e, grpc.StatusCode.RESOURCE_EXHAUSTED, "limit max_open_per_client")
    other = own_channel(served.address)
    try:
        with pytest.raises(grpc.RpcError) as e:
            create(matches_pb2_grpc.MatchesStub(other))
        assert_status(e, grpc.StatusCode.RESOURCE_EXHAUSTED, "limit max_open_per_client")
    finally:
        other.close()
    assert served.manager.open_count() == 2


@pytest.fixture
def named(tmp_path):
    """A Matches server whose token list names two clients."""
    manager = MatchManager(Store(str(tmp_path / "named.sqlite3")),
                           MatchLimits(bot_threads=1, max_open_per_client=1), Limits()).start()
    srv = build_server(port=0, matches=manager,
                       auth_token={"alice": "tok-alice-1234", "bob": "tok-bob-5678"}).start()
    ch = grpc.insecure_channel(f"127.0.0.1:{srv.port}")
    yield matches_pb2_grpc.MatchesStub(ch), manager
    ch.close()
    srv.stop(grace=0)
    manager.store.close()


def test_a_token_list_counts_each_client_by_its_name(named):
    stub, manager = named
    alice = (("authorization", "Bearer tok-alice-1234"),)
    bob = (("authorization", "Bearer tok-bob-5678"),)
    create(stub, alice)
    with pytest.raises(grpc.RpcError) as e:
        create(stub, alice)
    assert_status(e, grpc.StatusCode.RESOURCE_EXHAUSTED, "limit max_open_per_client")
    create(stub, bob)                       # same address, another name: its own count
    for md in [None, (("authorization", "Bearer tok-carol"),)]:
        with pytest.raises(grpc.RpcError) as e:
            create(stub, md)                # a token the server did not issue: no bucket
        assert e.value.code() == grpc.StatusCode.UNAUTHENTICATED
    assert sorted(manager._clients.values()) == ["token:alice", "token:bob"]


def test_one_client_cannot_hold_every_spectator_slot(tmp_path):
    """Spectator streams are bounded per client too: alice's streams, on
    new connections or with made-up headers, stop at her own limit, and bob
    still watches (before, alice could hold all of max_streams)."""
    manager = MatchManager(Store(str(tmp_path / "watch.sqlite3")),
                           MatchLimits(bot_threads=1, max_streams=4, max_streams_per_client=2),
                           Limits()).start()
    srv = build_server(port=0, matches=manager,
                       auth_token={"alice": "tok-alice-1234", "bob": "tok-bob-5678"}).start()
    address = f"127.0.0.1:{srv.port}"
    alice = (("authorization", "Bearer tok-alice-1234"),)
    bob = (("authorization", "Bearer tok-bob-5678"),)
    channels, streams = [], []
    try:
        channels.append(own_channel(address))
        made = create(matches_pb2_grpc.MatchesStub(channels[0]), bob)

        def watch(md):
            ch = own_channel(address)          # each on a connection of its own
            channels.append(ch)
            s = matches_pb2_grpc.MatchesStub(ch).WatchMatch(
                pb.WatchMatchRequest(match_id=made.match_id), timeout=60, metadata=md)
            streams.append(s)
            return next(s)

        for _ in range(2):
            assert watch(alice).WhichOneof("event") == "snapshot"
        for _ in range(2):
            with pytest.raises(grpc.RpcError) as e:
                watch(alice)
            assert_status(e, grpc.StatusCode.RESOURCE_EXHAUSTED, "limit max_streams_per_client",
                          "from your client")
        assert srv.streams.held("max_streams") == 2
        assert watch(bob).WhichOneof("event") == "snapshot"      # bob is not locked out
        # a seat's own stream is apart from its client's spectator streams
        own = matches_pb2_grpc.MatchesStub(channels[0]).WatchMatch(pb.WatchMatchRequest(
            match_id=made.match_id, token=made.seat_tokens[0].token), timeout=60, metadata=alice)
        streams.append(own)
        assert next(own).WhichOneof("event") == "snapshot"
    finally:
        for s in streams:
            s.cancel()
        for ch in channels:
            ch.close()
        srv.stop(grace=0)
        manager.stop()
        manager.store.close()


def test_one_client_cannot_hold_every_seat_stream_yet_a_seat_can_reconnect(tmp_path):
    """Seats' own streams are bounded per client too: alice, at her bound,
    cannot open a stream for one more seat, yet a seat she already watches
    can still reconnect (its newest stream takes the place of its oldest);
    bob watches his seats (before, alice could hold all of max_seat_streams)."""
    manager = MatchManager(Store(str(tmp_path / "seats.sqlite3")),
                           MatchLimits(bot_threads=1, max_seat_streams=4,
                                       max_seat_streams_per_client=2), Limits()).start()
    srv = build_server(port=0, matches=manager,
                       auth_token={"alice": "tok-alice-1234", "bob": "tok-bob-5678"}).start()
    alice = (("authorization", "Bearer tok-alice-1234"),)
    bob = (("authorization", "Bearer tok-bob-5678"),)
    streams = []
    ch = grpc.insecure_channel(f"127.0.0.1:{srv.port}")
    stub = matches_pb2_grpc.MatchesStub(ch)
    try:
        hers, his = create(stub, alice), create(stub, bob)

        def watch(made, seat, md):
            s = stub.WatchMatch(pb.WatchMatchRequest(
                match_id=made.match_id, token=made.seat_tokens[seat].token), timeout=60,
                metadata=md)
            streams.append(s)
            return next(s)

        watch(hers, 0, alice)
        watch(hers, 1, alice)
        with pytest.raises(grpc.RpcError) as e:
            watch(his, 0, alice)                # a seat she holds no stream of
        assert_status(e, grpc.StatusCode.RESOURCE_EXHAUSTED,
                      "limit max_seat_streams_per_client", "from your client")
        assert watch(hers, 0, alice).WhichOneof("event") == "snapshot"      # a reconnect
        with pytest.raises(grpc.RpcError) as e:
            next(streams[0])
        assert_status(e, grpc.StatusCode.ABORTED, "a newer WatchMatch stream of seat 0",
                      "max_seat_streams_per_client")
        assert srv.streams.held("max_seat_streams") == 2
        for seat in (0, 1):
            assert watch(his, seat, bob).WhichOneof("event") == "snapshot"
    finally:
        for s in streams:
            s.cancel()
        ch.close()
        srv.stop(grace=0)
        manager.stop()
        manager.store.close()


def test_the_per_client_stream_limit_is_a_serve_option(tmp_path):
    from easel.server.cli import build_parser
    from easel.server.matches import options
    args = build_parser().parse_args(["serve", "--db", str(tmp_path / "x.sqlite3"),
                                      "--max-streams-per-client", "3"])
    mgr = options.build_manager(args, Limits())
    try:
        assert mgr.limits.max_streams_per_client == 3
        assert mgr.limits.max_seat_streams_per_client == MatchLimits().max_seat_streams_per_client
    finally:
        mgr.stop()
        mgr.store.close()
    assert MatchLimits().max_streams_per_client < MatchLimits().max_streams
    with pytest.raises(ValueError, match="limit max_streams_per_client must be at least 1"):
        MatchLimits(max_streams_per_client=0)


class _Context:
    def __init__(self, peer, metadata=()):
        self._peer, self._metadata = peer, metadata

    def peer(self):
        return self._peer

    def invocation_metadata(self):
        return self._metadata


def test_client_identity():
    assert peer_key("ipv4:10.0.0.7:51234") == peer_key("ipv4:10.0.0.7:40000") == "ipv4:10.0.0.7"
    assert peer_key("ipv6:[2001:db8::5]:443") == peer_key("ipv6:%5B2001:db8::ffff%5D:1") \
        == "ipv6:2001:db8::/64"                 # one host's /64 is one client
    assert peer_key("ipv6:[::ffff:10.0.0.7]:9") == "ipv4:10.0.0.7"
    assert peer_key("unix:/run/easel.sock") == "unix:/run/easel.sock"
    anyone = Clients()
    assert anyone.of(_Context("ipv4:1.2.3.4:5", (("authorization", "Bearer x"),))) == \
        "ipv4:1.2.3.4"
    listed = Clients({"ci": "t0ken"})
    assert listed.of(_Context("ipv4:1.2.3.4:5", (("authorization", "Bearer t0ken"),))) == \
        "token:ci"
    assert listed.of(_Context("ipv4:1.2.3.4:5", (("authorization", "Bearer other"),))) == \
        "ipv4:1.2.3.4"


def test_read_tokens_names_the_line_never_the_token(tmp_path):
    path = tmp_path / "tokens"
    path.write_text("# clients\nalice  s3cret-a\n\nbob s3cret-b\n")
    assert read_tokens(str(path)) == {"alice": "s3cret-a", "bob": "s3cret-b"}
    for text, message in [("alice s3cret-a\nbob s3cret-a\n", "line 2: the same token as line 1"),
                          ("alice s3cret-a\nalice s3cret-b\n", "line 2: the name 'alice'"),
                          ("alice\n", "line 1: write 'NAME TOKEN'"),
                          ("al/ce s3cret-a\n", "line 1: a name is"),
                          ("# nobody\n", "lists no token")]:
        path.write_text(text)
        with pytest.raises(ValueError, match=message) as e:
            read_tokens(str(path))
        assert "s3cret" not in str(e.value)


# -- a full server ------------------------------------------------------------------------

@pytest.fixture
def manager(tmp_path):
    made = []

    def make(**limits):
        m = MatchManager(Store(str(tmp_path / f"full{len(made)}.sqlite3")),
                         MatchLimits(**{"bot_threads": 1, **limits}), Limits()).start()
        made.append(m)
        return m

    yield make
    for m in made:
        m.stop()
        m.store.close()


def backdate(m, seconds):
    with m.cond:
        m.updated_at -= seconds


def test_a_full_server_ends_the_longest_idle_match_of_another_client(manager):
    mgr = manager(max_open_matches=2, max_open_per_client=5, idle_grace=30)
    mgr._started_at -= 3600                 # the server has been up an hour
    older, _, _, _ = mgr.create("connect_four", TWO_CLIENT_SEATS, "server", False, "A")
    newer, _, _, _ = mgr.create("connect_four", TWO_CLIENT_SEATS, "server", False, "A")
    backdate(older, 100)
    backdate(newer, 50)
    m, _, _, _ = mgr.create("connect_four", TWO_CLIENT_SEATS, "server", False, "B")
    assert older.status == "expired" and "evicted" in older.result["detail"]
    assert newer.status == "in_progress" and mgr.evicted == 1
    assert sorted(mgr._clients.values()) == ["A", "B"]
    assert mgr.store.load(older.id).status == "expired"       # committed
    # A's own idle match is not ended to make room for A
    with pytest.raises(LimitReached, match="max_open_matches"):
        mgr.create("connect_four", TWO_CLIENT_SEATS, "server", False, "A")


def test_a_full_server_refuses_until_the_grace_has_passed_and_says_when(manager):
    mgr = manager(max_open_matches=1, idle_grace=30)
    mgr._started_at -= 3600
    first, _, _, _ = mgr.create("connect_four", TWO_CLIENT_SEATS, "server", False, "A")
    backdate(first, 10)
    with pytest.raises(LimitReached, match=r"max_open_matches: .* in 20 s; retry then"):
        mgr.create("connect_four", TWO_CLIENT_SEATS, "server", False, "B")
    assert first.status == "in_progress"
    backdate(first, 25)
    mgr.create("connect_four", TWO_CLIENT_SEATS, "server", False, "B")
    assert first.status == "expired"


def test_time_the_server_was_down_is_not_idle_time(manager):
    mgr = manager(max_open_matches=1, idle_grace=30)
    first, _, _, _ = mgr.create("connect_four", TWO_CLIENT_SEATS, "server", False, "A")
    backdate(first, 3600)                   # its last step was before this server started
    with pytest.raises(LimitReached, match="max_open_matches"):
        mgr.create("connect_four", TWO_CLIENT_SEATS, "server", False, "B")


def test_a_restart_after_a_long_stop_does_not_expire_matches_for_the_downtime(tmp_path):
    """The idle expiry counts the server's uptime, as eviction does: a
    match whose last step was two days ago, before a stop, is not expired
    by the restarted server at once; an hour of uptime without a step is."""
    import sqlite3
    db = str(tmp_path / "restart.sqlite3")
    limits = MatchLimits(bot_threads=1, idle_expiry=3600)
    first = MatchManager(Store(db), limits, Limits()).start()
    m, _, _, _ = first.create("connect_four", TWO_CLIENT_SEATS, "server", False, "A")
    first.stop()
    first.store.close()
    con = sqlite3.connect(db)                   # the server was down two days
    con.execute("UPDATE matches SET updated_at = updated_at - 172800 WHERE id = ?", (m.id,))
    con.commit()
    con.close()
    second = MatchManager(Store(db), limits, Limits()).start()
    try:
        assert second.resumed == 1
        second.expire_idle()
        live = second.get(m.id)
        assert live.status == "in_progress"
        assert second.store.load(m.id).status == "in_progress"
        second._started_at -= 3601             # an hour up, and still no step
        second.expire_idle()
        assert live.status == "expired" and "while the server was up" in live.result["detail"]
        assert second.store.load(m.id).status == "expired"
    finally:
        second.stop()
        second.store.close()


def test_a_match_whose_bot_is_to_move_is_not_idle(manager):
    mgr = manager(max_open_matches=1, idle_grace=30)
    mgr._started_at -= 3600
    assert mgr.cpu.acquire(1, lambda: False, "elsewhere")     # the bot waits for CPU
    try:
        busy, _, _, _ = mgr.create("connect_four", [{"kind": "bot", "bot": "random"},
                                                    {"kind": "client"}], "server", False, "A")
        backdate(busy, 3600)
        with pytest.raises(LimitReached, match="none waits for its client"):
            mgr.create("connect_four", TWO_CLIENT_SEATS, "server", False, "B")
        assert busy.status == "in_progress"
    finally:
        mgr.cpu.release(1, client="elsewhere")


def test_idle_grace_is_a_serve_option(tmp_path):
    from easel.server.cli import build_parser
    from easel.server.matches import options
    args = build_parser().parse_args(["serve", "--db", str(tmp_path / "x.sqlite3"),
                                      "--match-idle-grace", "5", "--max-open-matches", "3"])
    mgr = options.build_manager(args, Limits())
    try:
        assert mgr.limits.idle_grace == 5 and mgr.limits.max_open_matches == 3
    finally:
        mgr.stop()
        mgr.store.close()
    with pytest.raises(ValueError, match="limit idle_grace must be positive"):
        MatchLimits(idle_grace=0)


def test_a_full_server_makes_room_over_grpc(serve):
    served = serve(max_open_matches=1, idle_grace=0.2)
    served.manager._started_at -= 3600
    made = create(served.matches)
    served.manager._clients[made.match_id] = "someone else"
    time.sleep(0.3)                                      # past the grace (not a timing test:
    create(served.matches)                               # the match idles for ever)
    got = served.matches.GetMatch(pb.GetMatchRequest(match_id=made.match_id), timeout=10)
    assert got.match.status == pb.MATCH_STATUS_EXPIRED
    assert "evicted" in got.match.result.detail




def test_serve_reads_a_token_list_and_refuses_mistakes_in_one_line(tmp_path, capsys):
    from easel.server.cli import main
    one, many = tmp_path / "token", tmp_path / "tokens"
    one.write_text("s3cret-one\n")
    many.write_text("alice s3cret-a\nbob s3cret-a\n")
    base = ["serve", "--port", "0", "--no-matches"]
    for extra, message in [(["--auth-tokens-file", str(many)], "line 2: the same token"),
                           (["--auth-token-file", str(one), "--auth-tokens-file", str(many)],
                            "not both")]:
        assert main(base + extra) == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and message in err[0] and "s3cret" not in err[0], err


def test_token_and_key_files_must_be_small_regular_files(tmp_path, capsys):
    from easel.server.cli import main
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    big = tmp_path / "big"
    big.write_bytes(b"x" * (2 << 20))
    for flag, path, message in [("--auth-tokens-file", fifo, "not a regular file"),
                                ("--auth-token-file", "/dev/zero", "not a regular file"),
                                ("--auth-tokens-file", big, "over the 1 MiB cap")]:
        assert main(["serve", "--port", "0", "--no-matches", "--no-http", flag, str(path)]) == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and message in err[0], err
