"""The JSON form of a Van Gogh state (`to_json`) and its loader (`from_json`).

The view names things as players do ('blue-upright', 'Madame Ginoux') and
shows the whole table; it also carries the phase machine's pending fields so
that it is a complete, loadable position (used by the scenario tests and the
gRPC structured position). The loader checks every field and raises
StateFormatError naming the bad one; it also checks that the Minigoghs add up
to the box (11 per colour counting the score token, 5 whites).
"""
from __future__ import annotations

from easel.engine.contract_ids import PLAYER_CHANCE, PLAYER_TERMINAL
from easel.engine.viewfields import ViewFields

from .consistency import check_position

from .rules import (BOX_PER_COLOUR, BOX_WHITES, CHARS, COLOUR_NAMES, COLOURS, INACTIVE,
                    MAX_SPACES, N_CHARS, N_CODES, N_COLOURS, N_PAINTINGS, ORIENTS, PHASES,
                    TABLE_SIZE, WHITE, parse_piece, piece_name, rules_of)


def _pieces(counts):
    return [piece_name(c) for c in range(N_CODES) for _ in range(counts[c])]


def _opt_piece(code):
    return piece_name(code) if code >= 0 else None


def state_view(s) -> dict:
    r = s.r
    deck = r.deck.cards
    paintings = []
    for slot in range(N_PAINTINGS):
        cid = s.painting[slot]
        if cid < 0:
            paintings.append({"card": -1, "occupants": []})
            continue
        card = deck[cid]
        paintings.append({
            "card": cid, "name": card.name, "frame": list(card.frame),
            "orientations": [ORIENTS[o] for o in card.orient], "bonus": list(card.bonus),
            "occupants": [_opt_piece(s.occ[slot][k]) for k in range(len(card.orient))],
        })
    return {
        "players": r.n,
        "colors": [COLOURS[c] for c in r.colours],
        "phase": PHASES[s.phase],
        "current_player": s._current_player(),
        "round": s.round, "turn": s.turn,
        "first_starter": s.first_starter, "round_starter": s.round_starter,
        "turn_player": s.turn_player, "token_holder": s.token_holder,
        "ability_player": s.ability_player, "ability_spent": s.ability_spent,
        "brush_used": s.brush_used, "finished": s.finished,
        "scores": list(s.score),
        "bag": {COLOURS[c]: s.bag[c] for c in range(N_COLOURS)},
        "whites": s.whites,
        "table": _pieces(s.table),
        "characters": [{"name": CHARS[c], "taken": s.char_taken[c],
                        "waiting": [piece_name(x) for x in s.char_wait[c] if x >= 0]}
                       for c in range(N_CHARS)],
        "paintings": paintings,
        "deck": [i for i in range(len(s.deck)) if s.deck[i]],
        "card_names": [card.name for card in deck],
        "palettes": [{"color": COLOURS[r.colours[p]], "active": _pieces(s.active[p]),
                      "inactive": [_opt_piece(x) for x in s.inactive[p]]} for p in range(r.n)],
        "pending": {
            "act_player": s.act_player,
            "act_char": CHARS[s.act_char] if s.act_char >= 0 else None,
            "act_primary": s.act_primary, "sec_k": s.sec_k, "steps_left": s.steps_left,
            "postman_used": s.postman_used,
            "hand": {COLOURS[c]: s.hand[c] for c in range(N_COLOURS)},
            "draws_left": s.draws_left,
            "roll_queue": {COLOURS[c]: s.roll_q[c] for c in range(N_COLOURS)},
            "blue_colour": COLOURS[s.blue_colour] if s.blue_colour >= 0 else None,
            "resume": PHASES[s.resume] if s.resume >= 0 else None,
            "card_slot": s.card_slot,
            "card_resume": PHASES[s.card_resume] if s.card_resume >= 0 else None,
            "eor_char": s.eor_char, "setup_k": s.setup_k,
        },
    }


_TOP = ("players", "colors", "phase", "current_player", "round", "turn", "first_starter",
        "round_starter", "turn_player", "token_holder", "ability_player", "ability_spent",
        "brush_used", "finished", "scores", "bag", "whites", "table", "characters",
        "paintings", "deck", "palettes", "pending")
# Shown, not state: the deck file's card names by id (so that texts made
# from the view alone can name a card); optional on loading, and checked
# against the game's deck when given.
_DERIVED = ("card_names",)
_PENDING = ("act_player", "act_char", "act_primary", "sec_k", "steps_left", "postman_used",
            "hand", "draws_left", "roll_queue", "blue_colour", "resume", "card_slot",
            "card_resume", "eor_char", "setup_k")


_F = ViewFields("vangogh")
_bad, _int = _F.bad, _F.int


def _obj(v, field, keys):
    # Van Gogh's view carries derived fields (names, totals) that the reader
    # skips, so only the required keys are checked here.
    return _F.obj(v, field, keys, unknown=None)


def _piece(v, field, allow_none=False):
    if v is None and allow_none:
        return -1
    try:
        return parse_piece(v)
    except ValueError as e:
        _bad(field, str(e))


