"""Starving Artists, the plain-Python reference: the executable specification.

An explicit phase machine over small integers and fixed-length lists, so the
Cython core can mirror it field for field (ENCODING.md lists the phases,
fields, action ids and chance outcomes; RULINGS.md the readings of the
rulebook, cited below as §N).

A day (§6-§25): the payday pile gets four cubes from the bag, nutrition
falls (from the second day; a player who drops below 1 starves), two rounds
of one action per player in turn order (work, paint or buy; plus once a day
a free action: trade with the payday pile or reset the market), then selling
in announced order: feed, return the paint, collection turns in value order,
score. The solo game (§32-§36) keeps the actions, sells at any time and
advances the market at the end of each day. Every cube drawn from the bag and
every canvas turned up is a chance node.
"""
from __future__ import annotations

from easel.engine.contract_ids import PLAYER_CHANCE, PLAYER_TERMINAL
from easel.engine.reference import ReferenceState

from .fields import FIELDS
from .rules import (
    ADVANCE, ANNOUNCE, BOX, BUY, CANVAS, COLLECT, DAWN, DONE, DRAW, DUSK, END,
    EXCESS_FOOD_CUBES, FEED, FULL, IN_MARKET, MARKET, N_CUBES, PAINT, PAINT_AT, PAINT_CUBES,
    PAINT_P, PAY, PAY_BUY, PAY_P, PAY_RESET, PAY_TRADE, PAYDAY_CUBES, QUEUE, REMOVED, RESET,
    RESET_COST, RETURN, SELL, SETUP, SOLD0, SOLO_ACTIONS, STUDIO0, STUDY, STUDY_CUBES, SUPPER,
    SUPPER_P, TAKE, TAKE_P, TO_PILE, TRADE, TURN, UNSEEN, WILD, WORK, WORK_CUBES, paint_at,
    split_paint_at, rules_of)

_CHANCE_PHASES = (SETUP, DRAW, CANVAS)


