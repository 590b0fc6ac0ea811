"""Checks every game's field table passes against what it stands for
(engine/fieldtable.py; each game's tests/<game>/test_*fields.py calls them):
the core's bytes against the table's packing of the reference, the initial
position, ENCODING.md's field list, and a struct other than the table."""
from __future__ import annotations

import random

import numpy as np

from easel import engine


def twins(spec, n_games, seed):
    """(core state, reference state) along random games, terminal included."""
    core_game = engine.load_game(spec, implementation="core")
    ref_game = engine.load_game(spec, implementation="reference")
    rng = random.Random(seed)
    for _ in range(n_games):
        c, r = core_game.new_initial_state(), ref_game.new_initial_state()
        while True:
            yield c, r
            if c.is_terminal():
                break
            a = engine.draw_outcome(c, rng) if c.is_chance_node() else rng.choice(c.legal_actions())
            c.apply_action(a)
            r.apply_action(a)


def dtype_changed(core, name, shape=None):
    """The core's struct dtype without field `name` (shape None) or with it reshaped."""
    base = core.state_dtype()
    names = [n for n in base.names if n != name or shape is not None]
    spec = {"names": names, "formats": [], "offsets": [], "itemsize": base.itemsize + 64}
    for n in names:
        sub, off = base.fields[n][:2]
        spec["formats"].append(np.dtype((sub.base, shape)) if n == name else sub)
        spec["offsets"].append(off)
    return np.dtype(spec)


def check_core_bytes(spec, core, table) -> None:
    """Step by step, the bytes the core's rules write are the field table's
    packing of the reference state (unused entries, derived counts and
    padding included), and unpack back to the reference's fields."""
    codec = core.struct_codec()
    steps = 0
    for c, r in twins(spec, 2, seed=7):
        raw = c.raw()
        assert codec.pack(r, r.r) == raw, (spec, steps)
        back = codec.unpack(raw, r.r, c.current_player())
        for row in table.state:
            assert getattr(back, row.ref) == getattr(r, row.ref), (row.ref, steps)
        steps += 1
    assert steps > 100


def check_initial_position(specs, core) -> None:
    """The core's initial position is the reference's, packed."""
    for spec in specs:
        c = engine.load_game(spec, "core").new_initial_state()
        ref = engine.load_game(spec, "reference").new_initial_state()
        assert c.raw() == core.struct_codec().pack(ref, ref.r)
        assert c.to_json() == ref.to_json()


def check_encoding_md(package, encoding) -> None:
    """ENCODING.md's field list is the table's (the game's encoding.py writes it)."""
    text = (package / "ENCODING.md").read_text(encoding="utf-8")
    assert encoding.updated(text) == text, (
        f"ENCODING.md's field list is stale: run `python -m {encoding.__name__} --write`")


def check_table_and_struct(core, table, make_rules, specs, other_c_fields=()) -> None:
    """Every C field is a table row (or one of `other_c_fields`: a counted
    list's length, a part of a field C keeps in its own form) and every row a
    C field, with the table's axes; every value the view may load fits the
    field's C integer type, in each game of `specs`."""
    dtype = core.state_dtype()
    assert dtype.itemsize == core.state_size()
    codec = table.struct(dtype)
    assert set(dtype.names) == ({row.c_name for row in table.fields if not row.c_form}
                                | set(other_c_fields))
    for spec in specs:
        r = make_rules(engine.parse_game_string(spec)[1])
        for row in table.state:
            if row.c_form:
                continue
            lo, hi = row.value.limits(r)
            c_lo, c_hi = codec.limits(row)
            assert c_lo <= min(lo, row.empty) and max(hi, row.empty) <= c_hi, (row.ref, spec)
