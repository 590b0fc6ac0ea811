"""`easel serve`'s options for hosted matches, kept here so that serve.py
only calls `add_arguments` and `build_manager`."""
from __future__ import annotations


def add_arguments(p) -> None:
    from .manager import MatchLimits
    from .store import default_path
    d = MatchLimits()
    g = p.add_argument_group("hosted matches (easel.v1.Matches; see docs/matches.md)")
    g.add_argument("--db", default=default_path(),
                   help="the match database, one SQLite file (default %(default)s); "
                        "one server per file")
    g.add_argument("--no-matches", action="store_true",
                   help="serve the Engine only: no Matches service, no database")
    g.add_argument("--db-sync", choices=["normal", "full"], default="normal",
                   help="normal (default): a step is acknowledged once committed to the "
                        "database's log, which survives a killed server (SIGKILL "
                        "included); full: also waits for the disk (an fsync per step, "
                        "several ms), so that a power cut loses nothing either")
    g.add_argument("--match-idle-expiry", type=float, default=d.idle_expiry, metavar="SECONDS",
                   help="an open match with no step for this long expires (default %(default)s)")
    g.add_argument("--match-idle-grace", type=float, default=d.idle_grace, metavar="SECONDS",
                   help="when --max-open-matches are in progress, a new match ends the one of "
                        "another client that has waited longest for its client seat, once it "
                        "has waited this long (default %(default)s)")
    g.add_argument("--max-open-matches", type=int, default=d.max_open_matches,
                   help="matches in progress at once (default %(default)s)")
    g.add_argument("--max-open-per-client", type=int, default=d.max_open_per_client,
                   help="matches in progress at once per client: its token's name with "
                        "--auth-tokens-file, else its IP address (default %(default)s)")
    g.add_argument("--bot-threads", type=int, default=d.bot_threads,
                   help="search threads all bot seats may use at once: their CPU share "
                        "(default %(default)s)")
    g.add_argument("--ponder-threads", type=int, default=d.ponder_threads,
                   help="of those, threads bots may ponder with on opponents' time "
                        "(default %(default)s: no pondering)")
    g.add_argument("--max-kept-tree-mb", type=int, default=d.max_kept_tree_bytes >> 20,
                   metavar="MB",
                   help="MB of search tree all bot seats keep between their moves; over it "
                        "the seats that moved least recently search their next move afresh "
                        "(default %(default)s)")
    g.add_argument("--max-streams", type=int, default=d.max_streams,
                   help="spectators' WatchMatch streams (without a seat token) open at once "
                        "(default %(default)s)")
    g.add_argument("--max-streams-per-match", type=int, default=d.max_streams_per_match,
                   help="spectators' WatchMatch streams open at once on one match "
                        "(default %(default)s)")
    g.add_argument("--max-seat-streams", type=int, default=d.max_seat_streams,
                   help="seats' own WatchMatch streams (with a seat token) open at once, "
                        "apart from the spectators' (default %(default)s)")


def build_manager(args, engine_limits):
    """A started MatchManager from the parsed options, or None (--no-matches).
    Raises ValueError (a bad limit) or StoreError (an unusable database)."""
    if args.no_matches:
        return None
    from .manager import MatchLimits, MatchManager
    from .store import Store
    limits = MatchLimits(max_open_matches=args.max_open_matches,
                         max_open_per_client=args.max_open_per_client,
                         bot_threads=args.bot_threads, ponder_threads=args.ponder_threads,
                         max_streams=args.max_streams,
                         max_streams_per_match=args.max_streams_per_match,
                         max_seat_streams=args.max_seat_streams,
                         idle_expiry=args.match_idle_expiry, idle_grace=args.match_idle_grace,
                         max_kept_tree_bytes=args.max_kept_tree_mb << 20)
    store = Store(args.db, synchronous=args.db_sync.upper())
    return MatchManager(store, limits, engine_limits).start()
