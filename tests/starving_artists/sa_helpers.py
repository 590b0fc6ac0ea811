"""Helpers for the Starving Artists rule scenarios: build positions from the
JSON view, force chance outcomes, and name moves as the codec writes them."""
from __future__ import annotations

import importlib.util
import random

from easel import engine
from easel.engine.starving_artists.deck import load_deck
from easel.engine.starving_artists.rules import BOX, CUBE_NAMES, max_days, rules_of

from reachable import first_loadable

_HAS_CORE = importlib.util.find_spec("easel.engine.starving_artists.core") is not None
IMPLS = ["reference"] + (["core"] if _HAS_CORE else [])
DECK = load_deck("38")


def idx(title):
    """A canvas of the default deck by title: its printed id, as the JSON view
    names it (the canvas file's `id`)."""
    for c in DECK.cards:
        if c.title == title:
            return c.id
    raise KeyError(title)


def card(printed_id):
    """The default deck's canvas with this printed id."""
    return DECK.cards[DECK.index_of(printed_id)]


BAHAMIAN = idx("Bahamian View")             # red orange green blue blue blue; 2* food 2 paint 7
KUCHING = idx("View of Kuching and River, Sarawak, Borneo")   # yellow green blue; paint 4
WATER_LILIES = idx("Water Lilies")          # paint 10
KLEINE_FEE = idx("Kleine Fee")              # yellow green green; paint 8
HALL_OF_BULLS = idx("Hall of Bulls")        # orange x3 black x3; paint 9
GRAIN_FIELD = idx("Grain Field")            # split squares
SIESTA = idx("The Siesta")                  # orange orange yellow violet black; paint 3
EXCITING = idx("Exciting Comics no9")       # red yellow green green green red/blue


def spec(n=2, **opts):
    parts = [f"players={n}"] + [f"{k}={str(v).lower() if isinstance(v, bool) else v}"
                                for k, v in opts.items()]
    return f"starving_artists({','.join(parts)})"


def load(n=2, impl="reference", **opts):
    return engine.load_game(spec(n, **opts), implementation=impl)


def opening(g, seed=0):
    """The first decision of a game, chance drawn at random."""
    return engine.play_chance(g.new_initial_state(), random.Random(seed))


def cubes(**counts):
    """A full colour -> count map: cubes(blue=2, red=1)."""
    return {c: counts.get(c, 0) for c in CUBE_NAMES}


def squares_of(i):
    return card(i).squares


def full_cubes(i):
    """Cube names completing canvas i (the first colour of each square)."""
    return [CUBE_NAMES[cols[0]] for cols in squares_of(i)]


def _remove_everywhere(view, i):
    fd = view["face_down"]
    for key in ("unseen", "known_under"):
        if i in fd[key]:
            fd[key].remove(i)
    if i in view["removed"]:
        view["removed"].remove(i)
    for st in view["studios"]:
        st["canvases"] = [c for c in st["canvases"] if c["canvas"] != i]
        if i in st["paintings"]:
            st["paintings"].remove(i)
    left = [m for m in view["market"] if m is not None and m["canvas"] != i]
    view["market"] = left + [None] * (3 - len(left))


def give(view, p, i, cubes_on=None):
    """Put canvas i in p's studio (cubes_on: a list of names/None per square)."""
    _remove_everywhere(view, i)
    cv = {"canvas": i, "cubes": list(cubes_on) if cubes_on else [None] * len(squares_of(i))}
    view["studios"][p]["canvases"].append(cv)
    view["studios"][p]["canvases"].sort(key=lambda c: c["canvas"])


def give_complete(view, p, i):
    give(view, p, i, full_cubes(i))


def give_painting(view, p, i):
    """A sold painting for p (stars follow; so does the food p ate selling it, §19)."""
    _remove_everywhere(view, i)
    view["studios"][p]["paintings"].append(i)
    view["studios"][p]["paintings"].sort()
    view["studios"][p]["stars"] = sum(card(x).stars for x in view["studios"][p]["paintings"])
    view["studios"][p]["food_earned"] += card(i).food


def small_deck(tmp_path, titles):
    """A deck file holding the default deck's canvases of these titles, in
    this order (their indices in the new deck: 0, 1, ...)."""
    import json
    from easel.engine.starving_artists.deck import COLOURS
    canvases = []
    for k, t in enumerate(titles):
        c = card(idx(t))
        canvases.append({"id": f"c{k:02d}", "title": c.title, "stars": c.stars, "food": c.food,
                         "paint": c.paint,
                         "squares": [[COLOURS[x] for x in cols] for cols in c.squares]})
    path = tmp_path / "deck.json"
    path.write_text(json.dumps({"source": "test", "canvases": canvases}))
    return str(path)


