"""The arena: duplicate blocks, seat rotations, statistics, JSON output, CLI."""
from __future__ import annotations

import json
import math
import re
from collections import Counter

import pytest

from easel import engine
from easel.search.arena import (ArenaError, bot_labels, derive_seed, format_report, plan,
                          run_arena, sample_outcome, seat_rotations)
from easel.search.specs import BotSpecError
from easel.search.stats import elo_of, interval, seat_outcomes, summarize
from easel.server.cli import main

PIG = "pig(winscore=20)"


# -- seat rotations -----------------------------------------------------------------

@pytest.mark.parametrize("k,n", [(2, 2), (3, 3), (2, 3), (2, 5), (3, 2), (4, 2), (5, 3),
                                 (4, 4), (1, 2), (9, 2)])
def test_each_bot_sits_in_each_seat_equally(k, n):
    rotations = seat_rotations(k, n)
    assert all(len(r) == n for r in rotations)
    per_seat = [Counter(r[s] for r in rotations) for s in range(n)]
    for s in range(n):
        assert set(per_seat[s]) == set(range(k)), (s, per_seat[s])
        assert len(set(per_seat[s].values())) == 1, (s, per_seat[s])


def test_more_bots_than_seats_meet_every_opponent_in_both_orders():
    rotations = seat_rotations(4, 2)
    assert sorted(map(tuple, rotations)) == sorted(
        (a, b) for a in range(4) for b in range(4) if a != b)


def test_plan_rounds_up_to_whole_blocks_and_seeds_apart():
    game = engine.load_game("connect_four")
    tasks = plan(game, ["random", "greedy"], games=5, seed=1)
    assert len(tasks) == 6 and [t.block for t in tasks] == [0, 0, 1, 1, 2, 2]
    assert len({t.block_seed for t in tasks}) == 3
    seeds = [seed for t in tasks for _, _, seed in t.seats]
    assert len(set(seeds)) == len(seeds)
    again = plan(game, ["random", "greedy"], games=5, seed=1)
    assert again == tasks
    assert plan(game, ["random", "greedy"], games=5, seed=2)[0].block_seed != tasks[0].block_seed


def test_derive_seed_is_stable():
    assert derive_seed(1, "block", 0) == derive_seed(1, "block", 0)
    assert derive_seed(1, "block", 0) != derive_seed(1, "block", 1)
    assert 0 <= derive_seed("x") < 2 ** 63


def test_sample_outcome():
    outcomes = [(0, 0.25), (3, 0.5), (7, 0.25)]
    assert [sample_outcome(outcomes, u) for u in (0.0, 0.24, 0.26, 0.74, 0.76, 0.999999)] == \
        [0, 0, 3, 3, 7, 7]


# -- duplicate blocks, verified from the records -------------------------------------------

def test_blocks_share_chance_outcomes_and_rotate_seats(tmp_path):
    path = tmp_path / "r.jsonl"
    result = run_arena("pig(winscore=50)", ["heuristic", "random"], games=12, seed=4,
                       records_path=str(path))
    records = [json.loads(line) for line in path.read_text().splitlines()]
    assert len(records) == 12 == result.summary["games"]
    by_block = {}
    for rec in records:
        by_block.setdefault(rec["block"], []).append(rec)
    assert len(by_block) == 6
    firsts = []
    for block, recs in by_block.items():
        assert len({r["block_seed"] for r in recs}) == 1
        seatings = sorted(tuple(s["bot"] for s in r["seats"]) for r in recs)
        assert seatings == [(0, 1), (1, 0)]
        rolls = [[a for p, a in r["steps"] if p == -1] for r in recs]
        common = min(map(len, rolls))
        assert common > 5
        # pig's die is the same at every roll, so the i-th roll must agree
        assert rolls[0][:common] == rolls[1][:common]
        # and the two games are different games (the bots sit differently)
        assert recs[0]["steps"] != recs[1]["steps"]
        firsts.append(tuple(rolls[0][:5]))
    assert len(set(firsts)) > 1, "every block rolled the same dice"


def _strip(records):
    """Records without their timings and dates, which differ from run to run."""
    return [{k: v for k, v in r.items() if k not in ("think", "seconds", "date")}
            for r in records]


def test_same_seed_same_games_and_jobs_do_not_change_them():
    a = run_arena(PIG, ["greedy", "random"], games=6, seed=9)
    b = run_arena(PIG, ["greedy", "random"], games=6, seed=9, jobs=2)
    c = run_arena(PIG, ["greedy", "random"], games=6, seed=10)
    assert _strip(a.records) == _strip(b.records)
    assert _strip(a.records) != _strip(c.records)


