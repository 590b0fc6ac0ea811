"""engine/fieldtable.py on a small table of its own: the view written and read
back, errors naming the field, struct bytes packed and unpacked (unused
entries, caches, padding), the fields at rest, and the table's own checks.
Van Gogh's table against its real struct is tests/vangogh/test_fields.py."""
from __future__ import annotations

import re
import types

import numpy as np
import pytest

from easel.engine.errors import GameSpecError, StateFormatError
from easel.engine.fieldtable import (CACHE, DERIVED, OMIT, PENDING, PUBLIC, Axis, Bound, CForm,
                                     Field, FieldTable, Flag, IdSet, Int, Name, NameCounts, Shown,
                                     Value)

COLOURS = ("red", "blue")
AXES = (Axis("players", 4, lambda r: r.n, "seats", ref_doc="n"),
        Axis("colours", 2, doc="red, blue"),
        Axis("cards", 6, lambda r: r.cards, "cards", ref_doc="cards"))
LAST = Bound("n-1", lambda r: r.n - 1, "last seat")


def _rows(extra=()):
    return (
        Shown("players", lambda c: c.r.n, "players", required=True,
              check=lambda given, c: None if given == c.r.n else f"the game has {c.r.n}"),
        Field("turn", "turn", PUBLIC, "whose turn", value=Int(0, LAST)),
        Field("score", "scores", PUBLIC, "points", dims=("players",), value=Int(0, 300)),
        Field("bag", "bag", DERIVED, "cubes", dims=("colours",), value=NameCounts(COLOURS,
                                                                                 "colour", 9)),
        Field("deck", "deck", DERIVED, "cards left", dims=("cards",), value=IdSet("card")),
        Shown("seats[].label", lambda c: f"seat {c.i}", "label"),
        Field("hat", "seats[].hat", PUBLIC, "wears the hat", dims=("players",), value=Int(0, 1)),
        Shown("seats[].bonus", lambda c: OMIT if c.i else "first", "only seat 0"),
        Field("pick", "pending.pick", PENDING, "colour picked", value=Name(COLOURS, "colour",
                                                                           none=True), empty=-1),
        Field("total", None, CACHE, "cubes in the bag", sum_of="bag"),
    ) + tuple(extra)


TABLE = FieldTable("toy", AXES, _rows())
R = types.SimpleNamespace(n=3, cards=5)
# The "C struct": int16 scores, then int8 fields (numpy's aligned layout is the C one).
DTYPE = np.dtype([("score", "<i2", (4,)), ("turn", "i1"), ("bag", "i1", (2,)),
                  ("deck", "i1", (6,)), ("hat", "i1", (4,)), ("pick", "i1"), ("total", "i1")],
                 align=True)


def _state(**kw):
    s = types.SimpleNamespace(r=R, _current_player=lambda: 0)
    TABLE.clear(s, R)
    for k, v in kw.items():
        setattr(s, k, v)
    return s


def test_view_and_back():
    s = _state(turn=2, score=[5, 0, 7], bag=[3, 1], deck=[1, 0, 0, 1, 1], hat=[0, 1, 0], pick=1)
    view = TABLE.view(s)
    assert view == {"players": 3, "turn": 2, "scores": [5, 0, 7], "bag": {"red": 3, "blue": 1},
                    "deck": [0, 3, 4],
                    "seats": [{"label": "seat 0", "hat": 0, "bonus": "first"},
                              {"label": "seat 1", "hat": 1}, {"label": "seat 2", "hat": 0}],
                    "pending": {"pick": "blue"}}
    back = _state()
    TABLE.read(view, back, R)
    for row in TABLE.state:
        assert getattr(back, row.ref) == getattr(s, row.ref), row.ref
    assert TABLE.rest_view("pending", R) == {"pick": None}


@pytest.mark.parametrize("change, field, problem", [
    (lambda v: v.update(players=4), "players", "the game has 3"),
    (lambda v: v.update(turn=3), "turn", "must be an integer from 0 to 2, got 3"),
    (lambda v: v.update(scores=[1, 2]), "scores", "must be a list of 3 integers"),
    (lambda v: v["scores"].__setitem__(1, True), "scores[1]", "must be an integer"),
    (lambda v: v["bag"].update(green=1), "bag.green", "unknown colour; colours: red, blue"),
    (lambda v: v["deck"].append(0), "deck[3]", "card 0 listed twice"),
    (lambda v: v["deck"].append(5), "deck[3]", "must be a card index from 0 to 4"),
    (lambda v: v["seats"].pop(), "seats", "must list 3 seats"),
    (lambda v: v["seats"][1].pop("hat"), "seats[1].hat", "missing"),
    (lambda v: v["pending"].update(pick="green"), "pending.pick", "unknown colour 'green'"),
    (lambda v: v["pending"].update(more=1), "pending.more", "unknown field"),
    (lambda v: v.update(extra=1), "extra", "unknown field"),
])
def test_a_bad_view_is_refused_naming_the_field(change, field, problem):
    view = TABLE.view(_state(score=[1, 2, 3], deck=[1, 0, 0, 1, 1]))
    change(view)
    with pytest.raises(StateFormatError) as e:
        TABLE.read(view, _state(), R)
    assert f"toy state: field '{field}': {problem}" in str(e.value)