def _piece_counts(v, field, limit):
    if not isinstance(v, list) or len(v) > limit:
        _bad(field, f"must be a list of at most {limit} Minigoghs")
    counts = [0] * N_CODES
    for i, x in enumerate(v):
        counts[_piece(x, f"{field}[{i}]")] += 1
    return counts


def _colour_counts(v, field, hi):
    _F.obj(v, field, COLOURS, unknown=f"unknown colour; colours: {', '.join(COLOURS)}")
    return [_int(v[c], f"{field}.{c}", 0, hi) for c in COLOURS]


def _phase(v, field, allow_none=False):
    return _F.choice(v, field, PHASES, "phase", allow_none)


def state_from_view(cls, game, view):
    r = rules_of(game)
    n = r.n
    _F.obj(view, "", _TOP, optional=_DERIVED)
    if view["players"] != n:
        _bad("players", f"the state is for {view['players']!r} players, the game for {n}")
    if view["colors"] != [COLOURS[c] for c in r.colours]:
        _bad("colors", f"{view['colors']!r} differ from the game's "
                       f"{[COLOURS[c] for c in r.colours]!r}")
    s = cls(game)
    s.phase = _phase(view["phase"], "phase")
    s.round = _int(view["round"], "round", 1, max(r.max_rounds, r.solo_rounds))
    s.turn = _int(view["turn"], "turn", 0, r.turns_per_round)
    for key in ("first_starter", "round_starter", "turn_player"):
        setattr(s, key, _int(view[key], key, 0, n - 1))
    s.token_holder = _int(view["token_holder"], "token_holder", -1, n - 1)
    s.ability_player = _int(view["ability_player"], "ability_player", -1, n - 1)
    s.ability_spent = _int(view["ability_spent"], "ability_spent", 0, 1)
    s.brush_used = _int(view["brush_used"], "brush_used", 0, 1)
    s.finished = _int(view["finished"], "finished", 0, len(r.deck.cards))
    scores = view["scores"]
    if not isinstance(scores, list) or len(scores) != n:
        _bad("scores", f"must be a list of {n} integers")
    s.score = [_int(x, f"scores[{p}]", 0, 100000) for p, x in enumerate(scores)]
    s.bag = _colour_counts(view["bag"], "bag", BOX_PER_COLOUR)
    s.whites = _int(view["whites"], "whites", 0, BOX_WHITES)
    s.table = _piece_counts(view["table"], "table", TABLE_SIZE)
    if any(c // 4 == WHITE and s.table[c] for c in range(N_CODES)):
        _bad("table", "whites never lie on the table")
    chars = view["characters"]
    if not isinstance(chars, list) or len(chars) != N_CHARS:
        _bad("characters", f"must list the {N_CHARS} characters")
    for c, ch in enumerate(chars):
        f = f"characters[{c}]"
        _obj(ch, f, ("taken", "waiting"))
        if ch.get("name", CHARS[c]) != CHARS[c]:
            _bad(f"{f}.name", f"expected {CHARS[c]!r}, got {ch.get('name')!r}")
        s.char_taken[c] = _int(ch["taken"], f"{f}.taken", 0, 1)
        w = ch["waiting"]
        if not isinstance(w, list) or len(w) > 2:
            _bad(f"{f}.waiting", "must be a list of at most 2 Minigoghs")
        s.char_wait[c] = [_piece(x, f"{f}.waiting[{i}]") for i, x in enumerate(w)] + \
                         [-1] * (2 - len(w))
    if "card_names" in view and view["card_names"] != [c.name for c in r.deck.cards]:
        _bad("card_names", "differ from the names of the game's deck file (a position of "
                           "another deck?)")
    deck_ids = view["deck"]
    ncards = len(r.deck.cards)
    if not isinstance(deck_ids, list):
        _bad("deck", "must be a list of card indices")
    s.deck = [0] * ncards
    for i, cid in enumerate(deck_ids):
        if not isinstance(cid, int) or isinstance(cid, bool) or not 0 <= cid < ncards:
            _bad(f"deck[{i}]", f"must be a card index from 0 to {ncards - 1}, got {cid!r}")
        if s.deck[cid]:
            _bad(f"deck[{i}]", f"card {cid} listed twice")
        s.deck[cid] = 1
    paintings = view["paintings"]
    if not isinstance(paintings, list) or len(paintings) != N_PAINTINGS:
        _bad("paintings", f"must list {N_PAINTINGS} painting slots")
    for slot, pv in enumerate(paintings):
        f = f"paintings[{slot}]"
        _obj(pv, f, ("card", "occupants"))
        cid = _int(pv["card"], f"{f}.card", -1, ncards - 1)
        s.painting[slot] = cid
        s.occ[slot] = [-1] * MAX_SPACES
        occ = pv["occupants"]
        size = len(r.deck.cards[cid].orient) if cid >= 0 else 0
        if not isinstance(occ, list) or len(occ) != size:
            _bad(f"{f}.occupants", f"must list {size} spaces (null when empty)")
        if cid >= 0:
            if s.deck[cid]:
                _bad(f"{f}.card", f"card {cid} is also listed in the deck")
            if cid in s.painting[:slot]:
                _bad(f"{f}.card", f"card {cid} is on two slots")
            for k, x in enumerate(occ):
                s.occ[slot][k] = _piece(x, f"{f}.occupants[{k}]", allow_none=True)
            if all(s.occ[slot][k] >= 0 for k in range(size)):
                _bad(f"{f}.occupants", "a full painting is scored and removed at once")
    palettes = view["palettes"]
    if not isinstance(palettes, list) or len(palettes) != n:
        _bad("palettes", f"must list {n} palettes")
    for p, pv in enumerate(palettes):
        f = f"palettes[{p}]"
        _obj(pv, f, ("active", "inactive"))
        if pv.get("color", COLOURS[r.colours[p]]) != COLOURS[r.colours[p]]:
            _bad(f"{f}.color", f"player {p} plays {COLOURS[r.colours[p]]}")
        s.active[p] = _piece_counts(pv["active"], f"{f}.active", 8)
        ina = pv["inactive"]
        if not isinstance(ina, list) or len(ina) != INACTIVE:
            _bad(f"{f}.inactive", f"must list {INACTIVE} spaces (null when empty)")
        s.inactive[p] = [_piece(x, f"{f}.inactive[{i}]", allow_none=True)
                         for i, x in enumerate(ina)]
    pend = _F.obj(view["pending"], "pending", _PENDING)
    s.act_player = _int(pend["act_player"], "pending.act_player", -1, n - 1)
    ac = pend["act_char"]
    if ac is not None and ac not in CHARS:
        _bad("pending.act_char", f"unknown character {ac!r}; characters: {', '.join(CHARS)}")
    s.act_char = CHARS.index(ac) if ac is not None else -1
    s.act_primary = _int(pend["act_primary"], "pending.act_primary", 0, 1)
    s.sec_k = _int(pend["sec_k"], "pending.sec_k", 0, max(n - 1, 0))
    s.steps_left = _int(pend["steps_left"], "pending.steps_left", 0, 3)
    s.postman_used = _int(pend["postman_used"], "pending.postman_used", 0, 7)
    s.hand = _colour_counts(pend["hand"], "pending.hand", 3)
    s.draws_left = _int(pend["draws_left"], "pending.draws_left", 0, 3)
    s.roll_q = _colour_counts(pend["roll_queue"], "pending.roll_queue", 2)
    bc = pend["blue_colour"]
    if bc is not None and bc not in COLOURS:
        _bad("pending.blue_colour", f"unknown colour {bc!r}")
    s.blue_colour = COLOURS.index(bc) if bc is not None else -1
    s.resume = _phase(pend["resume"], "pending.resume", allow_none=True)
    s.card_slot = _int(pend["card_slot"], "pending.card_slot", -1, N_PAINTINGS - 1)
    s.card_resume = _phase(pend["card_resume"], "pending.card_resume", allow_none=True)
    s.eor_char = _int(pend["eor_char"], "pending.eor_char", 0, N_CHARS)
    s.setup_k = _int(pend["setup_k"], "pending.setup_k", 0, 10)
    _check_box(s)
    check_position(s)
    cp = view["current_player"]
    if cp != s._current_player():
        _bad("current_player", f"{cp!r} disagrees with the position: "
                               f"{_who(s._current_player())} acts")
    return s


def _who(player):
    return {PLAYER_CHANCE: "chance", PLAYER_TERMINAL: "nobody (the game is over)"}.get(
        player, f"player {player}")


def box_counts(s):
    """Minigoghs per colour (0..4) and whites, wherever they are, score tokens included."""
    counts = [1 + s.bag[c] + s.hand[c] + s.roll_q[c] for c in range(N_COLOURS)] + [s.whites]
    if s.blue_colour >= 0:
        counts[s.blue_colour] += 1

    def add(code, k=1):
        counts[code // 4] += k
    for code in range(N_CODES):
        add(code, s.table[code])
        for p in range(s.r.n):
            add(code, s.active[p][code])
    for p in range(s.r.n):
        for x in s.inactive[p]:
            if x >= 0:
                add(x)
    for c in range(N_CHARS):
        for x in s.char_wait[c]:
            if x >= 0:
                add(x)
    for slot in range(N_PAINTINGS):
        for x in s.occ[slot]:
            if x >= 0:
                add(x)
    return counts


def _check_box(s):
    counts = box_counts(s)
    for c in range(N_COLOURS + 1):
        box = BOX_WHITES if c == WHITE else BOX_PER_COLOUR
        if counts[c] != box:
            where = "whites" if c == WHITE else f"bag.{COLOUR_NAMES[c]}"
            _bad(where, f"{COLOUR_NAMES[c]} Minigoghs add up to {counts[c]} "
                        f"(score token included); the box holds {box}")
