"""The Starving Artists table notation: the whole table as a few lines of
text a player can read and edit, and back (ENCODING.md, "Table notation").

`write(game, view) -> str` and `read(game, text) -> view`; `read` returns a
JSON view, which the validating loader (view.py) then checks, so every form
of a position goes through one loader. Canvases are written by their deck
index (titles are in the JSON view and the readable text).
"""
from __future__ import annotations

from easel.engine.errors import StateFormatError

from .deck import load_deck
from .rules import CUBE_NAMES, rules_of

_HEAD = "starving_artists"
_PENDING_INT = ("actor", "turn_k", "main_done", "actions_left", "dawn_k", "dusk_k",
                "starved_today", "setup_k", "draws_left", "draw_to", "paints_left",
                "pay_left", "pay_arg", "take_left", "coll_i", "turn_taken", "turn_wild",
                "feed_k", "fed", "adv_card", "adv_k")
_PENDING_LIST = ("selling", "order", "got")


def _cubes(counts):
    return " ".join(f"{c} {counts[c]}" for c in CUBE_NAMES if counts[c]) or "none"


def _ints(xs):
    return " ".join(map(str, xs)) or "-"


def write(game, view) -> str:
    fd = view["face_down"]
    lines = [f"{_HEAD} players={view['players']} deck={view['deck']}",
             f"day {view['day']} round {view['round']} first {view['first_player']} "
             f"phase {view['phase']} result {view['result']}",
             f"bag {_cubes(view['bag'])}",
             f"pile {_cubes(view['payday_pile'])}",
             "market " + " ".join(str(m["canvas"]) if m else "-" for m in view["market"]),
             f"unseen {_ints(fd['unseen'])}",
             f"under {_ints(fd['known_under'])}",
             f"removed {_ints(view['removed'])}"]
    for p, st in enumerate(view["studios"]):
        lines.append(f"player {p} {'alive' if st['alive'] else 'starved'} nutrition "
                     f"{st['nutrition']} food {st['food_earned']} free "
                     f"{'used' if st['free_action_used'] else 'open'} cubes "
                     f"{_cubes(st['cubes'])}")
        for cv in st["canvases"]:
            lines.append(f"  canvas {cv['canvas']}: "
                         + " ".join(c or "." for c in cv["cubes"]))
        lines.append(f"  paintings {_ints(st['paintings'])}")
    pend = view["pending"]
    parts = [f"{k}={pend[k]}" for k in _PENDING_INT]
    parts.append(f"resume={pend['resume'] or '-'}")
    parts.append(f"pay_for={pend['pay_for'] or '-'}")
    parts.append(f"held={','.join(f'{c}:{k}' for c, k in pend['held'].items() if k) or '-'}")
    parts += [f"{k}={','.join(map(str, pend[k])) or '-'}" for k in _PENDING_LIST]
    lines.append("pending " + " ".join(parts))
    return "\n".join(lines) + "\n"


def _bad(line_no, problem):
    raise StateFormatError(f"starving_artists notation: line {line_no}: {problem}")


def _int(text, line_no, what):
    try:
        return int(text)
    except ValueError:
        _bad(line_no, f"{what} must be an integer, got {text!r}")


def _read_cubes(words, line_no):
    out = {c: 0 for c in CUBE_NAMES}
    if words == ["none"]:
        return out
    if len(words) % 2:
        _bad(line_no, "cubes are written as pairs: colour count")
    for k in range(0, len(words), 2):
        name = {"purple": "violet", "clear": "wild"}.get(words[k], words[k])
        if name not in out:
            _bad(line_no, f"unknown colour {words[k]!r}; colours: {', '.join(CUBE_NAMES)}")
        out[name] = _int(words[k + 1], line_no, f"the count of {name}")
    return out


def _read_ints(words, line_no, what):
    if words == ["-"]:
        return []
    return [_int(w, line_no, what) for w in words]


