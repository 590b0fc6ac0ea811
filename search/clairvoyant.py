"""The clairvoyant bound: games played by a search that is told the real
future, to bound what any player who cannot see it can reach.

A game's chance events are decided by fixed streams of numbers, one for
each source of chance (GameC.chance_source: the bag, the deck, the die):
the j-th draw from source s takes the outcome whose cumulative interval
holds `chance_uniform(world, chance_index(s, j))`. So the future is fixed
as a table's is: the j-th canvas turned up is the same canvas however many
cubes were drawn before it ("fixed" draws, the default). The clairvoyant
player searches that one world: a tree of its decisions whose every draw on
the way is resolved by the same numbers (the IS form told its world, read
by source, search/_mcts.pyx; with shared draws the PIMC form on it), so
every line it explores, rollouts included, meets the draws the game will
really make. Its play is an upper estimate of
any hidden-information player's in the same world; averaged over worlds,
its win rate and score bound the solo games' (a search cannot always find
the best line, so the estimate is checked against larger budgets:
docs/starving-artists-solo.md).

With fixed draws the one world is a puzzle: a line of decisions replays
to one end. `follow="line"` (`easel bound --follow line`) keeps the best
line any playout finished and plays it, replacing it only by a better one
(Clairvoyant), so the search's luck in its rollouts is kept, not averaged
away: a stronger estimate of the same bound (docs/starving-artists-solo.md,
"A clairvoyant that keeps its best line").

"shared" draws, the only kind before 2026-12-06, are one stream for every
source: the k-th chance event of the game takes `chance_uniform(world, k)`.
A search told that future chooses its future too: one more cube drawn
before the evening, and every canvas after it is another. Its bound is
looser (docs/starving-artists-solo.md, "The bound chose its future"); it
is kept to replay the journals made with it.

An analysis tool, never a player: nothing here is a bot spec, so no arena,
tournament, hosted match or server can seat it (search/specs.py does not
know it). It needs the future, which only a game loop that owns the chance
stream can give: `play_world` is that loop. `easel bound` runs it and, on
the same worlds, any ordinary bot for comparison.
"""
from __future__ import annotations

import json
import statistics
import time
from dataclasses import dataclass

from easel.engine.errors import EaselError

from . import params
from ._mcts import Tree
from .bots import player_scores
from .errors import SearchError
from .seeds import mix
from .stats import interval, seat_outcomes

_GOLDEN = 0x9E3779B97F4A7C15
_MASK = (1 << 64) - 1


def _splitmix64(x: int) -> tuple[int, int]:
    """engine/rng.pxd _splitmix64: (new state, output)."""
    x = (x + _GOLDEN) & _MASK
    z = x
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return x, z ^ (z >> 31)


DRAWS = ("fixed", "shared")
# How the clairvoyant chooses its move: "tree", the most visited child of
# each decision's search; "line", the best finished line any playout has
# found so far (kept from one decision to the next; see Clairvoyant).
FOLLOW = ("tree", "line")
_SOURCE_BITS = 16       # a source's count in a packed count (search/_mcts.pyx, Tree)


def chance_index(source: int, j: int) -> int:
    """Where the j-th draw of `source` reads the world's stream with fixed
    draws: the tree's index (search/_mcts.pyx _sample_chance)."""
    return j + (source << 40)


def _draw_number(state, world: int, k: int, draws: str) -> tuple[float, int]:
    """The number deciding the chance event at `state` after the draws `k`
    (a count, packed by source with fixed draws), and the count after it."""
    if draws == "shared":
        return chance_uniform(world, k), k + 1
    s = state.chance_source()
    shift = _SOURCE_BITS * s
    j = (k >> shift) & ((1 << _SOURCE_BITS) - 1)
    if j == (1 << _SOURCE_BITS) - 1:
        raise ClairvoyantError(f"more than {j} draws from chance source {s} in one game")
    return chance_uniform(world, chance_index(s, j)), k + (1 << shift)


def chance_uniform(world: int, k: int) -> float:
    """The number deciding the k-th chance event of `world`: engine/rng.pxd
    hash_uniform(world, k), the number the PIMC form's tree reads there."""
    _, z = _splitmix64((world + k * _GOLDEN) & _MASK)
    return (z >> 11) * (1.0 / 9007199254740992.0)


