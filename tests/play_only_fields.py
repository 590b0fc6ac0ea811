"""The fields of a game's JSON view that only play changes, and for each a
change that takes a reachable position out of what play can reach, with the
reason (RULINGS.md "Invariants of play" of the game): used by
tests/test_loader_property.py, which checks that the loader refuses every
such change naming the field.

`mutations(game, view)` lists (field, changed view, reason) for one
position: only the changes whose reason holds in that position. A change
keeps the derived fields (removed cards, scores, stars, the last-round flag)
in step, so that what is refused is the invariant named, not a stale derived
field.
"""
from __future__ import annotations

import copy

from easel.engine.couleurs_de_paris.data import SUPPLY_COLOURS, TOOLS
from easel.engine.couleurs_de_paris.rules import rules_of as cdp_rules
from easel.engine.starving_artists.rules import CUBE_NAMES
from easel.engine.starving_artists.rules import rules_of as sa_rules

PLAY = {"act", "tool", "pay", "bonus", "take", "imitate", "paint"}


def names_field(message: str, field: str, also=()) -> bool:
    """Whether a refusal names `field`, an enclosing field (a prefix ending
    where a component ends) or one of `also`."""
    cuts = [field] + [field[:k] for k in range(len(field)) if field[k] in ".["]
    return any(f"'{f}'" in message for f in cuts + list(also))


class _Out:
    def __init__(self, view):
        self.view = view
        self.items = []

    def add(self, field, change, why, also=()):
        v = copy.deepcopy(self.view)
        change(v)
        self.items.append((field, v, why, tuple(also)))


# -- Couleurs de Paris ----------------------------------------------------------------
def _people(view):
    return list(view["lower_board"]) + list(view["upper_board"].values())


def _cdp_on_board(view, p):
    return sum(sp["standing"].count(p) + sp["lying"].count(p) for sp in _people(view))


def _cdp_removed(view, ncards):
    held = {pv["card"] for b in view["boards"] for pv in b["paintings"]}
    located = held | set(view["deck"]) | {c for c in view["easels"] if c is not None}
    view["removed"] = [c for c in range(ncards) if c not in located]


