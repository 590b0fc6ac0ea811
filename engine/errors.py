"""Exceptions raised by the engine. Each message names what is wrong."""


class EaselError(Exception):
    """Base class of every error Easel raises on purpose."""


class GameSpecError(EaselError, ValueError):
    """A game string such as ``vangogh(players=9)`` is malformed or names an
    unknown game, an unknown option or a bad option value."""


class IllegalActionError(EaselError, ValueError):
    """An action that is not legal in the state it was applied to."""


class StateFormatError(EaselError, ValueError):
    """A serialized state, game record or JSON state that cannot be read or replayed.
    A table notation's refusal also carries `refusals`: every problem as
    (line, field, message), line 1-based (0: the whole text or a line not
    written), field as the notation names it ("painting 1", "player 2
    pigments"), message what is wrong and what to write; the web page's
    set-up view shows each beside its line (Engine.ReadPosition)."""

    def __init__(self, message: str, refusals=None):
        super().__init__(message)
        self.refusals = list(refusals or [])


class UnreachablePositionError(StateFormatError):
    """A loaded position whose fields disagree with each other in a way play
    never produces. `problems` lists every invariant it breaks, each as
    (fields named, what is wrong, the consistent value or None)."""

    def __init__(self, message: str, problems: list, refusals=None):
        super().__init__(message, refusals)
        self.problems = list(problems)


class DataFileError(EaselError, ValueError):
    """A card-data file that is missing, malformed or inconsistent."""


class UserFileError(EaselError, ValueError):
    """A file a user named that is not read: missing, a directory, not a
    regular file (a FIFO, a device), over its size cap, or not readable
    (engine/userfiles.py). Its `reason` says which."""
