"""Bot spec strings: ``random``, ``random(seed=3)``, ``greedy(depth=1)``,
``heuristic``, ``mcts(iterations=4000,threads=2,time=0.5,uct_c=2,form=is)``,
``level(4)`` (a strength level: the game's mcts spec of that level, search/levels.py),
``remote(target=127.0.0.1:50051,spec=mcts(iterations=800))`` (a bot on another
Easel server; a value may hold a spec of its own, parentheses and commas
included), ``faulty(mode=raise)`` (a deliberately broken bot, for testing).

The grammar is the game string's: a name, then optionally ``(key=value,...)``;
a kind may take its first value without its key (``level(4)``).
Each bot kind's options are defined once in search/params.py (type, default,
range, meaning): a spec is typed and range-checked as it is parsed, and a bad
one is refused with a `BotSpecError` that names the bad part (an unknown key
with the closest valid one and the list of them). The mcts keys are mapped
onto the keywords of `search.mcts_bot.MCTSBot` (``time`` -> ``time_limit``). A
remote bot's own ``spec=`` is parsed and checked too.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Callable

from easel.engine.errors import EaselError

from . import params
from .bots import Bot, GreedyBot, HeuristicBot, RandomBot
from .errors import BotSpecError
from .params import Param


_SPEC = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)\s*(?:\((.*)\))?", re.S)
_KEY = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


@dataclass(frozen=True)
class BotSpec:
    """A parsed spec: the bot kind and its typed arguments, in spec order."""
    name: str
    args: dict = field(default_factory=dict)

    @property
    def text(self) -> str:
        """The canonical spec string (a kind's positional key first, bare:
        ``level(4,seed=1)``)."""
        if not self.args:
            return self.name
        kind = BOT_KINDS.get(self.name)
        first = kind.positional if kind is not None else ""
        parts = [_show(self.args[first])] if first in self.args else []
        parts += [f"{k}={_show(v)}" for k, v in self.args.items() if k != first]
        return f"{self.name}({','.join(parts)})"

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
    params: dict[str, Param]                      # key -> its definition (search/params.py)
    build: Callable[[Any, dict], Bot]             # (game, typed args) -> Bot
    # May a network request name it (the server's Suggest)? Not a bot that
    # connects to other hosts or breaks its process on purpose.
    served: bool = True
    # The key a first value without `key=` gives (`level(4)` is `level(n=4)`).
    positional: str = ""


def _show(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _typed(text: str, p: Param, spec: str):
    """One value: parsed as its option's type, then checked against its range."""
    low = text.lower()
    kind = p.type
    try:
        if kind is bool:
            if low in ("true", "1", "yes"):
                value = True
            elif low in ("false", "0", "no"):
                value = False
            else:
                raise ValueError
        elif kind is str:
            value = text
        else:
            value = kind(text)
    except ValueError:
        raise BotSpecError(f"bot spec {spec!r}: {p.name}={text!r} must be "
                           f"{'a' if kind is not int else 'an'} {kind.__name__}") from None
    try:
        return params.check_value(p, value, BotSpecError, p.name)
    except BotSpecError as e:
        raise BotSpecError(f"bot spec {spec!r}: {e}") from None


def _random(game, args):
    return RandomBot(game, seed=args.get("seed"))


def _greedy(game, args):
    return GreedyBot(game, **args)


def _heuristic(game, args):
    return HeuristicBot(game, seed=args.get("seed"))


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


def _level(game, args, max_nodes: int | None = None):
    return _mcts(game, level_mcts_args(game, args), max_nodes, what=f"level({args.get('n')})")


def level_mcts_args(game, args: dict) -> dict:
    """The mcts spec keys a level spec's typed args stand for, for `game`."""
    from . import levels
    if "n" not in args:
        raise BotSpecError("level: give the level, 1 to 10: level(4)")
    try:
        return levels.level_args(game, args["n"], seed=args.get("seed"))
    except EaselError as e:
        raise BotSpecError(str(e)) from None


def level_plays(spec: str, game) -> str | None:
    """The mcts spec text a `level(N)` spec stands for in `game` in this
    build (its seed left out), or None for any other kind of spec. Run
    records and journals keep it, since the text names a row of
    search/levels.py that a later build may change."""
    from . import levels
    parsed = parse_spec(spec)
    if parsed.name != "level":
        return None
    args = {k: v for k, v in parsed.args.items() if k != "seed"}
    return levels.mcts_text(level_mcts_args(game, args))


def search_plays(spec: str, game) -> dict | None:
    """What an `mcts` or `level(N)` spec plays with in `game` in this build:
    its budget, its bot options and every search option, the game's
    measured defaults filled in (its seed left out); None for any other kind
    of spec (a remote bot's search is its server's). Journals keep it and a
    resume compares it, since a game's default may change between a run and
    its resume (Starving Artists' solo loss weight did:
    docs/starving-artists-solo.md, "Near misses")."""
    parsed = parse_spec(spec)
    if parsed.name not in ("mcts", "level"):
        return None
    bot = make_bot(parsed, game)
    return {"iterations": bot.iterations, "time_limit": bot.time_limit,
            "temperature": bot.temperature, "reuse": bot.reuse,
            "reuse_across_chance": bot.reuse_across_chance, "early_stop": bot.early_stop,
            **bot.options}


