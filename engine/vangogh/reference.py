"""Van Gogh, the plain-Python reference: the executable specification.

Written as an explicit phase machine over small integers and fixed-length
lists so the Cython core can mirror it field for field (ENCODING.md lists the
fields, phases, action ids and chance outcomes; RULINGS.md the readings of the
rulebook, cited below as R1...).

A turn: the turn player chooses a character (CHOOSE), takes the Minigoghs
waiting on it, performs its primary action as a few small decisions, then
every other player in seat order performs the secondary action. A round is
one turn per player (two each with 2 players, three characters solo). Every
random event — drawing and rolling Minigoghs, turning up paintings, setup
included — is an explicit chance node.
"""
from __future__ import annotations

import math

from easel.engine.contract_ids import PLAYER_CHANCE, PLAYER_TERMINAL
from easel.engine.errors import StateFormatError
from easel.engine.reference import ReferenceState

from .fields import FIELDS
from .rules import (
    ACTIVE_CAP, BLUE, BLUE_DISCARD, BLUE_ORIENT, BOX_PER_COLOUR, BOX_WHITES, BRUSH, CHARS,
    COLOURS, DONE, EPIPHANY, EVAL_COLOURED, EVAL_SCALE, EVAL_WHITE, INACTIVE, KEEP, MAX_SPACES,
    N_CHARS, N_CODES, N_COLOURS, N_PAINTINGS, ORIENTS, PAINT, PHASES, PINK, REORIENT, RESTART,
    TABLE_SIZE, TAKE, WHITE, YELLOW, ANNA, EUGENE, GACHET, GINOUX, POSTMAN, VAN_GOGH, BLUE_C,
    GREEN_C, PINK_C, PURPLE_C, YELLOW_C, PINK_CYCLE, code_of, piece_name, parse_piece, rules_of)

# The phases in the order of rules.PHASES (their numbers; tests/vangogh/test_fields.py
# checks the names); _P marks the three named as actions are.
(SETUP_CARDS, SETUP_TABLE, SETUP_PALETTE, CHOOSE, WAIT_KEEP, STEP, GINOUX_DRAW, GINOUX_KEEP,
 ROLL, SEC_DRAW, EUGENE_TAKE, REFILL, CARD, BLUE_DRAW, BLUE_ORIENT_P, BLUE_DISCARD_P, BRUSH_P,
 EOR, END) = range(len(PHASES))

_CHANCE_PHASES = (SETUP_CARDS, SETUP_TABLE, SETUP_PALETTE, GINOUX_DRAW, ROLL, SEC_DRAW, REFILL,
                  CARD, BLUE_DRAW, EOR)
_DRAW_ROLL_PHASES = (SETUP_TABLE, SETUP_PALETTE, SEC_DRAW, REFILL, EOR)



