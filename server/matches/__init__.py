"""Hosted matches (easel.v1.Matches): matches the server keeps, with bots in
seats, durable in SQLite. See docs/matches.md.

    store.py    the SQLite file: matches, seats, token hashes, steps, seeds
    match.py    one match in memory; commit first, then tell
    draws.py    server chance from the secret seed and the step number
    seats.py    the thread that plays a match's bots, clocks and pondering
    events.py   protobuf views and the resumable WatchMatch stream
    manager.py  creating, resuming, acting, limits, idle expiry
    service.py  the gRPC servicer
"""
from .manager import MatchLimits, MatchManager
from .store import Store, default_path

__all__ = ["MatchLimits", "MatchManager", "Store", "default_path"]
