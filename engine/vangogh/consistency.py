"""Whether a loaded Van Gogh position is one that play can reach.

view.state_from_view checks each field's type and range and that the
Minigoghs add up to the box; `check_position` then checks the fields against
each other, so that a position the loader accepts plays on to a proper end
with both implementations. A refusal is one UnreachablePositionError (a
StateFormatError) naming every field at fault and the reason. The invariants are those of the phase machine
(ENCODING.md "Phases", "Turn flow", "Settling"); where play could reach a
position only through a long history the check is not exact, it errs on the
side of accepting (e.g. the table below 5 Minigoghs with a non-empty bag is
reachable: the table is only refilled after Eugene, RULINGS.md R11).
"""
from __future__ import annotations

import copy
import json
from contextvars import ContextVar

from easel.engine.errors import StateFormatError
from easel.engine.viewfields import Problems

from .fields import FIELDS
from .rules import (ACTIVE_CAP, ANNA, BLUE_C, BOX_WHITES, CHARS, COLOURS, EUGENE, GACHET,
                    GINOUX, GREEN_C, INACTIVE, N_CHARS, N_PAINTINGS, PHASES, PINK_C, POSTMAN,
                    PURPLE_C, TABLE_SIZE, VAN_GOGH, WHITE, YELLOW_C, piece_name)

P = {name: i for i, name in enumerate(PHASES)}
PENDING_ROWS = tuple(row for row in FIELDS.state if row.view.startswith("pending."))
SETUP = (P["setup_cards"], P["setup_table"], P["setup_palette"])
# Phases that interrupt a decision and return to it (`resume`): its fields
# stay those of the interrupted phase.
_WINDOW = (P["blue_draw"], P["blue_orient"], P["blue_discard"], P["brush"])
# Per character: the phases its action runs in.
_ACTION_PHASES = {
    VAN_GOGH: (P["step"],), GACHET: (P["step"],), POSTMAN: (P["step"],), ANNA: (P["step"],),
    GINOUX: (P["ginoux_draw"], P["ginoux_keep"], P["roll"], P["sec_draw"]),
    EUGENE: (P["eugene_take"], P["refill"]),
}
# The most points one decision or chance outcome can bring a player: a paint
# (5 for a white, +1 space) and the first place of the finished painting.
_PAINT_MAX = 6
_END_MAX = ACTIVE_CAP * 3 + 9          # end scoring: 7 whites and 1+3+5 (R4)


# Where `_bad` records problems while `check_position` runs (a context
# variable: positions load in several server threads at once).
_SINK: ContextVar[Problems | None] = ContextVar("vangogh_problems", default=None)


def _bad(field, problem):
    sink = _SINK.get()
    if sink is None:
        raise StateFormatError(f"vangogh state: field '{field}': {problem}")
    sink.add(field, problem)


def score_limit(r) -> int:
    """No game reaches a higher score: every decision paints at most once for
    _PAINT_MAX plus a painting's best first place, then the end scoring."""
    from .rules import max_game_length
    frame = max((c.frame[0] for c in r.deck.cards), default=0)
    return max_game_length(r) * (_PAINT_MAX + frame) + _END_MAX


def _max_steps(char, primary):
    if char == ANNA:
        return 1
    return 2 if primary else 1


def check_position(s) -> None:
    """Refuse a state `s` (a reference VanGoghState filled by the loader) that
    play cannot reach or that would misbehave, naming every field at fault at
    once (UnreachablePositionError, a StateFormatError); see the module
    docstring. A check that cannot run on fields already found wrong ends the
    search: what was found is named."""
    out = Problems("vangogh")
    token = _SINK.set(out)
    try:
        _check_fields(s)
    except Exception:
        if not out:
            raise
    finally:
        _SINK.reset(token)
    out.raise_any()
    # The position as a node: settled, with something to decide or draw
    # (only a position whose fields agree is stepped; the setup's chance
    # phases are checked above).
    if s.phase not in SETUP:
        _check_node(s)


