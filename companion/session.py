"""A conversation at the prompt, whatever the game: lines and commands in, messages out. No
terminal here (see :mod:`companion.prompt`), so every conversation is testable as strings.

:class:`TableSession` keeps a game's tracked table, its undo and redo stacks and its journal
(the journal is written before the answer); :class:`SoloGame` is the base of games played
alone (a puzzle, a game against bots). Both answer the same core commands (:data:`CORE`), from
one registry of :class:`Command`: ``help``, ``history`` and ``quit`` written once here, ``table``
and ``odds`` by each game (a solo game may run its table's own on its seat's table,
:func:`seat_commands`).

Every typed line runs under one guard, :func:`guarded`: Ctrl-C during a long command (solve,
odds, a bot's reply, endgame tables being generated) answers "cancelled" with the table as it
was, and any GameError is one line; the prompt never dies. A table changes only in one step
that Ctrl-C cannot split (:func:`whole`): the journal written, then the table pushed.

>>> class Guess(SoloGame[int]):
...     def seat_move(self, text):
...         return int(text)
...     def play(self, typed, move):
...         self.finished = move == 7
...         return [("over", "right") if self.finished else ("info", "higher")]
>>> game = Guess()
>>> game.handle("3"), game.handle("7"), game.finished
([('info', 'higher')], [('over', 'right')], True)
"""

from __future__ import annotations

import copy
import hashlib
import random
import signal
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

from solver.errors import GameError, ParseError
from solver.game import GameState

from . import files
from .figures import columns, counted, exact
from .records import Journal, replay
from .tracked import LONGEST_LINE as LONGEST_LINE  # the longest line read, for the tests
from .tracked import AnyTable, check_length
from .tracked import Message as Message  # what a conversation says, for the commands
from .tracked import Style as Style

EXACT = "--exact"
"""After a command at the prompt (``odds --exact``): its probabilities and values as exact fractions."""

T = TypeVar("T", bound=AnyTable)
C = TypeVar("C")


@dataclass(frozen=True)
class Command(Generic[C]):
    """One prompt command (not a table line) of a conversation of type ``C`` (a table session,
    a solo game): its name, usage, help line, whether it takes arguments (a command word followed
    by more words is otherwise a table line or a move), and what it does."""

    name: str
    usage: str
    help: str
    run: Callable[[C, list[str]], list[Message]]
    arguments: bool = False


CORE = ("help", "table", "odds", "history", "quit")
"""The commands every prompt of the house answers: a table, a puzzle, a game against bots."""
YOU = "You"
"""The person's seat in a game played alone against bots, unless they name it (``play --name``)."""


def playing_as(name: str) -> str:
    """`` as NAME`` when the person named their seat, else nothing (they are "You").

    >>> playing_as("You"), playing_as("Zoe")
    ('', ' as Zoe')
    """
    return "" if name == YOU else f" as {name}"


class Prompted(Protocol):
    """What the core commands need of a conversation."""

    finished: bool

    @property
    def commands(self) -> Mapping[str, Command[Any]]: ...

    @property
    def hello(self) -> str: ...

    def history_lines(self) -> list[str]: ...


def dispatch(conversation: Prompted, text: str) -> list[Message] | None:
    """Run the command ``text`` names (its first word, any case; more words only for a command
    that takes arguments; ``--exact`` after it for exact fractions) and return what it says, a
    GameError as one error line; None when ``text`` is not a command."""
    words = text.split()
    command = conversation.commands.get(words[0].lower()) if words else None
    args = [w for w in words[1:] if w != EXACT]  # `--exact`: its probabilities and values as exact fractions
    if command is None or (args and not command.arguments):
        return None
    try:
        with exact(EXACT in words[1:]):
            return command.run(conversation, args)
    except GameError as error:
        return [("error", str(error))]


