"""What the cores that keep a state in one field-table struct share (Van
Gogh, Couleurs de Paris, Starving Artists): the rules made once a game, the
reference's initial position as struct bytes, and the state's JSON view both
ways.

Such a core's `core.pyx` keeps only what needs the struct's C type:
`make_core`, `init_state`, `state_dtype` and `state_size`. It makes a
`StructFace` from its package and `state_dtype`, and the rest of its Python
face (the codec, `state_to_json`, `state_from_json`) is that face's, written
once here (docs/adding-a-game.md, section 7)."""
from __future__ import annotations

import importlib

from .reference import ReferenceState

# The attribute of a game (or of a RulesOnly) that holds its Rules.
_RULES = "_easel_rules"


def cached_rules(game, make_rules):
    """The game's Rules, made from its options on first use and kept on the
    game: every state of the game reads the same one."""
    r = getattr(game, _RULES, None)
    if r is None:
        r = make_rules(game.params)
        setattr(game, _RULES, r)
    return r


class RulesOnly:
    """Just enough of a game for a reference to set up its initial position
    (the game object itself does not exist yet while its core is made)."""

    def __init__(self, params, rules):
        self.params = params
        setattr(self, _RULES, rules)


class StructFace:
    """One game's struct face. `package`: the game's package (its `reference`,
    `fields`, `rules` and `view` modules); `reference`: the reference state's
    class name; `state_dtype`: the core's numpy dtype of the struct.
    `view_of_reference`: the view reads the reference's methods (e.g. derived
    scores), so the struct's fields are shown through a reference state;
    otherwise the view reads the fields themselves."""

    def __init__(self, package: str, reference: str, state_dtype, *,
                 view_of_reference: bool = False):
        self.package = package
        self.reference = reference
        self.state_dtype = state_dtype
        self.view_of_reference = view_of_reference
        self._codec = None

    def _module(self, name: str):
        # Imported on use: these modules import the core's package in turn.
        return importlib.import_module(f"{self.package}.{name}")

    def _reference_class(self):
        return getattr(self._module("reference"), self.reference)

    def struct_codec(self):
        """The field table's codec for this struct (made once; it refuses a
        struct that does not hold the table's fields)."""
        if self._codec is None:
            self._codec = self._module("fields").FIELDS.struct(self.state_dtype())
        return self._codec

    def initial_struct(self, params, rules) -> bytes:
        """The struct bytes of the reference's initial position (before the
        setup's chance nodes): a core packs it once and copies it to start
        each state."""
        start = self._reference_class()(RulesOnly(params, rules))
        return self.struct_codec().pack(start, rules)

    def state_to_json(self, game, raw: bytes) -> dict:
        """Exactly the reference's to_json for the same position."""
        fields = self.struct_codec().unpack(raw, self._module("rules").rules_of(game),
                                            game.core.player_of(raw))
        if self.view_of_reference:
            cls = self._reference_class()
            ref = cls.__new__(cls)
            ReferenceState.__init__(ref, game)
            ref.__dict__.update(fields.__dict__)
            fields = ref
        return self._module("view").state_view(fields)

    def state_from_json(self, game, view: dict):
        """A core state from its JSON view: checked by the reference's loader
        (so errors are the reference's StateFormatError), then packed into
        the struct."""
        ref = self._reference_class().from_json(game, view)
        return game.core.new_state(self.struct_codec().pack(ref, ref.r))
