"""Whether a loaded Couleurs de Paris position is one that play can reach.

view.state_from_view reads each field (type, range, structure) into a
reference state; `check_position` then checks the fields against each other
with the invariants play keeps (RULINGS.md, "Invariants of play", I1-I13),
collecting every one the position breaks into one error that names the
fields and, where one exists, the value that would agree with the rest. The
checks read the structured state only (never the JSON or the notation), so
every form of a position is held to the same rules.

Where play could reach a position only through a long history the check is
not exact; it errs on the side of accepting (the action budget I9, for
instance, counts every past assistant as an action and every paint action
as placing the most a brush places).
"""
from __future__ import annotations

from easel.engine.viewfields import Problems

from .data import POSITIONS, SPACES, SUPPLY_COLOURS, TOOLS, TRACK_LEN
from .rules import (ACT, BLACK, BLUE, BONUS_LEVEL, BONUS_P, BRUSH, C_FIRST, C_IMITATOR,
                    C_ROTATE, CENTRE_NAMES, DEAL, DISCARD_P, END, IMITATE_P, K_TAKE, LIMIT,
                    N_COLOURS, N_TOOLS, PAINT_P, PALETTE, PAY_P, PHASES, PLACE_P, RED,
                    REFILL, ROTATE_P, STAND_P, START_ASSISTANTS, TAKE_P, TOOL_P, TUBE, YELLOW,
                    amount, position_of)

GAME = "couleurs_de_paris"
# Phase 2: assistants act (ACT) and the steps of one action.
ACTING = (ACT, TOOL_P, PAY_P, BONUS_P, TAKE_P, IMITATE_P, PAINT_P)
SUB_STEPS = (TOOL_P, PAY_P, BONUS_P, TAKE_P, IMITATE_P, PAINT_P)
# Phase 3 after the board turned (REFILL here is phase 3's, not the setup DEAL).
AFTER_TURN = (REFILL, DISCARD_P, STAND_P)
START_PIGMENTS = {RED: 1, YELLOW: 1, BLUE: 1}          # §3


def _loc_name(loc: int) -> str:
    if loc < POSITIONS:
        return f"lower_board[{loc}]"
    return f"upper_board.{CENTRE_NAMES[loc - POSITIONS]}"


def _board(p: int) -> str:
    return f"boards[{p}]"


def robin(n: int, first: int, counts, steps: int):
    """The seats a round robin from `first` visits in its first `steps` turns
    when seat q takes counts[q] turns, passing over seats with none left
    (§6, §7); returns (visits per seat, the last seat visited, the next
    seat), or None when the turns run out first. -1 stands for none."""
    left = list(counts)
    seen = [0] * n
    last, ptr = -1, first
    for _ in range(steps):
        q = next((ptr + i) % n for i in range(n) if left[(ptr + i) % n] > 0) \
            if any(left) else -1
        if q < 0:
            return None
        left[q] -= 1
        seen[q] += 1
        last, ptr = q, q + 1
    nxt = next(((ptr + i) % n for i in range(n) if left[(ptr + i) % n] > 0), -1)
    return seen, last, nxt


def turns_done(s) -> int:
    """Turns of the upper board so far: one per round before this one, and
    this round's once phase 3 has turned it (§20)."""
    return s.round - 1 + (1 if s.phase in AFTER_TURN else 0)


def rotations_possible(k: int) -> set:
    """Rotations after k turns of 0, 1 or 2 steps each (§18, §20)."""
    return {t % POSITIONS for t in range(2 * k + 1)}


def half_turns_most(k: int, rot: int) -> int:
    """The most half-turns (red reaching position 0 or 5, §20) that k turns
    ending at rotation `rot` can have made: the total steps T <= 2k with
    T = rot mod 10 make T // 5 of them."""
    best = -1
    for t in range(2 * k + 1):
        if t % POSITIONS == rot:
            best = t
    return max(best, 0) // (POSITIONS // 2)


def check_position(s, problems: Problems | None = None) -> None:
    """Raise (UnreachablePositionError, a StateFormatError) listing every
    invariant the reference state `s` filled by the loader breaks."""
    out = problems if problems is not None else Problems(GAME)
    _pigments(s, out)
    _round_and_board(s, out)
    _cards(s, out)
    _tracks(s, out)
    _assistants(s, out)
    _claims(s, out)
    _pending(s, out)
    _budget(s, out)
    _turn(s, out)
    _end(s, out)
    if not out:
        # Only a position whose fields agree is asked for its moves: the
        # rules' functions assume the invariants above.
        _node(s, out)
    out.raise_any()


