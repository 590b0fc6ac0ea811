"""Easel Game Notation (search/egn.py, docs/records.md): the text form of
game records, converted to and from JSON lines field for field, read by
matching each text against the legal texts, refusing bad or hostile input
naming its line."""
from __future__ import annotations

import copy
import json
import os
import pathlib
import re
import threading

import pytest

from easel import engine
from easel.search import egn, recordfiles
from easel.search.arena import run_arena
from easel.search.records import RecordError, validate_record

ROOT = pathlib.Path(__file__).resolve().parents[2]


def _player_counts(entry):
    if not entry.players_option:
        return [entry.name]
    return [f"{entry.name}({entry.players_option}={n})"
            for n in range(entry.min_players, entry.max_players + 1)]


SPECS = [spec for entry in engine.registered_games() for spec in _player_counts(entry)]


@pytest.fixture(scope="module")
def arena_records():
    """Records of every game and player count, from the arena (cached per spec)."""
    cache = {}

    def get(spec):
        if spec not in cache:
            game = engine.load_game(spec)
            bots = ["heuristic"] if game.num_players() == 1 else ["heuristic", "random"]
            cache[spec] = run_arena(spec, bots, games=2, seed=17).records
        return cache[spec]
    return get


# -- both forms, field for field --------------------------------------------------

@pytest.mark.parametrize("spec", SPECS)
def test_arena_records_round_trip_through_the_text_form(spec, arena_records, tmp_path):
    records = arena_records(spec)
    jsonl = tmp_path / "games.jsonl"
    jsonl.write_text("".join(json.dumps(r) + "\n" for r in records))
    text_path, back = tmp_path / "games.egn", tmp_path / "back.jsonl"
    assert recordfiles.convert(jsonl, text_path) == len(records)
    assert recordfiles.convert(text_path, back) == len(records)
    assert [json.loads(x) for x in back.read_text().splitlines()] == records
    # and the text form back again is the same text
    again = tmp_path / "again.egn"
    recordfiles.convert(back, again)
    assert again.read_text() == text_path.read_text()
    # the text form reads as it was played, chance outcomes marked
    text = text_path.read_text()
    assert text.count('[Format "EGN 1"]') == len(records)
    assert f'[Game "{records[0]["game"]}"]' in text
    for rec in records:
        chance = sum(1 for p, _ in rec["steps"] if p < 0)
        game_text = egn.dumps(rec)
        assert re.findall(r"(?:^|; |: |\. )\*", game_text, re.M).__len__() == chance
        validate_record(egn.loads(game_text)[0])


def test_the_reference_reads_what_the_core_writes(arena_records):
    for spec in ("pig", "connect_four", "vangogh(players=2)"):
        for rec in arena_records(spec):
            text = egn.dumps(rec, "core")
            assert egn.loads(text, "reference") == [rec]


def _forfeit(rec, detail="answered 99; legal: [0, 1]"):
    """A tournament's record of a game a bot forfeited at its third decision."""
    rec = copy.deepcopy(rec)
    third = [i for i, (p, _) in enumerate(rec["steps"]) if p >= 0][2]
    rec["steps"] = rec["steps"][:third]
    rec.update(end="forfeit", places=[2, 1], returns=[-1.0, 1.0], scores=None,
               fault={"seat": 0, "bot": "cheat", "reason": "illegal", "detail": detail,
                      "step": third + 1})
    for seat, name in zip(rec["seats"], ("cheat", "good")):
        seat["bot"] = name
    return rec


