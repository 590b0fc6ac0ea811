"""The game variants every randomized suite runs over, and how many games
each one plays (tests/test_conformance.py, tests/test_differential.py).

Counts (environment):
  EASEL_TEST_GAMES   random games per (variant, implementation) in the
                     conformance suite (default: per game, CONFORMANCE_GAMES)
  EASEL_DIFF_GAMES   random games per variant in the differential suite
  EASEL_FULL=1       the full differential run: at least 2,000 games per variant
  EASEL_TEST_SEED    base seed (default 0); every failure message names its seed
"""
from __future__ import annotations

import os
import zlib

import pytest

from easel import engine


# -- counts -----------------------------------------------------------------

def env_int(name: str, default: int) -> int:
    text = os.environ.get(name)
    if text is None or text.strip() == "":
        return default
    try:
        value = int(text)
    except ValueError:
        raise pytest.UsageError(f"{name} must be an integer, got {text!r}") from None
    if value < 0:
        raise pytest.UsageError(f"{name} must be >= 0, got {value}")
    return value


FULL = os.environ.get("EASEL_FULL") == "1"
BASE_SEED = env_int("EASEL_TEST_SEED", 0)

# Conformance games per (variant, implementation). The checks at each step
# are heavy (every legal action's text, clone, JSON), so the small games play
# a few dozen and games with slow references fewer.
CONFORMANCE_GAMES = {"connect_four": 60, "pig": 40}
CONFORMANCE_GAMES_OTHER = {"core": 12, "reference": 4}
# Long games (hundreds of decisions under random play, every step checked):
# a few games per variant in CI; EASEL_TEST_GAMES raises them.
CONFORMANCE_GAMES_LONG = {"couleurs_de_paris": {"core": 3, "reference": 2},
                          "starving_artists": {"core": 4, "reference": 2}}

# Differential games per variant: thousands for the small games; for the
# others a default the CI can afford, and 2,000 per variant with EASEL_FULL=1.
DIFF_GAMES = {"connect_four": 3000, "pig": 1500,
              # long games: the full view is compared at every step
              "couleurs_de_paris": 4, "starving_artists": 10}
DIFF_GAMES_OTHER = 150
DIFF_GAMES_FULL = 2000


def _is_default(entry, params) -> bool:
    return params == {k: o.default for k, o in entry.options.items()}


def conformance_games(spec: str, implementation: str) -> int:
    entry, params = engine.parse_game_string(spec)
    if entry.name in CONFORMANCE_GAMES_LONG:
        default = CONFORMANCE_GAMES_LONG[entry.name][implementation]
    else:
        default = CONFORMANCE_GAMES.get(entry.name, CONFORMANCE_GAMES_OTHER[implementation])
    if not _is_default(entry, params):
        # option variants: fewer games each (one of a long game: hundreds of
        # checked steps, and its default variant plays several)
        default = max(1 if entry.name in CONFORMANCE_GAMES_LONG else 2, default // 2)
    return env_int("EASEL_TEST_GAMES", default)


def diff_games(spec: str) -> int:
    entry, params = engine.parse_game_string(spec)
    default = DIFF_GAMES.get(entry.name, DIFF_GAMES_OTHER)
    if not _is_default(entry, params) and DIFF_GAMES.get(entry.name, 0) > 100:
        default //= 3           # option variants of the small games: fewer each
    if FULL:
        default = max(default, DIFF_GAMES_FULL)
    return env_int("EASEL_DIFF_GAMES", default)


def seed_for(*parts) -> int:
    """A stable seed per test case (Python's hash() of a str is salted per run)."""
    return (zlib.crc32("/".join(map(str, parts)).encode()) + BASE_SEED) & 0x7FFFFFFF


# -- variants ---------------------------------------------------------------

# Option variants worth a run beyond the defaults and the player counts.
EXTRA_VARIANTS = {
    "pig": ["pig(piglet=true)", "pig(players=3,piglet=true,winscore=20)",
            "pig(diceoutcomes=3,winscore=20)", "pig(horizon=15)"],
    "couleurs_de_paris": ["couleurs_de_paris(players=3,first=2)",
                          "couleurs_de_paris(players=4,first=3)"],
    "starving_artists": ["starving_artists(players=2,colourstudy=true,lastsupper=true)",
                         "starving_artists(players=1,colourstudy=true,lastsupper=true)",
                         "starving_artists(players=4,deck=all,start=3)",
                         "starving_artists(players=3,famestars=10,famepaintings=5)"],
    "vangogh": ["vangogh(players=3,start=2,roll=1-2-3-4)",
                "vangogh(players=5,purpleactive=false)",
                "vangogh(players=4,colors=purple-green-pink-blue)"],
}


def _canonical(spec: str) -> str:
    entry, params = engine.parse_game_string(spec)
    return entry.canonical_string(params)


def game_variants(entry) -> list[str]:
    """The default game, each player count (the ends and one between when
    there are many), and the extras above; canonical, without repeats."""
    specs = [entry.name]
    if entry.players_option and entry.min_players < entry.max_players:
        lo, hi = entry.min_players, entry.max_players
        counts = range(lo, hi + 1) if hi - lo <= 4 else (lo, lo + 1, hi)
        specs += [f"{entry.name}({entry.players_option}={n})" for n in counts]
    specs += EXTRA_VARIANTS.get(entry.name, [])
    out = []
    for s in map(_canonical, specs):
        if s not in out:
            out.append(s)
    return out


def all_variants() -> list[tuple]:
    return [(entry, spec) for entry in engine.registered_games() for spec in game_variants(entry)]


def implementation_params() -> list:
    """pytest params (spec, implementation) over every variant and both
    implementations; a missing core shows as a skip, not as silence."""
    params = []
    for entry, spec in all_variants():
        for impl in ("core", "reference"):
            marks = ()
            if impl == "core" and not entry.has_core:
                marks = pytest.mark.skip(reason=f"{entry.name} has no core implementation yet")
            params.append(pytest.param(spec, impl, id=f"{spec}-{impl}", marks=marks))
    return params


def differential_params(slow: bool = False) -> list:
    params = []
    for entry, spec in all_variants():
        marks = [pytest.mark.slow] if slow else []
        if not entry.has_core:
            marks.append(pytest.mark.skip(
                reason=f"{entry.name} has only a reference implementation so far"))
        params.append(pytest.param(spec, id=spec, marks=marks))
    return params