# -- I1: pigments are conserved colour by colour (§3, §27) ----------------------
def colour_holders(s, colour):
    """(field, count) of every place holding pigments of `colour`."""
    r = s.r
    held = [(f"supply.{SUPPLY_COLOURS[colour]}", s.supply[colour])]
    for p in range(r.n):
        held.append((f"{_board(p)}.pigments.{SUPPLY_COLOURS[colour]}", s.pig[p][colour]))
    for p in range(r.n):
        # The view lists a player's paintings by card id.
        for i, c in enumerate(c for c in range(len(s.owner)) if s.owner[c] == p):
            if s.done[c]:
                continue
            k = 0
            for j in range(SPACES):
                if s.fill[c] >> j & 1:
                    got = ("white" if s.whites[c] >> j & 1
                           else SUPPLY_COLOURS[r.data.paintings[c].spaces[j]])
                    k += got == SUPPLY_COLOURS[colour]
            if k:
                held.append((f"{_board(p)}.paintings[{i}].filled", k))
    return held


def _pigments(s, out):
    r = s.r
    for colour in range(N_COLOURS):
        held = colour_holders(s, colour)
        total = sum(k for _, k in held)
        if total != r.supply[colour]:
            want = s.supply[colour] + r.supply[colour] - total
            out.add([f for f, k in held if k or ".filled" not in f],
                    f"{SUPPLY_COLOURS[colour]} pigments add up to {total} (supply, players, "
                    f"unfinished paintings); the box holds {r.supply[colour]} (I1)",
                    f"supply.{SUPPLY_COLOURS[colour]} = {want}" if want >= 0 else None)


# -- I2, I3: the round, the first player and the board's rotation --------------------
def _round_and_board(s, out):
    r = s.r
    if s.round == 1 and s.first != r.first:
        out.add(["first_player", "round"], "the 1st Player token changes hands only at the "
                "end of a round (§16, §21): in round 1 the first player is the one the option "
                "'first' names (I2)", r.first)
    k = turns_done(s)
    if s.rot not in rotations_possible(k):
        if k == 0:
            out.add(["rotation", "round", "phase"], "the upper board turns only in phase 3 "
                    "(§20): it has not turned yet (I3)", 0)
        else:
            out.add(["rotation", "round", "phase"],
                    f"after {k} turn{'s' if k != 1 else ''} of the upper board (0, 1 or 2 "
                    f"steps each, §18, §20) the rotation is 0 to {2 * k} (I3)")


# -- I4, I5: the paintings: setup, refills, half-turns, takes --------------------------
def _cards(s, out):
    r = s.r
    e_n = r.easels
    ncards = len(s.deck)
    on_easel = [s.easel[e] for e in range(e_n)]
    empty = sum(1 for c in on_easel if c < 0)
    dealt = ncards - sum(s.deck)
    owned = sum(1 for c in s.owner if c >= 0)
    removed = dealt - owned - (e_n - empty)
    if s.phase == DEAL:
        filled = [c >= 0 for c in on_easel]
        if filled != sorted(filled, reverse=True):
            out.add(["easels", "phase"], "the setup turns up cards onto the easels in order, "
                                         "easel 1 first (§4, I4)")
        if owned or removed:
            out.add(["deck", "phase"], "during the setup deal every card not in the deck is "
                                       "on an easel (§4, I4)")
        return
    k = turns_done(s)
    if dealt < e_n:
        out.add(["deck", "easels"], f"the setup turned up {e_n} cards, one per easel (§4, "
                                    f"I4); only {dealt} have left the deck")
    if dealt > e_n * (k + 1):
        out.add(["deck", "round"], f"{dealt} cards have left the deck, but the setup and "
                                   f"{k} refill{'s' if k != 1 else ''} turn up at most "
                                   f"{e_n * (k + 1)} (§4, §20, I4)")
    most = e_n * half_turns_most(k, s.rot)
    if removed > most:
        out.add(["removed", "rotation", "round"],
                f"{removed} cards were removed from the game, but half-turns of the board "
                f"(§20) can have removed at most {most} by now (I4)")
    if owned > e_n * s.round:
        out.add(["boards", "round"], f"{owned} paintings taken, but a round's takes empty "
                                     f"at most the {e_n} easels (§14, I4): at most "
                                     f"{e_n * s.round} by round {s.round}")
    # I5: easels are refilled in phase 3 while the deck lasts, so before the
    # deck runs out an empty easel is one a take emptied this round.
    if sum(s.deck) and s.phase != REFILL:
        takes = 0
        if s.phase in ACTING or s.phase in (ROTATE_P, END):
            where = position_of(r, s.rot, K_TAKE)
            takes = sum(s.lie[q][where] + s.lie[q][C_IMITATOR] for q in range(r.n))
        if empty > takes:
            out.add(["easels", "deck", "phase"],
                    f"{empty} empty easel{'s' if empty != 1 else ''} while the deck still has "
                    f"cards, but {takes} assistant{'s' if takes != 1 else ''} took a painting "
                    f"this round: easels are refilled in phase 3 (§14, §20, I5)")


