"""A game's state as one table of fields, and the conversions it drives.

A game keeps its state twice: as attributes of the reference's state class
(plain lists and integers) and as the core's C struct (fixed-size arrays,
declared by hand in a .pxd because Cython needs the declaration). The JSON
view names the same things as players do. The field table says, once per
field, where each form keeps it:

  * `ref`: the reference attribute (and, unless `c` says otherwise, the C field);
  * `view`: where the JSON view shows it: ``"round"``, ``"pending.hand"``, or
    ``"palettes[].active"`` (one item of the list ``palettes`` per entry of the
    field's first axis);
  * `dims`: its axes (named, each with its C length and its length in the
    reference, e.g. ``players``: 5 in C, n in the reference);
  * `value`: how one value reads and writes in the view (its JSON type, range
    and checks: `Int`, `Name`, `NameCounts`, `IdSet` or a game's own);
  * `kind`: what a player knows of it (PUBLIC, HIDDEN, DERIVED, PENDING, or
    CACHE for a C-only running total), `empty` (0, or -1 for "none") and `doc`.

A field may also be kept differently in C: a variable-length list with its
length in a C field of its own (`count`), or a value C holds in another form
(`c_form`, e.g. a canvas's cubes as bit masks); and a field the view shows
only through other parts (`view=None`, `shown_by` saying where; the game's
loader fills it, e.g. where each canvas is, from the lists that name it).

From the table come: the JSON view of a reference state or of struct bytes
(`view`), the view's field-by-field loader with its errors naming the field
(`read`), the struct bytes from a reference state and back (`StructCodec`, laid
out as the compiler laid out the struct, read through Cython's buffer format
by the core's `state_dtype()`), the fields at rest (`clear`, `at_rest`), and the
field list of the game's ENCODING.md (`markdown`). `Shown` rows are in the
view without being state (names the texts need, the player count, ...).

Adding a field to a game is then: the .pxd field, one row in its table, and
the rule code that uses it (docs/adding-a-game.md, "Positions people write").
"""
from __future__ import annotations

from dataclasses import dataclass, field as _field
from typing import Any, Callable

from easel.engine.errors import GameSpecError
from easel.engine.viewfields import ViewFields

# What a player knows of a field (the column `kind`): seen on the table;
# known to nobody (kept by the game, e.g. a deck's order); following from the
# other fields, the box or the options (a table notation need not write it);
# the phase machine's bookkeeping of an action under way; a C-only running
# total the hot paths read (never in the view or the reference).
PUBLIC, HIDDEN, DERIVED, PENDING, CACHE = "public", "hidden", "derived", "pending", "cache"
SHOWN = "shown"             # Shown rows: in the view, not state
KINDS = (PUBLIC, HIDDEN, DERIVED, PENDING, CACHE)


class _Omit:
    """A Shown value that leaves its key out of the view (e.g. facts of an empty slot)."""

    def __repr__(self):
        return "OMIT"


OMIT = _Omit()


@dataclass(frozen=True)
class Axis:
    """An array dimension: its length in the C struct and in the reference
    (a number, or a function of the game's rules for lengths the options set)."""
    name: str
    c_len: int
    ref_len: int | Callable[[Any], int] | None = None     # None: c_len
    doc: str = ""
    ref_doc: str = ""           # the reference length, in words, when ref_len is a function

    def length(self, r) -> int:
        if self.ref_len is None:
            return self.c_len
        return self.ref_len(r) if callable(self.ref_len) else self.ref_len


class Ctx:
    """What a value's reading or writing may consult: the rules `r`, the state
    `s` (being written, or being filled in view order), the index `i` in the
    list of items it is in (None outside one), its own axes `axes` and their
    reference lengths `shape`, and the game's ViewFields `f` for errors."""
    __slots__ = ("r", "s", "i", "axes", "f")

    def __init__(self, r, s, f):
        self.r, self.s, self.f = r, s, f
        self.i = None
        self.axes = ()

    @property
    def shape(self) -> tuple:
        return tuple(a.length(self.r) for a in self.axes)


