"""The clairvoyant bound (search/clairvoyant.py, `easel bound`): its search
meets exactly the draws the game will make, the future it is told is fixed
as a table's is (the j-th card turned up whatever the player does), it is
no bot spec, and a run is reproducible and resumable."""
from __future__ import annotations

import json
import random

import pytest

from easel import engine
from easel.search import params
from easel.search._mcts import Tree
from easel.search.clairvoyant import (CLAIRVOYANT, DRAWS, Clairvoyant, ClairvoyantError,
                                      chance_index, chance_outcome, chance_uniform, play_world,
                                      run_bound, shifted_world, summarize_solo, world_seed)
from easel.search.specs import BotSpecError, make_bot, parse_spec
from easel.search.stats import seat_outcomes
from easel.server.cli import main

SOLO_VG = "vangogh(players=1)"
SOLO_SA = "starving_artists(players=1)"


class _Log:
    """A chooser for play_world: random moves, and the draws counts it was
    told at each decision."""

    def __init__(self, seed):
        self.rng = random.Random(seed)
        self.counts = []

    def __call__(self, state, k):
        self.counts.append(k)
        return self.rng.choice(state.legal_actions())


def _next_draw(state, world, k, draws):
    """The outcome play_world draws at `state` after the draws `k`, and the
    count after it (the model the tests hold the game loop and tree to)."""
    if draws == "shared":
        return chance_outcome(state, chance_uniform(world, k)), k + 1
    s = state.chance_source()
    j = (k >> (16 * s)) & 0xFFFF
    return chance_outcome(state, chance_uniform(world, chance_index(s, j))), k + (1 << (16 * s))


def _decision_after_chance(game, world, min_chance, draws="shared"):
    """A decision node of `world` reached after at least `min_chance` chance
    events (random decisions), and the draws count there."""
    rng = random.Random(world)
    state, k, met = game.new_initial_state(), 0, 0
    while True:
        if state.is_chance_node():
            a, k = _next_draw(state, world, k, draws)
            state.apply_action(a)
            met += 1
        elif met >= min_chance:
            return state, k
        else:
            state.apply_action(rng.choice(state.legal_actions()))


def _check_tree_draws(tree, state, world, k, draws):
    """Every chance node of the tree has at most one child, the outcome the
    game's own streams give there; returns how many were checked."""
    nodes, _ = tree.export()
    checked = 0
    stack = [(0, state.clone(), k)]
    while stack:
        i, pos, seen = stack.pop()
        c = int(nodes[i]["first_child"])
        kids = []
        while c >= 0:
            kids.append(c)
            c = int(nodes[c]["next_sibling"])
        if pos.is_chance_node():
            assert len(kids) <= 1
            if kids:
                want, after = _next_draw(pos, world, seen, draws)
                assert int(nodes[kids[0]]["action"]) == want
                checked += 1
                nxt = pos.clone()
                nxt.apply_action(want)
                stack.append((kids[0], nxt, after))
        else:
            for c in kids:
                nxt = pos.clone()
                nxt.apply_action(int(nodes[c]["action"]))
                stack.append((c, nxt, seen))
    return checked


@pytest.mark.parametrize("draws", DRAWS)
@pytest.mark.parametrize("spec", [SOLO_SA, SOLO_VG])
def test_the_tree_meets_the_draws_the_game_makes(spec, draws):
    """Every chance node of a clairvoyant tree rooted after some draws has
    one child, the outcome the game's own stream gives there: the search
    sees this world's future, not another's (an offset of one would show
    other cubes). With fixed draws the tree counts each source apart."""
    game = engine.load_game(spec)
    world = world_seed(7, 3)
    state, k = _decision_after_chance(game, world, 5, draws)
    if draws == "shared":
        tree = Tree(state, form="pimc", seed=1, world_seed=shifted_world(world, k), uct_c=0.35,
                    rollout="policy")
    else:
        tree = Tree(state, form="pimc", seed=1, world_seed=world, sources=True, chance_k0=k,
                    uct_c=0.35, rollout="policy")
    tree.run(400)
    assert _check_tree_draws(tree, state, world, k, draws) > 20


