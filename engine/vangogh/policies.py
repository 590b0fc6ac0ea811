"""Van Gogh's game knowledge for the baseline bots (engine/kit.py: Policies):
the rule-of-thumb player that `heuristic` bots play."""
from __future__ import annotations

from . import rules as R


class _VanGoghView:
    """What the Van Gogh rule of thumb reads from the JSON view of a state."""

    def __init__(self, view):
        self.view = view
        self.me = view["current_player"]
        self.colours = view["colors"]
        self.mine = self.colours[self.me] if self.me < len(self.colours) else None
        palette = view["palettes"][self.me]
        self.active = list(palette["active"])
        self.inactive = list(palette["inactive"])
        self.free = 7 - len(self.active)
        # (slot, space, required orientation, bonus) of every empty painting space
        self.empty = []
        for slot, p in enumerate(view["paintings"]):
            if p.get("card", -1) < 0:
                continue
            for k, (orient, occ) in enumerate(zip(p["orientations"], p["occupants"])):
                if occ is None:
                    self.empty.append((slot, k, orient, p["bonus"][k]))
        self.wanted = {}                              # orientation -> empty spaces asking for it
        for _, _, orient, _ in self.empty:
            self.wanted[orient] = self.wanted.get(orient, 0) + 1

    @staticmethod
    def split(piece):
        colour, orient = piece.split("-", 1)
        return colour, orient

    def colour_value(self, colour) -> float:
        """How much a Minigogh of this colour is worth to me on a painting."""
        if colour == self.mine:
            return 3.0
        if colour == "white":
            return 1.0
        if colour not in self.colours:
            return 0.5                                # uncontrolled: fills a space, helps nobody
        return -1.5                                   # gives an opponent a majority

    def fits(self, piece) -> bool:
        return self.split(piece)[1] in self.wanted

    def paintable(self) -> int:
        """Empty spaces my active Minigoghs could fill now (each piece once)."""
        left = dict(self.wanted)
        n = 0
        for piece in self.active:
            colour, orient = self.split(piece)
            if left.get(orient, 0) > 0 and self.colour_value(colour) > 0:
                left[orient] -= 1
                n += 1
        return n

    def paint_value(self, piece, slot, space) -> float:
        colour, orient = self.split(piece)
        painting = self.view["paintings"][slot]
        value = 2.0 + 3.0 * self.colour_value(colour) + 2.0 * painting["bonus"][space]
        if painting["orientations"][space] != orient:
            value -= 3.0                              # green's ability: costs an EP
        occupants = [o for o in painting["occupants"] if o is not None]
        if len(occupants) + 1 == len(painting["occupants"]):
            counts = {}
            for o in occupants + [piece]:
                c = self.split(o)[0]
                if c != "white":
                    counts[c] = counts.get(c, 0) + 1
            top = max(counts.values()) if counts else 0
            if self.mine in counts and counts[self.mine] == top:
                value += painting["frame"][0]         # finishing a painting I lead
            elif self.mine in counts:
                value += painting["frame"][1] / 2.0
            else:
                value -= 2.0
        mine_there = sum(1 for o in occupants if self.split(o)[0] == self.mine)
        if colour == self.mine:
            value += 0.5 * mine_there                 # build on a majority already started
        return value

    def keep_value(self, piece) -> float:
        colour, _ = self.split(piece)
        return 2.0 + 2.0 * self.colour_value(colour) + (3.0 if self.fits(piece) else 0.0)


def heuristic(state, rng) -> int:
    """Van Gogh by rule of thumb: pick the character that paints most now (Van
    Gogh with two matching Minigoghs, Postman or Anna with one), else the one
    that brings matching Minigoghs (Eugene from the table, Madame Ginoux from
    the bag, Dr. Gachet turning what is there); paint own colour first, on the
    paintings where its majority grows, and finish a painting when leading it;
    never paint an opponent's colour unless it finishes a painting it leads;
    take and keep own colour and pieces whose orientation is wanted."""
    v = _VanGoghView(state.to_json())
    scored = []
    for a in state.legal_actions():
        scored.append((_vangogh_action_value(v, a, R), a))
    best = max(x for x, _ in scored)
    return rng.choice([a for x, a in scored if x >= best - 1e-9])


def _vangogh_action_value(v, a, R) -> float:
    view = v.view
    if a < R.N_CHARS:
        return _vangogh_character_value(v, a, R)
    if a == R.DONE:
        return 0.0
    if R.PAINT <= a < R.REORIENT:
        src, space = divmod(a - R.PAINT, R.MAX_SPACES)
        src, slot = divmod(src, R.N_PAINTINGS)
        if src < R.N_CODES:
            piece = R.piece_name(src)
        else:
            piece = next(x for x in v.inactive if x)
        return v.paint_value(piece, slot, space)
    if R.REORIENT <= a < R.RESTART:
        code, new = divmod(a - R.REORIENT, 4)
        piece = R.piece_name(code)
        colour, orient = v.split(piece)
        if orient in v.wanted:
            return -1.0                               # it fits already
        if R.ORIENTS[new] not in v.wanted:
            return -0.5
        return 1.0 + v.colour_value(colour) + 0.5 * v.wanted[R.ORIENTS[new]]
    if R.RESTART <= a < R.EPIPHANY:
        colour, _ = v.split(R.piece_name(a - R.RESTART))
        return 1.0 - v.colour_value(colour) - (2.0 if v.fits(R.piece_name(a - R.RESTART)) else 0.0)
    if a == R.EPIPHANY:
        return 3.0
    if R.TAKE <= a < R.KEEP:
        return v.keep_value(R.piece_name(a - R.TAKE))
    if R.KEEP <= a < R.YELLOW:
        colour = R.COLOURS[a - R.KEEP]
        return 2.0 + 2.0 * v.colour_value(colour)
    if a == R.BRUSH:
        return 4.0 if v.paintable() else -1.0
    if a == R.BLUE:
        return 1.0 if v.free > 0 else -1.0
    if R.BLUE_ORIENT <= a < R.BLUE_DISCARD:
        return float(v.wanted.get(R.ORIENTS[a - R.BLUE_ORIENT], 0))
    if R.BLUE_DISCARD <= a < R.BRUSH:
        return -v.keep_value(R.piece_name(a - R.BLUE_DISCARD))
    if R.YELLOW <= a < R.PINK or R.PINK <= a < R.BLUE:
        return -0.25                                  # abilities: only the ones above pay by rule
    return 0.0


def _vangogh_character_value(v, c, R) -> float:
    view = v.view
    paint_now = v.paintable()
    waiting = view["characters"][c]["waiting"]
    value = sum(v.keep_value(p) for p in waiting[:max(0, v.free)]) * 0.5
    if c == R.VAN_GOGH:
        value += 7.0 * min(2, paint_now)
    elif c == R.POSTMAN:
        value += 7.0 * min(1, paint_now) + (2.0 if any(v.inactive) else 1.0)
    elif c == R.ANNA:
        value += 7.0 * min(1, paint_now) + 2.5
    elif c == R.GACHET:
        turnable = sum(1 for p in v.active
                       if not v.fits(p) and v.colour_value(v.split(p)[0]) > 0)
        value += 3.0 * min(2, turnable) if v.wanted else 0.0
    elif c == R.GINOUX:
        bag = sum(view["bag"].values())
        value += 2.5 * min(2, v.free) if bag else 0.0
    elif c == R.EUGENE:
        gains = sorted((v.keep_value(p) for p in view["table"]), reverse=True)
        value += 0.8 * sum(gains[:min(2, v.free)])
    return value
