"""Couleurs de Paris's field table (engine/couleurs_de_paris/fields.py) against
what it stands for: the C struct (state.pxd, read through the core's buffer
format), the bytes the core's rules write, ENCODING.md's field list, and the
constants the core repeats from rules.py."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from easel import engine
from easel.engine.errors import GameSpecError
from easel.engine.couleurs_de_paris import data, encoding, fields, reference, rules

if not engine.game_entry("couleurs_de_paris").has_core:
    pytest.skip("no core", allow_module_level=True)

from easel.engine.couleurs_de_paris import core as cdp_core  # noqa: E402

from fieldtable_checks import (check_core_bytes, check_encoding_md, check_initial_position,
                               check_table_and_struct,  # noqa: E402
                               dtype_changed)

PACKAGE = Path(fields.__file__).parent


def test_table_and_struct_agree():
    """Every C field is a table row and every row a C field, with the table's
    axes; every value the view may load fits the field's C integer type."""
    check_table_and_struct(cdp_core, fields.FIELDS, rules.make_rules,
                           ("couleurs_de_paris", "couleurs_de_paris(players=4,maxrounds=200)"))


@pytest.mark.parametrize("name, shape, complaint", [
    ("painted", None, r"only in the table \['painted'\]"),
    ("keep", (3,), r"field 'keep': the struct has int8\[3\], the table integers of shape \[4\]"),
])
def test_a_struct_other_than_the_table_is_refused(name, shape, complaint):
    with pytest.raises(GameSpecError, match=complaint):
        fields.FIELDS.struct(dtype_changed(cdp_core, name, shape))


@pytest.mark.parametrize("spec", ["couleurs_de_paris", "couleurs_de_paris(players=3,first=2)",
                                  "couleurs_de_paris(players=4)"])
def test_core_bytes_are_the_tables_packing_of_the_reference(spec):
    """Step by step, the bytes the core's rules write are the field table's
    packing of the reference state (unused entries, the deck count and
    padding included), and unpack back to the reference's fields."""
    check_core_bytes(spec, cdp_core, fields.FIELDS)


def test_the_initial_position_is_the_references():
    check_initial_position(("couleurs_de_paris", "couleurs_de_paris(players=4,first=3)"), cdp_core)


def test_every_field_is_in_the_view():
    """Each state field is shown by its own view key or by a Shown row that
    reads it back (the assistants on the boards, the paintings held, who moves)."""
    for row in fields.FIELDS.state:
        assert row.view or row.ref in fields.FIELDS.shown_in, row.ref


def test_encoding_md_lists_the_table():
    check_encoding_md(PACKAGE, encoding)


# -- constants: rules.py is the one source -------------------------------------------

def _enum_constants():
    text = (PACKAGE / "state.pxd").read_text(encoding="utf-8")
    block = text[text.index("cdef enum:"):text.index("cdef struct")]
    return {m[1]: int(m[2]) for m in re.finditer(r"^\s+(\w+) = (\d+)", block, re.M)}


# state.pxd names whose rules.py name is not the rule of _rules_value
_RENAMED = {"CDP_MAX_PLAYERS": fields.MAX_PLAYERS, "CDP_MAX_CARDS": data.MAX_PAINTINGS,
            "CDP_FULL": (1 << data.SPACES) - 1, "CDP_N_LOC": rules.N_LOCATIONS,
            "A_NUM": rules.NUM_ACTIONS, "L_FIRST": rules.C_FIRST,
            "L_IMITATOR": rules.C_IMITATOR, "L_ROTATE": rules.C_ROTATE, "L_WHITE": rules.C_WHITE}


def _rules_value(name):
    """The rules.py value a state.pxd constant repeats: CDP_X is X, C_X the
    colour X, T_X the tool X, A_X the action id X, K_X itself, PH_X the index
    of phase x."""
    if name in _RENAMED:
        return _RENAMED[name]
    if name.startswith("PH_"):
        return rules.PHASES.index(name[3:].lower())
    if name.startswith("K_"):
        return getattr(rules, name)
    return getattr(rules, name.split("_", 1)[1])


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


def test_the_rollout_epsilon_comes_from_rules_py():
    assert cdp_core.ROLLOUT_EPSILON == rules.ROLLOUT_EPSILON