def _check_fields(s) -> None:
    r = s.r
    n = r.n
    ph = s.phase
    tpr = r.turns_per_round
    nchars = sum(s.char_taken)
    limit = score_limit(r)
    for p in range(n):
        if s.score[p] > limit:
            _bad(f"scores[{p}]", f"{s.score[p]} is more than any game reaches ({limit})")

    # -- the game's constants and the solo/multi-player split
    if s.first_starter != r.start:
        _bad("first_starter", f"the game's starting player (option start) is {r.start}")
    last_round = r.solo_rounds if r.solo else r.max_rounds
    if s.round > last_round:
        _bad("round", f"round {s.round} is past the game's last round ({last_round})")
    if r.solo:
        for f in ("token_holder", "ability_player"):
            if getattr(s, f) != -1:
                _bad(f, "the solo game has no Anna, no token and no colour ability (R13)")
        if s.ability_spent:
            _bad("ability_spent", "the solo game has no colour ability (R13)")
        if s.char_taken[ANNA] or any(x >= 0 for x in s.char_wait[ANNA]):
            _bad("characters[3]", "Anna is not used in the solo game (R13)")
    else:
        if ph == P["brush"]:
            _bad("phase", "'brush' is a solo-only phase (the brush token, R13)")
        if s.brush_used:
            _bad("brush_used", "the brush token is the solo game's (R13)")

    # -- setup
    if ph in SETUP:
        _check_setup(s)
        return
    if s.setup_k:
        _bad("pending.setup_k", "counts setup draws; the setup is over")

    # -- the round: turn, characters chosen, who starts, who may use Anna's ability
    ended = ph in (P["eor"], P["end"])
    if ended:
        if s.turn != tpr:
            _bad("turn", f"in phase {PHASES[ph]} the round's {tpr} turns are over: write "
                         f"{tpr + 1}")
    elif not 0 <= s.turn < tpr:
        # the view counts turns from 1 (docs/table-notation.md)
        _bad("turn", f"turn {s.turn + 1} is past the end of the round ({tpr} turns: "
                     f"1..{tpr}); write a turn from 1 to {tpr}")
    in_turn = s.act_char >= 0
    expected = s.turn + (1 if in_turn and not ended else 0)
    if nchars != expected:
        _bad("characters", f"{nchars} characters chosen this round, but turn {s.turn + 1} "
                           f"{'is under way' if in_turn else 'begins'}: expected {expected}")
    k = min(s.turn, tpr - 1)
    if s.turn_player != (s.round_starter + k) % n:
        _bad("turn_player", f"turn {s.turn + 1} of a round started by player {s.round_starter} "
                            f"is player {(s.round_starter + k) % n}'s")
    if not r.solo:
        took_anna = s.char_taken[ANNA]
        if s.round == 1 and s.round_starter != s.first_starter:
            _bad("round_starter", f"round 1 is started by the first starter, player "
                                  f"{s.first_starter} (R7)")
        if took_anna and s.token_holder < 0:
            _bad("token_holder", "Anna was chosen this round, so someone holds the token: name "
                                 "its holder")
        if s.round > 1 and not took_anna:
            starter = s.token_holder if s.token_holder >= 0 else s.first_starter
            if s.round_starter != starter:
                _bad("round_starter", f"a round starts with the token holder (or, with no "
                                      f"holder, the first starter): player {starter} (R7)")
        if (s.round > 1 and took_anna and s.token_holder == s.round_starter
                and s.round_starter != s.first_starter):
            # Such a starter held the token at the round's start, and the
            # token holder may not choose Anna.
            _bad("token_holder", "the round's starter held the token and cannot have chosen "
                                 "Anna")
        want = s.token_holder if took_anna else -1
        if s.ability_player != want:
            _bad("ability_player", "the ability is open only to the player who took Anna this "
                                   f"round: {'nobody' if want < 0 else f'player {want}'}")
        if s.ability_player < 0 and s.ability_spent:
            _bad("ability_spent", "no ability is open this round")
        if s.ability_spent and r.colours[s.ability_player] in (PURPLE_C,):
            _bad("ability_spent", "purple's ability is permanent, never spent")
    if s.round == 1 and s.token_holder >= 0 and not s.char_taken[ANNA]:
        _bad("token_holder", "in round 1 the token is only taken by choosing Anna (R7)")

    # -- the game's end
    if not r.solo:
        over = s.finished >= n + 1 or s.round >= r.max_rounds
        why = (f"{s.finished} paintings finished (the game ends after the round in which the "
               f"{n + 1}th is) or round {s.round} of {r.max_rounds}")
    else:
        over = s.round >= r.solo_rounds
        why = f"round {s.round} of the solo game's {r.solo_rounds}"
    if ph == P["end"] and not over:
        _bad("phase", f"'end' before the game is over: {why}")
    if ph == P["eor"] and over:
        _bad("phase", f"'eor' after the last round: the game is over ({why})")
    if ph == P["choose"] and s.turn == 0 and not r.solo and s.finished >= n + 1 \
            and s.resume < 0:
        _bad("finished", f"{s.finished} paintings were finished by the last round's end; the "
                         f"game ended then (R12)")

    # -- the Minigoghs in each place
    _check_places(s)

    # -- what is under way
    _check_pending(s)


