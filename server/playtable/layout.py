"""Pieces every game's table is made of: a compact grid (rich), counts of
colours, a player named as the person reads it (from 1, "you" marked in
words, never by colour alone)."""
from __future__ import annotations


def grid(columns: list[str]):
    """A rich table with these column headers, compact: a rule under the
    header and no borders, so a table of ten rows takes eleven lines."""
    from rich import box
    from rich.table import Table
    t = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False, padding=(0, 1))
    for c in columns:
        t.add_column(c, overflow="fold")
    return t


def counts(by_colour: dict) -> str:
    """'red 1, blue 2' (colours held, in the view's order), '-' for none."""
    return ", ".join(f"{k} {v}" for k, v in by_colour.items() if v) or "-"


def player_label(player: int, seat: int) -> str:
    """Player `player` (0-based index) as the table shows it: counted from 1,
    with "(you)" for the person's seat."""
    return f"player {player + 1}" + (" (you)" if player == seat else "")
