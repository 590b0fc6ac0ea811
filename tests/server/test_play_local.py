"""`easel play` as a local game, for a person: moves typed by any start or
short form, `?`, ambiguous and unknown input, `undo` (the draws taken back
kept), `--position` (text, file, refusals), and one whole game per game
against a bot, the person choosing "1" each time, the table printed once per
decision of theirs (server/playtable/)."""
from __future__ import annotations

import io
import itertools
import os

import pytest

from easel import engine
from easel.engine.contract_ids import PLAYER_CHANCE
from easel.server.cli import main
from easel.server.playtable import moves
from easel.server.playtable.local import LocalGame

PROMPT = "your move ('?' lists them): "


def feed(monkeypatch, lines):
    monkeypatch.setattr("sys.stdin", io.StringIO("".join(f"{ln}\n" for ln in lines)))


# --- reading a typed line --------------------------------------------------

TEXTS = ["buy canvas 1 (The Siesta)", "buy canvas 2 (Bahamian View)", "work", "paint",
         "pay red", "pay red-orange"]
SHORTS = moves.short_forms(len(TEXTS))


@pytest.mark.parametrize("typed, index", [
    ("work", 2), ("  WORK ", 2), ("w", 2), ("pa", None), ("pai", 3), ("3", 2),
    ("buy canvas 2", 1), ("Buy   Canvas 1", 0), ("pay red", 4), ("pay red-", 5), ("6", 5),
])
def test_a_move_by_its_text_a_start_or_its_number(typed, index):
    r = moves.read(typed, TEXTS, SHORTS)
    if index is None:
        assert r.kind == "ambiguous" and r.matches == [3, 4, 5]
    else:
        assert (r.kind, r.index) == ("move", index)


VAN_GOGH = ["Van Gogh: paint purple-sideway on painting 1, space 4",
            "Van Gogh: paint purple-sideway on painting 2, space 4",
            "Van Gogh: paint pink-upright on painting 1, space 4", "done"]


@pytest.mark.parametrize("typed, index", [
    ("paint purple 1 4", 0), ("purple 2", 1), ("pink", 2), ("van gogh pink 1 sp 4", 2),
    ("Van Gogh: paint pink", 2), ("d", 3), ("purple", None), ("paint 1 4", None),
    ("4 purple", "unknown"), ("paint orange", "unknown"),
])
def test_a_move_by_the_starts_of_its_words_in_order(typed, index):
    r = moves.read(typed, VAN_GOGH, moves.short_forms(len(VAN_GOGH)))
    if index is None:
        assert r.kind == "ambiguous" and len(r.matches) >= 2
    elif index == "unknown":
        assert r.kind == "unknown"
    else:
        assert (r.kind, r.index) == ("move", index)


def test_a_whole_text_wins_over_a_start_of_a_longer_one():
    # "pay red" is a move and begins "pay red-orange": it is the move
    assert moves.read("pay red", TEXTS, SHORTS).index == 4


def test_words_of_the_session_are_read_whole_only():
    assert moves.read("?", TEXTS, SHORTS).command == "list"
    assert moves.read("undo", TEXTS, SHORTS).command == "undo"
    assert moves.read("Hint", TEXTS, SHORTS).command == "hint"
    assert moves.read("h", TEXTS, SHORTS).kind == "unknown"
    assert moves.read("   ", TEXTS, SHORTS).kind == "empty"


def test_an_unknown_text_names_the_closest():
    r = moves.read("by canvas 2", TEXTS, SHORTS)
    assert r.kind == "unknown" and r.matches[0] == 1
    lines = moves.explain(r, "by canvas 2", TEXTS, SHORTS)
    assert lines[0] == "'by canvas 2' is not a move here ('?' lists them); the closest:"
    assert lines[1] == "  2  buy canvas 2 (Bahamian View)"
    assert moves.explain(moves.read("zzz", TEXTS, SHORTS), "zzz", TEXTS, SHORTS) == [
        "'zzz' is not a move here ('?' lists them)"]


def test_an_ambiguous_start_lists_what_it_begins():
    r = moves.read("buy", TEXTS, SHORTS)
    assert moves.explain(r, "buy", TEXTS, SHORTS) == [
        "'buy' fits 2 moves; type more of one, or its number:",
        "  1  buy canvas 1 (The Siesta)", "  2  buy canvas 2 (Bahamian View)"]


def test_a_games_own_short_forms_replace_the_numbers():
    assert moves.short_forms(3, ["2", "5", "7"]) == ["2", "5", "7"]
    assert moves.short_forms(3, None) == ["1", "2", "3"]
    r = moves.read("5", ["x in column 2", "x in column 5", "x in column 7"], ["2", "5", "7"])
    assert (r.kind, r.index) == ("move", 1)


# --- the command, at the terminal ------------------------------------------

