"""The `easel` command line. Each subcommand lives in its own module under
server/commands/, which defines `add_parser(subparsers)`; the parser it adds
carries its handler as `func` (args -> exit code)."""
from __future__ import annotations

import argparse
import importlib
import sys

# One line per subcommand module.
COMMANDS = [
    "easel.server.commands.games",
    "easel.server.commands.bots",
    "easel.server.commands.serve",
    "easel.server.commands.suggest",
    "easel.server.commands.analyze",
    "easel.server.commands.arena",
    "easel.server.commands.bound",
    "easel.server.commands.replay",
    "easel.server.commands.review",
    "easel.server.commands.records",
    "easel.server.commands.play",
    "easel.server.commands.matches",
    "easel.server.commands.tournament",
]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="easel", description="Easel: AI opponents for painting board games.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    for name in COMMANDS:
        importlib.import_module(name).add_parser(sub)
    return parser


def main(argv=None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    from easel.engine.errors import EaselError
    try:
        return int(args.func(args) or 0)
    except EaselError as e:
        print(f"easel {args.command}: error: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
