"""MCTSBot's fresh searches are seeded by the position, not by how many
searches came before, so a bot rebuilt at a position (a server answering as
this bot) draws the same numbers; a restarted bot's next game draws others."""
from __future__ import annotations

import random

from easel import engine
from easel.engine.contract_ids import PLAYER_CHANCE
from easel.search.mcts import MCTSBot


def _after_chance_positions(game, steps: int, seed: int):
    """Positions of random play, each just after a chance outcome."""
    rng = random.Random(seed)
    state, out = game.new_initial_state(), []
    for _ in range(steps):
        if state.is_terminal():
            break
        chance = state.current_player() == PLAYER_CHANCE
        action = (engine.draw_outcome(state, rng) if chance
                  else rng.choice(state.legal_actions()))
        state.apply_action(action)
        if chance and state.current_player() >= 0 and len(state.legal_actions()) > 1:
            out.append(state.clone())
    return out


def test_a_fresh_search_draws_the_same_numbers_however_many_came_before():
    game = engine.load_game("vangogh(players=2)", "core")
    positions = _after_chance_positions(game, 300, seed=4)
    assert len(positions) >= 5
    busy = MCTSBot(game, iterations=40, seed=9)
    for p in positions[:-1]:               # searches (fresh after each chance event)
        busy.step(p.clone())
    fresh = MCTSBot(game, iterations=40, seed=9)
    last = positions[-1]
    assert busy.step(last.clone()) == fresh.step(last.clone())
    assert busy._search.seed == fresh._search.seed and busy._searches > fresh._searches == 1


def test_a_restarted_bot_does_not_replay_its_last_game():
    game = engine.load_game("connect_four", "core")
    bot = MCTSBot(game, iterations=40, seed=9)
    bot.restart()                           # before any game: nothing changes
    bot.step(game.new_initial_state())
    first = bot._search.seed
    other = MCTSBot(game, iterations=40, seed=9)
    other.step(game.new_initial_state())
    assert other._search.seed == first
    bot.restart()
    bot.step(game.new_initial_state())
    assert bot._search.seed != first