def read(game, text) -> dict:
    """A JSON view from the notation (checked later by the loader)."""
    if not isinstance(text, str):
        raise StateFormatError("starving_artists notation must be text")
    r = rules_of(game)
    deck = load_deck(r.deck.spec)
    lines = [ln.rstrip() for ln in text.strip().splitlines() if ln.strip()]
    if not lines or not lines[0].startswith(_HEAD):
        _bad(1, f"must start with {_HEAD!r}")
    # deck= is the header's last field and runs to the end of the line: a deck
    # file's path may hold spaces.
    words, _, deck_text = lines[0].partition(" deck=")
    head = dict(w.split("=", 1) for w in words.split()[1:] if "=" in w)
    if deck_text:
        head["deck"] = deck_text
    players = _int(head.get("players", "?"), 1, "players")
    if head.get("deck") != r.deck.spec:
        _bad(1, f"deck={head.get('deck')!r}; this game uses deck={r.deck.spec}")

    def canvas(i, with_cubes):
        card = deck.cards[i] if 0 <= i < len(deck.cards) else None
        if card is None:
            return {"canvas": i}
        out = {"canvas": i, "title": card.title, "stars": card.stars, "food": card.food,
               "paint": card.paint,
               "squares": ["/".join(CUBE_NAMES[c] for c in cols) for cols in card.squares]}
        if with_cubes is not None:
            out["cubes"] = with_cubes
        return out

    view = {"players": players, "deck": r.deck.spec, "studios": [], "pending": {}}
    studio = None
    for no, line in enumerate(lines[1:], start=2):
        w = line.split()
        key = w[0]
        if key == "day":
            if len(w) != 10:
                _bad(no, "expected: day D round R first P phase NAME result X")
            view["day"] = _int(w[1], no, "day")
            view["round"] = _int(w[3], no, "round")
            view["first_player"] = _int(w[5], no, "first")
            view["phase"] = w[7]
            view["result"] = _int(w[9], no, "result")
        elif key == "bag":
            view["bag"] = _read_cubes(w[1:], no)
        elif key == "pile":
            view["payday_pile"] = _read_cubes(w[1:], no)
        elif key == "market":
            if len(w) != 4:
                _bad(no, "expected three market slots (- when empty)")
            view["market"] = [None if x == "-" else canvas(_int(x, no, "a canvas"), None)
                              for x in w[1:]]
        elif key in ("unseen", "under", "removed"):
            view[key] = _read_ints(w[1:], no, "a canvas")
        elif key == "player":
            if len(w) < 11 or w[3] != "nutrition" or w[5] != "food" or w[7] != "free":
                _bad(no, "expected: player P alive|starved nutrition N food F free "
                         "open|used cubes ...")
            studio = {"alive": w[2] == "alive", "nutrition": _int(w[4], no, "nutrition"),
                      "cubes": _read_cubes(w[10:], no), "canvases": [], "paintings": [],
                      "stars": 0, "food_earned": _int(w[6], no, "food"),
                      "free_action_used": w[8] == "used"}
            view["studios"].append(studio)
        elif key == "canvas":
            if studio is None or not w[1].endswith(":"):
                _bad(no, "a canvas line belongs under a player: canvas I: cube|. ...")
            i = _int(w[1][:-1], no, "a canvas")
            cubes = [None if x == "." else x for x in w[2:]]
            studio["canvases"].append(canvas(i, cubes))
        elif key == "paintings":
            if studio is None:
                _bad(no, "paintings belong under a player")
            studio["paintings"] = _read_ints(w[1:], no, "a canvas")
            studio["stars"] = sum(deck.cards[i].stars for i in studio["paintings"]
                                  if 0 <= i < len(deck.cards))
        elif key == "pending":
            pend = dict(x.split("=", 1) for x in w[1:] if "=" in x)
            out = {}
            for k in _PENDING_INT:
                if k not in pend:
                    _bad(no, f"pending {k}= missing")
                out[k] = _int(pend[k], no, k)
            out["resume"] = None if pend.get("resume", "-") == "-" else pend["resume"]
            out["pay_for"] = None if pend.get("pay_for", "-") == "-" else pend["pay_for"]
            held = {c: 0 for c in CUBE_NAMES}
            if pend.get("held", "-") != "-":
                for item in pend["held"].split(","):
                    c, _, k = item.partition(":")
                    if c not in held:
                        _bad(no, f"held: unknown colour {c!r}")
                    held[c] = _int(k, no, "held")
            out["held"] = held
            for k in _PENDING_LIST:
                v = pend.get(k, "-")
                out[k] = [] if v == "-" else [_int(x, no, k) for x in v.split(",")]
            view["pending"] = out
        else:
            _bad(no, f"unknown line {key!r}")
    for k in ("day", "bag", "payday_pile", "market", "unseen", "under", "removed"):
        if k not in view:
            _bad(len(lines), f"the {k} line is missing")
    view["face_down"] = {"unseen": view.pop("unseen"), "known_under": view.pop("under"),
                         "set_aside": r.set_aside}
    # The player to move follows from the position; the loader checks the rest.
    view["current_player"] = _player_of(view)
    order = ("players", "deck", "phase", "current_player", "day", "round", "first_player",
             "result", "bag", "payday_pile", "market", "face_down", "removed", "studios",
             "pending")
    return {k: view[k] for k in order}


def _player_of(view):
    ph = view["phase"]
    if ph == "end":
        return -4
    if ph in ("setup", "draw", "canvas"):
        return -1
    return view["pending"].get("actor", -1)
