"""The table notation of a Couleurs de Paris position: a few lines of text a
player can read and write, holding everything the JSON view holds except
what follows from the rest (names of the actions facing the lower-board
spaces, their usable spaces, the removed cards, the scores, the last-round
flag, who is to move at a chance node). `read` gives a JSON view, which the
validating loader (view.py) then checks, so one loader checks every form.
Grammar and examples: ENCODING.md, "Table notation".
"""
from __future__ import annotations

import re

from easel.engine.errors import StateFormatError

from .data import SUPPLY_COLOURS, TOOLS
from .rules import CENTRE_NAMES, PHASES, kind_at, rules_of
from .data import ACTION_NAMES

_LETTER = {"red": "r", "orange": "o", "yellow": "y", "green": "g", "blue": "b",
           "violet": "v", "white": "w", "black": "k"}
_COLOUR = {v: k for k, v in _LETTER.items()}
_BONUS = {None: "-", "assistant": "a", "points": "p"}
_BONUS_BACK = {v: k for k, v in _BONUS.items()}


def _people(spot):
    return "".join(str(q) for q in spot["standing"]) + "".join(f"_{q}" for q in spot["lying"])


def _opt(x):
    return "-" if x is None else str(x)


def write(game, view) -> str:
    lines = [f"{game.name} {view['players']}",
             f"round {view['round']} phase {view['phase']} to {view['current_player']} "
             f"first {view['first_player']} rotation {view['rotation']}",
             "claims " + _opt(view["claims"]["first player"]) + " "
             + _opt(view["claims"]["rotate"]),
             "supply " + " ".join(f"{_LETTER[c]}{k}" for c, k in view["supply"].items()),
             "easels " + " ".join(_opt(c) for c in view["easels"]),
             "deck " + " ".join(map(str, view["deck"])),
             "lower " + " ".join(_people(lv) or "." for lv in view["lower_board"]),
             "upper " + " ".join(_people(view["upper_board"][k]) or "." for k in CENTRE_NAMES)]
    for p, b in enumerate(view["boards"]):
        pig = " ".join(f"{_LETTER[c]}{k}" for c, k in b["pigments"].items() if k) or "-"
        tools = "".join(str(b["tools"][t]) for t in TOOLS)
        bonus = "".join(_BONUS[b["bonus"][t]] for t in TOOLS)
        cards = " ".join(f"{pv['card']}:" + "".join(_LETTER[x] if x else "." for x in pv["filled"])
                         for pv in b["paintings"]) or "-"
        lines.append(f"player {p} assistants {b['assistants']} place {b['to_place']} "
                     f"tools {tools} bonus {bonus} pigments {pig} paintings {cards}")
    pd = view["pending"]
    lines.append(f"pending tool {'-' if pd['tool'] is None else TOOLS.index(pd['tool'])} "
                 f"pay {pd['pay_left']}{_LETTER[pd['pay_min']]} paint {pd['paint_left']}/"
                 f"{pd['painted']} seat {pd['seat_k']} keep "
                 + " ".join(_opt(x) for x in pd["keep"]))
    return "\n".join(lines) + "\n"


def _bad(line, problem):
    raise StateFormatError(f"couleurs_de_paris notation: line {line!r}: {problem}")


def _int(text, line):
    if not re.fullmatch(r"-?\d+", text):
        _bad(line, f"expected a number, got {text!r}")
    return int(text)


def _opt_int(text, line):
    return None if text == "-" else _int(text, line)


def _people_back(text, line):
    if text == ".":
        return [], []
    m = re.fullmatch(r"(\d*)((?:_\d)*)", text)
    if not m:
        _bad(line, f"assistants must read like 01_2 (standing 0 and 1, 2 lying), got {text!r}")
    return [int(x) for x in m.group(1)], [int(x) for x in m.group(2).split("_")[1:]]


def _colour_counts(words, line):
    out = {c: 0 for c in SUPPLY_COLOURS}
    for w in words:
        if w == "-":
            continue
        if len(w) < 2 or w[0] not in _COLOUR:
            _bad(line, f"expected a colour letter (r o y g b v w k) and a count, got {w!r}")
        out[_COLOUR[w[0]]] = _int(w[1:], line)
    return out


