"""Connect Four move text, as OpenSpiel writes it: 'x3' drops an x in column 3."""

MARKS = "xo"


def action_to_string(view: dict, action: int) -> str:
    p = view["current_player"]
    return f"{MARKS[p]}{action}" if p in (0, 1) else f"column {action}"


def string_to_action(view: dict, text: str):
    t = text.strip().lower()
    if (len(t) >= 2 and t[1:].isdigit() and view["current_player"] in (0, 1)
            and t[0] == MARKS[view["current_player"]]):
        return int(t[1:])
    return None


def state_to_string(view: dict) -> str:
    return "\n".join(view["board"]) + "\n"
