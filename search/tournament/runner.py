"""Running a tournament: the driver, its journal, and two backends.

The driver plans the blocks (tournament.plan), skips those its journal holds
already, and hands the rest to a backend a few at a time; each finished
block is appended to the journal (one fsynced line) as soon as it arrives,
then the progress line is updated. The local backend's workers also send
each game as it ends, journaled as a `game` event of its block: a run
stopped mid-block keeps the games played, and the block's next run plays
only the rest (a block of strong bots can take hours). Before a block is
handed out, the driver checks whether it is still wanted: a pairing whose SPRT has decided, or a
field with a quarantined bot, gets no more blocks.

Backends:
- local: `jobs` worker processes (spawned, so a crash in one cannot touch
  the driver). The driver knows which block each worker holds: a worker that
  dies, or is still busy after block_seconds (then it is killed), has its
  block run again, up to `retries` times, then journaled as failed.
- ray: one Ray task per block (`ray.remote(num_cpus=1)`), results collected
  with ray.wait as they finish. Ray's own retries are off; a task whose
  worker died (WorkerCrashedError) is resubmitted by the driver under the
  same rules, so both backends count and journal faults alike.

Both run the same `play_block` on the same task, so a seed gives the same
games on either.
"""
from __future__ import annotations

import contextlib
import multiprocessing
import os
import signal
import sys
import tempfile
import time
import traceback
from collections import deque
from multiprocessing.connection import wait as mp_wait

from easel.engine.errors import EaselError

from . import results as results_mod
from .config import TournamentConfig, parse, to_data
from .journal import JOURNAL_NAME, Journal
from .plan import plan
from .play import play_block

GAMES_EGN = "games.egn"         # every journaled game, as EGN text (docs/records.md)



@contextlib.contextmanager
def neutral_directory():
    """Run `ray.init` from a directory that holds no code: Ray puts the driver's
    working directory first on its workers' import path, and run from an Easel
    checkout that would make them import the unbuilt source tree instead of
    the installed easel."""
    here = os.getcwd()
    os.chdir(tempfile.gettempdir())
    try:
        yield
    finally:
        os.chdir(here)

class TournamentError(EaselError, RuntimeError):
    """A tournament that cannot be run or resumed."""


# -- local processes ------------------------------------------------------------------

def _worker_main(conn):
    signal.signal(signal.SIGINT, signal.SIG_IGN)        # the driver handles Ctrl-C
    conn.send(("ready", None))                          # started: what dies later is a block's
    while True:
        try:
            message = conn.recv()
        except EOFError:
            return
        if message is None:
            return
        try:
            conn.send(("ok", play_block(message["task"], message["done"],
                                        on_game=lambda record: conn.send(("game", record)))))
        except Exception as e:
            conn.send(("error", f"{type(e).__name__}: {e}\n"
                                f"{''.join(traceback.format_exc(limit=6))}"))


