"""The bot specs and every option they take, as the closing part of the
--help of each command that takes specs (suggest, arena, play, tournament),
written from search/params.py so that the help cannot fall behind."""
from __future__ import annotations

import argparse


class _KeepLines(argparse.HelpFormatter):
    """Wraps one-line texts (descriptions) as usual; keeps a text of several
    lines (the option list) as it is laid out."""

    def _fill_text(self, text, width, indent):
        if "\n" in text:
            return "".join(indent + line for line in text.splitlines(keepends=True))
        return super()._fill_text(text, width, indent)


def add_bot_help(p: argparse.ArgumentParser) -> None:
    from easel.search.specs import bots_help
    p.formatter_class = _KeepLines
    p.epilog = bots_help()
