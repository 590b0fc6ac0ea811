"""Bot specs that come from the network: Suggest, Analyze and RequestHint
name one search, CreateMatch names the bots of its seats. One check for all
of them, so that a spec the server would fail to run is refused before it
takes a slot, a thread or a seat.

The spec is parsed as everywhere (search/specs.py: every option typed and
range-checked against search/params.py, unknown options refused with the
list of valid ones); then the server's own allow-list and limits apply: the
bot kinds it plays (`BotKind.served`), the options a request may set
(`Param.network`), and the node budget of one search (`--max-search-nodes`),
which bounds the trees one spec can make whatever its threads and worlds.
"""
from __future__ import annotations

from easel.search import params
from easel.search.specs import BOT_KINDS, BotSpec, BotSpecError, level_mcts_args, parse_spec

from .errors import InvalidArgument
from .limits import Limits

# The server option that sets each server-only option, for the refusal.
SERVER_SET = {"max_nodes": "--max-search-nodes"}


def served_spec(text: str, field: str, *, seat: bool) -> BotSpec:
    """The parsed spec, once its kind and every option may come from a
    request. seat: a match's bot seat (it plays a whole game, so the bot
    options such as `reuse` apply), else one search."""
    try:
        spec = parse_spec(text)
    except BotSpecError as e:
        raise InvalidArgument(field, str(e)) from None
    kind = BOT_KINDS[spec.name]
    if not kind.served:
        raise InvalidArgument(field, f"the server does not play {spec.name!r} bots (they "
                                     "connect elsewhere or fail on purpose)")
    for key in spec.args:
        p = kind.params[key]
        if not p.network:
            raise InvalidArgument(field, f"{key} is the server's to set "
                                         f"({SERVER_SET.get(key, 'a server option')}), "
                                         f"not a request's")
        if spec.name == "mcts" and p.scope == "bot" and not seat:
            raise InvalidArgument(field, f"{key} applies to a bot playing a whole game (a "
                                         f"match's bot seat), not to one search")
    return spec


def expand_level(spec: BotSpec, game, field: str, *, seat: bool) -> BotSpec:
    """A `level(N)` spec as the mcts spec it stands for in this game
    (search/levels.py), so that the server's limits apply to its budget; any
    other spec as it is. One search (not a seat) leaves out the options of a
    bot playing a whole game (the temperature: a Suggest ranks the
    candidates, the client chooses among them)."""
    if spec.name != "level":
        return spec
    try:
        args = level_mcts_args(game, spec.args)
    except BotSpecError as e:
        raise InvalidArgument(field, str(e)) from None
    if not seat:
        args = {k: v for k, v in args.items() if params.MCTS[k].scope != "bot"}
    return BotSpec("mcts", args)


def check_trees(args: dict, threads: int, game, limits: Limits, field: str) -> None:
    """Refuse an mcts spec whose trees (threads, or PIMC worlds) would each
    get less than `params.MIN_TREE_NODES` of the server's node budget."""
    defaults = params.search_defaults(game)
    form = args.get("form", defaults["form"])
    worlds = args.get("worlds", defaults["worlds"])
    trees = params.tree_count(dict(form=form, threads=threads, worlds=worlds))
    most = limits.max_search_nodes // params.MIN_TREE_NODES
    if trees > most:
        what = f"worlds={worlds}" if form == "pimc" else f"threads={threads}"
        raise InvalidArgument(field, f"{what} is above this server's limit of {most} trees a "
                                     f"search (--max-search-nodes {limits.max_search_nodes}, "
                                     f"at least {params.MIN_TREE_NODES} nodes a tree)")
