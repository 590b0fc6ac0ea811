"""The arena: bot-versus-bot tournaments in duplicate blocks.

Every block has one seed and is played once per seat rotation. The chance
outcomes of a game come from a stream seeded by the block seed alone: the
i-th chance event of every game in the block draws the same uniform number
(and so the same outcome, whenever the outcome distribution is the same), so
each bot meets the same luck from each seat and the luck of the draw cancels
within the block. Bots get seeds of their own, from the block seed, the
rotation and the seat.

Seat rotations, for k bots in an n-player game (each bot sits in each seat
equally often within every block):

- k == n: a fair design (search.tournament.schedule.fair_orders): every
  order of the bots (n <= 4) or, for five, the 20 orders in which each bot
  follows each other bot at each distance equally often. Rotating one cyclic
  order would keep every bot's neighbours fixed, and in a three-player game
  two identical bots would then score unevenly against each other;
- k < n (bots fill several seats): rotation r seats bot (s + r) mod k in
  seat s, for r < k;
- k > n: every ordered choice of n different bots (all pairings, both ways),
  when there are at most `MAX_PERMUTATIONS` of them; else rotation r seats
  bot (s + r) mod k, for r < k.

Games run in worker processes; each returns its record (search.records), and
the statistics (search.stats) are computed from the records.
"""
from __future__ import annotations

import functools
import hashlib
import itertools
import json
import math
import os
import random
import signal
import threading
import time
from dataclasses import dataclass, field
from functools import lru_cache

from easel.engine.contract_ids import PLAYER_CHANCE
from easel.engine.errors import EaselError, IllegalActionError

from .bots import player_scores
from . import egn
from .recordfiles import EGN, RecordWriter, name_format, read_records, write_atomically
from .records import RECORD_FORMAT, RecordError, today, validate_record
from .specs import differing_keys, level_plays, make_bot, parse_spec, search_plays
from .stats import head_score, sprt as sprt_test, summarize

ARENA_FORMAT = "easel-arena-v1"
MAX_PERMUTATIONS = 60


class ArenaError(EaselError, RuntimeError):
    """A tournament that cannot be set up or whose game failed (a bot broke the rules)."""


def derive_seed(*parts) -> int:
    """A 63-bit seed from any parts, stable across processes and Python versions."""
    digest = hashlib.blake2b(repr(parts).encode(), digest_size=8).digest()
    return int.from_bytes(digest, "little") >> 1


def seat_rotations(num_bots: int, num_players: int) -> list[list[int]]:
    """The seatings of one block: each a list giving the bot index of every seat."""
    k, n = num_bots, num_players
    if k < 1:
        raise ArenaError("an arena needs at least one bot")
    if k == n:
        from .tournament.schedule import fair_orders
        return [list(order) for order in fair_orders(n)]
    if k > n and math.perm(k, n) <= MAX_PERMUTATIONS:
        return [list(p) for p in itertools.permutations(range(k), n)]
    return [[(s + r) % k for s in range(n)] for r in range(k)]


def sample_outcome(outcomes, u: float) -> int:
    """The outcome at cumulative probability u (outcomes as [(id, probability)])."""
    total = sum(p for _, p in outcomes)
    acc = 0.0
    for o, p in outcomes:
        acc += p
        if u * total < acc:
            return o
    return outcomes[-1][0]


@dataclass(frozen=True)
class GameTask:
    index: int
    block: int
    rotation: int
    block_seed: int
    game: str
    implementation: str
    seats: tuple          # ((bot index, spec text, seed), ...) one per seat


@lru_cache(maxsize=8)
def loaded_game(spec: str, implementation: str):
    """The game a spec names, loaded once per worker process: every game of a run
    (arena, tournament, bound) plays the same rules object."""
    from easel import engine
    return engine.load_game(spec, implementation)