def test_unknown_keys_in_list_items_pass():
    """Items may carry what the reader skips (Shown values it does not check)."""
    view = TABLE.view(_state())
    view["seats"][2]["note"] = "x"
    TABLE.read(view, _state(), R)


def test_struct_bytes():
    codec = TABLE.struct(DTYPE)
    s = _state(turn=1, score=[300, 0, 9], bag=[4, 5], deck=[0, 1, 1, 0, 1], hat=[1, 0, 0],
               pick=-1)
    raw = codec.pack(s, R)
    assert len(raw) == DTYPE.itemsize
    rec = np.frombuffer(raw, DTYPE)[0]
    assert rec["score"].tolist() == [300, 0, 9, 0]          # unused entries at the empty value
    assert rec["deck"].tolist() == [0, 1, 1, 0, 1, 0]
    assert rec["pick"] == -1 and rec["total"] == 9           # the cache sums its field
    pad = bytearray(raw)
    for name in DTYPE.names:
        off = DTYPE.fields[name][1]
        pad[off:off + DTYPE.fields[name][0].itemsize] = b"\0" * DTYPE.fields[name][0].itemsize
    assert pad == bytes(len(raw))                            # padding is zero
    back = codec.unpack(raw, R, 2)
    assert back._current_player() == 2
    for row in TABLE.state:
        assert getattr(back, row.ref) == getattr(s, row.ref), row.ref
    assert codec.limits(TABLE.by_ref["score"]) == (-32768, 32767)


@pytest.mark.parametrize("dtype, complaint", [
    (np.dtype([("score", "<i2", (4,)), ("turn", "i1")]), "only in the table"),
    (np.dtype([(n, "i1", DTYPE.fields[n][0].shape) for n in DTYPE.names] + [("x", "i1")]),
     r"only in the struct \['x'\]"),
    (np.dtype([(n, "i1", (3,) if n == "hat" else DTYPE.fields[n][0].shape)
               for n in DTYPE.names]), r"field 'hat': the struct has int8\[3\]"),
    (np.dtype([(n, "f8" if n == "turn" else "i1", DTYPE.fields[n][0].shape)
               for n in DTYPE.names]), "field 'turn'"),
])
def test_a_struct_unlike_the_table_is_refused(dtype, complaint):
    with pytest.raises(GameSpecError, match=complaint):
        TABLE.struct(dtype)


def test_fields_at_rest_and_copies():
    s = _state(hat=[0, 1, 0])
    assert TABLE.at_rest(TABLE.by_ref["pick"], -1)
    assert not TABLE.at_rest(TABLE.by_ref["hat"], s.hat)
    c = types.SimpleNamespace(**vars(s))
    TABLE.copy_fields(s, c)
    c.hat[1] = 0
    assert s.hat == [0, 1, 0]


@pytest.mark.parametrize("extra, complaint", [
    ((Field("turn", "turn2", PUBLIC, "again", value=Int(0, 1)),), "'turn' given twice"),
    ((Field("x", "turn", PUBLIC, "same place", value=Int(0, 1)),), "view 'turn' given twice"),
    ((Field("x", "x", PUBLIC, "no such axis", dims=("rows",), value=Int(0, 1)),),
     "unknown axis 'rows'"),
    ((Field("x", "x", PUBLIC, "a bound by name", value=Int(0, "m")),), "a number or a Bound"),
    ((Field("x", None, CACHE, "sums a scalar", sum_of="turn"),), "cache 'x'"),
    ((Field("x", "x", "secret", "bad kind", value=Int(0, 1)),), "kind 'secret'"),
    ((Field("x", None, CACHE, "sums a -1 field", sum_of="pick"),), "cache 'x'"),
    ((Field("x", "x", CACHE, "a cache in the view", dims=(), sum_of="bag"),), "cache 'x'"),
    ((Shown("only[].shown", lambda c: 1, "no field"),), "list 'only' holds no field"),
    ((Field("x", "x", PUBLIC, "no value"),), "needs a view and a value"),
    ((Field("x", "seats[].x", PUBLIC, "other axis", dims=("colours",), value=Int(0, 1)),),
     "group 'seats' runs over players"),
])
def test_a_bad_table_is_refused(extra, complaint):
    with pytest.raises(GameSpecError, match=complaint):
        FieldTable("toy", AXES, _rows(extra))