def shifted_world(world: int, k: int) -> int:
    """The world seed whose j-th number is `world`'s (k + j)-th: a search
    rooted after k chance events counts its chance events from 0."""
    return (world + k * _GOLDEN) & _MASK


def chance_outcome(state, u: float) -> int:
    """The outcome a tree takes for the number u at this chance node: the
    game's fast sampler, else the outcome whose cumulative interval (in the
    listed order) holds u (search/_mcts.pyx _sample_chance, engine/rng.pxd
    pick_index), the same doubles subtracted in the same order."""
    fast = state.sample_chance(u)
    if fast is not None:
        return int(fast)
    outcomes = state.chance_outcomes()
    for o, p in outcomes[:-1]:
        u -= p
        if u < 0.0:
            return int(o)
    return int(outcomes[-1][0])


class ClairvoyantError(EaselError, ValueError):
    """A bound that cannot be computed as asked (bad option, a game with no core)."""


def clairvoyant_options(game, given: dict) -> dict:
    """The clairvoyant tree's options as the search resolves and checks them
    (the given ones, then the game's defaults, then the generic ones; errors
    name the option), by tree name: the clairvoyant's form is its own (the
    IS form told its world, or the PIMC form on it), so `form` is left out."""
    try:
        o = params.resolve_search(game, {**given, "form": "pimc", "worlds": 1})
    except (SearchError, TypeError) as e:
        raise ClairvoyantError(f"clairvoyant search: {e}") from e
    return {k: v for k, v in params.tree_options(o).items() if k != "form"}


def _line_key(returns: float, score) -> tuple:
    """How two finished lines of a solo game compare: a win (returns >= 0,
    as the win share counts it) first, then the score, then the return
    (search/_mcts.pyx Tree._keep_if_best)."""
    return (returns >= 0.0, 0.0 if score is None else score, returns)


