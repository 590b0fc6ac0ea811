"""Every option of every bot kind, defined once: its type, generic default,
range, whether a network request may set it, and what it means.

Everything else is derived from these tables: the keys a bot spec takes and
their typing (search/specs.py), the one validator (`check_value`) that
`search.tree_search.Search`, `MCTSBot`, the C tree, `GreedyBot`, spec parsing and the
server all call, the server's allow-list (`network`), the generic search
defaults a game's measured `search_defaults` override (`game=True`), the
`--help` texts of the commands that take specs and `easel bots`, and the
option tables of docs/bots.md (`easel bots --markdown` prints them; a test
keeps the page in step). Adding a search option is one `Param` here, plus the code
that reads it; one the tree uses (`tree=True` hands it to `Tree`) is also a field of its
name in `TreeOptionsC` (search/_mcts.pxd).

A range is checked wherever a value enters, locally and from the network
alike; NaN and infinities are refused everywhere. The server adds its own
limits on top (server/bot_specs.py): budgets, threads, and the node budget of
one search (`max_nodes`, which only the server sets for its searches).
"""
from __future__ import annotations

import difflib
import math
from dataclasses import dataclass
from typing import Any, Callable

from .errors import SearchError

# Node budget of one search, summed over its trees (threads, PIMC worlds):
# 2^22 nodes of 32 bytes, 128 MiB, plus the turn statistics of the nodes
# inside the root player's turn (272 bytes each).
DEFAULT_MAX_NODES = 1 << 22
# The least share of the node budget a tree may get: its first arena
# (search/_mcts.pyx). A budget that gives a tree less is refused, so that
# many trees (worlds=100000000) cannot be made from a small budget.
MIN_TREE_NODES = 1024
SEED_MAX = (1 << 64) - 1


@dataclass(frozen=True)
class Param:
    """One option: a key of a bot spec and a keyword of the bot (and search)."""
    name: str                       # the spec key
    type: type                      # int, float, str or bool
    default: Any                    # the generic default; None: see default_text
    doc: str
    low: float | None = None        # the range, bounds included (but see low_open)
    high: float | None = None
    low_open: bool = False          # `low` itself is refused (time > 0)
    choices: tuple = ()             # the only values a str option takes
    keyword: str = ""               # the Python keyword where it differs from the key
    # mcts: "budget" (per move: iterations, time), "search" (Search and
    # MCTSBot), "bot" (MCTSBot only: it plays whole games). Other kinds: "bot".
    scope: str = "search"
    tree: bool = False              # handed on to each search tree (search/_mcts.pyx)
    game: bool = False              # a game's measured search_defaults may set it
    network: bool = True            # a network request may set it
    default_text: str = ""          # the default in words, where it is not a value

    @property
    def kw(self) -> str:
        return self.keyword or self.name

    def range_text(self) -> str:
        """What the option takes, in words: "an integer from 1 to 256"."""
        if self.choices:
            return "one of " + ", ".join(self.choices)
        kind = {int: "an integer", float: "a number", bool: "true or false",
                str: "text"}[self.type]
        if self.low is None and self.high is None:
            return kind
        low, high = _num(self.low), _num(self.high)
        if self.low_open and self.high is not None:
            return f"{kind} above {low}, at most {high}"
        if self.high is None:
            return f"{kind} {'above' if self.low_open else 'at least'} {low}"
        return f"{kind} from {low} to {high}"

    def default_words(self) -> str:
        if self.default_text:
            return self.default_text
        if self.default is None:
            return "none"
        return _show(self.default)


def _num(x) -> str:
    if x is None:
        return ""
    if isinstance(x, float) and x.is_integer() and abs(x) < 1e15:
        x = int(x)
    if isinstance(x, int) and x >= 10 ** 6:
        if x == SEED_MAX:
            return "2^64-1"
        if x == (1 << 31) - 1:
            return "2^31-1"
        exp = len(str(x)) - 1
        if x == 10 ** exp:
            return f"10^{exp}"
    return str(x)