def cdp_mutations(game, view):
    r = cdp_rules(game)
    n = r.n
    ncards = len(r.data.paintings)
    ph = view["phase"]
    out = _Out(view)
    turned = ph in ("refill", "discard", "stand")
    # I1: pigments are conserved colour by colour.
    for c in SUPPLY_COLOURS:
        out.add(f"supply.{c}", lambda v, c=c: v["supply"].__setitem__(c, v["supply"][c] + 1),
                "one pigment more than the box (I1)")
    for p in range(n):
        for c in SUPPLY_COLOURS:
            out.add(f"boards[{p}].pigments.{c}",
                    lambda v, p=p, c=c: v["boards"][p]["pigments"].__setitem__(
                        c, v["boards"][p]["pigments"][c] + 1),
                    "one pigment more than the box (I1)")
        for i, pv in enumerate(view["boards"][p]["paintings"]):
            j = next((j for j, x in enumerate(pv["filled"]) if x is None), None)
            if j is not None and pv["filled"].count(None) > 1:
                out.add(f"boards[{p}].paintings[{i}].filled[{j}]",
                        lambda v, p=p, i=i, j=j: v["boards"][p]["paintings"][i]["filled"]
                        .__setitem__(j, "white"),
                        "a pigment from nowhere on a painting (I1)")
        # I6: the development tracks.
        b = view["boards"][p]
        for t in TOOLS:
            if b["tools"][t] < 6 and b["bonus"][t] is None:
                out.add(f"boards[{p}].tools.{t}",
                        lambda v, p=p, t=t: v["boards"][p]["tools"].__setitem__(t, 6),
                        "the marker on the bonus space with no bonus taken (I6)")
                out.add(f"boards[{p}].bonus.{t}",
                        lambda v, p=p, t=t: v["boards"][p]["bonus"].__setitem__(t, "points"),
                        "a bonus before the bonus space (I6)")
        if b["assistants"] < 6:
            out.add(f"boards[{p}].assistants",
                    lambda v, p=p: v["boards"][p].__setitem__("assistants",
                                                              v["boards"][p]["assistants"] + 1),
                    "an assistant no bonus hired (I6)")
        if b["to_place"] < 6:
            out.add(f"boards[{p}].to_place",
                    lambda v, p=p: v["boards"][p].__setitem__("to_place",
                                                              v["boards"][p]["to_place"] + 1),
                    "more assistants to place than the player has (I7)")
        # I7: every hired assistant is placed each round; no more; they lie
        # down only in phase 2.
        q = next(q for q, lv in enumerate(view["lower_board"]) if lv["spaces"])
        how = None
        if ph == "place":
            how = ("lying", "an assistant lying down before the actions phase (I7)")
        elif ph in PLAY | {"rotate", "refill", "discard", "stand", "end"} and \
                _cdp_on_board(view, p) == b["assistants"]:
            how = ("standing", "one assistant more on the boards than the player hired (I7)")
        if how:
            key, why = how
            spots = [(f"lower_board[{q}]", ("lower_board", q))] + \
                [(f"upper_board.{name}", ("upper_board", name)) for name in view["upper_board"]]
            for field, (part, at) in spots:
                out.add(f"{field}.{key}",
                        lambda v, p=p, part=part, at=at, key=key: v[part][at][key].append(p),
                        why)
    # Which card is where: a card in two places.
    held = [(p, i, pv["card"]) for p, b in enumerate(view["boards"])
            for i, pv in enumerate(b["paintings"])]
    if len(held) >= 2:
        (_, _, other), (p, i, _) = held[0], held[1]

        def twice(v, p=p, i=i, other=other):
            v["boards"][p]["paintings"][i] = {
                k: x for k, x in v["boards"][p]["paintings"][i].items()
                if k in ("filled", "finished")}
            v["boards"][p]["paintings"][i]["card"] = other
        out.add(f"boards[{p}].paintings[{i}].card", twice, "a painting held twice")
    shown = [(e, c) for e, c in enumerate(view["easels"]) if c is not None]
    if len(shown) >= 2:
        out.add(f"easels[{shown[1][0]}]", lambda v, e=shown[1][0], c=shown[0][1]:
                v["easels"].__setitem__(e, c), "a card on two easels")
    # I8: a claim needs an assistant lying on its space.
    for key, space in (("first player", "first player"), ("rotate", "rotate")):
        if view["claims"][key] is None:
            free = [p for p in range(n) if p not in view["upper_board"][space]["lying"]]
            if free:
                out.add(f"claims.{key}",
                        lambda v, key=key, p=free[0]: v["claims"].__setitem__(key, p),
                        "a claim with no assistant lying on the space (I8)")
    # Derived fields.
    for p, b in enumerate(view["boards"]):
        for i in range(len(b["paintings"])):
            out.add(f"boards[{p}].paintings[{i}].finished",
                    lambda v, p=p, i=i: v["boards"][p]["paintings"][i].__setitem__(
                        "finished", not v["boards"][p]["paintings"][i]["finished"]),
                    "finished exactly when full")
    if view["deck"]:
        out.add("removed", lambda v: v.__setitem__("removed", sorted(v["removed"]
                                                                     + v["deck"][:1])),
                "the removed cards are those neither in the deck, on an easel nor held")
    if ph in ("discard", "stand") and n > 1:
        out.add("first_player", lambda v: v.__setitem__("first_player",
                                                        (v["first_player"] + 1) % n),
                "phase 3 goes in turn order from the first player (I11)")
    out.add("final_round", lambda v: v.__setitem__("final_round", not v["final_round"]),
            "the last-round flag follows from the paintings and the black supply")
    out.add("scores", lambda v: v.__setitem__("scores", [x + 1 for x in v["scores"]]),
            "the scores follow from the position")
    # I2, I3: what round 1 (before phase 3 turns the board) allows.
    if view["round"] == 1 and not turned and ph != "deal":
        others = [q for q in range(n) if q != view["first_player"]]
        out.add("first_player", lambda v: v.__setitem__("first_player", others[0]),
                "the 1st Player token changes hands only at a round's end (I2)")
        out.add("rotation", lambda v: _cdp_rotate(v, r, 1),
                "the board turns only in phase 3 (I3)")
    early = (not turned and view["rotation"] != 0) or \
        len(view["deck"]) < ncards - r.easels * (1 + (1 if turned else 0))
    if view["round"] >= 2 and early:
        out.add("round", lambda v: v.__setitem__("round", 1),
                "round 1 before the board turned: the board has turned, or a refill has "
                "dealt cards (I3, I4)")
    k = view["round"] - 1 + (1 if turned else 0)
    if 2 * k + 1 < 10:
        out.add("rotation", lambda v, k=k: _cdp_rotate(v, r, 2 * k + 1),
                f"{k} turns of the board make at most {2 * k} steps (I3)")
    out.add("round", lambda v: v.__setitem__("round", r.max_rounds + 1),
            "past the game's last round")
    # I4, I5: the cards.
    if ph not in ("deal", "refill") and len(view["deck"]) > 0:
        e = next((e for e, c in enumerate(view["easels"]) if c is not None), None)
        if ph == "place" and e is not None:
            def empty(v, e=e):
                v["easels"][e] = None
                _cdp_removed(v, ncards)
            out.add(f"easels[{e}]", empty, "an easel empty at the start of a round while the "
                                           "deck has cards (I5)", also=("easels",))
        if view["round"] == 1 and not turned:
            def drop(v):
                v["deck"] = v["deck"][1:]
                _cdp_removed(v, ncards)
            out.add("deck", drop, "a card out of the deck in round 1 that is on no easel (I4)")
    # I10: the steps under way.
    pend = view["pending"]
    if ph not in ("pay", "bonus") and pend["tool"] is None:
        out.add("pending.tool", lambda v: v["pending"].__setitem__("tool", "brush"),
                "a tool chosen outside an improvement (I10)")
    if ph != "pay":
        out.add("pending.pay_left", lambda v: v["pending"].__setitem__("pay_left", 1),
                "pigments owed outside a payment (I10)")
        out.add("pending.pay_min", lambda v: v["pending"].__setitem__("pay_min", "blue"),
                "a payment order outside a payment (I10)")
    if ph != "paint":
        out.add("pending.paint_left", lambda v: v["pending"].__setitem__("paint_left", 1),
                "pigments to paint outside the paint action (I10)")
        out.add("pending.painted", lambda v: v["pending"].__setitem__("painted", 1),
                "pigments painted outside the paint action (I10)")
    else:
        out.add("pending.painted", lambda v: v["pending"].__setitem__(
            "painted", v["pending"]["painted"] + 1), "more pigments than the brush places (I10)")
    if ph not in ("discard", "stand") and n > 1:
        out.add("pending.seat_k", lambda v: v["pending"].__setitem__("seat_k", 1),
                "a phase 3 seat outside phase 3 (I10)")
    if ph != "stand":
        out.add("pending.keep[0]", lambda v: v["pending"]["keep"].__setitem__(0, 1),
                "an assistant stood up outside the stand step (I10)")
    # I11: whose turn (in a later round's placement the assistant stood up
    # last round cannot be told from one placed now, and another player may
    # be the one to place: only round 1's placement is certain).
    if ph in PLAY | {"rotate", "discard", "stand"} or (ph == "place" and view["round"] == 1):
        cur = view["current_player"]
        out.add("current_player",
                lambda v: v.__setitem__("current_player", (cur + 1) % n),
                "turn order gives the move to another player (I11)")
    # I12: the end.
    if not view["final_round"] and view["round"] < r.max_rounds and ph != "end":
        out.add("phase", lambda v: (v.__setitem__("phase", "end"),
                                    v.__setitem__("current_player", -4)),
                "the game ends only after the last round's phase 2 (I12)")
    if view["round"] >= 2:
        out.add("phase", lambda v: (v.__setitem__("phase", "deal"),
                                    v.__setitem__("current_player", -1)),
                "the deal is the setup's (I4, I7)")
    if ph == "act":
        out.add("phase", lambda v: v.__setitem__("phase", "place"),
                "the placement phase with everyone placed and assistants lying (I7, I11)")
    if ph == "place":
        out.add("phase", lambda v: v.__setitem__("phase", "act"),
                "the actions phase with assistants still to place (I7)")
    return out.items


