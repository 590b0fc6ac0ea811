"""Strength levels: ``level(N)``, N = 1 (weakest) to 10 (strongest), for
every game and player count, solo included.

A level is an mcts spec: the game's own default search (its measured
`search_defaults`) weakened the way a person is weaker, never by random
blunders:

- a smaller iteration budget: less reading of the position;
- a temperature (the lower levels): the move is drawn among the searched
  first actions that got at least a tenth of the most visited one's visits,
  with probability proportional to exp(value / T) (MCTSBot._choose): a
  move that looked nearly as good, as a person who misjudges plays it.
  The search's early stop applies at every level, temperature or not: it
  ends once the most visited move can no longer be overtaken, so a level's
  iterations are its most, and the draw is among the moves as visited then
  (docs/strength.md, "Starving Artists: its own ladder", on what that does
  to a temperature).

Budgets are iterations, not seconds, so that a level plays the same games
from the same seed on any machine and under any load. Level 10 is the
default search with the iterations it runs in about 2 s of one core on the
machine the table was measured on (docs/strength.md gives the seconds per
decision every level took there); a server's time control caps it where a
match sets one (docs/matches.md).

One table per game; a player count whose budgets must differ has its own
entry, keyed (game, players). The tables are calibrated by the tournament
configurations examples/tournaments/levels-*.toml, with `random`, `greedy`
and `heuristic` as fixed points; the ratings are in docs/strength.md.
"""
from __future__ import annotations

from dataclasses import dataclass

from . import params
from .errors import SearchError

LEVELS = 10


@dataclass(frozen=True)
class Level:
    """One level: an iteration budget, a temperature (0: the most visited
    move, the default search's choice) and, where a table needs one, a
    search option that differs from the game's default, as (key, value)
    pairs."""
    iterations: int
    temperature: float = 0.0
    options: tuple = ()

    def args(self) -> dict:
        """The mcts spec keys of this level."""
        out = {"iterations": self.iterations}
        if self.temperature > 0:
            out["temperature"] = self.temperature
        out.update(self.options)
        return out


def _ladder(*rungs) -> tuple[Level, ...]:
    out = tuple(Level(*r) if isinstance(r, tuple) else Level(r) for r in rungs)
    assert len(out) == LEVELS, out
    for lv in out:          # each rung is an mcts spec the checks of params.py accept
        for key, value in lv.args().items():
            params.check_value(params.MCTS[key], value)
    return out


# The shape every table shares, below its game's top: levels 1-3 read a
# little and misjudge (a temperature), levels 4-8 read more and more,
# about 1.6x the iterations a level at first, then (where a doubling gains
# less) 2-4x. Measured on Van Gogh (docs/strength.md): a doubling of the
# iterations gained about 190 Elo at 150-400 iterations, 140 at 500-1,000,
# 80 at 1,000-4,000 and 65 at 4,000-8,000, and a temperature of 0.05 at 80
# iterations cost about 100.
# Level 8 was 3,000 at first: 7-8 came out +191 Elo and 8-9 +56, not
# significant; at 2,500 the head-to-heads read +100 and +78, both significant.
_LOW = ((30, 0.1), (80, 0.05), (130, 0.02), 220, 350, 560, 1000, 2500)

# Starving Artists' levels 1-7 (every player count): see TABLES.
_SA_LOW = ((30, 0.1), (45, 0.075), (80, 0.05), (130, 0.02), (220, 0.005), 100, 220)

# Solo's temperature rungs keep the rules' returns: the game's default
# near-miss weight (loss_weight, docs/starving-artists-solo.md "Near
# misses") squeezes a solo game's values toward -1, and a temperature that
# draws by those values turns from a misjudgement into random moves
# (80 iterations at T=0.05 on the bound's 200 worlds: with the weight games
# ended 0.83 days sooner, starved, where 220 and 1,000 iterations without a
# temperature won 18 and 31 to 9 and 17).
_RETURNS = (("loss_weight", 0.0),)
_SA_LOW_SOLO = tuple((r[0], r[1], _RETURNS) if isinstance(r, tuple) else r for r in _SA_LOW)