def set_market(view, cards):
    """The market slots (cheapest first) hold these canvases; the old ones go face down."""
    for m in view["market"]:
        if m is not None:
            view["face_down"]["unseen"].append(m["canvas"])
    view["market"] = [None] * 3
    for k, i in enumerate(cards):
        _remove_everywhere(view, i)
        view["market"][k] = {"canvas": i, "title": card(i).title}
    view["face_down"]["unseen"].sort()


def rebalance(view):
    """Set the bag so that all 150 cubes are somewhere."""
    tot = {c: 0 for c in CUBE_NAMES}
    for key in ("payday_pile",):
        for c, k in view[key].items():
            tot[c] += k
    for c, k in view["pending"]["held"].items():
        tot[c] += k
    for st in view["studios"]:
        for c, k in st["cubes"].items():
            tot[c] += k
        for cv in st["canvases"]:
            for x in cv["cubes"]:
                if x is not None:
                    tot[x] += 1
    for i, c in enumerate(CUBE_NAMES):
        left = BOX[i] - tot[c]
        assert left >= 0, f"too many {c} cubes in the scenario"
        view["bag"][c] = left


def refill_market(view):
    """A market slot is refilled at once while face-down canvases are left
    (RULINGS.md §12, I2): fill the gaps a scenario made, cheapest slot first,
    from the lowest face-down canvases beyond the set-aside ones."""
    fd = view["face_down"]
    cards = [m for m in view["market"] if m is not None]
    while len(cards) < 3 and len(fd["unseen"]) > fd["set_aside"]:
        i = fd["unseen"].pop(0)
        cards.append({"canvas": i, "title": card(i).title})
    view["market"] = cards + [None] * (3 - len(cards))


def reachable(g, view, untouched=()):
    """Load a scenario's view on the first day (from the view's) whose
    position play can reach: the scenario shows what some days of play make
    (canvases bought and painted, paintings sold), and the carrot (the view's
    first player) passes each day (I5). Players in `untouched` (whose
    nutrition the scenario kept from the opening) have the nutrition the day
    gives them (I4)."""
    refill_market(view)
    start = g.params["start"]
    n = view["players"]

    def candidates():
        for day in range(view["day"], max_days(rules_of(g)) + 1):
            if (start + day - 1) % n != view["first_player"]:
                continue
            view["day"] = day
            for p in untouched:
                view["studios"][p]["nutrition"] = max(5 - (day - 1), 1)
            if n == 1:
                _solo_removals(view, day)
            rebalance(view)
            yield view
    return first_loadable(g.state_from_json, candidates())


def _solo_removals(view, day):
    """The solo market loses a canvas each evening (§35, I2): by day d, d - 1
    canvases have left the game; take the missing ones from the face-down
    canvases beyond the set-aside ones."""
    fd = view["face_down"]
    while len(view["removed"]) < day - 1 and len(fd["unseen"]) > fd["set_aside"]:
        view["removed"].append(fd["unseen"].pop())
    view["removed"].sort()


def position(g, edit, seed=0):
    """The opening, edited by edit(view), made reachable (`reachable`), loaded."""
    s = opening(g, seed)
    v = s.to_json()
    edit(v)
    untouched = [p for p, st in enumerate(v["studios"]) if st["nutrition"] == 5]
    return reachable(g, v, untouched)


def at_announce(view, p, nutrition=3):
    """The announcement of player p (the first announcer must be the first player's
    offset): set the phase fields. Nutrition 3 for all, so a sale's food (at most
    2 on most canvases) brings no excess cubes unless a test wants them."""
    n = view["players"]
    for st in view["studios"]:
        st["nutrition"] = nutrition
    view["phase"] = "announce"
    view["round"] = 2
    view["current_player"] = p
    view["pending"].update(actor=p, turn_k=(p - view["first_player"]) % n, main_done=0)


def at_turn(view, first):
    """The first turn of a day whose carrot player `first` holds."""
    view["first_player"] = first
    view["current_player"] = first
    view["pending"].update(actor=first, turn_k=0, main_done=0)


def texts(state):
    return [state.action_to_string(a) for a in state.legal_actions()]


def do(state, *moves):
    for m in moves:
        state.apply_action(state.string_to_action(m))
    return state


def draw(state, *names):
    """Force chance outcomes: cube names at cube draws, canvas titles/indices at canvas draws."""
    for x in names:
        assert state.is_chance_node(), f"not a chance node (phase {state.to_json()['phase']})"
        if isinstance(x, int):
            state.apply_action(x)
        elif x in CUBE_NAMES:
            state.apply_action(CUBE_NAMES.index(x))
        else:
            state.apply_action(DECK.index_of(idx(x)))
    return state


def studio(state, p):
    return state.to_json()["studios"][p]


def bag_counts(state):
    return state.to_json()["bag"]