def test_spec_seed_changes_the_bot_but_keeps_games_reproducible():
    a = run_arena("connect_four", ["random(seed=1)", "random"], games=4, seed=0)
    b = run_arena("connect_four", ["random(seed=2)", "random"], games=4, seed=0)
    c = run_arena("connect_four", ["random(seed=1)", "random"], games=4, seed=0)
    assert [r["steps"] for r in a.records] == [r["steps"] for r in c.records]
    assert [r["steps"] for r in a.records] != [r["steps"] for r in b.records]
    assert a.records[0]["seats"][0]["spec"] == "random(seed=1)"


def test_two_bots_in_a_three_player_game():
    result = run_arena("pig(players=3,winscore=15)", ["heuristic", "random"], games=4, seed=1)
    s = result.summary
    assert s["block_size"] == 2 and s["rotations"] == [[0, 1, 0], [1, 0, 1]]
    assert sum(b["games"] for b in s["bots"]) == 3 * s["games"]
    for b in s["bots"]:
        assert [x["games"] for x in b["by_seat"]] == [2, 2, 2]
    assert s["elo"] is not None and s["elo"]["pairs"] is None    # pairs are for 2-player games


def test_solo_game_reports_scores_not_seats():
    s = run_arena("vangogh(players=1)", ["heuristic", "random"], games=2, seed=1).summary
    assert s["first_player_advantage"] is None and s["elo"] is None
    assert all(b["mean_margin"]["mean"] > 0 for b in s["bots"])    # the margin is the score


# -- statistics ---------------------------------------------------------------------

def test_seat_outcomes_shares_ranks_and_margins():
    assert seat_outcomes([1.0, -1.0]) == [(1.0, 1.0, 2.0), (0.0, 2.0, -2.0)]
    assert seat_outcomes([0.0, 0.0]) == [(0.5, 1.5, 0.0), (0.5, 1.5, 0.0)]
    out = seat_outcomes([1.0, 1.0, -1.0], scores=[50, 50, 20])
    assert [o[0] for o in out] == [0.5, 0.5, 0.0]
    assert [o[1] for o in out] == [1.5, 1.5, 3.0]
    assert [o[2] for o in out] == [0.0, 0.0, -30.0]
    out = seat_outcomes([0.5, 1.0, -1.0, 0.5], scores=[30, 40, 10, 30])
    assert [o[1] for o in out] == [2.5, 1.0, 4.0, 2.5]
    assert [o[2] for o in out] == [-10.0, 10.0, -30.0, -10.0]


def test_interval_matches_a_hand_computed_t_interval():
    iv = interval([0.0, 1.0, 0.5, 1.0])
    mean = 0.625
    sd = math.sqrt(sum((x - mean) ** 2 for x in [0.0, 1.0, 0.5, 1.0]) / 3)
    half = 3.182446305284263 * sd / 2
    assert iv["mean"] == pytest.approx(mean)
    assert iv["low"] == pytest.approx(mean - half) and iv["high"] == pytest.approx(mean + half)
    assert interval([0.7])["low"] is None
    clamped = interval([0.0, 1.0, 1.0, 1.0], bounds=(0.0, 1.0))
    assert clamped["high"] == 1.0
    all_won = interval([1.0] * 10, bounds=(0.0, 1.0))
    assert all_won["high"] == 1.0 and all_won["low"] == pytest.approx(0.025 ** 0.1)


def test_elo():
    assert elo_of(0.5) == 0.0
    assert elo_of(0.75) == pytest.approx(400 * math.log10(3))
    assert elo_of(0.25) == pytest.approx(-400 * math.log10(3))
    assert elo_of(1.0) > 1000 and elo_of(0.0) < -1000


