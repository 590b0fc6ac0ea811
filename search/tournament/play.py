"""One block of a tournament: every seating of one field, with one seed.

`play_block` is what a worker runs (a local process or a Ray task). It takes
a `BlockTask` and returns the block's journal entry: a record per game in the
arena's record format (search.records), each with two more fields:

    places   per seat, 1 for the best; tied seats share the best place they
             cover (1, 1, 3 for a two-way tie for first)
    end      "normal", or "forfeit" when a bot faulted; then
    fault    {"seat", "bot", "reason", "detail", "step"}, reason one of
             "raise" (the bot raised or could not be built), "illegal" (it
             answered an action that is not legal) or "timeout" (a move took
             longer than the budget's move_seconds)

A bot that faults forfeits the game: the game stops there, the faulty seat
takes the last place alone and the other seats share the first. Its returns
are the game's worst for the faulty seat and best for the others.

Everything a block does follows from its seed and its bots' specs, so a
block played twice (a rerun after its worker died, or another backend)
gives the same games, except for the timings and for timeouts.
"""
from __future__ import annotations

import random
import signal
import threading
import time
from dataclasses import asdict, dataclass

from easel.engine.contract_ids import PLAYER_CHANCE

from ..arena import loaded_game, derive_seed, sample_outcome
from ..bots import player_scores
from ..records import RECORD_FORMAT, today
from ..specs import make_bot, parse_spec

FAULT_REASONS = ("raise", "illegal", "timeout")
HARD_TIMEOUT_FACTOR = 3.0      # a move is cut off at 3x move_seconds + 1 s


@dataclass(frozen=True)
class BlockTask:
    id: str
    game: str                 # canonical game string
    implementation: str
    field: tuple              # ((bot name, spec text), ...) the field's bots, by field position
    block: int                # the block's number within its (game, field)
    seed: int                 # the block seed: chance outcomes and bot seeds derive from it
    orders: tuple             # seatings: per game, the field position in each seat
    move_seconds: float | None = None

    def to_dict(self) -> dict:
        return asdict(self)


class _MoveTimeout(BaseException):
    """Raised in the worker by the hard move alarm (BaseException: bots must not catch it)."""


def _places(returns, eps=1e-9):
    return [1 + sum(1 for q in returns if q > r + eps) for r in returns]


def _bot_seed(task: BlockTask, game_index: int, seat: int, name: str, spec: str) -> int:
    own = parse_spec(spec).args.get("seed")
    return derive_seed(task.seed, "bot", game_index, seat, name, own)