def play_game(task: GameTask) -> dict:
    """Play one game to the end and return its record."""
    game = loaded_game(task.game, task.implementation)
    bots = [make_bot(parse_spec(spec).with_seed(seed), game) for _, spec, seed in task.seats]
    for bot in bots:
        bot.restart()
    listeners = [b.inform for b in bots if callable(getattr(b, "inform", None))]
    chance = random.Random(task.block_seed)
    state = game.new_initial_state()
    steps = []
    think = [0.0] * len(bots)
    seat_decisions = [0] * len(bots)
    limit = 20 * game.max_game_length() + 10000
    started = time.perf_counter()
    while not state.is_terminal():
        if len(steps) > limit:
            raise ArenaError(f"game {task.index} ({task.game}): no end after {limit} steps")
        player = state.current_player()
        if player == PLAYER_CHANCE:
            action = sample_outcome(state.chance_outcomes(), chance.random())
        else:
            t0 = time.perf_counter()
            try:
                action = bots[player].step(state.clone())
            except EaselError:
                raise
            except Exception as e:
                raise ArenaError(
                    f"game {task.index} ({task.game}): bot {task.seats[player][1]!r} in seat "
                    f"{player} failed at step {len(steps) + 1} ({type(e).__name__}: {e}); "
                    f"the position, serialized: {state.serialize()!r}") from e
            think[player] += time.perf_counter() - t0
            seat_decisions[player] += 1
            if not state.is_legal(action):
                raise ArenaError(
                    f"game {task.index} ({task.game}): bot {task.seats[player][1]!r} in seat "
                    f"{player} chose {action!r}, which is illegal at step {len(steps) + 1}; "
                    f"legal: {state.legal_actions()}")
        state.apply_action(action)
        steps.append([player, int(action)])
        for inform in listeners:
            inform(int(action))
    return {
        "format": RECORD_FORMAT,
        "game": task.game,
        "index": task.index,
        "block": task.block,
        "block_seed": task.block_seed,
        "rotation": task.rotation,
        "seats": _seat_entries(task),
        "steps": steps,
        "returns": [float(x) for x in state.returns()],
        "scores": player_scores(state),
        "decisions": sum(seat_decisions),
        "seat_decisions": seat_decisions,
        "think": [round(x, 6) for x in think],
        "seconds": round(time.perf_counter() - started, 6),
        "date": today(),
    }


def _seat_entries(task: GameTask) -> list[dict]:
    """A record's "seats": who sat where, with which spec and seed; a
    `level(N)` seat also keeps the mcts spec it stood for ("plays"), since
    the text names a row of search/levels.py that a later build may change,
    and a search seat (mcts or level) the options it played with, the game's
    defaults filled in ("options", specs.search_plays), since a default may
    change too (a resume then refuses rather than mixing two bots' games)."""
    out = []
    for s, (b, spec, seed) in enumerate(task.seats):
        entry = {"seat": s, "bot": b, "spec": spec, "seed": seed}
        plays, options = _seat_plays(task.game, task.implementation, spec)
        if plays is not None:
            entry["plays"] = plays
        if options is not None:
            entry["options"] = json.loads(options)
        out.append(entry)
    return out


@lru_cache(maxsize=256)
def _seat_plays(game: str, implementation: str, spec: str) -> tuple:
    # Once per spec, not per game: a run's every record names the same few.
    # (The search options as JSON text: a cached value must not be shared
    # mutable.) A search seat needs the core, so the reference has none.
    loaded = loaded_game(game, implementation)
    options = search_plays(spec, loaded) if implementation == "core" else None
    return (level_plays(spec, loaded),
            json.dumps(options, sort_keys=True) if options is not None else None)


_CHECKED_APART = ("plays", "options")


def _without_plays(seats) -> list:
    """A record's seats as the plan compares them ("plays" and "options" are
    checked apart)."""
    return [{k: v for k, v in e.items() if k not in _CHECKED_APART} if isinstance(e, dict)
            else e for e in seats or []]


def _play_safely(task: GameTask, form: str | None = None):
    """Worker entry: ("ok", record, its EGN text if form is EGN else None), or
    ("error", text) so the parent can say which game failed. The text is
    made here, beside the game, rather than in the parent that collects them."""
    try:
        record = play_game(task)
        return ("ok", record, egn.dumps(record, task.implementation) + "\n"
                if form == EGN else None)
    except EaselError as e:
        return ("error", f"game {task.index}: {e}")
    except Exception as e:          # a bot's bug must name the game, not kill the pool silently
        return ("error", f"game {task.index}: {type(e).__name__}: {e}")


def _ignore_sigint():
    signal.signal(signal.SIGINT, signal.SIG_IGN)


