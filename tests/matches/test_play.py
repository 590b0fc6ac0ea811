"""`easel play` as a hosted match: against a server it starts itself (--db)
or a running one (also one that wants a bearer token, TLS and a client
certificate); hints, illegal input, table mode, saving. The local game (no
server) is tested in tests/server/test_play_local.py."""
from __future__ import annotations

import io
import itertools

import pytest

from easel.server.cli import main


def feed(monkeypatch, lines):
    monkeypatch.setattr("sys.stdin", io.StringIO("".join(f"{ln}\n" for ln in lines)))


def test_play_connect_four_against_a_local_server(monkeypatch, capsys, tmp_path):
    moves = ["?", "hint", "undo", "x in column 10", "hello"] + [f"x in column {c + 1}" for c in (3, 3, 2, 4, 1, 5, 0, 6) * 6]
    feed(monkeypatch, moves)
    assert main(["play", "connect_four", "--vs", "mcts(iterations=100)",
                 "--db", str(tmp_path / "m.sqlite3")]) == 0
    out = capsys.readouterr().out
    assert "you are seat 0; seat 0: you, seat 1: mcts(iterations=100)" in out
    assert "  1  x in column 1\n  2  x in column 2\n" in out     # '?' listed the moves
    assert "win " in out and "visits" in out            # the hint
    assert "no undo in a hosted match" in out
    assert "'x in column 10' is not a move here" in out and "'hello' is not a move here" in out
    assert "player 2 (mcts(iterations=100)): o" in out
    assert "1 2 3 4 5 6 7" in out                       # the table, columns from 1
    assert "the match has ended (MATCH_STATUS_FINISHED, END_REASON_GAME_OVER)" in out


def test_play_hosted_refuses_a_position(monkeypatch, capsys, tmp_path):
    feed(monkeypatch, [])
    assert main(["play", "connect_four", "--vs", "random", "--db", str(tmp_path / "m.sqlite3"),
                 "--position", "x......"]) == 2
    assert "--position: a hosted match starts at the game's beginning" in capsys.readouterr().err


def test_play_table_mode_reads_the_real_dice(monkeypatch, capsys, tmp_path):
    # the person rolls (their seat), reports each die, and stops now and then
    feed(monkeypatch, itertools.islice(itertools.cycle(
        ["roll", "Roll 5", "roll", "Roll 6", "stop", "Roll 4", "roll", "Roll 3"]), 4000))
    assert main(["play", "pig(winscore=30)", "--vs", "heuristic", "--table",
                 "--db", str(tmp_path / "m.sqlite3")]) == 0
    out = capsys.readouterr().out
    assert "table mode: you report chance" in out
    assert "drawn: Roll 5" in out or "drawn: Roll 6" in out
    assert "the match has ended" in out


def test_play_against_a_running_server(served, monkeypatch, capsys):
    feed(monkeypatch, [f"x in column {c + 1}" for c in (0, 1, 2, 3, 4, 5, 6) * 7])
    assert main(["play", "connect_four", "--vs", "random", "--server", served.address]) == 0
    out = capsys.readouterr().out
    assert "the match has ended" in out
    assert served.manager.store.list("finished", 5, None)


def test_play_refuses_bad_arguments(monkeypatch, capsys, tmp_path):
    feed(monkeypatch, [])
    assert main(["play", "connect_four", "--vs", "random", "--seat", "2"]) == 2
    assert "--seat must be from 0 to 1" in capsys.readouterr().out
    assert main(["play", "connect_four", "--vs", "nobot"]) == 2        # a local game
    assert "easel play: error: --vs 'nobot' (player 2): " in capsys.readouterr().err
    assert main(["play", "connect_four", "--vs", "nobot", "--db", str(tmp_path / "m.db")]) == 2
    assert "INVALID_ARGUMENT: seats[1].bot" in capsys.readouterr().err     # a hosted match