def _cdp_rotate(view, r, rot):
    from easel.engine.couleurs_de_paris.data import ACTION_NAMES
    view["rotation"] = rot % 10
    for q, lv in enumerate(view["lower_board"]):
        lv["action"] = ACTION_NAMES[r.data.wheel[(q - rot) % 10]]


# -- Starving Artists ---------------------------------------------------------------------
SA_REST = {  # pending field: (value outside its phases, the phases where it may differ)
    "main_done": (1, {"turn", "paint", "pay", "take", "draw", "canvas"}),
    "dawn_k": (1, {"draw", "supper"}),
    "dusk_k": (1, {"canvas"}),
    "setup_k": (1, {"setup"}),
    "draws_left": (1, {"draw"}),
    "draw_to": (0, {"draw"}),
    "resume": ("turn", {"draw", "canvas"}),
    "paints_left": (1, {"paint"}),
    "pay_left": (1, {"pay"}),
    "pay_for": ("buy", {"pay"}),
    "pay_arg": (1, {"pay"}),
    "take_left": (1, {"take", "pay"}),
    "turn_taken": (1, {"collect"}),
    "turn_wild": (1, {"collect"}),
    "feed_k": (1, {"draw"}),
    "fed": (1, {"draw"}),
    "adv_k": (1, {"advance"}),
}