class Value:
    """How one value of a field reads and writes in the JSON view. `axes`
    trailing axes of the field belong to the value (a list or a map in the
    view, e.g. counts per colour); the field's other axes are JSON lists."""
    axes = 0
    noun = "values"          # "must be a list of 3 <noun>"

    def write(self, v, ctx):
        raise NotImplementedError

    def read(self, j, field, ctx):
        raise NotImplementedError

    def limits(self, r) -> tuple[int, int]:
        """The least and the most integer stored (checked against the C type)."""
        raise NotImplementedError

    def text(self) -> str:
        """The JSON form, for ENCODING.md."""
        raise NotImplementedError


@dataclass(frozen=True)
class Bound:
    """A range end the options set: `name` (in the docs), `of(r)` its value
    for the rules `r`, and what it is."""
    name: str
    of: Callable[[Any], int]
    doc: str


def _at(b, r):
    return b.of(r) if isinstance(b, Bound) else b


class Int(Value):
    """An integer from lo to hi, each a number or a Bound."""
    noun = "integers"

    def __init__(self, lo, hi):
        self.lo, self.hi = lo, hi

    def write(self, v, ctx):
        return v

    def read(self, j, field, ctx):
        return ctx.f.int(j, field, _at(self.lo, ctx.r), _at(self.hi, ctx.r))

    def limits(self, r):
        return _at(self.lo, r), _at(self.hi, r)

    def text(self):
        lo, hi = (getattr(b, "name", b) for b in (self.lo, self.hi))
        return f"integer {lo}..{hi}" if (lo, hi) != (0, 1) else "0 or 1"


class Ordinal(Int):
    """A 0-based index (kept so by the rules) shown as a person counts it,
    from 1 (docs/table-notation.md, "Names and numbers"): the stored lo..hi
    is shown lo+1..hi+1; with `none`, the stored -1 is null."""

    def __init__(self, lo, hi, none=False):
        super().__init__(lo, hi)
        self.none = none

    def write(self, v, ctx):
        return v + 1 if v >= 0 else None

    def read(self, j, field, ctx):
        if j is None and self.none:
            return -1
        return ctx.f.int(j, field, _at(self.lo, ctx.r) + 1, _at(self.hi, ctx.r) + 1) - 1

    def limits(self, r):
        return (-1 if self.none else _at(self.lo, r)), _at(self.hi, r)

    def text(self):
        lo, hi = (b + 1 if isinstance(b, int) else f"{b.name}+1" for b in (self.lo, self.hi))
        return f"integer {lo}..{hi} (counted from 1)" + (" or null" if self.none else "")


class Name(Value):
    """An index shown by its name (`names[i]`); with `none`, -1 is null."""
    noun = "names"

    def __init__(self, names, what, none=False):
        self.names, self.what, self.none = tuple(names), what, none

    def write(self, v, ctx):
        return self.names[v] if v >= 0 else None

    def read(self, j, field, ctx):
        return ctx.f.choice(j, field, self.names, self.what, allow_none=self.none)

    def limits(self, r):
        return (-1 if self.none else 0), len(self.names) - 1

    def text(self):
        return f"{self.what} name" + (" or null" if self.none else "")


class NameCounts(Value):
    """Counts per name (one axis) as an object {name: count}, each lo..hi (or,
    with a tuple `hi`, lo..hi[k] for the k-th name; `hi_doc` names it in the docs)."""
    axes = 1

    def __init__(self, names, what, hi, lo=0, hi_doc=None):
        self.names, self.what, self.hi, self.lo = tuple(names), what, hi, lo
        self._his = tuple(hi) if isinstance(hi, tuple) else (hi,) * len(self.names)
        self.hi_doc = hi_doc if hi_doc is not None else hi

    def write(self, v, ctx):
        return {name: v[k] for k, name in enumerate(self.names)}

    def read(self, j, field, ctx):
        ctx.f.obj(j, field, self.names,
                  unknown=f"unknown {self.what}; {self.what}s: {', '.join(self.names)}")
        return [ctx.f.int(j[name], f"{field}.{name}", self.lo, self._his[k])
                for k, name in enumerate(self.names)]

    def limits(self, r):
        return self.lo, max(self._his)

    def text(self):
        return f"{{{self.what}: {self.lo}..{self.hi_doc}}}"


class Flag(Value):
    """0 or 1, shown as false or true."""
    noun = "flags"

    def write(self, v, ctx):
        return bool(v)

    def read(self, j, field, ctx):
        return int(ctx.f.bool(j, field))

    def limits(self, r):
        return 0, 1

    def text(self):
        return "true or false"