def test_markdown_lists_every_row_axis_and_bound():
    md = TABLE.markdown()
    for row in TABLE.rows:
        assert row.doc in md
    for name in ("players", "colours", "cards", "n-1"):  # axes and the bound
        assert f"| {name} |" in md
    assert "|  | `total` | `total` |  | sum of `bag` | cache | cubes in the bag |" in md


# -- fields the view arranges otherwise (a Shown row standing for them) ---------------

def _owners(c):
    """Cards per seat: the view lists each seat's cards, the state holds each card's seat."""
    return [[k for k in range(c.r.cards) if c.s.owner[k] == p] for p in range(c.r.n)]


def _read_owners(given, field, c):
    for p, cards in enumerate(c.f.list(given, field, c.r.n)):
        for i, k in enumerate(cards):
            c.s.owner[c.f.int(k, f"{field}[{p}][{i}]", 0, c.r.cards - 1)] = p


OWNED = FieldTable("toy", AXES, (
    Field("level", "levels[].level", PUBLIC, "level", dims=("players", "colours"),
          value=NameCounts(COLOURS, "colour", 8, lo=1)),
    Shown("hands", _owners, "the cards each seat holds", required=True, fields=("owner",),
          read=_read_owners),
    Field("owner", None, PUBLIC, "who holds each card, -1 nobody", dims=("cards",),
          value=Int(-1, LAST), empty=-1),
), strict_items=True)


def test_a_shown_row_standing_for_a_field_writes_and_reads_it():
    s = types.SimpleNamespace(r=R, _current_player=lambda: 0)
    OWNED.clear(s, R)
    s.owner = [2, -1, 0, 2, -1]
    s.level = [[1, 1], [8, 2], [3, 1]]
    view = OWNED.view(s)
    assert view == {"levels": [{"level": {"red": 1, "blue": 1}},
                               {"level": {"red": 8, "blue": 2}},
                               {"level": {"red": 3, "blue": 1}}],
                    "hands": [[2], [], [0, 3]]}
    back = types.SimpleNamespace(r=R)
    OWNED.clear(back, R)
    OWNED.read(view, back, R)
    assert back.owner == s.owner and back.level == s.level
    md = OWNED.markdown()
    assert "| in `hands` | `owner` | `owner` | cards |" in md
    assert "{colour: 1..8}" in md


@pytest.mark.parametrize("change, field, problem", [
    (lambda v: v["hands"][1].append(9), "hands[1][0]", "must be an integer from 0 to 4"),
    (lambda v: v["levels"][0]["level"].update(red=0), "levels[0].level.red",
     "must be an integer from 1 to 8"),
    (lambda v: v["levels"][0].update(extra=1), "levels[0].extra", "unknown field"),
])
def test_strict_items_and_shown_reads_name_the_field(change, field, problem):
    s = types.SimpleNamespace(r=R, _current_player=lambda: 0)
    OWNED.clear(s, R)
    s.level = [[1, 1]] * 3
    view = OWNED.view(s)
    change(view)
    back = types.SimpleNamespace(r=R)
    OWNED.clear(back, R)
    with pytest.raises(StateFormatError, match=rf"field '{re.escape(field)}': {problem}"):
        OWNED.read(view, back, R)


@pytest.mark.parametrize("rows, complaint", [
    ((Field("owner", None, PUBLIC, "shown by nothing", dims=("cards",), value=Int(-1, 2)),),
     "needs a view and a value"),
    ((Shown("hands", lambda c: [], "both", fields=("owner",)),
      Field("owner", "owner", PUBLIC, "and its own view", dims=("cards",), value=Int(-1, 2))),
     "not both"),
    ((Shown("hands", lambda c: [], "stands for nothing", fields=("nobody",)),),
     "stands for 'nobody', not a state field"),
])
def test_a_shown_row_standing_for_fields_is_checked(rows, complaint):
    with pytest.raises(GameSpecError, match=complaint):
        FieldTable("toy", AXES, rows)


# -- the forms Starving Artists needs: counted lists, a field C keeps in another
# form, a count cache, flags, per-name bounds, a field shown through other parts

class _Bits(CForm):
    """0/1 per card, kept in C as one bit mask (a toy of Starving Artists' cube masks)."""
    c_fields = ("mask",)

    def pack(self, v, r):
        return ([sum(1 << k for k, x in enumerate(v) if x)],)

    def unpack(self, parts, r):
        return [(parts["mask"][0] >> k) & 1 for k in range(r.cards)]

    def rest(self, r):
        return [0] * r.cards


