"""Server-drawn chance: each outcome is a function of the match's secret seed
and the step number, never of an RNG's running state.

    u = first 53 bits of HMAC-SHA256(seed, "chance:<step>") / 2**53
    outcome = the first outcome whose cumulative probability exceeds u

so a server that restarts (or another server reading the same database)
draws exactly the outcomes it would have drawn without the restart, and an
outcome exists nowhere before its step is reached: there is no pre-drawn
sequence in memory or on disk to leak. The seed is 32 bytes from
`secrets.token_bytes` and never leaves the server.
"""
from __future__ import annotations

import hashlib
import hmac
import secrets

SEED_BYTES = 32


def new_seed() -> bytes:
    return secrets.token_bytes(SEED_BYTES)


def uniform(seed: bytes, step: int, purpose: str = "chance") -> float:
    """A number in [0, 1) fixed by (seed, purpose, step)."""
    digest = hmac.new(seed, f"{purpose}:{step}".encode(), hashlib.sha256).digest()
    return (int.from_bytes(digest[:8], "big") >> 11) / float(1 << 53)


def derive_int(seed: bytes, purpose: str) -> int:
    """A 63-bit integer fixed by (seed, purpose): the bots' search seeds."""
    digest = hmac.new(seed, purpose.encode(), hashlib.sha256).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def draw(seed: bytes, step: int, state) -> int:
    """The outcome of chance node `state`, reached at step number `step`."""
    outcomes = state.chance_outcomes()
    if not outcomes:
        raise ValueError("not a chance node")
    u = uniform(seed, step)
    total = sum(p for _, p in outcomes)
    acc = 0.0
    for action, p in outcomes:
        acc += p / total
        if u < acc:
            return action
    return outcomes[-1][0]       # u within rounding of 1