def test_summary_of_a_known_case():
    # Two blocks of two games; bot 0 wins 3 games and draws 1.
    def rec(block, bots, returns):
        return {"block": block, "returns": returns, "scores": None, "steps": [],
                "decisions": 10, "seats": [{"bot": b} for b in bots],
                "think": [0.1, 0.2], "seat_decisions": [5, 5]}
    records = [rec(0, [0, 1], [1, -1]), rec(0, [1, 0], [-1, 1]),
               rec(1, [0, 1], [1, -1]), rec(1, [1, 0], [0, 0])]
    s = summarize(records, ["a", "b"], 2)
    a, b = s["bots"]
    assert a["games"] == 4 and a["win_rate"]["mean"] == pytest.approx(0.875)
    assert b["win_rate"]["mean"] == pytest.approx(0.125)
    assert a["mean_rank"]["mean"] == pytest.approx(1.125)
    assert a["mean_margin"]["mean"] == pytest.approx(1.5)
    assert a["win_rate"]["n"] == 2                  # intervals are over the two blocks
    assert s["elo"]["diff"] == pytest.approx(400 * math.log10(0.875 / 0.125))
    assert s["elo"]["pairs"] == {"LL": 0, "LD": 0, "DD_WL": 0, "WD": 1, "WW": 1}
    assert s["draw_rate"] == 0.25
    # seat 0 won, lost (block 0: 0.5), won, drew (block 1: 0.75)
    assert s["seats"][0]["win_rate"]["mean"] == pytest.approx(0.625)
    assert s["seats"][1]["win_rate"]["mean"] == pytest.approx(0.375)
    assert s["first_player_advantage"]["mean"] == pytest.approx(0.125)
    assert a["by_seat"][0] == {"seat": 0, "games": 2, "win_rate": 1.0}
    assert a["by_seat"][1] == {"seat": 1, "games": 2, "win_rate": 0.75}
    assert a["seconds_per_decision"] == pytest.approx((0.1 + 0.2 + 0.1 + 0.2) / 20)


def test_random_against_random_is_even():
    result = run_arena(PIG, ["random", "random"], games=120, seed=5)
    s = result.summary
    assert bot_labels(["random", "random"]) == ["random#1", "random#2"]
    a, b = s["bots"]
    assert a["win_rate"]["mean"] + b["win_rate"]["mean"] == pytest.approx(1.0)
    assert a["mean_rank"]["mean"] + b["mean_rank"]["mean"] == pytest.approx(3.0)
    assert a["mean_margin"]["mean"] == pytest.approx(-b["mean_margin"]["mean"])
    assert a["win_rate"]["low"] <= 0.5 <= a["win_rate"]["high"]
    assert 0.35 < a["win_rate"]["mean"] < 0.65
    assert s["elo"]["low"] <= 0.0 <= s["elo"]["high"]
    assert a["win_rate"]["high"] - a["win_rate"]["low"] < 0.3


def test_greedy_beats_random_at_connect_four():
    result = run_arena("connect_four", ["greedy", "random"], games=60, seed=3)
    s = result.summary
    g = s["bots"][0]
    assert g["win_rate"]["low"] > 0.55, g
    assert s["elo"]["low"] > 0
    assert s["elo"]["los"] > 0.99


def test_heuristic_beats_random_at_van_gogh():
    result = run_arena("vangogh", ["heuristic", "random"], games=6, seed=1)
    assert result.summary["bots"][0]["win_rate"]["mean"] > 0.8
    assert result.summary["bots"][0]["mean_margin"]["mean"] > 5
    assert result.records[0]["scores"] is not None


def test_arena_refuses_bad_setups():
    with pytest.raises(BotSpecError, match="bogus"):
        run_arena(PIG, ["random", "bogus"], games=2)
    with pytest.raises(ArenaError, match="at least two"):
        run_arena(PIG, ["random"], games=2)
    with pytest.raises(ArenaError, match="games"):
        run_arena(PIG, ["random", "random"], games=0)
    with pytest.raises(engine.GameSpecError):
        run_arena("pig(winscore=0)", ["random", "random"], games=2)


class _Stop(Exception):
    pass


def _interrupt_after(n):
    """An on_record hook that presses Ctrl-C once n games have finished."""
    seen = []

    def on_record(rec):
        seen.append(rec)
        if len(seen) == n:
            raise KeyboardInterrupt
    return on_record


@pytest.mark.parametrize("jobs", [1, 2])
def test_interrupt_keeps_what_was_finished(tmp_path, jobs):
    path = tmp_path / "r.jsonl"
    result = run_arena(PIG, ["random", "random"], games=400, seed=1, jobs=jobs,
                       records_path=str(path), on_record=_interrupt_after(3))
    assert result.interrupted and result.summary["interrupted"]
    assert result.summary["games"] == 3 == len(path.read_text().splitlines())
    assert "(interrupted)" in format_report(result.summary)


