"""Search quality against a peer: an Easel bot against OpenSpiel's C++
`MCTSBot` on the same rules, in duplicate pairs, one game at a time, each
game appended to a JSON-lines file as it ends (a stopped run goes on with
the same command).

    python benchmarks/peer_match.py "vangogh(players=2)" --easel "mcts(iterations=500)" \\
        --openspiel sims=500 --pairs 50 --seed 601 --out runs/vg-500.jsonl
    python benchmarks/peer_match.py ... --openspiel time=0.1      # OpenSpiel's own clock
    python benchmarks/peer_match.py --report runs/vg-500.jsonl    # the row, from the file
    python benchmarks/peer_match.py ... --jobs 2                   # two games at once

A pair is two games with the same chance outcomes (the i-th chance event of
both games draws the same uniform number, as in Easel's arena, search/arena.py)
and the seats swapped; the interval is a Student-t 95% interval over the pair
means, so the luck of the draw cancels within a pair.

The peer is `pyspiel.MCTSBot(game, RandomRolloutEvaluator(1, seed), uct_c=2,
max_simulations=N)`: UCT with chance nodes in the tree (sampled from the
outcome probabilities), one uniformly random rollout per leaf, the most
visited root child played, a new tree for every decision. It plays the Easel
game through benchmarks/openspiel_games.py, which says what it sees. With
`time=T` the peer gets its own wall-clock limit (`max_wall_clock_time`) and
the Easel spec should say `time=T` too; both then
search by the wall clock of this machine, so a busy machine costs both alike.

The bot's search is called through `mcts_search` (which returns the root)
rather than `step`: pyspiel's `step` releases the GIL, and the Python game's
callbacks need it. `step` plays the root's `BestChild`, as this does."""
from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor, as_completed

import pyspiel

from easel import engine
from easel.search.arena import derive_seed, sample_outcome
from easel.search.specs import make_bot, parse_spec
from easel.search.stats import interval, seat_outcomes

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from openspiel_games import openspiel_game  # noqa: E402

FORMAT = "easel-peer-match-v1"


class OpenSpielMCTS:
    """OpenSpiel's C++ MCTSBot as an Easel bot (step(state) -> action)."""

    def __init__(self, spec: str, sims: int | None, seconds: float | None, seed: int,
                 uct_c: float = 2.0):
        self.game = openspiel_game(spec)
        evaluator = pyspiel.RandomRolloutEvaluator(1, seed)
        self.bot = pyspiel.MCTSBot(self.game, evaluator, uct_c, sims or 1, 1 << 12, False,
                                   seed, False, max_wall_clock_time=seconds or -1.0)
        self.iterations: list[int] = []
        self.rng = random.Random(seed)

    def step(self, state) -> int:
        root = self.bot.mcts_search(self.game.state_of(state))
        self.iterations.append(root.explore_count)
        if not root.children:
            # A time limit spent on the first simulation (a busy machine)
            # leaves only the root evaluated: play a uniformly random move,
            # as OpenSpiel's Step does with one simulation (SampleFromPrior).
            return self.rng.choice(state.legal_actions())
        return root.best_child().action


def parse_peer(text: str) -> tuple[int | None, float | None]:
    """`sims=N` or `time=T` -> (sims, seconds)."""
    key, _, value = text.partition("=")
    if key == "sims" and value.isdigit() and int(value) > 0:
        return int(value), None
    if key == "time":
        try:
            seconds = float(value)
        except ValueError:
            seconds = 0.0
        if seconds > 0:
            return None, seconds
    raise SystemExit(f"--openspiel: write sims=N (simulations a decision) or time=T "
                     f"(seconds a decision), got {text!r}")


def _commit() -> str | None:
    """The commit of the Easel source tree that played (None outside a clone)."""
    import subprocess
    import easel
    try:
        return subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True,
                              text=True, check=True, timeout=10,
                              cwd=os.path.dirname(os.path.realpath(easel.__file__))).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return None


