"""Connect Four move text, as OpenSpiel writes it: 'x3' drops an x in column 3."""

MARKS = "xo"


def action_to_string(view: dict, action: int) -> str:
    p = view["current_player"]
    return f"{MARKS[p]}{action}" if p in (0, 1) else f"column {action}"


def state_to_string(view: dict) -> str:
    return "\n".join(view["board"]) + "\n"