class VanGoghState(ReferenceState):
    def __init__(self, game):
        super().__init__(game)
        r = rules_of(game)
        self.r = r
        # Every field (fields.py) at rest: 0, or -1 for "none"; then the setup.
        FIELDS.clear(self, r)
        self.phase = SETUP_CARDS
        self.round = 1
        self.first_starter = self.round_starter = self.turn_player = r.start
        # R1: the box holds 11 per colour; one is the score token, 3 of each
        # played colour start on its palette, the rest go into the bag.
        self.bag = [BOX_PER_COLOUR - 1 - (INACTIVE if r.owner[c] >= 0 else 0)
                    for c in range(N_COLOURS)]
        self.whites = BOX_WHITES
        self.deck = [1] * len(r.deck.cards)
        # R14: the inactive spaces' printed orientations are unknown; we use
        # lying down, sideway, upright from left to right.
        self.inactive = [[code_of(r.colours[p], o) for o in (0, 1, 2)] for p in range(r.n)]

    # ------------------------------------------------------------------ helpers
    def _free(self, p):
        return ACTIVE_CAP - sum(self.active[p])

    def _turns_per_round(self):
        return self.r.turns_per_round

    def _card(self, slot):
        return self.r.deck.cards[self.painting[slot]]

    def _bag_total(self):
        return sum(self.bag)

    def _to_bag(self, code):
        """A Minigogh leaves play: coloured ones to the bag, whites to the
        supply (R9: whites are kept apart from the bag)."""
        if code // 4 == WHITE:
            self.whites += 1
        else:
            self.bag[code // 4] += 1

    def _ability_open(self, p):
        return self.ability_player == p and self.ability_spent == 0

    def _paint_value(self, p, code, bonus, green):
        """Score for Paint (rulebook 'Score for Paint'; solo R13)."""
        colour = code // 4
        if colour == WHITE:
            v = 5
        elif self.r.solo:
            v = 2 if colour == self.r.colours[0] else 4
        elif colour == self.r.colours[p]:
            v = 3
        elif self.r.owner[colour] >= 0:
            v = 4
        else:
            v = 2
        return v + bonus - green

    # ------------------------------------------------------------- legal moves
    def _current_player(self):
        ph = self.phase
        if ph == END:
            return PLAYER_TERMINAL
        if ph in _CHANCE_PHASES:
            return PLAYER_CHANCE
        if ph == CHOOSE:
            return self.turn_player
        return self.act_player

    def _paint_actions(self, p):
        """PAINT ids open to player p now: source (active code or purple's
        leftmost inactive), open painting, empty space, matching orientation
        (or the green ability, R5)."""
        out = []
        green = self._ability_open(p) and self.r.colours[p] == GREEN_C
        sources = [c for c in range(N_CODES) if self.active[p][c] > 0]
        if self.r.colours[p] == PURPLE_C and not self.r.solo:
            left = self._leftmost_inactive(p)
            if left >= 0:
                sources.append(N_CODES)
        for src in sources:
            code = self._source_code(p, src)
            for slot in range(N_PAINTINGS):
                if self.painting[slot] < 0:
                    continue
                card = self._card(slot)
                for sp in range(len(card.orient)):
                    if self.occ[slot][sp] >= 0:
                        continue
                    if card.orient[sp] == code % 4 or green:
                        out.append(PAINT + (src * N_PAINTINGS + slot) * MAX_SPACES + sp)
        return out

    def _leftmost_inactive(self, p):
        for i in range(INACTIVE):
            if self.inactive[p][i] >= 0:
                return i
        return -1

    def _source_code(self, p, src):
        if src < N_CODES:
            return src
        return self.inactive[p][self._leftmost_inactive(p)]

    def _window_actions(self, p):
        """Ability (R5) and solo brush (R13) actions offered at p's CHOOSE/STEP decisions."""
        out = []
        r = self.r
        if r.solo:
            if self.brush_used == 0:
                out.append(BRUSH)
            return out
        if not self._ability_open(p):
            return out
        colour = r.colours[p]
        if colour == YELLOW_C:
            for t in range(4):
                if self.active[p][code_of(YELLOW_C, t)] > 0:
                    out += [YELLOW + t * 4 + o for o in range(4) if o != t]
            for i in range(INACTIVE):
                c = self.inactive[p][i]
                if c >= 0 and c // 4 == YELLOW_C:
                    out += [YELLOW + (4 + i) * 4 + o for o in range(4) if o != c % 4]
        elif colour == PINK_C:
            out += [PINK + c for c in range(N_CODES) if self.active[p][c] > 0]
            out += [PINK + N_CODES + i for i in range(INACTIVE) if self.inactive[p][i] >= 0]
        elif colour == BLUE_C:
            if self._bag_total() > 0:
                out.append(BLUE)
        return out

    def _step_actions(self, p):
        """The moves of a STEP, without DONE and the window actions."""
        ch = self.act_char
        if ch in (VAN_GOGH, ANNA):
            return self._paint_actions(p)
        if ch == GACHET:
            return [REORIENT + c * 4 + o for c in range(N_CODES) if self.active[p][c] > 0
                    for o in range(4) if o != c % 4]
        if ch == POSTMAN:
            out = []
            if not self.postman_used & 1:
                out += self._paint_actions(p)
            if not self.postman_used & 2 and self.whites > 0:
                out += [RESTART + c for c in range(4 * N_COLOURS) if self.active[p][c] > 0]
            if (not self.postman_used & 4 and self._leftmost_inactive(p) >= 0
                    and self._free(p) > 0):
                out.append(EPIPHANY)
            return out
        raise AssertionError(f"STEP phase with character {ch}")

    def _legal_actions(self):
        ph = self.phase
        if ph == CHOOSE:
            p = self.turn_player
            out = [c for c in range(N_CHARS) if self._char_available(c, p)]
            return out + self._window_actions(p)
        p = self.act_player
        if ph == STEP:
            return self._step_actions(p) + [DONE] + self._window_actions(p)
        if ph == WAIT_KEEP:
            return sorted({TAKE + c for c in self.char_wait[self.act_char] if c >= 0})
        if ph == GINOUX_KEEP:
            return [KEEP + c for c in range(N_COLOURS) if self.hand[c] > 0]
        if ph == EUGENE_TAKE:
            return [TAKE + c for c in range(N_CODES) if self.table[c] > 0]
        if ph == BLUE_ORIENT_P:
            return [BLUE_ORIENT + o for o in range(4)]
        if ph == BLUE_DISCARD_P:
            return [BLUE_DISCARD + c for c in range(N_CODES) if self.active[p][c] > 0]
        if ph == BRUSH_P:
            return self._paint_actions(p) + [DONE]
        raise AssertionError(f"no decision in phase {ph}")

    def _char_available(self, c, p):
        if self.char_taken[c]:
            return False
        if c == ANNA and (self.r.solo or self.token_holder == p):
            return False
        return True

    # ------------------------------------------------------------------ chance
    def _chance_source(self):
        # The cards (1) and a lone roll (2) apart from the bag (0); a draw
        # rolled with its cube is one event, the bag's.
        if self.phase in (SETUP_CARDS, CARD):
            return 1
        return 2 if self.phase == ROLL else 0

    def _chance_outcomes(self):
        ph = self.phase
        r = self.r
        if ph in (SETUP_CARDS, CARD):
            left = [i for i in range(len(self.deck)) if self.deck[i]]
            return [(i, 1.0 / len(left)) for i in left]
        if ph == ROLL:
            return [(o, r.roll[o]) for o in range(4) if r.roll[o] > 0]
        total = self._bag_total()
        if ph in (GINOUX_DRAW, BLUE_DRAW):
            return [(c, self.bag[c] / total) for c in range(N_COLOURS) if self.bag[c] > 0]
        return [(c * 4 + o, self.bag[c] / total * r.roll[o]) for c in range(N_COLOURS)
                if self.bag[c] > 0 for o in range(4) if r.roll[o] > 0]

    # ------------------------------------------------------------------- apply
    def _apply(self, a):
        ph = self.phase
        if ph in _CHANCE_PHASES:
            self._apply_chance(a)
        else:
            self._apply_decision(a)
        self._settle()

    def _apply_chance(self, a):
        ph = self.phase
        if ph in _DRAW_ROLL_PHASES:
            self.bag[a // 4] -= 1
        if ph == SETUP_CARDS:
            self.deck[a] = 0
            self.painting[self.setup_k] = a
            self.setup_k += 1
            if self.setup_k == N_PAINTINGS:
                self.setup_k = 0
                self.phase = SETUP_TABLE
        elif ph == SETUP_TABLE:
            self.table[a] += 1
            if sum(self.table) == TABLE_SIZE:
                self.phase = SETUP_PALETTE
        elif ph == SETUP_PALETTE:
            self.active[self.setup_k // 2][a] += 1
            self.setup_k += 1
            if self.setup_k == 2 * self.r.n:
                self.setup_k = 0
                self._start_round()
        elif ph == CARD:
            self.deck[a] = 0
            self.painting[self.card_slot] = a
            self.card_slot = -1
            self.phase = self.card_resume
            self.card_resume = -1
        elif ph == GINOUX_DRAW:
            self.bag[a] -= 1
            self.hand[a] += 1
            self.draws_left -= 1
        elif ph == ROLL:
            c = next(c for c in range(N_COLOURS) if self.roll_q[c] > 0)
            self.roll_q[c] -= 1
            self.active[self.act_player][code_of(c, a)] += 1
        elif ph == SEC_DRAW:
            self.active[self.act_player][a] += 1
            self._finish_action()
        elif ph == REFILL:
            self.table[a] += 1
        elif ph == BLUE_DRAW:
            self.bag[a] -= 1
            self.blue_colour = a
            self.phase = BLUE_ORIENT_P
        elif ph == EOR:
            w = self.char_wait[self.eor_char]
            w[0 if w[0] < 0 else 1] = a
            self.eor_char += 1

    def _apply_decision(self, a):
        ph = self.phase
        if ph == CHOOSE:
            if a < N_CHARS:
                self._choose(a)
            else:
                self._window(a, self.turn_player)
            return
        p = self.act_player
        if ph == STEP:
            if a == DONE:
                self._finish_action()
            elif a >= YELLOW:
                self._window(a, p)
            else:
                self.steps_left -= 1
                if PAINT <= a < REORIENT:
                    self.postman_used |= 1
                    self._paint(p, a)
                elif REORIENT <= a < RESTART:
                    code = (a - REORIENT) // 4
                    self.active[p][code] -= 1
                    self.active[p][code_of(code // 4, (a - REORIENT) % 4)] += 1
                elif RESTART <= a < EPIPHANY:
                    # Restart: the coloured Minigogh goes to the bag, a white
                    # takes its place in the same orientation (R9).
                    self.postman_used |= 2
                    code = a - RESTART
                    self.active[p][code] -= 1
                    self.bag[code // 4] += 1
                    self.whites -= 1
                    self.active[p][code_of(WHITE, code % 4)] += 1
                elif a == EPIPHANY:
                    self.postman_used |= 4
                    i = self._leftmost_inactive(p)
                    self.active[p][self.inactive[p][i]] += 1   # keeps its orientation (R4)
                    self.inactive[p][i] = -1
        elif ph == WAIT_KEEP:
            keep = a - TAKE
            w = self.char_wait[self.act_char]
            other = w[1] if w[0] == keep else w[0]
            self.active[p][keep] += 1
            self._to_bag(other)
            self.char_wait[self.act_char] = [-1, -1]
            self._start_action(p, self.act_char, 1)
        elif ph == GINOUX_KEEP:
            c = a - KEEP
            self.hand[c] -= 1
            self.roll_q[c] += 1
            self.steps_left -= 1
            if self.steps_left == 0:
                for c in range(N_COLOURS):           # the excess goes back to the bag
                    self.bag[c] += self.hand[c]
                    self.hand[c] = 0
                self.phase = ROLL
        elif ph == EUGENE_TAKE:
            code = a - TAKE
            self.table[code] -= 1
            if self._free(p) > 0:
                self.active[p][code] += 1
            else:
                self.bag[code // 4] += 1        # the excess, of the player's choice (R16)
            self.steps_left -= 1
            if self.steps_left == 0:
                self.phase = REFILL
        elif ph == BLUE_ORIENT_P:
            self.active[p][code_of(self.blue_colour, a - BLUE_ORIENT)] += 1
            self.blue_colour = -1
            self.phase = BLUE_DISCARD_P
        elif ph == BLUE_DISCARD_P:
            code = a - BLUE_DISCARD
            self.active[p][code] -= 1
            self._to_bag(code)
            self._resume()
        elif ph == BRUSH_P:
            self._resume()
            if a != DONE:
                self._paint(p, a)

    def _resume(self):
        """Back from the blue ability or the brush to the decision it interrupted."""
        self.phase = self.resume
        self.resume = -1
        if self.phase == CHOOSE:
            self.act_player = -1      # CHOOSE belongs to turn_player; no action is running

    def _window(self, a, p):
        """An ability (R5) or the solo brush (R13), used at one of p's decisions."""
        if a == BRUSH:
            self.brush_used = 1
            self.resume = self.phase
            self.act_player = p
            self.phase = BRUSH_P
            return
        self.ability_spent = 1
        if a == BLUE:
            self.resume = self.phase
            self.act_player = p
            self.phase = BLUE_DRAW
        elif YELLOW <= a < PINK:
            t, o = divmod(a - YELLOW, 4)
            if t < 4:
                self.active[p][code_of(YELLOW_C, t)] -= 1
                self.active[p][code_of(YELLOW_C, o)] += 1
            else:
                self.inactive[p][t - 4] = code_of(YELLOW_C, o)
        elif PINK <= a < BLUE:
            t = a - PINK
            if t < N_CODES:
                self.active[p][t] -= 1
                self.active[p][code_of(t // 4, PINK_CYCLE[t % 4])] += 1
            else:
                c = self.inactive[p][t - N_CODES]
                self.inactive[p][t - N_CODES] = code_of(c // 4, PINK_CYCLE[c % 4])

    def _choose(self, c):
        p = self.turn_player
        self.char_taken[c] = 1
        self.act_char = c
        self.act_player = p
        if c == ANNA:
            self.token_holder = p
            if not self.r.solo:
                self.ability_player = p
                self.ability_spent = 0
        w = self.char_wait[c]
        waiting = [x for x in w if x >= 0]
        free = self._free(p)
        if len(waiting) <= free:
            for x in waiting:
                self.active[p][x] += 1
        elif free == 0:
            for x in waiting:
                self._to_bag(x)
        elif waiting[0] == waiting[1]:
            self.active[p][waiting[0]] += 1
            self._to_bag(waiting[1])
        else:
            self.phase = WAIT_KEEP
            return
        self.char_wait[c] = [-1, -1]
        self._start_action(p, c, 1)

    def _start_action(self, p, c, primary):
        """Set up character c's primary (or secondary) action for player p."""
        self.act_player = p
        self.act_char = c
        self.act_primary = primary
        self.postman_used = 0
        if c in (VAN_GOGH, GACHET, POSTMAN):
            self.steps_left = 2 if primary else 1
            self.phase = STEP
        elif c == ANNA:
            self.steps_left = 1
            self.phase = STEP
        elif c == GINOUX:
            if primary:
                self.draws_left = 3 if self._free(p) > 0 else 0
                self.phase = GINOUX_DRAW
            else:
                self.phase = SEC_DRAW if (self._free(p) > 0 and self._bag_total() > 0) else -1
                if self.phase < 0:
                    self._finish_action()
        elif c == EUGENE:
            # R16: the primary takes 2 whatever fits (the excess, of the
            # player's choice, goes back to the bag); the secondary takes 1
            # only into a free space.
            if primary:
                self.steps_left = min(2, sum(self.table))
            else:
                self.steps_left = min(1, self._free(p), sum(self.table))
            self.phase = EUGENE_TAKE if self.steps_left > 0 else REFILL

    def _finish_action(self):
        """The current primary or secondary action is over: next secondary, next turn."""
        self.steps_left = 0
        self.postman_used = 0
        n = self.r.n
        if self.r.solo:
            if self.act_primary:
                self._start_action(self.turn_player, self.act_char, 0)
                return
        elif self.act_primary and self.act_char != ANNA and n > 1:
            self.sec_k = 1
            self._start_action((self.turn_player + 1) % n, self.act_char, 0)
            return
        elif not self.act_primary and self.sec_k < n - 1:
            self.sec_k += 1
            self._start_action((self.turn_player + self.sec_k) % n, self.act_char, 0)
            return
        self._end_turn()

    def _end_turn(self):
        self.sec_k = 0
        self.act_player = -1
        self.act_char = -1
        self.act_primary = 0
        self.turn += 1
        if self.turn < self.r.turns_per_round:
            self.turn_player = (self.round_starter + self.turn) % self.r.n
            self.phase = CHOOSE
            return
        if self._game_over():
            self._final_scoring()
            self.phase = END
            return
        self.eor_char = 0
        self.phase = EOR

    def _game_over(self):
        r = self.r
        if r.solo:
            return self.round >= r.solo_rounds
        return self.finished >= r.n + 1 or self.round >= r.max_rounds

    def _start_round(self):
        self.turn = 0
        self.char_taken = [0] * N_CHARS
        self.ability_player = -1
        self.ability_spent = 0
        self.brush_used = 0
        # R7: the token holder starts; without one the first starter does.
        self.round_starter = self.token_holder if self.token_holder >= 0 else self.first_starter
        self.turn_player = self.round_starter
        self.phase = CHOOSE

    # ------------------------------------------------------------ paint, score
    def _paint(self, p, a):
        """Allocate a Minigogh on a painting space, score it, and finish the
        painting when it is full."""
        src, sp = divmod(a - PAINT, MAX_SPACES)
        src, slot = divmod(src, N_PAINTINGS)
        if src < N_CODES:
            code = src
            self.active[p][code] -= 1
        else:
            i = self._leftmost_inactive(p)
            code = self.inactive[p][i]
            self.inactive[p][i] = -1
        card = self._card(slot)
        green = 0
        if card.orient[sp] != code % 4:
            green = 1                      # only the green ability makes this legal (R5)
            self.ability_spent = 1
        self.occ[slot][sp] = code
        self.score[p] += self._paint_value(p, code, card.bonus[sp], green)
        if all(self.occ[slot][k] >= 0 for k in range(len(card.orient))):
            self._finish_painting(slot)

    def _finish_painting(self, slot):
        card = self._card(slot)
        for colour, pts in enumerate(majority_points(self.occ[slot], card.frame)):
            owner = self.r.owner[colour]
            if owner >= 0 and pts:
                self.score[owner] += pts
        for k in range(MAX_SPACES):
            if self.occ[slot][k] >= 0:
                self._to_bag(self.occ[slot][k])
                self.occ[slot][k] = -1
        self.painting[slot] = -1
        self.finished += 1
        if sum(self.deck) > 0:
            self.card_slot = slot
            self.card_resume = self.phase
            self.phase = CARD

    def _final_scoring(self):
        """End of the game scoring (rulebook 'Scoring at the End of the Game', R4, R5)."""
        r = self.r
        for p in range(r.n):
            pts = 0
            for c in range(N_CODES):
                pts += self.active[p][c] * (3 if c // 4 == WHITE else 1)
            purple = r.colours[p] == PURPLE_C
            for i in range(INACTIVE):
                if self.inactive[p][i] < 0:
                    if not purple:
                        pts += (1, 3, 5)[i]
                elif purple and r.purple_active:
                    pts += 1
            self.score[p] += pts

    # ---------------------------------------------------------------- settling
    def _settle(self):
        """Move past phases with nothing to decide or draw (ENCODING.md 'Settling')."""
        while True:
            ph = self.phase
            p = self.act_player
            if ph == STEP:
                if self.steps_left > 0 and (self._step_actions(p) or self._window_actions(p)):
                    return
                self._finish_action()
            elif ph == GINOUX_DRAW:
                if self.draws_left > 0 and self._bag_total() > 0:
                    return
                self.draws_left = 0
                self.steps_left = min(2, self._free(p), sum(self.hand))
                if self.steps_left > 0:
                    self.phase = GINOUX_KEEP
                else:
                    for c in range(N_COLOURS):
                        self.bag[c] += self.hand[c]
                        self.hand[c] = 0
                    self._finish_action()
            elif ph == ROLL:
                if sum(self.roll_q) > 0:
                    return
                self._finish_action()
            elif ph == REFILL:
                if sum(self.table) < TABLE_SIZE and self._bag_total() > 0:
                    return
                self._finish_action()
            elif ph == EOR:
                while self.eor_char < N_CHARS and not self._eor_due(self.eor_char):
                    self.eor_char += 1
                if self.eor_char < N_CHARS:
                    return
                self.eor_char = 0
                self.round += 1
                self._start_round()
            elif ph == BLUE_DRAW:
                return
            else:
                return

    def _eor_due(self, c):
        if self.char_taken[c] or (c == ANNA and self.r.solo):
            return False
        return self.char_wait[c][1] < 0 and self._bag_total() > 0

    # ----------------------------------------------------------------- returns
    def _returns(self):
        if self.phase != END:
            return [0.0] * self.r.n
        if self.r.solo:
            return [solo_utility(self.score[0])]
        keys = [self.tiebreak_key(p) for p in range(self.r.n)]
        n = self.r.n
        return [(sum(keys[p] > keys[q] for q in range(n)) - sum(keys[p] < keys[q] for q in range(n)))
                / (n - 1) for p in range(n)]

    def tiebreak_key(self, p):
        """(score, own-colour Minigoghs in unfinished paintings, Minigoghs on the palette) (R12)."""
        colour = self.r.colours[p]
        in_paintings = sum(1 for s in range(N_PAINTINGS) for k in range(MAX_SPACES)
                           if self.occ[s][k] >= 0 and self.occ[s][k] // 4 == colour)
        on_palette = sum(self.active[p]) + sum(1 for x in self.inactive[p] if x >= 0)
        return (self.score[p], in_paintings, on_palette)

    def evaluate(self):
        """A heuristic estimate of the returns (not part of the rules; the
        search uses it to cut rollouts short). Each player's estimate is the
        current EP, plus the palette's worth (EVAL_COLOURED per coloured active
        Minigogh, EVAL_WHITE per white, the end bonus of empty inactive spaces,
        EVAL_COLOURED per purple inactive Minigogh it may still paint), plus
        each open painting's majority points as if it ended now, times how
        full it is. Multi-player: the mean over opponents of
        tanh(estimate difference / EVAL_SCALE), in (-1, 1); solo: the solo
        utility of the estimate. The core computes the same numbers in the
        same order (policy.pyx vg_evaluate)."""
        if self.phase == END:
            return self._returns()
        r = self.r
        n = r.n
        est = []
        for p in range(n):
            pal = 0
            for c in range(N_CODES):
                pal += self.active[p][c] * (EVAL_WHITE if c // 4 == WHITE else EVAL_COLOURED)
            purple = r.colours[p] == PURPLE_C
            for i in range(INACTIVE):
                if self.inactive[p][i] < 0:
                    if not purple:
                        pal += (1, 3, 5)[i]
                elif purple and not r.solo:
                    pal += EVAL_COLOURED
            est.append(float(self.score[p] + pal))
        for slot in range(N_PAINTINGS):
            if self.painting[slot] < 0:
                continue
            card = self._card(slot)
            size = len(card.orient)
            filled = sum(1 for k in range(size) if self.occ[slot][k] >= 0)
            if filled == 0:
                continue
            for colour, pts in enumerate(majority_points(self.occ[slot], card.frame)):
                owner = r.owner[colour]
                if owner >= 0 and pts:
                    est[owner] += pts * filled / size
        if r.solo:
            return [solo_utility(est[0])]
        out = []
        for p in range(n):
            acc = 0.0
            for q in range(n):
                if q != p:
                    acc += math.tanh((est[p] - est[q]) / EVAL_SCALE)
            out.append(acc / (n - 1))
        return out

    # -------------------------------------------------------------------- JSON
    def to_json(self):
        from .view import state_view
        return state_view(self)

    @classmethod
    def from_json(cls, game, view):
        from .view import state_from_view
        return state_from_view(cls, game, view)


def solo_utility(score):
    """Solo returns (R13): below the 100-point goal in [-1, 0), at or above it in [0.5, 1]."""
    if score < 100:
        return score / 100.0 - 1.0
    return 0.5 + min(score - 100, 100) / 200.0


def majority_points(occupants, frame):
    """Majority scoring of a finished painting (rulebook 'Paintings', R2, R3).

    Every colour present ranks by its number of spaces; whites never rank.
    Tied colours pool the scores of the places they occupy and split them,
    rounded down; the next colour takes the following place. Returns the
    points per colour (index 0..4), owners or not.
    """
    counts = [0] * N_COLOURS
    for code in occupants:
        if code >= 0 and code // 4 != WHITE:
            counts[code // 4] += 1
    points = [0] * N_COLOURS
    place = 0
    for level in range(MAX_SPACES, 0, -1):
        group = [c for c in range(N_COLOURS) if counts[c] == level]
        if not group:
            continue
        pool = sum(frame[k] for k in range(place, place + len(group)) if k < 3)
        for c in group:
            points[c] = pool // len(group)
        place += len(group)
    return points
