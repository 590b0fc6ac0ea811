"""Game registry and game strings.

A game string is ``name`` or ``name(option=value,...)``, as in OpenSpiel.
Each registered game declares its options with a type, a default and a
description, so a bad string is refused with a message that names the
offending part, and `easel games` / the gRPC ListGames can describe them.
"""
from __future__ import annotations

import re

from .build import build, check_entry
from .errors import GameSpecError
from .kit import GAME_NAME, GameEntry

_REGISTRY: dict[str, GameEntry] = {}


def register(entry: GameEntry) -> GameEntry:
    """Add a game, after checking it (engine.build.check_entry: its hooks
    against its declared capabilities; a GameSpecError names what is wrong)."""
    check_entry(entry)
    if entry.name in _REGISTRY:
        raise GameSpecError(f"game {entry.name!r} registered twice")
    _REGISTRY[entry.name] = entry
    return entry


def unregister(name: str) -> None:
    """Remove a game (for tests that register a game of their own)."""
    _REGISTRY.pop(name, None)


def registered_games() -> list[GameEntry]:
    return [_REGISTRY[k] for k in sorted(_REGISTRY)]


def game_entry(name: str) -> GameEntry:
    try:
        return _REGISTRY[name]
    except KeyError:
        known = ", ".join(sorted(_REGISTRY))
        raise GameSpecError(f"unknown game {name!r}; known games: {known}") from None


def split_game_string(spec: str) -> tuple[GameEntry, list[tuple[str, str]]]:
    """``"vangogh(players=3)"`` -> (entry, [("players", "3")]): the game and
    its options as written (known and unique, but not yet parsed), so that a
    caller may vet some values (a data file's name) before any is used."""
    if not isinstance(spec, str):
        raise GameSpecError(f"a game string must be text, got {type(spec).__name__}")
    text = spec.strip()
    m = re.fullmatch(r"([A-Za-z0-9_]+)\s*(?:\((.*)\))?", text, re.S)
    if not m:
        raise GameSpecError(
            f"malformed game string {spec!r}: expected name or name(option=value,...)")
    name, body = m.group(1), m.group(2)
    if body is not None:
        depth = 0
        for ch in body:
            depth += (ch == "(") - (ch == ")")
            if depth < 0:
                break
        if depth != 0:
            raise GameSpecError(f"malformed game string {spec!r}: unbalanced or misplaced parentheses")
    if not GAME_NAME.fullmatch(name):
        raise GameSpecError(f"malformed game name {name!r} in {spec!r}")
    entry = game_entry(name)
    pairs: list[tuple[str, str]] = []
    seen = set()
    if body is not None and body.strip():
        for part in body.split(","):
            if "=" not in part:
                raise GameSpecError(f"{name}: expected option=value, got {part.strip()!r}")
            key, value = (x.strip() for x in part.split("=", 1))
            if key not in entry.options:
                known = ", ".join(sorted(entry.options)) or "none"
                raise GameSpecError(f"{name}: unknown option {key!r}; options: {known}")
            if key in seen:
                raise GameSpecError(f"{name}: option {key!r} given twice")
            seen.add(key)
            pairs.append((key, value))
    return entry, pairs


def game_params(entry: GameEntry, pairs) -> dict:
    """The full parameter dict (defaults filled) of options given as text,
    each parsed and checked, then the game's cross-option check."""
    name = entry.name
    params = {k: o.default for k, o in entry.options.items()}
    seen = set()
    for key, value in pairs:
        seen.add(key)
        params[key] = entry.options[key].parse(name, key, value)
    for key, opt in entry.options.items():
        if key not in seen:
            opt.validate(name, key, params[key])
    if entry.check is not None:
        problem = entry.check(params)
        if problem:
            raise GameSpecError(f"{name}: {problem}")
    return params


def parse_game_string(spec: str) -> tuple[GameEntry, dict]:
    """``"vangogh(players=3)"`` -> (entry, full parameter dict with defaults)."""
    entry, pairs = split_game_string(spec)
    return entry, game_params(entry, pairs)


def load_game(spec: str, implementation: str = "core"):
    """Load a game by its game string.

    implementation: "core" (the Cython core, default) or "reference" (the
    plain-Python executable specification).
    """
    entry, params = parse_game_string(spec)
    return build(entry, params, implementation)