@dataclass
class ArenaResult:
    summary: dict
    records: list = field(default_factory=list)
    interrupted: bool = False


def bot_labels(specs) -> list[str]:
    """Display names: the spec text, numbered when two bots share one."""
    texts = [parse_spec(s).text for s in specs]
    out = []
    for i, t in enumerate(texts):
        out.append(f"{t}#{texts[:i + 1].count(t)}" if texts.count(t) > 1 else t)
    return out


def plan(game, specs, games: int, seed: int, implementation: str = "core") -> list[GameTask]:
    """The games of a run: at least `games`, in whole duplicate blocks."""
    parsed = [parse_spec(s) for s in specs]
    rotations = seat_rotations(len(parsed), game.num_players())
    n_blocks = max(1, math.ceil(games / len(rotations)))
    tasks = []
    for block in range(n_blocks):
        block_seed = derive_seed(seed, "block", block)
        for r, seating in enumerate(rotations):
            seats = []
            for s, b in enumerate(seating):
                own = parsed[b].args.get("seed")
                bot_seed = derive_seed(block_seed, "bot", r, s, b, own)
                seats.append((b, parsed[b].text, bot_seed))
            tasks.append(GameTask(len(tasks), block, r, block_seed, game.spec,
                                  implementation, tuple(seats)))
    return tasks


class _Decided(Exception):
    """The SPRT reached a decision: stop playing."""


def _block_score(recs) -> float | None:
    """Bot 0's mean head-to-head score over one block's games."""
    scores = [x for x in (head_score(r, 0, 1) for r in recs) if x is not None]
    return sum(scores) / len(scores) if scores else None


def _in_block_order(block_scores: dict) -> list[float]:
    return [block_scores[b] for b in sorted(block_scores)]


def kept_records(path, tasks, implementation: str = "core") -> list[dict]:
    """The games an interrupted run of the same plan left in its records
    file (either form, search/recordfiles.py), each checked against the plan
    (game, block, seed, seats) and replayed, in game order; a last record cut
    short (the run was killed while writing it) is dropped. A missing
    file holds no games. A record that belongs to another run or does not replay is an
    ArenaError naming the file and line: resuming must never mix two runs."""
    if not os.path.exists(path):
        return []
    by_index = {t.index: t for t in tasks}
    kept: dict[int, dict] = {}
    cache = {}
    for line_no, rec in read_records(path, implementation, cache):
        if isinstance(rec, RecordError):
            if getattr(rec, "cut", False):      # the record being written when the run stopped
                continue
            raise ArenaError(f"--resume: {path}: {rec}")
        where = f"--resume: {path}, line {line_no}"
        index = rec.get("index")
        task = by_index.get(index) if isinstance(index, int) else None
        if task is None:
            raise ArenaError(f"{where}: game index {index!r} is not a game of this run "
                             f"(0 to {len(tasks) - 1}); resume with the same --games")
        seats = _seat_entries(task)
        expected = {"game": task.game, "block": task.block, "block_seed": task.block_seed,
                    "rotation": task.rotation, "seats": _without_plays(seats)}
        got = dict(rec, seats=_without_plays(rec.get("seats")))
        differ = [k for k, v in expected.items() if got.get(k) != v]
        if differ:
            raise ArenaError(f"{where}: game {index} was played with another "
                             f"{', '.join(differ)} than this run's; resume with the same game, "
                             f"bots and --seed")
        for seat, entry in zip(rec["seats"], seats):
            # a record from before "plays" (or "options") was kept cannot be checked
            if "plays" in seat and seat["plays"] != entry.get("plays"):
                raise ArenaError(f"{where}: seat {entry['seat']} {entry['spec']} played "
                                 f"{seat['plays']} there but is {entry.get('plays')} in this "
                                 "build (search/levels.py changed); start a new records file")
            if "options" in seat and seat["options"] != entry.get("options"):
                changed = differing_keys(seat["options"] if isinstance(seat["options"], dict)
                                         else {}, entry.get("options") or {})
                raise ArenaError(f"{where}: seat {entry['seat']} {entry['spec']} played with "
                                 f"other search options there than in this build "
                                 f"({'; '.join(changed)[:300]}; a default changed); start a "
                                 "new records file")
        if index in kept:
            raise ArenaError(f"{where}: game {index} is in the file twice")
        try:
            validate_record(rec, line_no, implementation, cache)
        except RecordError as e:
            raise ArenaError(f"--resume: {path}: {e}") from None
        kept[index] = rec
    return [kept[i] for i in sorted(kept)]


