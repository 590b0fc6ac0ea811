"""Connect Four, the reference: a 6x7 grid of cells, drop a stone in a
column that is not full; four in a row (horizontal, vertical or diagonal)
wins; a full board is a draw. Player 0 plays 'x' and moves first."""
from easel.engine.contract_ids import PLAYER_TERMINAL
from easel.engine.reference import ReferenceState

ROWS, COLS = 6, 7
DIRECTIONS = [(0, 1), (1, 0), (1, 1), (1, -1)]


class ConnectFourState(ReferenceState):
    def __init__(self, game):
        super().__init__(game)
        self.grid = [[None] * COLS for _ in range(ROWS)]   # grid[row][col], row 0 at the bottom
        self.player = 0
        self.winner = None
        self.moves = 0

    def _full(self):
        return self.moves == ROWS * COLS

    def _current_player(self):
        if self.winner is not None or self._full():
            return PLAYER_TERMINAL
        return self.player

    def _legal_actions(self):
        return [c for c in range(COLS) if self.grid[ROWS - 1][c] is None]

    def _chance_outcomes(self):
        return []

    def _four_through(self, row, col):
        me = self.grid[row][col]
        for dr, dc in DIRECTIONS:
            count = 1
            for sign in (1, -1):
                r, c = row + sign * dr, col + sign * dc
                while 0 <= r < ROWS and 0 <= c < COLS and self.grid[r][c] == me:
                    count += 1
                    r, c = r + sign * dr, c + sign * dc
            if count >= 4:
                return True
        return False

    def _apply(self, col):
        row = next(r for r in range(ROWS) if self.grid[r][col] is None)
        self.grid[row][col] = self.player
        self.moves += 1
        if self._four_through(row, col):
            self.winner = self.player
        self.player = 1 - self.player

    def _returns(self):
        if self.winner is None:
            return [0.0, 0.0]
        return [1.0 if p == self.winner else -1.0 for p in (0, 1)]

    def to_json(self):
        marks = {None: ".", 0: "x", 1: "o"}
        return {
            "board": ["".join(marks[self.grid[r][c]] for c in range(COLS))
                      for r in range(ROWS - 1, -1, -1)],
            "current_player": self._current_player(),
            "moves": self.moves,
            "winner": self.winner,
            "draw": self.winner is None and self._full(),
        }