def _check_setup(s):
    r = s.r
    ph = s.phase
    if s.round != 1 or s.turn != 0 or sum(s.char_taken) or s.token_holder != -1:
        _bad("phase", f"{PHASES[ph]}: round 1, turn 1, nothing chosen, no token holder")
    if any(s.score) or s.finished:
        _bad("scores", "nobody scores during the setup")
    if s.round_starter != r.start or s.turn_player != r.start:
        _bad("round_starter", f"the setup ends with player {r.start} to start (option start)")
    if s.ability_player != -1 or s.ability_spent or s.brush_used:
        _bad("ability_player", "no ability during the setup")
    if any(x >= 0 for w in s.char_wait for x in w):
        _bad("characters", "no Minigogh waits on a character during the setup")
    if any(x >= 0 for row in s.occ for x in row):
        _bad("paintings", "nothing is painted during the setup")
    _pending_clear(s, keep=("setup_k",))
    if s.whites != BOX_WHITES:
        _bad("whites", "the whites stay in the supply during the setup")
    filled = [x >= 0 for x in s.painting]
    table = sum(s.table)
    actives = [sum(s.active[p]) for p in range(r.n)]
    for p in range(r.n):
        if s.inactive[p] != [r.colours[p] * 4 + o for o in range(INACTIVE)]:
            _bad(f"palettes[{p}].inactive", "the setup puts the palette's own 3 Minigoghs there "
                                            "(R14)")
    if ph == P["setup_cards"]:
        if not 0 <= s.setup_k < N_PAINTINGS or filled != [i < s.setup_k for i in range(3)]:
            _bad("pending.setup_k", "setup_cards: slots 1..setup_k hold cards, the rest empty")
        if table or any(actives):
            _bad("table", "setup_cards comes before the table and the palettes are filled")
    elif ph == P["setup_table"]:
        if not all(filled) or s.setup_k:
            _bad("paintings", "setup_table: the 3 paintings are out, setup_k 0")
        if table >= TABLE_SIZE or any(actives):
            _bad("table", f"setup_table: fewer than {TABLE_SIZE} on the table, palettes empty")
    else:
        if not all(filled) or table != TABLE_SIZE:
            _bad("table", f"setup_palette: the paintings and the table's {TABLE_SIZE} are out")
        if not 0 <= s.setup_k < 2 * r.n:
            _bad("pending.setup_k", f"setup_palette: from 0 to {2 * r.n - 1}")
        for p in range(r.n):
            want = min(2, max(0, s.setup_k - 2 * p))
            if actives[p] != want:
                _bad(f"palettes[{p}].active", f"setup_palette after {s.setup_k} draws: "
                                              f"{want} Minigoghs")
    if s.finished != len(r.deck.cards) - sum(s.deck) - sum(filled):
        _bad("deck", "every card not in the deck must be on the table during the setup")