@pytest.mark.parametrize("jobs", [1, 2])
def test_resume_finishes_an_interrupted_run_as_the_whole_run_would(tmp_path, jobs):
    whole = run_arena(PIG, ["greedy", "random"], games=10, seed=3)
    path = tmp_path / "r.jsonl"
    first = run_arena(PIG, ["greedy", "random"], games=10, seed=3, jobs=jobs,
                      records_path=str(path), on_record=_interrupt_after(4))
    assert first.interrupted and len(path.read_text().splitlines()) == 4
    with open(path, "a", encoding="utf-8") as f:    # killed while writing the fifth
        f.write('{"format":"easel-record-v1","game":"pig(wins')
    resumed = run_arena(PIG, ["greedy", "random"], games=10, seed=3, jobs=jobs,
                        records_path=str(path), resume=True)
    assert not resumed.interrupted and resumed.summary["resumed_games"] == 4
    assert _strip(resumed.records) == _strip(whole.records)
    on_disk = sorted((json.loads(x) for x in path.read_text().splitlines()),
                     key=lambda r: r["index"])
    assert _strip(on_disk) == _strip(whole.records)
    for key in ("games", "elo", "seats"):
        assert resumed.summary[key] == whole.summary[key], key
    timeless = [[{k: v for k, v in b.items() if k != "seconds_per_decision"}
                 for b in run.summary["bots"]] for run in (resumed, whole)]
    assert timeless[0] == timeless[1]
    assert "4 game(s) kept from the records file" in format_report(resumed.summary)
    text = path.read_text()
    path.write_text(text[:-1])      # a whole record whose newline was never written
    again = run_arena(PIG, ["greedy", "random"], games=10, seed=3, records_path=str(path),
                      resume=True)                  # nothing left to play
    assert path.read_text().endswith("\n") and len(path.read_text().splitlines()) == 10
    assert again.summary["resumed_games"] == 10 and _strip(again.records) == _strip(whole.records)


def test_resume_with_no_file_yet_plays_the_whole_run(tmp_path):
    path = tmp_path / "new.jsonl"
    result = run_arena(PIG, ["greedy", "random"], games=4, seed=3, records_path=str(path),
                       resume=True)
    assert result.summary["resumed_games"] == 0 and len(path.read_text().splitlines()) == 4


def test_resume_refuses_records_of_another_run_and_leaves_the_file(tmp_path, capsys):
    path = tmp_path / "r.jsonl"
    run_arena(PIG, ["greedy", "random"], games=6, seed=3, records_path=str(path))
    text = path.read_text()
    lines = text.splitlines()

    def refused(match, content=text, **kw):
        path.write_text(content)
        args = dict(games=6, seed=3, bots=["greedy", "random"]) | kw
        with pytest.raises(ArenaError, match=match):
            run_arena(PIG, args["bots"], games=args["games"], seed=args["seed"],
                      records_path=str(path), resume=True)
        assert path.read_text() == content

    refused(r"line 1: game 0 was played with another block_seed, seats", seed=4)
    refused(r"line 1: game 0 was played with another seats", bots=["greedy", "greedy"])
    refused(r"game index 4 is not a game of this run \(0 to 3\)", games=4)
    refused(r"line 2: game 0 is in the file twice",
            content="\n".join([lines[0], lines[0]]) + "\n")
    refused(r"line 2: not JSON", content="\n".join([lines[0], "{oops", lines[2]]) + "\n")
    bad = json.loads(lines[0])
    bad["steps"][3][1] = 99
    refused(r"line 1: step 4: ", content=json.dumps(bad) + "\n")
    with pytest.raises(ArenaError, match="--resume needs the --records file"):
        run_arena(PIG, ["greedy", "random"], games=2, resume=True)
    assert main(["arena", PIG, "--bots", "greedy", "random", "--games", "6", "--seed", "5",
                 "--records", str(path), "--resume", "--no-progress"]) == 2
    assert "another block_seed" in capsys.readouterr().err


def _egn_records(path):
    from easel.search.recordfiles import read_records
    out = list(read_records(path))
    assert not [r for _, r in out if not isinstance(r, dict)], out
    return [r for _, r in out]