class Clairvoyant:
    """Chooses moves in one known world: a fresh tree per decision told that
    world (the IS form, or with shared draws the PIMC form), `iterations` a
    decision. The other options of
    the tree (search/params.py, tree=True) are MCTS's, with the game's
    defaults where not given.

    follow="line": in a world told in full every line is deterministic, so
    a playout that reached the end is a line the player can replay to that
    very end. Each tree keeps the best one its playouts finished; the player
    follows the best line found so far (what is left of it after the moves
    played), and a later search replaces it only with a better one. Its game
    ends at least as well as any playout of any of its searches did (where
    the tree's most visited move guarantees nothing of the kind): the
    memory of the best sequence that nested Monte Carlo search (Cazenave
    2009) keeps for one-player puzzles. `promised` is the key (_line_key) of
    the line followed, which the game's end must meet exactly."""

    def __init__(self, game, world: int, iterations: int, seed: int = 0, draws: str = "fixed",
                 follow: str = "tree", **options):
        if not isinstance(iterations, int) or iterations < 1:
            raise ClairvoyantError(f"iterations must be a positive integer, got {iterations!r}")
        _check_draws(draws)
        _check_follow(follow)
        for bad in ("form", "worlds", "threads"):
            if bad in options:
                raise ClairvoyantError(f"option {bad!r}: the clairvoyant search is one tree "
                                       f"on the known world; leave {bad} out")
        self.game = game
        self.world = world & _MASK
        self.iterations = iterations
        self.seed = seed
        self.draws = draws
        self._given = options
        self._options = None
        self._decisions = 0
        self.follow = follow
        self._line: list[int] = []
        self.promised: tuple | None = None

    def _resolved(self, state) -> dict:
        # Read once, at the first decision (a bad option is refused when the
        # first search would start, as an ordinary bot's is).
        if self._options is None:
            self._options = clairvoyant_options(self.game, self._given)
        return self._options

    def step(self, state, chance_seen: int) -> int:
        """The move at `state`, a decision node reached after the draws
        `chance_seen` of this world (play_world's count: packed by source
        with fixed draws, the chance events with shared ones)."""
        legal = state.legal_actions()
        if len(legal) == 1:
            if self._line:
                self._next_of_line(legal)
            return legal[0]
        o = self._resolved(state)
        self._decisions += 1
        common = dict(seed=mix(self.seed, self._decisions),
                      max_nodes=max(1 << 16, 2 * self.iterations),
                      keep_line=self.follow == "line", **o)
        if self.draws == "fixed":
            # The decisions of the one world, chance in no node (its outcome
            # is known): the tree reaches deeper for the same iterations
            # than the PIMC form, whose every draw costs an iteration.
            tree = Tree(state, form="is", known=True, world_seed=self.world, sources=True,
                        chance_k0=chance_seen, **common)
        else:
            tree = Tree(state, form="pimc", world_seed=shifted_world(self.world, chance_seen),
                        **common)
        # Stopped early, as MCTSBot stops, once the leader's lead in visits
        # is more than the iterations left: the rest cannot change the move.
        chunk, done = max(self.iterations // 8, 64), 0
        while done < self.iterations:
            done += tree.run(min(chunk, self.iterations - done))
            top = sorted((n for _, n in tree.root_visits()), reverse=True) + [0, 0]
            if top[0] - top[1] > self.iterations - done:
                break
        if self.follow == "line":
            found = tree.best_line()
            key = None if found is None else _line_key(found[1], found[2])
            if key is not None and (self.promised is None or key > self.promised):
                self._line, self.promised = list(found[0]), key
            if self._line:
                return self._next_of_line(legal)
        visits = dict(tree.root_visits())
        return max(legal, key=lambda a: (visits.get(a, -1), -a))

    def _next_of_line(self, legal) -> int:
        a = self._line.pop(0)
        if a not in legal:
            # A line replays only in the world it was found in: this would
            # be a draw that did not read the world (a defect, not a choice).
            raise ClairvoyantError(f"world {self.world}: the best line's move {a} is not legal "
                                   f"here; the world's draws did not replay")
        return a


@dataclass
class WorldResult:
    world: int
    returns: list
    scores: list | None
    steps: list
    view: dict            # the final position's JSON view (day, paintings, ...)


def _check_draws(draws) -> None:
    if draws not in DRAWS:
        raise ClairvoyantError(f"draws must be one of {', '.join(DRAWS)}, got {draws!r}")


def _check_follow(follow) -> None:
    if follow not in FOLLOW:
        raise ClairvoyantError(f"follow must be one of {', '.join(FOLLOW)}, got {follow!r}")


def play_world(game, world: int, choose, draws: str = "fixed") -> WorldResult:
    """Play one game of `world` to the end; `choose(state, chance_seen)`
    gives each decision (the clairvoyant's step, or an ordinary bot's), told
    the draws made so far (a count packed by source with fixed draws)."""
    _check_draws(draws)
    state = game.new_initial_state()
    steps = []
    k = 0
    limit = 20 * game.max_game_length() + 10000
    while not state.is_terminal():
        if len(steps) > limit:
            raise ClairvoyantError(f"world {world}: no end after {limit} steps")
        if state.is_chance_node():
            u, k = _draw_number(state, world, k, draws)
            a = chance_outcome(state, u)
        else:
            a = choose(state, k)
            if not state.is_legal(a):
                raise ClairvoyantError(f"world {world}: illegal move {a} at step {len(steps) + 1}")
        state.apply_action(a)
        steps.append(int(a))
    return WorldResult(world=world, returns=[float(x) for x in state.returns()],
                       scores=player_scores(state), steps=steps, view=state.to_json())


def world_seed(seed: int, i: int) -> int:
    """The i-th world of a run seeded `seed`."""
    return mix(seed, i)


# -- a run: many worlds, the clairvoyant and ordinary bots on each ---------------------------
CLAIRVOYANT = "clairvoyant"


@dataclass(frozen=True)
class WorldTask:
    game: str
    index: int            # the world's number in the run
    world: int
    player: str           # CLAIRVOYANT or a bot spec
    iterations: int
    options: tuple        # the clairvoyant search's options, as (key, value) pairs
    seed: int
    resolved: str         # what the player plays with, resolved (JSON; see plan)
    draws: str = "fixed"  # how the world's future is read (DRAWS)
    follow: str = "tree"  # how the clairvoyant chooses (FOLLOW)


def play_task(task: WorldTask) -> dict:
    """One game of one world by one player; a JSON-ready record."""
    from .arena import loaded_game
    from .specs import make_bot, parse_spec
    game = loaded_game(task.game, "core")
    if task.player == CLAIRVOYANT:
        step = Clairvoyant(game, task.world, task.iterations, seed=task.seed,
                           draws=task.draws, follow=task.follow, **dict(task.options)).step
    else:
        # A seed the spec names is mixed into the world's: `SPEC,seed=1` and
        # `SPEC,seed=2` are two draws of one bot on every world (what a
        # player told the future could simulate and choose between).
        spec = parse_spec(task.player)
        own = spec.args.get("seed")
        bot = make_bot(spec.with_seed(task.seed if own is None else mix(task.seed, own)), game)
        bot.restart()
        step = lambda state, _k: bot.step(state.clone())   # noqa: E731 (never told the world)
    # The CPU time of the decisions with a choice: what a budget costs a
    # decision (docs/starving-artists-solo.md reads it against level 10's
    # 2 s). Thread time, so other jobs on the machine inflate it little.
    clock = {"cpu": 0.0, "searched": 0}

    def choose(state, k):
        if len(state.legal_actions()) < 2:
            return step(state, k)
        t = time.thread_time()
        a = step(state, k)
        clock["cpu"] += time.thread_time() - t
        clock["searched"] += 1
        return a
    r = play_world(game, task.world, choose, task.draws)
    return {"game": task.game, **_task_record(task), "returns": r.returns, "scores": r.scores,
            "day": r.view.get("day"), "steps": r.steps,
            "cpu_seconds": round(clock["cpu"], 3), "searched": clock["searched"]}


def summarize_solo(records: list[dict]) -> dict:
    """One player's games: the win rate (the goal reached, as the arena
    counts it: search/stats.py seat_outcomes) with the arena's 95% interval,
    and the score's and the final day's median and spread."""
    wins = [seat_outcomes(r["returns"])[0][0] for r in records]
    rate = interval(wins, bounds=(0.0, 1.0))
    out = {"games": len(records), "wins": int(sum(wins)), "win_rate": rate["mean"],
           "win_ci": [rate["low"], rate["high"]]}
    # Journals written before the clock was kept have no CPU time; the figure
    # is given only where every game has one.
    if records and all("cpu_seconds" in r for r in records):
        searched = sum(r["searched"] for r in records)
        out["cpu_a_decision"] = (sum(r["cpu_seconds"] for r in records) / searched
                                 if searched else 0.0)
    for name, values in (("score", [r["scores"][0] for r in records if r["scores"]]),
                         ("day", [r["day"] for r in records if isinstance(r["day"], int)])):
        if len(values) > 1:
            q = statistics.quantiles(values, n=4)
            out[name] = {"mean": statistics.fmean(values), "median": statistics.median(values),
                         "quartiles": [q[0], q[2]], "range": [min(values), max(values)]}
    return out


def plan(game: str, games: int, seed: int, iterations: int, options: dict,
         vs: list[str], loaded, draws: str = "fixed", follow: str = "tree") -> list[WorldTask]:
    """Every world of the run, each played by the clairvoyant and by every
    bot of `vs` (the same worlds, so the comparison is paired). Each task
    carries its player's options resolved against the game's defaults of
    the code that plays it (`loaded`: the game's core; specs.search_plays
    for a bot, nothing beyond its spec for a kind without a search), which
    its record keeps: a journal resumed after a default changed would
    otherwise mix games played under two searches under one name."""
    from .specs import search_plays
    players = [CLAIRVOYANT] + list(vs)
    opts = tuple(sorted(options.items()))
    resolved = {who: json.dumps(clairvoyant_options(loaded, options) if who == CLAIRVOYANT
                                else search_plays(who, loaded) or {}, sort_keys=True)
                for who in players}
    return [WorldTask(game=game, index=i, world=world_seed(seed, i), player=who,
                      iterations=iterations if who == CLAIRVOYANT else 0, options=opts,
                      seed=mix(seed ^ 0xB0D, i), resolved=resolved[who], draws=draws,
                      follow=follow)
            for i in range(games) for who in players]


def _key(rec: dict) -> tuple:
    # A record written before the options were recorded has None here, so
    # it matches no task: resumed, its game is played again (run_bound says
    # how many). One written before draws were recorded was played with
    # shared draws, the only kind then; a clairvoyant's written before it
    # could follow a line followed its tree.
    clairvoyant = rec["player"] == CLAIRVOYANT
    return (rec["index"], rec["world"], rec["player"], rec["iterations"],
            tuple(sorted(rec["options"].items())) if clairvoyant else (),
            json.dumps(rec["resolved"], sort_keys=True) if "resolved" in rec else None,
            rec.get("draws", "shared"), rec.get("follow", "tree") if clairvoyant else None)


def run_bound(game: str, *, iterations: int, games: int, seed: int = 0,
              options: dict | None = None, vs: list[str] = (), jobs: int = 1,
              records_path: str | None = None, resume: bool = False,
              on_record=None, on_stale=None, draws: str = "fixed", follow: str = "tree") -> dict:
    """Play the plan (games already in `records_path` kept when `resume`,
    those played with the options this code resolves), appending each
    finished game to `records_path`; return the summary per player.
    `on_stale(n)` hears of the n games of this plan the records hold but
    played with other resolved options (or recorded none): they are played
    again, not mixed in."""
    from .arena import loaded_game
    loaded = loaded_game(game, "core")
    if loaded.num_players() != 1:
        raise ClairvoyantError(f"{game}: the bound is for solo games (players=1); with "
                               f"opponents, knowing the future is not the only edge")
    if not isinstance(games, int) or games < 1:
        raise ClairvoyantError(f"games must be a positive integer, got {games!r}")
    if not isinstance(jobs, int) or jobs < 1:
        raise ClairvoyantError(f"jobs must be a positive integer, got {jobs!r}")
    _check_draws(draws)
    _check_follow(follow)
    # Every player's options resolved before any game: a bad spec or option
    # is refused here, by name.
    tasks = plan(game, games, seed, iterations, dict(options or {}), list(vs), loaded, draws,
                 follow)
    wanted = {_key(_task_record(t)): t for t in tasks}
    slots = {k[:5] for k in wanted}       # the same game, whatever its options and draws
    done: dict[tuple, dict] = {}
    stale = 0
    if resume and records_path:
        try:
            with open(records_path, encoding="utf-8") as f:
                for line in f:
                    if line.strip():
                        rec = json.loads(line)
                        key = _key(rec)
                        if key in wanted:
                            done[key] = rec
                        elif key[:5] in slots:
                            stale += 1
        except FileNotFoundError:
            pass
    if stale and on_stale is not None:
        on_stale(stale)
    todo = [t for k, t in wanted.items() if k not in done]
    out = open(records_path, "a" if resume else "w", encoding="utf-8") if records_path else None
    try:
        for rec in _play_all(todo, jobs):
            done[_key(rec)] = rec
            if out is not None:
                out.write(json.dumps(rec) + "\n")
                out.flush()
            if on_record is not None:
                on_record(rec)
    finally:
        if out is not None:
            out.close()
    by_player: dict[str, list] = {}
    for k in wanted:
        by_player.setdefault(done[k]["player"], []).append(done[k])
    out = {"game": game, "seed": seed, "iterations": iterations, "draws": draws,
           "follow": follow, "options": dict(options or {}),
           "players": {who: summarize_solo(recs) for who, recs in by_player.items()}}
    # With shared draws each player met another future (its own draws
    # decided the rest), so a world's best game would be a choice of
    # futures, not of play: only fixed draws give one.
    if len(by_player) > 1 and draws == "fixed":
        best = summarize_solo(best_of(by_player))
        best.pop("cpu_a_decision", None)         # a mixture of the players' budgets
        out["best"] = best
    return out


def best_of(by_player: dict[str, list]) -> list[dict]:
    """Each world's best game among the players' (a win first, then the
    score): what a player told the future could reach by playing each of
    them through on the known world and choosing the best, so, like the
    clairvoyant's own, an estimate from below of what knowing the future
    allows (docs/starving-artists-solo.md, "The bound chose its future")."""
    worlds: dict[int, dict] = {}
    for recs in by_player.values():
        for r in recs:
            key = (seat_outcomes(r["returns"])[0][0], r["scores"][0] if r["scores"] else 0.0)
            if r["index"] not in worlds or key > worlds[r["index"]][0]:
                worlds[r["index"]] = (key, r)
    return [worlds[i][1] for i in sorted(worlds)]


def _task_record(t: WorldTask) -> dict:
    return {"index": t.index, "world": t.world, "draws": t.draws, "player": t.player,
            **({"follow": t.follow} if t.player == CLAIRVOYANT else {}),
            "iterations": t.iterations, "options": dict(t.options),
            "resolved": json.loads(t.resolved)}


def _play_all(tasks, jobs: int):
    if jobs == 1:
        for t in tasks:
            yield play_task(t)
        return
    from concurrent.futures import ProcessPoolExecutor
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        yield from pool.map(play_task, tasks)
