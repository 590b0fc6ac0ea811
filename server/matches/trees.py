"""The search trees hosted bot seats keep between their moves, bounded in
bytes over the whole server.

An MCTS seat keeps its tree from one move to the next (tree reuse), each
tree within `--max-search-nodes`. Without a bound over all of them, memory
grew with the number of open bot seats: a client's 20 matches of four
`level(10)` Starving Artists seats hold about 80 trees of tens of MB each.
`KeptTrees` counts the bytes each seat's tree holds after its move (the
tree's allocation, `Tree.memory_bytes`) and, over `max_kept_tree_bytes`
(`MatchLimits`, `easel serve --max-kept-tree-mb`), drops the trees of the
seats that moved least recently: such a seat searches its next move afresh,
as a bot with `reuse=false` would, which costs it the reused visits only.
The seat that has just moved loses its own tree too when dropping the
others' is not enough. A tree in use (its seat is searching or pondering)
is never dropped; it is counted once its seat has moved.
"""
from __future__ import annotations

import threading
from collections import OrderedDict


class KeptTrees:
    def __init__(self, max_bytes: int):
        self.max_bytes = max_bytes
        self._held: OrderedDict = OrderedDict()     # seat bot -> bytes, least recent first
        self._bytes = 0
        self._lock = threading.Lock()
        self.dropped = 0                            # trees dropped to keep the bound

    def note(self, seat) -> None:
        """`seat` (a SeatBot, whose lock the caller holds) has just moved or
        pondered: count its tree, then drop trees until the total is within
        the bound, least recently noted first."""
        size = seat.tree_bytes()
        with self._lock:
            self._bytes -= self._held.pop(seat, 0)
            if size:
                self._held[seat] = size
                self._bytes += size
            for other in list(self._held):
                if self._bytes <= self.max_bytes:
                    break
                if other is seat or not other.try_forget_tree():
                    continue                        # in use now: it is counted again after
                self._bytes -= self._held.pop(other)
                self.dropped += 1
            if self._bytes > self.max_bytes and seat in self._held:
                seat.forget_tree()                  # over the bound on its own
                self._bytes -= self._held.pop(seat)
                self.dropped += 1

    def release(self, seat) -> None:
        """`seat`'s match has ended or left this server: its tree is gone."""
        with self._lock:
            self._bytes -= self._held.pop(seat, 0)

    @property
    def bytes(self) -> int:
        with self._lock:
            return self._bytes