def _illegal_children(tree, state, world, k):
    """Decision children of an IS-form tree that are illegal where the
    world's real draws lead (the tree holds no chance node: the draws are
    made on the way down, as play_world makes them)."""
    nodes, _ = tree.export()
    bad = seen_nodes = 0
    stack = [(0, state.clone(), k)]
    while stack:
        i, pos, drawn = stack.pop()
        while pos.is_chance_node():
            a, drawn = _next_draw(pos, world, drawn, "fixed")
            pos.apply_action(a)
        c = int(nodes[i]["first_child"])
        while c >= 0:
            a = int(nodes[c]["action"])
            seen_nodes += 1
            if pos.is_terminal() or not pos.is_legal(a):
                bad += 1
            else:
                nxt = pos.clone()
                nxt.apply_action(a)
                stack.append((c, nxt, drawn))
            c = int(nodes[c]["next_sibling"])
    return bad, seen_nodes


def test_the_known_world_tree_holds_that_worlds_decisions():
    """The clairvoyant's tree with fixed draws (the IS form, told the world):
    every decision in it is legal where the real draws lead, so its lines
    met those draws; the same tree drawing at random holds decisions that
    only other draws allow (the placements of cubes never drawn)."""
    game = engine.load_game(SOLO_SA)
    world = world_seed(7, 5)
    state, k = _decision_after_chance(game, world, 5, "fixed")
    known = Tree(state, form="is", known=True, seed=1, world_seed=world, sources=True,
                 chance_k0=k, uct_c=0.35, rollout="policy")
    known.run(2000)
    bad, seen_nodes = _illegal_children(known, state, world, k)
    assert bad == 0 and seen_nodes > 1000
    blind = Tree(state, form="is", seed=1, uct_c=0.35, rollout="policy")
    blind.run(2000)
    assert _illegal_children(blind, state, world, k)[0] > 0


def test_an_advanced_tree_goes_on_meeting_the_fixed_draws():
    """Tree.advance through a decision and the draws after it moves the
    tree's known future on by the draws made, source by source."""
    game = engine.load_game(SOLO_SA)
    world = world_seed(7, 4)
    state, k = _decision_after_chance(game, world, 5, "fixed")
    tree = Tree(state, form="pimc", seed=1, world_seed=world, sources=True, chance_k0=k,
                uct_c=0.35, rollout="policy")
    tree.run(300)
    pos = state.clone()
    for a in pos.legal_actions():      # a move that draws (work, buy), then its draws
        after = pos.clone()
        after.apply_action(a)
        if after.is_chance_node():
            break
    moves = [a]
    pos = after
    while pos.is_chance_node():
        a, k = _next_draw(pos, world, k, "fixed")
        moves.append(a)
        pos.apply_action(a)
    assert len(moves) > 1
    tree.advance(moves)
    tree.run(300)
    assert _check_tree_draws(tree, pos, world, k, "fixed") > 10


def test_fixed_draws_turn_up_the_same_canvases_whatever_the_player_does():
    """With fixed draws a world's canvases come in one order, as a shuffled
    pile's would, whoever plays it and however; with shared draws they
    depend on how many cubes were drawn first, so a search told that future
    could pick its canvases (the looser bound of before 2026-12-06)."""
    game = engine.load_game(SOLO_SA)

    def cards(world, seed, draws):
        log = []
        state, k = game.new_initial_state(), 0
        rng = random.Random(seed)
        while not state.is_terminal():
            if state.is_chance_node():
                a, k = _next_draw(state, world, k, draws)
                if state.chance_source() == 1:
                    log.append(a)
            else:
                a = rng.choice(state.legal_actions())
            state.apply_action(a)
        return log

    differ = 0
    for i in range(4):
        w = world_seed(21, i)
        a, b = cards(w, 1, "fixed"), cards(w, 2, "fixed")
        n = min(len(a), len(b))
        assert n > 3 and a[:n] == b[:n]
        a, b = cards(w, 1, "shared"), cards(w, 2, "shared")
        n = min(len(a), len(b))
        differ += a[:n] != b[:n]
    assert differ > 0