class IdSet(Value):
    """0/1 per entry of one axis, shown as the list of the entries set (ids
    from 0), each once."""
    axes = 1

    def __init__(self, what):
        self.what = what

    def write(self, v, ctx):
        return [i for i in range(len(v)) if v[i]]

    def read(self, j, field, ctx):
        n = ctx.shape[0]
        if not isinstance(j, list):
            ctx.f.bad(field, f"must be a list of {self.what} indices")
        out = [0] * n
        for i, x in enumerate(j):
            if not isinstance(x, int) or isinstance(x, bool) or not 0 <= x < n:
                ctx.f.bad(f"{field}[{i}]", f"must be a {self.what} index from 0 to {n - 1}, "
                                           f"got {x!r}")
            if out[x]:
                ctx.f.bad(f"{field}[{i}]", f"{self.what} {x} listed twice")
            out[x] = 1
        return out

    def limits(self, r):
        return 0, 1

    def text(self):
        return f"list of {self.what} ids"


class CForm:
    """A field C keeps in another form, in the C fields `c_fields` (each of
    the field's C shape): `pack(v, r)` gives their flat values from the
    reference's value, `unpack(parts, r)` the reference's value back."""
    c_fields: tuple = ()

    def pack(self, v, r) -> tuple:
        raise NotImplementedError

    def unpack(self, parts: dict, r):
        raise NotImplementedError

    def rest(self, r):
        """The value at rest, in the reference's shape."""
        raise NotImplementedError

    def text(self) -> str:
        return ", ".join(f"`{c}`" for c in self.c_fields)


@dataclass(frozen=True)
class Field:
    """One state field (see the module docstring)."""
    ref: str
    view: str | None                 # None for a CACHE field
    kind: str
    doc: str
    dims: tuple = ()
    value: Value | None = None
    empty: int = 0
    c: str | None = None             # the C field, when not named as `ref`
    sum_of: str | None = None        # CACHE: the sum of this field over its last axis
    count_eq: int | None = None      # CACHE: instead, how many entries of sum_of equal this
    count: str | None = None         # a list of variable length: the C field of its length
    c_form: Any = None               # a CForm: C keeps the value in other fields, another form
    shown_by: str | None = None      # view=None: the view parts that show it (for the docs)

    @property
    def c_name(self) -> str:
        return self.c or self.ref


@dataclass(frozen=True)
class Shown:
    """In the view, not state: `value(ctx)` (OMIT leaves the key out). On
    loading, `check(given, ctx)` returns the problem or None (no check: the
    value is skipped); `required` keys must be present.

    A Shown row may also stand for state fields the view arranges otherwise
    than the state holds them (e.g. assistants per player and location shown
    as the players on each board space): `fields` names them (their rows have
    no `view` of their own) and `read(given, field, ctx)` fills them in."""
    view: str
    value: Callable
    doc: str
    required: bool = False
    check: Callable | None = None
    fields: tuple = ()
    read: Callable | None = None
    kind: str = _field(default=SHOWN, init=False)


@dataclass
class _Obj:
    strict: bool
    children: dict                   # key -> Field | Shown | _Obj | _Group


@dataclass
class _Group:
    axis: Axis | None
    item: _Obj


def _walk(write, v, ctx, depth):
    """write() applied to each value under `depth` levels of lists."""
    if depth == 1:
        return [write(x, ctx) for x in v]
    return [_walk(write, x, ctx, depth - 1) for x in v]


def _nested(shape, fill):
    if not shape:
        return fill
    return [_nested(shape[1:], fill) for _ in range(shape[0])]


def _copy_nested(v):
    return [_copy_nested(x) for x in v] if isinstance(v, list) else v


def _flat(v):
    if isinstance(v, list):
        for x in v:
            yield from _flat(x)
    else:
        yield v