@pytest.mark.parametrize("jobs", [1, 2])
def test_records_in_the_text_form_and_their_resume(tmp_path, jobs):
    """--records FILE.egn writes EGN (docs/records.md), one game at a time;
    --resume keeps its games, drops one cut short, and ends as the whole run."""
    whole = run_arena(PIG, ["greedy", "random"], games=10, seed=3)
    path = tmp_path / "r.egn"
    first = run_arena(PIG, ["greedy", "random"], games=10, seed=3, jobs=jobs,
                      records_path=str(path), on_record=_interrupt_after(4))
    assert first.interrupted
    text = path.read_text()
    assert text.startswith('[Format "EGN 1"]\n[Game "pig(winscore=20)"]\n')
    assert text.count('[Format "EGN 1"]') == 4 and "*Roll " in text
    assert _strip(sorted(_egn_records(path), key=lambda r: r["index"])) == _strip(first.records)
    for cut in ('[Format "EGN 1"]\n[Game "pig(wins', '[Format "EGN 1"]\n[Game "pig"]\n\n1. P0: ro'):
        path.write_text(text + cut)         # killed while writing the fifth
        resumed = run_arena(PIG, ["greedy", "random"], games=10, seed=3, jobs=jobs,
                            records_path=str(path), resume=True)
        assert resumed.summary["resumed_games"] == 4
        assert _strip(resumed.records) == _strip(whole.records)
        on_disk = sorted(_egn_records(path), key=lambda r: r["index"])
        assert _strip(on_disk) == _strip(whole.records)
    # a game of another run is refused, naming the file and line; the file stays
    other = tmp_path / "other.egn"
    run_arena(PIG, ["greedy", "random"], games=2, seed=4, records_path=str(other))
    before = other.read_text()
    with pytest.raises(ArenaError, match=r"--resume: .*other.egn, line 1: game 0 was played "
                                         r"with another block_seed"):
        run_arena(PIG, ["greedy", "random"], games=2, seed=3, records_path=str(other),
                  resume=True)
    assert other.read_text() == before
    bad = re.sub(r"^1\. P0: ", "1. P0: jump; ", before, count=1, flags=re.M)
    other.write_text(bad)
    with pytest.raises(ArenaError, match=r"other.egn: line \d+: move 1: 'jump' is not a legal "
                                         r"move here \(pig\(winscore=20\), player 0 to act\)"):
        run_arena(PIG, ["greedy", "random"], games=2, seed=4, records_path=str(other),
                  resume=True)
    assert other.read_text() == bad


def test_resume_from_the_command_line(tmp_path, capsys):
    path = tmp_path / "r.jsonl"
    args = ["arena", PIG, "--bots", "greedy", "random", "--games", "6", "--seed", "2",
            "--records", str(path), "--no-progress", "--json", "-"]
    assert main(args) == 0
    whole = json.loads(capsys.readouterr().out)
    path.write_text("".join(path.read_text().splitlines(keepends=True)[:3]))
    assert main(args + ["--resume"]) == 0
    resumed = json.loads(capsys.readouterr().out)
    assert resumed["resumed_games"] == 3 and whole["resumed_games"] == 0
    assert resumed["elo"] == whole["elo"] and len(path.read_text().splitlines()) == 6


# -- output -------------------------------------------------------------------------

def _check_interval(iv):
    assert set(iv) == {"mean", "low", "high", "n"}
    assert iv["low"] <= iv["mean"] <= iv["high"]


def test_json_schema_and_cli_end_to_end(tmp_path, capsys):
    out, recs = tmp_path / "a.json", tmp_path / "r.jsonl"
    code = main(["arena", PIG, "--bots", "greedy", "random", "--games", "6", "--seed", "2",
                 "--json", str(out), "--records", str(recs), "--no-progress"])
    assert code == 0
    text = capsys.readouterr().out
    assert "win rate" in text and "Elo greedy vs random" in text and "First-player" in text
    data = json.loads(out.read_text())
    for key in ("format", "game", "specs", "labels", "seed", "jobs", "games", "blocks",
                "block_size", "rotations", "bots", "seats", "first_player_advantage", "elo",
                "head_to_head", "ratings",
                "interrupted", "draw_rate", "mean_decisions", "seconds"):
        assert key in data, key
    assert data["format"] == "easel-arena-v1" and data["game"] == PIG
    assert data["games"] == 6 and data["blocks"] == 3 and data["block_size"] == 2
    for b in data["bots"]:
        assert set(b) >= {"bot", "label", "games", "win_rate", "mean_rank", "mean_margin",
                          "seconds_per_decision", "by_seat"}
        for key in ("win_rate", "mean_rank", "mean_margin"):
            _check_interval(b[key])
    for seat in data["seats"]:
        _check_interval(seat["win_rate"])
    assert set(data["elo"]) == {"bots", "score", "diff", "low", "high", "los", "pairs"}
    assert len(recs.read_text().splitlines()) == 6
    assert main(["replay", str(recs)]) == 0
    assert "6 valid, 0 invalid" in capsys.readouterr().out


