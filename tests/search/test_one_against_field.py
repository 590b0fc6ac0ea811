"""tools/one_against_field.py: one bot against copies of another, pooled
from arena records (docs/strength.md, level 10 against three level 9s)."""
from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

_PATH = Path(__file__).resolve().parents[2] / "tools" / "one_against_field.py"
_spec = importlib.util.spec_from_file_location("one_against_field", _PATH)
tool = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(tool)


def _rec(block, seat_of_bot0, returns):
    bots = [b for b in (1, 2, 3)]
    seats = []
    for seat in range(4):
        bot = 0 if seat == seat_of_bot0 else bots.pop(0)
        seats.append({"seat": seat, "bot": bot, "spec": "level(10)" if bot == 0 else "level(9)"})
    return {"block": block, "seats": seats, "returns": returns}


def test_a_bot_always_first_is_ahead_of_every_meeting():
    recs = [_rec(0, s, [1.0 if i == s else -1.0 for i in range(4)]) for s in range(4)]
    got = tool.pooled(recs)
    assert (got["ahead"], got["won"], got["rank"], got["games"]) == (1.0, 1.0, 1.0, 4)
    assert got["over"] == "games"


def test_ties_count_half_and_ranks_read_the_order():
    # Bot 0 in seat 0 ties seat 1 for first, ahead of two: ahead (0.5+1+1)/3,
    # a half win, rank 1.5. Then last of four: ahead 0, no win, rank 4.
    recs = [_rec(0, 0, [1.0, 1.0, -1.0, -1.0]), _rec(0, 2, [1.0, 0.3, -1.0, 0.0])]
    got = tool.pooled(recs)
    assert got["ahead"] == pytest.approx((2.5 / 3 + 0.0) / 2)
    assert got["won"] == pytest.approx(0.25)
    assert got["rank"] == pytest.approx((1.5 + 4) / 2)


def test_the_interval_is_over_blocks_once_there_are_five():
    recs = []
    for block in range(5):
        for s in range(4):      # first in block's even seats, last in odd ones
            recs.append(_rec(block, s, [1.0 if (i == s) == (s % 2 == 0) else -1.0
                                        for i in range(4)]))
    got = tool.pooled(recs)
    assert got["over"] == "5 blocks"
    # every block's mean is the same: an interval of no width around it
    assert got["low"] == pytest.approx(got["ahead"]) == pytest.approx(got["high"])
    got4 = tool.pooled([r for r in recs if r["block"] < 4])
    assert got4["over"] == "games" and got4["low"] < got4["ahead"] < got4["high"]


def test_bot_zero_must_hold_one_seat():
    rec = _rec(0, 0, [1.0, 0.0, 0.0, -1.0])
    rec["seats"][1]["bot"] = 0
    with pytest.raises(ValueError, match="bot 0 holds 2 seats"):
        tool.pooled([rec])


def test_the_command_prints_a_row_and_names_a_bad_file(tmp_path, capsys):
    path = tmp_path / "r.jsonl"
    path.write_text("".join(json.dumps(_rec(0, s, [1.0 if i == s else -1.0 for i in range(4)]))
                            + "\n" for s in range(4)))
    assert tool.main([str(path)]) == 0
    assert "| 4 | 1.000" in capsys.readouterr().out
    empty = tmp_path / "empty.jsonl"
    empty.write_text("")
    assert tool.main([str(empty)]) == 2
    assert "no records" in capsys.readouterr().err
