"""Fair seatings for a field of n different bots in an n-player game.

Seating order matters beyond the seat itself: in a game played in turn
order, a bot that sits just after a strong (or a wasteful) bot meets a
different game than one that sits before it. Rotating one fixed cyclic order
(seat s gets bot (s + r) mod n) balances the seats but keeps every bot's
neighbours fixed: in three-player games two identical bots then score
unevenly against each other. A block therefore plays one of these designs:

- ``all``: every one of the n! orders. Each bot sits in each seat, and
  after each other bot at each distance, equally often.
- ``balanced``: for a prime n, the n(n-1) orders "seat s holds bot
  (r + s d) mod n" for every shift r and every step d = 1 .. n-1. Each bot
  sits in each seat n-1 times, and every ordered pair of bots stands at
  every cyclic distance (1 .. n-1 seats apart) exactly n times: as fair as
  all orders for any effect that depends on seats and on who sits how far
  after whom, with 20 games instead of 120 for five players. For n = 4 no
  such design exists (the complete directed graph on four vertices has no
  decomposition into Hamiltonian cycles, Tillson 1980), so it falls back to
  all 24 orders.
- ``auto`` (the default): ``all`` up to 24 orders (n <= 4), ``balanced``
  above (n = 5: 20 orders).
"""
from __future__ import annotations

import itertools
import math

SEATINGS = ("auto", "all", "balanced")
AUTO_ALL_LIMIT = 24


def _is_prime(n: int) -> bool:
    return n >= 2 and all(n % d for d in range(2, int(math.isqrt(n)) + 1))


def fair_orders(n: int, design: str = "auto") -> list[tuple[int, ...]]:
    """The seatings of one block for a field of n bots in n seats: each a
    tuple giving the field position of the bot in every seat."""
    if n < 1:
        raise ValueError(f"a field needs at least one bot, got {n}")
    if design not in SEATINGS:
        raise ValueError(f"unknown seating design {design!r}; designs: {', '.join(SEATINGS)}")
    if design == "auto":
        design = "all" if math.factorial(n) <= AUTO_ALL_LIMIT else "balanced"
    if design == "balanced" and _is_prime(n):
        return [tuple((r + s * d) % n for s in range(n))
                for d in range(1, n) for r in range(n)]
    return list(itertools.permutations(range(n)))


def distance_counts(orders, n: int) -> dict:
    """(a, b, distance) -> how often bot b sits `distance` seats after bot a
    (cyclically), over the orders; the check that a design is balanced."""
    counts: dict = {}
    for order in orders:
        for s in range(n):
            for dist in range(1, n):
                key = (order[s], order[(s + dist) % n], dist)
                counts[key] = counts.get(key, 0) + 1
    return counts
