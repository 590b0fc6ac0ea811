"""Easel's search set up as plain UCT against OpenSpiel's MCTSBot, decision
by decision: both search the same positions many times with different
seeds, and the moves they pick are compared.

    python benchmarks/peer_positions.py pig --seeds 3 4 --plies 6 --runs 100
    python benchmarks/peer_positions.py "vangogh(players=2)" --seeds 11 12 --plies 0 10 25 45

Positions: from the game's start, chance outcomes drawn by their
probabilities and `plies` uniformly random decisions, all from `seed`.
At each, `runs` searches of `iterations` each by Easel's closed form
(chance nodes in the tree, as OpenSpiel's bot has them), its IS form (the
same settings otherwise: `uct_c` 2, random rollouts, no margin term, no
policy bias) and OpenSpiel's MCTSBot (benchmarks/peer_match.py). For each
it prints the mean root visits, the mean value and the share of runs that
chose each move, and the total variation distance between the closed
form's choices and OpenSpiel's, against the distance between the two
halves of the closed form's own runs (what seed noise alone gives)."""
from __future__ import annotations

import argparse
import collections
import os
import random
import statistics
import sys

import pyspiel

from easel import engine
from easel.search import Search

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from openspiel_games import openspiel_game  # noqa: E402

PLAIN = dict(uct_c=2.0, rollout="random", margin_weight=0.0, rollout_depth=-1, policy_bias=0.0)


def _draw(state, rng):
    outcomes = state.chance_outcomes()
    state.apply_action(rng.choices([o for o, _ in outcomes], [p for _, p in outcomes])[0])


def position(spec: str, seed: int, plies: int):
    game = engine.load_game(spec)
    state, rng, made = game.new_initial_state(), random.Random(seed), 0
    while not state.is_terminal():
        if state.is_chance_node():
            _draw(state, rng)
        elif made < plies:
            state.apply_action(rng.choice(state.legal_actions()))
            made += 1
        else:
            break
    return game, state


def easel_root(game, state, iterations: int, seed: int, form: str):
    """{action: (visits, mean value)} of the root's children, and the move played."""
    search = Search(game, state, seed=seed, form=form, **PLAIN)
    search.run(iterations)
    nodes, _ = search._trees[0].export()
    out, c = {}, int(nodes[0]["first_child"])
    while c >= 0:
        if nodes[c]["kind"] == 0 and nodes[c]["n_visits"] > 0:
            out[int(nodes[c]["action"])] = (int(nodes[c]["n_visits"]),
                                            float(nodes[c]["total"]) / int(nodes[c]["n_visits"]))
        c = int(nodes[c]["next_sibling"])
    return out, search.best_action()


def openspiel_root(game, state, iterations: int, seed: int):
    bot = pyspiel.MCTSBot(game, pyspiel.RandomRolloutEvaluator(1, seed), 2.0, iterations,
                          1 << 12, False, seed, False)
    root = bot.mcts_search(game.state_of(state))
    out = {c.action: (c.explore_count, c.total_reward / c.explore_count)
           for c in root.children if c.explore_count > 0}
    return out, root.best_child().action


def tvd(a: collections.Counter, b: collections.Counter) -> float:
    na, nb = sum(a.values()), sum(b.values())
    return 0.5 * sum(abs(a[k] / na - b[k] / nb) for k in set(a) | set(b))


def compare(spec: str, seed: int, plies: int, iterations: int, runs: int) -> dict:
    game, state = position(spec, seed, plies)
    peer = openspiel_game(spec)
    engines = {
        "easel closed": lambda k: easel_root(game, state, iterations, 1000 + k, "closed"),
        "easel is": lambda k: easel_root(game, state, iterations, 1000 + k, "is"),
        "openspiel": lambda k: openspiel_root(peer, state, iterations, 9000 + k),
    }
    stats = {}
    for name, search in engines.items():
        visits, values = collections.defaultdict(list), collections.defaultdict(list)
        chosen = [collections.Counter(), collections.Counter()]     # even, odd runs
        for k in range(runs):
            out, best = search(k)
            chosen[k % 2][best] += 1
            for a in state.legal_actions():
                n, v = out.get(a, (0, None))
                visits[a].append(n)
                if v is not None:
                    values[a].append(v)
        stats[name] = (visits, values, chosen[0] + chosen[1], chosen)
    closed = stats["easel closed"]
    return {"state": state, "stats": stats,
            "tvd closed-openspiel": tvd(closed[2], stats["openspiel"][2]),
            "tvd closed-is": tvd(closed[2], stats["easel is"][2]),
            "tvd closed halves": tvd(*closed[3])}


def show(spec, seed, plies, result, runs, top=8):
    state, stats = result["state"], result["stats"]
    print(f"\n{spec} seed {seed}, {plies} random decisions: player {state.current_player()}, "
          f"{len(state.legal_actions())} legal moves. Choice distance closed-OpenSpiel "
          f"{result['tvd closed-openspiel']:.2f}, closed-IS {result['tvd closed-is']:.2f}, "
          f"closed's two halves {result['tvd closed halves']:.2f}")
    print(f"{'move':>28}  " + "  ".join(f"{name + ' visits/value/chosen':>36}" for name in stats))
    peer_visits = stats["openspiel"][0]
    for a in sorted(state.legal_actions(), key=lambda a: -statistics.mean(peer_visits[a]))[:top]:
        cells = []
        for visits, values, chosen, _ in stats.values():
            value = statistics.mean(values[a]) if values[a] else float("nan")
            cells.append(f"{statistics.mean(visits[a]):9.1f} {value:+.3f} {chosen[a] / runs:5.2f}")
        print(f"{state.action_to_string(a)[:28]:>28}  " + "  ".join(f"{c:>36}" for c in cells))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("game")
    ap.add_argument("--seeds", type=int, nargs="+", default=[3])
    ap.add_argument("--plies", type=int, nargs="+", default=[0])
    ap.add_argument("--iterations", type=int, default=500)
    ap.add_argument("--runs", type=int, default=40)
    args = ap.parse_args(argv)
    for seed in args.seeds:
        for plies in args.plies:
            result = compare(args.game, seed, plies, args.iterations, args.runs)
            show(args.game, seed, plies, result, args.runs)


if __name__ == "__main__":
    main()