def read(game, text) -> dict:
    """A JSON view from the notation (checked afterwards by the loader)."""
    if not isinstance(text, str):
        raise StateFormatError("couleurs_de_paris notation: expected text")
    r = rules_of(game)
    lines = [x.strip() for x in text.strip().splitlines() if x.strip()]
    n = r.n
    if len(lines) != 9 + n:
        raise StateFormatError(f"couleurs_de_paris notation: expected {9 + n} lines for {n} "
                               f"players, got {len(lines)}")
    head = lines[0].split()
    if head != [game.name, str(n)]:
        _bad(lines[0], f"expected '{game.name} {n}'")
    m = re.fullmatch(r"round (\d+) phase (\w+) to (-?\d+) first (\d+) rotation (\d+)", lines[1])
    if not m:
        _bad(lines[1], "expected 'round R phase NAME to P first F rotation K'")
    rnd, ph, to, first, rot = m.groups()
    if ph not in PHASES:
        _bad(lines[1], f"unknown phase {ph!r}")
    rot = int(rot) % 10

    def words(i, key):
        w = lines[i].split()
        if not w or w[0] != key:
            _bad(lines[i], f"expected a line starting with {key!r}")
        return w[1:]
    cl = words(2, "claims")
    if len(cl) != 2:
        _bad(lines[2], "expected 'claims FIRST ROTATE' (player or -)")
    supply = _colour_counts(words(3, "supply"), lines[3])
    easels = [_opt_int(x, lines[4]) for x in words(4, "easels")]
    deck = [_int(x, lines[5]) for x in words(5, "deck")]
    low = words(6, "lower")
    if len(low) != 10:
        _bad(lines[6], "expected 10 lower-board positions ('.' when empty)")
    up = words(7, "upper")
    if len(up) != 4:
        _bad(lines[7], "expected the 4 centre spaces ('.' when empty)")
    lower = []
    for q, t in enumerate(low):
        st, li = _people_back(t, lines[6])
        lower.append({"position": q, "action": ACTION_NAMES[kind_at(r, rot, q)],
                      "spaces": r.capacity[q], "standing": st, "lying": li})
    upper = {}
    for k, t in zip(CENTRE_NAMES, up):
        st, li = _people_back(t, lines[7])
        upper[k] = {"standing": st, "lying": li}
    boards = []
    data = r.data
    for p in range(n):
        line = lines[8 + p]
        m = re.fullmatch(rf"player {p} assistants (\d) place (\d) tools ([1-8]{{3}}) bonus "
                         rf"([-ap]{{3}}) pigments (.+?) paintings (.+)", line)
        if not m:
            _bad(line, f"expected 'player {p} assistants A place K tools TTT bonus BBB "
                       f"pigments ... paintings ...'")
        paintings = []
        for w in m.group(6).split():
            if w == "-":
                continue
            pm = re.fullmatch(r"(\d+):([roygbvw.]{9})", w)
            if not pm:
                _bad(line, f"a painting reads like 12:rr.w..... (card:9 spaces), got {w!r}")
            card = int(pm.group(1))
            filled = [None if ch == "." else _COLOUR[ch] for ch in pm.group(2)]
            entry = {"card": card, "filled": filled, "finished": None not in filled}
            if 0 <= card < len(data.paintings):
                pc = data.paintings[card]
                entry = {"card": card, "name": pc.name, "value": pc.value,
                         "spaces": [SUPPLY_COLOURS[c] for c in pc.spaces], **entry}
            paintings.append(entry)
        boards.append({
            "pigments": _colour_counts(m.group(5).split(), line),
            "tools": {t: int(ch) for t, ch in zip(TOOLS, m.group(3))},
            "bonus": {t: _BONUS_BACK[ch] for t, ch in zip(TOOLS, m.group(4))},
            "assistants": int(m.group(1)), "to_place": int(m.group(2)),
            "paintings": paintings})
    pl = lines[8 + n]
    m = re.fullmatch(r"pending tool ([-012]) pay (\d)([roygbvw]) paint (\d+)/(\d+) seat (\d) "
                     r"keep (.+)", pl)
    if not m:
        _bad(pl, "expected 'pending tool T pay Nc paint L/D seat K keep ...'")
    keep = [_opt_int(x, pl) for x in m.group(7).split()]
    pending = {"tool": None if m.group(1) == "-" else TOOLS[int(m.group(1))],
               "pay_left": int(m.group(2)), "pay_min": _COLOUR[m.group(3)],
               "paint_left": int(m.group(4)), "painted": int(m.group(5)),
               "seat_k": int(m.group(6)), "keep": keep}
    # Derived fields, recomputed here so the loader checks the rest against them.
    held = {pv["card"] for b in boards for pv in b["paintings"]}
    located = held | set(deck) | {c for c in easels if c is not None}
    finished = [sum(1 for pv in b["paintings"] if pv["finished"]) for b in boards]
    view = {
        "players": n, "phase": ph, "current_player": int(to), "round": int(rnd),
        "first_player": int(first), "rotation": rot,
        "final_round": max(finished) >= 2 or (supply["black"] == 0 and r.supply[7] > 0),
        "lower_board": lower, "upper_board": upper,
        "claims": {"first player": _opt_int(cl[0], lines[2]),
                   "rotate": _opt_int(cl[1], lines[2])},
        "supply": supply, "easels": easels, "deck": deck,
        "removed": [c for c in range(len(data.paintings)) if c not in located],
        "boards": boards, "scores": [], "pending": pending}
    view["scores"] = [_score(b, data) for b in boards]
    return view


def _score(b, data):
    total = 6 * b["pigments"]["black"]
    for t in TOOLS:
        total += 10 if b["tools"][t] == 8 else (6 if b["bonus"][t] == "points" else 0)
    for pv in b["paintings"]:
        if pv["finished"] and 0 <= pv["card"] < len(data.paintings):
            total += data.paintings[pv["card"]].value - 2 * pv["filled"].count("white")
    return total
