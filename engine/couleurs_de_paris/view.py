"""The JSON form of a Couleurs de Paris state (`to_json`) and its loader.

The view shows the whole table as players name it (colours, tools, the
action facing each lower-board space, who stands or lies where) and carries
the phase machine's pending fields, so it is a complete, loadable position
(scenario tests, the gRPC structured position, the table notation). The
loader reads every field, raising StateFormatError naming the first one of a
wrong type or out of range or a card in two places; then
consistency.check_position refuses, in one error naming every field at
fault, positions play cannot reach (RULINGS.md, "Invariants of play").
"""
from __future__ import annotations

from easel.engine.contract_ids import PLAYER_CHANCE, PLAYER_TERMINAL
from easel.engine.viewfields import Problems, ViewFields

from .data import ACTION_NAMES, POSITIONS, SPACES, SUPPLY_COLOURS, TOOLS, TRACK_LEN
from .consistency import check_position
from .rules import (BLACK, CENTRE_NAMES, CHANCE_PHASES, END, MAX_ASSISTANTS, N_COLOURS,
                    N_PAYABLE, N_TOOLS, PHASES, START_ASSISTANTS, WHITE_PER_PAINTING, kind_at,
                    rules_of)

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
    """A reference state from a JSON view: each field is read and checked
    for its type and range here (the first bad one raises), then the fields
    are checked against each other (consistency.check_position), every
    disagreement collected into one error."""
    r = rules_of(game)
    n = r.n
    data = r.data
    ncards = len(data.paintings)
    _obj(view, "", _TOP)
    if view["players"] != n:
        _bad("players", f"the state is for {view['players']!r} players, the game for {n}")
    s = cls(game)
    problems = Problems("couleurs_de_paris")
    s.phase = _F.choice(view["phase"], "phase", PHASES, "phase")
    s.round = _int(view["round"], "round", 1, r.max_rounds)
    s.first = _int(view["first_player"], "first_player", 0, n - 1)
    s.rot = _int(view["rotation"], "rotation", 0, POSITIONS - 1)
    _F.bool(view["final_round"], "final_round")

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
        s.hired[p] = _int(b["assistants"], f"{f}.assistants", START_ASSISTANTS, MAX_ASSISTANTS)
        s.to_place[p] = _int(b["to_place"], f"{f}.to_place", 0, MAX_ASSISTANTS)
        for i, pv in enumerate(_list(b["paintings"], f"{f}.paintings")):
            pf = f"{f}.paintings[{i}]"
            _obj(pv, pf, ("card", "filled", "finished"), optional=("name", "value", "spaces"))
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
                problems.add(f"{pf}.filled", f"more than {WHITE_PER_PAINTING} white pigments "
                                             f"(§15)")
            finished = _F.bool(pv["finished"], f"{pf}.finished")
            full = s.fill[c] == (1 << SPACES) - 1
            if finished != full:
                problems.add(f"{pf}.finished", "a painting is finished exactly when every "
                                               "space holds a pigment (§15)", full)
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
        problems.add("removed", "must list the paintings neither in the deck, on an easel nor "
                                "held", removed)
    s.supply = _colour_counts(view["supply"], "supply", SUPPLY_COLOURS)

    # -- assistants
    lower = _list(view["lower_board"], "lower_board", POSITIONS)
    for q, lv in enumerate(lower):
        f = f"lower_board[{q}]"
        _obj(lv, f, ("position", "action", "spaces", "standing", "lying"))
        if lv["position"] != q:
            _bad(f"{f}.position", f"must be {q}")
        if lv["action"] != ACTION_NAMES[kind_at(r, s.rot, q)] or lv["spaces"] != r.capacity[q]:
            problems.add([f"{f}.action", "rotation"],
                         f"position {q} faces {ACTION_NAMES[kind_at(r, s.rot, q)]!r} with "
                         f"{r.capacity[q]} spaces at rotation {s.rot}")
        st = _players_list(lv["standing"], f"{f}.standing", n, MAX_ASSISTANTS * n)
        li = _players_list(lv["lying"], f"{f}.lying", n, MAX_ASSISTANTS * n)
        for p in range(n):
            s.stand[p][q], s.lie[p][q] = st[p], li[p]
    upper = _obj(view["upper_board"], "upper_board", CENTRE_NAMES)
    for i, name in enumerate(CENTRE_NAMES):
        f = f"upper_board.{name}"
        uv = _obj(upper[name], f, ("standing", "lying"))
        st = _players_list(uv["standing"], f"{f}.standing", n, MAX_ASSISTANTS * n)
        li = _players_list(uv["lying"], f"{f}.lying", n, MAX_ASSISTANTS * n)
        for p in range(n):
            s.stand[p][POSITIONS + i], s.lie[p][POSITIONS + i] = st[p], li[p]
    for p in range(n):
        on_board = sum(s.stand[p]) + sum(s.lie[p])
        if on_board > MAX_ASSISTANTS:
            _bad(f"boards[{p}].assistants", f"{on_board} of player {p}'s assistants on the "
                                            f"boards; nobody has more than {MAX_ASSISTANTS}")

    # -- claims (§16, §18)
    claims = _obj(view["claims"], "claims", ("first player", "rotate"))
    s.fp_claim = _opt_player(claims["first player"], "claims.first player", n)
    s.rot_claim = _opt_player(claims["rotate"], "claims.rotate", n)

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

    # -- who moves: a player at a decision, chance or nobody (derived)
    cp = view["current_player"]
    if s.phase in CHANCE_PHASES:
        if cp != PLAYER_CHANCE:
            problems.add(["current_player", "phase"], f"a deal is a chance node", PLAYER_CHANCE)
    elif s.phase == END:
        if cp != PLAYER_TERMINAL:
            problems.add(["current_player", "phase"], "the game is over", PLAYER_TERMINAL)
    else:
        s.cur = _int(cp, "current_player", 0, n - 1)

    # -- derived fields: the last-round flag and the scores
    s.final = 1 if (any(len(s.finished_cards(p)) >= 2 for p in range(n))
                    or (s.supply[BLACK] == 0 and r.supply[BLACK] > 0)) else 0
    if view["final_round"] != bool(s.final):
        problems.add("final_round", "the last round starts exactly when someone has finished "
                                    "2 paintings or the last black pigment is taken (§23)",
                     bool(s.final))
    scores = _list(view["scores"], "scores", n)
    want = [s.score(p) for p in range(n)]
    if scores != want:
        problems.add("scores", "the running scores follow from the position (§24)", want)
    check_position(s, problems)
    return s
