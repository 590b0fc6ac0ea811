"""The table a person sees in `easel play`: one module per game in this
package, each reading the game's JSON view: `table(view, game, seat)`, and
where natural `short_forms(view, game, actions)` (the game's own short
forms of its moves) and `move_notes(view, game, actions)` (what a move's
text leaves for the table to say). A game without a module shows its
codec's text (`state.to_string()`)."""
from __future__ import annotations

import importlib

# The games with a table of their own, by registered name.
TABLES = {"connect_four": "connect_four", "pig": "pig", "vangogh": "vangogh",
          "couleurs_de_paris": "couleurs_de_paris", "starving_artists": "starving_artists"}


def _module(game):
    name = TABLES.get(game.name)
    return importlib.import_module(f"{__package__}.{name}") if name else None


def table(state, seat: int) -> list:
    """What to print for `state` seen from `seat`: lines (str) and rich
    renderables."""
    mod = _module(state.get_game())
    if mod is None:
        return [state.to_string().rstrip()]
    return mod.table(state.to_json(), state.get_game(), seat)


def own_short_forms(state, actions: list[int]) -> list[str] | None:
    """The game's own short forms of `actions` at `state`, or None."""
    mod = _module(state.get_game())
    hook = getattr(mod, "short_forms", None)
    return None if hook is None else hook(state.to_json(), state.get_game(), actions)


def move_notes(state, actions: list[int]) -> list[str]:
    """What the game's table adds after each move's text where the text
    alone does not say it the way the table counts; ""
    for each move of a game without notes."""
    mod = _module(state.get_game())
    hook = getattr(mod, "move_notes", None)
    if hook is None:
        return ["" for _ in actions]
    return hook(state.to_json(), state.get_game(), actions)


def render(parts: list, out, width: int | None = None) -> None:
    """Print `parts` to `out`: text as it is, rich renderables laid out to
    the terminal's width (100 columns when `out` is not a terminal), no
    colour (nothing on the table is told by colour alone) and no markup
    (a "[upright]" in a cell is text)."""
    from rich.console import Console
    console = Console(width=width or (None if _is_tty(out) else 100), color_system=None,
                      highlight=False, markup=False, emoji=False, soft_wrap=False)
    for part in parts:
        if isinstance(part, str):
            print(part, file=out)
            continue
        with console.capture() as captured:
            console.print(part)
        for line in captured.get().splitlines():
            print(line.rstrip(), file=out)
    out.flush()


def _is_tty(out) -> bool:
    try:
        return out.isatty()
    except (AttributeError, ValueError):
        return False