def test_export_finished_matches_for_replay(served, tmp_path, capsys):
    from match_helpers import bot, client, pb
    ids = []
    for game in ("connect_four", "pig"):
        made = served.matches.CreateMatch(pb.CreateMatchRequest(
            game=game, seats=[bot("random"), bot("random")]), timeout=10)
        list(served.matches.WatchMatch(pb.WatchMatchRequest(match_id=made.match_id),
                                       timeout=60))
        ids.append(made.match_id)
    resigned = served.matches.CreateMatch(pb.CreateMatchRequest(
        game="connect_four", seats=[client(), client()]), timeout=10)
    served.matches.Resign(pb.ResignRequest(match_id=resigned.match_id,
                                           token=resigned.seat_tokens[0].token), timeout=10)
    out = tmp_path / "records.jsonl"
    # read-only beside the running server (which holds the database's lock)
    assert main(["matches", "export", "--db", served.db, "-o", str(out)]) == 0
    assert "exported 2 finished match(es); 1 ended without" in capsys.readouterr().err
    assert main(["replay", str(out)]) == 0
    text = capsys.readouterr().out
    assert "2 record(s), 2 valid" in text
    assert main(["matches", "list", "--db", served.db]) == 0
    listing = capsys.readouterr().out
    assert all(i in listing for i in ids) and "resigned" in listing


def test_export_in_the_text_form(served, tmp_path, capsys):
    from match_helpers import bot, pb

    from easel.search.recordfiles import read_records
    made = served.matches.CreateMatch(pb.CreateMatchRequest(
        game="pig(winscore=20)", seats=[bot("heuristic"), bot("random")]), timeout=10)
    list(served.matches.WatchMatch(pb.WatchMatchRequest(match_id=made.match_id), timeout=60))
    out, jsonl = tmp_path / "matches.egn", tmp_path / "matches.jsonl"
    assert main(["matches", "export", "--db", served.db, "-o", str(out)]) == 0
    assert f"written to {out}" in capsys.readouterr().err
    text = out.read_text()
    assert f'[Match "{made.match_id}"]' in text and '[Seat0 "heuristic"]' in text
    assert '[Seat0Kind "bot"]' in text and '[Chance "server"]' in text and "*Roll " in text
    assert main(["replay", str(out)]) == 0
    assert main(["matches", "export", "--db", served.db, "-o", str(jsonl)]) == 0
    assert [r for _, r in read_records(out)] == [r for _, r in read_records(jsonl)]


def test_get_match_gives_the_record_as_text(served):
    from match_helpers import bot, client, epb, pb

    from easel.search import egn
    from easel.search.records import validate_record
    done = served.matches.CreateMatch(pb.CreateMatchRequest(
        game="connect_four", seats=[bot("random"), bot("random")]), timeout=10)
    list(served.matches.WatchMatch(pb.WatchMatchRequest(match_id=done.match_id), timeout=60))
    got = served.matches.GetMatch(pb.GetMatchRequest(match_id=done.match_id,
                                                     with_record_text=True), timeout=10)
    rec, = egn.loads(got.record_text)
    assert rec["match_id"] == done.match_id and len(rec["steps"]) == got.match.steps
    validate_record(rec)
    assert got.record_text.rstrip().endswith(egn.result_token(rec["returns"]))
    assert not served.matches.GetMatch(pb.GetMatchRequest(match_id=done.match_id),
                                       timeout=10).record_text
    # in progress: the moves so far, result "*"; resigned: the end says why
    live = served.matches.CreateMatch(pb.CreateMatchRequest(
        game="connect_four", seats=[client(), client()]), timeout=10)
    served.matches.SubmitAction(pb.SubmitActionRequest(
        match_id=live.match_id, token=live.seat_tokens[0].token, step=0,
        action=epb.Step(text="x in column 4")), timeout=10)
    text = served.matches.GetMatch(pb.GetMatchRequest(
        match_id=live.match_id, with_record_text=True), timeout=10).record_text
    assert text.endswith("\n1. P0: x in column 4\n*\n") and '[Seat1 "client:seat 1"]' in text
    served.matches.Resign(pb.ResignRequest(match_id=live.match_id,
                                           token=live.seat_tokens[1].token), timeout=10)
    text = served.matches.GetMatch(pb.GetMatchRequest(
        match_id=live.match_id, with_record_text=True), timeout=10).record_text
    rec, = egn.loads(text)
    assert rec["end"] == "resigned" and rec["returns"] == [1.0, -1.0]
    assert '[End "resigned"]' in text and text.endswith("\n1-0\n")
    validate_record(rec)


