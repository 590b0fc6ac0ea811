"""Connect Four's game knowledge for the baseline bots (engine/kit.py: Policies)."""


def heuristic(state, rng) -> int:
    """Win if possible; else block the opponent's win; never drop a stone that
    lets the opponent win on top of it; prefer central columns."""
    view = state.to_json()
    board = [list(row) for row in reversed(view["board"])]      # board[row][col], row 0 at the bottom
    rows, cols = len(board), len(board[0])
    me = "xo"[view["current_player"]]
    them = "xo"[1 - view["current_player"]]
    legal = state.legal_actions()

    def drop_row(col):
        for r in range(rows):
            if board[r][col] == ".":
                return r
        return None

    def wins_at(r, c, mark):
        for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
            count = 1
            for sign in (1, -1):
                rr, cc = r + sign * dr, c + sign * dc
                while 0 <= rr < rows and 0 <= cc < cols and board[rr][cc] == mark:
                    count += 1
                    rr, cc = rr + sign * dr, cc + sign * dc
            if count >= 4:
                return True
        return False

    for mark in (me, them):                       # win, then block
        for c in legal:
            r = drop_row(c)
            if r is not None and wins_at(r, c, mark):
                return c
    safe = []
    for c in legal:
        r = drop_row(c)
        if r + 1 < rows:
            board[r][c] = me
            gives = wins_at(r + 1, c, them)
            board[r][c] = "."
            if gives:
                continue
        safe.append(c)
    pool = safe or legal
    centre = (cols - 1) / 2.0
    best = min(abs(c - centre) for c in pool)
    return rng.choice([c for c in pool if abs(c - centre) == best])