class TableSession(Generic[T]):
    """A tracked table at the prompt: the stack of tables (undo keeps the previous one), the
    journal's lines for each, and the commands."""

    def __init__(
        self,
        table: T,
        commands: Sequence[Command[TableSession[T]]],
        journal: Journal | None = None,
        **settings: Any,
    ) -> None:
        self.journal = journal
        self.settings = settings  # what a game's commands read (a budget, a threshold...)
        self.commands = {c.name: c for c in (*commands, *COMMON)}
        self.tables: list[T] = [table]
        self.raw: list[list[str]] = [[]]  # the journal's lines for each table of the stack
        self.undone: list[tuple[T, list[str]]] = []
        self.finished = False
        if journal is not None:
            self._open(journal)

    def _open(self, journal: Journal) -> None:
        """Replay the journal's lines, each its own step of the stack (``undo`` takes back the
        record's last line, never the whole record); the comment lines after a line go with it.
        Raises RecordError."""
        lines = journal.lines()
        numbers: list[int] = []

        def push(before: T, after: T, number: int, text: str) -> None:
            if after is not before:
                self.tables.append(after)
                numbers.append(number)

        replay(lines, self.tables[0], str(journal.path), each=push)
        ends = [number - 1 for number in numbers[1:]]
        self.raw = [lines[: numbers[0] - 1] if numbers else lines, *(lines[:end] for end in ends)]
        if numbers:
            self.raw.append(lines)

    @property
    def table(self) -> T:
        return self.tables[-1]

    @property
    def hello(self) -> str:
        """The first line of ``help``: what to type."""
        return str(self.settings.get("hello", "Type what happens at the table."))

    def history_lines(self) -> list[str]:
        """The journal's lines so far."""
        return self.raw[-1]

    def handle(self, text: str) -> list[Message]:
        """Answer one typed line: a command or a table line. Never raises a GameError."""
        if not text.split():
            return []
        try:
            check_length(text)
        except GameError as error:
            return [("error", str(error))]
        said = dispatch(self, text)
        return said if said is not None else self._line(text)

    def _line(self, text: str) -> list[Message]:
        before, raw = self.table, self.raw[-1]
        try:
            table, events = before.apply_line(text, len(raw) + 1)  # the journal's next line
        except GameError as error:
            return [("error", str(error))]
        if table is before:  # a blank or comment line
            return []
        placed = table.placed
        assert placed is not None
        appended = placed.how == "appended"  # else the canonical record, written whole
        lines = [*raw, placed.text] if appended else table.record_lines()
        with whole():  # on disk before the answer; then the table, or neither
            if self.journal is not None:
                if appended:
                    self.journal.append(placed.text)
                else:
                    self.journal.rewrite(lines)
            self.tables.append(table)
            self.raw.append(lines)
            self.undone.clear()
        return [event.message() for event in events]

    def continue_from(self, table: T) -> None:
        """Go on from ``table``, tracked elsewhere (a replayed record, a test's position), its
        record becoming the journal's lines; ``undo`` goes back to where the session was."""
        lines = table.record_lines()
        with whole():
            if self.journal is not None:
                self.journal.rewrite(lines)
            self.tables.append(table)
            self.raw.append(lines)
            self.undone.clear()

    def undo(self) -> list[Message]:
        if len(self.tables) == 1:
            return [("error", "nothing to undo")]
        with whole():
            if self.journal is not None:
                self.journal.rewrite(self.raw[-2])
            table, lines = self.tables.pop(), self.raw.pop()
            self.undone.append((table, lines))
        return [("info", f"undone: {_said(table)}")]

    def redo(self) -> list[Message]:
        if not self.undone:
            return [("error", "nothing to redo")]
        table, lines = self.undone[-1]
        with whole():
            if self.journal is not None:
                self.journal.rewrite(lines)
            self.undone.pop()
            self.tables.append(table)
            self.raw.append(lines)
        return [("info", f"redone: {_said(table)}")]

    def intro(self) -> list[Message]:
        """What the prompt says when the table opens."""
        rows: list[Message] = [("info", str(self.settings["intro"]))] if "intro" in self.settings else []
        if self.journal is not None:
            rows.append(("info", f"game file: {self.journal.path}"))
        if len(self.tables) > 1:
            rows.append(("info", self.table.status()))
        return rows


def _said(table: AnyTable) -> str:
    """The last line applied to ``table``, as undo and redo name it."""
    return table.placed.text if table.placed is not None else "?"


def _history(session: Prompted, args: list[str]) -> list[Message]:
    rows: list[Message] = [("", f"{n:>4}  {line}") for n, line in enumerate(session.history_lines(), start=1)]
    return rows or [("info", "no lines yet")]


