"""`easel play` as a local game (server/playtable/local.py): the game built
in this process, --position read as the game's table notation (text, or a
file read through engine/userfiles.py), the bots made from --vs, and
--save written once the game is over. Refusals are one line on stderr,
exit status 2."""
from __future__ import annotations

import itertools
import os
import random
import sys


def _fail(text: str) -> int:
    print(f"easel play: error: {text}", file=sys.stderr)     # as server/cli.py says errors
    return 2


def position_text(arg: str) -> str:
    """--position's notation: the text itself, or the file it names (an
    existing path, or a one-word argument, which no notation is, read as a
    file so that a missing one is said to be missing)."""
    from easel.engine import userfiles
    if "\n" in arg or (not os.path.exists(arg) and len(arg.split()) > 1):
        return arg
    return userfiles.read_text(arg, "--position file", userfiles.POSITION_FILES)


def run(args) -> int:
    from easel import engine
    from easel.engine.errors import EaselError
    from easel.search.errors import BotSpecError
    from easel.search.specs import make_bot
    from easel.server.playtable.local import LocalGame
    from easel.server.playtable.prompt import setup_completion
    try:
        game = engine.load_game(args.game)
    except EaselError as e:
        return _fail(f"{args.game!r}: {e}")
    n = game.num_players()
    if not 0 <= args.seat < n:
        print(f"--seat must be from 0 to {n - 1} ({game.spec} has {n} players)")
        return 2
    if len(args.vs) not in (1, n - 1):
        print(f"give one --vs for all other seats, or {n - 1} (one per other seat)")
        return 2
    if args.position is not None:
        try:
            state = game.state_from_notation(position_text(args.position))
        except EaselError as e:
            return _fail(f"--position: {e}")
        if args.save:
            return _fail("--save: a record starts at the game's beginning, and this game "
                         "starts from --position; leave out one of them")
    else:
        state = game.new_initial_state()
    others = [p for p in range(n) if p != args.seat]
    specs = dict(zip(others, itertools.cycle(args.vs)))
    for p, spec in specs.items():
        try:
            make_bot(spec, game)
        except (BotSpecError, EaselError) as e:
            return _fail(f"--vs {spec!r} (player {p + 1}): {e}")
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2 ** 31)
    table = LocalGame(state, args.seat, specs, out=sys.stdout, seed=seed,
                      table_mode=args.table,
                      hint_iterations=0 if args.no_hints else args.hint_iterations)
    table.say(f"{game.spec}: you are player {args.seat + 1}; " + ", ".join(
        table.name(p) if p != args.seat else f"player {p + 1}: you" for p in range(n))
        + ("; you report chance" if args.table else "") + f"; seed {seed}")
    table.say("type a move, any start of it or its number; '?' lists the moves; 'undo', "
              "'hint', 'resign', 'quit'")
    setup_completion(table.ask, sys.stdin)
    code = table.play()
    if args.save:
        _save(table, args.save)
    return code


def _save(table, path: str) -> None:
    """Write the game's record (EGN for .egn, else JSON) and say where; a
    failure is said, not raised: the game is over."""
    from easel.engine.errors import EaselError
    from easel.search.recordfiles import write_atomically
    record = table.record()
    if record is None:
        table.say(f"not saved: the game was left unfinished; {path} is not written")
        return
    try:
        write_atomically(path, [("the game", record)])
    except (OSError, EaselError) as e:
        table.say(f"not saved in {path}: {e}")
    else:
        table.say(f"the game is saved in {path}")
