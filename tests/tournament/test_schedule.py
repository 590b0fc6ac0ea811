"""Fair seatings: every seat and every neighbour relation equally often."""
from __future__ import annotations

import math
from collections import Counter

import pytest

from easel.search.arena import seat_rotations
from easel.search.tournament.schedule import distance_counts, fair_orders


@pytest.mark.parametrize("n", [2, 3, 4, 5])
@pytest.mark.parametrize("design", ["auto", "all", "balanced"])
def test_each_bot_in_each_seat_and_at_each_distance_from_each_other_equally(n, design):
    orders = fair_orders(n, design)
    assert all(sorted(o) == list(range(n)) for o in orders)
    assert len(set(orders)) == len(orders)
    for s in range(n):
        counts = Counter(o[s] for o in orders)
        assert set(counts) == set(range(n)) and len(set(counts.values())) == 1, (s, counts)
    counts = distance_counts(orders, n)
    assert len(counts) == n * (n - 1) * (n - 1)
    assert len(set(counts.values())) == 1, counts


def test_sizes_of_the_designs():
    assert [len(fair_orders(n)) for n in (2, 3, 4, 5)] == [2, 6, 24, 20]
    assert len(fair_orders(5, "all")) == math.factorial(5)
    assert len(fair_orders(4, "balanced")) == 24          # no balanced design of 4: all orders


def test_a_cyclic_rotation_is_not_balanced():
    """The arena's former design: every bot always follows the same bot."""
    n = 3
    cyclic = [tuple((s + r) % n for s in range(n)) for r in range(n)]
    assert len(set(distance_counts(cyclic, n).values())) > 1 or \
        len(distance_counts(cyclic, n)) < n * (n - 1) * (n - 1)


@pytest.mark.parametrize("n", [3, 4, 5])
def test_the_arena_seats_a_full_field_fairly(n):
    rotations = seat_rotations(n, n)
    assert sorted(map(tuple, rotations)) == sorted(fair_orders(n))


def test_bad_design_is_refused():
    with pytest.raises(ValueError, match="unknown seating design"):
        fair_orders(3, "cyclic")