def test_the_chance_sources_are_the_decks_bags_and_dice():
    """GameC.chance_source, read where play_world reads it: Starving Artists'
    canvases apart from its cubes; Van Gogh's cards and lone rolls apart
    from its bag; a game of one source is all 0."""
    seen = {}
    for spec in (SOLO_SA, SOLO_VG, "pig"):
        game = engine.load_game(spec)
        rng = random.Random(3)
        for _ in range(3):
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    seen.setdefault(spec, set()).add((state.to_json().get("phase"),
                                                      state.chance_source()))
                    state.apply_action(chance_outcome(state, rng.random()))
                else:
                    state.apply_action(rng.choice(state.legal_actions()))
            if not state.is_chance_node():
                with pytest.raises(ValueError, match="not a chance node"):
                    state.chance_source()
    sa = seen[SOLO_SA]
    assert {s for p, s in sa if p == "canvas"} == {1}
    assert {s for p, s in sa if p != "canvas"} == {0}
    vg = dict(seen[SOLO_VG])
    assert set(vg.values()) == {0, 1, 2}
    assert {s for _, s in seen["pig"]} == {0}


def test_chance_uniform_is_the_trees_stream_shifted():
    w = world_seed(1, 0)
    assert [chance_uniform(shifted_world(w, 5), j) for j in range(4)] == \
        [chance_uniform(w, 5 + j) for j in range(4)]
    assert all(0.0 <= chance_uniform(w, j) < 1.0 for j in range(100))


def test_a_world_plays_the_same_game_twice():
    game = engine.load_game(SOLO_VG)
    w = world_seed(3, 1)
    a = play_world(game, w, Clairvoyant(game, w, 30, seed=4).step)
    b = play_world(game, w, Clairvoyant(game, w, 30, seed=4).step)
    assert a.steps == b.steps and a.returns == b.returns


def test_the_clairvoyant_plays_on_what_it_is_told():
    """Van Gogh solo at a small budget: the search told its world's future
    scores more over the same worlds than the same search told another
    world's (119.2 to 112.8 points a game over these twelve). At 200
    iterations the future, fixed, is worth little against an ordinary
    search (113 to 115 points over other worlds, within their noise), so
    the test holds the clairvoyant to what it is told, not to a margin
    over searching blind (docs/starving-artists-solo.md, "The bound chose
    its future")."""
    game = engine.load_game(SOLO_VG)
    told, misled = [], []
    for i in range(12):
        w = world_seed(13, i)
        told.append(play_world(game, w, Clairvoyant(game, w, 200, seed=i).step).scores[0])
        other = Clairvoyant(game, w ^ 0x5A5A, 200, seed=i)
        misled.append(play_world(game, w, other.step).scores[0])
    assert sum(told) > sum(misled), (told, misled)


def test_the_clairvoyant_is_no_bot_spec():
    """It can never be seated in an arena, a match or the server's Suggest."""
    game = engine.load_game(SOLO_VG)
    for text in ("clairvoyant", "clairvoyant(iterations=10)", "bound"):
        with pytest.raises(BotSpecError):
            make_bot(parse_spec(text), game)


def test_bad_options_are_refused_by_name():
    game = engine.load_game(SOLO_VG)
    with pytest.raises(ClairvoyantError, match="form"):
        Clairvoyant(game, 1, 10, form="is")
    with pytest.raises(ClairvoyantError, match="iterations"):
        Clairvoyant(game, 1, 0)
    state, k = _decision_after_chance(game, 1, 0)
    with pytest.raises(ClairvoyantError, match="uct_c"):
        Clairvoyant(game, 1, 10, uct_c=-1.0).step(state, k)
    with pytest.raises(ClairvoyantError, match="solo"):
        run_bound("vangogh(players=2)", iterations=10, games=1)
    with pytest.raises(ClairvoyantError, match="draws must be one of fixed, shared, got 'deck'"):
        Clairvoyant(game, 1, 10, draws="deck")
    with pytest.raises(ClairvoyantError, match="draws"):
        run_bound(SOLO_VG, iterations=10, games=1, draws="")


