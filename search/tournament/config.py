"""A tournament's configuration: a TOML file (or JSON with the same shape).

    name = "van-gogh-3p"              # optional: a title for the report
    seed = 7                          # the master seed: every block seed derives from it
    games = ["vangogh(players=3)", "pig(players=3)"]
    format = "round-robin"            # head-to-head | gauntlet | round-robin | ladder
    challenger = "mcts"               # gauntlet: the bot that meets every field of others
    reach = 3                         # ladder: fields span at most this many places of [bots]
    seating = "auto"                  # fields of 3-5: auto | all | balanced (tournament.schedule)
    games_per_field = 24              # rounded up to whole blocks
    implementation = "core"           # or "reference"

    [bots]                            # name = bot spec (easel arena's spec strings)
    heuristic = "heuristic"
    mcts = "mcts(iterations=200)"
    old = "remote(target=127.0.0.1:50051,spec=mcts(iterations=200))"

    [fields]                          # optional, games of 3-5 players
    sample = 10                       # play this many fields, drawn with the seed, not all

    [sprt]                            # optional, two-player games: stop a pairing once decided
    elo0 = 0.0
    elo1 = 10.0
    alpha = 0.05
    beta = 0.05

    [budgets]
    move_seconds = 5.0                # a slower move forfeits the game ("timeout")
    block_seconds = 1800.0            # a block still running then: its worker is killed, rerun

    [faults]
    retries = 2                       # reruns of a block whose worker died or hung
    quarantine_after = 5              # a bot's forfeits before its further blocks are skipped

    [run]                             # how to run; results never depend on it
    backend = "local"                 # or "ray"
    jobs = 2                          # local worker processes
    address = "auto"                  # ray: "auto", "local", or "ray://host:10001"

    [report]
    bootstrap = 200                   # resamples over blocks for the rating intervals

Fields: for a game of n players, a field is n different bots that play each
other. head-to-head takes exactly two bots (two-player games only);
round-robin plays every set of n bots; gauntlet plays the challenger with
every set of n-1 others; ladder plays every set of n bots that lie within
`reach` places of each other in the [bots] table, weakest to strongest (a
rating ladder: the games between near neighbours are the informative ones,
and the strongest bots, the costly ones, meet only their neighbours). Every
error names its key.
"""
from __future__ import annotations

import hashlib
import json
import math
import re
from dataclasses import asdict, dataclass

from easel.engine import userfiles
from easel.engine.errors import EaselError

from .schedule import SEATINGS

FORMATS = ("head-to-head", "gauntlet", "round-robin", "ladder")
BACKENDS = ("local", "ray")
_NAME = re.compile(r"[A-Za-z0-9_.+-]{1,64}")


class ConfigError(EaselError, ValueError):
    """A tournament configuration that cannot be run; the message names the key."""


@dataclass(frozen=True)
class SprtConfig:
    elo0: float
    elo1: float
    alpha: float = 0.05
    beta: float = 0.05


@dataclass(frozen=True)
class TournamentConfig:
    games: tuple
    bots: dict                       # name -> canonical spec text, in file order
    format: str = "round-robin"
    name: str = "tournament"
    seed: int = 0
    challenger: str | None = None
    reach: int | None = None
    seating: str = "auto"
    games_per_field: int = 12
    implementation: str = "core"
    field_sample: int | None = None
    sprt: SprtConfig | None = None
    move_seconds: float | None = None
    block_seconds: float | None = None
    retries: int = 2
    quarantine_after: int | None = None
    backend: str = "local"
    jobs: int = 1
    address: str = "auto"
    bootstrap: int = 200

    def rules(self) -> dict:
        """Everything results depend on (not how the run is spread over machines)."""
        d = asdict(self)
        for key in ("backend", "jobs", "address"):
            d.pop(key)
        if d["reach"] is None:      # configurations from before `ladder` keep their fingerprints
            d.pop("reach")
        return d

    def fingerprint(self) -> str:
        text = json.dumps(self.rules(), sort_keys=True, default=list)
        return hashlib.blake2b(text.encode(), digest_size=8).hexdigest()


