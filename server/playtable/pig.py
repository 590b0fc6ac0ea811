"""Pig at the table: each player's score and the turn's running total."""
from __future__ import annotations


def table(view: dict, game, seat: int) -> list[str]:
    scores = "  ".join(f"player {p + 1}: {s}" for p, s in enumerate(view["scores"]))
    return [f"scores: {scores}",
            f"player {view['turn_player'] + 1}'s turn, turn total {view['turn_total']}"]
