"""Van Gogh's field table (engine/vangogh/fields.py) against what it stands for:
the C struct (state.pxd, read through the core's buffer format), the bytes
the core's rules write, ENCODING.md's field list, and the constants the core
repeats from rules.py."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from easel import engine
from easel.engine.errors import GameSpecError
from easel.engine.vangogh import core as vg_core
from easel.engine.vangogh import encoding, fields, policy, reference, rules

from fieldtable_checks import (check_core_bytes, check_encoding_md, check_initial_position,
                               check_table_and_struct,
                               dtype_changed)

PACKAGE = Path(fields.__file__).parent


def test_table_and_struct_agree():
    """Every C field is a table row and every row a C field, with the table's
    axes; every value the view may load fits the field's C integer type."""
    check_table_and_struct(vg_core, fields.FIELDS, rules.make_rules,
                           ("vangogh(players=1)", "vangogh(players=5,maxrounds=200)"))


@pytest.mark.parametrize("name, shape, complaint", [
    ("whites", None, r"only in the table \['whites'\]"),
    ("hand", (4,), r"field 'hand': the struct has int8\[4\], the table integers of shape \[5\]"),
])
def test_a_struct_other_than_the_table_is_refused(name, shape, complaint):
    with pytest.raises(GameSpecError, match=complaint):
        fields.FIELDS.struct(dtype_changed(vg_core, name, shape))


@pytest.mark.parametrize("spec", ["vangogh(players=1)", "vangogh", "vangogh(players=5)",
                                  "vangogh(players=4,colors=purple-green-pink-blue)"])
def test_core_bytes_are_the_tables_packing_of_the_reference(spec):
    """Step by step, the bytes the core's rules write are the field table's
    packing of the reference state (unused entries, derived counts and
    padding included), and unpack back to the reference's fields."""
    check_core_bytes(spec, vg_core, fields.FIELDS)


def test_the_initial_position_is_the_references():
    check_initial_position(("vangogh(players=1,colors=pink)", "vangogh(players=3,start=2)"), vg_core)


def test_encoding_md_lists_the_table():
    check_encoding_md(PACKAGE, encoding)


def test_every_pending_field_is_in_the_notations_defaults():
    """The notation starts from the fields at rest: every pending field it
    does not write reads as its empty value."""
    from easel.engine.vangogh import notation
    pend = {row.view.split(".", 1)[1] for row in fields.FIELDS.state
            if row.view.startswith("pending.")}
    r = rules.make_rules(engine.parse_game_string("vangogh")[1])
    assert set(notation.pending_at_rest(r)) == pend


# -- constants: rules.py is the one source -------------------------------------------

def _enum_constants():
    text = (PACKAGE / "state.pxd").read_text(encoding="utf-8")
    block = text[text.index("cdef enum:"):text.index("cdef struct")]
    return {m[1]: int(m[2]) for m in re.finditer(r"^\s+(\w+) = (\d+)", block, re.M)}


def _rules_value(name):
    """The rules.py value a state.pxd constant repeats: VG_X is X, PH_X the
    index of phase x, A_X the action id X."""
    if name.startswith("PH_"):
        return rules.PHASES.index(name[3:].lower())
    key = name[3:] if name.startswith("VG_") else name[2:]
    return getattr(rules, key)


def test_the_cores_constants_are_rules_py():
    consts = _enum_constants()
    assert len(consts) > 50
    for name, value in consts.items():
        assert _rules_value(name) == value, name
    assert {n for n in consts if n.startswith("PH_")} == {f"PH_{p.upper()}" for p in rules.PHASES}


def test_the_references_phase_names_follow_rules_py():
    for i, name in enumerate(rules.PHASES):
        key = name.upper()
        key = f"{key}_P" if hasattr(reference, f"{key}_P") else key
        assert getattr(reference, key) == i, name


def test_the_evaluation_weights_come_from_rules_py():
    assert policy.EVAL_SCALE == rules.EVAL_SCALE
    assert vg_core.EVAL_SCALE == rules.EVAL_SCALE
    for name in ("EVAL_WHITE", "EVAL_COLOURED", "EVAL_SCALE"):
        assert getattr(reference, name) is getattr(rules, name)


def test_encoding_md_constants_are_rules_py():
    text = (PACKAGE / "ENCODING.md").read_text(encoding="utf-8")
    section = text[text.index("## Constants"):text.index("## State fields")]
    rows = re.findall(r"^\| `(\w+)` \| (\d+) \|", section, re.M)
    assert len(rows) >= 12
    for name, value in rows:
        assert getattr(rules, name) == int(value), name