class FieldTable:
    def __init__(self, game: str, axes, rows, strict_items: bool = False):
        """axes: the Axis list; rows: Field and Shown rows in view order;
        strict_items: the items of the view's lists refuse unknown keys too."""
        self.game = game
        self.strict_items = strict_items
        self.f = ViewFields(game)
        self.axes = {a.name: a for a in axes}
        self.rows = tuple(rows)
        self.fields = tuple(x for x in self.rows if isinstance(x, Field))
        self.state = tuple(x for x in self.fields if x.kind != CACHE)
        self.caches = tuple(x for x in self.fields if x.kind == CACHE)
        self.by_ref = {x.ref: x for x in self.state}
        # Fields a Shown row stands for: field -> the Shown rows' views.
        self.shown_in = {}
        for x in self.rows:
            for name in getattr(x, "fields", ()):
                self.shown_in.setdefault(name, []).append(x.view)
        self._check_rows()
        # Per field: how many of its axes are JSON lists (not its group's, not
        # its value's), and its value's own axes.
        self._lists = {row.ref: len(row.dims) - row.value.axes - ("[]" in (row.view or ""))
                       for row in self.state}
        self._value_axes = {row.ref: tuple(self.axes[a] for a in
                                           row.dims[len(row.dims) - row.value.axes:])
                            for row in self.state}
        self.layout = _Obj(strict=True, children={})
        for row in self.rows:
            if row.view is not None:
                self._place(row)
        for key, child in self.layout.children.items():
            if isinstance(child, _Group) and child.axis is None:
                self._fail(f"list {key!r} holds no field to give its length")
        self._writer_source, self._writer = self._compile_writer()

    # -- building ----------------------------------------------------------------
    def _fail(self, problem):
        raise GameSpecError(f"{self.game} field table: {problem}")

    def _check_rows(self):
        seen_ref, seen_c, seen_view = set(), set(), set()
        for row in self.fields:
            if row.kind not in KINDS:
                self._fail(f"field {row.ref!r}: kind {row.kind!r} is not one of {KINDS}")
            for a in row.dims:
                if a not in self.axes:
                    self._fail(f"field {row.ref!r}: unknown axis {a!r}")
            for name, seen in ((row.ref, seen_ref), (row.c_name, seen_c)):
                if name in seen:
                    self._fail(f"field {name!r} given twice")
                seen.add(name)
            if row.kind == CACHE:
                src = next((x for x in self.fields if x.ref == row.sum_of), None)
                if (src is None or src.kind == CACHE or not src.dims or src.dims[:-1] != row.dims
                        or src.empty or row.view is not None or src.count or src.c_form
                        or (row.count_eq is not None and row.dims)):
                    self._fail(f"cache {row.ref!r}: no view, and sum_of must name a field with "
                               f"one more axis and empty value 0")
                continue
            shown = row.ref in self.shown_in
            if (row.value is None or (row.view is not None and shown)
                    or (row.view is None and not shown and row.shown_by is None)):
                self._fail(f"field {row.ref!r}: needs a view and a value (or, for its view, a "
                           f"Shown row standing for it; or, shown only through other parts, "
                           f"shown_by saying where; not both)")
            if row.count and (len(row.dims) != 1 or row.c_form):
                self._fail(f"field {row.ref!r}: a counted list has one axis")
            if row.view is None and not shown:
                continue
            if isinstance(row.value, Int):
                for b in (row.value.lo, row.value.hi):
                    if not isinstance(b, (int, Bound)):
                        self._fail(f"field {row.ref!r}: a bound is a number or a Bound, "
                                   f"got {b!r}")
            grouped = "[]" in (row.view or "")
            if row.value.axes + grouped > len(row.dims):
                self._fail(f"field {row.ref!r}: its view takes more axes than it has")
        for name in self.shown_in:
            if name not in self.by_ref:
                self._fail(f"a Shown row stands for {name!r}, not a state field")
        for row in self.rows:
            if row.view is not None:
                if row.view in seen_view:
                    self._fail(f"view {row.view!r} given twice")
                seen_view.add(row.view)

    def _place(self, row):
        node = self.layout
        parts = row.view.split(".")
        for part in parts[:-1]:
            if part.endswith("[]"):
                key = part[:-2]
                group = node.children.setdefault(
                    key, _Group(None, _Obj(strict=self.strict_items, children={})))
                if isinstance(row, Field):
                    axis = self.axes[row.dims[0]]
                    if group.axis not in (None, axis):
                        self._fail(f"{row.view}: group {key!r} runs over {group.axis.name}, "
                                   f"the field over {axis.name}")
                    group.axis = axis
                node = group.item
            else:
                node = node.children.setdefault(part, _Obj(strict=True, children={}))
        node.children[parts[-1]] = row

    # -- the reference side ------------------------------------------------------
    def shape(self, row, r) -> tuple:
        return tuple(self.axes[a].length(r) for a in row.dims)

    def clear(self, s, r) -> None:
        """Every field of `s` at its empty value, in the reference's shapes."""
        for row in self.state:
            if row.count:
                setattr(s, row.ref, [])
            elif row.c_form is not None:
                setattr(s, row.ref, row.c_form.rest(r))
            else:
                setattr(s, row.ref, _nested(self.shape(row, r), row.empty))

    def copy_fields(self, src, dst) -> None:
        """`dst` gets its own copies of `src`'s array fields (the scalars are values)."""
        for row in self.state:
            if row.dims:
                setattr(dst, row.ref, _copy_nested(getattr(src, row.ref)))

    def rest_view(self, key: str, r) -> dict:
        """The view's object `key` (e.g. "pending") with every field at rest."""
        ctx = Ctx(r, None, self.f)
        return {name: self._write_field(row, _nested(self.shape(row, r), row.empty), ctx)
                for name, row in self.layout.children[key].children.items()}

    def at_rest(self, row, v) -> bool:
        return all(x == row.empty for x in _flat(v))

    # -- the JSON view -----------------------------------------------------------
    def view(self, s) -> dict:
        """The JSON view of `s`: a reference state or a struct view (attributes
        named as the reference's, `r`, and `_current_player()`)."""
        return self._writer(s, Ctx(s.r, s, self.f))

    # The view is written often (every text of a move reads it), so the
    # layout is turned once, when the table is made, into the source of one
    # function writing it field by field as a hand-written one would
    # (`view_source` shows it).
    def _compile_writer(self):
        lines, names = ["def write_view(s, ctx):", "    r = ctx.r"], {"OMIT": OMIT}

        def const(prefix, obj):
            name = f"{prefix}{len(names)}"
            names[name] = obj
            return name

        def obj(node, var, indent, item):
            pad = " " * indent
            lines.append(f"{pad}{var} = {{}}")
            for key, child in node.children.items():
                dest = f"{var}[{key!r}]"
                if isinstance(child, Field):
                    src = f"s.{child.ref}" + ("[i]" if item else "")
                    depth = self._lists[child.ref]
                    if type(child.value) is Int:        # the number itself (lists copied)
                        lines.append(f"{pad}{dest} = " + (f"{const('copy', _copy_nested)}({src})"
                                                          if depth else src))
                        continue
                    lines.append(f"{pad}ctx.axes = {const('axes', self._value_axes[child.ref])}")
                    write = const("write", child.value.write)
                    lines.append(f"{pad}{dest} = " + (
                        f"{write}({src}, ctx)" if depth == 0 else
                        f"{const('walk', _walk)}({write}, {src}, ctx, {depth})"))
                elif isinstance(child, Shown):
                    lines.append(f"{pad}v = {const('shown', child.value)}(ctx)")
                    lines.append(f"{pad}if v is not OMIT:")
                    lines.append(f"{pad}    {dest} = v")
                elif isinstance(child, _Obj):
                    sub = f"o{len(lines)}"
                    obj(child, sub, indent, item)
                    lines.append(f"{pad}{dest} = {sub}")
                else:
                    if item:
                        self._fail(f"{key!r}: a list inside a list item")
                    lines.append(f"{pad}{dest} = items = []")
                    lines.append(f"{pad}for i in range({const('axis', child.axis)}.length(r)):")
                    lines.append(f"{pad}    ctx.i = i")
                    obj(child.item, "item", indent + 4, True)
                    lines.append(f"{pad}    items.append(item)")
                    lines.append(f"{pad}ctx.i = None")
        obj(self.layout, "out", 4, False)
        lines.append("    return out")
        source = "\n".join(lines) + "\n"
        exec(compile(source, f"<{self.game} field table: view writer>", "exec"), names)
        return source, names["write_view"]

    def view_source(self) -> str:
        """The source of the view writer made from the table (for reading)."""
        return self._writer_source

    def _write_field(self, row, v, ctx):
        """One field's value (its group's entry, if grouped) in the view."""
        ctx.axes = self._value_axes[row.ref]
        depth = self._lists[row.ref]
        return row.value.write(v, ctx) if depth == 0 else _walk(row.value.write, v, ctx, depth)

    def read(self, view, s, r) -> None:
        """Fill the state `s` (already holding every field, e.g. a fresh one)
        from `view`, in view order, checking each field's type, shape and
        range and each checked Shown value; StateFormatError names the field."""
        self._read_obj(self.layout, view, "", s, r, None)

    def _read_obj(self, node, j, prefix, s, r, i):
        required = [k for k, c in node.children.items()
                    if not isinstance(c, Shown) or c.required]
        optional = [k for k in node.children if k not in required]
        self.f.obj(j, prefix, required, optional=optional,
                   unknown="unknown field" if node.strict else None)
        for key, child in node.children.items():
            path = f"{prefix}.{key}" if prefix else key
            if key not in j:
                continue
            if isinstance(child, Shown):
                ctx = Ctx(r, s, self.f)
                ctx.i = i
                if child.check is not None:
                    problem = child.check(j[key], ctx)
                    if problem:
                        self.f.bad(path, problem)
                if child.read is not None:
                    child.read(j[key], path, ctx)
            elif isinstance(child, _Obj):
                self._read_obj(child, j[key], path, s, r, i)
            elif isinstance(child, _Group):
                n = child.axis.length(r)
                items = j[key]
                if not isinstance(items, list) or len(items) != n:
                    self.f.bad(path, f"must list {n} {key}")
                for k, item in enumerate(items):
                    self._read_obj(child.item, item, f"{path}[{k}]", s, r, k)
            else:
                self._read_field(child, j[key], path, s, r, i)

    def _read_field(self, row, j, path, s, r, i):
        ctx = Ctx(r, s, self.f)
        ctx.i, ctx.axes = i, self._value_axes[row.ref]
        shape = self.shape(row, r)
        lists = shape[len(shape) - row.value.axes - self._lists[row.ref]:len(shape) - row.value.axes]

        def walk(x, field, dims):
            if not dims:
                return row.value.read(x, field, ctx)
            if not isinstance(x, list) or len(x) != dims[0]:
                self.f.bad(field, f"must be a list of {dims[0]} {row.value.noun}")
            return [walk(y, f"{field}[{k}]", dims[1:]) for k, y in enumerate(x)]
        v = walk(j, path, lists)
        if i is None:
            setattr(s, row.ref, v)
        else:
            getattr(s, row.ref)[i] = v

    # -- the C struct ------------------------------------------------------------
    def struct(self, dtype) -> "StructCodec":
        """The codec between struct bytes and the fields, for the struct laid
        out as `dtype` (numpy's reading of the struct's buffer format); refuses
        a struct that does not hold exactly the table's fields in their shapes."""
        return StructCodec(self, dtype)

    # -- ENCODING.md -------------------------------------------------------------
    def markdown(self) -> str:
        """The field list of the game's ENCODING.md (`replace_block` puts it
        between its markers)."""
        out = ["| view | reference | C field | axes | JSON value | kind | meaning |",
               "| --- | --- | --- | --- | --- | --- | --- |"]
        for row in self.rows:
            esc = row.doc.replace("|", "\\|")
            if isinstance(row, Shown):
                out.append(f"| `{row.view}` | | | | | shown | {esc} |")
                continue
            view = (f"`{row.view}`" if row.view else
                    "in " + ", ".join(f"`{v}`" for v in self.shown_in[row.ref])
                    if row.ref in self.shown_in else
                    (f"({row.shown_by})" if row.shown_by else ""))
            axes = " × ".join(row.dims) + (f" (length `{row.count}`)" if row.count else "")
            value = row.value.text() if row.value else (
                f"count of `{row.sum_of}` == {row.count_eq}" if row.count_eq is not None
                else f"sum of `{row.sum_of}`")
            c = row.c_form.text() if row.c_form is not None else f"`{row.c_name}`"
            out.append(f"| {view} | `{row.ref}` | {c} | {axes} | {value} | "
                       f"{row.kind} | {esc} |")
        out += ["", "| axis | C length | reference length | meaning |", "| --- | --- | --- | --- |"]
        for a in self.axes.values():
            ref = a.ref_doc or (a.c_len if a.ref_len is None else a.ref_len)
            out.append(f"| {a.name} | {a.c_len} | {ref} | {a.doc} |")
        bounds = {b.name: b for row in self.state
                  for b in (getattr(row.value, "lo", None), getattr(row.value, "hi", None))
                  if isinstance(b, Bound)}
        if bounds:
            out += ["", "| bound | value |", "| --- | --- |"]
            out += [f"| {b.name} | {b.doc} |" for b in bounds.values()]
        return "\n".join(out) + "\n"