def differing_keys(was: dict, now: dict) -> list[str]:
    """The options two `search_plays` answers disagree on, by name, each as
    `key: was -> now`, for an error that says what changed."""
    return [f"{k}: {was.get(k)!r} -> {now.get(k)!r}" for k in sorted(set(was) | set(now))
            if was.get(k) != now.get(k)]


def _mcts(game, args, max_nodes: int | None = None, what: str = "mcts"):
    try:
        from easel.search.mcts_bot import MCTSBot
    except ImportError as e:
        raise BotSpecError(f"{what}: the MCTS bot is not available in this build ({e})") from None
    kwargs = {params.MCTS[k].kw: v for k, v in args.items()}
    if max_nodes is not None:
        kwargs["max_nodes"] = max_nodes
    try:
        return MCTSBot(game, **kwargs)
    except EaselError as e:         # the game refused a value: name it as a spec error
        if isinstance(e, BotSpecError):
            raise
        raise BotSpecError(f"{what}: {e}") from None


BOT_KINDS: dict[str, BotKind] = {k.name: k for k in [
    BotKind("random", "a uniformly random legal action", params.RANDOM, _random),
    BotKind("greedy", "the best value at the end of its own turn (expectation over chance)",
            params.GREEDY, _greedy),
    BotKind("heuristic", "the game's rule-of-thumb player", params.HEURISTIC, _heuristic),
    BotKind("mcts", "Monte Carlo tree search (search.mcts.MCTSBot)", params.MCTS, _mcts),
    BotKind("level", "a strength level, level(1) to level(10): the game's mcts spec of that "
            "level (search/levels.py, docs/strength.md)", params.LEVEL, _level,
            positional="n"),
    BotKind("remote", "a bot on another Easel server, through its Suggest call",
            params.REMOTE, _remote, served=False),
    BotKind("faulty", "a deliberately broken random bot, for testing fault handling",
            params.FAULTY, _faulty, served=False),
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
        for i, part in enumerate(parts):
            if "=" in part:
                key, value = (x.strip() for x in part.split("=", 1))
            elif i == 0 and kind.positional:
                key, value = kind.positional, part.strip()    # level(4)
            else:
                raise BotSpecError(f"bot spec {spec!r}: expected key=value, got {part.strip()!r}")
            if not _KEY.fullmatch(key):
                raise BotSpecError(f"bot spec {spec!r}: malformed key {key!r}")
            if key in args:
                raise BotSpecError(f"bot spec {spec!r}: key {key!r} given twice")
            if key not in kind.params:
                raise BotSpecError(f"bot spec {spec!r}: "
                                   + params.unknown_key(key, kind.params, name))
            if not value:
                raise BotSpecError(f"bot spec {spec!r}: key {key!r} has no value")
            args[key] = _typed(value, kind.params[key], spec)
    if name == "remote" and "spec" in args:
        _check_inner(args["spec"], spec)
    return BotSpec(name, args)


def _check_inner(inner: str, spec: str) -> None:
    """A remote bot's own spec, checked here as the server would parse it, so
    that a bad one is refused before the tournament starts."""
    try:
        parsed = parse_spec(inner)
    except BotSpecError as e:
        raise BotSpecError(f"bot spec {spec!r}: spec=: {e}") from None
    if not BOT_KINDS[parsed.name].served:
        raise BotSpecError(f"bot spec {spec!r}: spec=: a server does not play "
                           f"{parsed.name!r} bots")


def make_bot(spec, game, seed: int | None = None, *, max_nodes: int | None = None) -> Bot:
    """Build the bot a spec string names, to play `game`.

    seed: the seed to use when the spec names none (a ``seed=`` in the spec wins).
    max_nodes: a server's node budget for each search of an mcts bot
    (`params.MCTS["max_nodes"]`), over the spec's own.
    """
    parsed = parse_spec(spec)
    if seed is not None and "seed" not in parsed.args:
        parsed = parsed.with_seed(seed)
    kind = BOT_KINDS[parsed.name]
    args = dict(parsed.args)
    bot = (kind.build(game, args, max_nodes) if kind.name in ("mcts", "level")
           else kind.build(game, args))
    try:
        bot.spec = parsed.text
    except AttributeError:
        pass
    return bot


def _kinds():
    return [(k.name, k.doc, k.params) for k in BOT_KINDS.values()]


def describe_bots() -> list[dict]:
    """The bot kinds and their options (type, default, range, meaning)."""
    return [{"name": k.name, "doc": k.doc, "served": k.served,
             "keys": {key: params.describe(p) for key, p in k.params.items()}}
            for k in BOT_KINDS.values()]


def bots_help() -> str:
    """Every bot kind and option, for the --help of the commands taking specs."""
    return params.help_text(_kinds())


def bots_markdown() -> str:
    """The option tables of docs/bots.md."""
    return params.markdown(_kinds())
