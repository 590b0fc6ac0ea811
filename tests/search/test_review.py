"""Game review (search/review.py, docs/review.md): turns reviewed once, the
thresholds, a random player flagged far more than a search, equal bots
flagged about equally, and `easel review`'s errors and outputs."""
from __future__ import annotations

import json

import pytest

from easel import engine
from easel.search import review
from easel.server.cli import main

# Van Gogh (two players) is the game the review's default budget is set
# for: its records check the turns; the verdicts are checked on games where a
# random player stays in the game long enough to be judged (docs/review.md,
# "What the review can tell": in Van Gogh a random player has lost within a
# few turns, and a lost game has no win probability left to lose).
GAME = "vangogh"
REVIEW_ITERATIONS = 300
STRONG = "mcts(iterations=1000)"


@pytest.fixture(scope="module")
def mixed_games(recorded_games):
    """Two Van Gogh games of random against mcts, one in each seat."""
    return recorded_games(GAME, ["random", "mcts(iterations=300)"], 2, 11)


def _records(path):
    return [json.loads(line) for line in path.read_text().splitlines()]


def _review(record, iterations=REVIEW_ITERATIONS, seed=1):
    game = engine.load_game(record["game"])
    r = review.Reviewer(game, review.Settings(iterations=iterations, seed=seed))
    return game, list(r.review(record["steps"]))


def _flags_by_spec(path, iterations=REVIEW_ITERATIONS):
    """{spec: [flagged turns, reviewed turns]} over every game of the file."""
    out: dict = {}
    for rec in _records(path):
        game, decisions = _review(rec, iterations)
        for p in range(game.num_players()):
            spec = rec["seats"][p]["spec"]
            mine = [d for d in decisions if d.player == p and not d.forced]
            tally = out.setdefault(spec, [0, 0])
            tally[0] += len(review.flagged(mine))
            tally[1] += len(mine)
    return out


# -- thresholds -------------------------------------------------------------------

@pytest.mark.parametrize("loss,cls", [(0.0, "good"), (0.0499, "good"), (0.05, "inaccuracy"),
                                      (0.0999, "inaccuracy"), (0.10, "mistake"),
                                      (0.1999, "mistake"), (0.20, "blunder"), (1.0, "blunder")])
def test_thresholds(loss, cls):
    assert review.classify(loss) == cls


def test_accuracy_halves_per_ten_points():
    assert review.decision_accuracy(0.0) == 100.0
    assert review.decision_accuracy(0.10) == pytest.approx(50.0)
    assert review.decision_accuracy(0.20) == pytest.approx(25.0)
    assert review.decision_accuracy(-0.5) == 100.0


def test_summary_counts_and_biggest_losses():
    def d(player, step, loss, forced=False):
        return review.ReviewedDecision(step, step // 2 + 1, player, [1], "x", 0.5, 20,
                                       "candidate", [2], "y", 0.5 + loss, 20, loss,
                                       review.classify(loss), forced=forced)
    ds = [d(0, 0, 0.0), d(1, 1, 0.3), d(0, 2, 0.07), d(1, 3, 0.12), d(0, 4, 0.0, forced=True),
          d(1, 5, 0.0)]
    s0, s1 = review.summarise(ds, 2)
    assert s0.decisions == 2 and s0.counts == {"good": 1, "inaccuracy": 1, "mistake": 0,
                                               "blunder": 0}
    assert s1.counts["blunder"] == 1 and s1.counts["mistake"] == 1
    assert [m for _, m, _ in s1.biggest] == [1, 2]          # largest first, move numbers
    assert s1.accuracy == pytest.approx((100 * 0.5 ** 3 + 100 * 0.5 ** 1.2 + 100) / 3)


# -- turns ------------------------------------------------------------------------

def test_a_turn_is_reviewed_once_at_its_first_decision():
    steps = [[-1, 9], [0, 1], [0, 2], [1, 3], [-1, 4], [1, 5], [1, 6], [0, 7]]
    points = review.decision_points(steps, 2)
    assert [(p.step, p.player, p.played) for p in points] == [
        (1, 0, (1, 2)), (3, 1, (3,)), (5, 1, (5, 6)), (7, 0, (7,))]


def test_every_decision_of_a_played_game_is_in_one_turn(mixed_games):
    rec = _records(mixed_games)[0]
    points = review.decision_points(rec["steps"], 2)
    covered = [i for p in points for i in range(p.step, p.step + len(p.played))]
    assert covered == [i for i, (pl, _) in enumerate(rec["steps"]) if pl >= 0]
    assert any(len(p.played) > 1 for p in points)       # Van Gogh turns of several decisions
    game, decisions = _review(rec, iterations=64)
    assert [d.step for d in decisions] == [p.step for p in points]
    for d, p in zip(decisions, points):
        assert d.played == list(p.played) and d.player == p.player
        assert 0.0 <= d.loss <= 1.0 and (d.forced or 0.0 <= d.played_win <= 1.0)


# -- the review's verdicts ------------------------------------------------------------

@pytest.mark.parametrize("spec", ["pig(winscore=30)", "connect_four"])
def test_random_is_flagged_far_more_than_mcts(recorded_games, spec):
    path = recorded_games(spec, ["random", STRONG], 4, 3)
    tally = _flags_by_spec(path, review.DEFAULT_ITERATIONS)
    (rf, rn), (mf, mn) = tally["random"], tally[STRONG]
    assert rn >= 12 and mn >= 12, tally
    assert rf / rn >= 0.15, tally                # the random side: flagged on many turns
    assert mf / mn <= (rf / rn) / 4, tally       # the search: at most a quarter as often


