"""The journal: whole lines only, torn last lines cut, ids counted once."""
from __future__ import annotations

import json

import pytest

from easel.search.tournament.journal import Journal, JournalError, read


def make(tmp_path):
    return Journal.create(str(tmp_path / "journal.jsonl"), {"games": ["pig"]}, "abc")


def test_append_and_reopen(tmp_path):
    j = make(tmp_path)
    j.append({"type": "block", "id": "x", "games": []})
    j.append({"type": "worker_died", "id": "y", "attempt": 1, "detail": "gone"})
    j.close()
    again = Journal.open(j.path)
    assert again.header["fingerprint"] == "abc"
    assert [e["type"] for e in again.events] == ["block", "worker_died"]
    assert again.cut == 0
    again.close()


def test_a_torn_last_line_is_cut_and_appending_goes_on(tmp_path):
    j = make(tmp_path)
    j.append({"type": "block", "id": "x", "games": []})
    j.close()
    with open(j.path, "ab") as f:
        f.write(b'{"type": "block", "id": "y", "ga')       # killed mid-write
    again = Journal.open(j.path)
    assert [e["id"] for e in again.events] == ["x"] and again.cut > 0
    again.append({"type": "block", "id": "y", "games": []})
    again.close()
    header, events, _ = read(j.path)
    assert [e["id"] for e in events] == ["x", "y"]


def test_a_duplicate_block_counts_once(tmp_path):
    j = make(tmp_path)
    j.append({"type": "block", "id": "x", "games": [1]})
    j.append({"type": "block", "id": "x", "games": [2]})
    assert j.blocks() == {"x": {"type": "block", "id": "x", "games": [1]}}
    j.close()


def test_damage_before_the_end_is_an_error(tmp_path):
    j = make(tmp_path)
    j.append({"type": "block", "id": "x", "games": []})
    j.append({"type": "block", "id": "y", "games": []})
    j.close()
    lines = open(j.path).read().splitlines()
    lines[1] = lines[1][:10]
    open(j.path, "w").write("\n".join(lines) + "\n")
    with pytest.raises(JournalError, match="line 2 is not JSON"):
        Journal.open(j.path)


def test_not_a_journal(tmp_path):
    p = tmp_path / "journal.jsonl"
    p.write_text(json.dumps({"type": "block"}) + "\n")
    with pytest.raises(JournalError, match="header"):
        Journal.open(str(p))
    with pytest.raises(JournalError, match="exists already"):
        Journal.create(str(p), {}, "x")