@pytest.mark.parametrize("hosted", [False, True])
@pytest.mark.parametrize("name", ["game.egn", "game.jsonl"])
def test_play_saves_the_game(monkeypatch, capsys, tmp_path, name, hosted):
    from easel.search.recordfiles import read_records
    from easel.search.records import validate_record
    path = tmp_path / name
    feed(monkeypatch, [f"x in column {c + 1}" for c in (3, 3, 2, 4, 1, 5, 0, 6) * 6])
    where = ["--db", str(tmp_path / "m.sqlite3")] if hosted else []
    assert main(["play", "connect_four", "--vs", "random", "--save", str(path)] + where) == 0
    out = capsys.readouterr().out
    assert f"the game is saved in {path}" in out
    (_, rec), = read_records(path)
    # the table (its column numbers above and below) once per decision, and at the end
    decisions = sum(1 for p, _ in rec["steps"] if p == 0)
    assert out.count("1 2 3 4 5 6 7\n") == 2 * (decisions + 1)
    assert rec["seats"][0] == {"seat": 0, "spec": "client:you", "kind": "client"}
    validate_record(rec)
    if name.endswith(".egn"):
        assert path.read_text().startswith('[Format "EGN 1"]\n[Game "connect_four"]\n')


def test_play_saves_a_resigned_game_too(monkeypatch, capsys, tmp_path):
    from easel.search.recordfiles import read_records
    path = tmp_path / "resigned.egn"
    feed(monkeypatch, ["x in column 4"])
    assert main(["play", "connect_four", "--vs", "random", "--seat", "1", "--no-hints",
                 "--save", str(path)]) == 0
    assert "the game is saved in" in capsys.readouterr().out
    (_, rec), = read_records(path)
    assert rec["end"] == "resigned" and rec["returns"] == [1.0, -1.0]
    bad = tmp_path / "no-such-dir" / "x.egn"
    feed(monkeypatch, ["x in column 4"])
    assert main(["play", "connect_four", "--vs", "random", "--seat", "1", "--no-hints",
                 "--save", str(bad)]) == 0
    assert f"not saved in {bad}" in capsys.readouterr().out


def test_serve_refuses_a_database_in_use(served, capsys):
    assert main(["serve", "--port", "0", "--db", served.db]) == 2
    assert "in use by another server" in capsys.readouterr().err


# --- a hardened server: bearer token, TLS, client certificates --------------

@pytest.fixture
def hardened(tmp_path):
    """hardened(**build_server options) -> address of a Matches server
    started with them (a bearer token, TLS credentials); each is stopped
    afterwards. Returns (address, store)."""
    from easel.server.analysis import Limits
    from easel.server.matches import MatchLimits, MatchManager, Store
    from easel.server.service import build_server
    running = []

    def make(**kw):
        manager = MatchManager(Store(str(tmp_path / f"m{len(running)}.sqlite3")),
                               MatchLimits(bot_threads=1), Limits()).start()
        srv = build_server(port=0, matches=manager, **kw).start()
        running.append((srv, manager))
        return f"127.0.0.1:{srv.port}", manager.store

    yield make
    for srv, manager in running:
        srv.stop(grace=0)
        manager.store.close()