def _save(session: TableSession[Any], args: list[str]) -> list[Message]:
    if len(args) != 1:
        raise GameError("save needs a file name, e.g. save game.txt")
    path = args[0]
    lines = session.table.record_lines()
    files.write_text(path, "".join(line + "\n" for line in lines))
    return [("info", f"saved {counted(len(lines), 'line')} to {path}")]


def _help(session: Prompted, args: list[str]) -> list[Message]:
    rows: list[Message] = [("", session.hello)]
    rows.append(("", "Commands:"))
    table = columns([[c.usage, c.help] for c in session.commands.values()], indent="  ")
    rows.extend(("", row) for row in table)
    rows.append(("", f"Add {EXACT} to a command (odds {EXACT}) for its probabilities and values as exact fractions."))
    return rows


def _quit(session: Prompted, args: list[str]) -> list[Message]:
    session.finished = True
    return []


COMMON: tuple[Command[Any], ...] = (
    Command("history", "history", "the lines typed so far", _history),
    Command("undo", "undo", "take back the last line", lambda s, a: s.undo()),
    Command("redo", "redo", "put back a line taken back", lambda s, a: s.redo()),
    Command("save", "save FILE", "write the record to FILE", _save, arguments=True),
    Command("help", "help", "this list", _help),
    Command("quit", "quit", "leave (the game stays on disk)", _quit),
)
"""The commands every table has; a game adds its own (shown first), ``table`` and ``odds`` among them."""

SOLO_COMMON: tuple[Command[Any], ...] = (
    Command("history", "history", "the game so far, as its record", _history),
    Command("help", "help", "this list", _help),
    Command("quit", "quit", "leave", _quit),
)
"""The commands every game played alone has; a game adds its own (shown first), ``table`` and
``odds`` among them."""


def seat_commands(
    commands: Sequence[Command[TableSession[T]]], table: Callable[[Any], T], names: Sequence[str], **settings: Any
) -> list[Command[Any]]:
    """The commands ``names`` of a game's table (``table``, ``odds``...), offered at the prompt
    of a game played alone and run on its own table of the person's seat (``table(game)``):
    the same answers as at a real table."""

    def on_seat(command: Command[TableSession[T]]) -> Command[Any]:
        def run(game: Any, args: list[str]) -> list[Message]:
            return command.run(TableSession(table(game), (), **settings), args)

        return Command(command.name, command.usage, command.help, run, command.arguments)

    return [on_seat(c) for c in commands if c.name in names]


M = TypeVar("M")


class SoloGame(Generic[M]):
    """A game one person plays at the prompt (a puzzle, a game against bots): lines in,
    messages out. A line is a command (the core ones, :data:`CORE`, and the game's own) or a
    move of the person's seat."""

    finished: bool = False
    hello: str = "Type your moves as at the table."

    @property
    def commands(self) -> dict[str, Command[Any]]:
        """Every command by name: the game's own (shown first in ``help``), then the common ones."""
        return {c.name: c for c in (*self.own_commands(), *SOLO_COMMON)}

    def own_commands(self) -> Sequence[Command[Any]]:
        """The game's commands, ``table`` and ``odds`` among them."""
        return ()

    def history_lines(self) -> list[str]:
        """The game so far, one line each (the person's record)."""
        return []

    def seat_move(self, text: str) -> M:
        """The person's move that ``text`` names. Raises GameError."""
        raise NotImplementedError

    def play(self, typed: str, move: M) -> list[Message]:
        """Play the person's move and what follows until they are to move again."""
        raise NotImplementedError

    def handle(self, text: str) -> list[Message]:
        """Answer one typed line. Never raises a GameError."""
        if not text.split():
            return []
        try:
            check_length(text)
        except GameError as error:
            return [("error", str(error))]
        said = dispatch(self, text)
        if said is not None:
            return said
        if self.finished:
            return [("error", "the game is over ('quit' to leave)")]
        try:
            move = self.seat_move(text)
        except GameError as error:
            return [("error", str(error))]
        saved = copy.deepcopy(vars(self))
        try:
            return self.play(text.strip(), move)
        except BaseException:  # Ctrl-C during a reply, or a refusal: the game as it was
            vars(self).clear()
            vars(self).update(saved)
            raise


