"""A tracked table, whatever the game: the one shape the replay loop (:func:`companion.records.replay`),
the session (:class:`companion.session.TableSession`), the prompt and the analysis see.

Every game's tracked table is immutable and offers :class:`TrackedTable`: :meth:`~TrackedTable.parse`
turns a typed line into the game's line (one small immutable value), :meth:`~TrackedTable.apply`
returns the next table *and* the events the line produced (computed as the line is applied),
and the table returned says where the line went in its record (:attr:`~TrackedTable.placed`):
appended, inserted before earlier lines (a Coup replacement drawn after the challenger's loss
goes before it), or written with the set-up around it (a header, a default line, a set-up line
put in its canonical order). :class:`Lines` writes the rest once.

>>> Placed("inserted", "draw duke", at=9)
Placed('inserted', 'draw duke', at=9)
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import import_module
from typing import Any, Generic, Literal, Protocol, Self, TypeVar

from solver.errors import ParseError

LONGEST_LINE = 1000
"""A table line or command longer than this many characters is refused before it is read (no
game's line comes near it; reading a megabyte of junk word by word would stall the prompt)."""


def preload(module: str) -> None:
    """Import ``module`` in a background thread: a table that will need a heavy module (the
    counting's numpy passes) loads it while the players type their first lines, not during
    the line that first needs it (a later import of it waits for this one, never twice)."""
    threading.Thread(target=import_module, args=(module,), name=f"preload {module}", daemon=True).start()


def check_length(text: str) -> None:
    """Raise ParseError if ``text`` is longer than :data:`LONGEST_LINE` characters.

    >>> check_length("x" * 1001)
    Traceback (most recent call last):
    solver.errors.ParseError: a line of 1,001 characters is too long to be a table line (at most 1,000)
    """
    if len(text) > LONGEST_LINE:
        raise ParseError(
            f"a line of {len(text):,} characters is too long to be a table line (at most {LONGEST_LINE:,})",
            input=text[:40],
        )


Style = Literal["", "info", "flag", "impossible", "error", "over"]
"""How a message is shown: plain, information, a flag, an impossible claim, an error, the end."""
Message = tuple[Style, str]


class Event(Protocol):
    """Something a line made happen that the prompt says (a flag, a challenge's chance...)."""

    def message(self) -> Message: ...


@dataclass(frozen=True)
class Said:
    """A plain sentence the table says (points, a pass, advice in words).

    >>> Said("Ben takes the pile").message()
    ('info', 'Ben takes the pile')
    """

    text: str
    style: Style = "info"

    def message(self) -> Message:
        return self.style, self.text


@dataclass(frozen=True)
class Waiting:
    """The table waits for a line only some player (or the seat) can give."""

    what: str

    def message(self) -> Message:
        return "info", f"waiting for {self.what}"


@dataclass(frozen=True)
class Over:
    """The game ended with this line (``text``: who won)."""

    text: str

    def message(self) -> Message:
        return "over", f"game over: {self.text}"


How = Literal["appended", "inserted", "rewritten"]


@dataclass(frozen=True)
class Placed:
    """Where the last line applied went in its table's record (the canonical lines,
    :meth:`TrackedTable.record_lines`), its canonical form ``text``:

    - ``appended``: the record is the previous one and this line (at index ``at``, its last);
    - ``inserted``: the line went at index ``at``, the lines from there on moved down one, none
      changed;
    - ``rewritten``: the record changed around it too (a header or a default set-up line written
      with it, a set-up line put in its canonical order or replacing a default): only the whole
      record says it.
    """

    how: How
    text: str
    at: int | None = None

    def __repr__(self) -> str:
        at = f", at={self.at}" if self.at is not None else ""
        return f"Placed({self.how!r}, {self.text!r}{at})"


def placed_among(text: str, before: Sequence[str], after: Sequence[str]) -> Placed:
    """Where ``text`` went, from a (short) part of the record before and after the line: the
    set-up lines, which a line may reorder or complete. Appended or inserted when ``after`` is
    ``before`` with ``text`` added, else rewritten.

    >>> placed_among("me Ana", ["players Ana Ben", "start 2cv"], ["players Ana Ben", "me Ana", "start 2cv"])
    Placed('inserted', 'me Ana', at=1)
    >>> placed_among("players Ana Ben", [], ["game spicy", "players Ana Ben"])
    Placed('rewritten', 'players Ana Ben')
    """
    if len(after) == len(before) + 1:
        for at, line in enumerate(after):
            if line == text and [*after[:at], *after[at + 1 :]] == list(before):
                return Placed("appended" if at == len(before) else "inserted", text, at)
    return Placed("rewritten", text)


L = TypeVar("L")


class TrackedTable(Protocol[L]):
    """What a game's tracked table offers the replay loop, the session, the prompt and the
    analysis (``L``: the game's parsed line). Immutable: applying a line returns a new table,
    or raises a :class:`~solver.errors.GameError` and changes nothing."""

    @property
    def placed(self) -> Placed | None:
        """Where the last line applied went in the record (None before any line)."""
        ...

    def parse(self, text: str) -> L | None:
        """The game's line for ``text``; None for a blank or comment line. Raises ParseError."""
        ...

    def apply(self, line: L, number: int) -> tuple[Self, Sequence[Event]]:
        """The table after ``line`` (record line ``number``) and the events it produced, both
        computed as the line is applied. Raises GameError and changes nothing."""
        ...

    def apply_line(self, text: str, number: int) -> tuple[Self, Sequence[Event]]:
        """:meth:`apply` of a typed line; ``(self, ())`` for a blank or comment line."""
        ...

    def apply_text(self, text: str, number: int | None = None) -> Self:
        """The table after the typed line (record line ``number``, the next one by default)."""
        ...

    def next_number(self) -> int:
        """The record line number a line typed now would have, appended."""
        ...

    def record_lines(self) -> list[str]:
        """The canonical record, one line each."""
        ...

    def status(self) -> str:
        """One line for a person opening the table: how far it is, what it waits for."""
        ...


AnyTable = TrackedTable[Any]


class Lines(Generic[L]):
    """What every game's tracked table does with a typed line, written once: parse it with the
    game's language (:meth:`parse`), then :meth:`apply` it (both the game's). A base class of
    the games' immutable tables, which implement :class:`TrackedTable`."""

    def parse(self, text: str) -> L | None:
        """The game's line for ``text``; None for a blank or comment line. Raises ParseError."""
        raise NotImplementedError

    def apply(self, line: L, number: int) -> tuple[Self, Sequence[Event]]:
        """The table after ``line`` (record line ``number``) and its events. Raises GameError."""
        raise NotImplementedError

    def record_lines(self) -> list[str]:
        """The canonical record, one line each."""
        raise NotImplementedError

    def next_number(self) -> int:
        """The record line number a line typed now would have, appended: one more than the
        record's lines (what a journal of this table, canonical from its first line, holds)."""
        return len(self.record_lines()) + 1

    def apply_line(self, text: str, number: int) -> tuple[Self, Sequence[Event]]:
        """:meth:`apply` of a typed line; ``(self, ())`` for a blank or comment line. Raises
        ParseError for a line over :data:`LONGEST_LINE` characters, before reading it."""
        check_length(text)
        line = self.parse(text)
        if line is None:
            return self, ()
        return self.apply(line, number)

    def apply_text(self, text: str, number: int | None = None) -> Self:
        """Parse ``text`` and apply it (record line ``number``, the next one by default); a blank
        or comment line changes nothing. Raises GameError and changes nothing."""
        return self.apply_line(text, self.next_number() if number is None else number)[0]