def token_file(tmp_path, token, name="token"):
    path = tmp_path / name
    path.write_text(token + "\n")
    return str(path)


CONNECT_FOUR_MOVES = [f"x in column {c + 1}" for c in (0, 1, 2, 3, 4, 5, 6) * 7]


def test_play_against_a_server_that_wants_a_bearer_token(hardened, tmp_path, monkeypatch,
                                                         capsys):
    address, store = hardened(auth_token="s3cret-token")
    play = ["play", "connect_four", "--vs", "random", "--server", address]
    feed(monkeypatch, CONNECT_FOUR_MOVES)
    assert main(play) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("easel play: UNAUTHENTICATED: ") and \
        "--auth-token-file FILE" in err[0], err
    assert main(play + ["--auth-token-file", token_file(tmp_path, "wrong", "bad")]) == 2
    assert "is not the server's" in capsys.readouterr().err
    assert not store.list("open", 5, None) and not store.list("finished", 5, None)

    feed(monkeypatch, CONNECT_FOUR_MOVES)
    assert main(play + ["--auth-token-file", token_file(tmp_path, "s3cret-token")]) == 0
    out = capsys.readouterr().out
    assert "player 2 (random): o" in out and "the match has ended" in out
    assert store.list("finished", 5, None)


def test_play_over_tls_with_a_client_certificate_and_a_token(hardened, tmp_path_factory,
                                                             tmp_path, monkeypatch, capsys):
    pytest.importorskip("cryptography.x509")
    from pki import make_pki

    from easel.server.auth import server_credentials
    pki = make_pki(tmp_path_factory.mktemp("pki"))
    address, store = hardened(
        credentials=server_credentials(pki["cert"], pki["key"], client_ca=pki["ca"]),
        auth_token="tls-token")
    token = token_file(tmp_path, "tls-token")
    play = ["play", "connect_four", "--vs", "random", "--server", address,
            "--auth-token-file", token]
    feed(monkeypatch, [])
    assert main(play) == 2                              # plaintext to a TLS server
    err = capsys.readouterr().err
    assert "easel play: UNAVAILABLE" in err and "--tls" in err, err
    assert main(play + ["--tls-ca", pki["ca"]]) == 2    # no client certificate
    assert "easel play: UNAVAILABLE" in capsys.readouterr().err

    feed(monkeypatch, CONNECT_FOUR_MOVES)
    assert main(play + ["--tls-ca", pki["ca"], "--tls-cert", pki["client_cert"],
                        "--tls-key", pki["client_key"]]) == 0
    assert "the match has ended" in capsys.readouterr().out
    assert store.list("finished", 5, None)


@pytest.mark.parametrize("extra, message", [
    (["--tls"], "--tls needs --server"),
    (["--auth-token-file", "token"], "--auth-token-file needs --server"),
    (["--server", "127.0.0.1:1", "--tls-cert", "c.pem"], "--tls-cert and --tls-key go together"),
    (["--server", "127.0.0.1:1", "--tls-key", "k.pem"], "--tls-cert and --tls-key go together"),
    (["--server", "127.0.0.1:1", "--auth-token-file", "/no/such/token"],
     "--auth-token-file: cannot read the auth token file '/no/such/token'"),
    (["--server", "127.0.0.1:1", "--tls-ca", "/no/such/ca.pem"],
     "--tls-ca: cannot read the CA '/no/such/ca.pem'"),
])
def test_play_and_suggest_refuse_bad_client_options(extra, message, monkeypatch, capsys):
    feed(monkeypatch, [])
    for command in (["play", "connect_four", "--vs", "random"], ["suggest", "connect_four"]):
        assert main(command + extra) == 2
        out, err = capsys.readouterr()
        lines = err.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith(f"easel {command[0]}: error: "), err
        assert message in lines[0], err
        assert out == ""                                    # nothing was started