# How long a stopped run waits for its pool to wind down before it kills the
# workers itself (seconds).
POOL_STOP_SECONDS = 20.0


def _stop_pool(pool, grace: float = POOL_STOP_SECONDS) -> None:
    """End a pool whose games are no longer wanted (Ctrl-C, an SPRT
    decision) without waiting for them. Pool.terminate can wait forever:
    it kills the workers, and one killed while it was writing a result
    leaves the result queue's lock held, so the pool's task thread never
    gets to post its last message and terminate's join of it never returns
    (seen as a 600 s hang of an interrupted run). So the ending runs in a
    daemon thread; if it has not returned within `grace` seconds, the
    workers are killed outright and the stuck pool threads (daemons) are
    left behind, holding nothing the run needs: its finished games are
    already taken."""
    def wind_down():
        pool.terminate()
        pool.join()

    stopper = threading.Thread(target=wind_down, name="arena-pool-stop", daemon=True)
    stopper.start()
    stopper.join(grace)
    if stopper.is_alive():
        for worker in list(getattr(pool, "_pool", ())):
            if worker.is_alive():
                worker.kill()


def run_arena(game_spec: str, specs, games: int = 100, seed: int = 0, jobs: int = 1,
              records_path=None, implementation: str = "core", progress: bool = False,
              on_record=None, sprt: dict | None = None, resume: bool = False) -> ArenaResult:
    """Play a tournament; return its statistics (and the records, in game order).

    Interrupted by Ctrl-C, it stops the games in progress and reports the
    finished ones (`interrupted` is then True).

    sprt: {"elo0", "elo1", "alpha", "beta"} for two bots: after each complete
    block, test H0 (Elo elo0) against H1 (Elo elo1) for the first bot and stop
    as soon as one is accepted; `games` is then the most that will be played.

    resume: `records_path` holds games of an interrupted run of this same
    arena (game, bots, games, seed): they are checked, kept and counted, and
    only the rest are played and appended. The results are those of the
    uninterrupted run, since every game's seeds come from the plan."""
    from easel import engine
    game = engine.load_game(game_spec, implementation)
    if len(specs) < 2 and game.num_players() > 1:
        raise ArenaError("an arena needs at least two bot specs (one is enough for a solo game)")
    if not specs:
        raise ArenaError("an arena needs at least one bot spec")
    if games < 1:
        raise ArenaError(f"--games must be at least 1, got {games}")
    if jobs < 1:
        raise ArenaError(f"--jobs must be at least 1, got {jobs}")
    if sprt is not None:
        if len(specs) != 2 or game.num_players() < 2:
            raise ArenaError("--sprt compares exactly two bots in a game of two or more players, "
                             f"got {len(specs)} bot(s) in a {game.num_players()}-player game")
        try:
            sprt_test([], **sprt)
        except (TypeError, ValueError) as e:
            raise ArenaError(f"--sprt: {e}") from None
    labels = bot_labels(specs)
    for spec in specs:                       # refuse a bad spec before any game starts
        make_bot(spec, game, seed=0)
    tasks = plan(game, specs, games, seed, implementation)
    rotations = seat_rotations(len(specs), game.num_players())
    kept = []
    if resume:
        if not records_path:
            raise ArenaError("--resume needs the --records file of the run to go on with")
        kept = kept_records(records_path, tasks, implementation)
        # Rewrite the kept games (atomically) before appending: a cut last
        # record goes, and the next record starts on a line of its own.
        write_atomically(records_path, ((f"game {rec['index']}", rec) for rec in kept),
                         implementation)
    done = {rec["index"] for rec in kept}
    tasks_to_play = [t for t in tasks if t.index not in done]

    records, interrupted = [], False
    started = time.perf_counter()
    out = (RecordWriter(records_path, append=resume, implementation=implementation)
           if records_path else None)
    form = name_format(records_path) if records_path else None
    bar = None
    if progress:
        from tqdm import tqdm
        bar = tqdm(total=len(tasks), unit="game", desc=game.spec, dynamic_ncols=True)

    by_block: dict[int, list] = {}          # block -> its finished games (SPRT)
    block_scores: dict[int, float] = {}     # complete block -> bot 0's score (SPRT)

    def take(outcome, new=True):
        if outcome[0] == "error":
            raise ArenaError(outcome[1])
        _, result, text = outcome
        records.append(result)
        if new and out is not None:
            out.write(result, text)
        if bar is not None:
            bar.update(1)
        if new and on_record is not None:
            on_record(result)
        if sprt is not None:
            block = by_block.setdefault(result["block"], [])
            block.append(result)
            if len(block) == len(rotations):        # complete: score it once
                score = _block_score(block)
                if score is not None:
                    block_scores[result["block"]] = score
                    if sprt_test(_in_block_order(block_scores), **sprt)["decision"]:
                        raise _Decided

    pool = None
    try:
        for rec in kept:
            take(("ok", rec, None), new=False)
        if jobs == 1 or not tasks_to_play:
            for task in tasks_to_play:
                take(_play_safely(task, form))
        else:
            import multiprocessing
            pool = multiprocessing.get_context().Pool(min(jobs, len(tasks_to_play)),
                                                      initializer=_ignore_sigint)
            for result in pool.imap_unordered(functools.partial(_play_safely, form=form),
                                              tasks_to_play, chunksize=1):
                take(result)
            pool.close()
            pool.join()
            pool = None
    except KeyboardInterrupt:
        interrupted = True
    except _Decided:
        pass
    finally:
        if pool is not None:
            _stop_pool(pool)
        if bar is not None:
            bar.close()
        if out is not None:
            out.close()

    records.sort(key=lambda r: r["index"])
    summary = summarize(records, labels, game.num_players())
    summary["sprt"] = (sprt_test(_in_block_order(block_scores), **sprt)
                       if sprt is not None else None)
    n_blocks = len({t.block for t in tasks})
    per_block = {}
    for r in records:
        per_block[r["block"]] = per_block.get(r["block"], 0) + 1
    summary.update({
        "format": ARENA_FORMAT,
        "game": game.spec,
        "implementation": implementation,
        "specs": [parse_spec(s).text for s in specs],
        "labels": labels,
        "seed": seed,
        "jobs": jobs,
        "games_requested": games,
        "games_planned": len(tasks),
        "blocks_planned": n_blocks,
        "block_size": len(rotations),
        "complete_blocks": sum(1 for c in per_block.values() if c == len(rotations)),
        "rotations": rotations,
        "interrupted": interrupted,
        "resumed_games": len(kept),
        "seconds": round(time.perf_counter() - started, 3),
        "cpu_count": os.cpu_count(),
    })
    return ArenaResult(summary, records, interrupted)