def _seed31(*parts) -> int:
    return derive_seed(*parts) & 0x7FFFFFFF


def _easel_step(bot, state) -> tuple[int, int]:
    """Easel's move and the iterations it searched for it (0 for a forced
    move). A kept tree counts the iterations of earlier moves, so the count
    is the difference when the bot goes on with the same search."""
    before = getattr(bot, "_search", None)
    n0 = before.iterations if before is not None else 0
    action = bot.step(state)
    after = getattr(bot, "_search", None)
    if after is None:
        return action, 0
    n = after.iterations
    return action, (n - n0 if after is before and n >= n0 else n)


def play(spec: str, easel_spec: str, peer: str, seed: int, pair: int, easel_seat: int) -> dict:
    """One game; the record of what happened."""
    game = engine.load_game(spec)
    sims, seconds = parse_peer(peer)
    block_seed = derive_seed(seed, "block", pair)
    easel = make_bot(parse_spec(easel_spec).with_seed(derive_seed(block_seed, "easel")), game)
    easel.restart()
    other = OpenSpielMCTS(spec, sims, seconds, _seed31(block_seed, "openspiel"))
    chance = random.Random(block_seed)
    state = game.new_initial_state()
    think, cpu, decisions, easel_iterations = [0.0, 0.0], [0.0, 0.0], [0, 0], []
    while not state.is_terminal():
        player = state.current_player()
        if player < 0:
            action = sample_outcome(state.chance_outcomes(), chance.random())
        else:
            t0, c0 = time.perf_counter(), time.thread_time()
            if player == easel_seat:
                action, n = _easel_step(easel, state.clone())
                easel_iterations.append(n)
            else:
                action = other.step(state.clone())
            think[player] += time.perf_counter() - t0
            cpu[player] += time.thread_time() - c0
            decisions[player] += 1
            if not state.is_legal(action):
                raise RuntimeError(f"seat {player} chose illegal action {action}")
        state.apply_action(action)
    returns = [float(x) for x in state.returns()]
    scores = state.scores()
    return {"format": FORMAT, "game": game.spec, "easel": easel_spec, "openspiel": peer,
            "seed": seed, "pair": pair, "easel_seat": easel_seat, "returns": returns,
            "scores": None if scores is None else [float(x) for x in scores],
            "easel_score": seat_outcomes(returns, scores)[easel_seat][0],
            "decisions": decisions, "think": [round(x, 4) for x in think],
            "cpu": [round(x, 4) for x in cpu],
            "easel_iterations": easel_iterations, "openspiel_iterations": other.iterations,
            "commit": _commit(), "openspiel_version": pyspiel.__version__
            if hasattr(pyspiel, "__version__") else None}


def read(path) -> list[dict]:
    """The finished games in a run's file (a last line cut short is left out)."""
    out = []
    if not os.path.exists(path):
        return out
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.endswith("\n"):
                out.append(json.loads(line))
    return out


def report(records) -> dict:
    """The row: Easel's score over whole pairs, with its 95% interval."""
    by_pair: dict[int, list[float]] = {}
    for r in records:
        by_pair.setdefault(r["pair"], []).append(r["easel_score"])
    means = [sum(v) / 2 for _, v in sorted(by_pair.items()) if len(v) == 2]
    iv = interval(means, bounds=(0.0, 1.0))

    def med(key):
        values = [x for r in records for x in r[key]]
        return statistics.median(values) if values else None

    easel_seconds = [r["think"][r["easel_seat"]] / max(1, r["decisions"][r["easel_seat"]])
                     for r in records]
    peer_seconds = [r["think"][1 - r["easel_seat"]] / max(1, r["decisions"][1 - r["easel_seat"]])
                    for r in records]
    first = records[0] if records else {}
    return {"game": first.get("game"), "easel": first.get("easel"),
            "openspiel": first.get("openspiel"), "seed": first.get("seed"),
            "games": 2 * len(means), "pairs": len(means), "score": iv["mean"],
            "low": iv["low"], "high": iv["high"],
            "easel_iterations_median": med("easel_iterations"),
            "openspiel_iterations_median": med("openspiel_iterations"),
            "easel_seconds_per_decision": (statistics.mean(easel_seconds)
                                           if easel_seconds else None),
            "openspiel_seconds_per_decision": (statistics.mean(peer_seconds)
                                               if peer_seconds else None)}


