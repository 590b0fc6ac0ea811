"""Identical bots come out even in fields of 3, 4 and 5 players.

Two copies of one bot (different names, so different seeds) share fields
with other bots. With the fair seatings of tournament.schedule, neither copy
is favoured by who sits before it: their head-to-head score's 95% interval
holds 1/2, and so does the 95% interval of their Plackett-Luce rating
difference 0. (With the
arena's former cyclic rotation, two heuristic copies in three-player Van
Gogh scored 0.275 against each other.)"""
from __future__ import annotations

import pytest


@pytest.mark.parametrize("game,others,per_field", [
    ("vangogh(players=3)", ["greedy(budget=30)"], 90),
    ("pig(players=3,winscore=30)", ["greedy(budget=30)"], 240),
    ("pig(players=4,winscore=30)", ["greedy(budget=30)", "random"], 480),
    ("vangogh(players=4)", ["greedy(budget=20)", "random"], 96),
    ("pig(players=5,winscore=30)", ["greedy(budget=30)", "random", "random"], 400),
    ("vangogh(players=5)", ["greedy(budget=20)", "random", "random"], 120),
])
def test_identical_bots_are_even(run_tournament, game, others, per_field):
    bots = {"twin1": "heuristic", "twin2": "heuristic"}
    bots.update({f"other{i}": spec for i, spec in enumerate(others)})
    res, _ = run_tournament({"seed": 11, "games": [game], "bots": bots,
                             "games_per_field": per_field, "report": {"bootstrap": 60}},
                            jobs=2, report=False)
    (pair,) = [p for p in res["pairs"] if p["bots"] == ["twin1", "twin2"]]
    assert pair["score"]["low"] <= 0.5 <= pair["score"]["high"], pair["score"]
    diff = pair["rating_difference"]            # Plackett-Luce, seat term, bootstrap
    assert diff["low"] <= 0.0 <= diff["high"], diff
    r = {x["bot"]: x for x in res["ratings"]["overall"]}
    assert r["twin1"]["games"] == r["twin2"]["games"] == per_field
    # each twin sat in each seat equally often
    seats = res["bots"]
    assert all(x["games"] == per_field for x in seats)