class IdList(Value):
    axes = 1

    def write(self, v, ctx):
        return list(v)

    def read(self, j, field, ctx):
        return list(j)

    def limits(self, r):
        return 0, r.cards - 1

    def text(self):
        return "list of card ids"


AXES2 = AXES + (Axis("one", 1, doc="one mask"),)
ROWS2 = (
    Field("queue", "queue", PUBLIC, "cards in a line", dims=("cards",), value=IdList(),
          count="q_len"),
    Field("alive", "alive", PUBLIC, "not out", dims=("players",), value=Flag()),
    Field("bag", "bag", DERIVED, "cubes", dims=("colours",),
          value=NameCounts(COLOURS, "colour", (2, 5), hi_doc="the box's")),
    Field("where", None, PUBLIC, "where each card is (0 nowhere)", dims=("cards",),
          value=Int(0, 3), shown_by="the lists naming cards"),
    Field("marked", None, PUBLIC, "marked cards", dims=("one",), value=Int(0, 1),
          c_form=_Bits(), shown_by="nowhere"),
    Field("nowhere", None, CACHE, "cards nowhere", sum_of="where", count_eq=0),
)


def _table2():
    return FieldTable("toy2", AXES2, ROWS2)


DTYPE2 = np.dtype([("queue", "i1", (6,)), ("q_len", "i1"), ("alive", "i1", (4,)),
                   ("bag", "i1", (2,)), ("where", "i1", (6,)), ("mask", "<u2", (1,)),
                   ("nowhere", "i1")], align=True)


def test_counted_lists_c_forms_and_count_caches_pack_and_unpack():
    t = _table2()
    s = types.SimpleNamespace(r=R, _current_player=lambda: 0)
    t.clear(s, R)
    assert (s.queue, s.alive, s.where, s.marked) == ([], [0, 0, 0], [0] * 5, [0] * 5)
    s.queue, s.alive, s.bag = [4, 1], [1, 0, 1], [2, 5]
    s.where, s.marked = [0, 2, 0, 1, 3], [1, 0, 0, 1, 0]
    codec = t.struct(DTYPE2)
    raw = codec.pack(s, R)
    flat = np.frombuffer(raw, DTYPE2)[0]
    assert list(flat["queue"]) == [4, 1, 0, 0, 0, 0] and flat["q_len"] == 2
    assert list(flat["mask"]) == [0b1001]
    # counted over the reference's 5 cards, not C's 6 (whose last entry is 0 too)
    assert flat["nowhere"] == 2
    back = codec.unpack(raw, R, 0)
    for row in t.state:
        assert getattr(back, row.ref) == getattr(s, row.ref), row.ref
    view = t.view(s)
    assert view == {"queue": [4, 1], "alive": [True, False, True], "bag": {"red": 2, "blue": 5}}
    again = types.SimpleNamespace(r=R)
    t.clear(again, R)
    t.read(view, again, R)
    assert (again.queue, again.alive, again.bag) == (s.queue, s.alive, s.bag)
    assert again.where == [0] * 5           # shown elsewhere: the game's loader fills it


@pytest.mark.parametrize("change, field, problem", [
    (lambda v: v.update(alive=[1, 0, 1]), "alive[0]", "must be true or false"),
    (lambda v: v["bag"].update(red=3), "bag.red", "must be an integer from 0 to 2"),
    (lambda v: v["bag"].update(blue=6), "bag.blue", "must be an integer from 0 to 5"),
])
def test_flags_and_per_name_bounds_name_the_field(change, field, problem):
    t = _table2()
    view = {"queue": [], "alive": [True, True, True], "bag": {"red": 0, "blue": 0}}
    change(view)
    s = types.SimpleNamespace(r=R)
    t.clear(s, R)
    with pytest.raises(StateFormatError) as e:
        t.read(view, s, R)
    assert f"toy2 state: field '{field}': {problem}" in str(e.value)


def test_the_new_forms_in_the_markdown():
    text = _table2().markdown()
    assert "| `queue` | `queue` | `queue` | cards (length `q_len`) |" in text
    assert "| (nowhere) | `marked` | `mask` | one |" in text
    assert "count of `where` == 0" in text
    assert "{colour: 0..the box's}" in text


def test_a_field_without_view_must_say_where_it_is_shown():
    with pytest.raises(GameSpecError, match="shown only through other parts, shown_by"):
        FieldTable("toy", AXES, (Field("x", None, PUBLIC, "x", value=Int(0, 1)),))
