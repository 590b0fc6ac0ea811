"""Field checks for reading a game's JSON view back into a state.

Every game's `state_from_view` checks a client's JSON field by field, and
each error must name the field (docs/adding-a-game.md, "The JSON view").
The checks are the same in every game, so they live here once; a game binds
them to its name with `ViewFields("couleurs_de_paris")`.
"""

from __future__ import annotations

from easel.engine.errors import StateFormatError


def is_int(v) -> bool:
    """A JSON integer: `true` and `false` are not numbers here."""
    return isinstance(v, int) and not isinstance(v, bool)


class ViewFields:
    def __init__(self, game: str):
        self.game = game

    def bad(self, field, problem):
        raise StateFormatError(f"{self.game} state: field '{field}': {problem}")

    def int(self, v, field, lo, hi):
        if not is_int(v) or not lo <= v <= hi:
            self.bad(field, f"must be an integer from {lo} to {hi}, got {v!r}")
        return v

    def bool(self, v, field):
        if not isinstance(v, bool):
            self.bad(field, f"must be true or false, got {v!r}")
        return int(v)

    def obj(self, v, field, keys, optional=(), unknown="unknown field"):
        """An object with every one of `keys`, perhaps some of `optional`, and
        nothing else (`unknown` is the complaint for anything else; None
        lets other keys pass)."""
        if not isinstance(v, dict):
            self.bad(field, f"must be an object, got {type(v).__name__}")
        for k in keys:
            if k not in v:
                self.bad(f"{field}.{k}" if field else k, "missing")
        for k in v if unknown is not None else ():
            if k not in keys and k not in optional:
                self.bad(f"{field}.{k}" if field else k, unknown)
        return v

    def list(self, v, field, length=None, most=None):
        """A list, of exactly `length` items or at most `most` when given."""
        if (not isinstance(v, list) or (length is not None and len(v) != length)
                or (most is not None and len(v) > most)):
            size = (f" of {length} items" if length is not None
                    else f" of at most {most} items" if most is not None else "")
            self.bad(field, f"must be a list{size}")
        return v

    def choice(self, v, field, names, what, allow_none=False):
        """The index of `v` in `names`; None gives -1 when allowed."""
        if v is None and allow_none:
            return -1
        if v not in names:
            self.bad(field, f"unknown {what} {v!r}; {what}s: {', '.join(names)}")
        return names.index(v)


class Problems:
    """The invariants a loaded position breaks, collected so that one error
    names them all (a client fixing its position sees every field at fault,
    not only the first). Each problem names its fields (the first is the one
    to change, the others those it was compared with) and, where one value of
    that field agrees with the rest, that value."""

    def __init__(self, game: str):
        self.game = game
        self.items: list[tuple[tuple[str, ...], str, object]] = []

    def add(self, fields, problem: str, consistent=None) -> None:
        fields = (fields,) if isinstance(fields, str) else tuple(fields)
        self.items.append((fields, problem, consistent))

    def __bool__(self) -> bool:
        return bool(self.items)

    def text(self, item) -> str:
        fields, problem, consistent = item
        head = f"field '{fields[0]}'"
        if len(fields) > 1:
            head += " (with " + ", ".join(f"'{f}'" for f in fields[1:]) + ")"
        tail = "" if consistent is None else f" (consistent value: {consistent})"
        return f"{head}: {problem}{tail}"

    def raise_any(self) -> None:
        """Raise one UnreachablePositionError listing every problem, if any."""
        from easel.engine.errors import UnreachablePositionError
        if not self.items:
            return
        if len(self.items) == 1:
            message = f"{self.game} state: {self.text(self.items[0])}"
        else:
            message = (f"{self.game} state: {len(self.items)} problems: "
                       + "; ".join(f"({k}) {self.text(x)}"
                                   for k, x in enumerate(self.items, start=1)))
        raise UnreachablePositionError(message, self.items)