_TOP = {"name", "seed", "games", "format", "challenger", "reach", "seating", "games_per_field",
        "implementation", "bots", "fields", "sprt", "budgets", "faults", "run", "report"}
_TABLES = {"fields": {"sample"}, "sprt": {"elo0", "elo1", "alpha", "beta"},
           "budgets": {"move_seconds", "block_seconds"},
           "faults": {"retries", "quarantine_after"},
           "run": {"backend", "jobs", "address"}, "report": {"bootstrap"}}


def load_text(text: str, source: str = "config") -> dict:
    """Parse TOML, or JSON when the text starts with '{'."""
    if text.lstrip().startswith("{"):
        try:
            data = json.loads(text)
        except json.JSONDecodeError as e:
            raise ConfigError(f"{source}: not valid JSON: {e.msg} at line {e.lineno}, "
                              f"column {e.colno}") from None
    else:
        try:
            import tomllib
        except ModuleNotFoundError:               # Python 3.10
            import tomli as tomllib
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as e:
            raise ConfigError(f"{source}: not valid TOML: {e}") from None
    if not isinstance(data, dict):
        raise ConfigError(f"{source}: the top level must be a table (object)")
    return data


def load(path) -> TournamentConfig:
    """The configuration in the file `path`: a regular file within
    CONFIG_FILES (engine/userfiles.py), else a ConfigError naming it."""
    text = userfiles.read_text(path, "the configuration", userfiles.CONFIG_FILES, ConfigError)
    return parse(load_text(text, str(path)))


def _get(table: dict, key: str, where: str, kind, default=None, check=None, what=""):
    if key not in table:
        return default
    value = table[key]
    ok = isinstance(value, kind) and not (isinstance(value, bool) and kind is not bool)
    if kind is float and isinstance(value, int) and not isinstance(value, bool):
        value, ok = float(value), True
    if not ok:
        names = {int: "an integer", float: "a number", str: "a string", bool: "true or false",
                 list: "a list", dict: "a table"}
        raise ConfigError(f"{where}{key}: must be {names.get(kind, kind.__name__)}, "
                          f"got {value!r}")
    if check is not None and not check(value):
        raise ConfigError(f"{where}{key}: must be {what}, got {value!r}")
    return value


