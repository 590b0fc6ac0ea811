"""Seconds per decision of every strength level (search/levels.py), per game:
CPU seconds of the deciding thread (`time.thread_time`), which a loaded
machine inflates far less than the wall clock, over the searched decisions
of self-play games between the level and the level below it (so the
positions are those the level meets), `DECISIONS` of them a level.

    python -m pytest benchmarks/bench_levels.py -s
    python benchmarks/bench_levels.py "vangogh(players=2)" [LEVEL ...]   # the figures alone
    python benchmarks/bench_levels.py --rate "vangogh(players=2)"   # iterations per CPU second
    python benchmarks/bench_levels.py --whole "starving_artists(players=1)" "level(10)" [SEED]
"""
from __future__ import annotations

import random
import statistics
import sys
import time

import pytest

from easel import engine
from easel.search.specs import make_bot

DECISIONS = 24
GAMES = ["vangogh(players=2)", "couleurs_de_paris(players=2)", "starving_artists(players=2)",
         "connect_four", "pig"]


def seconds_per_decision(spec: str, level: int, decisions: int = DECISIONS, seed: int = 1):
    """(mean, max) CPU seconds of `level`'s searched decisions."""
    game = engine.load_game(spec)
    times = []
    g = 0
    while len(times) < decisions:
        rng = random.Random(seed * 100 + g)
        specs = [f"level({level if s % 2 == g % 2 else max(level - 1, 1)})"
                 for s in range(game.num_players())]
        bots = [make_bot(x, game, seed=seed * 100 + 10 * g + s) for s, x in enumerate(specs)]
        state = game.new_initial_state()
        while not state.is_terminal() and len(times) < decisions:
            if state.is_chance_node():
                state.apply_action(engine.draw_outcome(state, rng))
                continue
            seat = state.current_player()
            searched = len(state.legal_actions()) > 1
            t = time.thread_time()
            action = bots[seat].step(state)
            if searched and specs[seat] == f"level({level})":
                times.append(time.thread_time() - t)
            state.apply_action(action)
        g += 1
    return statistics.mean(times), max(times)


def whole_game_seconds(spec: str, bot: str, seed: int = 1) -> tuple[float, float, int]:
    """(mean, max, count) CPU seconds of the searched decisions of one whole
    game with `bot` in every seat. A level's budget is set by the dearest
    decisions (iterations_per_second, no early stop); over a whole game the
    early stop and the shorter late playouts make the mean smaller
    (docs/starving-artists-solo.md, "Level 10's 2 seconds over a game")."""
    game = engine.load_game(spec)
    rng = random.Random(seed)
    bots = [make_bot(bot, game, seed=seed * 10 + s) for s in range(game.num_players())]
    state = game.new_initial_state()
    times = []
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(engine.draw_outcome(state, rng))
            continue
        searched = len(state.legal_actions()) > 1
        t = time.thread_time()
        action = bots[state.current_player()].step(state)
        if searched:
            times.append(time.thread_time() - t)
        state.apply_action(action)
    return statistics.mean(times), max(times), len(times)


def iterations_per_second(spec: str, iterations: int = 20_000, every: int = 6) -> float:
    """The default search's iterations per CPU second (median), at
    `iterations` without early stopping, over every `every`-th searched
    decision of one self-play game (the others played by 200 iterations):
    what sets a game's level 10 (about 2 s of one core)."""
    from easel.search import MCTSBot
    game = engine.load_game(spec)
    rng = random.Random(0)
    n = game.num_players()
    big = [MCTSBot(game, iterations=iterations, seed=i, early_stop=False) for i in range(n)]
    small = [MCTSBot(game, iterations=200, seed=i) for i in range(n)]
    state = game.new_initial_state()
    k, rates = 0, []
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(engine.draw_outcome(state, rng))
            continue
        seat = state.current_player()
        if len(state.legal_actions()) > 1:
            k += 1
            if k % every == 0:
                big[seat].restart()
                t = time.thread_time()
                action = big[seat].step(state)
                rates.append(iterations / (time.thread_time() - t))
            else:
                action = small[seat].step(state)
        else:
            action = state.legal_actions()[0]
        state.apply_action(action)
    if not rates:
        raise SystemExit(f"{spec}: the game had fewer than {every} searched decisions; "
                         f"give a smaller EVERY")
    return statistics.median(rates)


@pytest.mark.parametrize("spec", GAMES)
def test_level_seconds(benchmark, spec):
    from figures import measure_once

    def run():
        out = {}
        for level in range(1, 11):
            mean, most = seconds_per_decision(spec, level)
            out[f"level{level}_mean"], out[f"level{level}_max"] = mean, most
        return out
    measure_once(benchmark, run, f"{spec} CPU seconds per decision", 4)


if __name__ == "__main__":
    if sys.argv[1:2] == ["--whole"]:        # --whole GAME BOT [SEED]
        spec, bot, *rest = sys.argv[2:]
        mean, most, n = whole_game_seconds(spec, bot, *map(int, rest))
        print(f"{spec} {bot}: CPU s a searched decision over a whole game: mean {mean:.3f}, "
              f"max {most:.3f}, {n} decisions")
        sys.exit(0)
    if sys.argv[1:2] == ["--rate"]:         # --rate GAME [ITERATIONS [EVERY]]
        spec, *rest = sys.argv[2:]
        rate = iterations_per_second(spec, *map(int, rest))
        print(f"{spec}: {rate:,.0f} iterations per CPU second; 2 s: {2 * rate:,.0f}")
        sys.exit(0)
    spec = sys.argv[1] if len(sys.argv) > 1 else "vangogh(players=2)"
    for level in [int(x) for x in sys.argv[2:]] or range(1, 11):
        mean, most = seconds_per_decision(spec, level)
        print(f"{spec} level({level}): CPU s/decision mean {mean:.4f}, max {most:.4f} "
              f"over {DECISIONS}", flush=True)
