"""Bot seats' specs: CreateMatch refuses every spec the seat's bot would fail
on (a NaN, threads=0, an unknown or server-only option, a value out of its
range) with INVALID_ARGUMENT naming the seat and the option, instead of a
match that ends "bot failed" (a free win for the client seat); and a seat's
bot searches within the server's node budget."""
from __future__ import annotations

import pytest
from match_helpers import assert_status, bot, client, grpc, pb

from easel.server.analysis import Limits
from easel.server.matches import MatchLimits, MatchManager, Store

BAD_SEATS = [
    ("mcts(uct_c=nan)", "uct_c must be a number from 0 to 100, got nan"),
    ("mcts(margin_weight=nan)", "margin_weight must be a number from 0 to 1"),
    ("mcts(threads=0)", "threads must be an integer from 1 to 256"),
    ("mcts(threads=-1)", "threads must be an integer from 1 to 256"),
    ("mcts(iterations=50,tme=1)", "did you mean 'time'?"),
    ("mcts(max_nodes=100000000)", "max_nodes is the server's to set (--max-search-nodes)"),
    ("mcts(form=pimc,worlds=100000000)", "worlds must be an integer from 1 to 1024"),
    ("mcts(time=inf)", "time must be a number above 0"),
    ("mcts(policy_bias=1)", "policy_bias: connect_four has no rollout policy"),
    ("greedy(samples=0)", "samples must be an integer from 1 to 64"),
    ("heuristic(seed=nan)", "seed='nan' must be an int"),
    ("level(11)", "n must be an integer from 1 to 10, got 11"),
    ("level(0)", "n must be an integer from 1 to 10, got 0"),
    ("level", "give the level, 1 to 10: level(4)"),
]


@pytest.mark.parametrize("spec, fragment", BAD_SEATS, ids=[s for s, _ in BAD_SEATS])
def test_create_refuses_a_seat_its_bot_would_fail_on(served, spec, fragment):
    with pytest.raises(grpc.RpcError) as e:
        served.matches.CreateMatch(pb.CreateMatchRequest(
            game="connect_four", seats=[client(), bot(spec)]), timeout=30)
    assert_status(e, grpc.StatusCode.INVALID_ARGUMENT, "seats[1].bot:", fragment)
    assert served.manager.open_count() == 0


def test_a_seat_may_set_the_options_of_a_bot_playing_a_whole_game(served):
    made = served.matches.CreateMatch(pb.CreateMatchRequest(
        game="connect_four", seats=[client(), bot("mcts(iterations=30,reuse=false)")]),
        timeout=30)
    assert made.match_id


def test_the_tree_count_of_a_seat_is_held_to_the_node_budget(tmp_path):
    limits = Limits(max_iterations=10_000, max_seconds=10.0, max_search_nodes=8 * 1024)
    manager = MatchManager(Store(str(tmp_path / "m.sqlite3")), MatchLimits(bot_threads=2),
                           limits).start()
    try:
        with pytest.raises(Exception) as e:
            manager.create("pig", [{"kind": "client"},
                                   {"kind": "bot", "bot": "mcts(form=pimc,worlds=9)"}],
                           "server", True, "me")
        assert "seats[1].bot: worlds=9 is above this server's limit of 8 trees" in str(e.value)
        m, tokens, _, _ = manager.create("pig", [{"kind": "bot", "bot": "mcts(iterations=20)"},
                                                 {"kind": "client"}], "server", True, "me")
        seat = m.host.bots[0]
        assert seat.bot.options["max_nodes"] == 8 * 1024     # the server's, for every search
    finally:
        manager.stop()
        manager.store.close()


def test_a_level_seat_plays_its_levels_spec_within_the_servers_limits(tmp_path):
    # level(N) is the game's mcts spec of that level (search/levels.py): the
    # seat's bot plays that budget and temperature, a time control only caps
    # it, and the server's iteration limit applies to the level's budget.
    from easel import engine
    from easel.search import levels
    game = engine.load_game("connect_four")
    top = levels.level_args(game, 10)["iterations"]
    limits = Limits(max_iterations=top - 1, max_seconds=10.0)
    manager = MatchManager(Store(str(tmp_path / "m.sqlite3")), MatchLimits(bot_threads=2),
                           limits).start()
    try:
        with pytest.raises(Exception) as e:
            manager.create("connect_four", [{"kind": "client"},
                                            {"kind": "bot", "bot": "level(10)"}],
                           "server", True, "me")
        assert f"seats[1].bot: {top} iterations is over this server's limit" in str(e.value)
        m, _, _, _ = manager.create(
            "connect_four", [{"kind": "bot", "bot": "level(2)", "move_seconds": 5.0},
                             {"kind": "client"}], "server", True, "me")
        seat = m.host.bots[0]
        want = levels.level_args(game, 2)
        assert seat.spec == "level(2)"
        assert seat.base_iterations == want["iterations"]       # not dropped for the clock
        assert seat.bot.temperature == want["temperature"]
    finally:
        manager.stop()
        manager.store.close()


def test_a_level_seat_plays_a_whole_match(served):
    from match_helpers import events
    made = served.matches.CreateMatch(pb.CreateMatchRequest(
        game="connect_four", seats=[bot("level(1)"), bot("level(3)")]), timeout=30)
    evs = events(served.matches, made.match_id)
    assert evs[-1].end.result.reason == pb.END_REASON_GAME_OVER
