"""Couleurs de Paris, the plain-Python reference: the executable specification.

An explicit phase machine over small integers and fixed-length lists, so
that the Cython core mirrors it field for field (ENCODING.md lists the
fields, phases, action ids and chance outcomes; RULINGS.md the readings of
the rulebook, cited as §N).

A round: every player in turn places assistants (PLACE), then in turn lays
them down one at a time and performs their actions (ACT and its small
sub-decisions), then the board rotates, easels are refilled (chance), dried
pigments are discarded and each player stands one assistant on the lower
board for the next round. Every painting card turned up is a chance node.
"""
from __future__ import annotations

from easel.engine.contract_ids import PLAYER_CHANCE, PLAYER_TERMINAL
from easel.engine.reference import ReferenceState

from .data import POSITIONS, SPACES, TRACK_LEN
from .fields import FIELDS
from .rules import (
    ACT, BLACK, BONUS_ASSISTANT, BONUS_LEVEL, BONUS_P, BONUS_POINTS, BRUSH, C_FIRST,
    C_IMITATOR, C_ROTATE, C_WHITE, CHANCE_PHASES, DEAL, DISCARD, DISCARD_P, END, GREEN,
    IMITATE, IMITATE_P, K_BLACK, K_IMPROVE, K_PAINT, K_TAKE, LAYDOWN, LIMIT, MIX,
    N_LOCATIONS, N_PAYABLE, N_TOOLS, N_WHEEL, ORANGE, PAINT, PAINT_P, PAINT_WHITE, PALETTE,
    PAY, PAY_P, PLACE, PLACE_P, PRIMARIES, REFILL, ROTATE_0, ROTATE_2, ROTATE_P, STAND,
    STAND_P, START_ASSISTANTS, STOP, TAKE, TAKE_P, TOOL, TOOL_P, TUBE, USE, VIOLET, WHITE,
    WHITE_PER_PAINTING, amount, position_of, rules_of)

def popcount(x: int) -> int:
    return bin(x).count("1")