def format_row(row: dict) -> str:
    if row["score"] is None:
        return f"{row['game']}: no complete pair yet"
    span = (f" [{row['low']:.3f}, {row['high']:.3f}]" if row["low"] is not None else "")
    return (f"{row['game']}  {row['easel']} vs OpenSpiel MCTSBot {row['openspiel']}: "
            f"{row['score']:.3f}{span} over {row['games']} games ({row['pairs']} pairs, "
            f"seed {row['seed']}); iterations a decision (median) Easel "
            f"{row['easel_iterations_median']}, OpenSpiel {row['openspiel_iterations_median']}; "
            f"s a decision Easel {row['easel_seconds_per_decision']:.4f}, OpenSpiel "
            f"{row['openspiel_seconds_per_decision']:.4f}")


def run(spec, easel_spec, peer, seed, pairs, out, progress=True, jobs=1) -> dict:
    """Play the games of `pairs` pairs not yet in `out`, appending each as
    it ends. With `jobs` > 1 the games run in that many processes at once:
    each game depends on its seed alone, so the records are the ones one
    process writes (their order in the file aside), but a `time=` peer then
    shares the machine with the other games."""
    done = {(r["pair"], r["easel_seat"]) for r in read(out)
            if r["game"] == engine.load_game(spec).spec and r["easel"] == easel_spec
            and r["openspiel"] == peer and r["seed"] == seed}
    kept = read(out)
    if len(done) != len(kept):
        raise SystemExit(f"{out} holds games of another run; give another --out")
    todo = [(pair, seat) for pair in range(pairs) for seat in (0, 1) if (pair, seat) not in done]
    with open(out, "a", encoding="utf-8") as f:
        def keep(rec, seconds):
            f.write(json.dumps(rec) + "\n")
            f.flush()
            if progress:
                print(f"pair {rec['pair']} seat {rec['easel_seat']}: easel "
                      f"{rec['easel_score']:.1f} ({seconds:.0f} s, cpu {sum(rec['cpu']):.0f} s)",
                      flush=True)

        if jobs <= 1:
            for pair, seat in todo:
                t0 = time.perf_counter()
                keep(play(spec, easel_spec, peer, seed, pair, seat), time.perf_counter() - t0)
        else:
            with ProcessPoolExecutor(max_workers=jobs) as pool:
                started = time.perf_counter()
                games = [pool.submit(play, spec, easel_spec, peer, seed, pair, seat)
                         for pair, seat in todo]
                for g in as_completed(games):
                    keep(g.result(), time.perf_counter() - started)
    return report(read(out))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("game", nargs="?")
    ap.add_argument("--easel", default="mcts(iterations=500)")
    ap.add_argument("--openspiel", default="sims=500")
    ap.add_argument("--pairs", type=int, default=50)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out")
    ap.add_argument("--jobs", type=int, default=1,
                    help="games played at once, one process each (default 1)")
    ap.add_argument("--report", metavar="FILE", help="print the row of a run's file and stop")
    args = ap.parse_args(argv)
    if args.report:
        print(format_row(report(read(args.report))))
        return
    if not args.game or not args.out:
        ap.error("give the game string and --out FILE")
    parse_peer(args.openspiel)
    if args.jobs < 1:
        ap.error(f"--jobs must be at least 1, got {args.jobs}")
    print(format_row(run(args.game, args.easel, args.openspiel, args.seed, args.pairs,
                         args.out, jobs=args.jobs)))


if __name__ == "__main__":
    main()