def test_any_record_round_trips_unknown_fields_nulls_and_odd_values(arena_records):
    base = arena_records("pig")[0]
    cases = [
        _forfeit(base),
        _forfeit(base, detail="Traceback:\n  line 1\n\tTypeError: x"),   # a line break
        {**base, "scores": None, "extra_field": {"a": [1, None, "x"]}, "date": "2026-12-01",
         "event": 'the "big" one \\ 2', "round": "pig|a+b|3"},
        {**base, "seats": [{**base["seats"][0], "kind": "bot", "note": None},
                           {"seat": 1}]},                # a seat with nothing but its number
        {**base, "seats": [{"seat": 1, "spec": "x"}, {"seat": 0, "spec": "y"}]},  # misnumbered
        {**base, "returns": [1, -1], "think": [0, 0.5], "seconds": 3},   # ints, not floats
        {**base, "comments": [[0, "before anything"], [3, "a good roll"], [3, "and another"],
                              [len(base["steps"]), "the end"]]},
        {**base, "match_id": "m-1", "chance": "server", "created_at": 1764547200.123456,
         "index": 0},
    ]
    for rec in cases:
        text = egn.dumps(rec)
        back = egn.loads(text)[0]
        assert back == rec, text
        assert json.dumps(back, sort_keys=True) == json.dumps(rec, sort_keys=True)
        assert egn.dumps(back) == text
    forfeit = egn.dumps(cases[0])
    assert "[End \"forfeit\"]" in forfeit and "[FaultReason \"illegal\"]" in forfeit
    assert '[Result "0-1"]' in forfeit and forfeit.endswith("\n0-1\n")
    assert '[fault "{' in egn.dumps(cases[1])          # a line break: the field as JSON
    validate_record(egn.loads(forfeit)[0])             # a game that stopped replays


def test_a_record_in_progress_has_result_star(arena_records):
    rec = copy.deepcopy(arena_records("pig")[0])
    del rec["returns"]
    rec["steps"] = rec["steps"][:5]
    text = egn.dumps(rec)
    assert '[Result "*"]' in text and text.endswith("\n*\n")
    assert egn.loads(text) == [rec]


def _patched_codec(monkeypatch, texts):
    """Connect Four's texts, some replaced: {action id: text} for player 0."""
    from easel.engine.connect_four import codec
    original = codec.action_to_string

    def action_to_string(view, action):
        if view["current_player"] == 0 and action in texts:
            return texts[action]
        return original(view, action)
    monkeypatch.setattr(codec, "action_to_string", action_to_string)


def test_texts_that_read_alike_are_written_with_their_ids(monkeypatch):
    _patched_codec(monkeypatch, {1: "X1", 2: "x1"})      # equal once normalised
    rec = {"format": "easel-record-v1", "game": "connect_four",
           "seats": [{"seat": 0}, {"seat": 1}], "steps": [[0, 2], [1, 0], [0, 1], [1, 0]]}
    text = egn.dumps(rec)
    assert "1. P0: x1 @2\n" in text and "3. P0: X1 @1\n" in text and "2. P1: o in column 1\n" in text
    assert egn.loads(text) == [rec]
    with pytest.raises(RecordError, match=r"line \d+: move 1: 'x1' reads as 2 legal moves "
                                          r"here \(connect_four\): add the id, one of @1, @2"):
        egn.loads(text.replace("x1 @2", "x1"))
    with pytest.raises(RecordError, match=r"move 1: 'o3' is not the text of @2, which reads "
                                          r"'x1'"):
        egn.loads(text.replace("x1 @2", "o3 @2"))


def test_texts_that_would_not_read_back_are_quoted(monkeypatch):
    odd = {0: 'a; b {c}', 1: '"quoted" start', 2: "*star", 3: "at @5", 4: " spaced "}
    _patched_codec(monkeypatch, odd)
    rec = {"format": "easel-record-v1", "game": "connect_four",
           "seats": [{"seat": 0}, {"seat": 1}],
           "steps": [[0, 0], [1, 5], [0, 1], [1, 5], [0, 2], [1, 3], [0, 4], [1, 6], [0, 3]]}
    text = egn.dumps(rec)
    assert '1. P0: "a; b {c}"\n' in text and '"\\"quoted\\" start"' in text
    assert '"*star"' in text and '"at @5"' in text
    assert egn.loads(text) == [rec]


# -- the examples of docs/records.md ----------------------------------------------

def _doc_examples():
    doc = (ROOT / "docs" / "records.md").read_text()
    return re.findall(r"```egn\n(.*?)```", doc, re.S)