def _show(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _type_word(t: type) -> str:
    return {int: "int", float: "float", bool: "bool", str: "str"}[t]


def check_value(p: Param, value, error: type = SearchError, key: str = ""):
    """`value` typed and within `p`'s range (an int is taken for a float),
    or `error` naming the option (as `key`, default its Python keyword), what
    it takes and what it got."""
    key = key or p.kw
    bad = error(f"{key} must be {p.range_text()}, got {value!r}")
    if p.type is bool:
        if not isinstance(value, bool):
            raise bad
        return value
    if p.type is str:
        if not isinstance(value, str) or not value:
            raise bad
        if p.choices and value not in p.choices:
            near = difflib.get_close_matches(value, p.choices, n=1)
            hint = f" (did you mean {near[0]!r}?)" if near else ""
            raise error(f"{key} must be {p.range_text()}, got {value!r}{hint}")
        return value
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise bad
    if p.type is int:
        if not isinstance(value, int):
            raise bad
    else:
        try:
            value = float(value)
        except OverflowError:
            raise bad from None
        if not math.isfinite(value):
            raise bad
    if p.low is not None and (value < p.low or (p.low_open and value == p.low)):
        raise bad
    if p.high is not None and value > p.high:
        raise bad
    return value


def unknown_key(key: str, table: dict, what: str) -> str:
    """The text refusing `key`: the closest valid key, then all of them."""
    near = difflib.get_close_matches(key, list(table), n=1)
    hint = f" (did you mean {near[0]!r}?)" if near else ""
    return f"{what} has no option {key!r}{hint}; options: {', '.join(sorted(table))}"


def _seed(doc: str = "random seed") -> Param:
    return Param("seed", int, None, doc, low=0, high=SEED_MAX, scope="bot",
                 default_text="drawn afresh")


# -- mcts ------------------------------------------------------------------------

MCTS: dict[str, Param] = {p.name: p for p in [
    Param("iterations", int, None, "iterations per move (with time: whichever ends first)",
          low=1, high=10 ** 9, scope="budget", default_text="1000 when time is not given"),
    Param("time", float, None, "seconds per move", low=0, high=86400, low_open=True,
          keyword="time_limit", scope="budget"),
    Param("threads", int, 1, "search threads, one tree each (root parallelism)",
          low=1, high=256),
    Param("seed", int, None, "random seed", low=0, high=SEED_MAX, default_text="drawn afresh"),
    Param("form", str, "is", "is: information-set MCTS, one tree over decisions, every hidden "
          "draw determinized afresh each iteration; closed: chance nodes in the tree; "
          "pimc: `worlds` fixed determinizations that vote",
          choices=("is", "closed", "pimc"), tree=True, game=True),
    Param("uct_c", float, 2.0, "UCT exploration constant", low=0, high=100, tree=True, game=True),
    Param("rollout", str, "random", "playout moves: random, or policy (the game's rollout policy)",
          choices=("random", "policy"), tree=True, game=True),
    Param("rollout_depth", int, -1, "stop a playout after this many decisions and read the "
          "game's evaluation (-1: play to the end)", low=-1, high=10 ** 6, tree=True, game=True),
    Param("margin_weight", float, 0.0, "weight of the score margin (divided by the game's "
          "score scale) added to the rank utility", low=0, high=1, tree=True, game=True),
    # A review searches with a wide cap, so that its search still tells the
    # turns of a decided game apart by points (search/review.py).
    Param("margin_cap", float, 1.0, "the score margin, in score scales, is capped at "
          "this either way before margin_weight weighs it", low=0, high=1000, low_open=True,
          tree=True, game=True),
    # Solo games (those with a loss span, engine/kit.py GameFacts): a search
    # whose playouts almost never win ranks moves by how close a losing
    # playout came; a weight steep in the last steps toward the goal counts
    # a near miss nearly as a win (docs/starving-artists-solo.md, "Near misses").
    Param("loss_weight", float, 0.0, "one-player games: a loss's utility is the least "
          "return plus loss_weight * progress ** loss_power (at most the largest return), "
          "the progress toward the goal read from the returns (0: the returns)",
          low=0, high=2, tree=True, game=True),
    Param("loss_power", float, 1.0, "the power of the progress in loss_weight",
          low=1, high=64, tree=True, game=True),
    Param("policy_bias", float, 0.0, "bias toward the rollout policy's move in the tree, "
          "policy_bias * sqrt(availability) / (visits + 1) (0: none)",
          low=0, high=1e9, tree=True, game=True),
    Param("worlds", int, 8, "form=pimc: fixed determinizations, one tree each",
          low=1, high=1024, game=True),
    Param("max_nodes", int, DEFAULT_MAX_NODES, "tree nodes of one search, summed over its "
          f"trees (each gets an equal share, at least {MIN_TREE_NODES}); a server sets its own "
          "(easel serve --max-search-nodes)", low=MIN_TREE_NODES, high=(1 << 31) - 1,
          network=False),
    Param("reuse", bool, True, "keep the tree between moves when the game follows from the "
          "last searched position", scope="bot"),
    Param("reuse_across_chance", bool, False, "form=is: keep the tree across chance events "
          "too (it mixes every outcome's statistics)", scope="bot"),
    Param("early_stop", bool, True, "with an iteration budget, stop once no outcome of the "
          "iterations left can change the move", scope="bot"),
    # A level's weakening (search/levels.py, docs/strength.md): a person who
    # misjudges plays a move that looked nearly as good, not a random one.
    Param("temperature", float, 0.0, "play a first action drawn among those with at least a "
          "tenth of the most visited one's visits, with probability proportional to "
          "exp(value / temperature), value the mean utility (seeded; 0: the most visited)",
          low=0, high=100, scope="bot"),
]}
BY_KEYWORD: dict[str, Param] = {p.kw: p for p in MCTS.values()}
SEARCH_KEYWORDS = {p.kw: p for p in MCTS.values() if p.scope == "search"}
BOT_KEYWORDS = {p.kw: p for p in MCTS.values() if p.scope in ("search", "bot")}


def generic_defaults() -> dict:
    """The search options a game may set, at their generic values."""
    return {p.name: p.default for p in MCTS.values() if p.game}


def search_defaults(game) -> dict:
    """The option values used where a search or bot is not told otherwise:
    the game's measured `search_defaults` over the generic ones."""
    out = generic_defaults()
    entry = getattr(game, "entry", None)
    if entry is not None:
        for key, value in entry.search_defaults.items():
            p = MCTS.get(key)
            if p is None or not p.game:
                raise SearchError(f"{entry.name}: search_defaults: "
                                  + unknown_key(key, generic_defaults(), "a game's defaults"))
            out[key] = check_value(p, value)
    return out


def check_options(table: dict, given: dict, what: str, error: type = SearchError) -> dict:
    """Keyword options checked against `table` (by keyword): unknown ones and
    values out of range are refused; None means "not given" and is dropped."""
    out = {}
    for key, value in given.items():
        p = table.get(key)
        if p is None:
            raise error(unknown_key(key, table, what))
        if value is not None:
            out[key] = check_value(p, value, error)
    return out


def resolve_search(game, given: dict) -> dict:
    """Every search-scope option, by keyword: the given ones (checked), then
    the game's defaults, then the generic ones; checked against the game."""
    out = {kw: p.default for kw, p in SEARCH_KEYWORDS.items()}
    out.update(search_defaults(game))
    out.update(check_options(SEARCH_KEYWORDS, given, "the search"))
    check_for_game(game, out)
    return out


def tree_count(options: dict) -> int:
    """The trees a search grows: one per PIMC world, else one per thread."""
    return options["worlds"] if options["form"] == "pimc" else options["threads"]


def check_for_game(game, options: dict) -> None:
    """What a valid option still cannot do for this game (no rollout policy),
    and a node budget too small for the trees."""
    caps = getattr(getattr(game, "entry", None), "capabilities", None)
    name = getattr(game, "name", "this game")
    if caps is not None and not caps.rollout_policy:
        if options.get("rollout") == "policy":
            raise SearchError(f"rollout 'policy': {name} has no rollout policy; "
                              f"use rollout=random")
        if options.get("policy_bias", 0) > 0:
            raise SearchError(f"policy_bias: {name} has no rollout policy to lean on; "
                              f"use policy_bias=0")
    trees = tree_count(options)
    if options["max_nodes"] < trees * MIN_TREE_NODES:
        what = f"worlds={trees}" if options["form"] == "pimc" else f"threads={trees}"
        raise SearchError(f"{what} needs max_nodes of at least {trees * MIN_TREE_NODES} "
                          f"({MIN_TREE_NODES} a tree), got {options['max_nodes']}")


def tree_options(options: dict) -> dict:
    """The options each search tree takes (tree=True), by name."""
    return {p.name: options[p.kw] for p in MCTS.values() if p.tree}


def check_tree_options(given: dict) -> dict:
    """The C tree's options: the given ones checked, the rest generic."""
    table = {p.name: p for p in MCTS.values() if p.tree}
    out = {name: p.default for name, p in table.items()}
    out.update(check_options(table, given, "a search tree"))
    return out


# -- the other bot kinds ---------------------------------------------------------

RANDOM = {"seed": _seed()}
HEURISTIC = {"seed": _seed("random seed (breaks ties)")}
GREEDY: dict[str, Param] = {p.name: p for p in [
    _seed("random seed (breaks ties)"),
    # The greedy bot's work per move grows with these (it runs unattended in
    # a server's bot seats, and Suggest runs it outside the search queue):
    # the ranges keep a move to well under a second.
    Param("depth", int, 2, "further own decisions looked at in the same turn",
          low=0, high=6, scope="bot"),
    Param("samples", int, 4, "samples of a chance node with many outcomes",
          low=1, high=64, scope="bot"),
    Param("max_outcomes", int, 8, "chance nodes up to this size are averaged exactly",
          low=1, high=64, scope="bot"),
    Param("budget", int, 300, "about the most positions looked at per move",
          low=1, high=20_000, scope="bot"),
]}
LEVEL: dict[str, Param] = {p.name: p for p in [
    # `level(4)` names it without a key (search/specs.py: the kind's positional key)
    Param("n", int, None, "the level: 1 (weakest) to 10 (the default search at about 2 s a "
          "decision); written level(N)", low=1, high=10, scope="bot", default_text="required"),
    _seed(),
]}
REMOTE: dict[str, Param] = {p.name: p for p in [
    Param("target", str, None, "the server's HOST:PORT", scope="bot", default_text="required"),
    Param("spec", str, "mcts", "the bot spec the server plays (checked here as a spec)",
          scope="bot"),
    Param("timeout", float, 120.0, "seconds one move may take on the wire",
          low=0, high=86400, low_open=True, scope="bot"),
    Param("tls", bool, False, "connect with TLS", scope="bot"),
    Param("ca", str, None, "TLS: the server's CA certificate file", scope="bot"),
    Param("token_env", str, None, "environment variable holding the server's bearer token",
          scope="bot"),
    _seed("random seed (each call sends one derived from it)"),
]}
FAULTY: dict[str, Param] = {p.name: p for p in [
    Param("mode", str, "raise", "the fault", choices=("raise", "illegal", "sleep", "exit"),
          scope="bot"),
    Param("after", int, 0, "good decisions per game before the fault",
          low=0, high=10 ** 6, scope="bot"),
    Param("seconds", float, 1.0, "how long mode=sleep thinks", low=0, high=3600, scope="bot"),
    Param("once", str, None, "mode=exit: exit only while this file does not exist",
          scope="bot"),
    _seed(),
]}


# -- texts -----------------------------------------------------------------------

def describe(p: Param) -> dict:
    return {"type": _type_word(p.type), "default": p.default, "default_text": p.default_words(),
            "low": p.low, "high": p.high, "low_open": p.low_open, "choices": list(p.choices),
            "range": p.range_text(), "doc": p.doc, "network": p.network}


def _marks(p: Param) -> str:
    """What an option's meaning adds about who may set it: a game's measured
    defaults (docs/adding-a-game.md), not a network request."""
    return ((" (a game may set its default)" if p.game else "")
            + ("" if p.network else " (not from the network)"))


def markdown(kinds) -> str:
    """The option tables of docs/bots.md, one per bot kind: `kinds` is
    [(name, doc, {key: Param})]."""
    out = []
    for name, doc, table in kinds:
        out.append(f"### `{name}`\n\n{doc[0].upper() + doc[1:]}.\n")
        if not table:
            out.append("No options.\n")
            continue
        out.append("| option | takes | default | meaning |\n| --- | --- | --- | --- |")
        for p in table.values():
            meaning = p.doc.replace("|", "\\|") + _marks(p)
            out.append(f"| `{p.name}` | {p.range_text()} | {p.default_words()} | {meaning} |")
        out.append("")
    return "\n".join(out)


def help_text(kinds, width: int = 100) -> str:
    """The bot specs and their options, for the epilog of a command's --help."""
    import textwrap
    lines = ["bot specs: NAME or NAME(key=value,...); every option of every bot (docs/bots.md):"]
    for name, doc, table in kinds:
        lines.append(f"  {name}: {doc}")
        for p in table.values():
            default = p.default_words()
            default = default if default == "required" else f"default {default}"
            text = f"{p.name}: {p.range_text()}, {default}; {p.doc}" + _marks(p)
            lines.extend(textwrap.wrap(text, width, initial_indent="      ",
                                       subsequent_indent="        "))
    return "\n".join(lines)

