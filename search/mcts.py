"""The Python face of the search, by the names its callers import from here.
Each part lives in a module named for what it does:

- search/tree_search.py: `Search`, a resumable, cancellable search over one
  position (its trees, threads, PIMC worlds, tree reuse);
- search/analysis.py: reading the trees, merged: `root_ranking` (`RootMove`)
  and the candidates of an `Analysis` (`Candidate`);
- search/pv.py: the texts of a candidate's turn and principal variation
  (`PVStep`);
- search/mcts_bot.py: `MCTSBot`, the bot that plays with `Search`;
- search/seeds.py: the seeds a search and a bot derive from theirs;
- search/params.py: the search and bot options; search/_mcts.pyx: the C tree.
"""
from __future__ import annotations

from .analysis import FLAG_AFTER_CHANCE, KIND_CHANCE, Z95, Analysis, Candidate, RootMove
from .errors import SearchError
from .mcts_bot import BOT_ITERATIONS, TEMPERATURE_SALT, TEMPERATURE_SHARE, MCTSBot
from .params import search_defaults
from .pv import PV_LENGTH, PVStep
from .seeds import game_seed
from .seeds import mix as _mix  # noqa: F401  (the name callers of search.mcts knew)
from .tree_search import Search

__all__ = ["Analysis", "BOT_ITERATIONS", "Candidate", "FLAG_AFTER_CHANCE", "KIND_CHANCE",
           "MCTSBot", "PVStep", "PV_LENGTH", "RootMove", "Search", "SearchError", "TEMPERATURE_SALT",
           "TEMPERATURE_SHARE", "Z95", "game_seed", "search_defaults"]
