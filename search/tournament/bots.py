"""Bots for tournaments: a bot on another Easel server, and a deliberately
faulty bot.

``remote(target=HOST:PORT,spec=SPEC)`` plays each move by asking the
easel.v1.Engine service at HOST:PORT to Suggest one for the game so far, with
SPEC as its bot spec: two versions of the engine can meet in one tournament.
The game is sent as its full record (every step, chance outcomes included),
with `play_as_bot` and the bot's seed: the server answers the move SPEC
would make had it played this seat since the game began, tree reuse and all
(server/bot_replay.py), so a remote bot plays as the same spec played
locally with the same seed (exactly so with an iteration budget), and the
same tournament seed replays the same moves. A forced move is made here,
without a call, as every bot makes it.
A server behind TLS or a token: ``tls=true``, ``ca=PATH`` (its CA
certificate), ``token_env=NAME`` (the environment variable that holds the
bearer token, so that the secret stays out of configurations, journals and
reports).

``faulty(mode=...,after=N)`` plays random moves and, at its (N+1)-th decision
of every game, misbehaves: ``raise`` raises, ``illegal`` answers an action
that is not legal, ``sleep`` thinks for ``seconds`` before answering, and
``exit`` ends its worker process at once (with ``once=PATH``: only while PATH
does not exist, which it then creates, so that the block's rerun succeeds;
the creation is atomic, so of two workers that reach the fault together only
one exits).
It exists to test and demonstrate the tournament's handling of faults.
"""
from __future__ import annotations

import os
import random
import re
import time

from ..bots import Bot
from ..seeds import game_seed     # the seed the local bot plays a game with

_TARGET = re.compile(r"(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9._-]+):([0-9]{1,5})")
FAULT_MODES = ("raise", "illegal", "sleep", "exit")


def check_target(target: str) -> str:
    """HOST:PORT (an IPv6 host in brackets), or ValueError naming the problem."""
    m = _TARGET.fullmatch(target.strip()) if isinstance(target, str) else None
    if not m or not 1 <= int(m.group(2)) <= 65535:
        raise ValueError(f"target {target!r} must be HOST:PORT with a port in 1-65535")
    return target.strip()


class RemoteBot(Bot):
    def __init__(self, game, target: str, spec: str = "mcts", seed: int | None = None,
                 timeout: float = 120.0, tls: bool = False, ca: str | None = None,
                 token_env: str | None = None):
        self.target = check_target(target)
        if not isinstance(spec, str) or not spec.strip():
            raise ValueError("remote: spec must name the remote bot, e.g. spec=mcts")
        if not timeout > 0:
            raise ValueError(f"remote: timeout must be positive, got {timeout}")
        self.remote_spec = spec.strip()
        self.game_spec = game.spec
        self.seed = 0 if seed is None else int(seed)
        self.timeout = float(timeout)
        self.steps: list[int] = []
        self.tls, self.ca, self.token_env = tls, ca, token_env
        self._client = None
        self._games = 0             # games asked about before this one (as MCTSBot counts)
        self._asked = False

    def _connect(self):
        if self._client is None:
            from easel.client import EngineClient      # grpc only where it is used
            token = None
            if self.token_env:
                token = os.environ.get(self.token_env)
                if not token:
                    raise RuntimeError(f"remote {self.target}: the environment variable "
                                       f"{self.token_env} (token_env) is not set")
            self._client = EngineClient(self.target, timeout=self.timeout, tls=self.tls,
                                        ca=self.ca, token=token.strip() if token else None)
        return self._client

    def restart(self) -> None:
        if self._asked:
            self._games += 1
        self.steps = []
        self._asked = False

    def inform(self, action: int) -> None:
        self.steps.append(int(action))

    def step(self, state) -> int:
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        self._asked = True
        answer = self._connect().suggest_response(
            self.game_spec, list(self.steps), bot=self.remote_spec, num_candidates=1,
            seed=game_seed(self.seed, self._games) & 0xFFFFFFFFFFFFFFFF, play_as_bot=True)
        if not answer.played_as_bot:
            raise RuntimeError(f"remote {self.target}: the server does not play as a bot (it "
                               f"predates SearchSettings.play_as_bot), so its moves would not "
                               f"be {self.remote_spec}'s; serve a newer easel there")
        analysis = answer.analysis
        if not analysis.candidates:
            raise RuntimeError(f"remote {self.target}: Suggest returned no candidate")
        return int(analysis.candidates[0].id)

    def close(self):
        if self._client is not None:
            self._client.close()
            self._client = None


class FaultyBot(Bot):
    def __init__(self, game, mode: str = "raise", after: int = 0, seconds: float = 1.0,
                 once: str | None = None, seed: int | None = None):
        if mode not in FAULT_MODES:
            raise ValueError(f"faulty: mode must be one of {', '.join(FAULT_MODES)}, got {mode!r}")
        if after < 0:
            raise ValueError(f"faulty: after must be >= 0, got {after}")
        self.mode, self.after, self.seconds, self.once = mode, after, seconds, once
        self.rng = random.Random(seed)
        self.decisions = 0

    def restart(self) -> None:
        self.decisions = 0

    def step(self, state) -> int:
        self.decisions += 1
        legal = state.legal_actions()
        if self.decisions == self.after + 1:
            if self.mode == "raise":
                raise RuntimeError("faulty bot: deliberate failure")
            if self.mode == "illegal":
                return max(legal) + 1 if max(legal) + 1 not in legal else -1
            if self.mode == "sleep":
                time.sleep(self.seconds)
            if self.mode == "exit":
                if self.once is None or _claim(self.once):
                    os._exit(3)
        return self.rng.choice(legal)


def _claim(path: str) -> bool:
    """Create PATH if it does not exist; True only for the one caller that did.

    Exclusive creation, not a check then a write: two workers of one tournament
    can reach the fault in the same instant, and both would see no file.
    """
    try:
        os.close(os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644))
    except FileExistsError:
        return False
    return True
