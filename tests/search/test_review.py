"""Game review (search/review.py, docs/review.md): turns reviewed once, the
thresholds, a random player flagged far more than a search, equal bots
flagged about equally, and `easel review`'s errors and outputs."""
from __future__ import annotations

import json
import random

import pytest

from easel import engine
from easel.search import review
from easel.server.cli import main

# Van Gogh (two players) is the game the review's default budget is set
# for: its records check the turns and the verdicts, as Pig's and Connect
# Four's do (in Van Gogh a random player has lost within a few turns: from
# there the points it throws away judge it, docs/review.md, "Points").
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


# -- the points term -------------------------------------------------------------

def _cand(margin, margin_sd, win=0.0, value=-1.5, visits=500):
    from easel.search.analysis import Candidate
    return Candidate(action=0, text="x", turn=[], visits=visits, value=value,
                     values=[value, -value], win_prob=win, scores=[40.0 + margin, 40.0],
                     ci=0.01, margin_sd=margin_sd)


def _losses(best, played, points=True):
    return review.losses(best, played, 0, (-3.0, 3.0), 30.0, points)


def test_points_lost_decide_a_turn_of_a_decided_game():
    # both turns lose the game (win probability 0) and sit at the bottom of
    # the search's value: only the points tell them apart
    best, played = _cand(-30.0, 7.0), _cand(-40.0, 7.0)
    loss, cause, se = _losses(best, played)
    # the spread over 500 visits, with two playouts of the score scale added
    one = ((500 * 7.0 ** 2 + 2 * 30.0 ** 2) / 502 / 502) ** 0.5
    assert se == pytest.approx(one * 2 ** 0.5) and 0.4 < se < 0.5
    assert loss == pytest.approx((10.0 - se) / (review.POINTS_UNIT * 30.0))
    assert cause == "points" and review.classify(loss) == "blunder"
    # no points term where the search does not weigh the margin
    assert _losses(best, played, points=False)[:2] == (0.0, "")
    # a drop within the margins' noise is no loss; a gain is none either
    assert _losses(_cand(-30.0, 7.0, visits=2), _cand(-40.0, 7.0, visits=2))[0] == 0.0
    assert _losses(played, best)[:2] == (0.0, "")
    # a drop of whole games is at most 1, as a drop in win probability is
    assert _losses(_cand(40.0, 1.0), _cand(-100.0, 1.0))[0] == 1.0


def test_the_win_probability_still_decides_when_it_drops_most():
    loss, cause, _ = _losses(_cand(2.0, 5.0, win=0.6, value=0.5),
                             _cand(1.0, 5.0, win=0.3, value=0.4))
    assert cause == "win probability" and loss > 0.25


def test_the_search_keeps_each_turns_margin_and_its_spread():
    """The trees' turn statistics sum the root player's final margin over
    the other player and its square (search/_mcts.pyx): the margin's mean is
    the expected scores' difference, and its standard error is read from
    the spread (analysis.Candidate.margin_sd)."""
    from easel.search.tree_search import Search
    game = engine.load_game(GAME)
    state, rng = game.new_initial_state(), random.Random(1)
    while state.is_chance_node():
        state.apply_action(engine.draw_outcome(state, rng))
    search = Search(game, state, seed=3)
    search.run(600)
    tree, p = search._trees[0], state.current_player()
    ix, rows = tree.children(0)
    checked = 0
    for row in rows:
        if row["ext"] < 0:
            continue
        st = tree.turn_stats(int(row["ext"]))
        n = float(st["n"])
        if n < 2:
            continue
        assert st["sum_margin"] / n == pytest.approx(
            (st["sum_score"][p] - st["sum_score"][1 - p]) / n)
        assert st["sum_margin2"] / n >= (st["sum_margin"] / n) ** 2 - 1e-9
        checked += 1
    assert checked >= 2
    cands = search.analysis(top_k=4).candidates
    assert all(c.margin_sd is not None and 0 < c.margin_sd < 100 for c in cands)
    c4 = engine.load_game("connect_four")
    s4 = Search(c4, c4.new_initial_state(), seed=3)
    s4.run(100)
    assert all(c.margin_sd is None for c in s4.analysis(top_k=2).candidates)


def test_the_margin_cap_lets_a_search_weigh_points_past_one_score_scale():
    """search option margin_cap (search/_mcts.pyx): a bot's search stops
    weighing the margin at one score scale; the review's (MARGIN_CAP) goes on."""
    from easel.search.tree_search import Search
    game = engine.load_game("pig(winscore=30)")      # score scale 15
    state = game.new_initial_state()
    for _ in range(5):                               # roll five sixes: stopping wins 30 to 0
        state.apply_action(0)
        state.apply_action(5)
    for cap, value in ((1.0, 1.0 + 1.0), (review.MARGIN_CAP, 1.0 + 30 / 15)):
        s = Search(game, state, seed=1, margin_weight=1.0, margin_cap=cap)
        s.run(50)
        stop = next(c for c in s.analysis().candidates if c.text == "stop")
        assert stop.value == pytest.approx(value) and stop.margin_sd == 0.0
        assert s.value_range() == (-1.0 - cap, 1.0 + cap)


def test_the_table_says_points_when_the_points_decided():
    from rich.console import Console

    from easel.server.commands.review import render
    game = engine.load_game(GAME)
    d = review.ReviewedDecision(4, 3, 1, [1], "x", 0.0, 300, "candidate", [2], "y", 0.0, 300,
                                0.3, "blunder", played_margin=-41.0, best_margin=-30.5,
                                margin_se=0.8, cause="points")
    console = Console(width=200, record=True)
    for table in render(game, [d], review.Settings(), flagged_only=False):
        console.print(table)
    assert "points (margin -41.0 against -30.5)" in console.export_text()


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

# Van Gogh: 4 games (2 in each seat) of random against STRONG, reviewed at
# the default budget: about 32 s on one core (27 of them the review), the
# random side flagged on 20 of 72 turns (13 of them by points: it has lost
# within a few turns, and from there only the points it throws away tell),
# the search on 3 of 75 (docs/review.md, "What the review can tell").
@pytest.mark.parametrize("spec", ["pig(winscore=30)", "connect_four", "vangogh"])
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
