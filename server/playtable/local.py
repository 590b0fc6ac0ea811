"""A local game of `easel play`: the person and the bots at one table in
this process, without a server, so that a move can be taken back and the
game can start from a table position.

What the person sees: before each of their decisions, what happened since
their last one (each other player's moves on a line, the chance draws in
between summed up as one line "drawn: ..."), then the table (display.py),
then the prompt. Nothing is printed per draw of the setup or per bot step
beyond that.

`undo` takes back the person's last decision and everything after it (the
bots' replies, the draws): the game is back where the person decided, to
decide again; `undo` again goes one more decision back. What was drawn
after a decision taken back stays with that decision, as a die still lies
on the table: if the person makes the same decision again, the same draws
come again in the same order (each matched by its text, "Roll 1", "bag:
blue", while it is possible); a different decision, or a draw that no longer
matches, draws afresh from there on. So a take-back lets the person change
their mind, never roll again for a better die.
"""
from __future__ import annotations

import random

from easel.engine.contract_ids import PLAYER_CHANCE

from . import display, moves
from .layout import player_label
from .prompt import Ask, news_lines


class LocalGame:
    def __init__(self, state, seat: int, specs: dict, *, out, seed: int, table_mode=False,
                 hint_iterations: int = 2000, read_line=None):
        from easel.search.specs import make_bot
        self.start = state.clone()
        self.state = state
        self.game = state.get_game()
        self.seat = seat
        self.specs = specs                      # seat -> bot spec, for every other seat
        self.bots = {p: make_bot(spec, self.game, seed=seed + 1 + p)
                     for p, spec in specs.items()}
        self.out = out
        self.rng = random.Random(seed)
        self.table_mode = table_mode
        self.hint_iterations = hint_iterations
        self.history: list[tuple[int, int, str]] = []   # (player, action, text) since start
        # per decision taken back, latest undo first: (its action, the draws after it)
        self.kept: list[tuple[int, list[str]]] = []
        self.redraw: list[str] = []         # the draws to come again, next first
        self.news: list[tuple[int, str]] = []           # steps since the person last decided
        self.ask = Ask(self.say, read_line)
        self.end = "normal"
        self.returns = None

    def say(self, text: str = "") -> None:
        print(text, file=self.out, flush=True)

    def name(self, player: int) -> str:
        if player == self.seat:
            return "you"
        return f"{player_label(player, self.seat)} ({self.specs[player]})"

    # --- the game loop ---------------------------------------------------

    def play(self) -> int:
        while not self.state.is_terminal():
            player = self.state.current_player()
            if player == PLAYER_CHANCE:
                action = self._chance()
                if action is None:
                    return self._stopped()
            elif player == self.seat:
                action = self._person()
                if action is None:
                    return self._stopped()
                if action == "undo":
                    continue
            else:
                action = self._bot(player)
                if action is None:
                    self._stopped()
                    return 2
            self._apply(player, action)
        self._show_news()
        display.render(display.table(self.state, self.seat), self.out)
        self.returns = [float(r) for r in self.state.returns()]
        self._result()
        return 0

    def _bot(self, player: int):
        """The bot's move, or None when it fails (an error in its search, an
        illegal answer, a remote bot's server gone): said, and the game ends
        without a result, as a hosted match ends for a failed bot."""
        try:
            action = self.bots[player].step(self.state.clone())
        except Exception as e:      # whatever a bot raises, the person gets a sentence
            self.say(f"{self.name(player)} failed: {type(e).__name__}: {e}")
            self.end = "quit"
            return None
        if not self.state.is_legal(action):
            self.say(f"{self.name(player)} failed: it answered {action!r}, which is not "
                     f"legal here")
            self.end = "quit"
            return None
        return action

    def _apply(self, player: int, action: int) -> None:
        text = self.state.action_to_string(action)
        note = display.move_notes(self.state, [action])[0]
        self.state.apply_action(action)
        self.history.append((player, action, text))
        if player != self.seat:
            self.news.append((player, text + note))

    def _texts(self, actions) -> list[str]:
        return [self.state.action_to_string(a) for a in actions]

    def _chance(self):
        outcomes = self.state.chance_outcomes()
        ids = [a for a, _ in outcomes]
        texts = self._texts(ids)
        if self.table_mode:
            self._show_news()
            shorts = moves.short_forms(len(ids))
            extra = [f"  (p={p:.3g})" for _, p in outcomes]
            kind, value = self.ask("chance: what happened at the table? ", texts, shorts, extra)
            while kind == "command" and value not in ("eof", "quit", "resign"):
                self.say(f"'{value}' is for your moves; now type the chance outcome "
                         f"('?' lists them)")
                kind, value = self.ask("chance: what happened at the table? ", texts, shorts,
                                       extra)
            if kind == "command":
                return self._stop(value)
            return ids[value]
        if self.redraw:
            want = self.redraw.pop(0)
            if want in texts:
                return ids[texts.index(want)]
            self.redraw, self.kept = [], []    # the game went another way: fresh draws
        from easel.search.arena import sample_outcome
        return sample_outcome(outcomes, self.rng.random())

    def _person(self):
        """The person's decision: an action, "undo" (taken back: ask again),
        or None (the game stops: resigned, quit, input ended)."""
        self._show_news()
        display.render(display.table(self.state, self.seat), self.out)
        actions = self.state.legal_actions()
        texts = self._texts(actions)
        shorts = moves.short_forms(len(actions), display.own_short_forms(self.state, actions))
        notes = display.move_notes(self.state, actions)
        while True:
            kind, value = self.ask("your move ('?' lists them): ", texts, shorts, notes)
            if kind == "move":
                self._decided(actions[value])
                return actions[value]
            if value == "undo":
                if self._undo():
                    return "undo"
                continue
            if value == "hint":
                self._hint()
                continue
            return self._stop(value)

    def _stop(self, why: str):
        if why == "eof":
            self.say("(input ended: resigning)")
            why = "resign"
        if why == "resign":
            self.end = "resigned"
            low, high = self.game.min_utility(), self.game.max_utility()
            self.returns = [low if p == self.seat else high
                            for p in range(self.game.num_players())]
        else:
            self.end = "quit"
        return None

    # --- undo, hints -----------------------------------------------------

    def _undo(self) -> bool:
        mine = [i for i, (p, _, _) in enumerate(self.history) if p == self.seat]
        if not mine:
            self.say("nothing to take back: you have not moved yet"
                     + (" since the position you started from" if self.start_loaded() else ""))
            return False
        i = mine[-1]
        undone = self.history[i:]
        self.kept.insert(0, (undone[0][1], [t for p, _, t in undone if p == PLAYER_CHANCE]))
        self.redraw = []
        self.history = self.history[:i]
        state = self.start.clone()
        for _, action, _ in self.history:
            state.apply_action(action)
        self.state = state
        self.news = []
        later = len(undone) - 1
        self.say(f"taken back: your {undone[0][2]!r}"
                 + (f" and the {later} step(s) after it" if later else ""))
        return True

    def _decided(self, action: int) -> None:
        """The person decides `action`: the draws kept for it come again if it
        is the decision taken back, else none do."""
        if self.kept and self.kept[0][0] == action:
            self.redraw = self.kept.pop(0)[1]
        else:
            self.kept, self.redraw = [], []

    def start_loaded(self) -> bool:
        return self.start.loaded_from() is not None

    def _hint(self) -> None:
        from easel.v1 import engine_pb2 as pb
        from easel.server.analysis import Limits, plan, suggest
        from easel.server.commands import hints
        from easel.server.errors import InvalidArgument, Unimplemented
        from easel.server.queue import SearchControl
        if not self.hint_iterations:
            self.say("no hint: hints are off in this game (--no-hints)")
            return
        settings = pb.SearchSettings(budget=pb.Budget(iterations=self.hint_iterations),
                                     num_candidates=3)
        try:
            analysis, reason = suggest(plan(settings, self.game, Limits()), self.state.clone(),
                                       SearchControl())
        except (InvalidArgument, Unimplemented) as e:
            self.say(f"no hint: {e}")
            return
        self.say(hints.render(analysis, stop_reason=reason))

    # --- what the person is told -----------------------------------------

    def _show_news(self) -> None:
        for line in news_lines(self.news, self.name):
            self.say(line)
        self.news = []

    def _result(self) -> None:
        from easel.search.bots import player_scores
        scores = player_scores(self.state)
        self.say("the game is over: " + ", ".join(
            f"{self.name(p)} {r:+g}" for p, r in enumerate(self.returns)))
        if scores:
            self.say("scores: " + ", ".join(f"{self.name(p)} {s:g}"
                                            for p, s in enumerate(scores)))

    def _stopped(self) -> int:
        if self.end == "resigned":
            self.say("you resigned: " + ", ".join(
                f"{self.name(p)} {r:+g}" for p, r in enumerate(self.returns)))
        else:
            self.say("game left unfinished")
        return 0

    # --- the record --------------------------------------------------------

    def record(self) -> dict | None:
        """The game as a record (search/records.py), or None for a game left
        unfinished (quit) or started from a position (a record starts at the
        game's beginning)."""
        from easel.search.bots import player_scores
        from easel.search.records import RECORD_FORMAT, today
        if self.returns is None or self.start_loaded():
            return None
        seats = [{"seat": p, "spec": "client:you", "kind": "client"} if p == self.seat else
                 {"seat": p, "spec": self.specs[p], "kind": "bot"}
                 for p in range(self.game.num_players())]
        rec = {"format": RECORD_FORMAT, "game": self.game.spec, "seats": seats,
               "steps": [[p, a] for p, a, _ in self.history], "returns": self.returns,
               "scores": player_scores(self.state) if self.end == "normal" else None,
               "date": today()}
        if self.end != "normal":
            rec["end"] = self.end
        return rec