class LocalBackend:
    name = "local"

    def __init__(self, jobs: int, block_seconds: float | None, on_game=None):
        self.ctx = multiprocessing.get_context("spawn")
        self.jobs = jobs
        self.block_seconds = block_seconds
        self.on_game = on_game    # on_game(task, record): a game of a block in play ended
        self.idle = []
        self.busy = {}            # conn -> (process, task, started)
        self.ready = set()        # pids of workers that have started

    @property
    def capacity(self) -> int:
        return self.jobs

    def _spawn(self):
        parent, child = self.ctx.Pipe()
        proc = self.ctx.Process(target=_worker_main, args=(child,), daemon=True,
                                name="easel-tournament-worker")
        proc.start()
        child.close()
        return proc, parent

    def submit(self, task, done: dict | None = None):
        proc, conn = self.idle.pop() if self.idle else self._spawn()
        conn.send({"task": task.to_dict(), "done": done or {}})
        self.busy[conn] = (proc, task, time.monotonic())

    def _receive(self, conn, proc, task):
        """The next result message, after the start-up handshake and the games
        the block has sent (handed to on_game); EOFError if there is none yet or
        the worker is gone. A worker that dies before its handshake could not
        start at all: that is no block's fault, and rerunning blocks would not
        help."""
        while True:
            if not conn.poll():
                raise EOFError
            kind, payload = conn.recv()
            if kind == "ready":
                self.ready.add(proc.pid)
                continue
            if kind == "game":
                if self.on_game is not None:
                    self.on_game(task, payload)
                continue
            return kind, payload

    def wait(self, timeout: float):
        """[(task, "ok", entry) | (task, "died", detail)] of whatever finished."""
        if not self.busy:
            return []
        if self.block_seconds is not None:
            first = min(started for _, _, started in self.busy.values())
            timeout = max(0.0, min(timeout, first + self.block_seconds - time.monotonic()))
        sentinels = {proc.sentinel: conn for conn, (proc, _, _) in self.busy.items()}
        ready = mp_wait(list(self.busy) + list(sentinels), timeout)
        out = []
        for obj in ready:
            conn = sentinels.get(obj, obj)
            if conn not in self.busy:
                continue
            proc, task, _ = self.busy[conn]
            try:
                kind, payload = self._receive(conn, proc, task)
            except (EOFError, OSError):
                if proc.is_alive():
                    continue                    # only the handshake was there (or it is exiting)
                proc.join(5)
                del self.busy[conn]
                conn.close()
                if proc.pid not in self.ready:
                    raise TournamentError(
                        f"a worker process could not start (exit code {proc.exitcode}); "
                        "its error is above. Run the tournament from a file or the "
                        "`easel tournament` command (spawned workers re-import the main "
                        "module), with this same Python and Easel.")
                out.append((task, "died", f"worker process exited with code {proc.exitcode}"))
                continue
            del self.busy[conn]
            if kind == "ok":
                self.idle.append((proc, conn))
                out.append((task, "ok", payload))
            else:
                self.idle.append((proc, conn))
                out.append((task, "died", f"block failed outside the bots: {payload}"))
        if self.block_seconds is not None:
            now = time.monotonic()
            for conn, (proc, task, started) in list(self.busy.items()):
                if now - started > self.block_seconds:
                    proc.kill()
                    proc.join(5)
                    del self.busy[conn]
                    conn.close()
                    out.append((task, "died", f"block still running after "
                                              f"{self.block_seconds:g} s: worker killed"))
        return out

    def close(self):
        for proc, conn in self.idle:
            try:
                conn.send(None)
            except OSError:
                pass
        for proc, conn in self.idle:
            proc.join(5)
            if proc.is_alive():
                proc.kill()
            conn.close()
        for conn, (proc, _, _) in self.busy.items():
            proc.kill()
            proc.join(5)
            conn.close()
        self.idle, self.busy = [], {}


# -- Ray --------------------------------------------------------------------------------

def _ray_play(task: dict, done: dict) -> dict:
    return play_block(task, done)


