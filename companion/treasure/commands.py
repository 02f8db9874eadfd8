"""The treasure table at the prompt: its commands (``table``, ``domain``, ``odds``, ``bids``,
``placements``, ``plot``), its completion and toolbar, and the session that puts them together
with the game-free ones (history, undo, redo, save, help, quit).

>>> s = session()
>>> for line in ("game tresor", "players Ana Ben Cleo", "me Ana", "start 2cv"):
...     _ = s.handle(line)
>>> [text for _, text in s.handle("Ana place 2cb at 0 1")]
['the table waits for the set-up: hand CARDS']
>>> [text for _, text in s.handle("undo")]
['undone: start 2cv']
"""

from __future__ import annotations

from solver.errors import GameError
from solver.treasure import STANDARD, Deck

from ..prompt import Front, table_front
from ..records import Journal
from ..session import Command, Message, TableSession
from .completion import completions
from .picture import fragments, grid_text, plot
from .report import bids_text, odds_text, placements_text, table_text
from .tracker import Table

HELLO = "Type what happens at the table, e.g. 'Ben place 3cv at 0 1', 'Cleo pass', 'Dan neuro', 'Dan bid 5 on 0 1'."
INTRO = "Conquêtes et chasse au trésor. Type what happens ('Ben place 3cv at 0 1'); 'help' lists the commands."
TreasureSession = TableSession[Table]


def _ready(session: TreasureSession) -> Table:
    table = session.table
    if table.state is None:
        raise GameError(f"nothing to show yet: the table waits for {table.waiting}")
    return table


def _table(session: TreasureSession, args: list[str]) -> list[Message]:
    return [("", table_text(session.table))]


def _domain(session: TreasureSession, args: list[str]) -> list[Message]:
    table = _ready(session)
    if session.settings.get("colour"):  # a terminal: the cells in their colours, straight to it
        from prompt_toolkit.formatted_text import FormattedText
        from prompt_toolkit.shortcuts import print_formatted_text

        print_formatted_text(FormattedText(fragments(table)), end="")
        return []
    return [("", grid_text(table))]


def _odds(session: TreasureSession, args: list[str]) -> list[Message]:
    rows = odds_text(_ready(session), limit=27)
    return [("", row) for row in rows]


def _seat(session: TreasureSession, what: str) -> Table:
    table = _ready(session)
    if table.me is None:
        raise GameError(f"a spectator's table (no 'me'): there are no {what} of yours to value")
    return table


def _bids(session: TreasureSession, args: list[str]) -> list[Message]:
    limit = int(args[0]) if args and args[0].isdigit() else 15
    return [("", "your bids, best first:"), *(("", row) for row in bids_text(_seat(session, "bids"), limit))]


def _placements(session: TreasureSession, args: list[str]) -> list[Message]:
    limit = int(args[0]) if args and args[0].isdigit() else 15
    rows = placements_text(_seat(session, "placements"), limit)
    return [("", "your placements, best first:"), *(("", row) for row in rows)]


def _plot(session: TreasureSession, args: list[str]) -> list[Message]:
    if len(args) != 1:
        raise GameError("plot needs a file name, e.g. plot domain.png")
    try:
        plot(_ready(session), args[0])
    except OSError as error:
        raise GameError(f"cannot write {args[0]}: {error.strerror}", input=args[0]) from None
    return [("info", f"the domain is drawn in {args[0]}")]


COMMANDS: tuple[Command[TreasureSession], ...] = (
    Command("table", "table", "the domain, every player, the odds, your best bids and placements", _table),
    Command("domain", "domain", "the domain in colour", _domain),
    Command("odds", "odds", "the exact chance of every treasure", _odds),
    Command("bids", "bids [N]", "the exact value of your bids, best first", _bids, arguments=True),
    Command("placements", "placements [N]", "your legal placements, best first", _placements, arguments=True),
    Command("plot", "plot FILE.png", "draw the domain and the treasure odds", _plot, arguments=True),
)


def session(journal: Journal | None = None, deck: Deck = STANDARD, colour: bool = False) -> TreasureSession:
    """A treasure table session (replaying the journal, if it has lines). ``colour``: the
    ``domain`` command draws on the terminal in colour. Raises GameError."""
    return TableSession(Table.new(deck), COMMANDS, journal, hello=HELLO, intro=INTRO, colour=colour)


def toolbar(session: TreasureSession) -> str:
    """Whose turn it is, every hand size and public VP, deux cartes, and what the table waits for."""
    table = session.table
    if not table.names:
        return " start with: players Ana Ben Cleo   (help for commands)"
    parts = []
    if table.turn is not None:
        parts.append(f" turn: {table.turn}")
    sizes, vp = table.hand_sizes(), table.vp()
    parts.append("  ".join(f"{name} {sizes[i]}c {vp[i]}VP" for i, name in enumerate(table.names)))
    if table.deux_cartes:
        parts.append("deux cartes")
    if table.waiting is not None:
        parts.append(f"waiting for {table.waiting}")
    return " | ".join(parts)


def front(session: TreasureSession, history: bool = True) -> Front:
    """How the treasure table looks at the prompt."""
    return table_front(session, "tresor", completions, toolbar, history)
