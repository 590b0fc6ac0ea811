"""Game registry and game strings.

A game string is ``name`` or ``name(option=value,...)``, as in OpenSpiel.
Each registered game declares its options with a type, a default and a
description, so a bad string is refused with a message that names the
offending part, and `easel games` / the gRPC ListGames can describe them.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Callable

from .errors import GameSpecError

_NAME = re.compile(r"^[a-z][a-z0-9_]*$")


@dataclass(frozen=True)
class Option:
    type: type                       # int, float, bool or str
    default: Any
    doc: str
    check: Callable[[Any], str | None] | None = None   # returns an error text, or None
    # The value names a data file (a deck, a canvas set). Locally it is a path;
    # a network server accepts only the names of files it offers (see
    # server/datafiles.py), so a client can never make it open a path.
    data_file: bool = False

    def parse(self, game: str, name: str, text: str) -> Any:
        text = text.strip()
        try:
            if self.type is bool:
                low = text.lower()
                if low in ("true", "1", "yes"):
                    value = True
                elif low in ("false", "0", "no"):
                    value = False
                else:
                    raise ValueError
            elif self.type is str:
                value = text
            else:
                value = self.type(text)
        except ValueError:
            raise GameSpecError(
                f"{game}: option '{name}' needs {'an' if self.type is int else 'a'} "
                f"{self.type.__name__}, got {text!r}") from None
        return self.validate(game, name, value)

    def validate(self, game: str, name: str, value: Any) -> Any:
        if self.check is not None:
            problem = self.check(value)
            if problem:
                raise GameSpecError(f"{game}: option '{name}'={value!r}: {problem}")
        return value


@dataclass(frozen=True)
class GameEntry:
    """A registered game: its options and the kit's three parts (engine/kit.py):
    `facts(params)`, `capabilities` and `hooks`."""
    name: str
    long_name: str
    description: str
    min_players: int
    max_players: int
    options: dict[str, Option]
    facts: Callable[[dict], Any]                  # params -> kit.GameFacts
    capabilities: Any                             # kit.Capabilities
    hooks: Any                                    # kit.GameHooks
    placeholder_data: tuple[str, ...] = ()        # what parts of the data are guesses
    left_out: tuple[str, ...] = ()                # rules not implemented, and why
    players_option: str | None = "players"        # the option that sets the player count
    check: Callable[[dict], str | None] | None = None   # cross-option validation

    @property
    def has_core(self) -> bool:
        return self.hooks.core is not None

    @property
    def implementations(self) -> list[str]:
        return ["core", "reference"] if self.has_core else ["reference"]

    @property
    def search_defaults(self) -> dict:
        return dict(self.hooks.search_defaults)


_REGISTRY: dict[str, GameEntry] = {}


def register(entry: GameEntry) -> GameEntry:
    """Add a game, after checking its hooks against its declared capabilities
    (a GameSpecError names what is missing)."""
    from .kit import Capabilities, check_hooks
    if not _NAME.match(entry.name):
        raise GameSpecError(f"game name {entry.name!r} must match {_NAME.pattern}")
    if entry.name in _REGISTRY:
        raise GameSpecError(f"game {entry.name!r} registered twice")
    if not isinstance(entry.capabilities, Capabilities):
        raise GameSpecError(f"game {entry.name!r}: capabilities must be a Capabilities")
    if not callable(entry.facts):
        raise GameSpecError(f"game {entry.name!r}: facts must be a function of the params")
    check_hooks(entry.name, entry.capabilities, entry.hooks)
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
    if not _NAME.match(name):
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


def canonical_string(entry: GameEntry, params: dict) -> str:
    """The game string with every non-default option, in name order."""
    parts = []
    for key in sorted(entry.options):
        value = params[key]
        if value != entry.options[key].default:
            if isinstance(value, bool):
                value = "true" if value else "false"
            parts.append(f"{key}={value}")
    return f"{entry.name}({','.join(parts)})" if parts else entry.name


def load_game(spec: str, implementation: str = "core"):
    """Load a game by its game string.

    implementation: "core" (the Cython core, default) or "reference" (the
    plain-Python executable specification).
    """
    from .game import build_core_game, build_reference_game
    entry, params = parse_game_string(spec)
    if implementation == "core":
        if not entry.has_core:
            raise GameSpecError(f"{entry.name} has no core implementation yet; "
                                f"use implementation='reference'")
        return build_core_game(entry, params)
    if implementation == "reference":
        return build_reference_game(entry, params)
    raise GameSpecError(
        f"unknown implementation {implementation!r}; use 'core' or 'reference'")
