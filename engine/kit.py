"""The game-author kit: what a game declares to join Easel (docs/adding-a-game.md).

A game package registers one `GameEntry` made of:

- `GameFacts`: the facts both implementations read (players, action-space
  sizes, game length, utility bounds, score scale), written once by the
  game's `facts(params)` function. The reference's `Game` reports them, and
  the core's `GameC` is filled from them (`CoreGame.from_facts`), so the two
  can never disagree.
- `Capabilities`: what the game offers, declared, never found by trying.
  The server's ListGames, `easel games`, the bots and the shared test suites
  read these flags.
- `GameHooks`: the modules that carry the game's code, by dotted name. The
  registry checks them against the protocols below when the game registers
  (the pure-Python hooks) and when its core is first loaded (the compiled
  hook), with a message that names the game, the hook and what is missing.
"""
from __future__ import annotations

import importlib
from dataclasses import dataclass, field, fields
from typing import Any, Mapping, Protocol, runtime_checkable

from .errors import GameSpecError


@dataclass(frozen=True)
class GameFacts:
    """One game instance's immutable facts (OpenSpiel's `Game` role)."""
    num_players: int
    num_distinct_actions: int        # size of the decision action space
    max_chance_outcomes: int         # size of the chance outcome space (0: no chance)
    max_game_length: int             # most decisions in one game (chance outcomes not counted)
    min_utility: float               # bounds of returns()
    max_utility: float
    score_scale: float = 0.0         # typical spread of final scores; 0: the game keeps none

    def as_dict(self) -> dict:
        return {f.name: getattr(self, f.name) for f in fields(self)}


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


def _import(game: str, hook: str, dotted: str):
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


def _missing(obj, protocol) -> list[str]:
    names = [n for n in dir(protocol) if not n.startswith("_")]
    return [n for n in names if not callable(getattr(obj, n, None))]


def require(game: str, hook: str, obj, protocol, extra: tuple[str, ...] = ()) -> None:
    """Raise GameSpecError naming every function `obj` lacks for `protocol`."""
    missing = _missing(obj, protocol) + [n for n in extra if not callable(getattr(obj, n, None))]
    if missing:
        raise GameSpecError(f"game {game!r}: hooks.{hook} ({getattr(obj, '__name__', obj)}) "
                            f"lacks {', '.join(missing)}")


def check_hooks(name: str, caps: Capabilities, hooks: GameHooks) -> None:
    """Check the pure-Python hooks against the declared capabilities."""
    from .reference import ReferenceState
    if not isinstance(hooks, GameHooks):
        raise GameSpecError(f"game {name!r}: hooks must be a GameHooks, got {type(hooks).__name__}")
    state_class = _import(name, "reference", hooks.reference)
    if not (isinstance(state_class, type) and issubclass(state_class, ReferenceState)):
        raise GameSpecError(f"game {name!r}: hooks.reference ({hooks.reference}) is not a "
                            f"ReferenceState subclass")
    if caps.structured_states and not callable(getattr(state_class, "from_json", None)):
        raise GameSpecError(f"game {name!r} declares structured_states but its reference "
                            f"state class lacks from_json")
    codec = _import(name, "codec", hooks.codec)
    require(name, "codec", codec, Codec)
    if hasattr(codec, "string_to_action"):
        raise GameSpecError(f"game {name!r}: hooks.codec ({hooks.codec}) defines "
                            f"string_to_action; action text is read by exact match against "
                            f"the legal actions' texts (engine/textio.py), so remove it")
    for cap, hook, protocol in (("notation", "notation", Notation),
                                ("heuristic_bot", "policies", Policies)):
        dotted = getattr(hooks, hook)
        if getattr(caps, cap):
            if dotted is None:
                raise GameSpecError(f"game {name!r} declares {cap} but hooks.{hook} is None")
            module = _import(name, hook, dotted)
            require(name, hook, module, protocol)
            if hook == "policies" and not callable(getattr(module, "evaluate", callable)):
                raise GameSpecError(f"game {name!r}: hooks.policies ({dotted}) has an "
                                    f"`evaluate` that is not a function")
    if caps.rollout_policy and hooks.core is None:
        raise GameSpecError(f"game {name!r} declares rollout_policy, which lives in a core, "
                            f"but hooks.core is None")


def load_hook(entry, hook: str):
    """The object a hook names (imported on first use), or None if the game has none."""
    dotted = getattr(entry.hooks, hook)
    return None if dotted is None else _import(entry.name, hook, dotted)


def check_core(entry, core_module, core) -> None:
    """Check a freshly made core against the declaration: the module's functions,
    and the optional GameC functions that the capabilities promise (or deny)."""
    extra = ("state_from_json",) if entry.capabilities.structured_states else ()
    require(entry.name, "core", core_module, CoreModule, extra)
    for cap, present in (("scores", core.has_scores),
                         ("rollout_policy", core.has_rollout_policy)):
        declared = getattr(entry.capabilities, cap)
        if declared != present:
            raise GameSpecError(
                f"game {entry.name!r}: capabilities.{cap} is {declared} but its core "
                f"{'sets' if present else 'does not set'} the GameC function for it")


# -- option checks every game needs -------------------------------------------------

def pairwise_estimate(values, scale: float, confidence: float = 0.9) -> list[float]:
    """Expected rank returns from position values, for a policies `evaluate`.

    For games whose return is (players beaten - players beating) / (n - 1),
    each pair is read as a tanh of the value difference over `scale` (a
    difference of `scale` is a pair won about 7 times in 8), and averaged over
    the opponents.
    `confidence` < 1 keeps every estimate inside the terminal values, so that
    a finished win still ranks above any position that only looks won."""
    import math
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
    from .errors import DataFileError

    def check(params):
        try:
            make(params)
        except GameSpecError as e:
            return str(e).removeprefix(f"{game}: ")
        except DataFileError as e:
            return f"option '{data_option}': {e}"
        return None
    return check


# What a game author imports (one place).
from .registry import GameEntry, Option, register  # noqa: E402,F401
