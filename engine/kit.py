"""The game-author kit: what a game declares to join Easel (docs/adding-a-game.md).

A game package registers one `GameEntry` (`engine.registry.register`) made of:

- its `Option`s: the options of its game string, each typed and checked;
- `GameFacts`: the facts both implementations read (players, action-space
  sizes, game length, utility bounds, score scale), written once by the
  game's `facts(params)` function. The reference's `Game` reports them, and
  the core's `GameC` is filled from them (`CoreGame.from_facts`), so the two
  can never disagree. A fact is a field here and a field of `FactsC` in
  engine/contract.pxd, nothing else (tests/test_kit.py checks the two agree).
- `Capabilities`: what the game offers, declared, never found by trying.
  The server's ListGames, `easel games`, the bots and the shared test suites
  read these flags.
- `GameHooks`: the modules that carry the game's code, by dotted name.
  `engine.build` checks them against the protocols below when the game
  registers (the pure-Python hooks) and when its core is first built (the
  compiled hook), with a message that names the game, the hook and what is
  missing.

The kit is a leaf: it imports nothing of Easel's but the errors, so every
other module of the engine may import it.
"""
from __future__ import annotations

import importlib
import math
import re
from dataclasses import dataclass, field, fields
from typing import Any, Callable, Mapping, Protocol, runtime_checkable

from .errors import DataFileError, GameSpecError


@dataclass(frozen=True)
class GameFacts:
    """One game instance's immutable facts (OpenSpiel's `Game` role).

    Every field is a fact: `Game` gets an accessor of its name, and the C
    struct `FactsC` (engine/contract.pxd) holds a field of the same name and
    type (int: C int, float: C double)."""
    num_players: int
    num_distinct_actions: int        # size of the decision action space
    max_chance_outcomes: int         # size of the chance outcome space (0: no chance)
    max_game_length: int             # most decisions in one game (chance outcomes not counted)
    min_utility: float               # bounds of returns()
    max_utility: float
    score_scale: float = 0.0         # typical spread of final scores; 0: the game keeps none
    # A solo game's loss returns min_utility + loss_span * progress, the progress toward
    # its goal in [0, 1]; the search's loss_weight reads the progress back (0: none).
    loss_span: float = 0.0


@dataclass(frozen=True)
class Capabilities:
    """What a game offers beyond the contract every game honours."""
    structured_states: bool = False   # states load from their JSON view (`state_from_json`)
    notation: bool = False            # a table notation (`to_notation` / `state_from_notation`)
    scores: bool = False              # players have points (`scores()`, expected scores)
    rollout_policy: bool = False      # the core has a rollout policy (GameC.rollout_action)
    heuristic_bot: bool = False       # a rule-of-thumb player (policies.heuristic)
    hidden_information: bool = False  # players hide information beyond future chance

    def names(self) -> list[str]:
        """The offered capabilities, by field name."""
        return [f.name for f in fields(self) if getattr(self, f.name)]


# -- the hook protocols ----------------------------------------------------------

@runtime_checkable
class Codec(Protocol):
    """Action text from the JSON view, shared by both implementations.

    Moves are read back by exact match against the texts of the legal actions
    (textio.string_to_action; case and spacing aside), so a codec has no
    parser: a looser form would read text that names no legal action as one
    (a number out of range as some other slot). `check_hooks` refuses a codec
    that defines `string_to_action`."""
    def action_to_string(self, view: dict, action: int) -> str: ...
    def state_to_string(self, view: dict) -> str: ...


@runtime_checkable
class Notation(Protocol):
    """The table notation: a position as a person writes it, and back."""
    def write(self, game, view: dict) -> str: ...
    def read(self, game, text: str) -> dict: ...


@runtime_checkable
class Policies(Protocol):
    """Game knowledge for the baseline bots: a rule-of-thumb move.

    Optional: `evaluate(state) -> list[float]`, every player's expected return
    of a non-terminal state, within [min_utility, max_utility], or None for no
    estimate. The greedy bot scores the end of its turn with it where the
    state's own `evaluate()` answers None (a game whose core has no evaluation
    in C). `pairwise_estimate` turns position values into such returns."""
    def heuristic(self, state, rng) -> int: ...


