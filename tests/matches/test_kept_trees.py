"""Hosted bot seats keep their search trees between moves within one bound
over the whole server (server/matches/trees.py), whatever the specs: before
it, memory grew with the number of open bot seats (each tree within
--max-search-nodes, but a client's 20 matches of four deep seats held about
80 trees)."""
from __future__ import annotations

import time

import pytest
from match_helpers import bot, events, steps_of

from easel import engine
from easel.search.specs import make_bot
from easel.server.matches import MatchLimits, draws
from easel.server.matches.trees import KeptTrees
from easel.v1 import matches_pb2 as pb


class FakeSeat:
    def __init__(self, size):
        self.size = size
        self.busy = False
        self.forgotten = 0

    def tree_bytes(self):
        return self.size

    def forget_tree(self):
        self.size = 0
        self.forgotten += 1

    def try_forget_tree(self):
        if self.busy:
            return False
        self.forget_tree()
        return True


def test_the_least_recently_moved_seats_lose_their_trees_first():
    kept = KeptTrees(100)
    a, b, c = FakeSeat(40), FakeSeat(40), FakeSeat(40)
    for s in (a, b):
        kept.note(s)
    assert kept.bytes == 80 and not a.forgotten
    kept.note(c)                    # 120 > 100: a, the least recent, goes
    assert (a.forgotten, b.forgotten, c.forgotten) == (1, 0, 0) and kept.bytes == 80
    b.busy = True                   # searching: kept; c, the next least recent, goes,
    a.size = 70                     # and then a's own, since b alone is not enough
    kept.note(a)
    assert (a.forgotten, b.forgotten, c.forgotten) == (2, 0, 1) and kept.bytes == 40


def test_a_tree_in_use_is_never_dropped_and_a_seat_over_the_bound_alone_drops_its_own():
    kept = KeptTrees(100)
    a, b = FakeSeat(60), FakeSeat(60)
    a.busy = True
    kept.note(a)
    kept.note(b)                    # a is busy: b, just moved, is over with it, b goes
    assert a.forgotten == 0 and b.forgotten == 1 and kept.bytes == 60
    big = FakeSeat(500)
    kept.note(big)                  # over the bound on its own
    assert big.forgotten == 1 and kept.bytes <= 100
    kept.release(a)
    assert kept.bytes == 0


def test_the_bound_has_a_range():
    with pytest.raises(ValueError, match="max_kept_tree_bytes must be at least 0"):
        MatchLimits(max_kept_tree_bytes=-1)


def _idle_seat_trees(manager) -> tuple[int, int]:
    """(bytes of the trees held by the seats not searching now, bot moves made)."""
    with manager._lock:
        hosts = [m.host for m in manager._open.values() if m.host is not None]
    held = sum(b.tree_bytes() for h in hosts for b in h.bots.values() if not b._lock.locked())
    return held, sum(h.moves for h in hosts)


def test_open_bot_seats_hold_no_more_tree_than_the_bound(serve):
    """Four bot-vs-bot matches at once: the trees their seats hold between
    moves, summed, stay within the bound (here 160 KB, about two trees of
    these seats; without it the eight seats held about 700 KB)."""
    limit = 160 << 10
    served = serve(max_kept_tree_bytes=limit)
    spec = "mcts(iterations=1000,threads=1)"
    for _ in range(4):
        served.matches.CreateMatch(pb.CreateMatchRequest(
            game="starving_artists(players=2)", seats=[bot(spec), bot(spec)]), timeout=30)
    peak, moves = 0, 0
    deadline = time.monotonic() + 90
    while moves < 40 and time.monotonic() < deadline:
        held, moves = _idle_seat_trees(served.manager)
        peak = max(peak, held)
        time.sleep(0.005)
    assert moves >= 40
    assert 0 < peak <= limit
    assert served.manager.kept_trees.dropped > 0 and served.manager.kept_trees.bytes <= limit


def test_a_seat_whose_tree_was_dropped_plays_on_as_a_bot_searching_afresh(serve):
    """With no tree kept at all (0 MB), every move is a fresh search from the
    seed a fresh search at that position takes: the seat's moves are those
    of the local bot of the same spec with reuse off."""
    served = serve(max_kept_tree_bytes=0)
    spec = "mcts(iterations=40,threads=1)"
    made = served.matches.CreateMatch(pb.CreateMatchRequest(
        game="vangogh(players=2)", seats=[bot(spec), bot(spec)]), timeout=30)
    evs = events(served.matches, made.match_id)
    assert evs[-1].WhichOneof("event") == "end"
    seed = served.manager.get(made.match_id).row.seed
    game = engine.load_game("vangogh(players=2)", "core")
    local = [make_bot("mcts(iterations=40,threads=1,reuse=false)", game,
                      seed=draws.derive_int(seed, f"bot:{s}")) for s in range(2)]
    state = game.new_initial_state()
    checked = 0
    for _, action, player, by in steps_of(evs):
        if by == "bot":
            assert local[player].step(state.clone()) == action, f"step {len(state.history())}"
            checked += 1
        state.apply_action(action)
    assert state.is_terminal() and checked > 50
    assert served.manager.kept_trees.bytes == 0
