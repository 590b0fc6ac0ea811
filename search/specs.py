"""Bot spec strings: ``random``, ``random(seed=3)``, ``greedy(depth=1)``,
``heuristic``, ``mcts(iterations=4000,threads=2,time=0.5,uct_c=2,form=is)``,
``remote(target=127.0.0.1:50051,spec=mcts(iterations=800))`` (a bot on another
Easel server; a value may hold a spec of its own, parentheses and commas
included), ``faulty(mode=raise)`` (a deliberately broken bot, for testing).

The grammar is the game string's: a name, then optionally ``(key=value,...)``.
Each bot kind declares its keys and their types, so a bad spec is refused with
a `BotSpecError` that names the bad part. The mcts keys are mapped onto the
constructor of `search.mcts.MCTSBot` (``time`` -> ``time_limit``); keys this
module does not know are passed on to it, typed by their look, and it refuses
the ones it does not take.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Callable

from easel.engine.errors import EaselError

from .bots import Bot, GreedyBot, HeuristicBot, RandomBot
from .errors import BotSpecError


_SPEC = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)\s*(?:\((.*)\))?", re.S)
_KEY = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


@dataclass(frozen=True)
class BotSpec:
    """A parsed spec: the bot kind and its typed arguments, in spec order."""
    name: str
    args: dict = field(default_factory=dict)

    @property
    def text(self) -> str:
        """The canonical spec string."""
        if not self.args:
            return self.name
        return f"{self.name}({','.join(f'{k}={_show(v)}' for k, v in self.args.items())})"

    def with_seed(self, seed: int | None) -> "BotSpec":
        args = dict(self.args)
        if seed is None:
            args.pop("seed", None)
        else:
            args["seed"] = int(seed)
        return BotSpec(self.name, args)


@dataclass(frozen=True)
class BotKind:
    name: str
    doc: str
    keys: dict[str, tuple[type, str]]            # key -> (type, meaning)
    build: Callable[[Any, dict], Bot]             # (game, typed args) -> Bot
    open_keys: bool = False                       # pass unknown keys on to the bot
    # May a network request name it (the server's Suggest)? Not a bot that
    # connects to other hosts or breaks its process on purpose.
    served: bool = True


def _show(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _typed(text: str, kind: type | None, spec: str, key: str):
    """Parse one value; kind None means: guess int, float, bool, then text."""
    low = text.lower()
    if kind is None:
        for guess in (int, float):
            try:
                return guess(text)
            except ValueError:
                pass
        if low in ("true", "false"):
            return low == "true"
        return text
    try:
        if kind is bool:
            if low in ("true", "1", "yes"):
                return True
            if low in ("false", "0", "no"):
                return False
            raise ValueError
        if kind is str:
            if not text:
                raise ValueError
            return text
        return kind(text)
    except ValueError:
        raise BotSpecError(f"bot spec {spec!r}: {key}={text!r} must be "
                           f"{'a' if kind is not int else 'an'} {kind.__name__}") from None


def _random(game, args):
    return RandomBot(game, seed=args.get("seed"))


def _greedy(game, args):
    try:
        return GreedyBot(game, **args)
    except ValueError as e:
        raise BotSpecError(str(e)) from None


def _heuristic(game, args):
    return HeuristicBot(game, seed=args.get("seed"))


# spec key -> MCTSBot constructor parameter, where they differ
_MCTS_RENAMES = {"time": "time_limit"}


def _remote(game, args):
    from .tournament.bots import RemoteBot
    if "target" not in args:
        raise BotSpecError("remote: target=HOST:PORT is required")
    try:
        return RemoteBot(game, **args)
    except ValueError as e:
        raise BotSpecError(f"remote: {e}") from None


def _faulty(game, args):
    from .tournament.bots import FaultyBot
    try:
        return FaultyBot(game, **args)
    except ValueError as e:
        raise BotSpecError(str(e)) from None


def _mcts(game, args):
    try:
        from easel.search.mcts import MCTSBot
    except ImportError as e:
        raise BotSpecError(f"mcts: the MCTS bot is not available in this build ({e})") from None
    kwargs = {_MCTS_RENAMES.get(k, k): v for k, v in args.items()}
    try:
        return MCTSBot(game, **kwargs)
    except TypeError as e:
        raise BotSpecError(f"mcts: {e}") from None
    except (EaselError, ValueError) as e:      # the bot refused a value: name it as a spec error
        if isinstance(e, BotSpecError):
            raise
        raise BotSpecError(f"mcts: {e}") from None


BOT_KINDS: dict[str, BotKind] = {k.name: k for k in [
    BotKind("random", "a uniformly random legal action",
            {"seed": (int, "random seed")}, _random),
    BotKind("greedy", "the best value at the end of its own turn (expectation over chance)",
            {"seed": (int, "random seed (breaks ties)"),
             "depth": (int, "further own decisions looked at in the same turn (default 2)"),
             "samples": (int, "samples of a chance node with many outcomes (default 4)"),
             "max_outcomes": (int, "chance nodes up to this size are averaged exactly (default 8)"),
             "budget": (int, "about the most positions looked at per move (default 300)")},
            _greedy),
    BotKind("heuristic", "the game's rule-of-thumb player",
            {"seed": (int, "random seed (breaks ties)")}, _heuristic),
    BotKind("mcts", "Monte Carlo tree search (search.mcts.MCTSBot)",
            {"iterations": (int, "iterations per move"),
             "time": (float, "seconds per move (time_limit)"),
             "threads": (int, "search threads"),
             "uct_c": (float, "UCT exploration constant"),
             "form": (str, "search form: is, closed or pimc"),
             "rollout": (str, "rollout moves: random, or policy (the game's rollout policy)"),
             "policy_bias": (float, "bias toward the rollout policy's move in the tree, "
                                    "c * sqrt(parent visits) / (visits + 1) (0: none)"),
             "seed": (int, "random seed")},
            _mcts, open_keys=True),
    BotKind("remote", "a bot on another Easel server, through its Suggest call",
            {"target": (str, "the server's HOST:PORT"),
             "spec": (str, "the bot spec the server plays (default mcts)"),
             "timeout": (float, "seconds one move may take on the wire (default 120)"),
             "tls": (bool, "connect with TLS (default false)"),
             "ca": (str, "TLS: the server's CA certificate file"),
             "token_env": (str, "environment variable holding the server's bearer token"),
             "seed": (int, "random seed (each call sends one derived from it)")}, _remote,
            served=False),
    BotKind("faulty", "a deliberately broken random bot, for testing fault handling",
            {"mode": (str, "raise, illegal, sleep or exit"),
             "after": (int, "good decisions per game before the fault (default 0)"),
             "seconds": (float, "how long mode=sleep thinks (default 1)"),
             "once": (str, "mode=exit: exit only while this file does not exist"),
             "seed": (int, "random seed")}, _faulty, served=False),
]}


def _split_top(body: str) -> list[str]:
    """Split on the commas outside parentheses: a value may be a spec itself."""
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(body):
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
            if depth < 0:
                raise ValueError("unbalanced ')'")
        elif ch == "," and depth == 0:
            parts.append(body[start:i])
            start = i + 1
    if depth != 0:
        raise ValueError("unbalanced '('")
    parts.append(body[start:])
    return parts


def parse_spec(spec: str) -> BotSpec:
    """Check a spec string's grammar, bot name and keys; type its values."""
    if isinstance(spec, BotSpec):
        return spec
    if not isinstance(spec, str):
        raise BotSpecError(f"a bot spec must be text, got {type(spec).__name__}")
    text = spec.strip()
    m = _SPEC.fullmatch(text)
    if not m:
        raise BotSpecError(f"malformed bot spec {spec!r}: expected name or name(key=value,...)")
    name, body = m.group(1), m.group(2)
    kind = BOT_KINDS.get(name)
    if kind is None:
        raise BotSpecError(f"bot spec {spec!r}: unknown bot {name!r}; "
                           f"bots: {', '.join(sorted(BOT_KINDS))}")
    args: dict = {}
    if body is not None and body.strip():
        try:
            parts = _split_top(body)
        except ValueError as e:
            raise BotSpecError(f"malformed bot spec {spec!r}: {e}") from None
        for part in parts:
            if "=" not in part:
                raise BotSpecError(f"bot spec {spec!r}: expected key=value, got {part.strip()!r}")
            key, value = (x.strip() for x in part.split("=", 1))
            if not _KEY.fullmatch(key):
                raise BotSpecError(f"bot spec {spec!r}: malformed key {key!r}")
            if key in args:
                raise BotSpecError(f"bot spec {spec!r}: key {key!r} given twice")
            if key not in kind.keys and not kind.open_keys:
                known = ", ".join(sorted(kind.keys)) or "none"
                raise BotSpecError(f"bot spec {spec!r}: {name} has no key {key!r}; keys: {known}")
            if not value:
                raise BotSpecError(f"bot spec {spec!r}: key {key!r} has no value")
            declared = kind.keys.get(key, (None, ""))[0]
            args[key] = _typed(value, declared, spec, key)
    return BotSpec(name, args)


def make_bot(spec, game, seed: int | None = None) -> Bot:
    """Build the bot a spec string names, to play `game`.

    seed: the seed to use when the spec names none (a ``seed=`` in the spec wins).
    """
    parsed = parse_spec(spec)
    if seed is not None and "seed" not in parsed.args:
        parsed = parsed.with_seed(seed)
    bot = BOT_KINDS[parsed.name].build(game, dict(parsed.args))
    try:
        bot.spec = parsed.text
    except AttributeError:
        pass
    return bot


def describe_bots() -> list[dict]:
    """The bot kinds and their keys, for help texts."""
    return [{"name": k.name, "doc": k.doc,
             "keys": {key: {"type": t.__name__, "doc": d} for key, (t, d) in k.keys.items()},
             "open_keys": k.open_keys}
            for k in BOT_KINDS.values()]
