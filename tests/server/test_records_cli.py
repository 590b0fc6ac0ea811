"""Game records on the command line (docs/records.md): `easel records
convert|show`, `easel replay` and `easel suggest --record` on EGN text and
JSON lines."""
from __future__ import annotations

import json
import re

import pytest

from easel.search import egn
from easel.server.cli import main

PIG = "pig(winscore=20)"


@pytest.fixture(scope="module")
def pig_games(tmp_path_factory):
    """Four arena games of pig, as EGN (arena --records games.egn)."""
    path = tmp_path_factory.mktemp("records") / "games.egn"
    assert main(["arena", PIG, "--bots", "heuristic", "random", "--games", "4", "--seed", "5",
                 "--records", str(path), "--no-progress"]) == 0
    return path


def test_arena_writes_egn_that_replay_validates(pig_games, capsys):
    text = pig_games.read_text()
    assert text.count('[Format "EGN 1"]') == 4 and "\n1. P0: " in text
    assert main(["replay", str(pig_games)]) == 0
    out = capsys.readouterr().out
    assert "4 record(s), 4 valid, 0 invalid" in out


def test_replay_reports_each_bad_game_of_a_text_file_by_line(pig_games, tmp_path, capsys):
    games = pig_games.read_text().split("\n\n[")
    games[1] = re.sub(r"^1\. P(\d): ", r"1. P\1: fly; ", games[1], count=1, flags=re.M)
    games[2] = re.sub(r'\[Scores "(\d+)\.0 ', r'[Scores "\1.5 ', games[2], count=1)
    bad = tmp_path / "bad.egn"
    bad.write_text("\n\n[".join(games))
    assert main(["replay", str(bad)]) == 1
    cap = capsys.readouterr()
    assert "4 record(s), 2 valid, 2 invalid" in cap.out
    assert re.search(r"invalid: line \d+: move 1: 'fly' is not a legal move here "
                     r"\(pig\(winscore=20\), player \d to act\); legal moves: roll; stop", cap.err)
    assert re.search(r"invalid: line \d+: final scores \[\d+.5, ", cap.err)


def test_convert_both_ways_and_show(pig_games, tmp_path, capsys):
    jsonl, back = tmp_path / "g.jsonl", tmp_path / "g.egn"
    assert main(["records", "convert", str(pig_games), str(jsonl)]) == 0
    assert "g.jsonl: 4 game(s) written" in capsys.readouterr().err
    assert len(jsonl.read_text().splitlines()) == 4
    assert main(["records", "convert", str(jsonl), str(back)]) == 0
    assert back.read_text() == pig_games.read_text()
    assert main(["records", "convert", str(jsonl), str(tmp_path / "g.txt")]) == 2
    assert "the name says no form; end it in .egn" in capsys.readouterr().err
    capsys.readouterr()
    assert main(["records", "show", str(jsonl)]) == 0
    shown = capsys.readouterr().out
    assert shown == pig_games.read_text().rstrip("\n") + "\n"     # itself EGN
    assert egn.loads(shown) == [json.loads(x) for x in jsonl.read_text().splitlines()]
    assert main(["records", "show", str(pig_games), "--game-index", "2", "--positions"]) == 0
    out = capsys.readouterr().out
    assert out.count('[Format "EGN 1"]') == 1 and '[Index "2"]' in out
    assert "Current player:" in out and "Scores:" in out
    assert main(["records", "show", str(pig_games), "--game-index", "9"]) == 2
    assert "has no game 9" in capsys.readouterr().err


def test_convert_refuses_what_is_not_a_records_file(tmp_path, capsys):
    src = tmp_path / "in.egn"
    src.write_text("hello\n")
    assert main(["records", "convert", str(src), str(tmp_path / "out.jsonl")]) == 2
    assert "in.egn: line 1: a game starts with its headers" in capsys.readouterr().err
    assert not (tmp_path / "out.jsonl").exists()
    assert main(["records", "convert", str(tmp_path), str(tmp_path / "out.jsonl")]) == 2
    assert "it is a directory" in capsys.readouterr().err


def _player_to_move(capsys):
    out = capsys.readouterr().out
    return int(re.search(r"player (\d) to move", out).group(1)) - 1     # written 1-based


def test_suggest_at_a_move_of_a_record(pig_games, tmp_path, capsys):
    from easel.search.recordfiles import read_games, steps_at
    from easel import engine
    games = [g for _, g in read_games(pig_games)]
    game = games[1]
    assert len(game.turns) >= 3
    for move in (1, 2):
        steps = steps_at(game, move)
        state = engine.load_game(PIG).new_initial_state()
        for a in steps:
            state.apply_action(a)
        # after move N: the next line's player is to move
        assert state.current_player() == game.turns[move].player
        for path in (pig_games, _as_jsonl(pig_games, tmp_path)):
            assert main(["suggest", "--record", str(path), "--game-index", "1", "--at",
                         str(move), "--iterations", "50"]) == 0
            assert _player_to_move(capsys) == game.turns[move].player
    one = tmp_path / "one.egn"
    one.write_text(egn.dumps(game.record))
    assert main(["suggest", PIG, "--record", str(one), "--at", "1",
                 "--iterations", "50"]) == 0
    assert _player_to_move(capsys) == game.turns[1].player


def _as_jsonl(path, tmp_path):
    out = tmp_path / "games.jsonl"
    if not out.exists():
        assert main(["records", "convert", str(path), str(out)]) == 0
    return out


@pytest.mark.parametrize("extra,words", [
    (["--at", "99", "--game-index", "0"], r"game 0, line 1: no move 99 in the record "
                                          r"\(its moves: 1 to \d+\)"),
    ([], r"holds more than one game; choose one with --game-index K"),
    (["--game-index", "7"], r"has no game 7 \(it holds 4\)"),
    (["--game-index", "-1"], r"--game-index must be 0 or more"),
])
def test_suggest_refuses_a_move_or_game_the_file_does_not_have(pig_games, capsys, extra,
                                                                words):
    assert main(["suggest", "--record", str(pig_games), "--iterations", "10"] + extra) == 2
    assert re.search(words, capsys.readouterr().err)


def test_suggest_record_of_another_game_and_at_without_a_records_file(pig_games, tmp_path,
                                                                      capsys):
    assert main(["suggest", "connect_four", "--record", str(pig_games), "--game-index", "0",
                 "--iterations", "10"]) == 2
    assert "the record is of 'pig(winscore=20)', not 'connect_four'" in capsys.readouterr().err
    steps = tmp_path / "steps.txt"
    steps.write_text("x in column 4\n")
    assert main(["suggest", "connect_four", "--record", str(steps), "--at", "1"]) == 2
    assert "--at and --game-index read a records file" in capsys.readouterr().err
    assert main(["suggest", "--iterations", "10"]) == 2
    assert "the game string is needed" in capsys.readouterr().err


def test_suggest_reads_a_record_from_standard_input(pig_games, monkeypatch, capsys):
    import io
    import sys
    game = pig_games.read_text().split("\n\n[")[0] + "\n"
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(game.encode())))
    assert main(["suggest", "--record", "-", "--at", "1", "--iterations", "20"]) == 0
    assert re.search(r"^\S+: player \d to move", capsys.readouterr().out)