def sa_mutations(game, view):
    r = sa_rules(game)
    n = r.n
    ph = view["phase"]
    pend = view["pending"]
    out = _Out(view)
    over = ph == "end"
    # I1: every cube is somewhere.
    for c in CUBE_NAMES:
        out.add(f"bag.{c}", lambda v, c=c: v["bag"].__setitem__(c, v["bag"][c] + 1),
                "a cube more than the box (I1)")
        out.add(f"payday_pile.{c}",
                lambda v, c=c: v["payday_pile"].__setitem__(c, v["payday_pile"][c] + 1),
                "a cube more than the box (I1)")
        out.add(f"pending.held.{c}",
                lambda v, c=c: v["pending"]["held"].__setitem__(c, v["pending"]["held"][c] + 1),
                "a cube more than the box (I1)")
    for p, st in enumerate(view["studios"]):
        f = f"studios[{p}]"
        if st["alive"]:
            for c in CUBE_NAMES:
                out.add(f"{f}.cubes.{c}",
                        lambda v, p=p, c=c: v["studios"][p]["cubes"].__setitem__(
                            c, v["studios"][p]["cubes"][c] + 1), "a cube more than the box (I1)")
        for k, cv in enumerate(st["canvases"]):
            q = next((q for q, x in enumerate(cv["cubes"]) if x is None), None)
            if q is not None:
                colour = cv["squares"][q].split("/")[0]
                out.add(f"{f}.canvases[{k}].cubes[{q}]",
                        lambda v, p=p, k=k, q=q, colour=colour:
                        v["studios"][p]["canvases"][k]["cubes"].__setitem__(q, colour),
                        "a cube from nowhere on a canvas (I1)")
        # I3: alive, nutrition, food; the derived stars.
        out.add(f"{f}.alive", lambda v, p=p: v["studios"][p].__setitem__(
            "alive", not v["studios"][p]["alive"]), "alive exactly while nutrition is 1 or more "
                                                    "(I3)")
        if st["alive"]:
            out.add(f"{f}.nutrition", lambda v, p=p: v["studios"][p].__setitem__("nutrition", 0),
                    "a living player at nutrition 0 (I3)")
            if st["food_earned"] == 0 and not r.last_supper:
                up = st["nutrition"] + 1 if st["nutrition"] < 5 else st["nutrition"] - 1
                out.add(f"{f}.nutrition",
                        lambda v, p=p, up=up: v["studios"][p].__setitem__("nutrition", up),
                        "nothing eaten: nutrition is 5 less a drop each dawn (I4)")
        # With Last Supper, discarded paintings' food counts too: at most the
        # food of every canvas out of the game.
        most = st["food_earned"] + 1 if not r.last_supper else (
            sum(game_card(r, i).food for i in st["paintings"] + view["removed"])
            + sum(game_card(r, i).food for i in pend["selling"]) + 1)
        out.add(f"{f}.food_earned", lambda v, p=p, most=most: v["studios"][p].__setitem__(
            "food_earned", most), "food earned is the food of the canvases sold (I3)")
        out.add(f"{f}.stars", lambda v, p=p: v["studios"][p].__setitem__(
            "stars", v["studios"][p]["stars"] + 1), "the stars follow from the paintings")
        # I7: the free action.
        dawn = ph in ("setup", "supper") or (ph in ("draw", "canvas")
                                              and pend["resume"] == "dawn")
        late = (not r.solo and ph == "turn" and view["round"] == 1
                and (p - view["first_player"]) % n > pend["turn_k"])
        if (dawn or late) and st["alive"] and not st["free_action_used"]:
            out.add(f"{f}.free_action_used", lambda v, p=p: v["studios"][p].__setitem__(
                "free_action_used", True), "a free action before the player's turn today (I7)")
    # I8: a painting sold on day 1 (regular game: sales end the day).
    unseen = view["face_down"]["unseen"]
    spare = unseen[view["face_down"]["set_aside"]:] if r.solo else unseen
    if view["day"] == 1 and spare and not over:
        def sold(v, i=spare[-1]):
            v["face_down"]["unseen"].remove(i)
            v["studios"][0]["paintings"].append(i)
            v["studios"][0]["stars"] += game_card(r, i).stars
            v["studios"][0]["food_earned"] += game_card(r, i).food
        out.add("studios[0].paintings", sold, "a painting sold on day 1 (I8)")
    # I4, I5: the day, the carrot, the round.
    if not r.solo:
        out.add("first_player", lambda v: v.__setitem__("first_player",
                                                        (v["first_player"] + 1) % n),
                "the carrot passes once a day (I5)")
        alive = [st["alive"] for st in view["studios"]]
        starved = [st for st in view["studios"] if not st["alive"]]
        if all(alive) or (starved and not r.last_supper
                          and any(st["food_earned"] == 0 for st in starved)):
            # (with a starved player the carrot may skip a seat: the day is
            # then held by the day a player who never ate starves, I4)
            out.add("day", lambda v: v.__setitem__("day", v["day"] + 1),
                    "the carrot passes once a day (I5), a player starves after 5 drops (I4)")
        if ph in ("announce", "collect") or over or (ph == "draw" and pend["resume"] == "feed"):
            out.add("round", lambda v: v.__setitem__("round", 3 - v["round"]),
                    "announcing and selling come after the day's second round (I6)")
        out.add("result", lambda v: v.__setitem__("result", 1), "the regular game keeps no "
                                                                "solo result")
        known = view["face_down"]["known_under"]
        most = 3 * n * view["day"]
        if len(unseen) + len(known) > most:
            def under(v, k=most + 1 - len(known)):
                fd = v["face_down"]
                fd["known_under"] += fd["unseen"][:k]
                fd["unseen"] = fd["unseen"][k:]
            out.add("face_down.known_under", under, "more canvases put back than a reset a "
                                                    "day by each player puts back (I2)")
    else:
        out.add("first_player", lambda v: v.__setitem__("first_player", 1),
                "the solo player is player 0 (I5)")
        out.add("round", lambda v: v.__setitem__("round", 2), "the solo game has no rounds (I6)")
        out.add("pending.turn_k", lambda v: v["pending"].__setitem__("turn_k", 1),
                "the solo game has no turn order (I9)")
        if ph not in ("turn", "paint", "pay", "take", "draw", "canvas", "collect"):
            out.add("pending.actions_left", lambda v: v["pending"].__setitem__(
                "actions_left", 1), "actions are left only during the day's turn (I9)")
        if not over and len(view["removed"]) < view["day"]:
            out.add("day", lambda v: v.__setitem__("day", v["day"] + 1),
                    "the solo market loses a canvas each evening (I2)")
            out.add("result", lambda v: v.__setitem__("result", 1), "a decided solo game is "
                                                                    "over (I11)")
    # I2: canvases leave the game only by starving, a Last Supper, the solo advance.
    if spare and not over and not r.last_supper and (
            r.solo or all(st["alive"] for st in view["studios"])):
        def gone(v, i=spare[-1]):
            v["face_down"]["unseen"].remove(i)
            v["removed"] = sorted(v["removed"] + [i])
        out.add("removed", gone, "a canvas left the game without a reason (I2)")
    if r.solo and view["removed"] and len(view["removed"]) - 1 < view["day"] - 1:
        def back_down(v):
            i = v["removed"].pop()
            v["face_down"]["unseen"] = sorted(v["face_down"]["unseen"] + [i])
        out.add("removed", back_down, "each solo evening removed a canvas (I2)")
    if spare and ph in ("turn", "announce", "collect", "supper") and \
            view["market"][2] is not None:
        def gap(v):
            v["face_down"]["unseen"] = sorted(v["face_down"]["unseen"]
                                              + [v["market"][2]["canvas"]])
            v["market"][2] = None
        out.add("market", gap, "an empty market slot while canvases are face down (I2)")
    if spare and not over and r.last_supper and not r.solo and view["day"] == 1:
        def eaten(v, i=spare[-1]):
            v["face_down"]["unseen"].remove(i)
            v["removed"] = sorted(v["removed"] + [i])
        out.add("removed", eaten, "no Last Supper before day 2 (I2)")
    if r.solo and spare:
        def back(v, i=spare[-1]):
            v["face_down"]["unseen"].remove(i)
            v["face_down"]["known_under"].append(i)
        out.add("face_down.known_under", back, "the solo game puts no canvas back (I2)")
    # I9, I10: the pending fields outside their steps.
    for key, (value, phases) in SA_REST.items():
        if ph not in phases:
            out.add(f"pending.{key}", lambda v, key=key, value=value:
                    v["pending"].__setitem__(key, value), f"{key} outside its step (I9)")
    if not r.solo:
        out.add("pending.actions_left", lambda v: v["pending"].__setitem__("actions_left", 1),
                "solo actions in the regular game (I9)")
        if ph == "turn":
            out.add("pending.turn_k", lambda v: v["pending"].__setitem__(
                "turn_k", (v["pending"]["turn_k"] + 1) % n), "turn_k names the actor (I9)")
    if ph not in ("announce", "collect") and not (ph == "draw" and pend["resume"] == "feed"):
        studio_canvas = next((cv["canvas"] for st in view["studios"]
                              for cv in st["canvases"]), None)
        if studio_canvas is not None:
            out.add("pending.selling", lambda v, i=studio_canvas:
                    v["pending"].__setitem__("selling", [i]), "a sale outside selling (I10)")
    out.add("pending.starved_today", lambda v: v["pending"].__setitem__(
        "starved_today", 1 - v["pending"]["starved_today"]),
        "someone starved exactly on the last day (I11)")
    # Who moves; the phase.
    if ph not in ("setup", "draw", "canvas", "end"):
        out.add("current_player", lambda v: v.__setitem__(
            "current_player", (v["current_player"] + 1) % n if n > 1 else -1),
            "the player to move follows from the position")
    if not over:
        out.add("phase", lambda v: (v.__setitem__("phase", "end"),
                                    v.__setitem__("current_player", -4)),
                "the game ends by a starvation, fame or (solo) a result (I11)")
        out.add("phase", lambda v: v.__setitem__("phase", "dusk"),
                "play never rests at dusk (I12)")
    return out.items


def game_card(r, printed_id):
    """The canvas the view names by its printed id."""
    return r.deck.cards[r.deck.index_of(printed_id)]


def mutations(game, view):
    if game.name == "couleurs_de_paris":
        return cdp_mutations(game, view)
    if game.name == "starving_artists":
        return sa_mutations(game, view)
    return []
