"""Search options loss_weight and loss_power (search/params.py, search/_mcts.pyx
`_utilities`): in a one-player game whose losses return min_utility +
loss_span * progress (engine/kit.py GameFacts), a loss counts min_utility +
loss_weight * progress ** loss_power, at most the game's largest return; the
returns themselves (and the win share) are untouched, and games of several
players are not affected."""
import pytest

from easel import engine
from easel.search.errors import SearchError
from easel.search.specs import parse_spec
from easel.search.tree_search import Search


def _decision(game_string: str):
    game = engine.load_game(game_string)
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    return game, state


def _one_playout(game, state, seed, **options):
    """The value of the one candidate a single iteration visits: the utility
    of that iteration's playout (the same playout for every option here,
    since the first iteration's path does not depend on values)."""
    s = Search(game, state, seed=seed, **options)
    s.run(1)
    (c,) = [c for c in s.analysis().candidates if c.visits]
    return c.text, c.value


@pytest.mark.parametrize("game_string, span", [("starving_artists(players=1)", 0.5),
                                               ("vangogh(players=1)", 1.0)])
def test_a_solo_loss_counts_the_weighted_power_of_its_progress(game_string, span):
    game, state = _decision(game_string)
    assert game.facts().loss_span == span
    losses = 0
    for seed in range(6):
        text, plain = _one_playout(game, state, seed, loss_weight=0.0)
        text2, shaped = _one_playout(game, state, seed, loss_weight=1.9, loss_power=8)
        _, same = _one_playout(game, state, seed, loss_weight=span, loss_power=1)
        assert text2 == text
        if plain >= 0:                  # a win: untouched
            assert shaped == plain == same
            continue
        losses += 1
        progress = (plain + 1.0) / span
        assert 0 <= progress <= 1
        assert shaped == pytest.approx(min(-1.0 + 1.9 * progress ** 8, 1.0))
        assert same == pytest.approx(plain)     # the game's own weight and power: its returns
    assert losses, "no playout lost: the test saw nothing"


def test_the_largest_weight_counts_a_loss_as_a_win_only_at_the_goal():
    # loss_weight's range ends at 2, the span of the returns: a loss at
    # progress p counts -1 + 2p, below a win's 1 until the goal itself.
    game, state = _decision("starving_artists(players=1)")
    losses = 0
    for seed in range(4):
        _, plain = _one_playout(game, state, seed, loss_weight=0.0)
        _, shaped = _one_playout(game, state, seed, loss_weight=2.0, loss_power=1)
        if plain < 0:
            losses += 1
            progress = 2 * (plain + 1.0)
            assert shaped == pytest.approx(-1.0 + 2.0 * progress) and shaped < 1.0
    assert losses, "no playout lost: the test saw nothing"


def test_games_of_several_players_are_not_affected():
    game, state = _decision("starving_artists(players=2)")
    assert game.facts().loss_span == 0.0
    a = Search(game, state, seed=3, loss_weight=0.0)
    b = Search(game, state, seed=3, loss_weight=1.9, loss_power=8)
    a.run(200)
    b.run(200)
    key = lambda s: [(c.text, c.visits, c.value) for c in s.analysis(top_k=5).candidates]
    assert key(a) == key(b)


@pytest.mark.parametrize("options, named", [(dict(loss_weight=2.5), "loss_weight"),
                                            (dict(loss_weight=-0.1), "loss_weight"),
                                            (dict(loss_power=0.5), "loss_power"),
                                            (dict(loss_power=float("nan")), "loss_power")])
def test_out_of_range_values_are_refused_by_name(options, named):
    game, state = _decision("starving_artists(players=1)")
    with pytest.raises(SearchError, match=named):
        Search(game, state, seed=1, **options)


def test_a_bot_spec_takes_both():
    spec = parse_spec("mcts(iterations=100,loss_weight=1.9,loss_power=8)")
    assert spec.args["loss_weight"] == 1.9 and spec.args["loss_power"] == 8


def test_solo_starving_artists_searches_with_the_near_miss_weight_by_default():
    """The game's default (docs/starving-artists-solo.md, "Near misses"):
    a default search is the one with loss_weight=1.9, loss_power=8, and
    loss_weight=0 gives the rules' returns back. Van Gogh keeps its returns."""
    game, state = _decision("starving_artists(players=1)")
    differs = 0
    for seed in range(6):
        _, default = _one_playout(game, state, seed)
        _, chosen = _one_playout(game, state, seed, loss_weight=1.9, loss_power=8)
        _, plain = _one_playout(game, state, seed, loss_weight=0.0)
        assert default == chosen
        differs += default != plain
    assert differs, "every playout won: the test saw nothing"
    game, state = _decision("vangogh(players=1)")
    assert [_one_playout(game, state, s)[1] for s in range(3)] == \
        [_one_playout(game, state, s, loss_weight=0.0)[1] for s in range(3)]
