"""Game records: written by the arena, replayed and validated by `easel replay`."""
from __future__ import annotations

import copy
import json

import pytest

from easel.search.arena import run_arena
from easel.search.records import RecordError, read_records, validate_record
from easel.server.cli import main


@pytest.fixture(scope="module")
def pig_records(recorded_games):
    return recorded_games("pig(winscore=30)", ["heuristic", "random"], 4, 7)


def _load(path):
    return [json.loads(line) for line in path.read_text().splitlines()]


def _write(path, records):
    path.write_text("".join(json.dumps(r) + "\n" for r in records))


def test_record_fields(pig_records):
    rec = _load(pig_records)[0]
    assert rec["format"] == "easel-record-v1" and rec["game"] == "pig(winscore=30)"
    assert [s["seat"] for s in rec["seats"]] == [0, 1]
    assert {s["spec"] for s in rec["seats"]} == {"heuristic", "random"}
    assert all(isinstance(s["seed"], int) for s in rec["seats"])
    assert any(p == -1 for p, _ in rec["steps"]) and any(p >= 0 for p, _ in rec["steps"])
    assert rec["scores"] is not None and max(rec["scores"]) >= 30
    assert rec["decisions"] == sum(1 for p, _ in rec["steps"] if p >= 0)


@pytest.mark.parametrize("impl", ["core", "reference"])
def test_arena_records_replay(pig_records, impl):
    cache = {}
    results = [validate_record(rec, n, impl, cache) for n, rec in read_records(pig_records)]
    assert len(results) == 4
    assert all(r.steps > 0 for r in results)


def test_vangogh_records_replay(tmp_path):
    path = tmp_path / "vg.jsonl"
    run_arena("vangogh", ["heuristic", "random"], games=2, seed=3, records_path=str(path))
    for n, rec in read_records(path):
        validate_record(rec, n)
        validate_record(rec, n, "reference")


def _corrupt(rec, how):
    rec = copy.deepcopy(rec)
    if how == "illegal":
        i = next(i for i, (p, a) in enumerate(rec["steps"]) if p == -1)
        rec["steps"][i][1] = 99                       # no such die face
        return rec, f"step {i + 1}: chance outcome 99 is not possible"
    if how == "player":
        i = next(i for i, (p, a) in enumerate(rec["steps"]) if p >= 0)
        rec["steps"][i][0] = 1 - rec["steps"][i][0]
        return rec, f"step {i + 1}: recorded for player"
    if how == "returns":
        rec["returns"] = list(reversed(rec["returns"]))
        return rec, "final returns"
    if how == "scores":
        rec["scores"] = [s + 1 for s in rec["scores"]]
        return rec, "final scores"
    if how == "truncated":
        rec["steps"] = rec["steps"][:-1]
        return rec, "the game is not over"
    if how == "extra":
        rec["steps"].append([0, 0])
        return rec, "already over"
    if how == "game":
        rec["game"] = "pig(winscore=-3)"
        return rec, "game 'pig(winscore=-3)'"
    if how == "field":
        del rec["returns"]
        return rec, "missing field(s) returns"
    if how == "shape":
        rec["steps"][2] = [0]
        return rec, "step 3: [0] is not [player, action]"
    raise AssertionError(how)


@pytest.mark.parametrize("how", ["illegal", "player", "returns", "scores", "truncated",
                                 "extra", "game", "field", "shape"])
def test_corrupted_record_is_rejected_naming_line_and_step(pig_records, tmp_path, how, capsys):
    records = _load(pig_records)
    bad, words = _corrupt(records[1], how)
    with pytest.raises(RecordError) as info:
        validate_record(bad, 2)
    assert str(info.value).startswith("line 2: ") and words in str(info.value)

    path = tmp_path / "bad.jsonl"
    _write(path, [records[0], bad, records[2]])
    assert main(["replay", str(path)]) == 1
    out = capsys.readouterr()
    assert "3 record(s), 2 valid, 1 invalid" in out.out
    assert "line 2: " in out.err and words in out.err


def test_replay_rejects_non_json_and_empty_files(tmp_path, capsys, pig_records):
    path = tmp_path / "junk.jsonl"
    path.write_text(pig_records.read_text().splitlines()[0] + "\n{not json\n[1, 2]\n")
    assert main(["replay", str(path)]) == 1
    err = capsys.readouterr().err
    assert "line 2: not JSON" in err and "line 3: a record must be a JSON object" in err
    empty = tmp_path / "empty.jsonl"
    empty.write_text("\n")
    assert main(["replay", str(empty)]) == 1
    assert main(["replay", str(tmp_path / "missing.jsonl")]) == 2
    assert "cannot read" in capsys.readouterr().err


def test_replay_summary(pig_records, capsys):
    assert main(["replay", str(pig_records), "--implementation", "reference"]) == 0
    out = capsys.readouterr().out
    assert "4 record(s), 4 valid, 0 invalid (reference implementation)" in out
    assert "pig(winscore=30): 4 game(s)" in out


def test_a_game_that_stopped_before_its_end_replays(pig_records):
    """A tournament's forfeit or a resigned match: `end` says why the record
    stops early; its steps must be legal, its returns are checked for shape."""
    rec = copy.deepcopy(_load(pig_records)[0])
    whole = copy.deepcopy(rec)
    rec["steps"] = rec["steps"][:5]
    rec.update(end="forfeit", returns=[-1.0, 1.0], scores=None)
    assert validate_record(rec, 1).steps == 5
    rec["returns"] = [1.0]
    with pytest.raises(RecordError, match=r"line 1: returns \[1.0\] must be 2 numbers"):
        validate_record(rec, 1)
    whole["end"] = "resigned"
    with pytest.raises(RecordError, match="the record says the game stopped before its end "
                                          r"\(end 'resigned'\), but its \d+ steps reach the end"):
        validate_record(whole, 1)
    whole["end"] = 3
    with pytest.raises(RecordError, match="end must be a string"):
        validate_record(whole, 1)
    del rec["end"]
    rec["returns"] = [-1.0, 1.0]
    with pytest.raises(RecordError, match="the game is not over"):
        validate_record(rec, 1)