def _check_places(s):
    r = s.r
    n = r.n
    ph = s.phase
    for p in range(n):
        cap = ACTIVE_CAP + (1 if ph == P["blue_discard"] and p == s.act_player else 0)
        if sum(s.active[p]) > cap:
            _bad(f"palettes[{p}].active", f"{sum(s.active[p])} active Minigoghs; a palette has "
                                          f"{ACTIVE_CAP} active spaces"
                                          + (" (8 only while the blue ability discards)"
                                             if cap == ACTIVE_CAP else ""))
        ina = s.inactive[p]
        own = r.colours[p]
        seen_full = False
        for i, x in enumerate(ina):
            if x < 0 and seen_full:
                _bad(f"palettes[{p}].inactive[{i}]", "inactive Minigoghs leave from the left "
                                                     "(Epiphany, purple's paints): an empty "
                                                     "space right of a full one")
            if x >= 0:
                seen_full = True
                if x // 4 != own:
                    _bad(f"palettes[{p}].inactive[{i}]", f"holds the palette's own colour "
                                                         f"({COLOURS[own]}) only: write "
                                                         f"{piece_name(own * 4 + x % 4)} "
                                                         f"or leave the space empty")
                if (own not in (YELLOW_C, PINK_C) or r.solo) and x % 4 != i:
                    _bad(f"palettes[{p}].inactive[{i}]", "only the yellow and pink abilities "
                                                         "turn an inactive Minigogh (R14, R18): "
                                                         f"write {piece_name(x // 4 * 4 + i)}")
    for c in range(N_CHARS):
        w = s.char_wait[c]
        if w[0] < 0 and w[1] >= 0:
            _bad(f"characters[{c}].waiting", "fill the first place first")
        for x in w:
            if x >= 0 and x // 4 == WHITE:
                _bad(f"characters[{c}].waiting", "Minigoghs waiting on a character come from "
                                                 "the bag, which holds no whites: take the "
                                                 "white out")
        if s.char_taken[c] and w[0] >= 0 and not (ph == P["wait_keep"] and c == s.act_char):
            _bad(f"characters[{c}].waiting", f"{CHARS[c]} was chosen this round; the "
                                             f"Minigoghs on it were taken then")
    greens = GREEN_C in r.colours and not r.solo
    for slot in range(N_PAINTINGS):
        cid = s.painting[slot]
        if cid < 0:
            if sum(s.deck) and not (ph == P["card"] and s.card_slot == slot):
                _bad(f"paintings[{slot}].card", "an empty slot while the deck still has cards: "
                                                "a new painting is drawn at once (R19)")
            continue
        card = r.deck.cards[cid]
        for k, x in enumerate(s.occ[slot][:len(card.orient)]):
            if x >= 0 and x % 4 != card.orient[k] and not greens:
                _bad(f"paintings[{slot}].occupants[{k}]", "orientation differs from the "
                                                          "space's; only the green ability "
                                                          "paints so (R5): write "
                                                          f"{piece_name(x // 4 * 4 + card.orient[k])}")
    left = len(r.deck.cards) - sum(s.deck) - sum(1 for x in s.painting if x >= 0)
    if s.finished != left:
        _bad("finished", f"{s.finished} paintings finished, but {left} cards are neither in the "
                         f"deck nor open")


def _pending_clear(s, keep=()):
    """Fields of an action under way (the view's `pending`, fields.py) must be
    at rest (phase outside any action); `keep` names those that need not."""
    for row in PENDING_ROWS:
        if row.ref in keep or FIELDS.at_rest(row, getattr(s, row.ref)):
            continue
        # the view's form of the empty value (null where the view names one)
        rest = "empty" if row.dims else json.dumps(row.value.write(row.empty, None))
        _bad(row.view, f"must be {rest} in phase {PHASES[s.phase]}")


def _actor(s):
    """Who performs the action under way (turn player for the primary, then
    each other player in seat order; solo: the one player)."""
    n = s.r.n
    if s.act_primary or s.r.solo:
        return s.turn_player
    return (s.turn_player + s.sec_k) % n


