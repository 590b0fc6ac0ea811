"""Pig's game knowledge for the baseline bots (engine/kit.py: Policies)."""


def heuristic(state, rng) -> int:
    """Hold at the turn total where one more roll stops paying (20 with a
    six-sided die), at the win score, and never while an opponent is within
    one turn of winning ("keep pace, end race")."""
    view = state.to_json()
    params = state.get_game().params
    legal = state.legal_actions()
    roll, stop = 0, 1
    if legal == [stop]:
        return stop
    faces, win = params["diceoutcomes"], params["winscore"]
    if params["piglet"]:
        threshold = faces - 1
    else:
        # Rolling pays while (1 - 1/f) * (t + mean non-one face) > t.
        threshold = (faces - 1) * (faces + 2) / 2.0
    me = view["turn_player"]
    mine, total = view["scores"][me], view["turn_total"]
    others = [s for q, s in enumerate(view["scores"]) if q != me]
    if mine + total >= win:
        return stop
    if others and max(others) >= win - threshold:
        return roll
    return stop if total >= threshold else roll