# -- I6: the development tracks and the assistants they hire (§12) -----------------------
def _tracks(s, out):
    r = s.r
    for p in range(r.n):
        for t in range(N_TOOLS):
            f = f"{_board(p)}.bonus.{TOOLS[t]}"
            level, bonus = s.tool[p][t], s.bonus[p][t]
            pending = s.phase == BONUS_P and p == s.cur and t == s.tool_sel
            if level < BONUS_LEVEL and bonus:
                out.add([f, f"{_board(p)}.tools.{TOOLS[t]}"],
                        "a bonus before the marker reached the bonus space (§12, I6)", "null")
            if level >= BONUS_LEVEL and not bonus and not pending:
                out.add([f, f"{_board(p)}.tools.{TOOLS[t]}"],
                        f"the marker passed the bonus space (level {level}) but no bonus was "
                        f"chosen (§12, I6)")
        want = START_ASSISTANTS + sum(1 for x in s.bonus[p] if x == 1)
        if s.hired[p] != want:
            out.add([f"{_board(p)}.assistants", f"{_board(p)}.bonus"],
                    f"{s.hired[p]} assistants, but the tracks hired {want - START_ASSISTANTS} "
                    f"beyond the first {START_ASSISTANTS} (§3, §12, I6)", want)


# -- I7: where the assistants are (§5-§7, §21) ---------------------------------------------
def _assistants(s, out):
    r = s.r
    n = r.n
    for q in range(POSITIONS):
        here = sum(s.stand[p][q] + s.lie[p][q] for p in range(n))
        if here > r.capacity[q]:
            out.add([f"{_loc_name(q)}.standing", f"{_loc_name(q)}.lying"],
                    f"{here} assistants on {r.capacity[q]} usable spaces (§2, §5, I7)")
    for loc in (C_FIRST, C_IMITATOR, C_ROTATE):
        here = sum(s.stand[p][loc] + s.lie[p][loc] for p in range(n))
        if here > 1:
            out.add([f"{_loc_name(loc)}.standing", f"{_loc_name(loc)}.lying"],
                    "one assistant at most on this space (§5, I7)")
    if s.stand[s.first][C_FIRST] + s.lie[s.first][C_FIRST]:
        out.add([_loc_name(C_FIRST), "first_player"],
                "the 1st Player token holder cannot be placed there (§5)")
    for p in range(n):
        f = _board(p)
        standing, lying = sum(s.stand[p]), sum(s.lie[p])
        on_board = standing + lying
        if s.phase == DEAL:
            if on_board or s.to_place[p]:
                out.add([f"{f}.to_place", "lower_board", "phase"],
                        "nothing is placed before the setup deal ends (I7)", 0)
            continue
        if s.phase == PLACE_P:
            if lying:
                out.add(["lower_board", "upper_board", "phase"],
                        f"player {p} has an assistant lying down in the placement phase; they "
                        f"lie down only when acting (§7, I7)")
            if on_board + s.to_place[p] != s.hired[p]:
                out.add([f"{f}.to_place", f"{f}.assistants"],
                        f"{on_board} placed + {s.to_place[p]} to place != {s.hired[p]} "
                        f"assistants (§6, I7)", max(s.hired[p] - on_board, 0))
            continue
        if s.to_place[p]:
            out.add([f"{f}.to_place", "phase"], "assistants are placed only in the placement "
                                                "phase (§6, I7)", 0)
        if on_board > s.hired[p]:
            out.add([f"{f}.assistants", "lower_board", "upper_board"],
                    f"{on_board} assistants on the boards, {s.hired[p]} hired (I7)")
        else:
            # An assistant hired this round (§12) waits for the next: at most
            # one per bonus taken, each by an action of this round.
            new = s.hired[p] - on_board
            most = min(sum(1 for x in s.bonus[p] if x == 1), lying)
            if new > most:
                out.add([f"{f}.assistants", "lower_board", "upper_board"],
                        f"{s.hired[p]} assistants hired but {on_board} on the boards: every "
                        f"assistant is placed each round (§6), only one hired by a bonus this "
                        f"round waits (§12, I7)")
        if s.phase not in ACTING and standing:
            out.add(["lower_board", "upper_board", "phase"],
                    f"player {p} still has an assistant standing in phase {PHASES[s.phase]}; "
                    f"every assistant lies down in phase 2 (§7, I7)")


