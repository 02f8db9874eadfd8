"""The table language of Conquêtes et chasse au trésor (treasure.md): what is typed at the prompt,
journalled, and stored in ``*.tresor`` records.

A line is parsed into a :class:`Line` (one small immutable value) and written back in its one
canonical form: English words, names in full, cards in their short form (``2ev``), a hand sorted
by force, nature, background. The words live in :data:`WORDS` and :data:`MARKERS` (one
vocabulary each, both languages); the card names are the engine's (:meth:`Card.parse`).

>>> names = ("Ana", "Ben", "Cleo")
>>> parse_line("ben POSE 3-coeur-vert en 0 1", names).canonical()
'Ben place 3cv at 0 1'
>>> parse_line("Cl mise 5 sur -1 2", names)
Line(Verb.BID, player='Cleo', row=-1, col=2, base=5)
>>> parse_line("Ana révèle 1 fond 0", names).canonical()
'Ana reveal 1 fond 0'
>>> french("Ana bid 2 on 0 0 with nature")
'Ana mise 2 sur 0 0 avec nature'
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import Enum

from solver.errors import GameError, ParseError
from solver.treasure import MAX_PLAYERS, MIN_PLAYERS, Card, Marker
from solver.treasure.cards import sort_cards
from solver.vocabulary import Vocabulary, fold

from ..language import PROMPT_WORDS as SHARED_PROMPT_WORDS
from ..language import declare
from ..language import french as in_french
from ..language import resolve_name as resolve


class Verb(Enum):
    """The canonical first word of a line's meaning (the rows of treasure.md's table), and the
    little words that join its parts."""

    GAME = "game"
    PLAYERS = "players"
    ME = "me"
    HAND = "hand"
    START = "start"
    PLACE = "place"
    PASS = "pass"
    NEURO = "neuro"
    BID = "bid"
    REMOVED = "removed"
    REVEAL = "reveal"
    BREACH = "breach"
    AT = "at"
    ON = "on"
    WITH = "with"
    TRESOR = "tresor"

    def __repr__(self) -> str:
        return f"Verb.{self.name}"


WORDS: Vocabulary[Verb] = Vocabulary(
    [
        (Verb.GAME, ("game",), ("jeu",)),
        (Verb.PLAYERS, ("players",), ("joueurs",)),
        (Verb.ME, ("me",), ("moi",)),
        (Verb.HAND, ("hand",), ("main",)),
        (Verb.START, ("start",), ("depart",)),
        (Verb.PLACE, ("place",), ("pose",)),
        (Verb.PASS, ("pass",), ("passe",)),
        (Verb.NEURO, ("neuro",), ()),
        (Verb.BID, ("bid",), ("mise",)),
        (Verb.REMOVED, ("removed",), ("retiree", "retire")),
        (Verb.REVEAL, ("reveal",), ("revele",)),
        (Verb.BREACH, ("breach",), ("faute",)),
        (Verb.AT, ("at",), ("en",)),
        (Verb.ON, ("on",), ("sur",)),
        (Verb.WITH, ("with",), ("avec",)),
        (Verb.TRESOR, ("tresor",), ()),
    ]
)
"""Every word of the language in English and French (the first of each is written back; accents
are optional, so ``départ`` and ``révèle`` are read too)."""

MARKERS: Vocabulary[Marker] = Vocabulary(
    [
        (Marker.ZERO, ("0", "zero"), ("zéro",)),
        (Marker.ONE, ("1", "one"), ("un",)),
        (Marker.NATURE, ("nature",), ("nature",)),
        (Marker.BACKGROUND, ("fond", "background"), ("fond", "couleur")),
        (Marker.FORCE, ("force",), ("force",)),
    ]
)
"""The bidding markers: ``0``, ``1``, ``nature``, ``fond`` (background; the seed's "couleur de
fond"), ``force``; written back as treasure.md writes them in both languages."""

SETUP = frozenset({Verb.GAME, Verb.PLAYERS, Verb.ME, Verb.HAND, Verb.START})
"""The set-up lines, in their canonical order."""
END = frozenset({Verb.REMOVED, Verb.REVEAL, Verb.BREACH})
"""The lines said once the domain is finished."""
STANDALONE = frozenset({*SETUP, Verb.REMOVED})
"""Lines that start with their verb (the others start with a player's name)."""
PLAYER_VERBS = frozenset({Verb.PLACE, Verb.PASS, Verb.NEURO, Verb.BID, Verb.REVEAL, Verb.BREACH})

NUMBER = re.compile(r"^[+-]?\d{1,4}$")
EXAMPLES = {
    Verb.PLAYERS: "players Ana Ben Cleo",
    Verb.ME: "me Ana",
    Verb.HAND: "hand 1cn 2eb",
    Verb.START: "start 2cv",
    Verb.PLACE: "Ben place 3cv at 0 1",
    Verb.PASS: "Cleo pass",
    Verb.NEURO: "Dan neuro",
    Verb.BID: "Dan bid 5 on 0 1",
    Verb.REMOVED: "removed 1rb",
    Verb.REVEAL: "Ben reveal 1 nature 0",
    Verb.BREACH: "Ben breach",
}
"""One example of each line, for the messages that say how to write it."""


PROMPT_WORDS = SHARED_PROMPT_WORDS | {"table", "domain", "odds", "bids", "placements", "plot"}
"""The prompt's commands: a player named so would be read as the command."""


def is_reserved(word: str) -> bool:
    """True if ``word`` is a word of the language, a marker, a card name or a command of the
    prompt (so it cannot be a name).

    >>> is_reserved("Passe"), is_reserved("2-etoile-vert"), is_reserved("Plot"), is_reserved("Ana")
    (True, True, True, False)
    """
    if word in WORDS or word in MARKERS or fold(word) in PROMPT_WORDS:
        return True
    try:
        Card.parse(word)
    except GameError:
        return False
    return True


@dataclass(frozen=True)
class Line:
    """One table line. ``player`` is a name as declared; ``cards`` the hand (sorted), ``card`` the
    card placed, laid at the start or shown at the end; ``marker`` the seat's own bid marker;
    ``markers`` a reveal's, in the order of the bids."""

    verb: Verb
    player: str | None = None
    card: Card | None = None
    row: int = 0
    col: int = 0
    base: int = 0
    marker: Marker | None = None
    markers: tuple[Marker, ...] = ()
    cards: tuple[Card, ...] = ()
    names: tuple[str, ...] = ()
    french: bool = field(default=False, compare=False)  # typed in French (for completion)

    def __repr__(self) -> str:
        parts = [repr(self.verb)]
        if self.player is not None:
            parts.append(f"player={self.player!r}")
        if self.card is not None:
            parts.append(f"card={self.card!r}")
        if self.verb in (Verb.PLACE, Verb.BID):
            parts.append(f"row={self.row}, col={self.col}")
        if self.base:
            parts.append(f"base={self.base}")
        if self.marker is not None:
            parts.append(f"marker={self.marker!r}")
        if self.markers:
            parts.append(f"markers={self.markers!r}")
        if self.cards:
            parts.append(f"cards={self.cards!r}")
        if self.names:
            parts.append(f"names={self.names!r}")
        return f"Line({', '.join(parts)})"

    @property
    def cell(self) -> tuple[int, int]:
        return (self.row, self.col)

    def canonical(self) -> str:
        """The one canonical form of this line (treasure.md, "Canonical form")."""
        verb = self.verb
        if verb is Verb.GAME:
            return "game tresor"
        if verb is Verb.PLAYERS:
            return "players " + " ".join(self.names)
        if verb is Verb.ME:
            return f"me {self.player}"
        if verb is Verb.HAND:
            return " ".join(["hand", *(str(c) for c in self.cards)])
        if verb in (Verb.START, Verb.REMOVED):
            return f"{verb.value} {self.card}"
        who = f"{self.player} {verb.value}"
        if verb is Verb.PLACE:
            return f"{who} {self.card} at {self.row} {self.col}"
        if verb is Verb.BID:
            marker = "" if self.marker is None else f" with {MARKERS.english(self.marker)}"
            return f"{who} {self.base} on {self.row} {self.col}{marker}"
        if verb is Verb.REVEAL:
            return " ".join([who, *(MARKERS.english(m) for m in self.markers)])
        return who


def resolve_name(word: str, names: tuple[str, ...]) -> str:
    """Return the declared name ``word`` stands for: the exact name (any case, accents
    optional), else the one name it is the start of. Raises :class:`ParseError`.

    >>> resolve_name("cl", ("Ana", "Ben", "Cleo"))
    'Cleo'
    """
    return resolve(word, names, is_reserved, "Ana Ben Cleo")


def parse_line(text: str, names: tuple[str, ...] = ()) -> Line | None:
    """Parse one line given the declared ``names``; None for a blank or comment-only line.

    Raises :class:`ParseError` with the reason, naming the offending word (and the nearest
    known word for an unknown one).
    """
    words = text.split("#", 1)[0].split()
    if not words:
        return None
    head, rest = words[0], words[1:]
    standalone = [w for w in WORDS.words(head) if w.meaning in STANDALONE]
    if standalone:
        return _standalone(standalone[0].meaning, rest, names, WORDS.is_french(head))
    if head in WORDS or head in MARKERS:
        example = EXAMPLES.get(WORDS.meaning(head)) if head in WORDS else None
        hint = f", e.g. {example!r}" if example else ""
        raise ParseError(f"{head!r} needs a player first{hint}", input=text.strip())
    player = resolve_name(head, names)
    if not rest:
        raise ParseError(f"what does {player} do? (place, pass, neuro, bid, reveal, breach)", input=text.strip())
    verb_word = rest[0]
    verbs = [w for w in WORDS.words(verb_word) if w.meaning in PLAYER_VERBS]
    if not verbs:
        if verb_word in WORDS:
            raise ParseError(f"{verb_word!r} is not something a player does", input=verb_word)
        raise WORDS.unknown(verb_word, f"word after {player}")
    return _player_line(verbs[0].meaning, player, rest[1:], names, verbs[0].french)


def _standalone(verb: Verb, rest: list[str], names: tuple[str, ...], french: bool) -> Line:
    if verb is Verb.GAME:
        if len(rest) != 1 or rest[0] not in WORDS or WORDS.meaning(rest[0]) is not Verb.TRESOR:
            raise ParseError("a record of this game starts with 'game tresor'", input=" ".join(["game", *rest]))
        return Line(Verb.GAME, french=french)
    if verb is Verb.PLAYERS:
        return Line(Verb.PLAYERS, names=_declare(rest), french=french)
    if verb is Verb.HAND:
        return Line(Verb.HAND, cards=sort_cards(_card(w) for w in rest), french=french)
    if len(rest) != 1:
        raise ParseError(f"{verb.value} takes one word, e.g. {EXAMPLES[verb]!r}", input=" ".join([verb.value, *rest]))
    if verb is Verb.ME:
        return Line(Verb.ME, player=resolve_name(rest[0], names), french=french)
    return Line(verb, card=_card(rest[0]), french=french)


def _player_line(verb: Verb, player: str, rest: list[str], names: tuple[str, ...], french: bool) -> Line:
    if verb in (Verb.PASS, Verb.NEURO, Verb.BREACH):
        if rest:
            raise ParseError(f"{verb.value} takes nothing after it, e.g. {EXAMPLES[verb]!r}", input=" ".join(rest))
        return Line(verb, player=player, french=french)
    if verb is Verb.REVEAL:
        if not rest:
            raise ParseError(f"which markers? e.g. {EXAMPLES[verb]!r}", input=player)
        return Line(verb, player=player, markers=tuple(_marker(w) for w in rest), french=french)
    if verb is Verb.PLACE:
        if not rest:
            raise ParseError(f"place which card where? e.g. {EXAMPLES[verb]!r}", input=player)
        row, col = _cell(rest[1:], Verb.AT)
        return Line(verb, player=player, card=_card(rest[0]), row=row, col=col, french=french)
    return _bid(player, rest, french)


def _bid(player: str, rest: list[str], french: bool) -> Line:
    marker: Marker | None = None
    if len(rest) >= 2 and rest[-2] in WORDS and WORDS.meaning(rest[-2]) is Verb.WITH:
        marker, rest = _marker(rest[-1]), rest[:-2]
    if not rest or not rest[0].isdigit() or len(rest[0]) > 2:
        raise ParseError(f"bid which base carton where? e.g. {EXAMPLES[Verb.BID]!r}", input=" ".join(rest) or player)
    row, col = _cell(rest[1:], Verb.ON)
    return Line(Verb.BID, player=player, row=row, col=col, base=int(rest[0]), marker=marker, french=french)


def _cell(words: Sequence[str], joiner: Verb) -> tuple[int, int]:
    """``at ROW COLUMN`` (or ``on``; the little word may be left out)."""
    if words and words[0] in WORDS and WORDS.meaning(words[0]) is joiner:
        words = words[1:]
    if len(words) != 2 or not all(NUMBER.match(w) for w in words):
        shown = " ".join(words) or "nothing"
        raise ParseError(f"write the cell as '{joiner.value} ROW COLUMN' (numbers), not {shown!r}", input=shown)
    return int(words[0]), int(words[1])


def _card(word: str) -> Card:
    card = Card.parse(word)
    if not card.known:
        raise ParseError("name the card: '?' is for cards nobody has seen", input=word)
    return card


def _marker(word: str) -> Marker:
    return MARKERS.meaning(word, "marker")


def _declare(words: Sequence[str]) -> tuple[str, ...]:
    return declare(words, is_reserved, MIN_PLAYERS, MAX_PLAYERS)


def french(line: str) -> str:
    """The French form of a canonical line (names, cards, numbers and markers unchanged).

    >>> french("Ben place 3cv at 0 1")
    'Ben pose 3cv en 0 1'
    """
    return in_french(line, (WORDS,))


__all__ = ["END", "MARKERS", "SETUP", "WORDS", "Line", "Verb", "french", "is_reserved", "parse_line", "resolve_name"]
