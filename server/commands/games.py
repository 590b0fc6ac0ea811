"""`easel games`: the registered games, their player counts and options."""
from __future__ import annotations

import json


def add_parser(sub):
    p = sub.add_parser("games", help="list the games Easel plays, with their options")
    p.add_argument("--json", action="store_true", help="print as JSON")
    p.set_defaults(func=run)


def describe() -> list[dict]:
    from easel import engine
    out = []
    for e in engine.registered_games():
        out.append({
            "name": e.name,
            "long_name": e.long_name,
            "description": e.description,
            "min_players": e.min_players,
            "max_players": e.max_players,
            "options": {k: {"type": o.type.__name__, "default": o.default, "doc": o.doc}
                        for k, o in sorted(e.options.items())},
            "placeholder_data": list(e.placeholder_data),
            "implementations": e.implementations,
            "capabilities": e.capabilities.names(),
            "left_out": list(e.left_out),
        })
    return out


def run(args) -> int:
    games = describe()
    if args.json:
        print(json.dumps(games, indent=2))
        return 0
    for g in games:
        players = (str(g["min_players"]) if g["min_players"] == g["max_players"]
                   else f"{g['min_players']}-{g['max_players']}")
        print(f"{g['name']}  ({g['long_name']}, {players} players)")
        print(f"    {g['description']}")
        for k, o in g["options"].items():
            print(f"    {k}: {o['type']} = {o['default']!r}  {o['doc']}")
        print("    offers: " + (", ".join(c.replace("_", " ") for c in g["capabilities"])
                                  or "the game contract only"))
        if g["placeholder_data"]:
            print("    placeholder data: " + "; ".join(g["placeholder_data"]))
        for item in g["left_out"]:
            print(f"    left out: {item}")
    return 0