class CouleursState(ReferenceState):
    def __init__(self, game):
        super().__init__(game)
        r = rules_of(game)
        self.r = r
        # Every field (fields.py says what each holds) at rest: 0, or -1 for
        # "none"; then the setup.
        FIELDS.clear(self, r)
        self.phase = DEAL
        self.round = 1
        self.first = self.cur = r.first   # §1: the option's first player holds the token
        # §3: each player starts with one red, one yellow and one blue pigment.
        self.supply = list(r.supply)
        for p in range(r.n):
            for c in PRIMARIES:
                self.pig[p][c] = 1
                self.supply[c] -= 1
        self.tool = [[1] * N_TOOLS for _ in range(r.n)]
        self.hired = [START_ASSISTANTS] * r.n
        self.deck = [1] * len(r.data.paintings)

    # ------------------------------------------------------------ helpers
    @property
    def n(self):
        return self.r.n

    def card(self, c):
        return self.r.data.paintings[c]

    def deck_size(self):
        return sum(self.deck)

    def nonblack(self, p):
        return sum(self.pig[p][:BLACK])

    def standing(self, p):
        return sum(self.stand[p])

    def occupancy(self, loc):
        return sum(self.stand[q][loc] + self.lie[q][loc] for q in range(self.n))

    def pos(self, kind):
        return position_of(self.r, self.rot, kind)

    def loc_of(self, location):
        """Location index (0..13) of an action id's location (wheel kind or centre)."""
        return self.pos(location) if location < N_WHEEL else location

    def tokens(self, p):
        # §12: 6 points on the bonus space if chosen; 10 at the track's end
        # (a new token, or the 6 flipped to its 10 side).
        return sum(10 if self.tool[p][t] == TRACK_LEN else (6 if self.bonus[p][t] == 2 else 0)
                   for t in range(N_TOOLS))

    def finished_cards(self, p):
        return [c for c in range(len(self.done)) if self.done[c] and self.owner[c] == p]

    def whites_used(self, p):
        return sum(popcount(self.whites[c]) for c in self.finished_cards(p))

    def score(self, p):
        """§24: finished paintings, 6 per black, tokens, minus 2 per white on
        finished paintings. Running scores use the same formula; nothing in it
        ever decreases."""
        return (sum(self.card(c).value for c in self.finished_cards(p))
                - 2 * self.whites_used(p) + 6 * self.pig[p][BLACK] + self.tokens(p))

    def scores(self):
        return [float(self.score(p)) for p in range(self.n)]

    def tiebreak_key(self, p):
        """§25: points, then fewest whites on finished paintings, then the most
        valuable finished painting."""
        best = max((self.card(c).value for c in self.finished_cards(p)), default=0)
        return (self.score(p), -self.whites_used(p), best)

    def can_paint(self, p):
        for c in range(len(self.owner)):
            if self.owner[c] != p or self.done[c]:
                continue
            spaces = self.card(c).spaces
            white_ok = self.pig[p][WHITE] > 0 and popcount(self.whites[c]) < WHITE_PER_PAINTING
            for j in range(SPACES):
                if not self.fill[c] >> j & 1 and (white_ok or self.pig[p][spaces[j]] > 0):
                    return True
        return False

    def performable(self, p, location):
        """Whether acting on `location` (a wheel kind or a centre space) would do
        anything (§22: otherwise the assistant can only be laid down)."""
        pig = self.pig[p]
        if location in PRIMARIES:
            return self.supply[location] > 0                          # §8
        if location in MIX:
            a, b = MIX[location]
            return pig[a] > 0 and pig[b] > 0 and self.supply[location] > 0   # §9
        if location == K_BLACK:
            return (pig[ORANGE] > 0 and pig[GREEN] > 0 and pig[VIOLET] > 0
                    and self.supply[BLACK] > 0)                        # §10
        if location == K_IMPROVE:
            return self.nonblack(p) >= 2 and any(t < TRACK_LEN for t in self.tool[p])   # §11
        if location == K_TAKE:
            return any(self.easel[e] >= 0 for e in range(self.r.easels))    # §14
        if location == K_PAINT:
            return self.can_paint(p)                                   # §15
        if location == C_IMITATOR:
            return bool(self.imitable(p))                              # §17
        if location == C_WHITE:
            return self.supply[WHITE] > 0                              # §19
        return True            # first player (§16), rotate (§18): a claim is always made

    def imitable(self, p):
        """§17: wheel actions with an assistant still standing on the lower
        board (anyone's) that `p` could perform."""
        return [k for k in range(N_WHEEL)
                if any(self.stand[q][self.pos(k)] for q in range(self.n))
                and self.performable(p, k)]

    def next_seat(self, start, wanted):
        """The first player from `start` on in turn order (cyclic) for whom
        `wanted` holds, or -1."""
        for i in range(self.n):
            q = (start + i) % self.n
            if wanted(q):
                return q
        return -1

    # --------------------------------------------------------- the machine
    def _current_player(self):
        if self.phase == END:
            return PLAYER_TERMINAL
        if self.phase in CHANCE_PHASES:
            return PLAYER_CHANCE
        return self.cur

    def _chance_outcomes(self):
        # §4, §20: the next empty easel gets the top card of the shuffled deck:
        # each remaining card with the same probability.
        cards = [c for c in range(len(self.deck)) if self.deck[c]]
        return [(c, 1.0 / len(cards)) for c in cards]

    def _legal_actions(self):
        p = self.cur
        ph = self.phase
        out = []
        if ph == PLACE_P:                                              # §5, §6
            for k in range(N_WHEEL):
                pos = self.pos(k)
                if self.occupancy(pos) < self.r.capacity[pos]:
                    out.append(PLACE + k)
            if self.occupancy(C_FIRST) == 0 and self.first != p:
                out.append(PLACE + C_FIRST)
            for loc in (C_IMITATOR, C_ROTATE):
                if self.occupancy(loc) == 0:
                    out.append(PLACE + loc)
            out.append(PLACE + C_WHITE)
        elif ph == ACT:                                                # §7, §22
            for location in range(N_LOCATIONS):
                if self.stand[p][self.loc_of(location)]:
                    if self.performable(p, location):
                        out.append(USE + location)
                    out.append(LAYDOWN + location)
        elif ph == TOOL_P:                                             # §11
            out = [TOOL + t for t in range(N_TOOLS) if self.tool[p][t] < TRACK_LEN]
        elif ph == PAY_P:                                              # §11, §13
            pig = self.pig[p]
            for c in range(self.pay_min, N_PAYABLE):
                if pig[c] == 0:
                    continue
                if self.pay_left == 2 and pig[c] < 2 and not any(
                        pig[d] for d in range(c + 1, N_PAYABLE)):
                    continue
                out.append(PAY + c)
        elif ph == BONUS_P:                                            # §12
            out = [BONUS_ASSISTANT, BONUS_POINTS]
        elif ph == TAKE_P:                                             # §14
            out = [TAKE + e for e in range(self.r.easels) if self.easel[e] >= 0]
        elif ph == IMITATE_P:                                          # §17
            out = [IMITATE + k for k in self.imitable(p)]
        elif ph == PAINT_P:                                            # §15
            for c in range(len(self.owner)):
                if self.owner[c] != p or self.done[c]:
                    continue
                spaces = self.card(c).spaces
                white_ok = (self.pig[p][WHITE] > 0
                            and popcount(self.whites[c]) < WHITE_PER_PAINTING)
                for j in range(SPACES):
                    if self.fill[c] >> j & 1:
                        continue
                    if self.pig[p][spaces[j]] > 0:
                        out.append(PAINT + c * SPACES + j)
                    if white_ok:
                        out.append(PAINT_WHITE + c * SPACES + j)
            if self.painted > 0:
                out.append(STOP)
        elif ph == ROTATE_P:                                           # §18
            out = [ROTATE_0, ROTATE_2]
        elif ph == DISCARD_P:                                          # §20
            out = [DISCARD + c for c in range(N_PAYABLE) if self.pig[p][c] > 0]
        elif ph == STAND_P:                                            # §21
            out = [STAND + k for k in range(N_WHEEL) if self.lie[p][self.pos(k)]]
        return out

    def _apply(self, action):
        ph = self.phase
        if ph in CHANCE_PHASES:
            self._turn_up(action)
            return
        p = self.cur
        if ph == PLACE_P:
            self.stand[p][self.loc_of(action - PLACE)] += 1
            self.to_place[p] -= 1
            nxt = self.next_seat(p + 1, lambda q: self.to_place[q] > 0)
            if nxt >= 0:
                self.cur = nxt
            else:                                                      # §7: actions, first player first
                self.phase = ACT
                self.cur = self.next_seat(self.first, lambda q: self.standing(q) > 0)
        elif ph == ACT:
            location = (action - USE) if action < LAYDOWN else (action - LAYDOWN)
            loc = self.loc_of(location)
            self.stand[p][loc] -= 1
            self.lie[p][loc] += 1
            if action < LAYDOWN:
                self._perform(p, location)
            else:
                self._finish_action()
        elif ph == TOOL_P:
            self.tool_sel = action - TOOL
            self.pay_left = 2
            self.pay_min = 0
            self.phase = PAY_P
        elif ph == PAY_P:
            c = action - PAY
            self.pig[p][c] -= 1
            self.supply[c] += 1
            self.pay_left -= 1
            self.pay_min = c
            if self.pay_left == 0:
                self.pay_min = 0            # paid: the bonus step has no payment pending
                t = self.tool_sel
                self.tool[p][t] += 1
                if self.tool[p][t] == BONUS_LEVEL:                     # §12
                    self.phase = BONUS_P
                else:
                    self._finish_action()
        elif ph == BONUS_P:
            if action == BONUS_ASSISTANT:
                self.hired[p] += 1
                self.bonus[p][self.tool_sel] = 1
            else:
                self.bonus[p][self.tool_sel] = 2
            self._finish_action()
        elif ph == TAKE_P:
            e = action - TAKE
            self.owner[self.easel[e]] = p
            self.easel[e] = -1
            self._finish_action()
        elif ph == IMITATE_P:
            self._perform(p, action - IMITATE)
        elif ph == PAINT_P:
            if action == STOP:
                self._finish_action()
                return
            self._paint(p, action)
            if self.paint_left == 0 or not self.can_paint(p):
                self._finish_action()
        elif ph == ROTATE_P:
            self._rotate(0 if action == ROTATE_0 else 2)
        elif ph == DISCARD_P:
            c = action - DISCARD
            self.pig[p][c] -= 1
            self.supply[c] += 1
            if self.nonblack(p) <= LIMIT:
                self.seat_k += 1
                self._next_discard()
        elif ph == STAND_P:
            self.keep[p] = self.pos(action - STAND)
            self.seat_k += 1
            self._next_stand()

    # ------------------------------------------------------------ actions
    def _gain(self, p, c, k):
        # §27: a short supply gives what is left.
        k = min(k, self.supply[c])
        self.supply[c] -= k
        self.pig[p][c] += k

    def _perform(self, p, location):
        pig = self.pig[p]
        if location in PRIMARIES:                                      # §8
            self._gain(p, location, amount(self.r, TUBE, self.tool[p][TUBE]))
        elif location in MIX:                                          # §9
            for c in MIX[location]:
                pig[c] -= 1
                self.supply[c] += 1
            self._gain(p, location, amount(self.r, PALETTE, self.tool[p][PALETTE]))
        elif location == K_BLACK:                                      # §10
            for c in (ORANGE, GREEN, VIOLET):
                pig[c] -= 1
                self.supply[c] += 1
            self._gain(p, BLACK, 1)
            if self.supply[BLACK] == 0:                                # §23
                self.final = 1
        elif location == K_IMPROVE:
            self.phase = TOOL_P
            return
        elif location == K_TAKE:
            self.phase = TAKE_P
            return
        elif location == K_PAINT:
            self.phase = PAINT_P
            self.paint_left = amount(self.r, BRUSH, self.tool[p][BRUSH])
            self.painted = 0
            return
        elif location == C_FIRST:                                      # §16
            self._gain(p, WHITE, 1)
            self.fp_claim = p
        elif location == C_IMITATOR:                                   # §17
            self.phase = IMITATE_P
            return
        elif location == C_ROTATE:                                     # §18
            self.rot_claim = p
        elif location == C_WHITE:                                      # §19
            self._gain(p, WHITE, amount(self.r, TUBE, self.tool[p][TUBE]))
        self._finish_action()

    def _paint(self, p, action):
        white = action >= PAINT_WHITE
        c, j = divmod(action - (PAINT_WHITE if white else PAINT), SPACES)
        colour = WHITE if white else self.card(c).spaces[j]
        self.pig[p][colour] -= 1
        self.fill[c] |= 1 << j
        if white:
            self.whites[c] |= 1 << j
        self.paint_left -= 1
        self.painted += 1
        if self.fill[c] == (1 << SPACES) - 1:
            # §24, §27: a finished painting scores; its cubes go back to the
            # supply (only its whites matter for the score, and they are kept
            # in `whites`).
            self.done[c] = 1
            for k in range(SPACES):
                back = WHITE if self.whites[c] >> k & 1 else self.card(c).spaces[k]
                self.supply[back] += 1
            if len(self.finished_cards(p)) == 2:                       # §23
                self.final = 1

    def _finish_action(self):
        self.tool_sel = -1
        self.pay_left = 0
        self.pay_min = 0
        self.paint_left = 0
        self.painted = 0
        self.phase = ACT
        nxt = self.next_seat(self.cur + 1, lambda q: self.standing(q) > 0)
        if nxt >= 0:
            self.cur = nxt
            return
        # §23: the last round ends with phase 2; so does the round limit (§28).
        if self.final or self.round >= self.r.max_rounds:
            self.phase = END
            return
        if self.rot_claim >= 0:                                        # §18
            self.phase = ROTATE_P
            self.cur = self.rot_claim
        else:
            self._rotate(1)

    # ------------------------------------------------------------ phase 3
    def _rotate(self, steps):
        # §20: a half-turn — red reaching or passing a printed Forbidden Action
        # (position 0 or 5) — replaces every painting left on the easels.
        refresh = any((self.rot + k) % (POSITIONS // 2) == 0 for k in range(1, steps + 1))
        self.rot = (self.rot + steps) % POSITIONS
        if refresh:
            for e in range(self.r.easels):
                self.easel[e] = -1          # removed from the game
        self.phase = REFILL
        self._refill_or_continue()

    def _refill_or_continue(self):
        if self.deck_size() > 0 and any(self.easel[e] < 0 for e in range(self.r.easels)):
            return                          # a chance node turns up the next card
        if self.phase == DEAL:
            self._start_round()
        else:
            self.seat_k = 0
            self._next_discard()

    def _turn_up(self, c):
        e = next(e for e in range(self.r.easels) if self.easel[e] < 0)
        self.easel[e] = c
        self.deck[c] = 0
        self._refill_or_continue()

    def _next_discard(self):
        while self.seat_k < self.n:
            q = (self.first + self.seat_k) % self.n
            if self.nonblack(q) > LIMIT:
                self.phase = DISCARD_P
                self.cur = q
                return
            self.seat_k += 1
        self.seat_k = 0
        self._next_stand()

    def _next_stand(self):
        while self.seat_k < self.n:
            q = (self.first + self.seat_k) % self.n
            if any(self.lie[q][:POSITIONS]):
                self.phase = STAND_P
                self.cur = q
                return
            self.seat_k += 1
        # §21: retrieve the rest; the stood assistants stay placed.
        for q in range(self.n):
            self.stand[q] = [0] * N_LOCATIONS
            self.lie[q] = [0] * N_LOCATIONS
            if self.keep[q] >= 0:
                self.stand[q][self.keep[q]] = 1
                self.keep[q] = -1
        if self.fp_claim >= 0:                                         # §16
            self.first = self.fp_claim
        self.fp_claim = -1
        self.rot_claim = -1
        self.seat_k = 0
        self.round += 1
        self._start_round()

    def _start_round(self):
        for q in range(self.n):
            self.to_place[q] = self.hired[q] - self.standing(q)
        self.phase = PLACE_P
        self.cur = self.first

    # ------------------------------------------------------------ results
    def _returns(self):
        n = self.n
        if self.phase != END:
            return [0.0] * n
        keys = [self.tiebreak_key(p) for p in range(n)]
        return [(sum(keys[p] > keys[q] for q in range(n)) - sum(keys[p] < keys[q] for q in range(n)))
                / (n - 1) for p in range(n)]

    def to_json(self):
        from .view import state_view
        return state_view(self)

    @classmethod
    def from_json(cls, game, view):
        from .view import state_from_view
        return state_from_view(cls, game, view)
