"""The search layer's errors."""
from easel.engine.errors import EaselError


class BotSpecError(EaselError, ValueError):
    """A bot spec string that is malformed, names an unknown bot, an unknown
    key or a bad value, or a bot that cannot play the game."""


class SearchError(EaselError, ValueError):
    """A search that cannot run as asked (bad option, wrong position, wrong game)."""