def test_docs_examples_are_records_that_replay():
    examples = _doc_examples()
    games = {}
    for text in examples:
        parsed = egn.loads(text)
        assert len(parsed) == 1
        rec = parsed[0]
        games[engine.parse_game_string(rec["game"])[0].name] = rec
        assert egn.dumps(rec) == text       # written as the writer writes
    assert set(games) == {"vangogh", "couleurs_de_paris", "starving_artists", "connect_four"}
    validate_record(games["connect_four"])
    for name in ("vangogh", "couleurs_de_paris", "starving_artists"):
        rec = games[name]
        assert "returns" not in rec and egn.result_token(None) == "*"
        state = engine.load_game(rec["game"]).new_initial_state()
        for _, action in rec["steps"]:
            state.apply_action(action)
        assert not state.is_terminal() and any(p < 0 for p, _ in rec["steps"])


def test_the_docs_error_example_is_what_the_reader_says():
    doc = (ROOT / "docs" / "records.md").read_text()
    shown = re.search(r"```\n(line \d+: move .*?)\n```", doc, re.S).group(1)
    c4 = next(t for t in _doc_examples() if "connect_four" in t)
    bad = c4.replace("6. P1: o in column 3", "6. P1: x in column 10")
    with pytest.raises(RecordError) as info:
        egn.loads(bad)
    assert str(info.value) == shown


# -- refused, naming the line and the move ------------------------------------------

C4 = """[Format "EGN 1"]
[Game "connect_four"]
[Result "1-0"]
[Returns "1.0 -1.0"]

1. P0: x in column 4
2. P1: o in column 5
3. P0: x in column 4
4. P1: o in column 5
5. P0: x in column 4
6. P1: o in column 5
7. P0: x in column 4
1-0
"""
PIG = """[Format "EGN 1"]
[Game "pig(winscore=20)"]
[Result "*"]

1. P0: roll; *Roll 6; roll; *Roll 5; stop
2. P1: roll; *Roll 1
*
"""