# -- I8: the claims of the 1st Player and rotate spaces (§16, §18, §21) ----------------------
def _claims(s, out):
    for p, loc, f in ((s.fp_claim, C_FIRST, "claims.first player"),
                      (s.rot_claim, C_ROTATE, "claims.rotate")):
        if p >= 0 and not s.lie[p][loc]:
            out.add([f, _loc_name(loc)], f"player {p} has no assistant lying on that space "
                                         f"(§16, §18, I8)", "null")


# -- I10: the step under way (ENCODING.md "Phases") -----------------------------------------
def _pending(s, out):
    r = s.r
    n = r.n
    ph = s.phase
    p = s.cur
    in_tool = ph in (PAY_P, BONUS_P)
    if in_tool != (s.tool_sel >= 0):
        out.add(["pending.tool", "phase"], "a tool is chosen exactly while paying for it or "
                                           "taking its bonus (§11, §12, I10)")
    if (ph == PAY_P) != (s.pay_left > 0):
        out.add(["pending.pay_left", "phase"], "pigments are owed exactly while paying (§11, "
                                               "I10)")
    if ph != PAY_P and s.pay_min:
        out.add(["pending.pay_min", "phase"], "must be red outside payments (I10)", "red")
    if ph == PAY_P and s.pay_left == 2 and s.pay_min:
        out.add(["pending.pay_min", "pending.pay_left"], "nothing is paid yet, so any colour "
                                                         "may be paid first (§11, I10)", "red")
    if ph != PAINT_P and (s.paint_left or s.painted):
        out.add(["pending.paint_left", "pending.painted", "phase"],
                "must be 0 outside the paint action (I10)", 0)
    if ph not in (DISCARD_P, STAND_P) and s.seat_k:
        out.add(["pending.seat_k", "phase"], "must be 0 outside the discard and stand steps "
                                             "(I10)", 0)
    if ph in (PAY_P, TOOL_P, BONUS_P, PAINT_P) and 0 <= p < n:
        if ph == PAY_P and s.tool[p][s.tool_sel] >= TRACK_LEN:
            out.add(["pending.tool", f"{_board(p)}.tools.{TOOLS[s.tool_sel]}"],
                    "that tool is already at the end of its track (§11, I10)")
        if ph == BONUS_P and (s.tool[p][s.tool_sel] != BONUS_LEVEL or s.bonus[p][s.tool_sel]):
            out.add(["pending.tool", f"{_board(p)}.tools.{TOOLS[s.tool_sel]}"],
                    "the bonus is chosen when the marker reaches the bonus space (§12, I10)")
        if ph == TOOL_P and s.nonblack(p) < 2:
            out.add(["phase", f"{_board(p)}.pigments"], "improving needs 2 pigments to pay "
                    "(§11); the improve action is not offered without them (§7, I10)")
        if ph == PAINT_P:
            want = amount(r, BRUSH, s.tool[p][BRUSH])
            if s.paint_left < 1 or s.paint_left + s.painted != want:
                out.add(["pending.paint_left", "pending.painted", f"{_board(p)}.tools.brush"],
                        f"a paint action places up to the brush's {want} pigments: pigments "
                        f"left + placed = {want}, with at least one left (§15, I10)",
                        max(want - s.painted, 0))
            elif not s.can_paint(p):
                out.add(["phase", f"{_board(p)}.paintings"], "the paint action ends by itself "
                        "once nothing more can be placed (§15, I10)")
    for q in range(n):
        f = f"pending.keep[{q}]"
        seat = (q - s.first) % n
        lower_lying = any(s.lie[q][:POSITIONS])
        if s.keep[q] >= 0:
            if ph != STAND_P or seat >= s.seat_k or not s.lie[q][s.keep[q]]:
                out.add([f, "pending.seat_k"], "only a player who already stood an assistant "
                        "this phase 3, on a space where one lies (§21, I10)", "null")
        elif ph == STAND_P and seat < s.seat_k and lower_lying:
            out.add([f, "pending.seat_k"], f"player {q} has had the turn to stand an assistant "
                    f"(§21) and has one lying on the lower board, so stood one (I10)")
        if ph == STAND_P or (ph == DISCARD_P and seat < s.seat_k):
            if s.nonblack(q) > LIMIT:
                out.add([f"{_board(q)}.pigments", "pending.seat_k", "phase"],
                        f"player {q} keeps {s.nonblack(q)} pigments after discarding down to "
                        f"{LIMIT} (§20, I10)")


