"""Pig, the reference. On your turn, roll the die or stop. Rolling a 1 loses
the points gathered this turn and ends it; any other face adds to them.
Stopping banks them. The first to reach `winscore` wins; after `horizon`
decisions the game stops with nobody winning. (OpenSpiel's rules.)"""
from easel.engine.contract_ids import PLAYER_CHANCE, PLAYER_TERMINAL
from easel.engine.reference import ReferenceState

ROLL, STOP = 0, 1


class PigState(ReferenceState):
    def __init__(self, game):
        super().__init__(game)
        p = game.params
        self.n = p["players"]
        self.scores = [0] * self.n
        self.turn_total = 0
        self.turn_player = 0
        self.rolling = False          # waiting for the die
        self.total_moves = 0

    def _over(self):
        p = self.game.params
        return self.total_moves >= p["horizon"] or max(self.scores) >= p["winscore"]

    def _current_player(self):
        if self._over():
            return PLAYER_TERMINAL
        return PLAYER_CHANCE if self.rolling else self.turn_player

    def _legal_actions(self):
        if self.scores[self.turn_player] + self.turn_total >= self.game.params["winscore"]:
            return [STOP]
        return [ROLL, STOP]

    def _chance_outcomes(self):
        faces = self.game.params["diceoutcomes"]
        if self.game.params["piglet"]:
            return [(0, 1.0 / faces), (1, 1.0 - 1.0 / faces)]
        return [(i, 1.0 / faces) for i in range(faces)]

    def _pass_turn(self):
        self.turn_total = 0
        self.turn_player = (self.turn_player + 1) % self.n

    def _apply(self, action):
        if self.rolling:
            self.rolling = False
            if action == 0:                       # rolled a 1
                self._pass_turn()
            else:
                self.turn_total += 1 if self.game.params["piglet"] else action + 1
            return
        self.total_moves += 1
        if action == ROLL:
            self.rolling = True
        else:
            self.scores[self.turn_player] += self.turn_total
            self._pass_turn()

    def _returns(self):
        if not self._over():
            return [0.0] * self.n
        for p in range(self.n):
            if self.scores[p] >= self.game.params["winscore"]:
                return [1.0 if q == p else -1.0 / (self.n - 1) for q in range(self.n)]
        return [0.0] * self.n

    def to_json(self):
        return {
            "scores": list(self.scores),
            "turn_total": self.turn_total,
            "turn_player": self.turn_player,
            "total_moves": self.total_moves,
            "current_player": self._current_player(),
            "piglet": bool(self.game.params["piglet"]),
        }
