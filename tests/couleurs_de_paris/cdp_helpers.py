"""Helpers for the Couleurs de Paris rule scenarios: build positions from the
JSON view that play can reach (keeping the pigment box, the removed cards,
the scores and the last-round flag consistent, every hired assistant on the
boards in turn order, and the round late enough for what the scenario shows:
the loader refuses anything else, RULINGS.md "Invariants of play"), force
chance outcomes, name moves as the codec writes them."""
from __future__ import annotations

import copy
import itertools
import random

from easel import engine
from easel.engine.couleurs_de_paris import from_json
from easel.engine.couleurs_de_paris.consistency import robin
from easel.engine.couleurs_de_paris.data import ACTION_NAMES, SUPPLY_COLOURS, load_data

from reachable import first_loadable

IMPLS = ["reference"] + (["core"] if engine.game_entry("couleurs_de_paris").has_core else [])
DATA = load_data()
BOX = dict(zip(SUPPLY_COLOURS, DATA.supply))
TOOLS = ("paint tube", "palette", "brush")


def load(spec, impl):
    return engine.load_game(spec, implementation=impl)


def start(spec="couleurs_de_paris", impl="reference", seed=0):
    """A new game, its setup deal played with seeded random cards."""
    return engine.play_chance(load(spec, impl).new_initial_state(), random.Random(seed))


def value(card):
    return DATA.paintings[card].value


def colours_of(card):
    return [SUPPLY_COLOURS[c] for c in DATA.paintings[card].spaces]


def fix(view):
    """Supply = box less players and unfinished paintings; removed cards,
    scores and the last-round flag as the loader expects them."""
    counts = {c: 0 for c in SUPPLY_COLOURS}
    held = set()
    finished_by = []
    for b in view["boards"]:
        for c, k in b["pigments"].items():
            counts[c] += k
        done = 0
        for pv in b["paintings"]:
            held.add(pv["card"])
            if pv["finished"]:
                done += 1
            else:
                for x in pv["filled"]:
                    if x:
                        counts[x] += 1
        finished_by.append(done)
    for c in SUPPLY_COLOURS:
        view["supply"][c] = BOX[c] - counts[c]
        assert view["supply"][c] >= 0, f"too many {c} pigments in the scenario"
    located = held | set(view["deck"]) | {c for c in view["easels"] if c is not None}
    view["removed"] = [c for c in range(len(DATA.paintings)) if c not in located]
    view["scores"] = [score_of(b) for b in view["boards"]]
    view["final_round"] = max(finished_by) >= 2 or view["supply"]["black"] == 0
    return view


def score_of(b):
    total = 6 * b["pigments"]["black"]
    for t in TOOLS:
        if b["tools"][t] == 8:
            total += 10
        elif b["bonus"][t] == "points":
            total += 6
    for pv in b["paintings"]:
        if pv["finished"]:
            total += value(pv["card"]) - 2 * pv["filled"].count("white")
    return total


ACTING = ("act", "tool", "pay", "bonus", "take", "imitate", "paint")


def _people(view):
    """(spot, player list key) of every space, lower board then centre."""
    return [lv for lv in view["lower_board"]] + list(view["upper_board"].values())


def place_everyone(view):
    """In phase 2 and after, every hired assistant is on the boards (§6); in
    phase 2 they lie down one at a time in turn order from the first player
    (§7). A scenario names the assistants it needs; the others go lying on
    acquire white (they acted already), some standing there if turn order
    needs it, with a first player such that the scenario's player is the one
    to act (RULINGS.md I7, I11). Yields each such completion of the view,
    fewest extra assistants standing first."""
    n = view["players"]
    if view["phase"] in ("deal", "place"):
        yield view
        return
    standing = [sum(sp["standing"].count(q) for sp in _people(view)) for q in range(n)]
    lying = [sum(sp["lying"].count(q) for sp in _people(view)) for q in range(n)]
    extra = [max(b["assistants"] - standing[q] - lying[q], 0)
             for q, b in enumerate(view["boards"])]
    if view["phase"] not in ACTING:
        for q in range(n):
            view["upper_board"]["white"]["lying"] += [q] * extra[q]
        yield view
        return
    cur = view["current_player"]
    holder = [q for q in range(n) if q in view["upper_board"]["first player"]["standing"]
              or q in view["upper_board"]["first player"]["lying"]]
    firsts = [view["first_player"]] + [q for q in range(n) if q != view["first_player"]]
    counts = [standing[q] + lying[q] + extra[q] for q in range(n)]
    for up in sorted(itertools.product(*[range(e + 1) for e in extra]), key=sum):
        for first in firsts:
            done = [lying[q] + extra[q] - up[q] for q in range(n)]
            walk = robin(n, first, counts, sum(done))
            if first in holder or not walk or walk[0] != done:
                continue
            if (walk[2] if view["phase"] == "act" else walk[1]) == cur:
                out = copy.deepcopy(view)
                out["first_player"] = first
                white = out["upper_board"]["white"]
                for q in range(n):
                    white["standing"] += [q] * up[q]
                    white["lying"] += [q] * (extra[q] - up[q])
                yield out


