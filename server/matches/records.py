"""A hosted match as a game record (search/records.py), in either form:
what `easel matches export` writes, and what GetMatch's `record_text` and
`easel play --save` give as Easel Game Notation (docs/records.md)."""
from __future__ import annotations

import dataclasses
import time

from easel.search import egn
from easel.search.records import RECORD_FORMAT

from .store import MatchRow


def played_to_the_end(m: MatchRow) -> bool:
    return m.status == "finished" and bool(m.result) and m.result.get("reason") == "game_over"


def match_record(m: MatchRow, index: int = 0) -> dict:
    """The record of a match as far as it went. A match played to the end
    has its returns and scores; one that ended early with a result (resigned,
    on time, a failed bot) has them too, and `end` names the reason; one in
    progress, aborted or expired has none (its result is "*")."""
    result = m.result or {}
    rec = {
        "format": RECORD_FORMAT, "game": m.game, "index": index, "match_id": m.id,
        "seats": [{"seat": s.seat, "spec": s.bot if s.kind == "bot" else f"client:{s.name}",
                   "kind": s.kind} for s in m.seats],
        "steps": [[st.player, st.action] for st in m.steps],
    }
    if played_to_the_end(m):
        rec.update(returns=result["returns"], scores=result.get("scores"))
    elif result.get("returns"):
        rec.update(returns=result["returns"], scores=result.get("scores"),
                   end=result["reason"])
    elif m.status != "in_progress":
        rec["end"] = m.status                   # aborted, expired: no result
    rec.update(decisions=sum(1 for st in m.steps if st.player >= 0), chance=m.chance,
               created_at=m.created_at,
               date=time.strftime("%Y-%m-%d", time.gmtime(m.created_at)))
    return rec


def snapshot(match) -> MatchRow:
    """The match as it stands, as a row (call with match.cond held)."""
    return dataclasses.replace(match.row, status=match.status, result=match.result,
                               steps=list(match.steps))


def record_text(row: MatchRow, game) -> str:
    """The match's record as EGN text. `game` is the match's own game
    object, so a game with data files writes its texts as the match read them."""
    return egn.dumps(match_record(row), game=game)
