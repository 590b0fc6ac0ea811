"""Configuration: TOML and JSON, defaults, and errors that name the key."""
from __future__ import annotations

import pytest

from easel.search.tournament.config import ConfigError, load, parse, to_data
from easel.server.cli import main

BASE = {"seed": 5, "games": ["connect_four"], "bots": {"a": "random", "b": "heuristic"}}


def with_(**changes):
    data = {k: (dict(v) if isinstance(v, dict) else v) for k, v in BASE.items()}
    for key, value in changes.items():
        if "__" in key:
            table, sub = key.split("__")
            data.setdefault(table, {})[sub] = value
        else:
            data[key] = value
    return data


def test_toml_and_json_give_the_same_config(write_config):
    data = with_(format="head-to-head", games_per_field=6, sprt__elo0=0, sprt__elo1=20,
                 budgets__move_seconds=2, faults__quarantine_after=3)
    a = load(write_config(data, "t.toml"))
    b = load(write_config(data, "t.json"))
    assert a == b
    assert a.games == ("connect_four",) and a.bots == {"a": "random", "b": "heuristic"}
    assert a.sprt.elo1 == 20.0 and a.move_seconds == 2.0 and a.quarantine_after == 3
    assert parse(to_data(a)) == a
    assert a.fingerprint() == parse(to_data(a)).fingerprint()


def test_run_settings_do_not_change_the_fingerprint():
    a = parse(with_(run={"jobs": 1}))
    b = parse(with_(run={"jobs": 4, "backend": "ray", "address": "auto"}))
    assert a.fingerprint() == b.fingerprint()
    assert a.fingerprint() != parse(with_(seed=6)).fingerprint()


@pytest.mark.parametrize("data,key", [
    (with_(colour="red"), "colour: unknown key"),
    (with_(seed="x"), "seed: must be an integer"),
    (with_(seed=-1), "seed: must be in"),
    ({"bots": BASE["bots"]}, "games: missing"),
    (with_(games=[]), "games: must be a non-empty list"),
    (with_(games=["chess"]), "games[0]:"),
    (with_(games=["connect_four", "pig(players=9)"]), "games[1]:"),
    (with_(games=["connect_four", "connect_four"]), "games[1]: 'connect_four' is listed twice"),
    (with_(games=["vangogh(players=1)"]), "games[0]:"),
    (with_(bots={"a": "random"}), "bots: a tournament needs at least two bots"),
    (with_(bots={"a": "random", "b": "mcts(iterations=zero)"}), "bots.b:"),
    (with_(bots={"a": "random", "b": "nobot"}), "bots.b: bot spec 'nobot': unknown bot"),
    (with_(bots={"a": "random", "b": 3}), "bots.b: must be a bot spec string"),
    (with_(bots={"a": "random", "b c": "random"}), "bots.b c: a bot name"),
    (with_(bots={"a": "random", "b": "remote(target=nohost,spec=mcts)"}), "bots.b: remote:"),
    (with_(format="swiss"), "format: must be one of"),
    (with_(format="gauntlet"), "challenger: a gauntlet needs"),
    (with_(format="gauntlet", challenger="z"), "challenger: 'z' is not one of the bots"),
    (with_(challenger="a"), "challenger: only a gauntlet"),
    (with_(format="ladder"), "reach: a ladder needs it"),
    (with_(format="ladder", reach=0), "reach: must be in 1 .. 1"),
    (with_(format="ladder", reach=2), "reach: must be in 1 .. 1"),
    (with_(format="ladder", reach=True), "reach: must be an integer"),
    (with_(reach=1), "reach: only a ladder has a reach (format is 'round-robin')"),
    (with_(format="ladder", reach=1, games=["pig(players=3)"],
           bots={"a": "random", "b": "random", "c": "random"}),
     "reach: 'pig(players=3)' has fields of 3 bots, which span at least 2 places"),
    (with_(format="head-to-head", games=["pig(players=3)"]), "games[0]: head-to-head plays"),
    (with_(format="head-to-head", bots={"a": "random", "b": "random", "c": "random"}),
     "bots: head-to-head takes exactly two bots"),
    (with_(games=["pig(players=3)"]), "bots: 'pig(players=3)' needs fields of 3"),
    (with_(seating="cyclic"), "seating: must be one of"),
    (with_(games_per_field=0), "games_per_field: must be in"),
    (with_(sprt__elo0=0), "sprt.elo1: missing"),
    (with_(sprt__elo0=10, sprt__elo1=5), "sprt.elo1: must be greater"),
    (with_(sprt__elo0=0, sprt__elo1=5, sprt__alpha=0.7), "sprt.alpha: must be in"),
    (with_(sprt__elo0=0, sprt__elo1=5, sprt__gamma=1), "sprt.gamma: unknown key"),
    (with_(budgets__move_seconds=0), "budgets.move_seconds: must be a positive"),
    (with_(budgets__move_seconds="1s"), "budgets.move_seconds: must be a number"),
    (with_(faults__retries=-1), "faults.retries: must be in"),
    (with_(faults__quarantine_after=0), "faults.quarantine_after: must be at least 1"),
    (with_(run__backend="spark"), "run.backend: must be one of"),
    (with_(run__jobs=0), "run.jobs: must be in"),
    (with_(fields__sample=0), "fields.sample: must be at least 1"),
    (with_(report__bootstrap=-5), "report.bootstrap: must be in"),
    (with_(run=[1]), "run: must be a table"),
])
def test_errors_name_the_key(data, key):
    with pytest.raises(ConfigError) as err:
        parse(data)
    assert str(err.value).startswith(key), str(err.value)


