"""One exception hierarchy for the whole project, with messages a player understands.

>>> try:
...     raise IllegalMove("Alice has 2 coins; assassinate costs 3")
... except CoupError as error:
...     print(error)
Alice has 2 coins; assassinate costs 3
"""

from __future__ import annotations


class CoupError(Exception):
    """Base of every error this project raises on purpose."""


class ParseError(CoupError, ValueError):
    """A text (a table line, a state's text form, a card name) could not be read."""


class IllegalMove(CoupError, ValueError):
    """A move that the rules forbid in this position.

    The message is for a player; ``move`` and ``state`` (set by the engine) are for an engineer.
    """

    move: object = None
    state: object = None


class ImpossibleTable(CoupError, ValueError):
    """A table or position that no deal of the cards could produce."""
