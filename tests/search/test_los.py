"""LOS and the score interval never disagree (issue #27, defect 13: a pair
showed "LOS 100%" beside an Elo interval of -72..+1200)."""
from __future__ import annotations

import random

from easel.search.stats import interval, los


def test_los_is_beyond_97_5_percent_exactly_when_the_interval_excludes_one_half():
    rng = random.Random(5)
    cases = [[1.0] * n for n in range(2, 9)] + [[0.0] * n for n in range(2, 9)]
    cases += [[rng.choice([0.0, 0.25, 0.5, 0.75, 1.0]) for _ in range(rng.randint(2, 30))]
              for _ in range(2000)]
    for means in cases:
        score = interval(means, bounds=(0.0, 1.0))
        p = los(means, score)
        if score["low"] == score["high"]:             # every block alike, not at a bound
            continue
        assert (p > 0.975) == (score["low"] > 0.5), (means, score, p)
        assert (p < 0.025) == (score["high"] < 0.5), (means, score, p)


def test_blocks_all_won_are_not_certain():
    assert los([1.0] * 4) == 1 - 0.5 ** 4 and los([0.0] * 3) == 0.5 ** 3
    assert los([1.0]) is None
