"""The default budget of a hint: search until the two leading candidates are
told apart, within a cap.

A hint read by a person ranks whole turns; with a fixed budget the two it
ranks first may have a handful of visits each, and their order is then the
noise of a few playouts. With no budget given, `UntilApart` grows the search
until the leader's 95% interval lies wholly above the runner-up's, or the cap
(iterations, and optionally seconds) is reached, and says which.

Each interval is `value` ± a 95% half-width computed as if the candidate's
playouts had two more, one at each end of the value scale (the
Agresti-Coull device for a proportion, applied to the bounded rewards): a
few playouts that happened to agree (three losses: variance 0) do not make
an interval of width 0, and a candidate the search starved keeps a wide one.
Only the top two are compared: the rest of the turns, most with a visit or
two, could never be told apart from anything.

A runner-up the search has all but stopped visiting keeps a wide interval
however long it runs (at one Starving Artists position, 199,974 visits to
6 after 200,000 iterations): the two are also told apart once the leader
has at least RATIO times the runner-up's visits, MIN_RATIO_VISITS or more,
and a value no lower. UCT gives a move visits in proportion to how well its
bound competes (Kocsis and Szepesvari 2006), so a ratio that large is the
search's own verdict, reached over many iterations.

The rule is checked at fixed iteration counts (`checkpoints`), so for a
given seed and one thread the search stops at the same iteration every time,
however its runs are cut into calls (a streaming search reports between
them); only a time cap, when it is reached first, depends on the machine.
"""
from __future__ import annotations

import math
import time
from dataclasses import dataclass

Z95 = 1.959963984540054
RATIO = 20                 # visits ratio that tells a starved runner-up apart
MIN_RATIO_VISITS = 1000    # ... once the leader has this many visits
FIRST_CHECK = 256          # iterations before the first check: every first action has a visit
MIN_STEP = 256             # iterations between checks, at least; and at most 1/8 of those run


def checkpoint_after(n: int) -> int:
    """The iteration count of the next check after `n` iterations: the
    checks grow geometrically (at most 1/8 over-run, a few dozen checks to a
    million iterations), each one reading the two leading candidates."""
    if n < FIRST_CHECK:
        return FIRST_CHECK
    return n + max(MIN_STEP, n // 8)


def interval(value: float, half_width: float, n: float, low: float, high: float):
    """(lower, upper) 95% bounds of a mean `value` of `n` rewards on the scale
    [low, high] whose plain 95% half-width is `half_width`, with two pseudo
    rewards added at `low` and `high` (and kept within the scale)."""
    n = max(float(n), 0.0)
    var = n * (half_width / Z95) ** 2 if n > 0 else 0.0
    m = (n * value + low + high) / (n + 2.0)
    second = (n * (var + value * value) + low * low + high * high) / (n + 2.0)
    hw = Z95 * math.sqrt(max(second - m * m, 0.0) / (n + 2.0))
    return max(m - hw, low), min(m + hw, high)


@dataclass(frozen=True)
class Separation:
    """Whether the two leading candidates of an analysis are told apart."""
    apart: bool
    iterations: int
    leader: tuple[float, float] | None = None       # its interval, as compared
    runner_up: tuple[float, float] | None = None
    by: str = ""            # "intervals" or "visits": which test told them apart


def told_apart(candidates, value_range, iterations: int = 0) -> Separation:
    """The two first of `candidates` (search.analysis.Candidate, best first) told
    apart or not; a single candidate (the only turn the position allows, or
    the only one the search found) is apart from nothing and counts as
    apart."""
    if len(candidates) < 2:
        return Separation(bool(candidates), iterations)
    low, high = value_range
    a, b = candidates[0], candidates[1]
    ia = interval(a.value, a.ci, a.visits, low, high)
    ib = interval(b.value, b.ci, b.visits, low, high)
    if ia[0] > ib[1]:
        return Separation(True, iterations, ia, ib, "intervals")
    starved = (a.visits >= MIN_RATIO_VISITS and a.visits >= RATIO * b.visits
               and a.value >= b.value)
    return Separation(starved, iterations, ia, ib, "visits" if starved else "")


class UntilApart:
    """A search grown until its leaders are told apart or `max_iterations`
    (in all) are run; `run(time_limit)` may be called many times (a stream
    reports between calls) and stops at the same checkpoints however the
    calls cut the work."""

    def __init__(self, search, max_iterations: int):
        self.search = search
        self.max_iterations = int(max_iterations)
        self.separation: Separation | None = None     # at the last check
        self._next = checkpoint_after(search.iterations)

    @property
    def apart(self) -> bool:
        return self.separation is not None and self.separation.apart

    @property
    def done(self) -> bool:
        """Apart, or the cap reached."""
        return self.apart or self.search.iterations >= self.max_iterations

    def check(self) -> Separation:
        s = self.search
        self.separation = told_apart(s.analysis(top_k=2).candidates, s.value_range(),
                                     s.iterations)
        return self.separation

    def run(self, time_limit: float | None = None) -> bool:
        """Grow the search toward the next checkpoints until apart, the cap,
        `time_limit` seconds (of this call) or a cancel; True when done."""
        started = time.monotonic()
        while not self.done:
            target = min(self._next, self.max_iterations)
            left = None
            if time_limit is not None:
                left = time_limit - (time.monotonic() - started)
                if left <= 0:
                    return False
            want = target - self.search.iterations
            if want > 0 and self.search.run(iterations=want, time_limit=left) < want:
                return False                # the time ran out, or a cancel
            if self.search.iterations >= self._next:
                self._next = checkpoint_after(self.search.iterations)
                self.check()
            elif self.search.iterations >= self.max_iterations:
                self.check()
        if self.separation is None or self.separation.iterations != self.search.iterations:
            self.check()                    # the cap was reached before this call
        return True