def _check_pending(s):
    r = s.r
    n = r.n
    ph = s.phase
    base = ph
    # Interruptions: the card draw after a finished painting, the blue ability, the brush.
    if ph == P["card"]:
        if s.card_slot < 0 or s.painting[s.card_slot] >= 0:
            _bad("pending.card_slot", "phase card needs the empty slot to fill")
        if s.card_resume not in (P["choose"], P["step"]):
            _bad("pending.card_resume", "a painting is finished by a paint, from 'choose' "
                                        "(the brush) or 'step'")
        base = s.card_resume
    elif s.card_slot >= 0 or s.card_resume >= 0:
        _bad("pending.card_slot", "only phase card has a slot waiting for a painting")
    if ph in _WINDOW:
        if s.resume not in (P["choose"], P["step"]):
            _bad("pending.resume", f"phase {PHASES[ph]} returns to 'choose' or 'step'")
        if ph == P["brush"]:
            if not s.brush_used:
                _bad("brush_used", "the brush is being used")
        else:
            if s.ability_player < 0 or r.colours[s.ability_player] != BLUE_C:
                _bad("ability_player", f"phase {PHASES[ph]} is the blue ability's, open to a "
                                       f"blue player who took Anna")
            if s.act_player != s.ability_player:
                _bad("pending.act_player", "the blue ability is used by its owner")
            if not s.ability_spent:
                _bad("ability_spent", "the blue ability is being used")
        want_blue = ph == P["blue_orient"]
        if (s.blue_colour >= 0) != want_blue:
            _bad("pending.blue_colour", "set exactly while the drawn Minigogh waits for its "
                                        "orientation (blue_orient)")
        base = s.resume
    else:
        if s.resume >= 0:
            _bad("pending.resume", "only the blue ability and the brush return somewhere")
        if s.blue_colour >= 0:
            _bad("pending.blue_colour", "only blue_orient has a drawn Minigogh")
    if ph in (P["eor"], P["end"]):
        _pending_clear(s, keep=("eor_char",))
        if ph == P["end"] and s.eor_char:
            _bad("pending.eor_char", "must be null at the end")
        return
    if s.eor_char:
        _bad("pending.eor_char", "only the end of the round ('eor') checks characters")
    if base == P["choose"]:
        keep = ("act_player", "resume", "card_slot", "card_resume", "blue_colour")
        _pending_clear(s, keep=keep)
        if ph in _WINDOW:
            if s.act_player != s.turn_player:
                _bad("pending.act_player", "at 'choose' the turn player acts")
        elif s.act_player != -1:
            _bad("pending.act_player", f"must be -1 in phase {PHASES[ph]} (choose is "
                                       f"turn_player's)")
        return
    # An action is under way.
    c = s.act_char
    if c < 0:
        _bad("pending.act_char", f"phase {PHASES[base]} is part of a character's action")
    if not s.char_taken[c]:
        _bad("pending.act_char", f"{CHARS[c]} is under way but was not chosen this round")
    if base == P["wait_keep"]:
        w = s.char_wait[c]
        if w[0] < 0 or w[1] < 0 or w[0] == w[1] or (ACTIVE_CAP - sum(s.active[s.turn_player])) != 1:
            _bad("pending.act_char", "wait_keep: two different Minigoghs wait on the chosen "
                                     "character and the chooser has one free active space")
        if s.act_primary or s.sec_k or s.steps_left or s.postman_used:
            _bad("pending.act_primary", "wait_keep comes before the primary action starts: "
                                        "act_primary 0, sec_k 0, steps_left 0, postman_used 0")
        if s.act_player != s.turn_player:
            _bad("pending.act_player", "the chooser keeps one of the waiting Minigoghs")
        _no_ginoux(s)
        return
    if base not in _ACTION_PHASES[c]:
        _bad("pending.act_char", f"{CHARS[c]}'s action has no phase {PHASES[base]}")
    if c == ANNA and not s.act_primary:
        _bad("pending.act_primary", "Anna has no secondary action (R22)")
    if s.act_primary or r.solo:
        if s.sec_k:
            _bad("pending.sec_k", "0 during the primary action (and in the solo game)")
    elif not 1 <= s.sec_k <= n - 1:
        _bad("pending.sec_k", f"a secondary action is player turn_player + sec_k's, 1..{n - 1}")
    if s.act_player != _actor(s):
        _bad("pending.act_player", f"the {'primary' if s.act_primary else 'secondary'} action "
                                   f"is player {_actor(s)}'s")
    p = s.act_player
    free = ACTIVE_CAP - sum(s.active[p])
    if base == P["step"]:
        most = _max_steps(c, s.act_primary)
        # Waiting for a new painting, the paint that finished one may have
        # been the last step.
        least = 0 if ph == P["card"] else 1
        if not least <= s.steps_left <= most:
            _bad("pending.steps_left", f"from {least} to {most} for this action")
        done = most - s.steps_left
        used = s.postman_used
        if c == POSTMAN:
            if bin(used).count("1") != done:
                _bad("pending.postman_used", f"{done} palette actions done, each kind once")
        elif c == GACHET:
            if used:
                _bad("pending.postman_used", "Dr. Gachet does no palette action")
        elif used != (1 if done else 0):
            _bad("pending.postman_used", "marks the paint done in this action (1), 0 before it")
        _no_ginoux(s)
        if s.draws_left:
            _bad("pending.draws_left", "Madame Ginoux's only")
        return
    if s.postman_used:
        _bad("pending.postman_used", "only during a step action")
    if c == EUGENE:
        _no_ginoux(s)
        if s.draws_left:
            _bad("pending.draws_left", "Madame Ginoux's only")
        if base == P["eugene_take"]:
            most = (min(2, sum(s.table)) if s.act_primary
                    else min(1, free, sum(s.table)))
            if not 1 <= s.steps_left <= most:
                _bad("pending.steps_left", "Eugene's primary takes min(2, table) Minigoghs, his "
                                           "secondary min(1, free active spaces, table) (R16)")
        elif s.steps_left:
            _bad("pending.steps_left", "0 while the table is refilled")
        return
    # Madame Ginoux
    hand, q = sum(s.hand), sum(s.roll_q)
    if base == P["sec_draw"]:
        if s.act_primary:
            _bad("pending.act_primary", "sec_draw is the secondary action's draw")
        if hand or q or s.draws_left or s.steps_left:
            _bad("pending.hand", "the secondary draw holds no hand, queue or steps")
        if free < 1:
            _bad(f"palettes[{p}].active", "sec_draw needs a free active space")
        return
    if not s.act_primary:
        _bad("pending.act_primary", f"{PHASES[base]} is the primary action's")
    if base == P["ginoux_draw"]:
        if q or s.steps_left:
            _bad("pending.roll_queue", "nothing is kept while drawing")
        if hand + s.draws_left != 3 or s.draws_left < 1:
            _bad("pending.draws_left", "the primary draws 3: drawn + draws_left = 3, "
                                       "draws_left >= 1")
        if free < 1:
            _bad(f"palettes[{p}].active", "Madame Ginoux draws only for a free active space")
    elif base == P["ginoux_keep"]:
        if s.draws_left:
            _bad("pending.draws_left", "the draws are over when keeping")
        if hand < 1 or s.steps_left < 1 or s.steps_left + q != min(2, free, hand + q):
            _bad("pending.steps_left", "keeps left + kept = min(2, free active spaces, drawn) "
                                       "(R16), with Minigoghs left to keep")
    else:   # roll
        if hand or s.draws_left or s.steps_left:
            _bad("pending.hand", "the excess went back to the bag before the roll")
        if q > free:
            _bad("pending.roll_queue", f"{q} Minigoghs to roll, {free} free active spaces")