def replace_block(text: str, block: str, begin: str, end: str = "<!-- end generated -->") -> str:
    """`text` with the part between the lines `begin` and `end` replaced by `block`."""
    head, sep, rest = text.partition(begin + "\n")
    _, sep2, tail = rest.partition(end)
    if not sep or not sep2:
        raise ValueError(f"the markers {begin} and {end} are missing")
    return f"{head}{begin}\n{block}{end}{tail}"


class EncodingDoc:
    """A game's ENCODING.md and its generated field list: `updated(text)` is
    the text with the list as the table has it now; `main(argv)` is the
    command `python -m easel.engine.<game>.encoding [--write]` (it prints the
    list, or writes it between the markers)."""

    def __init__(self, table: FieldTable, path, module: str, title: str):
        # title: the game's name as a possessive ("Van Gogh's")
        self.table, self.path, self.module, self.title = table, path, module, title
        self.begin = f"<!-- generated: python -m {module} -->"

    def updated(self, text: str) -> str:
        return replace_block(text, self.table.markdown(), self.begin)

    def main(self, argv=None) -> int:
        import argparse
        ap = argparse.ArgumentParser(prog=f"python -m {self.module}",
                                     description=f"Print {self.title} state field list "
                                                 f"(ENCODING.md, \"State fields\") from the field "
                                                 f"table.")
        ap.add_argument("--write", action="store_true", help="write it into ENCODING.md")
        args = ap.parse_args(argv)
        if args.write:
            self.path.write_text(self.updated(self.path.read_text(encoding="utf-8")),
                                 encoding="utf-8")
        else:
            print(self.table.markdown(), end="")
        return 0