def parse(data: dict) -> TournamentConfig:
    """Check a parsed configuration; every error names the offending key."""
    from easel import engine
    from easel.search.specs import parse_spec
    for key in data:
        if key not in _TOP:
            raise ConfigError(f"{key}: unknown key; keys: {', '.join(sorted(_TOP))}")
    for table, keys in _TABLES.items():
        if table in data:
            if not isinstance(data[table], dict):
                raise ConfigError(f"{table}: must be a table, got {data[table]!r}")
            for key in data[table]:
                if key not in keys:
                    raise ConfigError(f"{table}.{key}: unknown key; [{table}] keys: "
                                      f"{', '.join(sorted(keys))}")
    name = _get(data, "name", "", str, "tournament", lambda v: v.strip() != "", "non-empty")
    seed = _get(data, "seed", "", int, 0, lambda v: 0 <= v < 2 ** 63, "in 0 .. 2^63-1")
    fmt = _get(data, "format", "", str, "round-robin", lambda v: v in FORMATS,
               "one of " + ", ".join(FORMATS))
    seating = _get(data, "seating", "", str, "auto", lambda v: v in SEATINGS,
                   "one of " + ", ".join(SEATINGS))
    per_field = _get(data, "games_per_field", "", int, 12, lambda v: 1 <= v <= 10 ** 7,
                     "in 1 .. 10000000")
    implementation = _get(data, "implementation", "", str, "core",
                          lambda v: v in ("core", "reference"), "core or reference")

    if "games" not in data:
        raise ConfigError("games: missing; list the game strings, e.g. games = [\"pig\"]")
    games_in = _get(data, "games", "", list, check=lambda v: len(v) > 0, what="a non-empty list")
    games, loaded = [], []
    for i, g in enumerate(games_in):
        if not isinstance(g, str):
            raise ConfigError(f"games[{i}]: must be a game string, got {g!r}")
        try:
            game = engine.load_game(g, implementation)
        except EaselError as e:
            raise ConfigError(f"games[{i}]: {e}") from None
        if game.spec in games:
            raise ConfigError(f"games[{i}]: {game.spec!r} is listed twice")
        if game.num_players() < 2:
            raise ConfigError(f"games[{i}]: {game.spec!r} has {game.num_players()} player; "
                              "a tournament needs games of 2 to 5 players")
        if game.num_players() > 5:
            raise ConfigError(f"games[{i}]: {game.spec!r} has {game.num_players()} players; "
                              "fields of at most 5 are supported")
        games.append(game.spec)
        loaded.append(game)

    if "bots" not in data:
        raise ConfigError("bots: missing; a table of name = \"spec\", e.g. [bots] a = \"random\"")
    bots_in = _get(data, "bots", "", dict)
    bots = {}
    for bname, spec in bots_in.items():
        where = f"bots.{bname}"
        if not _NAME.fullmatch(bname):
            raise ConfigError(f"{where}: a bot name is 1-64 letters, digits or _.+-")
        if not isinstance(spec, str):
            raise ConfigError(f"{where}: must be a bot spec string, got {spec!r}")
        try:
            parsed = parse_spec(spec)
            for game in loaded:                 # refuse a bot that cannot play before any game
                from easel.search.specs import make_bot
                make_bot(parsed, game, seed=0)
        except EaselError as e:
            raise ConfigError(f"{where}: {e}") from None
        bots[bname] = parsed.text
    if len(bots) < 2:
        raise ConfigError(f"bots: a tournament needs at least two bots, got {len(bots)}")

    challenger = _get(data, "challenger", "", str)
    if fmt == "gauntlet":
        if challenger is None:
            raise ConfigError("challenger: a gauntlet needs the name of its challenger bot")
        if challenger not in bots:
            raise ConfigError(f"challenger: {challenger!r} is not one of the bots "
                              f"({', '.join(bots)})")
    elif challenger is not None:
        raise ConfigError(f"challenger: only a gauntlet has a challenger (format is {fmt!r})")
    reach = _get(data, "reach", "", int, None, lambda v: 1 <= v <= len(bots) - 1,
                 f"in 1 .. {len(bots) - 1} (places between bots of [bots])")
    if fmt == "ladder":
        if reach is None:
            raise ConfigError("reach: a ladder needs it: fields span at most this many places "
                              "of [bots], e.g. reach = 3")
    elif reach is not None:
        raise ConfigError(f"reach: only a ladder has a reach (format is {fmt!r})")
    for i, game in enumerate(loaded):
        n = game.num_players()
        if fmt == "head-to-head":
            if len(bots) != 2:
                raise ConfigError(f"bots: head-to-head takes exactly two bots, got {len(bots)}")
            if n != 2:
                raise ConfigError(f"games[{i}]: head-to-head plays two-player games; "
                                  f"{game.spec!r} has {n} players (use round-robin or gauntlet)")
        if len(bots) < n:
            raise ConfigError(f"bots: {game.spec!r} needs fields of {n} different bots, "
                              f"only {len(bots)} are configured")
        if fmt == "ladder" and reach < n - 1:
            raise ConfigError(f"reach: {game.spec!r} has fields of {n} bots, which span at "
                              f"least {n - 1} places; got reach = {reach}")

    fields_t = data.get("fields", {})
    sample = _get(fields_t, "sample", "fields.", int, None, lambda v: v >= 1, "at least 1")

    sprt = None
    if "sprt" in data:
        t = data["sprt"]
        for key in ("elo0", "elo1"):
            if key not in t:
                raise ConfigError(f"sprt.{key}: missing (the SPRT tests elo0 against elo1)")
        elo0 = _get(t, "elo0", "sprt.", float)
        elo1 = _get(t, "elo1", "sprt.", float)
        if not elo1 > elo0:
            raise ConfigError(f"sprt.elo1: must be greater than sprt.elo0, got elo0={elo0}, "
                              f"elo1={elo1}")
        alpha = _get(t, "alpha", "sprt.", float, 0.05, lambda v: 0 < v < 0.5, "in (0, 0.5)")
        beta = _get(t, "beta", "sprt.", float, 0.05, lambda v: 0 < v < 0.5, "in (0, 0.5)")
        for i, game in enumerate(loaded):
            if game.num_players() != 2:
                raise ConfigError(f"sprt: the SPRT compares pairs in two-player games; "
                                  f"games[{i}] {game.spec!r} has {game.num_players()} players")
        sprt = SprtConfig(elo0, elo1, alpha, beta)

    b = data.get("budgets", {})
    move_seconds = _get(b, "move_seconds", "budgets.", float, None,
                        lambda v: 0 < v < math.inf, "a positive number of seconds")
    block_seconds = _get(b, "block_seconds", "budgets.", float, None,
                         lambda v: 0 < v < math.inf, "a positive number of seconds")
    f = data.get("faults", {})
    retries = _get(f, "retries", "faults.", int, 2, lambda v: 0 <= v <= 100, "in 0 .. 100")
    quarantine = _get(f, "quarantine_after", "faults.", int, None, lambda v: v >= 1,
                      "at least 1")
    r = data.get("run", {})
    backend = _get(r, "backend", "run.", str, "local", lambda v: v in BACKENDS,
                   "one of " + ", ".join(BACKENDS))
    jobs = _get(r, "jobs", "run.", int, 1, lambda v: 1 <= v <= 4096, "in 1 .. 4096")
    address = _get(r, "address", "run.", str, "auto")
    rep = data.get("report", {})
    bootstrap = _get(rep, "bootstrap", "report.", int, 200, lambda v: 0 <= v <= 100000,
                     "in 0 .. 100000")
    return TournamentConfig(
        games=tuple(games), bots=bots, format=fmt, name=name.strip(), seed=seed,
        challenger=challenger, reach=reach, seating=seating, games_per_field=per_field,
        implementation=implementation, field_sample=sample, sprt=sprt,
        move_seconds=move_seconds, block_seconds=block_seconds, retries=retries,
        quarantine_after=quarantine, backend=backend, jobs=jobs, address=address,
        bootstrap=bootstrap)


def to_data(cfg: TournamentConfig) -> dict:
    """The configuration as a table parse() reads back to the same config."""
    d = {"name": cfg.name, "seed": cfg.seed, "games": list(cfg.games), "format": cfg.format,
         "seating": cfg.seating, "games_per_field": cfg.games_per_field,
         "implementation": cfg.implementation, "bots": dict(cfg.bots),
         "faults": {"retries": cfg.retries},
         "run": {"backend": cfg.backend, "jobs": cfg.jobs, "address": cfg.address},
         "report": {"bootstrap": cfg.bootstrap}}
    if cfg.challenger is not None:
        d["challenger"] = cfg.challenger
    if cfg.reach is not None:
        d["reach"] = cfg.reach
    if cfg.field_sample is not None:
        d["fields"] = {"sample": cfg.field_sample}
    if cfg.sprt is not None:
        d["sprt"] = asdict(cfg.sprt)
    budgets = {k: v for k, v in (("move_seconds", cfg.move_seconds),
                                 ("block_seconds", cfg.block_seconds)) if v is not None}
    if budgets:
        d["budgets"] = budgets
    if cfg.quarantine_after is not None:
        d["faults"]["quarantine_after"] = cfg.quarantine_after
    return d