# Game name (or (name, players) where a player count needs its own) -> the
# ten levels, weakest first. Level 10: the iterations the default search
# runs in about 2 s of one core (CPU time: `python benchmarks/bench_levels.py
# --rate GAME`, 2-player games; Van Gogh 35,000 a second, Couleurs de Paris
# 18,500, Starving Artists 22,500 when set (33,300 since f804bc8's faster
# core), Connect Four 448,000, Pig 362,000), under
# the 1,000,000 a default server allows a search (`easel serve
# --max-iterations`); level 9 about the geometric mean of levels 8 and 10.
TABLES: dict = {
    "vangogh": _ladder(*_LOW, 11_000, 70_000),
    # Couleurs de Paris spreads wider (its rating table: 1,530 Elo over
    # Van Gogh's shape, the first step +330, 2,500 to 8,000 +237), so its
    # ladder starts a rung higher and puts 4,500 between 2,500 and 8,000.
    # Head to head: 45 iterations at T=0.075 over 30 at T=0.1 +127, and
    # 80 at T=0.05 over it +191; 1,000 over 560 +89; 4,500 over 2,500 +108
    # (docs/strength.md).
    "couleurs_de_paris": _ladder(*_LOW[1:], 4_500, 8_000, 37_000),
    # Starving Artists has its own shape: past about 200 iterations its
    # budget buys little (400 against 220 read +56 Elo, 1,000 against 400
    # +92, 10,000 against 1,000 +78), while any temperature costs much (220
    # iterations at T=0.005 lost 258 Elo to the same budget at T=0). So its
    # low and middle levels are temperatures and small budgets, and since
    # 45,000 did not beat 10,000 (the 2-player rating table), 10,000 is no
    # rung of its own: level 9 is 1,000 and level 10 the 2 s search. Each
    # step is measured head to head in docs/strength.md ("Starving Artists:
    # its own ladder").
    "starving_artists": _ladder(*_SA_LOW, 400, 1000, 45_000),
    # Solo keeps 10,000 as level 9: alone, budget keeps paying (each
    # quadrupling from 500 to 8,000 iterations added half a star to a star
    # a game). So its level 10 is the budget that fills 2 s on an idle core
    # (38,798 iterations a CPU second): 77,000, which won 0.38 of the bound's
    # 200 worlds to 45,000's 0.27 (docs/starving-artists-solo.md).
    ("starving_artists", 1): _ladder(*_SA_LOW_SOLO, 1000, 10_000, 77_000),
    "connect_four": _ladder(*_LOW, 50_000, 900_000),
    "pig": _ladder(*_LOW, 45_000, 700_000),
}


def table(game) -> tuple[Level, ...]:
    """The ten levels of `game` (a loaded game): its player count's own
    table if it has one, else its game's."""
    name = getattr(game, "name", None)
    players = game.num_players() if hasattr(game, "num_players") else None
    rungs = TABLES.get((name, players)) or TABLES.get(name)
    if rungs is None:
        raise SearchError(f"level: {name!r} has no level table yet (search/levels.py); "
                          f"use an mcts spec, e.g. mcts(iterations=1000)")
    return rungs


def level_args(game, n: int, seed: int | None = None) -> dict:
    """The mcts spec keys of level `n` of `game` (plus `seed` if given)."""
    n = params.check_value(params.LEVEL["n"], n, SearchError, "level")
    out = table(game)[n - 1].args()
    if seed is not None:
        out["seed"] = seed
    return out


def describe(game) -> list[str]:
    """The mcts spec of each level of `game`, level 1 first."""
    return [mcts_text(lv.args()) for lv in table(game)]


def mcts_text(args: dict) -> str:
    return "mcts(" + ",".join(f"{k}={v:g}" if isinstance(v, float) else f"{k}={v}"
                              for k, v in args.items()) + ")"


def markdown() -> str:
    """The level specs of every game, for docs/strength.md (a test keeps
    the page in step)."""
    names = sorted({k if isinstance(k, str) else k[0] for k in TABLES})
    out = ["| level | " + " | ".join(f"`{n}`" for n in names) + " |",
           "| --- |" + " --- |" * len(names)]
    for i in range(LEVELS):
        out.append(f"| {i + 1} | " + " | ".join(f"`{mcts_text(TABLES[n][i].args())}`"
                                                for n in names) + " |")
    for key in sorted(k for k in TABLES if not isinstance(k, str)):
        who = "solo" if key[1] == 1 else f"with {key[1]} players"
        out.append(f"\n`{key[0]}` {who} has its own table: "
                   + ", ".join(f"`{mcts_text(lv.args())}`" for lv in TABLES[key]) + ".")
    return "\n".join(out) + "\n"
