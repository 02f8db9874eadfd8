"""A table session: lines and commands in, answers out. No terminal here (see prompt.py), so
the whole conversation is testable as plain strings.

>>> s = Session()
>>> for line in ("players Alice Bob Carol", "me Carol", "hand duke captain", "Alice tax"):
...     _ = s.handle(line)
>>> [text for _, text in s.handle("Bob assassinate Carol")]
['Bob has 2 coins; assassinate costs 3']
>>> [text for _, text in s.handle("undo")]
['undone: Alice tax']
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from solver.coup import GameError, Move, Phase
from solver.coup.limits import TABLE_BUDGET

from .advice import THRESHOLD, percent
from .language import parse_line
from .records import Journal, read_record
from .report import odds_text, table_text
from .table import Table

Message = tuple[str, str]
"""(style, text): style is '' (plain), 'info', 'flag', 'impossible', 'error' or 'over'."""


@dataclass(frozen=True)
class Command:
    """One prompt command (not a table line)."""

    name: str
    usage: str
    help: str
    run: Callable[[Session, list[str]], list[Message]]


class Session:
    """The table, its undo/redo stacks and its journal."""

    def __init__(
        self,
        journal: Journal | None = None,
        threshold: object = THRESHOLD,
        budget: int = TABLE_BUDGET,
        draft_model: str = "uniform",
    ) -> None:
        self.journal = journal
        self.threshold = threshold
        self.budget = budget  # positions per hypothesis for `solve`
        self.tables: list[Table] = [Table.new(threshold, draft_model)]  # type: ignore[arg-type]
        self.raw: list[list[str]] = [[]]  # the journal's lines for each table of the stack
        self.undone: list[tuple[Table, list[str]]] = []
        self.finished = False
        if journal is not None:
            lines = journal.lines()
            if lines:
                self._load(journal.path, lines)

    def _load(self, path: Path, lines: list[str]) -> None:
        table = read_record(path, self.tables[0])
        self.tables.append(table)
        self.raw.append(lines)

    @property
    def table(self) -> Table:
        return self.tables[-1]

    # -- input ------------------------------------------------------------------------------

    def handle(self, text: str) -> list[Message]:
        """Answer one typed line: a command or a table line. Never raises a GameError."""
        words = text.split()
        if not words:
            return []
        command = COMMANDS.get(words[0].lower())
        if command is not None and (len(words) == 1 or command.name in _ARGUMENT_COMMANDS):
            try:
                return command.run(self, words[1:])
            except GameError as error:
                return [("error", str(error))]
        return self._line(text)

    def _line(self, text: str) -> list[Message]:
        before = self.table
        raw = self.raw[-1]
        try:
            line = parse_line(text, before.names)
            if line is None:
                return []
            table = before.apply(line, len(raw) + 1)
        except GameError as error:
            return [("error", str(error))]
        canonical = line.canonical()
        reordered = table.lines[-1][1] != line
        lines = [entry.canonical() for _, entry in table.lines] if reordered else [*raw, canonical]
        if self.journal is not None:  # on disk before the answer
            if reordered:
                self.journal.rewrite(lines)
            else:
                self.journal.append(canonical)
        self.tables.append(table)
        self.raw.append(lines)
        self.undone.clear()
        return self._answer(before, table)

    def _answer(self, before: Table, after: Table) -> list[Message]:
        out: list[Message] = []
        for claim in after.claims[len(before.claims) :]:
            if claim.flagged and claim.level is not None:
                style = "impossible" if claim.level == "impossible" else "flag"
                out.append(
                    (
                        style,
                        f"{claim.level}: {claim.player} claims {claim.character.article} "
                        f"({percent(claim.probability)}): {claim.reason}",
                    )
                )
        for note in after.challenges[len(before.challenges) :]:
            out.append(("info", f"{note.challenger}'s challenge succeeds with {percent(note.success_probability)}"))
        advice = _draft_suggestion(before, after)
        if advice is not None:
            out.append(("info", advice))
        if after.dropped != before.dropped:
            out.append(("info", "an earlier failed proof is no longer taken as 'holds none': it contradicts this line"))
        if after.over and not before.over:
            state = after.state
            winner = state.winner() if state is not None else None
            out.append(("over", f"game over: {after.names[winner] if winner is not None else '?'} wins"))
        elif after.waiting is not None and after.started:
            out.append(("info", f"waiting for {after.waiting}"))
        return out

    # -- commands -----------------------------------------------------------------------------

    def undo(self) -> list[Message]:
        if len(self.tables) == 1:
            return [("error", "nothing to undo")]
        table, lines = self.tables.pop(), self.raw.pop()
        self.undone.append((table, lines))
        if self.journal is not None:
            self.journal.rewrite(self.raw[-1])
        last = table.lines[-1][1].canonical() if table.lines else "?"
        return [("info", f"undone: {last}")]

    def redo(self) -> list[Message]:
        if not self.undone:
            return [("error", "nothing to redo")]
        table, lines = self.undone.pop()
        self.tables.append(table)
        self.raw.append(lines)
        if self.journal is not None:
            self.journal.rewrite(lines)
        return [("info", f"redone: {table.lines[-1][1].canonical()}")]


def _table(session: Session, args: list[str]) -> list[Message]:
    return [("", table_text(session.table))]


def _odds(session: Session, args: list[str]) -> list[Message]:
    table = session.table
    if not table.names:
        raise GameError("no players yet")
    if args:
        from .language import resolve_name

        seats = [table.seat(resolve_name(args[0], table.names))]
    else:
        seats = [i for i in range(len(table.names)) if i != table.me]
    state = table.view
    out = []
    for seat in seats:
        if seat == table.me:
            out.append(("", f"{table.names[seat]}: your cards: {' '.join(c.name_en for c in table.my_cards())}"))
        elif state is not None and not state.alive(seat):
            out.append(("", f"{table.names[seat]} is out of the game"))
        else:
            out.append(("", odds_text(table, seat)))
    return out


def _history(session: Session, args: list[str]) -> list[Message]:
    return [("", f"{n:>4}  {line}") for n, line in enumerate(session.raw[-1], start=1)] or [("info", "no lines yet")]


def _save(session: Session, args: list[str]) -> list[Message]:
    if len(args) != 1:
        raise GameError("save needs a file name: save game.coup")
    path = Path(args[0])
    path.write_text(session.table.record(), encoding="utf-8")
    return [("info", f"saved {len(session.table.lines)} lines to {path}")]


def _help(session: Session, args: list[str]) -> list[Message]:
    rows = [("", "Type what happens at the table, e.g. 'Alice tax', 'Bob challenge', 'Alice show duke'.")]
    rows.append(("", "Commands:"))
    rows.extend(("", f"  {c.usage:<16} {c.help}") for c in COMMANDS.values())
    return rows


def _ready_to_pick(table: Table) -> bool:
    """The seat is to pick its draft card (dealt-first: once dealt; pick-first: at once)."""
    from solver.coup import Draft

    if table.me is None or table.pick is not None or len(table.names) != 2 or table.draft is Draft.NONE:
        return False
    return table.dealt is not None or table.draft is Draft.PICK_FIRST


def _draft_suggestion(before: Table, after: Table) -> str | None:
    """The pick to make, said once, when the seat can make it."""
    from solver.coup import Draft

    from .draft_advice import suggestion

    if not _ready_to_pick(after) or _ready_to_pick(before):
        return None
    assert after.me is not None
    try:
        return suggestion(
            after.variant, after.draft, after.me, after.dealt if after.draft is Draft.DEALT_FIRST else None
        )
    except GameError:
        return None


def _solve(session: Session, args: list[str]) -> list[Message]:
    from ..progress import progress
    from .answers import solve_text
    from .endgame import hypotheses, solve_decision, solve_table

    view = session.table.view
    if view is not None and view.turn.phase is not Phase.ACTION and not view.is_terminal():
        return [("", solve_decision(session.table, session.budget).text())]
    found = hypotheses(session.table)
    with progress("solving", total=len(found)) as tick:
        return [("", solve_text(solve_table(session.table, session.budget, tick, found)))]


def _quit(session: Session, args: list[str]) -> list[Message]:
    session.finished = True
    return []


COMMANDS: dict[str, Command] = {
    c.name: c
    for c in (
        Command("table", "table", "coins, cards and odds of every player", _table),
        Command("odds", "odds [player]", "exact odds of each other player's cards", _odds),
        Command("history", "history", "the lines typed so far", _history),
        Command("undo", "undo", "take back the last line", lambda s, a: s.undo()),
        Command("redo", "redo", "put back a line taken back", lambda s, a: s.redo()),
        Command("save", "save FILE", "write the record to FILE", _save),
        Command("solve", "solve", "exact best play once two players are left", _solve),
        Command("help", "help", "this list", _help),
        Command("quit", "quit", "leave (the game stays on disk)", _quit),
    )
}
_ARGUMENT_COMMANDS = frozenset({"odds", "save"})


class SoloGame:
    """A game one person plays at the prompt (a puzzle, a game against bots): lines in,
    messages out. A line is a command by name, ``quit``, or a move of the person's seat."""

    finished: bool

    def commands(self) -> dict[str, Callable[[], list[Message]]]:
        """The commands besides ``quit``, by name."""
        return {}

    def seat_move(self, text: str) -> Move:
        """The person's move that ``text`` names. Raises GameError."""
        raise NotImplementedError

    def play(self, typed: str, move: Move) -> list[Message]:
        """Play the person's move and what follows until they are to move again."""
        raise NotImplementedError

    def handle(self, text: str) -> list[Message]:
        """Answer one typed line. Never raises a GameError."""
        word = text.strip().lower()
        if not word:
            return []
        if word == "quit":
            self.finished = True
            return []
        command = self.commands().get(word)
        if command is not None:
            return command()
        if self.finished:
            return [("error", "the game is over ('quit' to leave)")]
        try:
            move = self.seat_move(text)
        except GameError as error:
            return [("error", str(error))]
        return self.play(text.strip(), move)
