"""One exception hierarchy for every game of the house, with messages a player understands.

Every error raised on purpose is a :class:`GameError`; what the player typed (or the file and
line of a record) travels with it, so that a message can name the offending input.

>>> try:
...     raise IllegalMove("Alice has 2 coins; assassinate costs 3", input="Alice assassinate Bob")
... except GameError as error:
...     print(error, "|", error.input)
Alice has 2 coins; assassinate costs 3 | Alice assassinate Bob
>>> print(RecordError("game.coup", 7, IllegalMove("the game is over")))
game.coup:7: the game is over
>>> print(FileError("notes/", "cannot read: is a directory"))
notes/: cannot read: is a directory
"""

from __future__ import annotations


class GameError(Exception):
    """Base of every error this project raises on purpose. ``input`` is the offending text
    (a typed line, a word, a file name) when there is one."""

    def __init__(self, message: str, *, input: str | None = None) -> None:
        super().__init__(message)
        self.input = input

    @property
    def message(self) -> str:
        """The message for a player, without the input."""
        return str(self.args[0]) if self.args else ""


class ParseError(GameError, ValueError):
    """A text (a table line, a position's text form, a card name, a file) could not be read."""


class IllegalMove(GameError, ValueError):
    """A move that the rules forbid in this position.

    The message is for a player; ``move`` and ``state`` (set by the engine) are for an engineer.
    """

    move: object = None
    state: object = None


class ImpossibleTable(GameError, ValueError):
    """A table or position that no deal of the cards could produce."""


class Unsupported(GameError):
    """A position the exact methods do not cover (more than two players left, a deck they are
    not built for); the message names what is out of reach."""


class TooLarge(GameError):
    """More positions than a budget allows to be generated on the spot; the message names
    the limit."""


class NotCertified(GameError):
    """An exact method could not certify its answer (never reported as an answer)."""


class RecordError(GameError):
    """A record (a game file) has a line that could not be applied: ``path``, the 1-based line
    ``line`` and the underlying error ``cause`` (with its move and state, when it has them).
    Prints as ``FILE:LINE: reason``."""

    def __init__(self, path: str, line: int, cause: GameError) -> None:
        super().__init__(f"{path}:{line}: {cause}", input=cause.input)
        self.path = path
        self.line = line
        self.cause = cause

    def __reduce__(self) -> tuple[object, ...]:
        return (RecordError, (self.path, self.line, self.cause))


class FileError(GameError):
    """A file a command reads or writes could not be (missing, a directory, no permission, the
    disk full, not UTF-8 text...): ``path``, the 1-based ``line`` when the fault is on one line,
    and the ``reason`` in words. Prints as ``FILE: reason`` or ``FILE:LINE: reason``; the input
    is the file's name."""

    def __init__(self, path: str, reason: str, line: int | None = None) -> None:
        where = path if line is None else f"{path}:{line}"
        super().__init__(f"{where}: {reason}", input=path)
        self.path = path
        self.reason = reason
        self.line = line

    def __reduce__(self) -> tuple[object, ...]:
        return (FileError, (self.path, self.reason, self.line))
