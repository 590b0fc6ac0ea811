"""The JSON form of a Couleurs de Paris state (`to_json`) and its loader.

The view shows the whole table as players name it (colours, tools, the
action facing each lower-board space, who stands or lies where) and carries
the phase machine's pending fields, so it is a complete, loadable position
(scenario tests, the gRPC structured position, the table notation). The
loader checks every field and refuses positions no game can reach, raising
StateFormatError naming the field: pigments must add up to the box colour by
colour, assistants to the hired ones, the development bonus to the tracks,
the claims to assistants lying on their spaces.
"""
from __future__ import annotations

from easel.engine.contract_ids import PLAYER_CHANCE
from easel.engine.viewfields import ViewFields

from .data import ACTION_NAMES, POSITIONS, SPACES, SUPPLY_COLOURS, TOOLS, TRACK_LEN
from .rules import (ACT, BLACK, BONUS_LEVEL, BONUS_P, C_FIRST, C_ROTATE, CENTRE_NAMES,
                    CHANCE_PHASES, DEAL, DISCARD_P, END, IMITATE_P, LIMIT, MAX_ASSISTANTS,
                    N_COLOURS, N_LOCATIONS, N_PAYABLE, N_TOOLS, PAINT_P, PAY_P, PHASES,
                    PLACE_P, ROTATE_P, START_ASSISTANTS, STAND_P, TAKE_P, TOOL_P, WHITE,
                    WHITE_PER_PAINTING, kind_at, rules_of)

BONUS_NAMES = (None, "assistant", "points")


def _players_at(s, loc, field):
    return [q for q in range(s.r.n) for _ in range(field[q][loc])]


def state_view(s) -> dict:
    """The view of a reference state, or of any object with its fields (the core's)."""
    r = s.r
    n = r.n
    data = r.data
    boards = []
    for p in range(n):
        paintings = []
        for c in range(len(s.owner)):
            if s.owner[c] != p:
                continue
            card = data.paintings[c]
            filled = []
            for j in range(SPACES):
                if not s.fill[c] >> j & 1:
                    filled.append(None)
                else:
                    filled.append("white" if s.whites[c] >> j & 1
                                  else SUPPLY_COLOURS[card.spaces[j]])
            paintings.append({"card": c, "name": card.name, "value": card.value,
                              "spaces": [SUPPLY_COLOURS[x] for x in card.spaces],
                              "filled": filled, "finished": bool(s.done[c])})
        boards.append({
            "pigments": {SUPPLY_COLOURS[c]: s.pig[p][c] for c in range(N_COLOURS)},
            "tools": {TOOLS[t]: s.tool[p][t] for t in range(N_TOOLS)},
            "bonus": {TOOLS[t]: BONUS_NAMES[s.bonus[p][t]] for t in range(N_TOOLS)},
            "assistants": s.hired[p],
            "to_place": s.to_place[p],
            "paintings": paintings,
        })
    located = {c for c in range(len(s.owner)) if s.owner[c] >= 0}
    located |= {c for c in s.easel if c >= 0}
    return {
        "players": n,
        "phase": PHASES[s.phase],
        "current_player": s._current_player(),
        "round": s.round,
        "first_player": s.first,
        "rotation": s.rot,
        "final_round": bool(s.final),
        "lower_board": [{"position": q, "action": ACTION_NAMES[kind_at(r, s.rot, q)],
                         "spaces": r.capacity[q],
                         "standing": _players_at(s, q, s.stand),
                         "lying": _players_at(s, q, s.lie)} for q in range(POSITIONS)],
        "upper_board": {CENTRE_NAMES[i]: {"standing": _players_at(s, POSITIONS + i, s.stand),
                                          "lying": _players_at(s, POSITIONS + i, s.lie)}
                        for i in range(4)},
        "claims": {"first player": None if s.fp_claim < 0 else s.fp_claim,
                   "rotate": None if s.rot_claim < 0 else s.rot_claim},
        "supply": {SUPPLY_COLOURS[c]: s.supply[c] for c in range(N_COLOURS)},
        "easels": [None if s.easel[e] < 0 else s.easel[e] for e in range(r.easels)],
        "deck": [c for c in range(len(s.deck)) if s.deck[c]],
        "removed": [c for c in range(len(s.deck)) if not s.deck[c] and c not in located],
        "boards": boards,
        "scores": [s.score(p) for p in range(n)],
        "pending": {
            "tool": None if s.tool_sel < 0 else TOOLS[s.tool_sel],
            "pay_left": s.pay_left,
            "pay_min": SUPPLY_COLOURS[s.pay_min],
            "paint_left": s.paint_left,
            "painted": s.painted,
            "seat_k": s.seat_k,
            "keep": [None if s.keep[p] < 0 else s.keep[p] for p in range(n)],
        },
    }