def test_connect_four_question_mark_columns_ambiguous_unknown(monkeypatch, capsys):
    feed(monkeypatch, ["?", "x", "hello", "4", "quit"])
    assert main(["play", "connect_four", "--vs", "random", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "  1  x in column 1\n  2  x in column 2\n" in out          # '?': short forms
    assert "'x' fits 7 moves; type more of one, or its number:" in out
    assert "'hello' is not a move here ('?' lists them)" in out
    assert "player 2 (random): o in column " in out        # its reply, as the table counts
    assert out.count("1 2 3 4 5 6 7\n") == 4        # the table twice: once per decision
    assert "Traceback" not in out and "game left unfinished" in out


def test_undo_takes_back_the_move_and_the_reply(monkeypatch, capsys):
    feed(monkeypatch, ["undo", "4", "undo", "undo", "1", "quit"])
    assert main(["play", "connect_four", "--vs", "random", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert out.count("nothing to take back: you have not moved yet") == 2
    assert "taken back: your 'x in column 4' and the 1 step(s) after it" in out
    empty = "1 2 3 4 5 6 7\n" + ". . . . . . .\n" * 6 + "1 2 3 4 5 6 7\n"
    assert out.count(empty) == 2                    # at the start, and after the undo


def _scripted(state, seat, specs, lines, seed=5):
    """A LocalGame reading `lines`, and a list the game's history is copied
    into at each prompt."""
    seen = []
    it = iter(lines)

    def read_line(prompt):
        seen.append(list(table.history))
        try:
            return next(it)
        except StopIteration:
            raise EOFError from None
    out = io.StringIO()
    table = LocalGame(state, seat, specs, out=out, seed=seed, read_line=read_line)
    return table, seen, out


@pytest.mark.parametrize("seed", range(6))
def test_undo_keeps_the_draws_it_took_back(seed):
    # Pig: roll, see the die, take it back, roll again: the same die comes
    # (a take-back changes the choice, never the luck)
    game = engine.load_game("pig")
    table, seen, out = _scripted(game.new_initial_state(), 0, {1: "random"},
                                 ["roll", "undo", "roll", "quit"], seed=seed)
    table.play()
    first, undone, again = seen[1], seen[2], seen[3]
    assert undone == [] and first[0][:2] == (0, 0)           # back before the roll
    assert first[1][0] == PLAYER_CHANCE and again[1] == first[1]
    assert "taken back: your 'roll'" in out.getvalue()


def test_another_decision_after_an_undo_draws_afresh():
    # roll, take it back, stop: the bot's first roll is drawn, not the die
    # the person saw (over ten seeds they are not all the same; the heuristic
    # bot rolls at the start of its turn)
    game = engine.load_game("pig")
    same = []
    for seed in range(10):
        table, seen, out = _scripted(game.new_initial_state(), 0, {1: "heuristic"},
                                     ["roll", "undo", "stop", "quit"], seed=seed)
        table.play()
        assert seen[2] == [] and seen[3][0][2] == "stop"
        mine = seen[1][1]
        bots = next(step for step in seen[3][1:] if step[0] == PLAYER_CHANCE)
        same.append(bots[2] == mine[2])
    assert not all(same)


def test_resigning_and_the_end_of_input(monkeypatch, capsys):
    feed(monkeypatch, ["resign"])
    assert main(["play", "connect_four", "--vs", "random", "--seed", "1"]) == 0
    assert "you resigned: you -1, player 2 (random) +1" in capsys.readouterr().out
    feed(monkeypatch, [])
    assert main(["play", "connect_four", "--vs", "random", "--seat", "1", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert "(input ended: resigning)" in out and "player 1 (random) +1, you -1" in out


def test_a_hint_in_a_local_game(monkeypatch, capsys):
    feed(monkeypatch, ["hint", "quit"])
    assert main(["play", "connect_four", "--vs", "random", "--hint-iterations", "200",
                 "--seed", "2"]) == 0
    out = capsys.readouterr().out
    assert "rank" in out and "visits" in out and "x" in out
    feed(monkeypatch, ["hint", "quit"])
    assert main(["play", "connect_four", "--vs", "random", "--no-hints"]) == 0
    assert "no hint: hints are off in this game (--no-hints)" in capsys.readouterr().out


def test_table_mode_asks_for_every_draw(monkeypatch, capsys):
    # the person reports each die, theirs and the bot's; "undo" at a draw is
    # for moves, and says so
    feed(monkeypatch, itertools.islice(itertools.cycle(
        ["roll", "undo", "6", "Roll 5", "stop", "Roll 4", "roll", "Roll 3"]), 4000))
    assert main(["play", "pig(winscore=30)", "--vs", "heuristic", "--table",
                 "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert "you report chance" in out and "the game is over:" in out
    assert "'undo' is for your moves; now type the chance outcome" in out
    assert "drawn: Roll 4" in out or "drawn: Roll 3" in out     # the bot's, as reported


@pytest.mark.parametrize("mode, said", [
    ("raise", "failed: RuntimeError: faulty bot: deliberate failure"),
    ("illegal", "which is not legal here")])
def test_a_bot_that_fails_ends_the_game_with_a_sentence(mode, said, monkeypatch, capsys):
    feed(monkeypatch, list("1234567") * 8)
    spec = f"faulty(mode={mode},after=2)"
    assert main(["play", "connect_four", "--vs", spec, "--seed", "1"]) == 2
    out = capsys.readouterr().out
    assert f"player 2 ({spec}) " in out and said in out and "game left unfinished" in out


def test_play_refuses_bad_arguments(monkeypatch, capsys):
    feed(monkeypatch, [])
    assert main(["play", "connect_four", "--vs", "random", "--seat", "2"]) == 2
    assert "--seat must be from 0 to 1" in capsys.readouterr().out
    assert main(["play", "connect_four", "--vs", "nobot"]) == 2
    assert "easel play: error: --vs 'nobot' (player 2): " in capsys.readouterr().err


# --- --position ------------------------------------------------------------

def _position(seed=4):
    """A Starving Artists position after its setup draws, as the game's own
    notation writes it (whatever its current grammar), and the state."""
    import random
    game = engine.load_game("starving_artists")
    state = game.new_initial_state()
    rng = random.Random(seed)
    while state.is_chance_node():
        outcomes = state.chance_outcomes()
        state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
    return game.notation_of(state), state


def test_position_as_text_and_as_a_file(monkeypatch, capsys, tmp_path):
    text, state = _position()
    path = tmp_path / "position.txt"
    path.write_text(text)
    for given in (text, str(path)):
        feed(monkeypatch, ["quit"])
        assert main(["play", "starving_artists", "--vs", "random", "--position", given]) == 0
        out = capsys.readouterr().out
        assert "drawn:" not in out.split(PROMPT)[0]      # no setup: it starts there
        market = [m["title"] for m in state.to_json()["market"]]
        assert all(title in out for title in market)


def test_undo_stops_at_the_position(monkeypatch, capsys):
    text, _ = _position()
    feed(monkeypatch, ["undo", "quit"])
    assert main(["play", "starving_artists", "--vs", "random", "--position", text]) == 0
    assert ("nothing to take back: you have not moved yet since the position you started "
            "from") in capsys.readouterr().out


def test_position_refusals(monkeypatch, capsys, tmp_path):
    feed(monkeypatch, [])
    game = engine.load_game("starving_artists")
    bad = "starving_artists players=2\nno such line at all"
    with pytest.raises(Exception) as refused:
        game.state_from_notation(bad)
    assert main(["play", "starving_artists", "--vs", "random", "--position", bad]) == 2
    err = capsys.readouterr().err
    assert err.startswith("easel play: error: --position: ") and str(refused.value) in err
    # a file: missing, a FIFO, over the cap (engine/userfiles.py)
    missing = tmp_path / "nope.txt"
    assert main(["play", "starving_artists", "--vs", "random", "--position", str(missing)]) == 2
    assert f"cannot read --position file {missing}" in capsys.readouterr().err
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    assert main(["play", "starving_artists", "--vs", "random", "--position", str(fifo)]) == 2
    assert "FIFO" in capsys.readouterr().err
    # a game without a table notation; --save with a position
    assert main(["play", "pig", "--vs", "random", "--position", "a b"]) == 2
    assert "pig has no table notation" in capsys.readouterr().err
    text, _ = _position()
    assert main(["play", "starving_artists", "--vs", "random", "--position", text,
                 "--save", str(tmp_path / "g.egn")]) == 2
    assert "--save: a record starts at the game's beginning" in capsys.readouterr().err


# --- a whole game per game -------------------------------------------------

# Text each game's table prints `times` times, and the bot it is played against.
GAMES = [("connect_four", "1 2 3 4 5 6 7\n", 2, "level(1)"),
         ("pig(winscore=30)", "turn total", 1, "level(1)"),
         ("vangogh(players=2)", "; phase ", 1, "level(1)"),
         ("couleurs_de_paris", "; phase ", 1, "heuristic"),
         ("starving_artists", "; phase ", 1, "level(1)")]


@pytest.mark.parametrize("spec, marker, times, bot", GAMES, ids=[g[0] for g in GAMES])
def test_a_whole_game_choosing_1_each_time(spec, marker, times, bot, monkeypatch, capsys,
                                           tmp_path):
    from easel.search.recordfiles import read_records
    from easel.search.records import validate_record
    # Connect Four's short forms are its columns: the person goes along them
    typed = itertools.cycle("1234567") if spec == "connect_four" else itertools.repeat("1")
    feed(monkeypatch, itertools.islice(typed, 20000))
    path = tmp_path / "game.egn"
    assert main(["play", spec, "--vs", bot, "--seed", "7", "--save", str(path)]) == 0
    out = capsys.readouterr().out
    assert "the game is over:" in out and "Traceback" not in out
    (_, rec), = read_records(path)
    validate_record(rec)
    decisions = sum(1 for p, _ in rec["steps"] if p == 0)
    # the table once per decision of the person, and once at the end
    assert out.count(marker) == times * (decisions + 1)
    # the draws come summed up, never a line per draw
    lines = out.splitlines()
    assert not any(a.startswith("drawn:") and b.startswith("drawn:")
                   for a, b in zip(lines, lines[1:]))
