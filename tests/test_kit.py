"""The game-author kit: registration checks hooks against declared
capabilities, with messages that name what is missing; facts are one copy
read by both implementations; capabilities are declared."""
from __future__ import annotations

import dataclasses

import pytest

from easel import engine
from easel.engine.errors import GameSpecError
from easel.engine.kit import Capabilities, GameEntry, GameFacts, GameHooks
from easel.engine.registry import register, unregister

from kit_fakes import facts, fake_game

BASE = dict(long_name="T", description="t", min_players=2, max_players=2, options={},
            players_option=None, facts=facts)


def _register(name, capabilities=Capabilities(), **hooks):
    hooks = {"reference": "kit_fakes:NimState", "codec": "kit_fakes", **hooks}
    try:
        register(GameEntry(name=name, capabilities=capabilities, hooks=GameHooks(**hooks),
                           **BASE))
    finally:
        unregister(name)


@pytest.mark.parametrize("caps, hooks, fragment", [
    (Capabilities(notation=True), {}, "declares notation but hooks.notation is None"),
    (Capabilities(heuristic_bot=True), {}, "declares heuristic_bot but hooks.policies is None"),
    (Capabilities(heuristic_bot=True), {"policies": "easel.engine.pig.codec"},
     "hooks.policies (easel.engine.pig.codec) lacks heuristic"),
    (Capabilities(notation=True), {"notation": "kit_fakes_missing"},
     "hooks.notation names 'kit_fakes_missing', which does not import"),
    (Capabilities(), {"codec": "easel.engine.errors"}, "lacks action_to_string, state_to_string"),
    (Capabilities(), {"reference": "kit_fakes:facts"}, "is not a ReferenceState subclass"),
    (Capabilities(), {"reference": "kit_fakes:Nothing"}, "module 'kit_fakes' has no 'Nothing'"),
    (Capabilities(rollout_policy=True), {}, "declares rollout_policy, which lives in a core"),
])
def test_registration_names_what_is_missing(caps, hooks, fragment):
    with pytest.raises(GameSpecError) as info:
        _register("broken_nim", caps, **hooks)
    assert fragment in str(info.value)
    assert "broken_nim" in str(info.value)
    assert "broken_nim" not in {e.name for e in engine.registered_games()}


def test_a_complete_fake_game_registers_and_plays():
    caps = Capabilities(structured_states=True, notation=True, heuristic_bot=True)
    with fake_game("full_nim", caps, notation="kit_fakes", policies="kit_fakes"):
        game = engine.load_game("full_nim", "reference")
        state = game.new_initial_state()
        assert state.is_chance_node() and len(state.chance_outcomes()) == 3
        state.apply_action(2)
        assert state.to_notation() == "7/0"
        back = game.state_from_notation("7/0")
        assert back.to_json() == state.to_json()
        with pytest.raises(engine.StateFormatError, match="expected PILE/PLAYER"):
            game.state_from_notation("seven")
        with pytest.raises(GameSpecError, match="has no core implementation"):
            engine.load_game("full_nim", "core")


def test_capabilities_not_declared_are_refused_with_a_reason():
    with fake_game("bare_nim"):
        game = engine.load_game("bare_nim", "reference")
        with pytest.raises(engine.StateFormatError, match="bare_nim has no table notation"):
            game.state_from_notation("5/0")
        with pytest.raises(engine.StateFormatError, match="cannot be loaded from a structured"):
            game.state_from_json({"pile": 5})
        with pytest.raises(engine.StateFormatError, match="has no table notation"):
            game.new_initial_state().to_notation()


def test_a_core_that_contradicts_the_declaration_is_refused():
    """connect_four's core has no rollout policy: declaring one fails at load,
    naming the capability."""
    real = engine.game_entry("connect_four")
    liar = dataclasses.replace(real, name="liar_four",
                               capabilities=Capabilities(rollout_policy=True, heuristic_bot=True))
    register(liar)
    try:
        with pytest.raises(GameSpecError, match="capabilities.rollout_policy is True but its "
                                                "core does not set"):
            engine.load_game("liar_four", "core")
    finally:
        unregister("liar_four")


@pytest.mark.parametrize("entry", engine.registered_games(), ids=lambda e: e.name)
def test_facts_are_one_copy_read_by_both_implementations(entry):
    impls = entry.implementations
    spec = entry.name
    games = [engine.load_game(spec, impl) for impl in impls]
    declared = entry.facts(engine.parse_game_string(spec)[1])
    for g in games:
        assert g.facts() == declared
        assert {f.name: getattr(g, f.name)() for f in dataclasses.fields(GameFacts)} == \
            dataclasses.asdict(declared)


@pytest.mark.parametrize("entry", engine.registered_games(), ids=lambda e: e.name)
def test_declared_capabilities_hold(entry):
    game = engine.load_game(entry.name, entry.implementations[0])
    caps = entry.capabilities
    state = game.new_initial_state()
    if entry.has_core:
        assert game.core.has_scores == caps.scores
        assert game.core.has_rollout_policy == caps.rollout_policy
    assert (state.scores() is not None) == caps.scores if hasattr(state, "scores") else True
    if caps.structured_states:
        assert game.state_from_json(state.to_json()).to_json() == state.to_json()
    if caps.notation:
        assert game.state_from_notation(state.to_notation()).to_json() == state.to_json()


