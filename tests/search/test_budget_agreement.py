"""tools/budget_agreement.py: how often a smaller budget chooses the larger
budget's move (docs/strength.md reads it for the 4-player top levels)."""
from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

from easel.engine.registry import load_game

_PATH = Path(__file__).resolve().parents[2] / "tools" / "budget_agreement.py"
_spec = importlib.util.spec_from_file_location("budget_agreement", _PATH)
budget_agreement = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(budget_agreement)

# Connect Four: the first player stacks column 0, the second column 1; after
# six moves the first player wins by a fourth disc in column 0.
WIN_IN_ONE = [0, 1, 0, 1, 0, 1]


def _record(tmp_path, steps):
    rec = {"format": "easel-record-v1", "game": "connect_four",
           "steps": [[i % 2, a] for i, a in enumerate(steps)]}
    path = tmp_path / "records.jsonl"
    path.write_text(json.dumps(rec) + "\n")
    return path


def test_every_budget_finds_the_winning_move():
    game = load_game("connect_four")
    state = game.new_initial_state()
    for a in WIN_IN_ONE:
        state.apply_action(a)
    got = budget_agreement.agreement(game, [state], 400, [50, 200])
    assert got == {"top": 1.0, 50: 1.0, 200: 1.0}
    assert budget_agreement.move(game, state, 50, 21) == 0


def test_the_shares_count_pairs_of_moves(monkeypatch):
    # Top searches (seeds 11, 12) choose 3 and 3; the small budget's (21, 22)
    # choose 3 and 4: two of its four pairs with the top agree.
    chosen = {11: 3, 12: 3, 21: 3, 22: 4}
    monkeypatch.setattr(budget_agreement, "move", lambda game, state, it, seed: chosen[seed])
    assert budget_agreement.agreement(None, ["a position"], 100, [10]) == {"top": 1.0, 10: 0.5}
    chosen[12] = 5        # the top searches disagree: small pairs (3,3) only
    assert budget_agreement.agreement(None, ["a position"], 100, [10]) == {"top": 0.0, 10: 0.25}


def test_positions_are_decisions_with_a_choice_and_replay_from_the_seed(tmp_path):
    game = load_game("connect_four")
    records = [json.loads(_record(tmp_path, WIN_IN_ONE + [0]).read_text())]
    one = budget_agreement.positions(game, records, 8, 3)
    two = budget_agreement.positions(game, records, 8, 3)
    assert [s.history() for s in one] == [s.history() for s in two]
    for s in one:
        assert not s.is_terminal() and len(s.legal_actions()) >= 2


def test_the_command_prints_a_table(tmp_path, capsys):
    path = _record(tmp_path, WIN_IN_ONE + [0])
    assert budget_agreement.main([str(path), "--top", "200", "--budgets", "20,50",
                                  "--positions", "3", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "connect_four, 1 games, 3 positions" in out
    assert "| 200 (another seed) |" in out and "| 50 |" in out and "| 20 |" in out


@pytest.mark.parametrize("argv, what", [
    (["--top", "100", "--budgets", "1O"], "--budgets"),
    (["--top", "0", "--budgets", "10"], "at least 1"),
    (["--top", "100", "--budgets", "10", "--positions", "0"], "at least 1"),
])
def test_bad_options_are_named(tmp_path, capsys, argv, what):
    path = _record(tmp_path, WIN_IN_ONE)
    with pytest.raises(SystemExit):
        budget_agreement.main([str(path)] + argv)
    assert what in capsys.readouterr().err
