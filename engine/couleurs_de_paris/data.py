"""Board and painting data: load and validate a data file.

A data file is JSON (see data/placeholder.json, written by
data/generate_placeholder.py):

    {"placeholder": bool, "description": str,
     "wheel": [10 action names clockwise, starting with "red"],
     "lower_spaces": [spaces of lower-board positions 0..9; 0 = printed Forbidden Action],
     "forbidden_tiles": {"2": [spaces covered per position], "3": [...]},
     "tracks": {"paint tube": [8 amounts], "palette": [8], "brush": [8]},
     "supply": {"red": n, ..., "white": n, "black": n},
     "paintings": [{"id": i, "name": str, "value": v, "spaces": [9 colour names]}, ...]}

Painting ids must be 0..n-1 in file order (a painting's id is its chance
outcome id). Every problem is a DataFileError naming the file, the item and
the field.
"""
from __future__ import annotations

import os
from dataclasses import dataclass

from easel.engine.datafiles import placeholder_header, read_json
from easel.engine.errors import DataFileError

# Mirrors of ENCODING.md (the action space reserves 32 paintings of 9 spaces).
MAX_PAINTINGS = 32
SPACES = 9
POSITIONS = 10
TRACK_LEN = 8
ACTION_NAMES = ("red", "orange", "yellow", "green", "blue", "violet", "black", "improve",
                "take painting", "paint")
PAINT_COLOURS = ("red", "orange", "yellow", "green", "blue", "violet")
SUPPLY_COLOURS = PAINT_COLOURS + ("white", "black")
TOOLS = ("paint tube", "palette", "brush")
PLACEHOLDER_PATH = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data",
                                "placeholder.json")


@dataclass(frozen=True)
class Painting:
    id: int
    name: str
    value: int
    spaces: tuple[int, ...]          # colour index (0..5) per space


@dataclass(frozen=True)
class BoardData:
    path: str
    placeholder: bool
    description: str
    wheel: tuple[int, ...]           # action kind (0..9) at each wheel slot, clockwise
    lower_spaces: tuple[int, ...]    # printed spaces per lower-board position
    tiles: dict                      # players -> spaces covered per position
    tracks: tuple[tuple[int, ...], ...]   # per tool, amount at levels 1..8
    supply: tuple[int, ...]          # per colour (SUPPLY_COLOURS order)
    paintings: tuple[Painting, ...]


_CACHE: dict[str, BoardData] = {}


def _int(value, where, lo, hi):
    if not isinstance(value, int) or isinstance(value, bool) or not lo <= value <= hi:
        raise DataFileError(f"{where} must be an integer from {lo} to {hi}, got {value!r}")
    return value


def _int_list(value, where, length, lo, hi):
    if not isinstance(value, list) or len(value) != length:
        raise DataFileError(f"{where} must be a list of {length} integers, got {value!r}")
    return tuple(_int(v, f"{where}[{i}]", lo, hi) for i, v in enumerate(value))