def play_one(task: BlockTask, game_index: int) -> dict:
    game = loaded_game(task.game, task.implementation)
    order = task.orders[game_index]
    seats = [(task.field[pos][0], task.field[pos][1]) for pos in order]
    seeds = [_bot_seed(task, game_index, s, name, spec) for s, (name, spec) in enumerate(seats)]
    state = game.new_initial_state()
    steps: list = []
    think = [0.0] * len(seats)
    seat_decisions = [0] * len(seats)
    fault = None
    started = time.perf_counter()

    def forfeit(seat, reason, detail):
        return {"seat": seat, "bot": seats[seat][0], "reason": reason,
                "detail": str(detail)[:500], "step": len(steps) + 1}

    bots = []
    for s, (name, spec) in enumerate(seats):
        try:
            bot = make_bot(parse_spec(spec).with_seed(seeds[s]), game)
            bot.restart()
            bots.append(bot)
        except Exception as e:              # cannot even be built: forfeits the game
            fault = forfeit(s, "raise", f"{type(e).__name__}: {e}")
            break
    listeners = [b.inform for b in bots if callable(getattr(b, "inform", None))]
    chance = random.Random(task.seed)
    limit = 20 * game.max_game_length() + 10000
    hard = (task.move_seconds * HARD_TIMEOUT_FACTOR + 1.0) if task.move_seconds else None
    use_alarm = hard is not None and threading.current_thread() is threading.main_thread()
    while fault is None and not state.is_terminal():
        if len(steps) > limit:
            raise RuntimeError(f"{task.game}: no end after {limit} steps")
        player = state.current_player()
        if player == PLAYER_CHANCE:
            action = sample_outcome(state.chance_outcomes(), chance.random())
        else:
            t0 = time.perf_counter()
            try:
                if use_alarm:
                    signal.setitimer(signal.ITIMER_REAL, hard)
                action = bots[player].step(state.clone())
            except _MoveTimeout:
                fault = forfeit(player, "timeout", f"no answer after {hard:g} s (cut off)")
                break
            except Exception as e:
                fault = forfeit(player, "raise", f"{type(e).__name__}: {e}")
                break
            finally:
                if use_alarm:
                    signal.setitimer(signal.ITIMER_REAL, 0)
                spent = time.perf_counter() - t0
                think[player] += spent
                seat_decisions[player] += 1
            if task.move_seconds and spent > task.move_seconds:
                fault = forfeit(player, "timeout",
                                f"a move took {spent:.3f} s, over the {task.move_seconds:g} s budget")
                break
            if isinstance(action, bool) or not isinstance(action, int) or \
                    not state.is_legal(action):
                fault = forfeit(player, "illegal", f"answered {action!r}; legal: "
                                f"{state.legal_actions()[:30]}")
                break
        state.apply_action(action)
        steps.append([player, int(action)])
        for inform in listeners:
            inform(int(action))
    for bot in bots:
        close = getattr(bot, "close", None)
        if callable(close):
            close()
    if fault is None:
        returns = [float(x) for x in state.returns()]
        places = _places(returns)
    else:
        worst, best = float(game.min_utility()), float(game.max_utility())
        returns = [worst if s == fault["seat"] else best for s in range(len(seats))]
        places = [len(seats) if s == fault["seat"] else 1 for s in range(len(seats))]
    return {
        "format": RECORD_FORMAT,
        "game": task.game,
        "index": game_index,
        "block": task.block,
        "block_seed": task.seed,
        "rotation": game_index,
        "seats": [{"seat": s, "bot": name, "spec": spec, "seed": seeds[s]}
                  for s, (name, spec) in enumerate(seats)],
        "steps": steps,
        "returns": returns,
        "scores": player_scores(state) if fault is None else None,
        "places": places,
        "end": "normal" if fault is None else "forfeit",
        "fault": fault,
        "decisions": sum(seat_decisions),
        "seat_decisions": seat_decisions,
        "think": [round(x, 6) for x in think],
        "seconds": round(time.perf_counter() - started, 6),
        "date": today(),
    }


def _on_alarm(signum, frame):
    raise _MoveTimeout()


def played_before(task: BlockTask, game_index: int, record) -> bool:
    """Whether `record` is game `game_index` of this block as play_one would
    play it again: its index, block seed and seats (bots and specs). Its moves
    need no check: a game is fixed by its block seed, index and seats (every
    bot seed and chance outcome derives from them, `_bot_seed`)."""
    if not isinstance(record, dict) or record.get("format") != RECORD_FORMAT:
        return False
    order = task.orders[game_index]
    seats = [{"bot": task.field[pos][0], "spec": task.field[pos][1]} for pos in order]
    return (record.get("index") == game_index and record.get("game") == task.game
            and record.get("block_seed") == task.seed
            and [{"bot": s.get("bot"), "spec": s.get("spec")} for s in record.get("seats") or []
                 if isinstance(s, dict)] == seats)


def play_block(task: BlockTask | dict, done: dict | None = None, on_game=None) -> dict:
    """Play every seating of the block; return its journal entry.

    done: game index -> the record of a game of this block played before (a
    run stopped mid-block journals its finished games, runner.py): kept, not
    played again, when `played_before` says it is that game. on_game(record)
    is called with each game as it is played, for the journal."""
    if isinstance(task, dict):
        task = BlockTask(**{k: (tuple(tuple(x) if isinstance(x, list) else x for x in v)
                                if isinstance(v, list) else v) for k, v in task.items()})
    done = done or {}
    previous = None
    if task.move_seconds and threading.current_thread() is threading.main_thread():
        previous = signal.signal(signal.SIGALRM, _on_alarm)
    started = time.perf_counter()
    try:
        games = []
        for i in range(len(task.orders)):
            record = done.get(i)
            if not played_before(task, i, record):
                record = play_one(task, i)
                if on_game is not None:
                    on_game(record)
            games.append(record)
    finally:
        if previous is not None:
            signal.signal(signal.SIGALRM, previous)
    return {"type": "block", "id": task.id, "game": task.game,
            "field": [name for name, _ in task.field], "block": task.block,
            "seed": task.seed, "games": games,
            "seconds": round(time.perf_counter() - started, 6)}