def test_a_journal_keeps_its_draws_and_a_resume_never_mixes_two(tmp_path):
    """Each record says how its world's future was read; a journal of one
    kind resumed with the other plays its games again (a record written
    before draws were recorded was played with shared ones)."""
    path = tmp_path / "bound.jsonl"
    first = run_bound(SOLO_SA, iterations=10, games=2, seed=4, vs=["random"],
                      records_path=str(path), draws="shared")
    recs = [json.loads(x) for x in path.read_text().splitlines()]
    assert {r["draws"] for r in recs} == {"shared"} and first["draws"] == "shared"
    for r in recs:
        del r["draws"]                               # as a journal of before 2026-12-06
    path.write_text("".join(json.dumps(r) + "\n" for r in recs))
    played, stale = [], []
    again = run_bound(SOLO_SA, iterations=10, games=2, seed=4, vs=["random"],
                      records_path=str(path), resume=True, draws="shared",
                      on_record=played.append, on_stale=stale.append)
    assert played == [] and stale == []
    assert again["players"][CLAIRVOYANT]["wins"] == first["players"][CLAIRVOYANT]["wins"]
    fixed = run_bound(SOLO_SA, iterations=10, games=2, seed=4, vs=["random"],
                      records_path=str(path), resume=True, on_record=played.append,
                      on_stale=stale.append)
    assert stale == [4] and len(played) == 4 and {r["draws"] for r in played} == {"fixed"}
    assert fixed["draws"] == "fixed"


def test_run_resumes_from_its_records(tmp_path):
    path = tmp_path / "bound.jsonl"
    first = run_bound(SOLO_VG, iterations=20, games=2, seed=5, vs=["random"],
                      records_path=str(path))
    lines = path.read_text().splitlines()
    assert len(lines) == 4
    path.write_text("\n".join(lines[:3]) + "\n")      # as if stopped during the last game
    played = []
    again = run_bound(SOLO_VG, iterations=20, games=2, seed=5, vs=["random"],
                      records_path=str(path), resume=True, on_record=played.append)
    assert len(played) == 1

    def untimed(summary):     # the replayed game's CPU time is its own
        return {**summary, "players": {who: {k: v for k, v in s.items() if k != "cpu_a_decision"}
                                       for who, s in summary["players"].items()}}
    assert untimed(again) == untimed(first)
    assert set(first["players"]) == {CLAIRVOYANT, "random"}
    assert first["players"][CLAIRVOYANT]["games"] == 2


def test_records_say_what_was_played_and_a_resume_never_mixes_two_searches(tmp_path):
    """Each record keeps its player's options as resolved (the game's
    defaults filled in); a journal resumed by code that resolves them
    otherwise (a default changed) plays those games again, and says so."""
    path = tmp_path / "bound.jsonl"
    spec = "mcts(iterations=30,uct_c=0.9)"
    run_bound(SOLO_SA, iterations=10, games=2, seed=3, vs=[spec, "random"],
              records_path=str(path))
    recs = [json.loads(x) for x in path.read_text().splitlines()]
    game = engine.load_game(SOLO_SA, "core")
    defaults = params.resolve_search(game, {})
    by = {(r["player"], r["index"]): r for r in recs}
    mine = by[(spec, 0)]["resolved"]
    assert mine["uct_c"] == 0.9 and mine["iterations"] == 30
    assert mine["loss_weight"] == defaults["loss_weight"]
    assert mine["rollout"] == defaults["rollout"] == "policy"     # the game's own default
    clair = by[(CLAIRVOYANT, 0)]["resolved"]
    assert clair["loss_power"] == defaults["loss_power"] and "form" not in clair
    assert by[("random", 0)]["resolved"] == {}
    # One game as if played under another default, one from before records
    # kept their options: both are played again, and nothing else is.
    edited = []
    for r in recs:
        if (r["player"], r["index"]) == (spec, 1):
            r["resolved"]["loss_weight"] = 1.5
        if (r["player"], r["index"]) == (CLAIRVOYANT, 1):
            del r["resolved"]
        edited.append(json.dumps(r))
    path.write_text("\n".join(edited) + "\n")
    played, stale = [], []
    run_bound(SOLO_SA, iterations=10, games=2, seed=3, vs=[spec, "random"],
              records_path=str(path), resume=True, on_record=played.append,
              on_stale=stale.append)
    assert stale == [2]
    assert sorted((r["player"], r["index"]) for r in played) == [(CLAIRVOYANT, 1), (spec, 1)]
    assert played[0]["resolved"]["loss_weight"] == defaults["loss_weight"]