class RayBackend:
    name = "ray"

    def __init__(self, address: str, jobs: int, block_seconds: float | None):
        try:
            import ray
        except ImportError:
            raise TournamentError("the ray backend needs Ray: pip install 'easel[tournament]'") \
                from None
        self.ray = ray
        self.block_seconds = block_seconds
        self.started_here = False
        if not ray.is_initialized():
            kwargs = dict(include_dashboard=False, log_to_driver=False,
                          logging_level="WARNING")
            if address in ("local", "", None):
                # A fresh local instance: its workers must import this very easel.
                import easel
                root = os.path.dirname(os.path.dirname(os.path.abspath(easel.__file__)))
                path = os.pathsep.join([root] + [p for p in
                                                 os.environ.get("PYTHONPATH", "").split(os.pathsep)
                                                 if p])
                with neutral_directory():
                    ray.init(num_cpus=jobs, runtime_env={"env_vars": {"PYTHONPATH": path}},
                             **kwargs)
            else:
                try:
                    with neutral_directory():
                        ray.init(address=address, **kwargs)
                except (ConnectionError, RuntimeError, ValueError) as e:
                    raise TournamentError(f"cannot join the Ray cluster at {address!r}: {e}") \
                        from None
            self.started_here = True
        self.remote = ray.remote(num_cpus=1, max_retries=0)(_ray_play)
        cpus = int(ray.cluster_resources().get("CPU", jobs))
        self._capacity = max(1, cpus) + 1       # one queued ahead keeps every CPU busy
        self.refs = {}

    @property
    def capacity(self) -> int:
        return self._capacity

    def submit(self, task, done: dict | None = None):
        # A Ray task returns its block whole; games a local run journaled
        # before are kept all the same.
        ref = self.remote.remote(task.to_dict(), done or {})
        self.refs[ref] = (task, time.monotonic())

    def wait(self, timeout: float):
        ray = self.ray
        if not self.refs:
            return []
        ready, _ = ray.wait(list(self.refs), num_returns=1, timeout=timeout)
        if ready:       # collect every other one that is done too
            ready, _ = ray.wait(list(self.refs), num_returns=len(self.refs), timeout=0)
        out = []
        for ref in ready:
            task, _ = self.refs.pop(ref)
            try:
                out.append((task, "ok", ray.get(ref)))
            except ray.exceptions.RayTaskError as e:
                out.append((task, "died", f"block failed outside the bots: {e}"))
            except ray.exceptions.RayError as e:        # worker or node died, task lost
                out.append((task, "died", f"{type(e).__name__}: {str(e)[:300]}"))
        if self.block_seconds is not None:
            now = time.monotonic()
            for ref, (task, started) in list(self.refs.items()):
                if now - started > self.block_seconds:
                    ray.cancel(ref, force=True)
                    del self.refs[ref]
                    out.append((task, "died", f"block still running after "
                                              f"{self.block_seconds:g} s: task cancelled"))
        return out

    def close(self):
        for ref in list(self.refs):
            try:
                self.ray.cancel(ref, force=True)
            except Exception:
                pass
        self.refs = {}
        if self.started_here:
            self.ray.shutdown()


def make_backend(name: str, jobs: int, address: str, block_seconds, on_game=None):
    if name == "local":
        return LocalBackend(jobs, block_seconds, on_game)
    if name == "ray":
        return RayBackend(address, jobs, block_seconds)
    raise TournamentError(f"unknown backend {name!r}; backends: local, ray")


# -- progress -------------------------------------------------------------------------------

class Progress:
    """One line on a terminal (rewritten in place), else a line every `every` seconds."""

    def __init__(self, stream=None, every: float = 10.0):
        self.stream = stream if stream is not None else sys.stderr
        self.tty = hasattr(self.stream, "isatty") and self.stream.isatty()
        self.every = every
        self.last = 0.0
        self.started = time.monotonic()
        self.shown = False

    def update(self, done_games, total_games, done_blocks, total_blocks, leader, force=False):
        now = time.monotonic()
        if not force and not self.tty and now - self.last < self.every:
            return
        self.last = now
        rate = done_games / max(1e-9, now - self.started)
        left = max(0, total_games - done_games)
        eta = _clock(left / rate) if rate > 0 and done_games else "?"
        line = (f"{done_games}/{total_games} games, {done_blocks}/{total_blocks} blocks, "
                f"{rate * 3600:.0f} games/h, ETA {eta}, leader: {leader}")
        if self.tty:
            self.stream.write("\r\x1b[K" + line)
        else:
            self.stream.write(line + "\n")
        self.stream.flush()
        self.shown = True

    def close(self):
        if self.tty and self.shown:
            self.stream.write("\n")
            self.stream.flush()


def _clock(seconds: float) -> str:
    seconds = int(seconds)
    h, rest = divmod(seconds, 3600)
    m, s = divmod(rest, 60)
    return f"{h}h{m:02d}m" if h else f"{m}m{s:02d}s"


def _count(partial: dict) -> int:
    """Games journaled of blocks not yet journaled whole."""
    return sum(len(games) for games in partial.values())