@pytest.mark.parametrize("spec,bot,games,iterations", [
    ("vangogh", "mcts(iterations=300)", 2, REVIEW_ITERATIONS),
    ("connect_four", STRONG, 6, review.DEFAULT_ITERATIONS)])
def test_equal_bots_are_flagged_about_equally(recorded_games, spec, bot, games, iterations):
    path = recorded_games(spec, [bot, bot], games, 5)
    flags = {0: [0, 0], 1: [0, 0]}
    for rec in _records(path):
        game, decisions = _review(rec, iterations)
        for p in (0, 1):
            mine = [d for d in decisions if d.player == p and not d.forced]
            flags[p][0] += len(review.flagged(mine))
            flags[p][1] += len(mine)
    rate = [flags[p][0] / flags[p][1] for p in (0, 1)]
    assert abs(rate[0] - rate[1]) <= 0.1, flags
    assert max(rate) <= 0.25, flags


def test_a_played_turn_the_search_ignored_is_valued_by_a_second_search():
    game = engine.load_game(GAME)
    state = game.new_initial_state()
    # the first decision point of a game that starts with a long turn
    # (random play until a turn of several decisions turns up)
    import random
    rng = random.Random(3)
    steps = []
    while True:
        if state.is_chance_node():
            a = engine.draw_outcome(state, rng)
        else:
            a = rng.choice(state.legal_actions())
        steps.append([state.current_player(), a])
        state.apply_action(a)
        points = review.decision_points(steps, 2)
        if len(points) >= 2 and len(points[-2].played) >= 3:
            break
    point = points[-2]
    before = game.new_initial_state()
    for _, a in steps[:point.step]:
        before.apply_action(a)
    d = review.Reviewer(game, review.Settings(iterations=40, seed=2)).review_point(before, point)
    assert d.source == "searched before its last decision"
    assert d.iterations > 40 and 0.0 <= d.played_win <= 1.0


# -- the command ------------------------------------------------------------------------

def test_cli_review_table_json_and_page(mixed_games, tmp_path, capsys):
    page = tmp_path / "review.html"
    assert main(["review", str(mixed_games), "--game-index", "1", "--iterations", "64",
                 "--html", str(page)]) == 0
    out = capsys.readouterr().out
    assert "players" in out and "accuracy" in out and "player 2" in out
    text = page.read_text()
    assert "<svg" in text and "http" not in text.replace("http://www.w3.org/2000/svg", "")
    assert main(["review", str(mixed_games), "--game-index", "0", "--iterations", "32",
                 "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["game"] == "vangogh" and len(data["players"]) == 2
    assert all(d["classification"] in review.CLASSES for d in data["decisions"])


def test_cli_review_reads_egn(mixed_games, tmp_path, capsys):
    egn_file = tmp_path / "games.egn"
    assert main(["records", "convert", str(mixed_games), str(egn_file)]) == 0
    capsys.readouterr()
    assert main(["review", str(egn_file), "--game-index", "1", "--iterations", "16",
                 "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["decisions"]


@pytest.mark.parametrize("args,words", [
    (["review", "/no/such/file.egn"], ["/no/such/file.egn"]),
    (["review", "{games}", "--game-index", "7"], ["has no game 7", "holds 2"]),
    (["review", "{games}"], ["more than one game", "--game-index"]),
])
def test_cli_review_errors_exit_2_naming_the_problem(mixed_games, capsys, args, words):
    args = [a.replace("{games}", str(mixed_games)) for a in args]
    assert main(args) == 2
    err = capsys.readouterr().err
    assert "easel review: error:" in err
    for w in words:
        assert w in err


def test_cli_review_refuses_a_negative_index(mixed_games, capsys):
    with pytest.raises(SystemExit) as e:
        main(["review", str(mixed_games), "--game-index", "-1"])
    assert e.value.code == 2 and "--game-index" in capsys.readouterr().err


def test_cli_review_names_an_illegal_step(mixed_games, tmp_path, capsys):
    rec = _records(mixed_games)[0]
    rec["steps"][5][1] = 10_000
    bad = tmp_path / "bad.jsonl"
    bad.write_text(json.dumps(rec) + "\n")
    assert main(["review", str(bad)]) == 2
    err = capsys.readouterr().err
    assert "step 6" in err and "not legal" in err


def test_several_players_each_judged_by_their_own_win_probability(recorded_games):
    path = recorded_games("pig(players=3,winscore=20)", ["random", STRONG, STRONG], 3, 2)
    rec = _records(path)[0]
    game, decisions = _review(rec, 400)
    assert {d.player for d in decisions} == {0, 1, 2}
    for d in decisions:
        assert d.forced or (0.0 <= d.best_win <= 1.0 and 0.0 <= d.played_win <= 1.0)
    # the mover's share of wins: at the start of a three-player game about a third
    assert 0.15 <= decisions[0].best_win <= 0.6
    summary = review.summarise(decisions, 3)
    assert [s.player for s in summary] == [0, 1, 2]
    assert sum(s.decisions for s in summary) == len([d for d in decisions if not d.forced])
