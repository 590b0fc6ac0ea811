"""One match in memory: its game state, its steps, its clocks, and the only
ways to change it (`commit_step`, `end`), which write to the store *before*
changing anything in memory or waking anyone.

Concurrency model: each match has one `threading.Condition` (`cond`). Every
read or change of the match's mutable fields happens while holding it. A
change is: check, build the new state on a clone, commit to SQLite, then
swap the new state in, bump `version` and `notify_all`. So whoever learns of
a step (a watcher, a SubmitAction answer, a bot) learns of a committed one;
if the commit fails, nothing changed. Slow work (a bot's search, a hint)
runs outside the lock on a clone and re-checks the step number before it
commits.
"""
from __future__ import annotations

import threading
import time

from easel.engine import PLAYER_CHANCE
from easel.search.bots import player_scores

from . import draws
from .store import MatchRow, StepRow, Store, token_matches

IN_PROGRESS, FINISHED, ABORTED, EXPIRED = "in_progress", "finished", "aborted", "expired"
MAX_HINTS_KEPT = 64


def replay(game, steps):
    state = game.new_initial_state()
    for s in steps:
        state.apply_action(s.action)
    return state


class Match:
    def __init__(self, row: MatchRow, game, store: Store | None):
        self.row = row
        self.id = row.id
        self.game = game
        self.store = store
        self.seats = row.seats
        self.cond = threading.Condition()
        self.version = 0
        self.steps: list[StepRow] = list(row.steps)
        self.state = replay(game, self.steps)
        self.status = row.status
        self.result = row.result
        self.updated_at = row.updated_at
        self.clock_left = [s.clock_seconds for s in self.seats]
        for s in self.steps:
            if s.clock is not None and s.player >= 0:
                self.clock_left[s.player] = s.clock
        # The mover's clock runs from here (monotonic). Time the server was
        # down is not charged: a resumed match starts the turn afresh.
        self.turn_started = time.monotonic()
        self.hints: list[tuple[int, int, object]] = []     # (seat, step, pb.Analysis)
        self.hints_dropped = 0
        self.host = None          # the MatchHost running its bots (open matches)

    # -- reading (hold cond) -------------------------------------------------------
    @property
    def ended(self) -> bool:
        return self.status != IN_PROGRESS

    @property
    def table_mode(self) -> bool:
        return self.row.chance == "table"

    def seat_of_token(self, token: str) -> int | None:
        for s in self.seats:
            if s.kind == "client" and token_matches(token, s.token_hash):
                return s.seat
        return None

    def is_table_token(self, token: str) -> bool:
        return self.table_mode and token_matches(token, self.row.table_hash)

    def is_creator_token(self, token: str) -> bool:
        return token_matches(token, self.row.creator_hash)

    def to_act(self) -> str:
        """Who is to act, in words, for error messages."""
        st = self.state
        if self.ended:
            return f"the match has ended ({self.status})"
        if st.is_chance_node():
            return "chance is to act (the table reports it)" if self.table_mode else \
                "chance is to act (the server draws it)"
        p = st.current_player()
        return f"seat {p} ({self.seats[p].kind}) is to move"

    def deadline(self) -> float | None:
        """When the seat to move loses on time (monotonic), or None."""
        if self.ended or self.state.current_player() < 0:
            return None
        seat = self.seats[self.state.current_player()]
        limits = []
        if seat.move_seconds > 0:
            limits.append(seat.move_seconds)
        if seat.clock_seconds > 0:
            limits.append(self.clock_left[seat.seat])
        return self.turn_started + min(limits) if limits else None

    def scores(self, state=None):
        return player_scores(self.state if state is None else state)

    # -- changing (hold cond) ------------------------------------------------------
    def commit_step(self, action: int, by: str) -> StepRow:
        """Apply `action` at the current position: committed, then in memory.
        The caller has checked that it is legal and whose it is."""
        assert not self.ended
        now = time.time()
        player = self.state.current_player()
        clock = None
        if player >= 0 and self.seats[player].clock_seconds > 0:
            used = time.monotonic() - self.turn_started
            clock = max(self.clock_left[player] - used, 0.0) + self.seats[player].increment
        after = self.state.clone()
        after.apply_action(action)
        step = StepRow(len(self.steps), action, player, by, now, clock)
        end = None
        if after.is_terminal():
            end = (FINISHED, {"reason": "game_over", "returns": list(after.returns()),
                              "scores": self.scores(after), "seat": -1,
                              "detail": "the game is over"})
        if self.store is not None:
            self.store.append_step(self.id, step, end)
        self.state = after
        self.steps.append(step)
        if clock is not None:
            self.clock_left[player] = clock
        self.turn_started = time.monotonic()
        self.updated_at = now
        if end is not None:
            self.status, self.result = end
        self._changed()
        return step

    def end(self, status: str, reason: str, seat: int = -1, detail: str = "") -> None:
        """End the match early: resigned, time, bot_failed (seat loses), or
        aborted / expired (no result)."""
        if self.ended:
            return
        now = time.time()
        result = {"reason": reason, "returns": [], "scores": self.scores(), "seat": seat,
                  "detail": detail}
        if status == FINISHED and seat >= 0:
            lo, hi = self.game.min_utility(), self.game.max_utility()
            result["returns"] = [lo if p == seat else hi for p in range(len(self.seats))]
        if reason == "time" and seat >= 0:
            self.clock_left[seat] = max(0.0, self.clock_left[seat]
                                        - (time.monotonic() - self.turn_started))
        if self.store is not None:
            self.store.end(self.id, status, result, now)
        self.status, self.result = status, result
        self.updated_at = now
        self._changed()
        if self.host is not None:       # a bot still thinking: its move is no longer wanted
            self.host.interrupt()

    def add_hint(self, seat: int, step: int, analysis) -> None:
        self.hints.append((seat, step, analysis))
        if len(self.hints) > MAX_HINTS_KEPT:
            del self.hints[0]
            self.hints_dropped += 1
        self._changed()

    def _changed(self) -> None:
        self.version += 1
        self.cond.notify_all()

    # -- chance --------------------------------------------------------------------
    def server_draw(self) -> int:
        return draws.draw(self.row.seed, len(self.steps), self.state)


def is_chance(player: int) -> bool:
    return player == PLAYER_CHANCE