class StructView:
    """The fields of struct bytes under the reference's names, for `FieldTable.view`."""

    def __init__(self, r, player):
        self.r = r
        self._player = player

    def _current_player(self):
        return self._player


class StructCodec:
    """Struct bytes <-> fields. The layout is numpy's structured dtype of the
    struct (from the core's buffer format); the bytes are read and written
    with one `struct.Struct` built from it (explicit pad bytes, so padding is
    zero), the fields being consecutive runs of its items."""

    def __init__(self, table: FieldTable, dtype):
        import struct
        self.table = table
        self.dtype = dtype
        names = set(dtype.names or ())
        # C fields standing for no row of their own: the lengths of counted
        # lists and the parts of fields C keeps in another form.
        self._counts = {row.count for row in table.state if row.count}
        self._parts = {c: row for row in table.state if row.c_form is not None
                       for c in row.c_form.c_fields}
        want = ({row.c_name for row in table.fields if row.c_form is None}
                | self._counts | set(self._parts))
        if names != want:
            table._fail(f"the C struct and the table disagree: only in the struct "
                        f"{sorted(names - want)}, only in the table {sorted(want - names)} "
                        f"(rebuild the core after editing the .pxd)")
        by_c = {row.c_name: row for row in table.fields}
        fmt, pos, start = ["="], 0, 0
        self._runs = {}                 # C name -> (first item, C shape)
        for name in sorted(dtype.names, key=lambda n: dtype.fields[n][1]):
            sub, off = dtype.fields[name][:2]
            row = by_c.get(name) or self._parts.get(name)
            c_shape = () if row is None else tuple(table.axes[a].c_len for a in row.dims)
            code = _STRUCT_CODES.get((sub.base.kind, sub.base.itemsize))
            if sub.shape != c_shape or code is None:
                table._fail(f"field {name!r}: the struct has {sub.base}{list(sub.shape)}, the "
                            f"table integers of shape {list(c_shape)}")
            count = sub.itemsize // sub.base.itemsize
            fmt.append(f"{off - pos}x{count}{code}")
            self._runs[name] = (start, c_shape)
            pos, start = off + sub.itemsize, start + count
        fmt.append(f"{dtype.itemsize - pos}x")
        self._unpack_plan = tuple((row.ref, *self._runs[row.c_name],
                                   tuple(table.axes[a] for a in row.dims))
                                  for row in table.state
                                  if row.count is None and row.c_form is None)
        self._special = tuple(row for row in table.state if row.count or row.c_form is not None)
        self._struct = struct.Struct("".join(fmt))
        self._items = start
        if self._struct.size != dtype.itemsize:
            table._fail(f"the struct's layout reads as {self._struct.size} bytes, "
                        f"not {dtype.itemsize}")

    def limits(self, row) -> tuple[int, int]:
        base = self.dtype.fields[row.c_name][0].base
        bits = 8 * base.itemsize
        return (-(1 << (bits - 1)), (1 << (bits - 1)) - 1) if base.kind == "i" else (0, (1 << bits) - 1)

    def unpack(self, raw: bytes, r, player) -> StructView:
        """The fields of struct bytes, in the reference's shapes (read for
        every view of a core state, so the common shapes have short paths)."""
        flat = self._struct.unpack(raw)
        out = StructView(r, player)
        d = out.__dict__
        for row, start, c_shape, axes in self._unpack_plan:
            if not axes:
                d[row] = flat[start]
            elif len(axes) == 1:
                d[row] = list(flat[start:start + axes[0].length(r)])
            elif len(axes) == 2 and axes[1].ref_len is None:
                step = c_shape[1]
                d[row] = [list(flat[k:k + step])
                          for k in range(start, start + axes[0].length(r) * step, step)]
            else:
                d[row] = _take(flat, start, c_shape, tuple(a.length(r) for a in axes))
        for row in self._special:
            if row.count:
                start = self._runs[row.c_name][0]
                d[row.ref] = list(flat[start:start + flat[self._runs[row.count][0]]])
            else:
                d[row.ref] = row.c_form.unpack(
                    {c: flat[self._runs[c][0]:self._runs[c][0] + _count(self._runs[c][1])]
                     for c in row.c_form.c_fields}, r)
        return out

    def pack(self, s, r) -> bytes:
        """The struct bytes of the state `s` (reference shapes): unused
        entries at their empty values, caches summed, padding zero."""
        flat = [0] * self._items
        for row in self.table.state:
            if row.c_form is not None:
                for c, part in zip(row.c_form.c_fields, row.c_form.pack(getattr(s, row.ref), r)):
                    start = self._runs[c][0]
                    flat[start:start + len(part)] = part
                continue
            start, c_shape = self._runs[row.c_name]
            _put(flat, start, c_shape, getattr(s, row.ref), row.empty)
            if row.count:
                flat[self._runs[row.count][0]] = len(getattr(s, row.ref))
        for row in self.table.caches:
            if row.count_eq is not None:
                # counted over the reference's entries only (C's unused
                # entries are at the empty value, which may be the one counted)
                flat[self._runs[row.c_name][0]] = sum(
                    1 for x in getattr(s, row.sum_of) if x == row.count_eq)
                continue
            start, c_shape = self._runs[row.c_name]
            src_start, src_shape = self._runs[self.table.by_ref[row.sum_of].c_name]
            inner = src_shape[-1]
            for k in range(_count(c_shape)):
                flat[start + k] = sum(flat[src_start + k * inner:src_start + (k + 1) * inner])
        return self._struct.pack(*flat)


