"""`easel bots`: the bot kinds and every option of their specs, with type,
range, default and meaning (search/params.py); `--markdown` writes the
tables of docs/bots.md."""
from __future__ import annotations

import json


def add_parser(sub):
    p = sub.add_parser("bots", help="list the bot specs and every option they take")
    g = p.add_mutually_exclusive_group()
    g.add_argument("--json", action="store_true", help="print as JSON")
    g.add_argument("--markdown", action="store_true",
                   help="print the option tables of docs/bots.md")
    p.set_defaults(func=run)


def run(args) -> int:
    from easel.search.specs import bots_help, bots_markdown, describe_bots
    if args.json:
        print(json.dumps(describe_bots(), indent=2))
    elif args.markdown:
        print(bots_markdown(), end="")
    else:
        print(bots_help())
    return 0
