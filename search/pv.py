"""Texts of the lines a search found: a candidate's whole turn and the
principal variation after it, read from one tree's nodes along a path and
replayed on a clone of the root position (search/analysis.py builds the
candidates; this module says what each step is)."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from easel.engine.contract_ids import PLAYER_CHANCE, PLAYER_TERMINAL

from ._mcts import KINDS

KIND_CHANCE = KINDS["chance"]
PV_LENGTH = 12            # steps of principal variation shown after a candidate's turn


@dataclass
class PVStep:
    action: int | None        # None for a chance event whose outcome is not in the tree
    text: str
    player: int               # PLAYER_CHANCE (-1) for chance
    is_chance: bool
    visits: int = 0


def describe(root, tree, path, pv_length: int = PV_LENGTH) -> tuple[list[PVStep], list[PVStep]]:
    """Texts for a turn path (node indices in `tree`, a search/_mcts.pyx
    Tree grown at the state `root`) and the principal variation after it:
    from each node on, its most visited child."""
    state = root.clone()
    turn = []
    node = 0
    for i in path:
        ix, rows = tree.children(node)
        step = _step(state, rows[int(np.flatnonzero(ix == i)[0])])
        turn.extend(step)
        node = i
        if not step or step[-1].action is None:
            break
    pv = []
    node = path[-1]
    while len(pv) < pv_length and state.current_player() != PLAYER_TERMINAL:
        ix, rows = tree.children(node)
        if len(ix) == 0:
            break
        best = int(np.argmax(rows["n_visits"]))     # the first of the most visited
        step = _step(state, rows[best])
        if not step:
            break
        pv.extend(step)
        node = int(ix[best])
    return turn, pv


def _step(state, node) -> list[PVStep]:
    """Apply a node's action (its row) to `state` (a Python-face clone),
    first resolving any chance event the IS form left out of the tree with
    its most likely outcome; return the steps taken (empty if the action is
    not legal here)."""
    steps = []
    if node["kind"] == KIND_CHANCE:
        if not state.is_chance_node():
            return []
        a = int(node["action"])
        text = state.action_to_string(a)
        state.apply_action(a)
        return [PVStep(a, text, PLAYER_CHANCE, True, int(node["n_visits"]))]
    while state.is_chance_node():
        outcome = max(state.chance_outcomes(), key=lambda o: o[1])[0]
        steps.append(PVStep(None, "(chance: " + state.action_to_string(outcome) + ", say)",
                            PLAYER_CHANCE, True))
        state.apply_action(outcome)
    a = int(node["action"])
    if not state.is_legal(a):
        return []
    player = state.current_player()
    text = state.action_to_string(a)
    state.apply_action(a)
    steps.append(PVStep(a, text, player, False, int(node["n_visits"])))
    return steps