# struct-module codes of the integer types a state struct may hold
_STRUCT_CODES = {("i", 1): "b", ("u", 1): "B", ("i", 2): "h", ("u", 2): "H",
                 ("i", 4): "i", ("u", 4): "I", ("i", 8): "q", ("u", 8): "Q"}


def _count(shape) -> int:
    n = 1
    for d in shape:
        n *= d
    return n


def _take(flat, start, c_shape, ref_shape):
    """The reference-shaped nested list of a C array starting at flat[start]."""
    if len(c_shape) == 1:
        return list(flat[start:start + ref_shape[0]])
    step = _count(c_shape[1:])
    return [_take(flat, start + k * step, c_shape[1:], ref_shape[1:]) for k in range(ref_shape[0])]


def _put(flat, start, c_shape, v, empty):
    """Write the (reference-shaped) value v of a C array starting at flat[start],
    its unused entries at `empty`."""
    if not c_shape:
        flat[start] = v
        return
    step = _count(c_shape[1:])
    for k in range(c_shape[0]):
        if k < len(v):
            _put(flat, start + k * step, c_shape[1:], v[k], empty)
        else:
            for j in range(step):
                flat[start + k * step + j] = empty


__all__ = ["Axis", "Bound", "CForm", "Ctx", "EncodingDoc", "Field", "FieldTable", "Flag", "IdSet", "Int", "Name",
           "NameCounts", "OMIT", "Ordinal",
           "Shown", "StructCodec", "StructView", "Value", "replace_block",
           "PUBLIC", "HIDDEN", "DERIVED", "PENDING", "CACHE"]
