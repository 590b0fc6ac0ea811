"""Shared test set-up: which build is under test.

Easel installs as one package, `easel`. In a clone, `easel/` holds links to
`engine/`, `search/` and `server/`, so a run whose working directory is on
sys.path (`python -m pytest`) tests the source tree, which must then be built
in place (`pip install -e .` or `python setup.py build_ext --inplace`);
`pytest` alone (the README's command) imports the installed build. CI sets
PYTHONSAFEPATH=1 and EASEL_TEST_INSTALLED=1, and a run that imported the
source tree then fails.

The game variants and game counts of the randomized suites are in
tests/game_variants.py."""
from __future__ import annotations

import os

import pytest

from easel import engine

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

if not os.path.abspath(engine.__file__).startswith(ROOT + os.sep):
    # Testing the installed build: the Pythons that tests start (`python -m
    # easel.server.cli`, some from this folder) must not import the source tree.
    os.environ.setdefault("PYTHONSAFEPATH", "1")


def pytest_report_header(config):
    return f"easel package under test: {os.path.dirname(os.path.abspath(engine.__file__))}"


def pytest_configure(config):
    if os.environ.get("EASEL_TEST_INSTALLED") == "1":
        where = os.path.abspath(engine.__file__)
        if where.startswith(ROOT + os.sep):
            raise pytest.UsageError(
                f"EASEL_TEST_INSTALLED=1 but easel was imported from the source tree ({where})")


# The game counts a developer raises for a long differential run (2,000 games
# a variant is the bar) outlast the 600 s hang guard of pyproject.toml,
# which would cut the run short with "Timeout" and no verdict. Such a run lifts
# the guard for the differential tests only; every other test keeps it.
LONG_RUN_VARS = ("EASEL_FULL", "EASEL_DIFF_GAMES", "EASEL_CDP_DIFF", "EASEL_SA_DIFF_GAMES")


def pytest_collection_modifyitems(config, items):
    if not any(os.environ.get(v) for v in LONG_RUN_VARS):
        return
    for item in items:
        if "differential" in item.nodeid:
            item.add_marker(pytest.mark.timeout(0))


@pytest.fixture(scope="session")
def recorded_games(tmp_path_factory):
    """A maker of arena record files: recorded_games(game, bots, games, seed)
    plays them (easel.search.arena) and returns the path of their records."""
    def make(game, bots, games, seed):
        from easel.search.arena import run_arena
        path = tmp_path_factory.mktemp("records") / "games.jsonl"
        run_arena(game, bots, games=games, seed=seed, records_path=str(path))
        return path
    return make
