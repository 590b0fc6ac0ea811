"""Bot specs from the network (Suggest, Analyze; the remote bot that sends
them): every option range-checked, unknown and server-only options refused
with INVALID_ARGUMENT naming the option, and the node budget of one search
set by the server (--max-search-nodes), whatever the spec asks."""
from __future__ import annotations

import subprocess
import sys

import grpc
import pytest
from server_helpers import assert_status, record, settings

from easel.v1 import engine_pb2 as pb
from easel.v1 import engine_pb2_grpc as pb_grpc

INVALID = grpc.StatusCode.INVALID_ARGUMENT

BAD_SPECS = [
    ("mcts(form=pimc,worlds=100000000)", "worlds must be an integer from 1 to 1024"),
    ("mcts(form=pimc,worlds=2000)", "worlds must be an integer from 1 to 1024"),
    ("mcts(max_nodes=100000000)", "max_nodes is the server's to set (--max-search-nodes)"),
    ("mcts(max_nodes=4096)", "max_nodes is the server's to set"),
    ("mcts(uct_c=nan)", "uct_c must be a number from 0 to 100, got nan"),
    ("mcts(uct_c=inf)", "uct_c must be"),
    ("mcts(margin_weight=nan)", "margin_weight must be a number from 0 to 1"),
    ("mcts(policy_bias=-1)", "policy_bias must be"),
    ("mcts(loss_weight=3)", "loss_weight must be a number from 0 to 2, got 3"),
    ("mcts(loss_power=nan)", "loss_power must be a number from 1 to 64"),
    ("mcts(threads=0)", "threads must be an integer from 1 to 256"),
    ("mcts(threads=-1)", "threads must be an integer from 1 to 256"),
    ("mcts(time=nan)", "time must be a number above 0"),
    ("mcts(rollout_depth=-5)", "rollout_depth must be"),
    ("mcts(tme=1)", "did you mean 'time'?"),
    ("mcts(reuse=false)", "reuse applies to a bot playing a whole game"),
    ("mcts(rollout=policy)", "no rollout policy"),          # connect_four has none
    ("greedy(budget=10000000)", "budget must be an integer from 1 to 20000"),
    ("greedy(depth=7)", "depth must be an integer from 0 to 6"),
    ("random(seed=-1)", "seed must be an integer from 0 to 2^64-1"),
    ("level(11)", "n must be an integer from 1 to 10, got 11"),
    ("level", "give the level, 1 to 10: level(4)"),
]


@pytest.mark.parametrize("bot, fragment", BAD_SPECS, ids=[b for b, _ in BAD_SPECS])
def test_suggest_and_analyze_refuse_bad_specs(stub, bot, fragment):
    with pytest.raises(grpc.RpcError) as e:
        stub.Suggest(pb.SuggestRequest(position=record("connect_four"),
                                       settings=settings(bot=bot, iterations=50)), timeout=20)
    assert_status(e, INVALID, "settings.bot:", fragment)
    with pytest.raises(grpc.RpcError) as e:
        list(stub.Analyze(pb.AnalyzeRequest(position=record("connect_four"),
                                            settings=settings(bot=bot, iterations=50)),
                          timeout=20))
    assert_status(e, INVALID, "settings.bot:", fragment)


def test_the_tree_count_is_held_to_the_servers_node_budget(make_server):
    srv = make_server(max_search_nodes=32 * 1024)          # 32 trees of 1024 nodes
    with grpc.insecure_channel(f"127.0.0.1:{srv.port}") as ch:
        stub = pb_grpc.EngineStub(ch)
        with pytest.raises(grpc.RpcError) as e:
            stub.Suggest(pb.SuggestRequest(position=record("pig"), settings=settings(
                bot="mcts(form=pimc,worlds=33)", iterations=50)), timeout=20)
        assert_status(e, INVALID, "settings.bot:", "worlds=33 is above this server's limit "
                      "of 32 trees a search (--max-search-nodes 32768")
        r = stub.Suggest(pb.SuggestRequest(position=record("pig"), settings=settings(
            bot="mcts(form=pimc,worlds=32)", iterations=64)), timeout=20)
        assert r.analysis.candidates


def test_a_search_gets_the_servers_node_budget(make_server, monkeypatch):
    from easel.search import mcts
    seen = []
    made = mcts.Search.__init__

    def spy(self, game, state, **options):
        seen.append(options.get("max_nodes"))
        made(self, game, state, **options)

    monkeypatch.setattr(mcts.Search, "__init__", spy)
    srv = make_server(max_search_nodes=50_000)
    with grpc.insecure_channel(f"127.0.0.1:{srv.port}") as ch:
        stub = pb_grpc.EngineStub(ch)
        stub.Suggest(pb.SuggestRequest(position=record("connect_four"),
                                       settings=settings(iterations=20_000)), timeout=60)
    assert seen == [50_000]


def test_a_remote_bot_cannot_send_what_the_server_refuses(server):
    """The remote bot's path: its own spec is checked when the remote spec is
    parsed, and a server refuses the same spec sent by any client."""
    from easel import engine
    from easel.search.specs import BotSpecError, make_bot
    from easel.search.tournament.bots import RemoteBot
    game = engine.load_game("connect_four")
    target = f"127.0.0.1:{server.port}"
    with pytest.raises(BotSpecError, match="worlds must be"):
        make_bot(f"remote(target={target},spec=mcts(form=pimc,worlds=100000000))", game)
    bot = RemoteBot(game, target=target, spec="mcts(form=pimc,worlds=100000000)", timeout=30)
    try:
        with pytest.raises(grpc.RpcError) as e:
            bot.step(game.new_initial_state())
    finally:
        bot.close()
    assert_status(e, INVALID, "settings.bot:", "worlds must be an integer from 1 to 1024")


def _easel(*args):
    return subprocess.run([sys.executable, "-c", "import sys; from easel.server.cli import main; "
                                                 "sys.exit(main())", *args],
                          capture_output=True, text=True, timeout=60)


def test_serve_checks_its_max_search_nodes():
    out = _easel("serve", "--port", "0", "--no-http", "--no-matches", "--max-search-nodes", "512")
    assert out.returncode == 2, out.stderr
    assert "max_search_nodes must be an integer from 1024" in out.stderr, out.stderr
    assert "--max-search-nodes" in _easel("serve", "--help").stdout


@pytest.mark.parametrize("command", ["suggest", "analyze", "arena", "play", "tournament"])
def test_help_of_commands_taking_specs_lists_every_option(command):
    out = _easel(command, "--help")
    assert out.returncode == 0, out.stderr
    for line in ("  mcts: Monte Carlo tree search", "      worlds: an integer from 1 to 1024",
                 "      budget: an integer from 1 to 20000"):
        assert line in out.stdout, out.stdout


def test_suggest_searches_with_a_levels_budget(stub):
    # level(N) in a Suggest is one search with the level's budget; the
    # temperature is a bot's choice over a whole game, not a search's: the
    # candidates come ranked, and the client chooses.
    from easel import engine
    from easel.search import levels
    want = levels.level_args(engine.load_game("connect_four"), 3)
    r = stub.Suggest(pb.SuggestRequest(position=record("connect_four"),
                                       settings=settings(bot="level(3)")), timeout=20)
    assert r.analysis.candidates
    assert r.analysis.iterations <= want["iterations"]
