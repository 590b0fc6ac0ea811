"""Pig at the table: each player's score and the turn's running total."""
from __future__ import annotations

from .layout import player_label


def table(view: dict, game, seat: int) -> list[str]:
    scores = "  ".join(f"{player_label(p, seat)}: {s}" for p, s in enumerate(view["scores"]))
    return [f"scores: {scores}",
            f"{player_label(view['turn_player'], seat)} to play, turn total "
            f"{view['turn_total']}"]
