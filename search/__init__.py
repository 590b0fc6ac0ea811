"""Easel's search: a generic MCTS over the C-level game contract."""
from .mcts import Analysis, Candidate, MCTSBot, PVStep, Search, SearchError

__all__ = ["MCTSBot", "Search", "Analysis", "Candidate", "PVStep", "SearchError"]