# -- text report ----------------------------------------------------------------

def _ci(iv, fmt="{:.3f}", signed=False) -> str:
    if iv is None or iv.get("mean") is None:
        return "-"
    f = ("{:+" + fmt[2:]) if signed else fmt
    if iv.get("low") is None:
        return f.format(iv["mean"])
    return f"{f.format(iv['mean'])} [{f.format(iv['low'])}, {f.format(iv['high'])}]"


def _elo(value) -> str:
    from .stats import ELO_CAP
    if abs(value) >= ELO_CAP:
        return "+inf" if value > 0 else "-inf"
    return f"{value:+.1f}"


def format_report(summary: dict) -> str:
    s = summary
    lines = [f"Arena: {s['game']}  {s['games']} games in {s['blocks']} duplicate block(s) of "
             f"{s['block_size']} seat rotation(s), seed {s['seed']}, {s['jobs']} job(s), "
             f"{s['seconds']:.1f} s" + ("  (interrupted)" if s["interrupted"] else "")
             + ("  (stopped: the SPRT decided)" if (s.get("sprt") or {}).get("decision")
                and s["games"] < s["games_planned"] else "")]
    if s.get("resumed_games"):
        lines.append(f"{s['resumed_games']} game(s) kept from the records file (--resume); "
                     f"the seconds count this run only.")
    lines.append("95% intervals over block means.")
    width = max([len(b["label"]) for b in s["bots"]] + [3])
    head = (f"{'bot':<{width}}  {'games':>5}  {'win rate':<24}  {'mean rank':<24}  "
            f"{'mean margin':<28}  {'s/move':>8}")
    lines += [head, "-" * len(head)]
    for b in s["bots"]:
        spd = b["seconds_per_decision"]
        lines.append(f"{b['label']:<{width}}  {b['games']:>5}  {_ci(b['win_rate']):<24}  "
                     f"{_ci(b['mean_rank'], '{:.2f}'):<24}  "
                     f"{_ci(b['mean_margin'], '{:.2f}', signed=True):<28}  "
                     f"{(f'{spd:.5f}' if spd is not None else '-'):>8}")
    if s["elo"] is not None:
        e = s["elo"]
        los = f", LOS {100 * e['los']:.1f}%" if e["los"] is not None else ""
        span = (f" [{_elo(e['low'])}, {_elo(e['high'])}]" if e["low"] is not None else "")
        lines.append(f"Elo {e['bots'][0]} vs {e['bots'][1]}: {_elo(e['diff'])}{span}"
                     f" (score {_ci(e['score'])}{los})")
        if e["pairs"] is not None:
            p = e["pairs"]
            lines.append("Block pairs for " + e["bots"][0] + ": " +
                         ", ".join(f"{k} {v}" for k, v in p.items()))
    if s.get("ratings"):
        lines.append("Ratings (Bradley-Terry Elo, mean 0; 95% bootstrap over blocks):")
        for r in sorted(s["ratings"], key=lambda r: -r["elo"]):
            span = (f" [{_elo(r['low'])}, {_elo(r['high'])}]" if r["low"] is not None else "")
            lines.append(f"  {r['label']:<{width}}  {_elo(r['elo'])}{span}  ({r['games']} games)")
        lines.append("Head to head (first bot's score, Elo difference):")
        for e in s["head_to_head"]:
            span = f" [{_elo(e['low'])}, {_elo(e['high'])}]" if e["low"] is not None else ""
            lines.append(f"  {e['bots'][0]} vs {e['bots'][1]}: score {_ci(e['score'])}, "
                         f"Elo {_elo(e['diff'])}{span}")
    if s.get("sprt"):
        t = s["sprt"]
        first = s["bots"][0]["label"]
        verdict = {"H1": f"H1 accepted: {first} plays at elo1 ({t['elo1']:+g}) rather than elo0",
                   "H0": f"H0 accepted: {first} plays at elo0 ({t['elo0']:+g}) rather than elo1",
                   None: "no decision"}[t["decision"]]
        lines.append(f"SPRT elo0={t['elo0']:g} elo1={t['elo1']:g} alpha={t['alpha']:g} "
                     f"beta={t['beta']:g}: LLR {t['llr']:.2f} (bounds {t['lower']:.2f}, "
                     f"{t['upper']:.2f}) after {t['blocks']} block(s); {verdict}")
    for b in s["bots"]:
        sc = b.get("score")
        if sc is not None:
            lines.append(f"Scores of {b['label']}: mean {_ci(sc['mean'], '{:.1f}')}, median "
                         f"{sc['median']:.1f} (quartiles {sc['q1']:.1f}-{sc['q3']:.1f}, "
                         f"range {sc['min']:.0f}-{sc['max']:.0f})")
    if len(s["seats"]) == 1:
        lines.append("Solo: 'win rate' is the share of games that reached the goal "
                     "(returns >= 0).")
    lines.append("Seats (all bots): " + "; ".join(
        f"seat {x['seat']} win {_ci(x['win_rate'])}" for x in s["seats"]))
    if s["first_player_advantage"] is not None:
        lines.append(f"First-player advantage (seat 0 win rate minus "
                     f"1/{len(s['seats'])}): {_ci(s['first_player_advantage'], signed=True)}")
    lines.append("Win rate by seat: " + "; ".join(
        b["label"] + " " + "/".join("-" if x["win_rate"] is None else f"{x['win_rate']:.3f}"
                                    for x in b["by_seat"])
        for b in s["bots"]))
    if s["draw_rate"] is not None:
        lines.append(f"Shared wins (draws): {s['draw_rate']:.3f}; "
                     f"mean decisions per game: {s['mean_decisions']:.1f}")
    return "\n".join(lines)
