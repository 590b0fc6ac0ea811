"""Exceptions raised by the engine. Each message names what is wrong."""


class EaselError(Exception):
    """Base class of every error Easel raises on purpose."""


class GameSpecError(EaselError, ValueError):
    """A game string such as ``vangogh(players=9)`` is malformed or names an
    unknown game, an unknown option or a bad option value."""


class IllegalActionError(EaselError, ValueError):
    """An action that is not legal in the state it was applied to."""


class StateFormatError(EaselError, ValueError):
    """A serialized state, game record or JSON state that cannot be read or replayed."""


class UnreachablePositionError(StateFormatError):
    """A loaded position whose fields disagree with each other in a way play
    never produces. `problems` lists every invariant it breaks, each as
    (fields named, what is wrong, the consistent value or None)."""

    def __init__(self, message: str, problems: list):
        super().__init__(message)
        self.problems = list(problems)


class DataFileError(EaselError, ValueError):
    """A card-data file that is missing, malformed or inconsistent."""


class UserFileError(EaselError, ValueError):
    """A file a user named that is not read: missing, a directory, not a
    regular file (a FIFO, a device), over its size cap, or not readable
    (engine/userfiles.py). Its `reason` says which."""
