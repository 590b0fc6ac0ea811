"""Easel's search: a generic MCTS over the C-level game contract, baseline
bots named by spec strings, and the arena that plays them against each other."""
import easel as _easel

_easel.refuse_other_name(__name__)       # first: `import search` would load a second copy

from .arena import ArenaError, run_arena
from .bots import Bot, GreedyBot, HeuristicBot, RandomBot
from .analysis import Analysis, Candidate
from .errors import SearchError
from .mcts_bot import MCTSBot
from .pv import PVStep
from .tree_search import Search
from .records import RecordError, validate_record
from .specs import BotSpecError, make_bot, parse_spec

__all__ = [
    "MCTSBot", "Search", "Analysis", "Candidate", "PVStep", "SearchError",
    "Bot", "RandomBot", "GreedyBot", "HeuristicBot",
    "make_bot", "parse_spec", "BotSpecError",
    "run_arena", "ArenaError", "validate_record", "RecordError",
]
