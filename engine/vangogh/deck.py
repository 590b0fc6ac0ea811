"""Painting decks: load and validate a deck file.

A deck file is JSON: {"placeholder": bool, "description": str, "cards": [card...]}
with card = {"id": i, "name": str, "frame": [first, second, third],
"spaces": [{"orientation": "lying down"|"sideway"|"upright"|"upside down",
"bonus": 0|1}, ...]}. Card ids must be 0..n-1 in file order, so a card's id is
its index (the CARD chance outcome id). Every problem is reported as a
DataFileError naming the file, the card and the field.
"""
from __future__ import annotations

import os
from dataclasses import dataclass

from easel.engine.datafiles import placeholder_header, read_json
from easel.engine.errors import DataFileError

ORIENTATIONS = ("lying down", "sideway", "upright", "upside down")
MAX_SPACES = 7      # mirrors ENCODING.md: the PAINT action id reserves 7 spaces per painting
MAX_CARDS = 32      # mirrors ENCODING.md: the state's deck flags
PLACEHOLDER_PATH = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data",
                                "paintings-placeholder.json")


@dataclass(frozen=True)
class Card:
    id: int
    name: str
    frame: tuple[int, int, int]     # majority scores for places 1, 2, 3
    orient: tuple[int, ...]         # required orientation per space
    bonus: tuple[int, ...]          # +1 EP per space (0 or 1)


@dataclass(frozen=True)
class Deck:
    path: str
    placeholder: bool
    description: str
    cards: tuple[Card, ...]


_CACHE: dict[str, Deck] = {}


def _int(value, where, lo, hi):
    if not isinstance(value, int) or isinstance(value, bool) or not lo <= value <= hi:
        raise DataFileError(f"{where} must be an integer from {lo} to {hi}, got {value!r}")
    return value


def parse_deck(data, path: str = "<deck>") -> Deck:
    if not isinstance(data, dict):
        raise DataFileError(f"{path}: a deck file must hold a JSON object, got {type(data).__name__}")
    cards = data.get("cards")
    if not isinstance(cards, list) or not cards:
        raise DataFileError(f"{path}: 'cards' must be a non-empty list")
    if len(cards) < 3:
        raise DataFileError(f"{path}: 'cards' holds {len(cards)} cards; the table needs at least 3")
    if len(cards) > MAX_CARDS:
        raise DataFileError(f"{path}: 'cards' holds {len(cards)} cards; at most {MAX_CARDS}")
    out = []
    for i, c in enumerate(cards):
        where = f"{path}: cards[{i}]"
        if not isinstance(c, dict):
            raise DataFileError(f"{where} must be an object")
        if c.get("id", i) != i:
            raise DataFileError(f"{where}.id must equal its position {i}, got {c.get('id')!r}")
        name = c.get("name", f"painting {i}")
        if not isinstance(name, str):
            raise DataFileError(f"{where}.name must be text")
        frame = c.get("frame")
        if not isinstance(frame, list) or len(frame) != 3:
            raise DataFileError(f"{where}.frame must be a list of 3 scores, got {frame!r}")
        frame = tuple(_int(v, f"{where}.frame[{k}]", 0, 99) for k, v in enumerate(frame))
        spaces = c.get("spaces")
        if not isinstance(spaces, list) or not 1 <= len(spaces) <= MAX_SPACES:
            raise DataFileError(f"{where}.spaces must be a list of 1 to {MAX_SPACES} spaces")
        orient, bonus = [], []
        for k, sp in enumerate(spaces):
            sw = f"{where}.spaces[{k}]"
            if not isinstance(sp, dict):
                raise DataFileError(f"{sw} must be an object")
            o = sp.get("orientation")
            if o not in ORIENTATIONS:
                raise DataFileError(f"{sw}.orientation must be one of {', '.join(ORIENTATIONS)}; "
                                    f"got {o!r}")
            orient.append(ORIENTATIONS.index(o))
            bonus.append(_int(sp.get("bonus", 0), f"{sw}.bonus", 0, 1))
        out.append(Card(i, name, frame, tuple(orient), tuple(bonus)))
    placeholder, description = placeholder_header(data, path)
    return Deck(path, placeholder, description, tuple(out))


def load_deck(path: str = "") -> Deck:
    """The deck in `path` (the placeholder deck when empty), validated, cached by path."""
    path = path or PLACEHOLDER_PATH
    if path in _CACHE:
        return _CACHE[path]
    data = read_json(path, "painting deck file")
    deck = parse_deck(data, path)
    _CACHE[path] = deck
    return deck
