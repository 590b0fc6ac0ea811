"""Pig move text, as OpenSpiel writes it: 'roll', 'stop', and 'Roll 4' for a die face."""


def action_to_string(view: dict, action: int) -> str:
    if view["current_player"] == -1:
        return f"Roll {action if view['piglet'] else action + 1}"
    return "roll" if action == 0 else "stop"


def state_to_string(view: dict) -> str:
    rolling = " (rolling)" if view["current_player"] == -1 else ""
    return (f"Scores: {' '.join(map(str, view['scores']))}, Turn total: {view['turn_total']}\n"
            f"Current player: {view['turn_player']}{rolling}\n")
