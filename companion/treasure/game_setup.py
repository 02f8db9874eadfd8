"""The set-up of a tracked table: the header, the players, the tracked seat, its dealt hand and
the start card, each said once, before the first turn; and the public position they open.

>>> from companion.treasure.language import parse_line
>>> s = Setup().apply(parse_line("players Ana Ben"))
>>> s = s.apply(parse_line("start 2cv")).apply(parse_line("me Ben", s.names))
>>> s.missing(), s.sizes()
('hand CARDS', (26, 26))
>>> [line.canonical() for line in s.lines()]
['players Ana Ben', 'me Ben', 'start 2cv']
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, replace

from solver.errors import IllegalMove, ImpossibleTable
from solver.treasure import STANDARD, UNKNOWN, Card, Deck, Marker, State
from solver.treasure.cards import COPIES
from solver.treasure.rules import EXTRA_CARD_VP, START_VP

from .language import Line, Verb


@dataclass(frozen=True)
class Setup:
    """What the set-up lines said so far (None: not yet)."""

    deck: Deck = STANDARD
    header: bool = False  # `game tresor` was typed
    names: tuple[str, ...] = ()
    me: int | None = None
    hand: tuple[Card, ...] | None = None
    start: Card | None = None

    def __repr__(self) -> str:
        return f"<Setup {self.missing() or 'complete'}>"

    def sizes(self) -> tuple[int, ...]:
        """Every player's number of dealt cards: the deck less the removed and the start card,
        dealt clockwise from the first player."""
        n, dealt = len(self.names), len(self.deck.cards()) - 2
        return tuple(dealt // n + (1 if seat < dealt % n else 0) for seat in range(n))

    def opening_vp(self) -> tuple[int, ...]:
        """Every player's VP once dealt: the start's, +1 for one card more than the fewest."""
        sizes = self.sizes()
        return tuple(START_VP + (EXTRA_CARD_VP if size > min(sizes) else 0) for size in sizes)

    def missing(self) -> str | None:
        """The set-up lines still owed, in words; None once complete. Without ``me`` the record
        is a spectator's (treasure.md): the players and the start card complete it; with ``me``,
        the seat's hand is owed too."""
        owed = []
        if not self.names:
            owed.append("players NAMES")
        if self.me is not None and self.hand is None:
            owed.append("hand CARDS")
        if self.start is None:
            owed.append("start CARD")
        return ", ".join(owed) or None

    def lines(self) -> list[Line]:
        """The set-up as canonical lines, in the canonical order (players, me, hand, start)."""
        out = []
        if self.names:
            out.append(Line(Verb.PLAYERS, names=self.names))
        if self.me is not None:
            out.append(Line(Verb.ME, player=self.names[self.me]))
        if self.hand is not None:
            out.append(Line(Verb.HAND, cards=self.hand))
        if self.start is not None:
            out.append(Line(Verb.START, card=self.start))
        return out

    def apply(self, line: Line) -> Setup:
        """The set-up with ``line`` said. Raises :class:`IllegalMove` (out of order, said twice)
        or :class:`ImpossibleTable` (a hand of the wrong size, a third copy of a card)."""
        verb, said = line.verb, line.canonical()
        if verb is Verb.GAME:
            if self.header or self.names:
                raise IllegalMove("'game tresor' is the first line of a record, and only that", input=said)
            return replace(self, header=True)
        if verb is Verb.PLAYERS:
            if self.names:
                raise IllegalMove(f"the players are already given: {' '.join(self.names)}", input=said)
            return replace(self, names=line.names)
        if not self.names:
            raise IllegalMove("the players come first: players NAMES", input=said)
        if verb is Verb.ME:
            if self.me is not None:
                raise IllegalMove(f"the tracked seat is already {self.names[self.me]}", input=said)
            return replace(self, me=self.names.index(str(line.player)))
        if verb is Verb.HAND:
            return self._hand(line.cards, said)
        if self.start is not None:
            raise IllegalMove(f"the start card is already {self.start}", input=said)
        assert line.card is not None
        self._check_cards((*(self.hand or ()), line.card), said)
        return replace(self, start=line.card)

    def _hand(self, cards: tuple[Card, ...], said: str) -> Setup:
        if self.me is None:
            raise IllegalMove("say whose hand it is first: me NAME", input=said)
        if self.hand is not None:
            raise IllegalMove("the tracked seat's hand is already given", input=said)
        size = self.sizes()[self.me]
        if len(cards) != size:
            raise ImpossibleTable(f"{self.names[self.me]} is dealt {size} cards, not {len(cards)}", input=said)
        self._check_cards((*cards, *([self.start] if self.start else [])), said)
        return replace(self, hand=cards)

    def _check_cards(self, cards: tuple[Card, ...], said: str) -> None:
        for card, count in Counter(cards).items():
            if not self.deck.has(card):
                raise ImpossibleTable(f"there is no {card} in a {self.deck.text()} deck", input=said)
            if count > COPIES:
                raise ImpossibleTable(f"there are only {COPIES} {card} in the deck, not {count}", input=said)

    def opening(self) -> State:
        """The public position of the first turn, seen from the tracked seat (the other hands
        unknown, their sizes exact), or by a spectator (every hand and every marker unknown).
        Raises :class:`IllegalMove` while a set-up line is owed."""
        missing = self.missing()
        if missing is not None or self.start is None:
            raise IllegalMove(f"the table waits for the set-up: {missing}")
        if self.me is None:  # a spectator's: nobody's cards nor markers are seen
            hands = tuple((UNKNOWN,) * size for size in self.sizes())
            state = State.setup(self.names, hands, self.start, deck=self.deck)
            return state._replace(markers=tuple((Marker.UNKNOWN,) * len(m) for m in state.markers))
        assert self.hand is not None
        hands = tuple(self.hand if seat == self.me else (UNKNOWN,) * size for seat, size in enumerate(self.sizes()))
        return State.setup(self.names, hands, self.start, deck=self.deck, me=self.me)