def _leader(scores: dict) -> str:
    """The bot with the best mean win share so far (a cheap stand-in for the ratings)."""
    best = None
    for name, (share, games) in scores.items():
        if games and (best is None or share / games > best[1]):
            best = (name, share / games)
    return "-" if best is None else f"{best[0]} ({best[1]:.2f} win share)"


# -- the driver -------------------------------------------------------------------------------

def _write_atomic(path, text: str):
    tmp = f"{path}.tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(text)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


def open_run(cfg: TournamentConfig | None, out_dir, resume: bool):
    """(config, journal) for a new run in out_dir, or for resuming the one there."""
    path = os.path.join(out_dir, JOURNAL_NAME)
    if resume:
        if not os.path.exists(path):
            raise TournamentError(f"--resume {out_dir}: no {JOURNAL_NAME} there")
        journal = Journal.open(path)
        try:
            stored = parse(journal.header["config"])
        except EaselError as e:
            raise TournamentError(f"{path}: its configuration no longer loads: {e}") from None
        if stored.fingerprint() != journal.header["fingerprint"]:
            raise TournamentError(f"{path}: the configuration does not match its fingerprint")
        if cfg is not None and cfg.fingerprint() != stored.fingerprint():
            raise TournamentError(f"--resume {out_dir}: the journal belongs to another "
                                  "configuration (different games, bots, seed or rules)")
        _check_levels(out_dir, journal.header.get("levels"), level_specs(stored))
        _check_searches(out_dir, journal.header.get("searches"), search_specs(stored))
        return stored, journal
    if cfg is None:
        raise TournamentError("a configuration file is needed to start a tournament")
    os.makedirs(out_dir, exist_ok=True)
    journal = Journal.create(path, to_data(cfg), cfg.fingerprint(), level_specs(cfg),
                             search_specs(cfg))
    return cfg, journal


def level_specs(cfg: TournamentConfig) -> dict:
    """game -> bot -> the mcts spec each `level(N)` bot of `cfg` stands for in
    this build (search/levels.py). The configuration's fingerprint covers the
    text `level(5)`, not the table row it names, so the journal keeps the rows
    too: a resume after a table changed would otherwise mix two bots' games
    under one name."""
    from easel.search.specs import level_plays
    return _per_bot(cfg, ("level",), level_plays)


def search_specs(cfg: TournamentConfig) -> dict:
    """game -> bot -> the options each search bot (mcts or level) of `cfg`
    plays with in this build, the game's defaults filled in
    (specs.search_plays). The fingerprint covers the spec text, not the
    defaults it resolves to, so the journal keeps these too."""
    from easel.search.specs import search_plays
    if cfg.implementation != "core":        # no search without the core
        return {}
    return _per_bot(cfg, ("mcts", "level"), search_plays)


def _per_bot(cfg: TournamentConfig, kinds: tuple, read) -> dict:
    """game -> bot -> read(spec, game) for the bots of `cfg` of those kinds."""
    from easel import engine
    from easel.search.specs import parse_spec
    out: dict = {}
    if not any(parse_spec(spec).name in kinds for spec in cfg.bots.values()):
        return out
    for g in cfg.games:
        game = engine.load_game(g, cfg.implementation)
        for name, spec in cfg.bots.items():
            if parse_spec(spec).name not in kinds:
                continue
            try:
                value = read(spec, game)
            except EaselError:      # no level table for this game: its games forfeit
                continue
            if value is not None:
                out.setdefault(g, {})[name] = value
    return out


