"""`easel play`: a person at the terminal, against a local server it starts
itself or against a running one; hints, illegal input, table mode."""
from __future__ import annotations

import io
import itertools

from easel.server.cli import main


def feed(monkeypatch, lines):
    monkeypatch.setattr("sys.stdin", io.StringIO("".join(f"{ln}\n" for ln in lines)))


def test_play_connect_four_against_a_local_server(monkeypatch, capsys):
    moves = ["?", "hint", "x9", "hello"] + [f"x{c}" for c in (3, 3, 2, 4, 1, 5, 0, 6) * 6]
    feed(monkeypatch, moves)
    assert main(["play", "connect_four", "--vs", "mcts(iterations=100)", "--quiet-table"]) == 0
    out = capsys.readouterr().out
    assert "you are seat 0; seat 0: you, seat 1: mcts(iterations=100)" in out
    assert "  x0\n  x1\n" in out                       # '?' listed the moves
    assert "win " in out and "visits" in out            # the hint
    assert "not legal here:" in out                     # x9 and hello
    assert "0. seat 0 (you): x" in out and "1. seat 1 (mcts(iterations=100)): o" in out
    assert "the match has ended (MATCH_STATUS_FINISHED, END_REASON_GAME_OVER)" in out


def test_play_resigns_when_input_ends(monkeypatch, capsys):
    feed(monkeypatch, ["x3"])
    assert main(["play", "connect_four", "--vs", "random", "--seat", "1", "--no-hints"]) == 0
    out = capsys.readouterr().out
    assert "(input ended: resigning)" in out
    assert "END_REASON_RESIGNED" in out and "seat 1 (you) -1" in out


def test_play_table_mode_reads_the_real_dice(monkeypatch, capsys):
    # the person rolls (their seat), reports each die, and stops now and then
    feed(monkeypatch, itertools.islice(itertools.cycle(
        ["roll", "Roll 5", "roll", "Roll 6", "stop", "Roll 4", "roll", "Roll 3"]), 4000))
    assert main(["play", "pig(winscore=30)", "--vs", "heuristic", "--table",
                 "--quiet-table"]) == 0
    out = capsys.readouterr().out
    assert "table mode: you report chance" in out
    assert "chance: Roll 5" in out or "chance: Roll 6" in out
    assert "the match has ended" in out


def test_play_against_a_running_server(served, monkeypatch, capsys):
    feed(monkeypatch, [f"x{c}" for c in (0, 1, 2, 3, 4, 5, 6) * 7])
    assert main(["play", "connect_four", "--vs", "random", "--server", served.address]) == 0
    out = capsys.readouterr().out
    assert "the match has ended" in out
    assert served.manager.store.list("finished", 5, None)


def test_play_refuses_bad_arguments(monkeypatch, capsys):
    feed(monkeypatch, [])
    assert main(["play", "connect_four", "--vs", "random", "--seat", "2"]) == 2
    assert "--seat must be from 0 to 1" in capsys.readouterr().out
    assert main(["play", "connect_four", "--vs", "nobot"]) == 2
    assert "INVALID_ARGUMENT: seats[1].bot" in capsys.readouterr().err


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


def test_serve_refuses_a_database_in_use(served, capsys):
    assert main(["serve", "--port", "0", "--db", served.db]) == 2
    assert "in use by another server" in capsys.readouterr().err
