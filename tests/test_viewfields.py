"""The shared field checks behind every game's JSON view reader."""

import pytest

from easel.engine.errors import StateFormatError
from easel.engine.viewfields import ViewFields, is_int

F = ViewFields("somegame")


def test_is_int_refuses_booleans():
    assert is_int(3) and not is_int(True) and not is_int(2.0)


@pytest.mark.parametrize("call, message", [
    (lambda: F.int(7, "day", 1, 5), "somegame state: field 'day': must be an integer from 1 to 5, got 7"),
    (lambda: F.int(False, "day", 0, 5), "got False"),
    (lambda: F.bool(1, "alive"), "field 'alive': must be true or false, got 1"),
    (lambda: F.obj([], "studio", ("a",)), "field 'studio': must be an object, got list"),
    (lambda: F.obj({}, "studio", ("a",)), "field 'studio.a': missing"),
    (lambda: F.obj({"a": 1, "b": 2}, "", ("a",)), "field 'b': unknown field"),
    (lambda: F.obj({"a": 1, "x": 2}, "bag", ("a",), unknown="unknown colour"),
     "field 'bag.x': unknown colour"),
    (lambda: F.list([1], "scores", length=2), "field 'scores': must be a list of 2 items"),
    (lambda: F.list([1, 2, 3], "market", most=2), "must be a list of at most 2 items"),
    (lambda: F.list({}, "deck"), "field 'deck': must be a list"),
    (lambda: F.choice("dusk", "phase", ("day", "night"), "phase"),
     "unknown phase 'dusk'; phases: day, night"),
])
def test_each_check_names_the_field(call, message):
    with pytest.raises(StateFormatError, match=message.replace("(", r"\(").replace(")", r"\)")):
        call()


def test_passing_values_come_back():
    assert F.int(3, "day", 1, 5) == 3
    assert F.bool(True, "alive") == 1
    assert F.obj({"a": 1, "n": 2}, "", ("a",), optional=("n",)) == {"a": 1, "n": 2}
    assert F.obj({"a": 1, "zz": 0}, "", ("a",), unknown=None) == {"a": 1, "zz": 0}
    assert F.list([1, 2], "x", length=2) == [1, 2]
    assert F.choice(None, "resume", ("day",), "phase", allow_none=True) == -1
    assert F.choice("day", "phase", ("a", "day"), "phase") == 1