@pytest.mark.parametrize("text,old,new,words", [
    (C4, "3. P0: x in column 4", "3. P0: x in column 10", r"line 8: move 3: 'x in column 10' is not a legal move here "
                                    r"\(connect_four, player 0 to act\); legal moves: x in column 1; x in column 2; "
                                    r"x in column 3; x in column 4; x in column 5; x in column 6; x in column 7"),
    (C4, "3. P0: x in column 4", "3. P1: o in column 4", r"line 8: move 3: 'o in column 4': the line is player 1's, but "
                                    r"player 0 is to move"),
    (C4, "3. P0: x in column 4", "3. x in column 4", r"line 8: move 3: 'x in column 4' is a decision, but the line names no "
                                r"player \(write '3. P0: ...'\)"),
    (C4, "3. P0: x in column 4", "4. P0: x in column 4", r"line 8: move 4 where move 3 was due"),
    (C4, "1. P0: x in column 4", "2. P0: x in column 4", r"line 6: the first move is numbered 0 .* or 1, not 2"),
    (C4, "7. P0: x in column 4", "7. P0: x in column 4; o in column 3", r"line 12: move 7: 'o in column 3': the game \(connect_four\) is "
                                        r"over after 7 steps, yet the record goes on"),
    (C4, "\n1-0\n", "\n0-1\n", r"line 13: result '0-1' does not agree with the returns, "
                               r"which give '1-0'"),
    (C4, '[Result "1-0"]', '[Result "1/2-1/2"]', r"line 3: result '1/2-1/2' does not agree"),
    (C4, "2. P1: o in column 5", "2. P1: *o in column 5", r"line 7: move 2: '\*o in column 5' is marked a chance outcome \(\*\), "
                                     r"but player 1 is to move"),
    (C4, "2. P1: o in column 5", "2. P1: o in column 5;", r"line 7: move 2: an empty step"),
    (C4, "2. P1: o in column 5", "2. P1: o in column 5 {x} o in column 6", r"line 7: move 2: 'o in column 6' follows another text"),
    (C4, "2. P1: o in column 5", "2. P1: o in column 5 {open", r"line 7: a comment \(\{...\}\) that does not end"),
    (C4, "2. P1: o in column 5", '2. P1: "o in column 5', r"line 7: a quote that does not end"),
    (C4, "2. P1: o in column 5", "2. P1: o in column 5 @9", r"line 7: move 2: @9 is not a legal move here"),
    (C4, "2. P1: o in column 5", "two. P1: o in column 5", r"line 7: expected a move"),
    (C4, '[Game "connect_four"]', '[Game "connect_five"]', r"line 2: game 'connect_five': "),
    (C4, '[Game "connect_four"]', '[Gamer "connect_four"]', r"line 1: the game has no "
                                                             r"\[Game \"...\"\] header"),
    (C4, '[Format "EGN 1"]', '[Format "EGN 2"]', r"line 1: Format 'EGN 2': this reader "
                                                  r"knows 'EGN 1'"),
    (C4, '[Returns "1.0 -1.0"]', '[Returns "1.0 -1.0"]\n[Colour "red"]',
     r"line 5: unknown header Colour"),
    (C4, '[Returns "1.0 -1.0"]', '[Returns "1.0 -1.0"]\n[Returns "1.0"]',
     r"line 5: header Returns given twice \(first on line 4\)"),
    (C4, '[Returns "1.0 -1.0"]', '[Returns "1.0 -1.0"]\n[returns "[1]"]',
     r"line 5: field 'returns' given twice \(also on line 4\)"),
    (C4, '[Returns "1.0 -1.0"]', '[Returns "one -1"]', r"line 4: header Returns: 'one -1' is "
                                                        r"not a number"),
    (C4, '[Returns "1.0 -1.0"]', '[Returns "1.0 -1.0"]\n[note "{"]',
     r"line 5: header note: '\{' is not JSON"),
    (C4, '[Returns "1.0 -1.0"]', '[Returns "1.0 -1.0"]\n[Seat1 "a"]', r"the Seat headers skip "
                                                                       r"seat 0"),
    (C4, "6. P1: o in column 5", "6. P1: o in column 5\n[Event \"x\"]", r"line 12: a header among the moves"),
    (C4, '[Returns "1.0 -1.0"]', '[Returns "1.0 -1.0"\n', r"line 4: not a header"),
    (PIG, "*Roll 6", "Roll 6", r"line 5: move 1: 'Roll 6': chance is to act here "
                               r"\(pig\(winscore=20\)\); write a chance outcome with a '\*'"),
    (PIG, "*Roll 6", "*Roll 7", r"line 5: move 1: 'Roll 7' is not a possible outcome here "
                                r"\(pig\(winscore=20\), chance to act\); possible outcomes: "
                                r"Roll 1; Roll 2; Roll 3; Roll 4; Roll 5; Roll 6"),
    (PIG, "2. P1: roll; *Roll 1", "2. *Roll 1", r"line 6: move 2: '\*Roll 1' is marked a "
                                                r"chance outcome \(\*\), but player 1 is to move"),
])
def test_a_bad_record_is_refused_naming_line_move_and_text(text, old, new, words):
    assert old in text
    with pytest.raises(RecordError, match=words):
        egn.loads(text.replace(old, new, 1))


def test_a_refusal_lists_the_legal_texts_bounded():
    text = """[Format "EGN 1"]
[Game "vangogh(players=2)"]
[Result "*"]

0. *deck: nothing of the sort
*
"""
    with pytest.raises(RecordError) as info:
        egn.loads(text)
    message = str(info.value)
    assert message.startswith("line 5: move 0: 'deck: nothing of the sort' is not a possible "
                              "outcome here (vangogh, chance to act); possible "
                              "outcomes: deck: ")
    listed = message.split("possible outcomes: ", 1)[1]
    assert listed.count("; ") == egn.LISTED_TEXTS and re.search(r"\(\d+ in all\)$", listed)


def test_texts_are_read_after_the_documented_normalisation():
    assert egn.normalise("  Buy  Canvas 1 ,(x) ") == "buy canvas 1 , (x)"
    loose = C4.replace("1. P0: x in column 4", "1. P0:   X IN  Column 4  ").replace(
        "2. P1: o in column 5", "2. P1: O in column 5")
    assert egn.loads(loose) == egn.loads(C4)
    with pytest.raises(RecordError, match="'3' is not a legal move"):
        egn.loads(C4.replace("1. P0: x in column 4", "1. P0: 3"))     # an id is not a text


