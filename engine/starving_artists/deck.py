"""Canvas decks: load and validate a canvas file, choose the deck.

A canvas file is JSON: {"source": str, "colors": [colour...], "canvases": [canvas...]},
canvas = {"id": str, "title": str, "artist": str, "year": str, "stars": int,
"food": int, "paint": int, "squares": [[colour] or [colour, colour], ...]}.
Colours are red, orange, yellow, green, blue, violet (the shipped file says
"purple", the same colour) and black. Every problem is a DataFileError naming
the file, the canvas (index and id) and the field.

The deck option (RULINGS.md §3): "38" (default) takes the rule's 38 canvases
from the shipped file — sorted by id, those at indices floor(k * 148 / 38),
k = 0..37; "all" takes every canvas of the shipped file, sorted by id; any
other value is the path of a canvas file whose canvases are all used, sorted
by id. A canvas's index in the chosen deck is its id in actions and chance
outcomes (ENCODING.md).
"""
from __future__ import annotations

import os
from dataclasses import dataclass

from easel.engine.datafiles import read_json
from easel.engine.errors import DataFileError

COLOURS = ("red", "orange", "yellow", "green", "blue", "violet", "black")
ALIASES = {"purple": "violet", "clear": None}
MAX_SQUARES = 16        # mirrors ENCODING.md: the PAINT_AT id reserves 16 squares per canvas
MAX_CARDS = 160         # mirrors ENCODING.md: canvas ids in actions are < 160
SHIPPED_PATH = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "canvases.json")
DEFAULT_DECK = "38"
RULE_DECK_SIZE = 38


@dataclass(frozen=True)
class Canvas:
    index: int                          # position in the chosen deck
    id: str
    title: str
    artist: str
    year: str
    stars: int
    food: int
    paint: int
    squares: tuple[tuple[int, ...], ...]   # accepted colour indices per square


@dataclass(frozen=True)
class Deck:
    spec: str                   # the deck option that chose it
    path: str
    source: str
    cards: tuple[Canvas, ...]

    def index_of(self, printed_id) -> int:
        """The deck index of the canvas whose printed id (the canvas file's
        `id`) is `printed_id`, -1 when no canvas of the deck has it. The
        views name canvases by that id; the rules count them by index."""
        ids = self.__dict__.get("_ids")
        if ids is None:
            ids = {c.id: c.index for c in self.cards}
            object.__setattr__(self, "_ids", ids)
        return ids.get(printed_id, -1) if isinstance(printed_id, str) else -1

    def label(self, i: int) -> str:
        """The canvas's title, with its index when two canvases share it."""
        c = self.cards[i]
        if sum(1 for d in self.cards if d.title == c.title) > 1:
            return f"{c.title} #{i}"
        return c.title


_FILES: dict[str, list[dict]] = {}
_DECKS: dict[str, Deck] = {}


def _colour(name, where):
    if not isinstance(name, str):
        raise DataFileError(f"{where} must be a colour name, got {name!r}")
    key = ALIASES.get(name.strip().lower(), name.strip().lower())
    if key not in COLOURS:
        raise DataFileError(f"{where}: unknown colour {name!r}; colours: {', '.join(COLOURS)} "
                            f"(purple is violet)")
    return COLOURS.index(key)


def _int(value, where, lo, hi):
    if not isinstance(value, int) or isinstance(value, bool) or not lo <= value <= hi:
        raise DataFileError(f"{where} must be an integer from {lo} to {hi}, got {value!r}")
    return value


def _text(value, where, required=True):
    if value is None and not required:
        return ""
    if not isinstance(value, str) or (required and not value.strip()):
        raise DataFileError(f"{where} must be non-empty text, got {value!r}")
    return value


def _year(value, where):
    if isinstance(value, bool) or not isinstance(value, (str, int)):
        raise DataFileError(f"{where} must be text or a number, got {value!r}")
    return str(value)