class Decider(Protocol):
    """What a game against bots needs of a bot."""

    def decide(self, moves: list[Any]) -> Any:
        """The bot's move among ``moves`` (its legal moves)."""
        ...


S = TypeVar("S", bound=GameState)  # type: ignore[type-arg]
B = TypeVar("B", bound=Decider)


class BotGame(SoloGame[M], Generic[S, M, B]):
    """A game one person plays at seat 0 of ``state`` against ``bots`` (by seat), chance drawn
    from ``rng``. A game says what to ask the person (:meth:`_question`), their move when there is
    nothing to ask (:meth:`_forced`), how a move is played and told (:meth:`_apply`), and what it says
    at the end (:meth:`_ended`)."""

    state: S
    rng: random.Random
    bots: Mapping[int, B]

    def _question(self) -> str | None:
        """What to ask the person at their decision; None to play :meth:`_forced` unasked."""
        raise NotImplementedError

    def _forced(self) -> M:
        """The person's move when :meth:`_question` asks nothing."""
        raise NotImplementedError

    def _apply(self, move: M) -> list[Message]:
        """Play ``move`` and return what the table says of it."""
        raise NotImplementedError

    def _ended(self) -> list[Message]:
        """What is said once the game is over, after the last move's messages."""
        return []

    def _run(self) -> list[Message]:
        """Play chance and the bots until the person decides (the question ends the messages)
        or the game ends (then :attr:`finished`)."""
        out: list[Message] = []
        while not self.state.is_terminal():
            s = self.state
            if s.is_chance_node():
                move = s.sample_chance(self.rng)
            elif s.current_player() == 0:
                ask = self._question()
                if ask is not None:
                    return [*out, ("info", ask)]
                move = self._forced()
            else:
                move = self.bots[s.current_player()].decide(list(s.legal_moves()))
            out += self._apply(move)
        self.finished = True
        return [*out, *self._ended()]


CANCELLED: Message = ("error", "cancelled")


def guarded(answer: Callable[[str], list[Message]], text: str) -> list[Message]:
    """``answer(text)`` under the prompt's one guard: Ctrl-C during it is "cancelled", a
    GameError is its one line, and any other error one line naming it (a bug: the table is
    as it was); never raises but for leaving.

    >>> def slow(text):
    ...     raise KeyboardInterrupt
    >>> guarded(slow, "solve")
    [('error', 'cancelled')]
    >>> guarded(lambda text: [("", text)], "table")
    [('', 'table')]
    """
    try:
        return answer(text)
    except KeyboardInterrupt:
        return [CANCELLED]
    except GameError as error:
        return [("error", " ".join(str(error).splitlines()))]
    except Exception as error:  # the prompt never dies; the journal is intact
        return [("error", f"internal error ({type(error).__name__}: {error}); the table is unchanged")]


@contextmanager
def whole() -> Iterator[None]:
    """Run the block with Ctrl-C held off, so that what it changes (the journal on disk, then
    the table in memory) changes whole: a Ctrl-C pressed meanwhile is dropped, the block having
    finished what it was asked. Outside the main thread, where signals do not arrive, it only
    runs the block."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.getsignal(signal.SIGINT)
    signal.signal(signal.SIGINT, lambda signum, frame: None)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous if previous is not None else signal.default_int_handler)


def check_personality(name: str, known: Sequence[str]) -> str:
    """``name`` if it is one of a game's bot personalities ``known``; raises ParseError naming them.

    >>> check_personality("honest", ("honest", "random"))
    'honest'
    """
    if name not in known:
        raise ParseError(f"unknown personality {name!r} ({', '.join(known)})", input=name)
    return name


def seat_seed(lines: Sequence[str], seed: int = 0) -> int:
    """A bot's random seed from what its seat has been told (its lines) and its own ``seed``:
    the same knowledge, the same choice; never from what the seat has not seen.

    >>> seat_seed(["players Ana Ben"]) == seat_seed(["players Ana Ben"]) != seat_seed(["players Ana Cleo"])
    True
    """
    digest = hashlib.sha256(("\n".join(lines) + f"|{seed}").encode()).digest()
    return int.from_bytes(digest[:8], "big")
