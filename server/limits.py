"""What one server allows: `Limits`, shared by every service on the server
(easel.v1.Engine, and later services that search, such as hosted matches).

    limits = Limits(max_concurrent_searches=2, max_waiting_searches=32)

Budgets above a maximum are refused (not clamped), so a client never gets a
weaker search than it asked for without knowing. Searches beyond
`max_concurrent_searches` wait in the fair queue (server/queue.py), at most
`max_waiting_searches` in all and `max_waiting_per_client` from one client;
beyond, RESOURCE_EXHAUSTED with a retry delay.
"""
from __future__ import annotations

import os
from dataclasses import dataclass

from easel.engine.userfiles import DATA_FILES


@dataclass(frozen=True)
class Limits:
    max_iterations: int = 1_000_000        # per request
    max_seconds: float = 60.0              # per request (search time)
    max_concurrent_searches: int = 2       # searches running at once (MCTS; cheap bots aside)
    max_waiting_searches: int = 32         # searches waiting for a slot, all clients
    max_waiting_per_client: int = 16       # searches waiting for a slot, one client
    max_threads: int = os.cpu_count() or 1  # per search
    max_message_bytes: int = 4 * 1024 * 1024
    default_iterations: int = 10_000       # when a request sets no budget
    default_report_ms: int = 200
    default_report_candidates: int = 3     # candidates in Analyze's intermediate reports
    max_data_bytes: int = DATA_FILES.limit  # a data file a game option names (at most this)
    replay_cache_entries: int = 256        # replayed records kept (0: no cache)
    replay_cache_steps: int = 400_000      # steps held by all cached records

    def __post_init__(self):
        for name in ("max_iterations", "max_concurrent_searches", "max_threads",
                     "max_message_bytes", "default_iterations", "default_report_ms",
                     "default_report_candidates", "max_data_bytes", "max_waiting_per_client"):
            if getattr(self, name) < 1:
                raise ValueError(f"limit {name} must be at least 1")
        for name in ("max_waiting_searches", "replay_cache_entries", "replay_cache_steps"):
            if getattr(self, name) < 0:
                raise ValueError(f"limit {name} must be at least 0")
        if not self.max_seconds > 0:
            raise ValueError("limit max_seconds must be positive")
        if self.max_data_bytes > DATA_FILES.limit:
            # the game reads the file again under the library's own cap
            raise ValueError(f"limit max_data_bytes must be at most {DATA_FILES.limit}, the "
                             f"library's cap on game data files ({DATA_FILES.source})")