def parse_canvases(data, path: str = "<canvases>") -> list[dict]:
    """Validate a canvas file's content; returns the canvases as checked dicts
    (colours as indices), in file order."""
    if not isinstance(data, dict):
        raise DataFileError(f"{path}: a canvas file must hold a JSON object, got "
                            f"{type(data).__name__}")
    source = data.get("source", "")
    if not isinstance(source, str):
        raise DataFileError(f"{path}: 'source' must be text")
    canvases = data.get("canvases")
    if not isinstance(canvases, list) or not canvases:
        raise DataFileError(f"{path}: 'canvases' must be a non-empty list")
    if len(canvases) > MAX_CARDS:
        raise DataFileError(f"{path}: 'canvases' holds {len(canvases)} canvases; at most "
                            f"{MAX_CARDS}")
    out, seen = [], set()
    for i, c in enumerate(canvases):
        where = f"{path}: canvases[{i}]"
        if not isinstance(c, dict):
            raise DataFileError(f"{where} must be an object")
        cid = _text(c.get("id"), f"{where}.id")
        where = f"{path}: canvas {i} ({cid!r})"
        if cid in seen:
            raise DataFileError(f"{where}.id: the id is used twice")
        seen.add(cid)
        squares = c.get("squares")
        if not isinstance(squares, list) or not 1 <= len(squares) <= MAX_SQUARES:
            raise DataFileError(f"{where}.squares must be a list of 1 to {MAX_SQUARES} squares")
        sq = []
        for k, s in enumerate(squares):
            sw = f"{where}.squares[{k}]"
            if not isinstance(s, list) or not 1 <= len(s) <= 2:
                raise DataFileError(f"{sw} must list one colour or two (a split square), "
                                    f"got {s!r}")
            cols = [_colour(x, f"{sw}[{j}]") for j, x in enumerate(s)]
            if len(cols) == 2 and cols[0] == cols[1]:
                raise DataFileError(f"{sw}: a split square names two different colours")
            sq.append(tuple(sorted(cols)))
        out.append(dict(
            id=cid, title=_text(c.get("title"), f"{where}.title"),
            artist=_text(c.get("artist", ""), f"{where}.artist", required=False),
            year=_year(c.get("year", ""), f"{where}.year"),
            stars=_int(c.get("stars"), f"{where}.stars", 0, 9),
            food=_int(c.get("food"), f"{where}.food", 0, 9),
            paint=_int(c.get("paint"), f"{where}.paint", 0, 150),
            squares=tuple(sq)))
    return out


def _read(path: str) -> tuple[list[dict], str]:
    if path in _FILES:
        return _FILES[path]
    data = read_json(path, "canvas file")
    canvases = parse_canvases(data, path)
    _FILES[path] = (canvases, data.get("source", ""))
    return _FILES[path]


def load_deck(spec: str = DEFAULT_DECK) -> Deck:
    """The deck the option value `spec` names ("38", "all" or a path), cached."""
    spec = (spec or DEFAULT_DECK).strip()
    if spec in _DECKS:
        return _DECKS[spec]
    path = SHIPPED_PATH if spec in (DEFAULT_DECK, "all") else spec
    canvases, source = _read(path)
    chosen = sorted(canvases, key=lambda c: c["id"])
    if spec == DEFAULT_DECK:
        total = len(chosen)
        if total < RULE_DECK_SIZE:
            raise DataFileError(f"{path}: the 38-canvas rule needs at least 38 canvases, "
                                f"the file has {total}")
        # RULINGS.md §3: the rule's 38 of the 148, evenly spread over the id order.
        chosen = [chosen[k * total // RULE_DECK_SIZE] for k in range(RULE_DECK_SIZE)]
    cards = tuple(Canvas(index=i, **c) for i, c in enumerate(chosen))
    deck = Deck(spec=spec, path=path, source=source, cards=cards)
    _DECKS[spec] = deck
    return deck