def parse_data(data, path: str = "<data>") -> BoardData:
    if not isinstance(data, dict):
        raise DataFileError(f"{path}: a data file must hold a JSON object, "
                            f"got {type(data).__name__}")
    for key in ("wheel", "lower_spaces", "forbidden_tiles", "tracks", "supply", "paintings"):
        if key not in data:
            raise DataFileError(f"{path}: field '{key}' is missing")
    wheel = data["wheel"]
    if not isinstance(wheel, list) or sorted(map(str, wheel)) != sorted(ACTION_NAMES):
        raise DataFileError(f"{path}: 'wheel' must list each of the 10 actions "
                            f"({', '.join(ACTION_NAMES)}) once, got {wheel!r}")
    if wheel[0] != "red":
        raise DataFileError(f"{path}: wheel[0] must be 'red' (red starts facing position 0), "
                            f"got {wheel[0]!r}")
    lower = _int_list(data["lower_spaces"], f"{path}: lower_spaces", POSITIONS, 0, 3)
    if lower[0] != 0:
        raise DataFileError(f"{path}: lower_spaces[0] must be 0: red starts facing a printed "
                            f"Forbidden Action")
    forbidden = [q for q in range(POSITIONS) if lower[q] == 0]
    if forbidden != [0, 5]:
        raise DataFileError(f"{path}: lower_spaces must be 0 exactly at positions 0 and 5 "
                            f"(the printed Forbidden Actions, a half-turn apart), got "
                            f"{list(lower)}")
    tiles_in = data["forbidden_tiles"]
    if not isinstance(tiles_in, dict) or set(tiles_in) != {"2", "3"}:
        raise DataFileError(f"{path}: 'forbidden_tiles' must map \"2\" and \"3\" (players) to "
                            f"the spaces covered per position")
    tiles = {4: (0,) * POSITIONS}
    for key in ("2", "3"):
        cover = _int_list(tiles_in[key], f"{path}: forbidden_tiles.{key}", POSITIONS, 0, 3)
        for q in range(POSITIONS):
            if cover[q] > lower[q]:
                raise DataFileError(f"{path}: forbidden_tiles.{key}[{q}] covers {cover[q]} "
                                    f"spaces; position {q} has {lower[q]}")
        if sum(cover) > 4:
            raise DataFileError(f"{path}: forbidden_tiles.{key} uses {sum(cover)} tiles; "
                                f"the box has 4")
        tiles[int(key)] = cover
    tracks_in = data["tracks"]
    if not isinstance(tracks_in, dict) or set(tracks_in) != set(TOOLS):
        raise DataFileError(f"{path}: 'tracks' must have exactly {', '.join(TOOLS)}")
    tracks = tuple(_int_list(tracks_in[t], f"{path}: tracks.{t}", TRACK_LEN, 1, 20)
                   for t in TOOLS)
    sup = data["supply"]
    if not isinstance(sup, dict) or set(sup) != set(SUPPLY_COLOURS):
        raise DataFileError(f"{path}: 'supply' must give a count for each of "
                            f"{', '.join(SUPPLY_COLOURS)}")
    supply = tuple(_int(sup[c], f"{path}: supply.{c}", 0, 99) for c in SUPPLY_COLOURS)
    for c in (0, 2, 4):
        if supply[c] < 4:
            raise DataFileError(f"{path}: supply.{SUPPLY_COLOURS[c]} must be at least 4 "
                                f"(each player starts with one)")
    paintings = data["paintings"]
    if not isinstance(paintings, list) or not 4 <= len(paintings) <= MAX_PAINTINGS:
        raise DataFileError(f"{path}: 'paintings' must be a list of 4 to {MAX_PAINTINGS} "
                            f"paintings")
    out = []
    for i, c in enumerate(paintings):
        where = f"{path}: paintings[{i}]"
        if not isinstance(c, dict):
            raise DataFileError(f"{where} must be an object")
        if c.get("id", i) != i:
            raise DataFileError(f"{where}.id must equal its position {i}, got {c.get('id')!r}")
        name = c.get("name", f"painting {i}")
        if not isinstance(name, str):
            raise DataFileError(f"{where}.name must be text")
        spaces = c.get("spaces")
        if not isinstance(spaces, list) or len(spaces) != SPACES:
            raise DataFileError(f"{where}.spaces must be a list of {SPACES} colours")
        cols = []
        for k, sp in enumerate(spaces):
            if sp not in PAINT_COLOURS:
                raise DataFileError(f"{where}.spaces[{k}] must be one of "
                                    f"{', '.join(PAINT_COLOURS)}; got {sp!r}")
            cols.append(PAINT_COLOURS.index(sp))
        value = _int(c.get("value"), f"{where}.value", 0, 99)
        out.append(Painting(i, name, value, tuple(cols)))
    placeholder, description = placeholder_header(data, path)
    return BoardData(path, placeholder, description,
                     tuple(ACTION_NAMES.index(w) for w in wheel), lower, tiles, tracks,
                     supply, tuple(out))


def load_data(path: str = "") -> BoardData:
    """The data in `path` (the placeholder file when empty), validated, cached by path."""
    path = path or PLACEHOLDER_PATH
    if path in _CACHE:
        return _CACHE[path]
    data = read_json(path, "Couleurs de Paris data file")
    board = parse_data(data, path)
    _CACHE[path] = board
    return board