def test_a_bad_game_does_not_hide_the_next_one():
    text = C4.replace("3. P0: x in column 4", "3. P0: x in column 10") + "\n" + C4 + "\n" + PIG
    out = list(egn.parse(text.splitlines(keepends=True)))
    assert [type(g).__name__ for _, g in out] == ["RecordError", "ParsedGame", "ParsedGame"]
    assert [line for line, _ in out] == [1, 15, 29]
    assert not getattr(out[0][1], "cut", False)
    assert [t.number for t in out[2][1].turns] == [1, 2]


def test_layout_numbers_turns_as_the_docs_say():
    # chance before the first decision is turn 0; a player's run and the chance after it
    steps = [[-1, 1], [-1, 2], [0, 0], [-1, 3], [0, 0], [1, 0], [-1, 4], [0, 0]]
    assert [(t.number, t.player, t.start, t.end) for t in egn.layout(steps, 2)] == [
        (0, None, 0, 2), (1, 0, 2, 5), (2, 1, 5, 7), (3, 0, 7, 8)]
    # one player: a decision after chance starts a turn
    solo = [[0, 0], [0, 0], [-1, 3], [0, 0], [-1, 1], [-1, 2], [0, 0]]
    assert [(t.number, t.start, t.end) for t in egn.layout(solo, 1)] == [
        (1, 0, 3), (2, 3, 6), (3, 6, 7)]
    assert egn.steps_after(egn.layout(steps, 2), 2) == 7
    assert egn.steps_after(egn.layout(solo, 1), 0) == 0
    with pytest.raises(RecordError, match=r"no move 9 in the record \(its moves: 0 to 3\)"):
        egn.steps_after(egn.layout(steps, 2), 9)


def test_result_tokens():
    assert egn.result_token([1.0, -1.0]) == "1-0"
    assert egn.result_token([0.0, 0.0]) == "1/2-1/2"
    assert egn.result_token([-1.0, 1.0, -1.0]) == "0-1-0"
    assert egn.result_token([1.0, 1.0, 1.0, -1.0]) == "1/3-1/3-1/3-0"
    assert egn.result_token([0.2]) == "1" and egn.result_token([-0.3]) == "0"
    assert egn.result_token(None) == egn.result_token([]) == "*"


# -- hostile input ----------------------------------------------------------------

def _read(path):
    return list(recordfiles.read_games(path))


def test_a_line_over_the_cap_is_refused_naming_its_line(tmp_path, monkeypatch):
    monkeypatch.setattr(egn, "MAX_LINE_CHARS", 40)
    path = tmp_path / "long.egn"
    path.write_text(C4.replace("1. P0: x in column 4", "1. P0: x in column 4 {" + "a" * 50 + "}"))
    (line, err), = _read(path)
    assert isinstance(err, RecordError)
    assert "line 6: 73 characters, over the 40-character cap on a line" in str(err)
    assert "MAX_LINE_CHARS" in str(err)


def test_too_many_games_stop_the_reading(tmp_path, monkeypatch):
    monkeypatch.setattr(egn, "MAX_GAMES", 2)
    path = tmp_path / "many.egn"
    path.write_text((C4 + "\n") * 3)
    out = _read(path)
    assert len(out) == 3 and isinstance(out[2][1], RecordError)
    assert "line 29: more than 2 games in one file (search.egn.MAX_GAMES)" in str(out[2][1])


def test_headers_are_capped(tmp_path):
    many = "".join(f'[h{i} "1"]\n' for i in range(egn.MAX_HEADERS))
    (_, err), = list(egn.parse(C4.replace("[Result", many + "[Result").splitlines(True)))
    assert "more than 256 headers in one game" in str(err)