def _no_ginoux(s):
    if any(s.hand) or any(s.roll_q):
        _bad("pending.hand", "only Madame Ginoux's primary holds a hand or a roll queue")


def _check_node(s):
    """Settled (settling changes nothing: ENCODING.md 'Settling'), and a
    decision with a legal action or a chance node with an outcome."""
    from .view import state_view
    try:
        probe = copy.copy(s)
        FIELDS.copy_fields(s, probe)
        before = state_view(probe)
        probe._settle()
        after = state_view(probe)
    except StateFormatError:
        raise
    except Exception as e:      # an inconsistency the checks above missed
        _bad("phase", f"phase {PHASES[s.phase]} cannot go on from this position "
                      f"({type(e).__name__}: {e})")
    if before != after:
        moved = [k for k in before if before[k] != after[k]]
        _bad("phase", f"phase {PHASES[s.phase]} is not where play stops: settling moves it on "
                      f"(changes {', '.join(moved)}; ENCODING.md 'Settling')")
    try:
        player = s._current_player()
        if player >= 0:
            if not s._legal_actions():
                _bad("phase", f"a decision for player {player} with no legal action")
        elif player == -1:
            outcomes = s._chance_outcomes()
            if not outcomes or abs(sum(pr for _, pr in outcomes) - 1.0) > 1e-9:
                _bad("phase", "a chance node with no outcomes")
    except StateFormatError:
        raise
    except Exception as e:
        _bad("phase", f"phase {PHASES[s.phase]} cannot go on from this position "
                      f"({type(e).__name__}: {e})")