_TOP = ("players", "phase", "current_player", "round", "first_player", "rotation",
        "final_round", "lower_board", "upper_board", "claims", "supply", "easels", "deck",
        "removed", "boards", "scores", "pending")
_BOARD = ("pigments", "tools", "bonus", "assistants", "to_place", "paintings")
_PENDING = ("tool", "pay_left", "pay_min", "paint_left", "painted", "seat_k", "keep")


_F = ViewFields("couleurs_de_paris")
_bad, _int, _obj, _list = _F.bad, _F.int, _F.obj, _F.list


def _players_list(v, field, n, most):
    _list(v, field)
    if len(v) > most:
        _bad(field, f"lists {len(v)} assistants; at most {most} fit")
    counts = [0] * n
    for i, q in enumerate(v):
        counts[_int(q, f"{field}[{i}]", 0, n - 1)] += 1
    return counts


def _opt_player(v, field, n):
    return -1 if v is None else _int(v, field, 0, n - 1)


def _colour_counts(v, field, names, hi=211):
    _obj(v, field, names)
    return [_int(v[c], f"{field}.{c}", 0, hi) for c in names]


def state_from_view(cls, game, view):
    r = rules_of(game)
    n = r.n
    data = r.data
    ncards = len(data.paintings)
    _obj(view, "", _TOP)
    if view["players"] != n:
        _bad("players", f"the state is for {view['players']!r} players, the game for {n}")
    s = cls(game)
    if view["phase"] not in PHASES:
        _bad("phase", f"unknown phase {view['phase']!r}; phases: {', '.join(PHASES)}")
    s.phase = PHASES.index(view["phase"])
    s.round = _int(view["round"], "round", 1, r.max_rounds)
    s.first = _int(view["first_player"], "first_player", 0, n - 1)
    s.rot = _int(view["rotation"], "rotation", 0, POSITIONS - 1)
    if not isinstance(view["final_round"], bool):
        _bad("final_round", "must be true or false")

    # -- boards (assistants are read from the board lists below)
    boards = _list(view["boards"], "boards", n)
    s.owner = [-1] * ncards
    s.fill = [0] * ncards
    s.whites = [0] * ncards
    s.done = [0] * ncards
    for p, b in enumerate(boards):
        f = f"boards[{p}]"
        _obj(b, f, _BOARD)
        s.pig[p] = _colour_counts(b["pigments"], f"{f}.pigments", SUPPLY_COLOURS)
        _obj(b["tools"], f"{f}.tools", TOOLS)
        s.tool[p] = [_int(b["tools"][t], f"{f}.tools.{t}", 1, TRACK_LEN) for t in TOOLS]
        _obj(b["bonus"], f"{f}.bonus", TOOLS)
        for t, name in enumerate(TOOLS):
            v = b["bonus"][name]
            if v not in BONUS_NAMES:
                _bad(f"{f}.bonus.{name}", f"must be null, 'assistant' or 'points', got {v!r}")
            s.bonus[p][t] = BONUS_NAMES.index(v)
            pending_bonus = (s.phase == BONUS_P and view["current_player"] == p
                             and view["pending"].get("tool") == name
                             if isinstance(view["pending"], dict) else False)
            if s.tool[p][t] < BONUS_LEVEL and v is not None:
                _bad(f"{f}.bonus.{name}", "a bonus before the marker reached the bonus space")
            if s.tool[p][t] >= BONUS_LEVEL and v is None and not pending_bonus:
                _bad(f"{f}.bonus.{name}", f"the marker passed the bonus space (level "
                                          f"{s.tool[p][t]}) but no bonus was chosen")
        s.hired[p] = _int(b["assistants"], f"{f}.assistants", START_ASSISTANTS, MAX_ASSISTANTS)
        want = START_ASSISTANTS + sum(1 for x in s.bonus[p] if x == 1)
        if s.hired[p] != want:
            _bad(f"{f}.assistants", f"{s.hired[p]} assistants, but the tracks hired "
                                    f"{want - START_ASSISTANTS} beyond the first 3")
        s.to_place[p] = _int(b["to_place"], f"{f}.to_place", 0, MAX_ASSISTANTS)
        for i, pv in enumerate(_list(b["paintings"], f"{f}.paintings")):
            pf = f"{f}.paintings[{i}]"
            if not isinstance(pv, dict):
                _bad(pf, "must be an object")
            for k in ("card", "filled", "finished"):
                if k not in pv:
                    _bad(f"{pf}.{k}", "missing")
            for k in pv:
                if k not in ("card", "name", "value", "spaces", "filled", "finished"):
                    _bad(f"{pf}.{k}", "unknown field")
            c = _int(pv["card"], f"{pf}.card", 0, ncards - 1)
            card = data.paintings[c]
            shown = {"name": card.name, "value": card.value,
                     "spaces": [SUPPLY_COLOURS[x] for x in card.spaces]}
            for k, want in shown.items():
                if k in pv and pv[k] != want:
                    _bad(f"{pf}.{k}", f"painting {c} has {k} {want!r} in the data")
            if s.owner[c] >= 0:
                _bad(f"{pf}.card", f"painting {c} is held twice")
            s.owner[c] = p
            card = data.paintings[c]
            filled = _list(pv["filled"], f"{pf}.filled", SPACES)
            for j, x in enumerate(filled):
                if x is None:
                    continue
                if x == "white":
                    s.whites[c] |= 1 << j
                elif x != SUPPLY_COLOURS[card.spaces[j]]:
                    _bad(f"{pf}.filled[{j}]", f"space {j + 1} needs "
                                              f"{SUPPLY_COLOURS[card.spaces[j]]} (or white), "
                                              f"got {x!r}")
                s.fill[c] |= 1 << j
            if bin(s.whites[c]).count("1") > WHITE_PER_PAINTING:
                _bad(f"{pf}.filled", f"more than {WHITE_PER_PAINTING} white pigments")
            if not isinstance(pv["finished"], bool):
                _bad(f"{pf}.finished", "must be true or false")
            full = s.fill[c] == (1 << SPACES) - 1
            if pv["finished"] != full:
                _bad(f"{pf}.finished", "a painting is finished exactly when every space "
                                       "holds a pigment")
            s.done[c] = 1 if full else 0

    # -- cards: easels, deck, removed
    easels = _list(view["easels"], "easels", r.easels)
    for e, c in enumerate(easels):
        if c is not None:
            c = _int(c, f"easels[{e}]", 0, ncards - 1)
            if s.owner[c] >= 0 or c in s.easel[:e]:
                _bad(f"easels[{e}]", f"painting {c} is also elsewhere")
            s.easel[e] = c
    s.deck = [0] * ncards
    for i, c in enumerate(_list(view["deck"], "deck")):
        c = _int(c, f"deck[{i}]", 0, ncards - 1)
        if s.deck[c] or s.owner[c] >= 0 or c in s.easel:
            _bad(f"deck[{i}]", f"painting {c} is listed twice")
        s.deck[c] = 1
    located = {c for c in range(ncards) if s.owner[c] >= 0 or s.deck[c]} | set(s.easel)
    removed = sorted(c for c in range(ncards) if c not in located)
    if view["removed"] != removed:
        _bad("removed", f"must list the paintings neither in the deck, on an easel nor "
                        f"held: {removed}")

    # -- pigments add up to the box, colour by colour (§27)
    s.supply = _colour_counts(view["supply"], "supply", SUPPLY_COLOURS)
    for colour in range(N_COLOURS):
        total = s.supply[colour] + sum(s.pig[p][colour] for p in range(n))
        for c in range(ncards):
            if s.owner[c] >= 0 and not s.done[c]:
                for j in range(SPACES):
                    if s.fill[c] >> j & 1:
                        got = WHITE if s.whites[c] >> j & 1 else data.paintings[c].spaces[j]
                        total += got == colour
        if total != r.supply[colour]:
            _bad(f"supply.{SUPPLY_COLOURS[colour]}",
                 f"{SUPPLY_COLOURS[colour]} pigments add up to {total} (supply, players, "
                 f"unfinished paintings); the box holds {r.supply[colour]}")

    # -- assistants
    lower = _list(view["lower_board"], "lower_board", POSITIONS)
    for q, lv in enumerate(lower):
        f = f"lower_board[{q}]"
        _obj(lv, f, ("position", "action", "spaces", "standing", "lying"))
        if lv["position"] != q:
            _bad(f"{f}.position", f"must be {q}")
        if lv["action"] != ACTION_NAMES[kind_at(r, s.rot, q)] or lv["spaces"] != r.capacity[q]:
            _bad(f"{f}.action", f"position {q} faces "
                                f"{ACTION_NAMES[kind_at(r, s.rot, q)]!r} with "
                                f"{r.capacity[q]} spaces at rotation {s.rot}")
        st = _players_list(lv["standing"], f"{f}.standing", n, r.capacity[q])
        li = _players_list(lv["lying"], f"{f}.lying", n, r.capacity[q])
        if sum(st) + sum(li) > r.capacity[q]:
            _bad(f, f"{sum(st) + sum(li)} assistants on {r.capacity[q]} spaces")
        for p in range(n):
            s.stand[p][q], s.lie[p][q] = st[p], li[p]
    upper = _obj(view["upper_board"], "upper_board", CENTRE_NAMES)
    for i, name in enumerate(CENTRE_NAMES):
        f = f"upper_board.{name}"
        uv = _obj(upper[name], f, ("standing", "lying"))
        most = MAX_ASSISTANTS * n if name == "white" else 1
        st = _players_list(uv["standing"], f"{f}.standing", n, most)
        li = _players_list(uv["lying"], f"{f}.lying", n, most)
        if sum(st) + sum(li) > most:
            _bad(f, "one assistant at most on this space")
        for p in range(n):
            s.stand[p][POSITIONS + i], s.lie[p][POSITIONS + i] = st[p], li[p]
    holder_on_first = s.stand[s.first][C_FIRST] + s.lie[s.first][C_FIRST]
    if holder_on_first:
        _bad("upper_board.first player", "the 1st Player token holder cannot be placed there")
    for p in range(n):
        on_board = sum(s.stand[p]) + sum(s.lie[p])
        f = f"boards[{p}]"
        if s.phase == PLACE_P:
            if any(s.lie[p]):
                _bad("lower_board", "no assistant lies down while assistants are placed")
            if on_board + s.to_place[p] != s.hired[p]:
                _bad(f"{f}.to_place", f"{on_board} placed + {s.to_place[p]} to place != "
                                      f"{s.hired[p]} assistants")
        else:
            if s.to_place[p]:
                _bad(f"{f}.to_place", "assistants are placed only in the placement phase")
            if on_board > s.hired[p]:
                _bad(f"{f}.assistants", f"{on_board} assistants on the boards, "
                                        f"{s.hired[p]} hired")
        if s.phase in (DEAL,) and on_board:
            _bad("lower_board", "no assistant is placed before the first round")
        if s.phase not in (PLACE_P, ACT, TOOL_P, PAY_P, BONUS_P, TAKE_P, IMITATE_P, PAINT_P,
                           END) and any(s.stand[p]):
            _bad("lower_board", "every assistant lies down by the end of the actions phase")
    if s.phase == DEAL and (s.round != 1 or s.deck_size() + sum(
            1 for e in s.easel if e >= 0) != ncards):
        _bad("phase", "the deal happens only at setup")

    # -- claims: an assistant lies on the space (§16, §18)
    claims = _obj(view["claims"], "claims", ("first player", "rotate"))
    s.fp_claim = _opt_player(claims["first player"], "claims.first player", n)
    s.rot_claim = _opt_player(claims["rotate"], "claims.rotate", n)
    for p, loc, f in ((s.fp_claim, C_FIRST, "claims.first player"),
                      (s.rot_claim, C_ROTATE, "claims.rotate")):
        if p >= 0 and not s.lie[p][loc]:
            _bad(f, f"player {p} has no assistant lying on that space")
    if s.phase == ROTATE_P and s.rot_claim < 0:
        _bad("claims.rotate", "the rotate choice belongs to the player who claimed it")

    # -- pending
    pend = _obj(view["pending"], "pending", _PENDING)
    tool = pend["tool"]
    if tool is not None and tool not in TOOLS:
        _bad("pending.tool", f"must be null or one of {', '.join(TOOLS)}")
    s.tool_sel = -1 if tool is None else TOOLS.index(tool)
    s.pay_left = _int(pend["pay_left"], "pending.pay_left", 0, 2)
    if pend["pay_min"] not in SUPPLY_COLOURS[:N_PAYABLE]:
        _bad("pending.pay_min", f"must be a colour other than black, got {pend['pay_min']!r}")
    s.pay_min = SUPPLY_COLOURS.index(pend["pay_min"])
    s.paint_left = _int(pend["paint_left"], "pending.paint_left", 0, 20)
    s.painted = _int(pend["painted"], "pending.painted", 0, 20)
    s.seat_k = _int(pend["seat_k"], "pending.seat_k", 0, n - 1)
    keep = _list(pend["keep"], "pending.keep", n)
    s.keep = [-1 if x is None else _int(x, f"pending.keep[{p}]", 0, POSITIONS - 1)
              for p, x in enumerate(keep)]
    in_tool = s.phase in (PAY_P, BONUS_P)
    if in_tool != (s.tool_sel >= 0):
        _bad("pending.tool", "a tool is chosen exactly while paying for it or taking its bonus")
    if (s.phase == PAY_P) != (s.pay_left > 0):
        _bad("pending.pay_left", "pigments are owed exactly while paying")
    if s.phase != PAY_P and s.pay_min:
        _bad("pending.pay_min", "must be red outside payments")
    if s.phase != PAINT_P and (s.paint_left or s.painted):
        _bad("pending.paint_left", "must be 0 outside the paint action")
    if s.phase == PAINT_P and s.paint_left == 0:
        _bad("pending.paint_left", "a paint action in progress has pigments left to place")
    if s.phase not in (DISCARD_P, STAND_P) and s.seat_k:
        _bad("pending.seat_k", "must be 0 outside the discard and stand steps")
    for p in range(n):
        if s.keep[p] >= 0:
            seat = (p - s.first) % n
            if s.phase != STAND_P or seat >= s.seat_k or not s.lie[p][s.keep[p]]:
                _bad(f"pending.keep[{p}]", "only a player who already stood an assistant "
                                           "this phase 3, on a space where one lies")
    if s.phase == PAY_P and s.tool[view_player(view, n)][s.tool_sel] >= TRACK_LEN:
        _bad("pending.tool", "that tool is already at the end of its track")
    if s.phase == BONUS_P:
        p = view_player(view, n)
        if s.tool[p][s.tool_sel] != BONUS_LEVEL or s.bonus[p][s.tool_sel]:
            _bad("pending.tool", "the bonus is chosen when the marker reaches the bonus space")

    # -- who moves, and whether the position is playable
    s.final = 1 if (any(len(s.finished_cards(p)) >= 2 for p in range(n))
                    or (s.supply[BLACK] == 0 and r.supply[BLACK] > 0)) else 0
    if view["final_round"] != bool(s.final):
        _bad("final_round", "the last round starts exactly when someone has finished 2 "
                            "paintings or the last black pigment is taken")
    if s.final and s.phase not in (ACT, TOOL_P, PAY_P, BONUS_P, TAKE_P, IMITATE_P, PAINT_P,
                                   END):
        _bad("final_round", "the game ends with the actions phase of the last round")
    if s.phase in CHANCE_PHASES:
        if view["current_player"] != PLAYER_CHANCE:
            _bad("current_player", f"a deal is a chance node ({PLAYER_CHANCE})")
        if not s.deck_size() or all(s.easel[e] >= 0 for e in range(r.easels)):
            _bad("easels", "a card is turned up only onto an empty easel from a non-empty deck")
    elif s.phase == END:
        if view["current_player"] != -4:
            _bad("current_player", "the game is over (-4)")
    else:
        s.cur = _int(view["current_player"], "current_player", 0, n - 1)
        if s.phase in (DISCARD_P, STAND_P) and s.cur != (s.first + s.seat_k) % n:
            _bad("current_player", "phase 3 steps go in turn order from the first player")
        if s.phase == DISCARD_P and s.nonblack(s.cur) <= LIMIT:
            _bad("phase", f"player {s.cur} holds at most {LIMIT} pigments: nothing to discard")
        if s.phase in (TOOL_P, PAY_P, BONUS_P, TAKE_P, IMITATE_P, PAINT_P) and not any(s.lie[s.cur]):
            _bad("phase", f"player {s.cur} has laid down no assistant to act with")
        if not s._legal_actions():
            _bad("phase", f"player {s.cur} would have no legal move in phase "
                          f"{PHASES[s.phase]!r}")
    if s.phase == END and not (s.final or s.round == r.max_rounds):
        _bad("phase", "the game ends only in the last round")
    scores = _list(view["scores"], "scores", n)
    if scores != [s.score(p) for p in range(n)]:
        _bad("scores", f"must be {[s.score(p) for p in range(n)]} for this position")
    return s


def view_player(view, n):
    v = view["current_player"]
    return v if isinstance(v, int) and 0 <= v < n else 0