def test_registering_twice_is_refused():
    with fake_game("twice_nim"):
        with pytest.raises(GameSpecError, match="registered twice"):
            register(engine.game_entry("twice_nim"))


def test_a_policies_evaluate_scores_the_greedy_bots_turn_ends():
    """A game without an evaluation of its own states lends the greedy bot its
    policies' `evaluate`: at a pile of 5 the bot takes 2 (leaving 3, lost for
    the mover) every time; with no hook every action looks neutral."""
    from easel.search.bots import GreedyBot
    caps = Capabilities(heuristic_bot=True)
    with fake_game("eval_nim", caps, policies="kit_fakes"):
        game = engine.load_game("eval_nim", "reference")
        state = game.new_initial_state()
        state.apply_action(0)                       # a pile of 5
        bot = GreedyBot(game, seed=1, depth=0)
        assert [u for _, u, _ in bot.action_values(state)] == [-0.5, 0.5]
        assert {bot.step(state) for _ in range(20)} == {1}
    with fake_game("plain_nim"):
        game = engine.load_game("plain_nim", "reference")
        state = game.new_initial_state()
        state.apply_action(0)
        assert [u for _, u, _ in GreedyBot(game, depth=0).action_values(state)] == [0.0, 0.0]


def test_a_policies_evaluate_that_is_not_a_function_is_refused(monkeypatch):
    import sys
    import types
    module = types.ModuleType("nim_bad_policies")
    module.heuristic = lambda state, rng: 0
    module.evaluate = 0.5
    monkeypatch.setitem(sys.modules, "nim_bad_policies", module)
    with pytest.raises(GameSpecError, match="has an `evaluate` that is not a function"):
        _register("bad_eval_nim", Capabilities(heuristic_bot=True), policies="nim_bad_policies")


def test_the_c_facts_are_the_dataclass_facts():
    """A fact is a field of kit.GameFacts and one of FactsC (engine/contract.pxd)
    of the same name, order and type: the core converts between them by name."""
    from easel.engine._core import CoreGame
    c_side = {name: type(zero).__name__ for name, zero in CoreGame.fact_fields().items()}
    py_side = {f.name: f.type for f in dataclasses.fields(GameFacts)}
    assert list(c_side.items()) == list(py_side.items())


def test_the_kit_is_a_leaf_and_the_build_needs_no_deferred_import():
    """kit imports nothing of Easel's but the errors; registry, build and game
    import each other at the top only (a deferred import hid a cycle)."""
    import ast
    import pathlib
    engine_dir = pathlib.Path(engine.__file__).parent

    def easel_imports(tree):
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and (node.level or node.module.startswith("easel")):
                yield node, "." * node.level + (node.module or "")
            elif isinstance(node, ast.Import):
                yield from ((node, a.name) for a in node.names if a.name.startswith("easel"))

    kit = ast.parse((engine_dir / "kit.py").read_text())
    assert {name for _, name in easel_imports(kit)} == {".errors"}
    for name in ("registry", "build", "game", "kit"):
        tree = ast.parse((engine_dir / f"{name}.py").read_text())
        deferred = [node.lineno for node, _ in easel_imports(tree) if node not in tree.body]
        assert deferred == [], f"engine/{name}.py imports inside a function at {deferred}"


def test_an_entry_types_its_parts():
    import typing
    from easel.engine import kit
    hints = typing.get_type_hints(GameEntry, vars(kit))
    assert hints["capabilities"] is Capabilities and hints["hooks"] is GameHooks
    assert hints["facts"] == typing.Callable[[dict], GameFacts]


def test_build_returns_a_checked_game_and_names_what_is_wrong(monkeypatch):
    """One build for both implementations; a facts function that does not
    return GameFacts, and a core holding other facts than declared, are refused."""
    import importlib
    import sys
    import types
    from easel.engine.build import build
    real = engine.game_entry("connect_four")
    for impl in ("core", "reference"):
        game = build(real, {}, impl)
        assert game.implementation == impl and game.max_game_length() == 42
    with pytest.raises(GameSpecError, match="unknown implementation 'fast'"):
        build(real, {}, "fast")
    odd = dataclasses.replace(real, facts=lambda params: real.facts(params).__dict__)
    with pytest.raises(GameSpecError, match="facts\\(params\\) must return a kit.GameFacts, "
                                            "got dict"):
        build(odd, {}, "reference")
    core = importlib.import_module("easel.engine.connect_four.core")
    liar = types.ModuleType("liar_four_core")
    liar.make_core = lambda params, facts: core.make_core(
        params, dataclasses.replace(facts, max_game_length=43))
    liar.init_state, liar.state_to_json = core.init_state, core.state_to_json
    monkeypatch.setitem(sys.modules, "liar_four_core", liar)
    lying = dataclasses.replace(real, hooks=dataclasses.replace(real.hooks, core="liar_four_core"))
    with pytest.raises(GameSpecError, match="its core holds other facts than facts\\(params\\): "
                                            "max_game_length 43 \\(declared 42\\)"):
        build(lying, {}, "core")
    without = types.ModuleType("no_init_core")
    without.make_core, without.state_to_json = core.make_core, core.state_to_json
    monkeypatch.setitem(sys.modules, "no_init_core", without)
    missing = dataclasses.replace(real, hooks=dataclasses.replace(real.hooks, core="no_init_core"))
    with pytest.raises(GameSpecError, match="hooks.core \\(no_init_core\\) lacks init_state"):
        build(missing, {}, "core")
