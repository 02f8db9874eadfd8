"""The Spicy table at the prompt: its commands (``table``, ``odds``), its completion and toolbar,
and the session that puts them together with the game-free ones (history, undo, redo, save,
help, quit).

>>> s = session()
>>> for line in ("game spicy", "players Ana Ben Cleo", "Ana play chili 3"):
...     _ = s.handle(line)
>>> [text for _, text in s.handle("Ben play wasabi 4")]
['Ben cannot claim wasabi 4: a pile of chili at 3 needs chili 4 to 10']
>>> [text for _, text in s.handle("undo")]
['undone: Ana play chili 3']
"""

from __future__ import annotations

from fractions import Fraction

from solver.spicy import DECK, Deck
from solver.spicy.odds import UNLIKELY_BELOW

from ..prompt import Front, table_front
from ..records import Journal
from ..session import Command, Message, TableSession
from .completion import completions
from .report import odds_text, table_text
from .tracker import Table

HELLO = "Type what happens at the table, e.g. 'Ben play chili 5', 'Cleo challenge number', 'reveal wasabi-5'."
INTRO = "Spicy table. Start with 'players Ana Ben Cleo' (then 'me NAME' and 'hand ...'); 'help' lists the commands."
SpicySession = TableSession[Table]


def _table(session: SpicySession, args: list[str]) -> list[Message]:
    return [("", table_text(session.table))]


def _odds(session: SpicySession, args: list[str]) -> list[Message]:
    return [("", odds_text(session.table))]


COMMANDS: tuple[Command[SpicySession], ...] = (
    Command("table", "table", "the pile, every hand size, won cards, trophies, scores, unseen cards", _table),
    Command("odds", "odds", "the top card's exact odds in detail, and your true plays", _odds),
)


def session(journal: Journal | None = None, threshold: Fraction = UNLIKELY_BELOW, deck: Deck = DECK) -> SpicySession:
    """A Spicy table session (replaying the journal, if it has lines). Raises GameError."""
    return TableSession(Table.new(deck, threshold), COMMANDS, journal, hello=HELLO, intro=INTRO)


def toolbar(session: SpicySession) -> str:
    """Whose turn it is, the pile, every hand size, the trophies and scores, what the table waits
    for."""
    table = session.table
    s = table.state
    if s is None:
        return " start with: players Ana Ben Cleo   (help for commands)"
    parts = [f" turn: {table.turn}"] if table.turn is not None else [" game over"]
    top = s.top
    pile = f"pile {s.pile_size}: {top.claim} by {table.names[top.player]}" if top is not None else "pile empty"
    parts.append(pile)
    parts.append("  ".join(f"{name} {len(hand)}" for name, hand in zip(table.names, s.hands, strict=True)))
    trophies = [f"{name} {t}" for name, t in zip(table.names, s.trophies, strict=True) if t]
    if trophies:
        parts.append("trophies " + " ".join(trophies))
    parts.append("score " + " ".join(f"{name} {p}" for name, p in zip(table.names, s.scores(), strict=True)))
    if table.waiting is not None:
        parts.append(f"waiting for {table.waiting}")
    return " | ".join(parts)


def front(session: SpicySession, history: bool = True) -> Front:
    """How the spicy table looks at the prompt."""
    return table_front(session, "spicy", completions, toolbar, history)