class StarvingArtistsState(ReferenceState):
    def __init__(self, game):
        super().__init__(game)
        r = rules_of(game)
        self.r = r
        # Every field of the table (fields.py, which says what each means) at
        # its empty value (so the phase is setup, draws go to the pile, every
        # canvas is unseen), then the ones the game starts elsewhere.
        FIELDS.clear(self, r)
        self.day = 1
        self.round = 1
        self.first = r.start            # the carrot
        self.bag = list(BOX)
        self.alive = [1] * r.n
        self.nutrition = [FULL] * r.n

    # ------------------------------------------------------------------ helpers
    def _card(self, i):
        return self.r.deck.cards[i]

    def _seat(self, off):
        return (self.first + off) % self.r.n

    def _unseen(self):
        return sum(1 for x in self.loc if x == UNSEEN)

    def _drawable(self):
        """Face-down canvases that can still be turned up at random (solo:
        the set-aside ones never are, §32)."""
        return self._unseen() - self.r.set_aside

    def _complete(self, i):
        return all(x >= 0 for x in self.cubes[i])

    def _studio_cards(self, p):
        return [i for i in range(self.r.n_cards) if self.loc[i] == STUDIO0 + p]

    def _sold_cards(self, p):
        return [i for i in range(self.r.n_cards) if self.loc[i] == SOLD0 + p]

    def _has_wild(self, i):
        return WILD in self.cubes[i]

    def _placements(self, p):
        """PAINT_AT ids open to p (§10-§11): an own canvas, an empty square
        that takes the cube's colour (or a wild if the canvas has none yet,
        §2), the first empty square of its colour set (squares with the same
        colours are interchangeable, §11)."""
        out = []
        st = self.studio[p]
        for i in self._studio_cards(p):
            sq = self._card(i).squares
            cub = self.cubes[i]
            wild_ok = st[WILD] > 0 and WILD not in cub
            seen = set()
            for k, cols in enumerate(sq):
                if cub[k] >= 0 or cols in seen:
                    continue
                seen.add(cols)
                for c in cols:
                    if st[c] > 0:
                        out.append(paint_at(i, c, k))
                if wild_ok:
                    out.append(paint_at(i, WILD, k))
        return out

    def _nonwild(self, counts):
        return sum(counts) - counts[WILD]

    # ------------------------------------------------------------- legal moves
    def _current_player(self):
        ph = self.phase
        if ph == END:
            return PLAYER_TERMINAL
        if ph in _CHANCE_PHASES:
            return PLAYER_CHANCE
        return self.actor

    def _turn_actions(self, p):
        r = self.r
        out = []
        st = self.studio[p]
        have = sum(st)
        can_act = self.actions_left > 0 if r.solo else not self.main_done
        if can_act:
            out.append(WORK)
            if self._placements(p):
                out.append(PAINT)
            for slot in range(MARKET):
                if self.market[slot] >= 0 and have >= slot + 1:
                    out.append(BUY + slot)
        if not self.free_used[p]:
            for t, (pay, take) in enumerate(r.trades):
                if have >= pay and self._nonwild(self.pile) >= take:
                    out.append(TRADE + t)
            if not r.solo and have >= RESET_COST and any(x >= 0 for x in self.market):
                out.append(RESET)
            if r.colour_study:
                for give in range(N_CUBES):
                    if st[give] >= STUDY_CUBES:
                        out += [STUDY + give * N_CUBES + want for want in range(N_CUBES)
                                if want != give and self.bag[want] > 0]
        if r.solo:
            out += [SELL + i for i in self._studio_cards(p) if self._complete(i)]
            if self.actions_left == 0:
                out.append(DONE)
        elif self.main_done:
            out.append(DONE)
        return out

    def _legal_actions(self):
        ph = self.phase
        p = self.actor
        if ph == TURN:
            return self._turn_actions(p)
        if ph == PAINT_P:
            out = self._placements(p)
            if self.paints_left < PAINT_CUBES:
                out.append(DONE)
            return out
        if ph == PAY_P:
            return [PAY + c for c in range(N_CUBES) if self.studio[p][c] > 0]
        if ph == TAKE_P:
            return [TAKE + c for c in range(WILD) if self.pile[c] > 0]
        if ph == COLLECT:
            return [TAKE + c for c in range(N_CUBES) if self._takeable(c)]
        if ph == ANNOUNCE:
            return [SELL + i for i in self._studio_cards(p)
                    if self._complete(i) and i not in self.selling] + [DONE]
        if ph == SUPPER_P:
            return [SUPPER + i for i in self._sold_cards(p)] + [DONE]
        if ph == ADVANCE:
            cols = self._card(self.adv_card).squares[self.adv_k]
            return [RETURN + c for c in cols]
        raise AssertionError(f"no decision in phase {ph}")

    def _takeable(self, c):
        if self.pile[c] == 0:
            return False
        return c != WILD or self.r.solo or not self.turn_wild

    # ------------------------------------------------------------------ chance
    def _chance_source(self):
        # The canvases, turned up from their pile, apart from the bag's cubes.
        return 1 if self.phase == CANVAS else 0

    def _chance_outcomes(self):
        if self.phase == CANVAS:
            left = [i for i in range(self.r.n_cards) if self.loc[i] == UNSEEN]
            return [(i, 1.0 / len(left)) for i in left]
        total = sum(self.bag)
        return [(c, self.bag[c] / total) for c in range(N_CUBES) if self.bag[c] > 0]

    # ------------------------------------------------------------------- apply
    def _apply(self, a):
        ph = self.phase
        if ph == SETUP:
            self.bag[a] -= 1
            self.studio[self._seat(self.setup_k // self.r.start_cubes)][a] += 1
            self.setup_k += 1
            if self.setup_k == self.r.n * self.r.start_cubes:
                self.setup_k = 0
                self._fill_market(DAWN)
        elif ph == DRAW:
            self.bag[a] -= 1
            if self.draw_to == TO_PILE:
                self.pile[a] += 1
            else:
                self.studio[self.draw_to][a] += 1
            self.draws_left -= 1
        elif ph == CANVAS:
            self._place_in_market(a)
        else:
            self._decide(a)
        self._settle()

    def _decide(self, a):
        ph = self.phase
        p = self.actor
        if ph == TURN:
            self._turn(p, a)
        elif ph == PAINT_P:
            if a == DONE:
                self.paints_left = 0
            else:
                i, cube, k = split_paint_at(a)
                self.studio[p][cube] -= 1
                self.cubes[i][k] = cube
                self.paints_left -= 1
            if self.paints_left == 0:
                self.phase = TURN
        elif ph == PAY_P:
            c = a - PAY
            self.studio[p][c] -= 1
            if self.pay_for == PAY_TRADE:
                self.held[c] += 1          # §14: joins the pile after the take
            else:
                self.pile[c] += 1
            self.pay_left -= 1
            if self.pay_left == 0:
                self._paid(p)
        elif ph == TAKE_P:
            c = a - TAKE
            self.pile[c] -= 1
            self.studio[p][c] += 1
            self.take_left -= 1
            if self.take_left == 0:
                for c in range(N_CUBES):
                    self.pile[c] += self.held[c]
                    self.held[c] = 0
                self.phase = TURN
        elif ph == COLLECT:
            self._collect(a - TAKE)
        elif ph == ANNOUNCE:
            if a == DONE:
                self.turn_k += 1
                self._next_announcer()
            else:
                self.selling.append(a - SELL)
        elif ph == SUPPER_P:
            if a != DONE:
                self._last_supper(p, a - SUPPER)
            self._nutrition_drop(p)
            self.dawn_k += 1
            self.phase = DAWN
        elif ph == ADVANCE:
            c = a - RETURN
            self.pile[c] -= 1
            self.bag[c] += 1
            self.adv_k += 1
            self.phase = DUSK

    def _turn(self, p, a):
        r = self.r
        if a == DONE:
            if r.solo:
                self.phase = DUSK
            else:
                self._next_turn()
            return
        if a == WORK or a == PAINT or BUY <= a < BUY + MARKET:
            if r.solo:
                self.actions_left -= 1
            else:
                self.main_done = 1
        if a == WORK:                              # §9
            self._draw(p, WORK_CUBES, TURN)
        elif a == PAINT:                           # §10
            self.paints_left = PAINT_CUBES
            self.phase = PAINT_P
        elif BUY <= a < BUY + MARKET:              # §12
            self.pay_for, self.pay_arg, self.pay_left = PAY_BUY, a - BUY, a - BUY + 1
            self.phase = PAY_P
        elif TRADE <= a < TRADE + 3:               # §14
            self.free_used[p] = 1
            pay, take = r.trades[a - TRADE]
            self.pay_for, self.pay_arg, self.pay_left = PAY_TRADE, a - TRADE, pay
            self.take_left = take
            self.phase = PAY_P
        elif a == RESET:                           # §15
            self.free_used[p] = 1
            self.pay_for, self.pay_arg, self.pay_left = PAY_RESET, -1, RESET_COST
            self.phase = PAY_P
        elif STUDY <= a < SELL:                    # §29
            self.free_used[p] = 1
            give, want = divmod(a - STUDY, N_CUBES)
            self.bag[want] -= 1
            self.studio[p][want] += 1
            self.studio[p][give] -= STUDY_CUBES
            self.bag[give] += STUDY_CUBES
        elif SELL <= a < SUPPER:                   # §34: solo, sell now
            self.selling = [a - SELL]
            self.feed_k = 0
            self.fed = 0
            self.phase = FEED

    def _paid(self, p):
        pf = self.pay_for
        self.pay_for, self.pay_left = -1, 0
        if pf == PAY_BUY:
            slot = self.pay_arg
            self.pay_arg = -1
            self.loc[self.market[slot]] = STUDIO0 + p
            self.market[slot] = -1
            self._compact_market()
            self._fill_market(TURN)
        elif pf == PAY_TRADE:
            self.pay_arg = -1
            self.phase = TAKE_P
        else:
            # §15: the three canvases go under the pile, the cheapest first.
            self.pay_arg = -1
            for slot in range(MARKET):
                if self.market[slot] >= 0:
                    self.queue.append(self.market[slot])
                    self.loc[self.market[slot]] = QUEUE
                    self.market[slot] = -1
            self._fill_market(TURN)

    # ---------------------------------------------------------------- market
    def _compact_market(self):
        """§12: the canvases slide toward the cheap end, filling the gaps."""
        cards = [x for x in self.market if x >= 0]
        self.market = cards + [-1] * (MARKET - len(cards))

    def _fill_market(self, resume):
        self.resume = resume
        self.phase = CANVAS

    def _place_in_market(self, i):
        slot = self.market.index(-1)
        self.market[slot] = i
        self.loc[i] = IN_MARKET

    def _draw(self, to, k, resume):
        self.draw_to = to
        self.draws_left = k
        self.resume = resume
        self.phase = DRAW

    # ---------------------------------------------------------------- the day
    def _dawn(self):
        """Start of day (§6-§8; solo §32). Steps: multi 0 payday, 1..n
        nutrition from the first player; solo 0 nutrition, 1 payday. Then the
        first turn."""
        r = self.r
        if r.solo:
            if self.dawn_k == 0:
                if self._nutrition_step(0):
                    return
                self.dawn_k = 1
            if self.result < 0:
                self.dawn_k = 0
                self.phase = END
                return
            if self.dawn_k == 1:
                self.dawn_k = 2
                self._draw(TO_PILE, PAYDAY_CUBES, DAWN)
                return
            self.dawn_k = 0
            self.actor = 0
            self.actions_left = SOLO_ACTIONS
            self.phase = TURN
            return
        if self.dawn_k == 0:
            self.dawn_k = 1
            self._draw(TO_PILE, PAYDAY_CUBES, DAWN)
            return
        while self.dawn_k <= r.n:
            p = self._seat(self.dawn_k - 1)
            if self.alive[p] and self._nutrition_step(p):
                return
            self.dawn_k += 1
        self.dawn_k = 0
        # §7: a starved first player passes the carrot at once.
        if not any(self.alive):
            self.phase = END
            return
        while not self.alive[self.first]:
            self.first = (self.first + 1) % r.n
        self.round = 1
        self.turn_k = 0
        self._start_turn()

    def _nutrition_step(self, p):
        """Lower p's nutrition (not on the first day). Returns True when p
        must first decide on a Last Supper (§30)."""
        if self.day == 1:
            return False
        if self.r.last_supper and self.nutrition[p] == 1 and self._sold_cards(p):
            self.actor = p
            self.phase = SUPPER_P
            return True
        self._nutrition_drop(p)
        return False

    def _nutrition_drop(self, p):
        self.actor = -1
        self.nutrition[p] -= 1
        if self.nutrition[p] < 1:
            self._starve(p)

    def _last_supper(self, p, i):
        """§30: discard a sold painting, eat its stars (to full at most)."""
        card = self._card(i)
        self.loc[i] = REMOVED
        self.stars[p] -= card.stars
        self.paintings[p] -= 1
        self.nutrition[p] = min(FULL, self.nutrition[p] + card.stars)

    def _starve(self, p):
        """§7, §26: p is out; their paint (studio and unsold canvases) goes
        back to the bag, the canvases leave the game; sold paintings stay."""
        self.nutrition[p] = 0
        self.alive[p] = 0
        self.starved_today = 1
        if self.r.solo:
            self.result = -1
        for c in range(N_CUBES):
            self.bag[c] += self.studio[p][c]
            self.studio[p][c] = 0
        for i in self._studio_cards(p):
            self._clear_canvas(i)
            self.loc[i] = REMOVED

    def _clear_canvas(self, i):
        for k, c in enumerate(self.cubes[i]):
            if c >= 0:
                self.bag[c] += 1
                self.cubes[i][k] = -1

    def _start_turn(self):
        """The turn of the player at turn_k (skipping the starved); after
        the second round, the announcements (§17)."""
        n = self.r.n
        while True:
            while self.turn_k < n and not self.alive[self._seat(self.turn_k)]:
                self.turn_k += 1
            if self.turn_k < n:
                self.actor = self._seat(self.turn_k)
                self.main_done = 0
                self.phase = TURN
                return
            if self.round == 2:
                break
            self.round = 2
            self.turn_k = 0
        self.turn_k = 0
        self.actor = -1
        self.phase = ANNOUNCE
        self._next_announcer()

    def _next_turn(self):
        self.turn_k += 1
        self.main_done = 0
        self._start_turn()

    def _next_announcer(self):
        """The next living player, from the first player, who has a completed
        canvas to announce; then feeding (§18)."""
        n = self.r.n
        while self.turn_k < n:
            p = self._seat(self.turn_k)
            if self.alive[p] and any(self._complete(i) for i in self._studio_cards(p)):
                self.actor = p
                return
            self.turn_k += 1
        self.turn_k = 0
        self.actor = -1
        self.feed_k = 0
        self.fed = 0
        self.phase = FEED

    # ---------------------------------------------------------------- selling
    def _sellers(self):
        """Players with an announced canvas, in turn order from the first player."""
        owners = {self.loc[i] - STUDIO0 for i in self.selling}
        return [self._seat(k) for k in range(self.r.n) if self._seat(k) in owners]

    def _feed(self):
        """§19-§20, each seller in turn order: eat the food of the canvases
        sold (to full; four cubes from the bag per excess food), then return
        their paint to the bag. Returns True while a draw is pending."""
        sellers = self._sellers()
        while self.feed_k < len(sellers):
            p = sellers[self.feed_k]
            mine = [i for i in self.selling if self.loc[i] == STUDIO0 + p]
            if not self.fed:
                self.fed = 1
                food = sum(self._card(i).food for i in mine)
                self.food[p] += food
                total = self.nutrition[p] + food
                self.nutrition[p] = min(FULL, total)
                if total > FULL:
                    self._draw(p, EXCESS_FOOD_CUBES * (total - FULL), FEED)
                    return True
            for i in mine:
                self._clear_canvas(i)
            self.fed = 0
            self.feed_k += 1
        self.feed_k = 0
        return False

    def _start_collection(self):
        """§21-§22: paintings by paint value, highest first; ties by seat
        from the first player, then announcement order."""
        n = self.r.n
        first = self.first

        def key(k):
            i = self.selling[k]
            owner = self.loc[i] - STUDIO0
            return (-self._card(i).paint, (owner - first) % n, k)
        self.order = sorted(range(len(self.selling)), key=key)
        self.got = [0] * len(self.selling)
        self.coll_i = 0
        self._start_collection_turn()

    def _rate(self, pos):
        """Cubes a collection turn takes at most: 4, 2, then 1 (§21); solo
        the whole value at once (§34)."""
        if self.r.solo:
            return self._card(self.selling[self.order[pos]]).paint
        return 4 if pos == 0 else 2 if pos == 1 else 1

    def _remaining(self, pos):
        k = self.order[pos]
        return self._card(self.selling[k]).paint - self.got[k]

    def _start_collection_turn(self):
        """From coll_i on, the next painting with value left; wrap to a new
        round; finish when the pile is empty or every value is taken."""
        m = len(self.order)
        self.turn_taken = 0
        self.turn_wild = 0
        if sum(self.pile) > 0:
            for step in range(m):
                pos = (self.coll_i + step) % m
                if self._remaining(pos) > 0:
                    self.coll_i = pos
                    self.actor = self.loc[self.selling[self.order[pos]]] - STUDIO0
                    self.phase = COLLECT
                    return
        self._finish_sale()

    def _collect(self, c):
        self.pile[c] -= 1
        p = self.actor
        self.studio[p][c] += 1
        k = self.order[self.coll_i]
        self.got[k] += 1
        self.turn_taken += 1
        if c == WILD:
            self.turn_wild = 1
        if (self.turn_taken >= self._rate(self.coll_i) or self._remaining(self.coll_i) == 0
                or not any(self._takeable(x) for x in range(N_CUBES))):
            self.coll_i = (self.coll_i + 1) % len(self.order)
            self._start_collection_turn()

    def _finish_sale(self):
        """§24: the sold canvases become scored paintings."""
        for i in self.selling:
            p = self.loc[i] - STUDIO0
            self.loc[i] = SOLD0 + p
            self.stars[p] += self._card(i).stars
            self.paintings[p] += 1
        self.selling, self.order, self.got = [], [], []
        self.coll_i = self.turn_taken = self.turn_wild = 0
        if self.r.solo:
            # §36: the goal is checked at once.
            if self._famous(0):
                self.result = 1
                self.phase = END
            else:
                self.actor = 0
                self.phase = TURN
            return
        self.actor = -1
        self.phase = DUSK

    def _famous(self, p):
        return self.stars[p] >= self.r.fame_stars or self.paintings[p] >= self.r.fame_paintings

    # ------------------------------------------------------------------ dusk
    def _dusk(self):
        """End of day. Multi (§25-§27): the game ends after a starvation day
        or when someone is famous; otherwise the carrot passes. Solo (§35):
        step 0 advances the market (a decision at a split square), step 1
        refills it; an empty market then loses."""
        r = self.r
        if r.solo:
            if self.dusk_k == 0:
                if self._advance():
                    return
                self.dusk_k = 1
                self._compact_market()
                self._fill_market(DUSK)
                return
            self.dusk_k = 0
            if all(x < 0 for x in self.market):
                self.result = -1
                self.phase = END
                return
        else:
            if self.starved_today or any(self._famous(p) for p in range(r.n)):
                self.phase = END
                self.actor = -1
                return
            self.first = (self.first + 1) % r.n
        self.day += 1
        self.free_used = [0] * r.n
        self.starved_today = 0
        self.actor = -1
        self.phase = DAWN

    def _advance(self):
        """§35: the cheapest canvas leaves; for each of its squares a cube of
        its colour returns from the pile to the bag (singles first, then the
        split squares in order, the player choosing when both colours are in
        the pile; wilds match nothing). Returns True at a decision; sets the
        CANVAS phase when the market refills."""
        if self.adv_card < 0:
            if all(x < 0 for x in self.market):
                return False
            self.adv_card = self.market[0]
            self.market[0] = -1
            self.adv_k = 0
            for cols in self._card(self.adv_card).squares:
                if len(cols) == 1 and self.pile[cols[0]] > 0:
                    self.pile[cols[0]] -= 1
                    self.bag[cols[0]] += 1
        squares = self._card(self.adv_card).squares
        while self.adv_k < len(squares):
            cols = squares[self.adv_k]
            if len(cols) == 2:
                have = [c for c in cols if self.pile[c] > 0]
                if len(have) == 2:
                    self.actor = 0
                    self.phase = ADVANCE
                    return True
                if have:
                    self.pile[have[0]] -= 1
                    self.bag[have[0]] += 1
            self.adv_k += 1
        self.loc[self.adv_card] = REMOVED
        self.adv_card = -1
        self.adv_k = 0
        self.actor = -1
        return False

    # ---------------------------------------------------------------- settling
    def _settle(self):
        """Move past steps with nothing to decide or draw (ENCODING.md 'Settling')."""
        while True:
            ph = self.phase
            if ph == DRAW:
                if self.draws_left > 0 and sum(self.bag) > 0:
                    return
                self.draws_left = 0
                self.draw_to = TO_PILE
                self.phase, self.resume = self.resume, -1
            elif ph == CANVAS:
                if -1 not in self.market:
                    self.phase, self.resume = self.resume, -1
                elif self._drawable() > 0:
                    return
                elif self.queue:
                    # §15: the known canvases under the pile come up in order.
                    self._place_in_market(self.queue.pop(0))
                else:
                    self.phase, self.resume = self.resume, -1
            elif ph == DAWN:
                self._dawn()
            elif ph == FEED:
                if self._feed():
                    continue
                self._start_collection()
            elif ph == DUSK:
                self._dusk()
            elif ph == PAINT_P:
                if not self._placements(self.actor):
                    self.paints_left = 0
                    self.phase = TURN
                else:
                    return
            elif ph == TURN:
                if not self._turn_actions(self.actor):
                    raise AssertionError("a turn without a legal action")
                return
            else:
                return

    # ----------------------------------------------------------------- returns
    def _returns(self):
        r = self.r
        if self.phase != END:
            return [0.0] * r.n
        if r.solo:
            return [solo_utility(self)]
        keys = [self.tiebreak_key(p) for p in range(r.n)]
        n = r.n
        return [(sum(keys[p] > keys[q] for q in range(n)) - sum(keys[p] < keys[q] for q in range(n)))
                / (n - 1) for p in range(n)]

    def tiebreak_key(self, p):
        """§28: stars, then paintings, then food earned."""
        return (self.stars[p], self.paintings[p], self.food[p])

    def scores(self):
        return [float(x) for x in self.stars]

    # -------------------------------------------------------------------- JSON
    def to_json(self):
        from .view import state_view
        return state_view(self)

    @classmethod
    def from_json(cls, game, view):
        from .view import state_from_view
        return state_from_view(cls, game, view)


def solo_utility(s):
    """Solo returns: a win is 1; a loss is -1 plus half the progress toward
    the goal (the better of stars and paintings), so in [-1, -0.5]."""
    if s.result > 0:
        return 1.0
    r = s.r
    progress = max(s.stars[0] / r.fame_stars, s.paintings[0] / r.fame_paintings)
    return -1.0 + 0.5 * min(1.0, progress)