@runtime_checkable
class CoreModule(Protocol):
    """A compiled core: fills a CoreGame, initialises states, shows them as JSON."""
    def make_core(self, params: dict, facts: GameFacts): ...
    def init_state(self, core, state) -> None: ...
    def state_to_json(self, game, raw: bytes) -> dict: ...


@runtime_checkable
class CoreLoader(Protocol):
    def state_from_json(self, game, view: dict): ...


@dataclass(frozen=True)
class GameHooks:
    """Where a game's code lives, by dotted module name ("module:Class" for the reference)."""
    reference: str                          # the ReferenceState subclass
    codec: str                              # a Codec module
    core: str | None = None                 # a CoreModule (compiled; None: reference only)
    notation: str | None = None             # a Notation module (capabilities.notation)
    policies: str | None = None             # a Policies module (capabilities.heuristic_bot)
    search_defaults: Mapping[str, Any] = field(default_factory=dict)   # measured MCTS options


def import_hook(game: str, hook: str, dotted: str):
    """The object `dotted` names ("module" or "module:attribute"), imported;
    a GameSpecError names the game and the hook when it does not import."""
    module_name, _, attr = dotted.partition(":")
    try:
        module = importlib.import_module(module_name)
    except ImportError as e:
        raise GameSpecError(f"game {game!r}: hooks.{hook} names {dotted!r}, which does not "
                            f"import ({e})") from None
    if not attr:
        return module
    try:
        return getattr(module, attr)
    except AttributeError:
        raise GameSpecError(f"game {game!r}: hooks.{hook}: module {module_name!r} has no "
                            f"{attr!r}") from None


# -- options and the entry ----------------------------------------------------------

GAME_NAME = re.compile(r"[a-z][a-z0-9_]*")      # a registered game's name (fullmatch)

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
    """A registered game: its options, `facts(params)`, `capabilities` and `hooks`."""
    name: str
    long_name: str
    description: str
    min_players: int
    max_players: int
    options: dict[str, Option]
    facts: Callable[[dict], GameFacts]
    capabilities: Capabilities
    hooks: GameHooks
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

    def canonical_string(self, params: dict) -> str:
        """The canonical game string: every non-default option, in name order."""
        parts = []
        for key in sorted(self.options):
            value = params[key]
            if value != self.options[key].default:
                if isinstance(value, bool):
                    value = "true" if value else "false"
                parts.append(f"{key}={value}")
        return f"{self.name}({','.join(parts)})" if parts else self.name


def load_hook(entry: GameEntry, hook: str):
    """The object a hook names (imported on first use), or None if the game has none."""
    dotted = getattr(entry.hooks, hook)
    return None if dotted is None else import_hook(entry.name, hook, dotted)


# -- helpers every game needs -------------------------------------------------------

def pairwise_estimate(values, scale: float, confidence: float = 0.9) -> list[float]:
    """Expected rank returns from position values, for a policies `evaluate`.

    For games whose return is (players beaten - players beating) / (n - 1),
    each pair is read as a tanh of the value difference over `scale` (a
    difference of `scale` is a pair won about 7 times in 8), and averaged over
    the opponents.
    `confidence` < 1 keeps every estimate inside the terminal values, so that
    a finished win still ranks above any position that only looks won."""
    n = len(values)
    if n < 2:
        return [0.0] * n
    return [confidence * sum(math.tanh((values[p] - values[q]) / scale)
                             for q in range(n) if q != p) / (n - 1) for p in range(n)]


def in_range(lo, hi):
    """An Option check: the value lies in [lo, hi]."""
    return lambda v: None if lo <= v <= hi else f"must be between {lo} and {hi}"


def built_by(game: str, make, data_option: str):
    """An entry `check`: the options are good if `make(params)` (the game's
    rules object) builds; its refusal is the message, and a bad data file is
    named by the option that gave it."""
    def check(params):
        try:
            make(params)
        except GameSpecError as e:
            return str(e).removeprefix(f"{game}: ")
        except DataFileError as e:
            return f"option '{data_option}': {e}"
        return None
    return check
