"""Connect Four's move texts count columns from 1, as a person does and as
`easel play`'s table numbers them (docs/table-notation.md); the form texts
had before ('x3' for the fourth column, counted from 0) is refused with the
text to write, in a step given as text and in a record that stores texts."""
from __future__ import annotations

import pytest

from easel import engine
from easel.engine.errors import IllegalActionError
from easel.search import egn
from easel.search.records import RecordError

IMPLS = ["reference"] + (["core"] if engine.game_entry("connect_four").has_core else [])


@pytest.mark.parametrize("impl", IMPLS)
def test_moves_name_their_column_from_1(impl):
    s = engine.load_game("connect_four", implementation=impl).new_initial_state()
    assert [s.action_to_string(a) for a in s.legal_actions()] == \
        [f"x in column {c}" for c in range(1, 8)]
    assert s.string_to_action("X in  Column 4") == 3
    s.apply_action(3)
    assert s.action_to_string(0) == "o in column 1"


@pytest.mark.parametrize("impl", IMPLS)
@pytest.mark.parametrize("old, new", [("x3", "x in column 4"), (" X0 ", "x in column 1"),
                                      ("x 6", "x in column 7")])
def test_the_old_form_is_refused_with_what_to_write(impl, old, new):
    s = engine.load_game("connect_four", implementation=impl).new_initial_state()
    with pytest.raises(IllegalActionError, match=f"the old form, which counted columns from "
                                                 f"0; write '{new}'"):
        s.string_to_action(old)


def test_a_record_of_old_texts_is_refused_with_what_to_write():
    old = ('[Format "EGN 1"]\n[Game "connect_four"]\n[Result "*"]\n\n'
           "1. P0: x3\n2. P1: o4\n*\n")
    with pytest.raises(RecordError, match=r"line 5: move 1: 'x3' is not a legal move here .*"
                                          r"write 'x in column 4'"):
        egn.loads(old)
    assert egn.loads(old.replace("x3", "x in column 4").replace("o4", "o in column 5"))[0][
        "steps"] == [[0, 3], [1, 4]]
