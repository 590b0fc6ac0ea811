"""Connect Four at the table: the board under its column numbers 1 to 7,
and each column's number as the short form of the move into it."""
from __future__ import annotations

from easel.engine.connect_four.codec import MARKS


def table(view: dict, game, seat: int) -> list[str]:
    board = view["board"]
    width = len(board[0]) if board else 0
    numbers = " ".join(str(c + 1) for c in range(width))
    lines = [numbers] + [" ".join(row) for row in board] + [numbers]
    if view["current_player"] in (0, 1):
        lines.append(f"{MARKS[view['current_player']]} to move")
    return lines


def short_forms(view: dict, game, actions: list[int]) -> list[str]:
    # An action is the column's index (engine/connect_four/codec.py): a
    # person counts columns from 1, as the table's header does.
    return [str(a + 1) for a in actions]

