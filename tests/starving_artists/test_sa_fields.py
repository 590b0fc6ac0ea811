"""Starving Artists' field table (engine/starving_artists/fields.py) against
what it stands for: the C struct (state.pxd, read through the core's buffer
format), the bytes the core's rules write, ENCODING.md's field list, and the
numbers the core and the bots repeat from rules.py and policies.py."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from easel import engine
from easel.engine.errors import GameSpecError
from easel.engine.starving_artists import encoding, fields, policies, reference, rules

sa_core = pytest.importorskip("easel.engine.starving_artists.core")

from fieldtable_checks import (check_core_bytes, check_encoding_md, check_initial_position,
                               check_table_and_struct,  # noqa: E402
                               dtype_changed, twins)

PACKAGE = Path(fields.__file__).parent
VARIANTS = ["starving_artists(players=1,colourstudy=true,lastsupper=true)",
            "starving_artists(players=2,colourstudy=true,lastsupper=true)",
            "starving_artists(players=4,deck=all,start=3)"]


def test_table_and_struct_agree():
    """Every C field is a table row, a counted list's length or a part of a
    field C keeps in its own form, with the table's axes; every value the view
    may load fits the field's C integer type."""
    check_table_and_struct(sa_core, fields.FIELDS, rules.make_rules,
                           ("starving_artists(players=1)", "starving_artists(players=4,deck=all)"),
                           ("q_len", "n_selling", "n_order", "filled", "wildm", "altm"))


@pytest.mark.parametrize("name, shape, complaint", [
    ("fed", None, r"only in the table \['fed'\]"),
    ("q_len", None, r"only in the table \['q_len'\]"),
    ("wildm", None, r"only in the table \['wildm'\]"),
    ("held", (7,), r"field 'held': the struct has int8\[7\], the table integers of shape \[8\]"),
])
def test_a_struct_other_than_the_table_is_refused(name, shape, complaint):
    with pytest.raises(GameSpecError, match=complaint):
        fields.FIELDS.struct(dtype_changed(sa_core, name, shape))


@pytest.mark.parametrize("spec", VARIANTS)
def test_core_bytes_are_the_tables_packing_of_the_reference(spec):
    """Step by step, the bytes the core's rules write are the field table's
    packing of the reference state (unused entries, list lengths, cube masks,
    derived counts and padding included), and unpack back to the reference's
    fields."""
    check_core_bytes(spec, sa_core, fields.FIELDS)


def test_the_initial_position_is_the_references():
    check_initial_position(("starving_artists(players=1,setaside=4)", "starving_artists(players=3,start=2)"), sa_core)


def test_encoding_md_lists_the_table():
    check_encoding_md(PACKAGE, encoding)


# -- constants: rules.py is the one source -------------------------------------------

_LOC = {"UNSEEN": "UNSEEN", "QUEUE": "QUEUE", "MARKET": "IN_MARKET", "REMOVED": "REMOVED",
        "STUDIO0": "STUDIO0", "SOLD0": "SOLD0"}


def _enum_constants():
    text = (PACKAGE / "state.pxd").read_text(encoding="utf-8")
    block = text[text.index("cdef enum:"):text.index("cdef struct")]
    return {m[1]: int(m[2]) for m in re.finditer(r"^\s+(\w+) = (-?\d+)", block, re.M)}


def _rules_value(name):
    """The rules.py value a state.pxd constant repeats: SA_X is X, PH_X the
    index of phase x, A_X the action id X, LOC_X where a canvas is."""
    if name.startswith("PH_"):
        return rules.PHASES.index(name[3:].lower())
    if name.startswith("LOC_"):
        return getattr(rules, _LOC[name[4:]])
    for prefix in ("SA_", "A_"):
        if name.startswith(prefix):
            return getattr(rules, name[len(prefix):])
    return getattr(rules, name)


def test_the_cores_constants_are_rules_py():
    consts = _enum_constants()
    assert len(consts) > 40
    for name, value in consts.items():
        assert _rules_value(name) == value, name
    assert {n for n in consts if n.startswith("PH_")} == {f"PH_{p.upper()}" for p in rules.PHASES}


def test_the_references_phase_names_follow_rules_py():
    for i, name in enumerate(rules.PHASES):
        key = name.upper()
        key = f"{key}_P" if hasattr(reference, f"{key}_P") else key
        assert getattr(reference, key) == i, name


def test_encoding_md_constants_are_rules_py():
    text = (PACKAGE / "ENCODING.md").read_text(encoding="utf-8")
    section = text[text.index("## Constants"):text.index("## Small decisions")]
    rows = re.findall(r"^\| `(\w+)` \| ([\d, ]+) \|", section, re.M)
    assert len(rows) >= 4
    for name, value in rows:
        want = getattr(rules, name)
        assert (list(want) if isinstance(want, tuple) else [want]) == \
            [int(x) for x in value.split(",")], name


def test_the_trade_sizes_the_heuristic_reads_are_the_rules(monkeypatch):
    """policies.py prices a trade by rules.TRADES: a changed table changes the
    heuristic's reading (no copy of the sizes left behind)."""
    view = engine.load_game("starving_artists", "reference").new_initial_state().to_json()
    view["studios"][0]["cubes"] = {c: 1 for c in rules.CUBE_NAMES}
    view["payday_pile"] = {c: 1 for c in rules.CUBE_NAMES}
    need = [0, 0, 0, 0, 0, 0, 0, 0]
    need[0] = 5                                   # red lacking, so a trade is worth it
    before = policies._score(view, 0, need, 0, rules.TRADE)
    monkeypatch.setattr(policies, "TRADES", ((9, 1),) + rules.TRADES[1:])
    after = policies._score(view, 0, need, 0, rules.TRADE)
    assert before > 0 > after


def test_the_cores_evaluation_reads_policies_numbers():
    """policy.pyx's evaluation numbers are policies.py's (read at import), and
    the core's evaluate is policies.evaluate to the last bit."""
    from easel.engine.starving_artists import policy
    assert policy.VALUE_SCALE is policies.VALUE_SCALE
    assert policy.VALUE_CONFIDENCE is policies.VALUE_CONFIDENCE
    assert policy.value_weights is policies.value_weights
    for players in (3, 4):
        for c, r in twins(f"starving_artists(players={players})", 1, seed=3):
            assert c.evaluate() == policies.evaluate(r)