def load_reachable(game, views):
    """Load the first of a scenario's completions (place_everyone) at the
    first round, from the view's, that play can reach: a scenario shows what
    some rounds of play make."""
    def candidates():
        for view in views:
            fix(view)
            for rnd in range(view["round"], game.params["maxrounds"] + 1):
                view["round"] = rnd
                yield view
    return first_loadable(lambda v: from_json(game, v), candidates())


def edit(state, fn):
    """A new state: the view of `state`, changed by fn(view), made reachable, reloaded."""
    view = state.to_json()
    fn(view)
    return load_reachable(state.get_game(), place_everyone(view))


def clear_assistants(view):
    for lv in view["lower_board"]:
        lv["standing"], lv["lying"] = [], []
    for uv in view["upper_board"].values():
        uv["standing"], uv["lying"] = [], []


def spot(view, where):
    """The lower-board position facing action `where` ('red', 'paint'...), or a
    centre space ('first player', 'imitator', 'rotate', 'white')."""
    if where in view["upper_board"]:
        return view["upper_board"][where]
    for lv in view["lower_board"]:
        if lv["action"] == where:
            return lv
    raise KeyError(where)


def acting(view, player, standing, lying=()):
    """Phase 2 with `player` to act: standing = [(where, player)...]."""
    clear_assistants(view)
    view["phase"] = "act"
    view["current_player"] = player
    for b in view["boards"]:
        b["to_place"] = 0
    for where, p in standing:
        spot(view, where)["standing"].append(p)
    for where, p in lying:
        spot(view, where)["lying"].append(p)


def give(view, player, **pigments):
    for c, k in pigments.items():
        view["boards"][player]["pigments"][c] = k


def hold(view, player, card, filled=None):
    """Player holds painting `card` (taken out of the deck or off an easel)."""
    if card in view["deck"]:
        view["deck"].remove(card)
    view["easels"] = [None if c == card else c for c in view["easels"]]
    filled = filled or [None] * 9
    view["boards"][player]["paintings"].append(
        {"card": card, "filled": list(filled), "finished": all(filled)})


def do(state, *texts):
    for t in texts:
        state.apply_action(state.string_to_action(t))
    return state


def texts(state):
    return [state.action_to_string(a) for a in state.legal_actions()]


def chance(state, card):
    assert state.is_chance_node()
    assert card in [a for a, _ in state.chance_outcomes()]
    state.apply_action(card)
    return state


def phase(state):
    return state.to_json()["phase"]


def board(state, p):
    return state.to_json()["boards"][p]


def play_random(state, rng, until=None):
    """Random moves (chance by its probabilities) until the end or until(state)."""
    while not state.is_terminal() and not (until and until(state)):
        if state.is_chance_node():
            state.apply_action(engine.draw_outcome(state, rng))
        else:
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
    return state


def rotate_view(view, rot):
    """Set the upper board's rotation (the lower board's action names follow)."""
    view["rotation"] = rot
    for q, lv in enumerate(view["lower_board"]):
        lv["action"] = ACTION_NAMES[DATA.wheel[(q - rot) % 10]]


def scene(impl, spec="couleurs_de_paris", fn=None, seed=0):
    return edit(start(spec, impl, seed), fn or (lambda v: None))
