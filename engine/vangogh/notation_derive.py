"""What a Van Gogh table notation derives instead of asking (ENCODING.md
"Table notation", RULINGS.md R7, R14, R16, R23): whose turn it is, who
performs what is under way, the phase and steps of a step action, an
untouched inactive area; the writer leaves these out and the reader fills
them in (and checks them where they are written anyway)."""
from __future__ import annotations

from easel.engine.contract_ids import PLAYER_CHANCE, PLAYER_TERMINAL

from .fields import FIELDS
from .rules import INACTIVE, code_of, piece_name

_CHANCE_PHASES = ("setup_cards", "setup_table", "setup_palette", "ginoux_draw", "roll",
                  "sec_draw", "refill", "card", "blue_draw", "eor")
# Characters whose action is a series of steps (phase step).
_STEP_CHARS = ("Van Gogh", "Dr. Gachet", "Postman", "Anna")


def current_player_of(view: dict) -> int:
    """Who acts in the view's position: the chance player in a chance phase,
    the turn player in CHOOSE, the acting player in any other decision."""
    ph = view["phase"]
    if ph == "end":
        return PLAYER_TERMINAL
    if ph in _CHANCE_PHASES:
        return PLAYER_CHANCE
    if ph == "choose":
        return view["turn_player"]
    return view["pending"]["act_player"]


def pending_at_rest(r) -> dict:
    """The view's `pending` with every field at rest (fields.py): where a
    notation's lines do not say otherwise."""
    return FIELDS.rest_view("pending", r)


# --------------------------------------------------------------- derived
def starter_of(r, round_no, token_holder, anna_taken):
    """The round's starter where the rules fix it (R7): the first starter in
    round 1 and while nobody holds the token, else the token holder, unless
    Anna was chosen this round (the token then moved: the starter is whoever
    held it before, which the table no longer shows). None when not fixed."""
    if r.solo or round_no == 1 or token_holder < 0:
        return r.start
    if anna_taken:
        return None
    return token_holder


def turn_player_of(r, starter, turn):
    return (starter + min(turn, r.turns_per_round - 1)) % r.n


def possible_turn_players(r, turn, token_holder):
    """Whose turn it can be when Anna was chosen this round (round 2 on): the
    round began with the first starter or with a token holder other than the
    one who took Anna."""
    starters = {r.start} | {p for p in range(r.n) if p != token_holder}
    return sorted({turn_player_of(r, s, turn) for s in starters})


def default_actor(r, phase, act_char, act_primary, turn_player, ability_player):
    """Who performs what is under way, where that follows from the rest
    (ENCODING.md "Turn flow", "Ability windows"): -1 at a turn's start, the
    turn player for a primary action, the keep of waiting Minigoghs and the
    solo game, the owner for the blue ability. None where only the notation
    can say (a secondary action)."""
    if phase in ("blue_draw", "blue_orient", "blue_discard"):
        return ability_player
    if act_char is None:
        return turn_player if phase == "brush" else -1
    if act_primary or r.solo or phase == "wait_keep":
        return turn_player
    return None


def default_phase(act_char):
    return "choose" if act_char is None else ("step" if act_char in _STEP_CHARS else None)


def default_steps(r, phase, act_char, act_primary, used):
    """Steps left in phase step before any is written: a Postman's palette
    actions and a paint of Van Gogh or Anna count down from the action's
    steps (R16; ENCODING.md "Turn flow"); Dr. Gachet's reorients do not show."""
    if phase != "step" or act_char is None:
        return 0
    most = 1 if act_char == "Anna" or not (act_primary or r.solo) else 2
    if act_char == "Postman":
        return most - bin(used).count("1")
    if act_char == "Dr. Gachet":
        return most
    return most - (1 if used else 0)


def default_inactive(r, p):
    """A palette's inactive area as set up: the player's colour lying down,
    sideway, upright from left to right (R14)."""
    return [piece_name(code_of(r.colours[p], o)) for o in range(INACTIVE)]
