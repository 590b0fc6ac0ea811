"""Search quality against OpenSpiel's C++ MCTSBot on Easel's own games: the
README's "Against OpenSpiel's MCTSBot" rows, as a pytest entry.

    python -m pytest benchmarks/bench_peer_strength.py -s                  # 1 pair a row
    EASEL_PEER_PAIRS=50 EASEL_PEER_OUT=runs python -m pytest benchmarks/bench_peer_strength.py -s

Each row is benchmarks/peer_match.py's match (its docstring says how it is
played), with the row's seed; EASEL_PEER_PAIRS pairs of games (default 1: a
smoke run that shows the machinery and the cost, not a strength figure), the
games kept in EASEL_PEER_OUT/<row>.jsonl (default: a temporary folder), so a
stopped run goes on where it stopped. -k picks rows by id, e.g.
`-k "vangogh and 500"`. The README's rows were played with the script, one
row at a time (`python benchmarks/peer_match.py ...` with the same game,
specs and seed)."""
from __future__ import annotations

import os

import pytest

from figures import record

pyspiel = pytest.importorskip("pyspiel", reason="pip install '.[peers]' for the peer rows")

import peer_match  # noqa: E402  (needs pyspiel)

PLAIN_UCT = ("mcts(iterations=500,form=closed,rollout=random,uct_c=2,margin_weight=0,"
             "reuse=false,early_stop=false)")
PLAIN_UCT_2000 = PLAIN_UCT.replace("iterations=500", "iterations=2000")

# (id, game, Easel spec, OpenSpiel budget, seed): the README's rows.
ROWS = [
    ("vangogh-500", "vangogh(players=2)", "mcts(iterations=500)", "sims=500", 601),
    ("vangogh-2000", "vangogh(players=2)", "mcts(iterations=2000)", "sims=2000", 602),
    ("vangogh-0.1s", "vangogh(players=2)", "mcts(time=0.1)", "time=0.1", 603),
    ("vangogh-plain-uct-500", "vangogh(players=2)", PLAIN_UCT, "sims=500", 604),
    ("vangogh-plain-uct-2000", "vangogh(players=2)", PLAIN_UCT_2000, "sims=2000", 607),
    ("couleurs-500", "couleurs_de_paris(players=2)", "mcts(iterations=500)", "sims=500", 611),
    ("couleurs-2000", "couleurs_de_paris(players=2)", "mcts(iterations=2000)", "sims=2000", 612),
    ("couleurs-0.1s", "couleurs_de_paris(players=2)", "mcts(time=0.1)", "time=0.1", 613),
    ("starving-500", "starving_artists(players=2)", "mcts(iterations=500)", "sims=500", 621),
    ("starving-2000", "starving_artists(players=2)", "mcts(iterations=2000)", "sims=2000", 622),
    ("starving-0.1s", "starving_artists(players=2)", "mcts(time=0.1)", "time=0.1", 623),
]


@pytest.mark.parametrize("row", ROWS, ids=[r[0] for r in ROWS])
def test_against_openspiel_mcts(benchmark, tmp_path, row):
    name, game, easel, peer, seed = row
    pairs = int(os.environ.get("EASEL_PEER_PAIRS", "1"))
    folder = os.environ.get("EASEL_PEER_OUT") or str(tmp_path)
    os.makedirs(folder, exist_ok=True)
    out = os.path.join(folder, f"{name}.jsonl")
    result = benchmark.pedantic(peer_match.run, args=(game, easel, peer, seed, pairs, out),
                                kwargs={"progress": False}, rounds=1, iterations=1)
    print("\n" + peer_match.format_row(result))
    record(benchmark, f"{name} against OpenSpiel's MCTSBot",
           {k: v for k, v in result.items() if isinstance(v, (int, float)) and v is not None},
           digits=3)