def test_a_run_keeps_the_cpu_time_of_the_decisions_with_a_choice(tmp_path):
    path = tmp_path / "bound.jsonl"
    summary = run_bound(SOLO_VG, iterations=20, games=2, seed=5, vs=["mcts(iterations=30)"],
                        records_path=str(path))
    recs = [json.loads(x) for x in path.read_text().splitlines()]
    game = engine.load_game(SOLO_VG)
    for rec in recs:
        state, choices = game.new_initial_state(), 0
        for a in rec["steps"]:
            if not state.is_chance_node() and len(state.legal_actions()) > 1:
                choices += 1
            state.apply_action(a)
        assert rec["searched"] == choices > 0
        assert rec["cpu_seconds"] > 0.0
    for who in (CLAIRVOYANT, "mcts(iterations=30)"):
        mine = [r for r in recs if r["player"] == who]
        assert summary["players"][who]["cpu_a_decision"] == pytest.approx(
            sum(r["cpu_seconds"] for r in mine) / sum(r["searched"] for r in mine))
    # A journal of before the clock gives no figure rather than a wrong one.
    for rec in recs:
        del rec["cpu_seconds"], rec["searched"]
    assert "cpu_a_decision" not in summarize_solo(recs[:1])


def test_cli_bound(tmp_path, capsys):
    out = tmp_path / "s.json"
    assert main(["bound", SOLO_VG, "--iterations", "10", "--games", "1", "--seed", "2",
                 "--set", "uct_c=0.5", "--json", str(out)]) == 0
    text = capsys.readouterr().out
    assert "clairvoyant: 1 games, won" in text and "uct_c=0.5" in text
    assert json.loads(out.read_text())["players"][CLAIRVOYANT]["games"] == 1
    assert main(["bound", SOLO_VG, "--games", "1", "--set", "uct_c"]) == 2
    assert "KEY=VALUE" in capsys.readouterr().err
    assert main(["bound", "vangogh(players=3)", "--games", "1"]) == 2
    assert "solo" in capsys.readouterr().err
    assert main(["bound", SOLO_VG, "--iterations", "10", "--games", "1",
                 "--draws", "shared"]) == 0
    text = capsys.readouterr().out
    assert "a decision, shared draws" in text and "best game" not in text
    assert main(["bound", SOLO_VG, "--iterations", "10", "--games", "1",
                 "--vs", "random(seed=1)", "random(seed=2)"]) == 0
    text = capsys.readouterr().out
    assert "a decision, fixed draws" in text and "the best game of each world" in text
    with pytest.raises(SystemExit):
        main(["bound", SOLO_VG, "--games", "1", "--draws", "deck"])
    assert "invalid choice: 'deck'" in capsys.readouterr().err
    journal = tmp_path / "j.jsonl"
    args = ["bound", SOLO_VG, "--iterations", "10", "--games", "1", "--records", str(journal)]
    assert main(args) == 0
    rec = json.loads(journal.read_text())
    rec["resolved"]["uct_c"] = 9.0                   # as if played under another default
    journal.write_text(json.dumps(rec) + "\n")
    capsys.readouterr()
    assert main(args + ["--resume"]) == 0
    assert "1 games of this run were played with other options" in capsys.readouterr().err
    assert len(journal.read_text().splitlines()) == 2


