"""Recently replayed positions, found again by record prefix.

A client that plays a game call by call sends the whole record each time,
one or a few steps longer than the last. Replaying it from the initial state
costs every step again (tens of microseconds a step in Van Gogh), so a long
game pays for its whole history on every call. This cache keeps the states
reached by recent records, keyed by a digest of the record's bytes up to a
step; a new record starting with a cached one replays only the steps after
it.

    cache = ReplayCache(max_entries=256, max_steps=400_000)
    keys = RecordKeys(record)                 # digests, computed lazily
    hit = cache.longest_prefix(keys)          # (length, Entry) or None
    ...
    cache.put(keys.key(len(record.steps)), Entry(state.clone(), canonical, turn))

Keys are digests of the serialized GameRecord (game string and steps exactly
as the client sent them, up to that step), so two records share an entry
only when they are byte-identical up to that step: the cached state is the
one a full replay would reach, validated the same way. Entries hold a clone
that no request mutates (a hit is cloned again). Bounded by entries and by
the steps held in all cached records (least recently used go first).
Thread-safe.
"""
from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from dataclasses import dataclass

# A record this many steps longer than a cached one is still looked up; past
# it, the prefixes are not tried (each try hashes the record once).
MAX_STEPS_BACK = 64
MAX_TRIES = 4


def _varint_size(n: int) -> int:
    size = 1
    while n >= 0x80:
        n >>= 7
        size += 1
    return size


@dataclass
class Entry:
    state: object            # the replayed state (a clone no request mutates)
    record: object           # the canonical pb.GameRecord of those steps
    turn: tuple              # replay bookkeeping (see positions.replay_with_record)


class RecordKeys:
    """Digests of a record's prefixes. The serialization of a GameRecord is
    its game field, then each step in order, then expected_player (fields in
    number order; unknown fields are dropped first), so the bytes of the
    first L steps are a prefix of the whole, found from the sizes of the
    steps after them."""

    def __init__(self, record):
        record.DiscardUnknownFields()
        self.n = len(record.steps)
        self._steps = record.steps
        self._data = record.SerializeToString(deterministic=True)
        tail = 0
        if record.HasField("expected_player"):
            tail = len(type(record)(expected_player=record.expected_player).SerializeToString())
        self._end = len(self._data) - tail      # end of the last step
        self._cut = {self.n: self._end}

    def _offset(self, length: int) -> int:
        known = min(k for k in self._cut if k >= length)
        end = self._cut[known]
        for i in range(known - 1, length - 1, -1):
            size = self._steps[i].ByteSize()
            end -= 1 + _varint_size(size) + size
            self._cut[i] = end
        return end

    def key(self, length: int) -> bytes:
        """The digest of the record up to step `length` (0 <= length <= n)."""
        return (hashlib.blake2b(self._data[:self._offset(length)], digest_size=20).digest()
                + length.to_bytes(4, "little"))


class ReplayCache:
    def __init__(self, max_entries: int = 256, max_steps: int = 400_000):
        self.max_entries = max_entries
        self.max_steps = max_steps
        self._entries: OrderedDict[bytes, Entry] = OrderedDict()
        self._lengths: dict[int, int] = {}      # cached record length -> how many entries
        self._steps = 0
        self._lock = threading.Lock()
        self.hits = 0
        self.misses = 0

    def longest_prefix(self, keys: RecordKeys):
        """(length, entry) of the longest cached prefix of the record (its
        whole length included), or None."""
        with self._lock:
            lengths = sorted((k for k in self._lengths if keys.n - MAX_STEPS_BACK <= k <= keys.n),
                             reverse=True)[:MAX_TRIES]
        for length in lengths:
            k = keys.key(length)
            with self._lock:
                entry = self._entries.get(k)
                if entry is not None:
                    self._entries.move_to_end(k)
                    self.hits += 1
                    return length, entry
        with self._lock:
            self.misses += 1
        return None

    def put(self, key: bytes, entry: Entry) -> None:
        steps = len(entry.record.steps)
        if self.max_entries < 1 or steps > self.max_steps:
            return
        with self._lock:
            if key in self._entries:
                self._entries.move_to_end(key)
                return
            self._entries[key] = entry
            self._lengths[steps] = self._lengths.get(steps, 0) + 1
            self._steps += steps
            while len(self._entries) > self.max_entries or self._steps > self.max_steps:
                _, old = self._entries.popitem(last=False)
                n = len(old.record.steps)
                self._steps -= n
                self._lengths[n] -= 1
                if not self._lengths[n]:
                    del self._lengths[n]

    def __len__(self) -> int:
        with self._lock:
            return len(self._entries)

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()
            self._lengths.clear()
            self._steps = 0