def test_cli_json_to_stdout_and_errors(capsys):
    assert main(["arena", "connect_four", "--bots", "random", "heuristic", "--games", "2",
                 "--json", "-", "--no-progress"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["labels"] == ["random", "heuristic"]
    assert main(["arena", PIG, "--bots", "random", "random(depth=2)", "--games", "2",
                 "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert "random has no option 'depth'; options: seed" in err


def test_mcts_in_the_arena_when_available():
    try:
        import easel.search.mcts  # noqa: F401
    except ImportError:
        pytest.skip("search.mcts is not in this build")
    result = run_arena("connect_four", ["mcts(iterations=200)", "random"], games=4, seed=1)
    assert result.summary["bots"][0]["win_rate"]["mean"] >= 0.75


class _Broken:
    spec = "broken"

    def restart(self):
        pass

    def step(self, state):
        raise ZeroDivisionError("division by zero")


def test_a_failing_bot_is_named_with_its_position(monkeypatch):
    import easel.search.arena as arena_module
    real = arena_module.make_bot

    def fake(spec, game, seed=None):
        bot = real(spec, game, seed)
        return _Broken() if getattr(spec, "name", spec) == "greedy" and seed is None else bot

    monkeypatch.setattr(arena_module, "make_bot", fake)
    with pytest.raises(ArenaError) as info:
        run_arena(PIG, ["random", "greedy"], games=2, seed=1)
    text = str(info.value)
    assert "bot 'greedy' in seat" in text and "ZeroDivisionError" in text
    assert "easel-state-v1" in text


def test_solo_arena_reports_goal_rate_and_scores():
    from easel.search.arena import run_arena
    result = run_arena("vangogh(players=1)", ["random"], games=3, seed=2, jobs=1)
    bot = result.summary["bots"][0]
    assert bot["games"] == 3
    scores = [r["scores"][0] for r in result.records]
    assert bot["score"]["median"] == sorted(scores)[1]
    reached = [r["returns"][0] >= 0 for r in result.records]
    assert bot["win_rate"]["mean"] == pytest.approx(sum(reached) / 3)


# -- tournaments of more than two bots -------------------------------------------------

def _duel(block, a, b, a_wins):
    """A 2-player record: bot a in seat 0 against bot b; a wins, loses or draws."""
    returns = [1.0, -1.0] if a_wins is True else [-1.0, 1.0] if a_wins is False else [0.0, 0.0]
    return {"block": block, "returns": returns, "scores": None, "steps": [], "decisions": 2,
            "seats": [{"bot": a}, {"bot": b}], "think": [0.0, 0.0], "seat_decisions": [1, 1]}


def test_ratings_order_a_transitive_tournament():
    # a beats b and c, b beats c, in every one of 10 blocks
    records = []
    for block in range(10):
        records += [_duel(block, 0, 1, True), _duel(block, 1, 0, False),
                    _duel(block, 0, 2, True), _duel(block, 1, 2, True)]
    s = summarize(records, ["a", "b", "c"], 2)
    assert s["elo"] is None                                   # Elo is the two-bot figure
    assert [e["bots"] for e in s["head_to_head"]] == [["a", "b"], ["a", "c"], ["b", "c"]]
    assert [e["score"]["mean"] for e in s["head_to_head"]] == [1.0, 1.0, 1.0]
    assert s["head_to_head"][0]["pairs"] == {"LL": 0, "LD": 0, "DD_WL": 0, "WD": 0, "WW": 10}
    r = {x["label"]: x for x in s["ratings"]}
    assert r["a"]["elo"] > r["b"]["elo"] > r["c"]["elo"]
    assert sum(x["elo"] for x in s["ratings"]) == pytest.approx(0.0, abs=1e-6)
    assert all(x["low"] <= x["elo"] <= x["high"] for x in s["ratings"])
    assert [r[x]["games"] for x in "abc"] == [30, 30, 20]
    text = format_report({**s, "game": "g", "block_size": 4, "seed": 0, "jobs": 1,
                          "seconds": 1.0, "interrupted": False})
    assert "Ratings (Bradley-Terry Elo" in text and "a vs b: score 1.000" in text


def test_ratings_recover_known_strengths():
    # 400 games a pair, won in proportion to the expected score of Elo
    # ratings +200, 0, -200: the fit finds them (the one-draw prior pulls a
    # little toward the middle).
    truth = [200.0, 0.0, -200.0]
    records = []
    for a, b in [(0, 1), (0, 2), (1, 2)]:
        expected = 1.0 / (1.0 + 10 ** ((truth[b] - truth[a]) / 400.0))
        wins = round(400 * expected)
        for g in range(400):
            records.append(_duel(g % 40, a, b, g < wins))
    s = summarize(records, ["a", "b", "c"], 2)
    for x, want in zip(s["ratings"], truth):
        assert x["elo"] == pytest.approx(want, abs=8.0)
        assert x["low"] - 1e-6 <= want <= x["high"] + 1e-6


def test_even_bots_rate_even():
    records = []
    for block in range(20):
        for a, b in [(0, 1), (1, 2), (2, 0)]:
            records += [_duel(block, a, b, True), _duel(block, b, a, True)]
    s = summarize(records, ["a", "b", "c"], 2)
    assert all(abs(x["elo"]) < 1e-6 for x in s["ratings"])
    assert all(e["score"]["mean"] == 0.5 for e in s["head_to_head"])


def test_two_bot_elo_is_their_head_to_head():
    result = run_arena(PIG, ["greedy", "random"], games=8, seed=4)
    s = result.summary
    assert s["ratings"] is None and s["head_to_head"] == [s["elo"]]


def test_three_bot_arena_reports_ratings(capsys):
    code = main(["arena", PIG, "--bots", "greedy", "random", "random", "--games", "12",
                 "--seed", "3", "--no-progress"])
    assert code == 0
    text = capsys.readouterr().out
    assert "Ratings (Bradley-Terry Elo" in text and "greedy vs random#1" in text


@pytest.mark.parametrize("command", ["arena", "replay", "suggest", "serve", "games"])
def test_help_texts_read_cleanly(command, capsys):
    # argparse %-formats help strings but not descriptions: a doubled %% in
    # a description shows as such.
    with pytest.raises(SystemExit) as exit_info:
        main([command, "--help"])
    assert exit_info.value.code == 0
    text = capsys.readouterr().out
    assert "%%" not in text and f"usage: easel {command}" in text


# -- SPRT ---------------------------------------------------------------------------------

def test_sprt_llr_matches_the_formula_and_wald_bounds():
    from easel.search.stats import SPRT_MIN_BLOCKS, score_of_elo, sprt
    blocks = [1.0, 0.5, 1.0, 0.5, 0.5, 1.0, 0.0, 1.0, 0.5, 1.0, 1.0, 0.5] * 3
    t = sprt(blocks, 0.0, 50.0)
    n, mean = len(blocks), sum(blocks) / len(blocks)
    var = sum((x - mean) ** 2 for x in blocks) / (n - 1)
    s0, s1 = 0.5, score_of_elo(50.0)
    assert t["llr"] == pytest.approx(n * (s1 - s0) * (2 * mean - s0 - s1) / (2 * var))
    assert t["lower"] == pytest.approx(math.log(0.05 / 0.95))
    assert t["upper"] == pytest.approx(math.log(0.95 / 0.05))
    assert t["decision"] == "H1" and t["blocks"] == n
    assert sprt([0.5, 0.5, 0.4, 0.6] * 10, 50.0, 100.0)["decision"] == "H0"
    assert sprt([0.0, 1.0] * 20, -10.0, 10.0)["decision"] is None     # not yet decided
    # identical blocks decide nothing before SPRT_MIN_BLOCKS
    assert sprt([1.0] * (SPRT_MIN_BLOCKS - 1), 0.0, 10.0)["decision"] is None
    assert sprt([1.0] * SPRT_MIN_BLOCKS, 0.0, 10.0)["decision"] == "H1"
    with pytest.raises(ValueError, match="elo1 > elo0"):
        sprt([], 10.0, 0.0)
    with pytest.raises(ValueError, match="beta must be in"):
        sprt([], 0.0, 10.0, beta=0.0)


def test_sprt_stops_a_decided_match(tmp_path):
    recs = tmp_path / "r.jsonl"
    result = run_arena(PIG, ["greedy", "random"], games=1000, seed=1, records_path=recs,
                       sprt={"elo0": 0.0, "elo1": 50.0, "alpha": 0.05, "beta": 0.05})
    s = result.summary
    assert s["sprt"]["decision"] == "H1" and not result.interrupted
    assert s["games"] < 1000 and s["games"] == len(recs.read_text().splitlines())
    assert s["sprt"]["llr"] >= s["sprt"]["upper"]
    assert "(stopped: the SPRT decided)" in format_report(s)


@pytest.mark.parametrize("jobs", [1, 2])
def test_sprt_accepts_h0_for_equal_bots(jobs):
    result = run_arena(PIG, ["random", "random"], games=4000, seed=1, jobs=jobs,
                       sprt={"elo0": 100.0, "elo1": 200.0, "alpha": 0.05, "beta": 0.05})
    s = result.summary
    assert s["sprt"]["decision"] == "H0" and s["games"] < 4000
    assert s["sprt"]["llr"] <= s["sprt"]["lower"]


def test_sprt_refuses_bad_setups(capsys):
    ok = {"elo0": 0.0, "elo1": 5.0, "alpha": 0.05, "beta": 0.05}
    with pytest.raises(ArenaError, match="exactly two bots"):
        run_arena(PIG, ["random", "random", "greedy"], games=6, sprt=ok)
    with pytest.raises(ArenaError, match="elo1 > elo0"):
        run_arena(PIG, ["random", "greedy"], games=6, sprt={**ok, "elo1": -5.0})
    assert main(["arena", PIG, "--bots", "random", "greedy", "--sprt", "0", "5",
                 "--alpha", "0.9"]) == 2
    assert "alpha must be in (0, 0.5)" in capsys.readouterr().err


def test_a_pool_whose_terminate_hangs_is_ended_by_killing_its_workers():
    """Pool.terminate can wait forever on a result-queue lock that a killed
    worker held (an interrupted run once hung 600 s in it): the arena's stop
    gives it a grace period, then kills the workers itself and goes on."""
    import threading
    from easel.search.arena import _stop_pool

    release = threading.Event()

    class Worker:
        def __init__(self):
            self.killed = False

        def is_alive(self):
            return not self.killed

        def kill(self):
            self.killed = True

    class StuckPool:
        def __init__(self):
            self._pool = [Worker(), Worker()]

        def terminate(self):
            release.wait()            # never set while the stop waits: the hang

        def join(self):
            pass

    pool = StuckPool()
    try:
        _stop_pool(pool, grace=0.2)
        assert all(w.killed for w in pool._pool)
    finally:
        release.set()


def test_a_pool_that_ends_cleanly_is_not_killed():
    from easel.search.arena import _stop_pool

    class Worker:
        killed = False

        def is_alive(self):
            return False

        def kill(self):
            self.killed = True

    class Pool:
        def __init__(self):
            self._pool = [Worker()]
            self.ended = False

        def terminate(self):
            self.ended = True

        def join(self):
            pass

    pool = Pool()
    _stop_pool(pool, grace=5.0)
    assert pool.ended and not pool._pool[0].killed


@pytest.mark.parametrize("name", ["r.jsonl", "r.egn"])
def test_resume_refuses_level_games_of_a_changed_table(tmp_path, monkeypatch, name):
    """A `level(N)` seat keeps the mcts spec it stood for, in both record
    forms; a resume after search/levels.py changed that row is refused."""
    from easel.search import arena, levels
    path = tmp_path / name
    run_arena(PIG, ["level(1)", "random"], games=2, seed=3, records_path=str(path))
    again = run_arena(PIG, ["level(1)", "random"], games=4, seed=3, records_path=str(path),
                      resume=True)
    assert again.summary["resumed_games"] == 2
    monkeypatch.setitem(levels.TABLES, "pig", (levels.Level(40, 0.1),) + levels.TABLES["pig"][1:])
    arena._seat_plays.cache_clear()
    with pytest.raises(ArenaError, match=re.escape(
            "seat 0 level(1) played mcts(iterations=30,temperature=0.1) there but is "
            "mcts(iterations=40,temperature=0.1) in this build")):
        run_arena(PIG, ["level(1)", "random"], games=6, seed=3, records_path=str(path),
                  resume=True)
    arena._seat_plays.cache_clear()


@pytest.mark.parametrize("name", ["r.jsonl", "r.egn"])
def test_resume_refuses_search_games_played_under_another_default(tmp_path, monkeypatch, name):
    """A search seat keeps the options it played with, the game's defaults
    filled in, in both record forms; a resume after a game's default
    changed is refused, naming the option, rather than mixing two searches
    under one spec."""
    from easel.search import arena, params
    from easel.search.recordfiles import read_records
    path = tmp_path / name
    spec = "mcts(iterations=20,uct_c=0.8)"
    arena._seat_plays.cache_clear()
    run_arena(PIG, [spec, "random"], games=2, seed=3, records_path=str(path))
    recs = [r for _, r in read_records(str(path), "core", {})]
    first = next(s for s in recs[0]["seats"] if s["spec"] == spec)
    assert first["options"]["iterations"] == 20 and first["options"]["uct_c"] == 0.8
    assert first["options"]["rollout"] == params.resolve_search(engine.load_game(PIG, "core"),
                                                                 {})["rollout"]
    assert "seed" not in first["options"]
    assert all("options" not in s for r in recs for s in r["seats"] if s["spec"] == "random")
    again = run_arena(PIG, [spec, "random"], games=4, seed=3, records_path=str(path),
                      resume=True)
    assert again.summary["resumed_games"] == 2
    real = params.search_defaults
    monkeypatch.setattr(params, "search_defaults",
                        lambda game: {**real(game), "margin_weight": 0.5})
    arena._seat_plays.cache_clear()
    with pytest.raises(ArenaError, match=re.escape(f"seat 0 {spec} played with other search "
                                                   "options there than in this build "
                                                   "(margin_weight: 0.0 -> 0.5")):
        run_arena(PIG, [spec, "random"], games=6, seed=3, records_path=str(path),
                  resume=True)
    arena._seat_plays.cache_clear()