def test_the_clairvoyant_hands_its_tree_every_tree_option(monkeypatch):
    """A tree option added to search/params.py (here a made-up one) reaches
    the clairvoyant's tree like the others, with no list of them to keep."""
    from easel.search import params
    probe = params.Param("probe", float, 0.0, "a made-up tree option", low=0, high=1,
                         tree=True, game=True)
    monkeypatch.setitem(params.MCTS, "probe", probe)
    monkeypatch.setitem(params.SEARCH_KEYWORDS, "probe", probe)
    game = engine.load_game(SOLO_SA)
    state, _ = _decision_after_chance(game, 3, 1)
    c = Clairvoyant(game, world=3, iterations=10, probe=0.5, uct_c=0.7)
    options = c._resolved(state)
    assert options["probe"] == 0.5 and options["uct_c"] == 0.7
    assert set(options) == {p.name for p in params.MCTS.values() if p.tree} - {"form"}


def test_the_best_game_of_each_world_is_a_choice_of_play_only_with_fixed_draws(tmp_path):
    """Two seeds of one bot are two players on every world (the spec's seed
    mixed into the world's); with fixed draws the summary adds each world's
    best game among all the players (a win first, then the score), which a
    player told the future could choose; with shared draws, where each
    player met another future, it does not."""
    vs = ["mcts(iterations=20,seed=1)", "mcts(iterations=20,seed=2)"]
    path = tmp_path / "b.jsonl"
    summary = run_bound(SOLO_SA, iterations=10, games=3, seed=6, vs=vs, records_path=str(path))
    recs = [json.loads(x) for x in path.read_text().splitlines()]
    steps = {(r["player"], r["index"]): r["steps"] for r in recs}
    assert any(steps[(vs[0], i)] != steps[(vs[1], i)] for i in range(3))
    by = {}
    for r in recs:
        by.setdefault(r["index"], []).append(r)
    want = [max((seat_outcomes(r["returns"])[0][0], r["scores"][0]) for r in by[i])
            for i in range(3)]
    best = summary["best"]
    assert best["games"] == 3 and best["score"]["mean"] == pytest.approx(
        sum(s for _, s in want) / 3)
    assert best["wins"] == sum(w for w, _ in want) and "cpu_a_decision" not in best
    for who in [CLAIRVOYANT] + vs:
        assert best["score"]["mean"] >= summary["players"][who]["score"]["mean"]
    shared = run_bound(SOLO_SA, iterations=10, games=1, seed=6, vs=vs, draws="shared")
    assert "best" not in shared


def _replay_line(state, line, world, k, draws):
    """Play `line` (decisions) from `state`, the draws made as play_world
    makes them after the count `k`; the end reached (a terminal state)."""
    pos, line = state.clone(), list(line)
    while not pos.is_terminal():
        if pos.is_chance_node():
            a, k = _next_draw(pos, world, k, draws)
        else:
            a = line.pop(0)
            assert pos.is_legal(a)
        pos.apply_action(a)
    assert line == []
    return pos


@pytest.mark.parametrize("draws", DRAWS)
@pytest.mark.parametrize("spec", [SOLO_SA, SOLO_VG])
def test_a_tree_keeps_its_best_line_and_the_line_replays_to_its_end(spec, draws):
    """In a tree told its world (known, or the PIMC form), the best line a
    playout finished, replayed from the root on the world's draws, ends
    exactly as the tree says: its return and score. More iterations never
    keep a worse one."""
    game = engine.load_game(spec)
    world = world_seed(11, 2)
    state, k = _decision_after_chance(game, world, 3, draws)
    if draws == "fixed":
        tree = Tree(state, form="is", known=True, seed=2, world_seed=world, sources=True,
                    chance_k0=k, keep_line=True, rollout_depth=-1, uct_c=0.35)
    else:
        tree = Tree(state, form="pimc", seed=2, world_seed=shifted_world(world, k),
                    keep_line=True, rollout_depth=-1, uct_c=0.35)
    keys = []
    for _ in range(3):
        tree.run(150)
        line, r, score = tree.best_line()
        end = _replay_line(state, line, world, k, draws)
        assert end.returns()[0] == pytest.approx(r)
        assert game.num_players() == 1 and score == pytest.approx(end.scores()[0])
        keys.append((r >= 0, score, r))
    assert keys == sorted(keys)
    # The negative control: on another world's draws the line does not
    # reach that end (a move of it is illegal there, or the end differs).
    other = world ^ 0x5A5A
    try:
        missed = _replay_line(state, line, other, k, draws).returns()[0] != pytest.approx(r)
    except AssertionError:
        missed = True
    assert missed


