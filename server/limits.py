"""What one server allows: `Limits`, shared by every service on the server
(easel.v1.Engine, and later services that search, such as hosted matches).

    limits = Limits(max_concurrent_searches=2, max_waiting_searches=32)

Budgets above a maximum are refused (not clamped), so a client never gets a
weaker search than it asked for without knowing. Searches beyond
`max_concurrent_searches` wait in the fair queue (server/queue.py), at most
`max_waiting_searches` in all and `max_waiting_per_client` from one client
(its token's name with a token list, else its IP address: server/auth.py
`Clients`); beyond, RESOURCE_EXHAUSTED with a retry delay.

Long-lived calls have slots of their own (server/streams.py): Analyze
streams, health Watch streams and reflection streams, each kind at most its
limit at once, so that they can never take the worker threads unary calls
need. A stream whose client takes no message for `stream_stall_seconds` is
ended (its slot comes back), and so is a reflection stream that sends no
request for `reflection_idle_seconds`. `max_search_nodes` bounds the
memory of each search, whatever its options (server/bot_specs.py).
"""
from __future__ import annotations

import os
from dataclasses import dataclass

from easel.search.params import DEFAULT_MAX_NODES, MCTS
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
    # A request that sets no budget searches until its two leading candidates
    # are told apart (search/separation.py), at most this many iterations and
    # seconds.
    default_iterations: int = 100_000
    default_seconds: float = 10.0
    default_report_ms: int = 200
    default_report_candidates: int = 3     # candidates in Analyze's intermediate reports
    max_data_bytes: int = DATA_FILES.limit  # a data file a game option names (at most this)
    replay_cache_entries: int = 256        # replayed records kept (0: no cache)
    replay_cache_steps: int = 400_000      # steps held by all cached records
    max_analyze_streams: int = 16          # Analyze streams open at once
    max_review_streams: int = 4            # Review streams open at once
    max_review_decisions: int = 500        # turns one Review may search (a record of more is refused)
    max_health_watches: int = 128          # health Watch streams open at once (no thread each)
    max_reflection_streams: int = 8        # reflection streams open at once
    reflection_idle_seconds: float = 60.0  # a reflection stream with no request this long ends
    stream_stall_seconds: float = 30.0     # a stream whose client takes nothing this long ends
    # Tree nodes of one search (Suggest, Analyze, a hint, each move of a bot
    # seat), summed over its trees: at most 32 bytes each, plus 256 for those
    # inside the root player's turn (search/params.py, max_nodes).
    max_search_nodes: int = DEFAULT_MAX_NODES
    max_replayed_searches: int = 128       # searches a play_as_bot call may redo to rebuild its bot
    bot_cache_entries: int = 64            # bots kept for the next play_as_bot call (0: none)
    bot_cache_nodes: int = 1 << 22         # search-tree nodes held by all kept bots

    def __post_init__(self):
        for name in ("max_iterations", "max_concurrent_searches", "max_threads",
                     "max_message_bytes", "default_iterations", "default_report_ms",
                     "default_report_candidates", "max_data_bytes", "max_waiting_per_client",
                     "max_analyze_streams", "max_review_streams",
                     "max_review_decisions", "max_health_watches", "max_reflection_streams"):
            if getattr(self, name) < 1:
                raise ValueError(f"limit {name} must be at least 1")
        for name in ("max_waiting_searches", "replay_cache_entries", "replay_cache_steps",
                     "max_replayed_searches", "bot_cache_entries", "bot_cache_nodes"):
            if getattr(self, name) < 0:
                raise ValueError(f"limit {name} must be at least 0")
        for name in ("max_seconds", "default_seconds", "reflection_idle_seconds",
                     "stream_stall_seconds"):
            if not getattr(self, name) > 0:
                raise ValueError(f"limit {name} must be positive")
        nodes = MCTS["max_nodes"]
        if not nodes.low <= self.max_search_nodes <= nodes.high:
            raise ValueError(f"limit max_search_nodes must be {nodes.range_text()}")
        if self.max_data_bytes > DATA_FILES.limit:
            # the game reads the file again under the library's own cap
            raise ValueError(f"limit max_data_bytes must be at most {DATA_FILES.limit}, the "
                             f"library's cap on game data files ({DATA_FILES.source})")