def _first_change(out_dir, what: str, journaled, now: dict, leaf: type):
    """The first (game, bot, journaled value, this build's value) that
    differ, or None; a journal from before the header kept `what` (None)
    cannot be checked, and a header that is not a table is refused."""
    if journaled is None:
        return None
    if not isinstance(journaled, dict) or not all(
            isinstance(v, dict) and all(isinstance(x, leaf) for x in v.values())
            for v in journaled.values()):
        raise TournamentError(f"--resume {out_dir}: the journal header's \"{what}\" is not "
                              f"a table of game -> bot -> {leaf.__name__}")
    for g in sorted(set(journaled) | set(now)):
        for bot in sorted(set(journaled.get(g, {})) | set(now.get(g, {}))):
            was, is_ = journaled.get(g, {}).get(bot), now.get(g, {}).get(bot)
            if was != is_:
                return g, bot, was, is_
    return None


def _check_searches(out_dir, journaled, now: dict) -> None:
    """Refuse a resume whose search bots now resolve to other options (a
    game's default changed)."""
    change = _first_change(out_dir, "searches", journaled, now, dict)
    if change:
        from easel.search.specs import differing_keys
        g, bot, was, is_ = change
        changed = "; ".join(differing_keys(was or {}, is_ or {}))[:300]
        raise TournamentError(
            f"--resume {out_dir}: bot {bot!r} in {g} played with other search options in this "
            f"journal than in this build ({changed}; a default changed); start the run "
            "afresh in a new directory")


def _check_levels(out_dir, journaled: dict | None, now: dict) -> None:
    """Refuse a resume whose level bots now stand for other specs."""
    change = _first_change(out_dir, "levels", journaled, now, str)
    if change:
        g, bot, was, is_ = change
        raise TournamentError(
            f"--resume {out_dir}: bot {bot!r} in {g} played {was} in this journal but is "
            f"{is_} in this build (search/levels.py changed); start the run afresh in a new "
            "directory")