# -- I9: what each player can have done by this round -------------------------------------------
def _budget(s, out):
    """Every tool step, painting taken, black pigment and paint action
    took one assistant's action (§8-§17); a player has acted at most once
    per hired assistant in each past round and once per assistant lying down
    this round. Pigments: after phase 3 at most 12 (§20), each action adds at
    most the largest amount a tool track gives."""
    r = s.r
    n = r.n
    brush_most = max(r.tracks[BRUSH])
    gain_most = max(max(r.tracks[TUBE]), max(r.tracks[PALETTE]), 1)
    for p in range(n):
        f = _board(p)
        lying = sum(s.lie[p])
        actions = (s.round - 1) * s.hired[p] + lying
        steps = sum(s.tool[p][t] - 1 for t in range(N_TOOLS))
        cards = [c for c in range(len(s.owner)) if s.owner[c] == p]
        placed = sum(bin(s.fill[c]).count("1") for c in cards)
        paints = -(-placed // brush_most)
        used = steps + len(cards) + s.pig[p][BLACK] + paints
        if used > actions:
            out.add([f"{f}.tools", f"{f}.paintings", f"{f}.pigments.black", "round",
                     "lower_board"],
                    f"player {p}'s {steps} tool steps, {len(cards)} paintings taken, "
                    f"{s.pig[p][BLACK]} black pigments and {placed} pigments painted take "
                    f"{used} actions (§8-§17), more than the {actions} their assistants can "
                    f"have taken by round {s.round} (I9)")
        if s.phase in (DEAL, PLACE_P) or lying == 0:
            if s.round == 1:
                start = [START_PIGMENTS.get(c, 0) for c in range(N_COLOURS)]
                if s.pig[p] != start:
                    out.add(f"{f}.pigments", "a player who has not acted yet holds the "
                                             "starting 1 red, 1 yellow, 1 blue (§3, I9)",
                            "red 1, yellow 1, blue 1")
                continue
        base = 3 if s.round == 1 else LIMIT
        most = base + gain_most * lying
        if s.nonblack(p) > most:
            out.add([f"{f}.pigments", "round", "lower_board"],
                    f"player {p} holds {s.nonblack(p)} pigments besides black, but began the "
                    f"round with at most {base} (§3, §20) and took {lying} "
                    f"action{'s' if lying != 1 else ''} of at most {gain_most} each (I9)")


# -- I11: whose turn (§6, §7, §18, §20, §21) ------------------------------------------------------
def _turn(s, out):
    r = s.r
    n = r.n
    ph = s.phase
    if ph == PLACE_P:
        _placement_turn(s, out)
    elif ph in ACTING:
        counts = [sum(s.stand[q]) + sum(s.lie[q]) for q in range(n)]
        lying = [sum(s.lie[q]) for q in range(n)]
        walk = robin(n, s.first, counts, sum(lying))
        if walk is None or walk[0] != lying:
            out.add(["lower_board", "first_player"],
                    f"assistants lie down one at a time in turn order from the first player, "
                    f"passing over players with none standing (§7, I11): {lying} lying is not "
                    f"such an order")
            return
        want = walk[2] if ph == ACT else walk[1]
        if want < 0:
            out.add(["phase", "lower_board"], "no assistant has acted this round" if ph != ACT
                    else "no assistant is standing: phase 2 is over (§7, I11)")
        elif s.cur != want:
            what = "acts next" if ph == ACT else "is performing the action under way"
            out.add(["current_player", "lower_board", "first_player"],
                    f"in turn order from the first player, player {want} {what} (§7, I11)",
                    want)
    elif ph == ROTATE_P:
        if s.rot_claim < 0:
            out.add(["claims.rotate", "phase"], "the rotate choice belongs to the player who "
                                                "claimed it (§18, I11)")
        elif s.cur != s.rot_claim:
            out.add(["current_player", "claims.rotate"], "the rotate choice belongs to the "
                                                         "player who claimed it (§18, I11)",
                    s.rot_claim)
    elif ph in (DISCARD_P, STAND_P):
        want = (s.first + s.seat_k) % n
        if s.cur != want:
            out.add(["current_player", "pending.seat_k", "first_player"],
                    "phase 3 steps go in turn order from the first player (§20, §21, I11)",
                    want)
        elif ph == DISCARD_P and s.nonblack(s.cur) <= LIMIT:
            out.add(["phase", f"{_board(s.cur)}.pigments"],
                    f"player {s.cur} holds at most {LIMIT} pigments: nothing to discard (§20, "
                    f"I11)")


def _placement_turn(s, out):
    """§6 with the assistant stood up last round (§21) already placed: it
    cannot be told from one placed this round, so every choice of which
    players kept one is tried (none in round 1)."""
    r = s.r
    n = r.n
    if not any(s.to_place):
        out.add(["phase", "boards"], "nobody has an assistant left to place: the placement "
                                     "phase is over (§6, I11)")
        return
    standing = [sum(s.stand[q]) for q in range(n)]
    options = [[0] if s.round == 1 or not any(s.stand[q][:POSITIONS]) else [0, 1]
               for q in range(n)]
    wanted = set()
    combos = [[]]
    for opts in options:
        combos = [c + [k] for c in combos for k in opts]
    for kept in combos:
        placed = [standing[q] - kept[q] for q in range(n)]
        if min(placed) < 0:
            continue
        walk = robin(n, s.first, [placed[q] + s.to_place[q] for q in range(n)], sum(placed))
        if walk is None or walk[0] != placed:
            continue
        if walk[2] == s.cur:
            return
        wanted.add(walk[2])
    if len(wanted) == 1:
        want = wanted.pop()
        out.add(["current_player", "boards", "first_player"],
                f"assistants are placed one at a time in turn order from the first player, "
                f"passing over players with none left (§6, I11): player {want} places next",
                want)
    else:
        out.add(["lower_board", "current_player", "first_player"],
                "assistants are placed one at a time in turn order from the first player, "
                "passing over players with none left (§6, I11); these placements are not "
                "such an order")


# -- I12: the game's end (§23, §28) ---------------------------------------------------------------
def _end(s, out):
    r = s.r
    last = s.final or s.round >= r.max_rounds
    if s.phase == END and not last:
        out.add(["phase", "round", "final_round"],
                "the game ends after phase 2 of the last round: someone finished a 2nd "
                "painting, the last black pigment was taken (§23) or the round limit "
                f"({r.max_rounds}, §28) was reached (I12)")
    # The last round's phase 3 never comes; a game over by §23 has no next
    # round to place assistants in.
    if (s.phase in (ROTATE_P,) + AFTER_TURN and last) or (s.phase == PLACE_P and s.final):
        why = ("someone finished a 2nd painting or took the last black pigment (§23)"
               if s.final else f"round {s.round} is the last (option maxrounds, §28)")
        out.add(["phase", "round" if not s.final else "final_round"],
                f"{why}: the game ends with phase 2 of this round (I12)")


# -- I13: a decision with a legal move, or a chance node with an outcome --------------------------
def _node(s, out):
    r = s.r
    if s.phase in (DEAL, REFILL):
        if not sum(s.deck) or all(s.easel[e] >= 0 for e in range(r.easels)):
            out.add(["easels", "deck", "phase"], "a card is turned up only onto an empty easel "
                                                 "from a non-empty deck (§4, §20, I13)")
    elif s.phase != END and not s._legal_actions():
        out.add(["phase", "current_player"], f"player {s.cur} would have no legal move in "
                                             f"phase {PHASES[s.phase]!r} (I13)")