def test_a_line_is_kept_only_where_it_replays():
    """keep_line is refused where a line would not replay: a tree drawing
    at random, or a game of several players; and a tree that keeps none
    says so when asked for its line."""
    game = engine.load_game(SOLO_SA)
    state, k = _decision_after_chance(game, 5, 2, "fixed")
    with pytest.raises(ValueError, match="keep_line: a line replays to its end only where"):
        Tree(state, form="is", seed=1, keep_line=True)
    duo = engine.load_game("starving_artists(players=2)")
    s2 = duo.new_initial_state()
    while s2.is_chance_node():
        s2.apply_action(s2.chance_outcomes()[0][0])
    with pytest.raises(ValueError, match="keep_line: a best line is one player's"):
        Tree(s2, form="pimc", seed=1, keep_line=True)
    with pytest.raises(ValueError, match="keeps no line"):
        Tree(state, form="is", seed=1).best_line()
    assert Tree(state, form="is", known=True, seed=1, world_seed=5, sources=True, chance_k0=k,
                keep_line=True).best_line() is None              # nothing played yet


@pytest.mark.parametrize("draws", DRAWS)
def test_a_clairvoyant_following_its_line_ends_as_promised(draws):
    """follow="line": the game ends exactly as the last line it adopted
    promised, and no worse than the first line any of its searches found
    (each later line replaced it only by being better)."""
    game = engine.load_game(SOLO_SA)
    for i in range(3):
        w = world_seed(17, i)
        c = Clairvoyant(game, w, 120, seed=i, draws=draws, follow="line", rollout_depth=-1)
        promised = []
        step = c.step

        def watch(state, k):
            a = step(state, k)
            if c.promised is not None and (not promised or promised[-1] != c.promised):
                promised.append(c.promised)
            return a
        r = play_world(game, w, watch, draws)
        assert promised and promised == sorted(promised)
        assert (r.returns[0] >= 0, r.scores[0], r.returns[0]) == pytest.approx(promised[-1])


def test_following_the_line_is_a_journals_fact(tmp_path, capsys):
    """A record says how the clairvoyant chose (an old record, without the
    field, followed its tree); a resume with the other choice plays its
    games again; the CLI takes --follow and refuses another choice by name."""
    path = tmp_path / "bound.jsonl"
    run_bound(SOLO_SA, iterations=10, games=2, seed=4, vs=["random"], records_path=str(path))
    recs = [json.loads(x) for x in path.read_text().splitlines()]
    assert [r.get("follow") for r in recs] == ["tree", None, "tree", None]
    for r in recs:
        r.pop("follow", None)                        # as a journal of before the field
    path.write_text("".join(json.dumps(r) + "\n" for r in recs))
    played, stale = [], []
    run_bound(SOLO_SA, iterations=10, games=2, seed=4, vs=["random"], records_path=str(path),
              resume=True, on_record=played.append, on_stale=stale.append)
    assert played == [] and stale == []
    summary = run_bound(SOLO_SA, iterations=10, games=2, seed=4, vs=["random"],
                        records_path=str(path), resume=True, follow="line",
                        on_record=played.append, on_stale=stale.append)
    assert stale == [2] and [r["follow"] for r in played] == ["line", "line"]
    assert summary["follow"] == "line"
    with pytest.raises(ClairvoyantError, match="follow must be one of tree, line, got 'best'"):
        Clairvoyant(engine.load_game(SOLO_SA), 1, 10, follow="best")
    with pytest.raises(ClairvoyantError, match="follow must be one of"):
        run_bound(SOLO_SA, iterations=10, games=1, follow=None)
    assert main(["bound", SOLO_SA, "--iterations", "10", "--games", "1",
                 "--follow", "line"]) == 0
    assert "fixed draws, following its line" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        main(["bound", SOLO_SA, "--games", "1", "--follow", "best"])
    assert "invalid choice: 'best'" in capsys.readouterr().err
