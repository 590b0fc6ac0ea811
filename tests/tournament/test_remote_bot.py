"""A remote(...) bot plays as the same spec played locally (issue #27, defect 9).

It used to lose every game to it: each Suggest in the middle of a turn
followed the plan the server had made at the turn's start, where the local
bot searches the position it is in, reusing its tree. Now the remote bot asks
the server to play as the bot (SearchSettings.play_as_bot), which rebuilds
the bot the seat has been since the game began (server/bot_replay.py)."""
from __future__ import annotations

import os
import random

import pytest

from easel import engine
from easel.engine.contract_ids import PLAYER_CHANCE
from easel.search.arena import sample_outcome
from easel.search.specs import make_bot, parse_spec


@pytest.fixture(scope="module")
def servers():
    """Two engine servers: one that keeps the bot of each seat between calls,
    one that must rebuild it at every call (bot cache off)."""
    from easel.server.analysis import Limits
    from easel.server.service import build_server
    kept = build_server(port=0, limits=Limits()).start()
    rebuilt = build_server(port=0, limits=Limits(bot_cache_entries=0)).start()
    yield {"kept": kept, "rebuilt": rebuilt}
    kept.stop(0)
    rebuilt.stop(0)


def shadow_games(game_string: str, spec: str, server, seat: int = 0, games: int = 1,
                 seed: int = 11, decisions: int = 80):
    """Play `games` games of local bots (one object per seat, restarted
    between games) while a remote bot of the same spec and seed shadows
    `seat`: [(local move, remote move)] at each of the seat's decisions (the
    first `decisions` of each game)."""
    game = engine.load_game(game_string, "core")
    n = game.num_players()
    bots = [make_bot(parse_spec(spec).with_seed(seed + p), game) for p in range(n)]
    shadow = make_bot(f"remote(target=127.0.0.1:{server.port},spec={spec},seed={seed + seat})",
                      game)
    pairs = []
    for g in range(games):
        for b in bots + [shadow]:
            b.restart()
        chance = random.Random(1000 + g)
        state = game.new_initial_state()
        asked = 0
        while not state.is_terminal() and asked < decisions:
            p = state.current_player()
            if p == PLAYER_CHANCE:
                action = sample_outcome(state.chance_outcomes(), chance.random())
            else:
                action = bots[p].step(state.clone())
                if p == seat:
                    pairs.append((action, shadow.step(state.clone())))
                    asked += 1
            state.apply_action(action)
            shadow.inform(action)
    shadow.close()
    return pairs


@pytest.mark.parametrize("game,seat,spec", [
    ("vangogh(players=2)", 0, "mcts(iterations=60,threads=1)"),
    ("vangogh(players=3)", 1, "mcts(iterations=40,threads=1)"),
    ("starving_artists", 1, "mcts(iterations=60,threads=1,policy_bias=0)"),
    ("pig", 0, "mcts(iterations=60,threads=1)"),
    ("vangogh(players=2)", 1, "level(1)"),
    ("couleurs_de_paris(players=2)", 0, "mcts(iterations=50,threads=1,temperature=0.1)"),
])
def test_the_remote_bot_makes_the_local_bots_move_at_every_decision(servers, game, seat, spec):
    pairs = shadow_games(game, spec, servers["kept"], seat=seat)
    assert len(pairs) >= 10
    differ = [i for i, (here, there) in enumerate(pairs) if here != there]
    assert not differ, f"{len(differ)} of {len(pairs)} decisions differ, first at {differ[0]}"


def test_the_remote_bot_plays_long_chains_and_second_games_as_the_local_bot(servers):
    """Connect Four has no chance event, so each bot's tree lives the whole
    game; the bots play two games each (restart between them)."""
    pairs = shadow_games("connect_four", "mcts(iterations=80,threads=1)", servers["kept"],
                         games=2)
    assert [here for here, _ in pairs] == [there for _, there in pairs]


@pytest.mark.parametrize("spec", ["mcts(iterations=60,threads=1)",
                                  "mcts(iterations=40,threads=2,form=closed)",
                                  "mcts(iterations=40,threads=1,reuse=false)"])
def test_a_server_without_the_bot_rebuilds_it_and_answers_the_same(servers, spec):
    """No cache: every call redoes the seat's searches since its tree last
    started afresh, and the moves are the local bot's all the same."""
    pairs = shadow_games("vangogh(players=2)", spec, servers["rebuilt"])
    assert [here for here, _ in pairs] == [there for _, there in pairs]
    assert servers["rebuilt"].servicer.bots.hits == 0


# The run at 200 games with EASEL_FULL=1 (about 3 minutes of one core);
# 60 by default, which already plays every seat and first player many times over.
EVEN_GAMES = 200 if os.environ.get("EASEL_FULL") == "1" else 60


@pytest.mark.slow
@pytest.mark.timeout(1800)
def test_local_and_remote_bots_of_one_spec_play_the_same_games(servers):
    """The issue's run, EVEN_GAMES games instead of 16, at 50 iterations a
    decision (100 in the issue):
    `easel arena "vangogh(players=2)" --bots "mcts(iterations=50,threads=1)"
    "remote(target=...,spec=mcts(iterations=50,threads=1))" --games 200 --seed 7`.
    Before the fix the local bot won 16 of 16. Even means: the arena plays
    exactly the games of the same spec against itself, local on both sides, at
    the same seed (every step of every game), so the score is the one two
    copies of the local bot make (a score interval would also count the
    seed's luck: at 100 iterations and this seed the first copy scores 0.41
    against the second)."""
    from easel.search.arena import run_arena
    address = f"127.0.0.1:{servers['kept'].port}"
    spec = "mcts(iterations=50,threads=1)"
    remote = run_arena("vangogh(players=2)", [spec, f"remote(target={address},spec={spec})"],
                       games=EVEN_GAMES, seed=7, jobs=1)
    local = run_arena("vangogh(players=2)", [spec, spec], games=EVEN_GAMES, seed=7, jobs=1)
    assert remote.summary["games"] == local.summary["games"] == EVEN_GAMES
    differ = [i for i, (a, b) in enumerate(zip(remote.records, local.records))
              if a["steps"] != b["steps"] or a["returns"] != b["returns"]]
    assert not differ, f"{len(differ)} of {EVEN_GAMES} games differ, first game {differ[0]}"
    assert (remote.summary["bots"][0]["win_rate"]["mean"]
            == local.summary["bots"][0]["win_rate"]["mean"])


def test_a_server_that_ignores_play_as_bot_is_refused(monkeypatch):
    """A server older than play_as_bot answers an analysis (the plan made at
    the turn's start): the remote bot says so instead of playing weaker."""
    from easel.server.analysis import Limits
    from easel.server.service import build_server
    srv = build_server(port=0, limits=Limits()).start()
    servicer = srv.servicer

    def as_before(request, context, state, record):       # what an older server does
        request.settings.play_as_bot = False
        return type(servicer).Suggest.__wrapped__(servicer, request, context)

    monkeypatch.setattr(servicer, "_play_as_bot", as_before)
    try:
        game = engine.load_game("connect_four", "core")
        there = make_bot(f"remote(target=127.0.0.1:{srv.port},spec=mcts(iterations=20))", game)
        with pytest.raises(RuntimeError, match="predates SearchSettings.play_as_bot"):
            there.step(game.new_initial_state())
        there.close()
    finally:
        srv.stop(0)