def test_sprt_needs_two_player_games():
    with pytest.raises(ConfigError, match=r"^sprt: .*games\[0\]"):
        parse(with_(games=["pig(players=3)"], bots={"a": "random", "b": "random",
                                                    "c": "random"},
                    sprt={"elo0": 0, "elo1": 10}))


def test_file_errors(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text("games = [\n")
    with pytest.raises(ConfigError, match="not valid TOML"):
        load(bad)
    badj = tmp_path / "bad.json"
    badj.write_text("{\"games\": }")
    with pytest.raises(ConfigError, match="not valid JSON"):
        load(badj)
    with pytest.raises(ConfigError, match="cannot read"):
        load(tmp_path / "missing.toml")


def test_cli_reports_the_key_and_exits_2(write_config, tmp_path, capsys):
    path = write_config(with_(budgets__move_seconds=-1))
    assert main(["tournament", path, "--out", str(tmp_path / "o")]) == 2
    err = capsys.readouterr().err
    assert "budgets.move_seconds" in err
    assert not (tmp_path / "o").exists()


def test_the_example_configurations_load():
    import glob
    import os
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    paths = sorted(glob.glob(os.path.join(root, "examples", "tournaments", "*.toml")))
    assert len(paths) >= 2
    for path in paths:
        cfg = load(path)
        assert cfg.games and len(cfg.bots) >= 2


def test_a_ladder_plays_the_neighbours_within_its_reach():
    from easel.search.tournament.plan import fields_of, plan
    names = {f"b{i}": "random" for i in range(6)}
    cfg = parse(with_(format="ladder", reach=2, bots=names, games_per_field=2))
    assert fields_of(cfg, "connect_four", 2) == [
        ("b0", "b1"), ("b0", "b2"), ("b1", "b2"), ("b1", "b3"), ("b2", "b3"), ("b2", "b4"),
        ("b3", "b4"), ("b3", "b5"), ("b4", "b5")]
    assert fields_of(cfg, "pig(players=3)", 3) == [
        ("b0", "b1", "b2"), ("b1", "b2", "b3"), ("b2", "b3", "b4"), ("b3", "b4", "b5")]
    assert parse(to_data(cfg)) == cfg and cfg.fingerprint() == parse(to_data(cfg)).fingerprint()
    # a pair the ladder shares with the round-robin plays the same seeds
    rr = parse(with_(bots=names, games_per_field=2))
    seeds = {t.id: t.seed for t in plan(rr)}
    assert all(seeds[t.id] == t.seed for t in plan(cfg))
    # the whole reach is a round-robin; a configuration without reach keeps its fingerprint
    full = parse(with_(format="ladder", reach=5, bots=names, games_per_field=2))
    assert {t.id for t in plan(full)} == set(seeds)
    assert "reach" not in rr.rules()
