"""Building a game: from a registered entry and its parameters to a checked
`Game`, in one step (the role of OpenSpiel's game factory).

Every check that holds a game to its declaration is here:

- `check_entry`, when a game registers: its name, the types of its parts,
  and the pure-Python hooks against the declared capabilities;
- `build`, when a game is made: the facts `facts(params)` returns, the core
  module against the core protocol, the core's optional GameC functions
  against the capabilities, and the core's facts against the declared ones.

Each refusal is a GameSpecError naming the game, the part and what is
missing. (The C side guards its own memory: `CoreGame.from_facts` bounds the
player count, `finish_setup` refuses a core without its required functions.)
"""
from __future__ import annotations

from .errors import GameSpecError
from .game import CoreGameWrapper, Game, ReferenceGame
from .kit import (GAME_NAME, Capabilities, Codec, CoreLoader, CoreModule, GameEntry, GameFacts,
                  GameHooks, Notation, Option, Policies, import_hook, load_hook)
from .reference import ReferenceState

IMPLEMENTATIONS = ("core", "reference")


def _missing(obj, *protocols) -> list[str]:
    names = [n for p in protocols for n in dir(p) if not n.startswith("_")]
    return [n for n in names if not callable(getattr(obj, n, None))]


def require(game: str, hook: str, obj, *protocols) -> None:
    """Raise GameSpecError naming every function `obj` lacks for `protocols`."""
    missing = _missing(obj, *protocols)
    if missing:
        raise GameSpecError(f"game {game!r}: hooks.{hook} ({getattr(obj, '__name__', obj)}) "
                            f"lacks {', '.join(missing)}")


def check_entry(entry: GameEntry) -> None:
    """Check a game's entry before it registers: the name, the types of its
    parts, and the pure-Python hooks against the declared capabilities."""
    if not isinstance(entry, GameEntry):
        raise GameSpecError(f"register takes a kit.GameEntry, got {type(entry).__name__}")
    name = entry.name
    if not isinstance(name, str) or not GAME_NAME.fullmatch(name):
        raise GameSpecError(f"game name {name!r} must match {GAME_NAME.pattern}")
    for part, kind in (("capabilities", Capabilities), ("hooks", GameHooks)):
        if not isinstance(getattr(entry, part), kind):
            raise GameSpecError(f"game {name!r}: {part} must be a {kind.__name__}, got "
                                f"{type(getattr(entry, part)).__name__}")
    if not callable(entry.facts):
        raise GameSpecError(f"game {name!r}: facts must be a function of the params")
    for key, option in entry.options.items():
        if not isinstance(option, Option):
            raise GameSpecError(f"game {name!r}: option {key!r} must be a kit.Option")
    _check_hooks(name, entry.capabilities, entry.hooks)


def _check_hooks(name: str, caps: Capabilities, hooks: GameHooks) -> None:
    state_class = import_hook(name, "reference", hooks.reference)
    if not (isinstance(state_class, type) and issubclass(state_class, ReferenceState)):
        raise GameSpecError(f"game {name!r}: hooks.reference ({hooks.reference}) is not a "
                            f"ReferenceState subclass")
    if caps.structured_states and not callable(getattr(state_class, "from_json", None)):
        raise GameSpecError(f"game {name!r} declares structured_states but its reference "
                            f"state class lacks from_json")
    codec = import_hook(name, "codec", hooks.codec)
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
            module = import_hook(name, hook, dotted)
            require(name, hook, module, protocol)
            if hook == "policies" and not callable(getattr(module, "evaluate", callable)):
                raise GameSpecError(f"game {name!r}: hooks.policies ({dotted}) has an "
                                    f"`evaluate` that is not a function")
    if caps.rollout_policy and hooks.core is None:
        raise GameSpecError(f"game {name!r} declares rollout_policy, which lives in a core, "
                            f"but hooks.core is None")


def _facts(entry: GameEntry, params: dict) -> GameFacts:
    facts = entry.facts(params)
    if not isinstance(facts, GameFacts):
        raise GameSpecError(f"game {entry.name!r}: facts(params) must return a kit.GameFacts, "
                            f"got {type(facts).__name__}")
    return facts


def _check_core(entry: GameEntry, core, facts: GameFacts) -> None:
    """The optional GameC functions the capabilities promise (or deny), and
    the facts the core holds against those declared."""
    for cap, present in (("scores", core.has_scores),
                         ("rollout_policy", core.has_rollout_policy)):
        declared = getattr(entry.capabilities, cap)
        if declared != present:
            raise GameSpecError(
                f"game {entry.name!r}: capabilities.{cap} is {declared} but its core "
                f"{'sets' if present else 'does not set'} the GameC function for it")
    held = core.facts()
    if held != facts:
        changed = [f"{k} {v!r} (declared {getattr(facts, k)!r})"
                   for k, v in vars(held).items() if v != getattr(facts, k)]
        raise GameSpecError(f"game {entry.name!r}: its core holds other facts than "
                            f"facts(params): {', '.join(changed)}")


def build(entry: GameEntry, params: dict, implementation: str = "core") -> Game:
    """The game `entry` with `params` (complete and checked: registry.game_params),
    on its core or its reference, checked against its declaration."""
    if implementation not in IMPLEMENTATIONS:
        raise GameSpecError(f"unknown implementation {implementation!r}; use 'core' or "
                            f"'reference'")
    facts = _facts(entry, params)
    codec = load_hook(entry, "codec")
    if implementation == "reference":
        return ReferenceGame(entry, params, codec, facts, load_hook(entry, "reference"))
    if not entry.has_core:
        raise GameSpecError(f"{entry.name} has no core implementation yet; "
                            f"use implementation='reference'")
    core_module = load_hook(entry, "core")
    protocols = (CoreModule, CoreLoader) if entry.capabilities.structured_states else (CoreModule,)
    require(entry.name, "core", core_module, *protocols)
    core = core_module.make_core(params, facts)
    _check_core(entry, core, facts)
    game = CoreGameWrapper(entry, params, codec, core)
    core.finish_setup(game, core_module)
    return game