def run(cfg: TournamentConfig, journal: Journal, backend: str | None = None,
        jobs: int | None = None, address: str | None = None, progress: Progress | None = None,
        stop_after_blocks: int | None = None) -> dict:
    """Play every block the journal lacks; return the journal's results.

    stop_after_blocks: return after journaling this many blocks (tests)."""
    backend = backend or cfg.backend
    jobs = jobs or cfg.jobs
    address = address or cfg.address
    tasks = plan(cfg)
    by_pairing = {}
    for t in tasks:
        by_pairing.setdefault((t.game, tuple(n for n, _ in t.field)), []).append(t)
    blocks = journal.blocks()
    failed = {e["id"] for e in journal.events if e.get("type") == "block_failed"}
    attempts = {}
    for e in journal.events:
        if e.get("type") == "worker_died":
            attempts[e["id"]] = attempts.get(e["id"], 0) + 1
    quarantined = {e["bot"] for e in journal.events if e.get("type") == "quarantine"}
    forfeits = {n: 0 for n in cfg.bots}
    scores = {n: [0.0, 0] for n in cfg.bots}

    trackers = {}
    if cfg.sprt is not None:
        trackers = {key: results_mod.SprtTracker(cfg, key[1]) for key in by_pairing
                    if len(key[1]) == 2}

    def account(entry):
        tracker = trackers.get((entry["game"], tuple(entry["field"])))
        if tracker is not None:
            tracker.add(entry)
        for rec in entry["games"]:
            if rec.get("fault"):
                forfeits[rec["fault"]["bot"]] += 1
            best = [s for s, p in enumerate(rec["places"]) if p == 1]
            for s, seat in enumerate(rec["seats"]):
                scores[seat["bot"]][0] += (1.0 / len(best)) if s in best else 0.0
                scores[seat["bot"]][1] += 1
    for entry in blocks.values():
        account(entry)

    def wanted(task) -> bool:
        if task.id in blocks or task.id in failed:
            return False
        names = tuple(n for n, _ in task.field)
        if quarantined & set(names):
            return False
        tracker = trackers.get((task.game, names))
        return tracker is None or not tracker.decided

    # The games of blocks not yet journaled whole (`game` events): block id ->
    # game index -> its first journaled record, handed to the block's next run.
    partial: dict = {}
    for e in journal.events:
        if e.get("type") == "game" and e.get("id") not in blocks and isinstance(
                e.get("record"), dict):
            partial.setdefault(e["id"], {}).setdefault(e["record"].get("index"), e["record"])

    def on_game(task, record):
        games = partial.setdefault(task.id, {})
        if task.id in blocks or record.get("index") in games:
            return
        journal.append({"type": "game", "id": task.id, "record": record})
        games[record.get("index")] = record
        if progress:
            progress.update(done_games + _count(partial), total_games, len(blocks), len(tasks),
                            _leader(scores))

    queue = deque(t for t in tasks if wanted(t))
    total_games = sum(len(t.orders) for t in tasks)
    done_games = sum(len(e["games"]) for e in blocks.values())
    retry = deque()
    inflight = {}
    journaled = 0
    engine = make_backend(backend, jobs, address, cfg.block_seconds, on_game)
    if progress:
        progress.update(done_games + _count(partial), total_games, len(blocks), len(tasks),
                        _leader(scores), True)
    try:
        while True:
            while len(inflight) < engine.capacity and (retry or queue):
                task = retry.popleft() if retry else queue.popleft()
                if task.id in inflight or not wanted(task):
                    continue
                engine.submit(task, partial.get(task.id))
                inflight[task.id] = task
            if not inflight:
                break
            arrived = engine.wait(timeout=1.0)
            for task, kind, payload in arrived:
                inflight.pop(task.id, None)
                if kind == "ok":
                    if payload["id"] in blocks:
                        continue                     # idempotent: counted once
                    journal.append(payload, sync=False)
                    blocks[payload["id"]] = payload
                    partial.pop(payload["id"], None)
                    account(payload)
                    done_games += len(payload["games"])
                    journaled += 1
                    if cfg.quarantine_after is not None:
                        for name, count in forfeits.items():
                            if count >= cfg.quarantine_after and name not in quarantined:
                                quarantined.add(name)
                                journal.append({"type": "quarantine", "bot": name,
                                                "forfeits": count})
                else:
                    n = attempts.get(task.id, 0) + 1
                    attempts[task.id] = n
                    journal.append({"type": "worker_died", "id": task.id, "attempt": n,
                                    "detail": payload[:2000]})
                    if n > cfg.retries:
                        journal.append({"type": "block_failed", "id": task.id, "attempts": n,
                                        "detail": payload[:2000]})
                        failed.add(task.id)
                    else:
                        retry.append(task)
            if arrived:
                journal.sync()
            if progress:
                progress.update(done_games + _count(partial), total_games, len(blocks),
                                len(tasks), _leader(scores))
            if stop_after_blocks is not None and journaled >= stop_after_blocks:
                break
    finally:
        engine.close()
        if progress:
            progress.update(done_games + _count(partial), total_games, len(blocks), len(tasks),
                            _leader(scores), force=True)
            progress.close()
    return results_mod.compute(cfg, tasks, journal.events)


def finish(cfg: TournamentConfig, journal: Journal, out_dir, results: dict,
           report: bool = True) -> dict:
    """Write results.json, games.csv, games.egn (every game as EGN text,
    docs/records.md) and report.html next to the journal."""
    import json
    from ..recordfiles import write_atomically
    from . import report as report_mod
    results = dict(results)
    results["timing"] = results_mod.timing(journal.events)
    _write_atomic(os.path.join(out_dir, "results.json"),
                  json.dumps(results, indent=1) + "\n")
    _write_atomic(os.path.join(out_dir, "games.csv"), report_mod.games_csv(journal.events))
    write_atomically(os.path.join(out_dir, GAMES_EGN),
                     ((f"block {rec['round']}, game {rec['index']}", rec)
                      for rec in report_mod.game_records(journal.events, cfg.name)),
                     cfg.implementation)
    if report:
        try:
            import matplotlib  # noqa: F401
        except ImportError:
            print("easel tournament: report.html needs matplotlib (pip install "
                  "'easel[tournament]'); results.json and games.csv are written",
                  file=sys.stderr)
            return results
        _write_atomic(os.path.join(out_dir, "report.html"), report_mod.render(results))
    return results