def test_only_regular_files_within_the_cap_are_read(tmp_path, monkeypatch):
    from easel.search import records
    fifo = tmp_path / "pipe.egn"
    os.mkfifo(fifo)
    result = {}

    def read():                 # must not wait for a writer
        try:
            _read(fifo)
        except RecordError as e:
            result["error"] = str(e)
    t = threading.Thread(target=read, daemon=True)
    t.start()
    t.join(30)
    assert not t.is_alive(), "reading a FIFO blocked"
    assert "not a regular file" in result["error"]
    with pytest.raises(RecordError, match="it is a directory"):
        _read(tmp_path)
    with pytest.raises(RecordError, match="not found"):
        _read(tmp_path / "missing.egn")
    big = tmp_path / "big.egn"
    big.write_text(C4 * 3)
    from easel.engine import userfiles
    monkeypatch.setattr(userfiles, "RECORD_FILES",
                        userfiles.RECORD_FILES._replace(limit=100))
    with pytest.raises(RecordError, match=r"cap on game-record files"):
        _read(big)


def test_bad_bytes_and_line_ends(tmp_path):
    path = tmp_path / "bytes.egn"
    path.write_bytes(b"\xef\xbb\xbf" + C4.replace("\n", "\r\n").encode())
    (_, game), = _read(path)
    assert game.record["steps"][0] == [0, 3]
    path.write_bytes(C4.encode().replace(b"x in column 4", b"x\xff", 1) + b"\n" + C4.encode())
    out = _read(path)
    assert "line 6: not UTF-8 text" in str(out[0][1])
    assert out[1][1].record["game"] == "connect_four"


@pytest.mark.parametrize("cut_at", ["1. P0: x in column 4\n", "1. P0: x", '[Game "conn', "7. P0: x in column 4\n1-"])
def test_a_last_game_cut_short_is_marked_cut(cut_at):
    whole = C4 + "\n" + C4
    text = whole[:whole.rindex(cut_at) + len(cut_at)]
    out = list(egn.parse(text.splitlines(keepends=True)))
    assert isinstance(out[0][1], egn.ParsedGame)
    assert isinstance(out[1][1], RecordError) and out[1][1].cut, out[1][1]
    # a bad game that is not the last is no cut
    out = list(egn.parse((text + "\n\n" + C4).splitlines(keepends=True)))
    assert not getattr(out[1][1], "cut", False)


def test_sniffing_a_file_of_another_name(tmp_path, arena_records):
    rec = arena_records("pig")[0]
    (tmp_path / "a.txt").write_text("\n  " + egn.dumps(rec))
    (tmp_path / "b.txt").write_text(json.dumps(rec) + "\n")
    for name in ("a.txt", "b.txt"):
        assert [g.record for _, g in _read(tmp_path / name)] == [rec]
    # writing another name writes JSON lines, as records files always were
    with recordfiles.RecordWriter(tmp_path / "c.txt") as out:
        out.write(rec)
    assert json.loads((tmp_path / "c.txt").read_text()) == rec


def test_convert_leaves_the_target_when_a_game_fails(tmp_path):
    src, dst = tmp_path / "in.egn", tmp_path / "out.jsonl"
    src.write_text(C4 + "\n" + C4.replace("3. P0: x in column 4", "3. P0: x in column 10"))
    dst.write_text("old\n")
    with pytest.raises(RecordError, match=r"in.egn: line 22: move 3: 'x in column 10'"):
        recordfiles.convert(src, dst)
    assert dst.read_text() == "old\n" and sorted(os.listdir(tmp_path)) == ["in.egn", "out.jsonl"]
    with pytest.raises(RecordError, match="into itself"):
        recordfiles.convert(src, src)


def test_json_nested_too_deeply_is_refused_naming_its_line(tmp_path):
    deep = "[" * 20_000 + "]" * 20_000          # within the line cap
    text = C4.replace('[Returns "1.0 -1.0"]', f'[Returns "1.0 -1.0"]\n[deep "{deep}"]')
    with pytest.raises(RecordError, match=r"line 5: header deep: '\[\[\[.*' is not JSON"):
        egn.loads(text)
    path = tmp_path / "deep.jsonl"
    path.write_text('{"a": ' + deep + "}\n")
    (_, err), = list(recordfiles.read_records(path))
    assert isinstance(err, RecordError) and str(err).startswith("line 1: not JSON")
