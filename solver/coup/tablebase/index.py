"""Families of 2-player positions and their arithmetic numbering.

The open-hand value of a 2-player turn start depends only on the variant, the face-down cards
of the player to move (the *mover*) and of the other player, the court, and both coin counts.
A :class:`Family` is every such position with the same multiset of cards in play (hands and
court) and the same court size: exchanges and redraws move cards between hands and the court
but keep the family; a lost influence leads to a family with one card fewer.

Positions are numbered from the mover's side (the seat to move does not matter, by symmetry):

    index = arrangement * 169 + mover_coins * 13 + other_coins

An *arrangement* is (mover's hand, other's hand), the court being the rest of the family. A hand
of one or two cards has a code (:func:`hand_code`): 0-4 for one card, 5-19 for two; a family
numbers its valid (mover, other) code pairs densely, in code order, through a 400-entry array.
Coins run 0-12: every count play reaches (gains come only at one's own turn, from 9 coins at
most, and 10 or more must coup).

>>> f = Family.of_counts(Variant.AMBASSADOR, (3, 3, 3, 3, 3), court=11)
>>> f, f.positions
(Family(Variant.AMBASSADOR, (3, 3, 3, 3, 3), court=11), 37180)
>>> f.name
'ambassador-33333-c11'
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache, lru_cache
from itertools import combinations_with_replacement

import numpy as np
import numpy.typing as npt

from ...errors import Unsupported
from ..cards import Character, Variant
from ..state import Phase, State

COINS = 13
"""Coin counts 0-12 per player: every count that play reaches."""
CELLS = COINS * COINS
MAX_COINS = COINS - 1

HANDS: tuple[tuple[int, ...], ...] = tuple([(c,) for c in range(5)] + list(combinations_with_replacement(range(5), 2)))
"""Every hand of one or two cards, as character positions in ``variant.characters``; a hand's
code is its place here."""
_HAND_CODE = {hand: code for code, hand in enumerate(HANDS)}
NO_ARRANGEMENT = -1


@cache
def _arrangements(counts: tuple[int, ...], hands: int) -> tuple[tuple[int, int], ...]:
    """The (mover, other) hand codes that fit ``counts`` with ``hands`` face-down cards in all."""
    pairs = []
    for mover, first in enumerate(HANDS):
        for other, second in enumerate(HANDS):
            if len(first) + len(second) == hands and all((first + second).count(c) <= counts[c] for c in range(5)):
                pairs.append((mover, other))
    return tuple(pairs)


@cache
def _numbering(arrangements: tuple[tuple[int, int], ...]) -> npt.NDArray[np.int32]:
    table = np.full(len(HANDS) ** 2, NO_ARRANGEMENT, dtype=np.int32)
    for i, (mover, other) in enumerate(arrangements):
        table[mover * len(HANDS) + other] = i
    return table


def hand_code(cards: tuple[int, ...]) -> int:
    """The code of a hand given as sorted character positions (0-4): 0-4 for one card, 5-19 for two.

    >>> hand_code((0,)), hand_code((0, 0)), hand_code((3, 4))
    (0, 5, 18)
    """
    return _HAND_CODE[cards]


@dataclass(frozen=True)
class Family:
    """Every 2-player position with these cards in play: ``counts[i]`` copies of the variant's
    i-th character (hands + court), ``court`` of them in the court."""

    variant: Variant
    counts: tuple[int, ...]
    court: int
    arrangements: tuple[tuple[int, int], ...] = field(init=False, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        hands = self.cards - self.court
        if len(self.counts) != 5 or min(self.counts) < 0 or max(self.counts) > 4:
            raise Unsupported(f"no family has these cards in play: {self.counts}")
        if not 2 <= hands <= 4 or self.court < 1:
            raise Unsupported(f"{hands} face-down cards and a court of {self.court}: not a 2-player position")
        object.__setattr__(self, "arrangements", _arrangements(self.counts, hands))

    @classmethod
    def of_counts(cls, variant: Variant, counts: tuple[int, ...], court: int) -> Family:
        return cls(variant, tuple(counts), court)

    def __repr__(self) -> str:
        return f"Family({self.variant!r}, {self.counts}, court={self.court})"

    @property
    def cards(self) -> int:
        """Cards in play: both hands and the court."""
        return sum(self.counts)

    @property
    def hands(self) -> int:
        """Face-down cards of both players together (2, 3 or 4)."""
        return self.cards - self.court

    @property
    def name(self) -> str:
        """A file-name-safe name: variant, copies per character, court size."""
        return f"{self.variant}-{''.join(map(str, self.counts))}-c{self.court}"

    @classmethod
    def from_name(cls, name: str) -> Family:
        """Inverse of :attr:`name`. Raises :class:`Unsupported` for a name that is not one."""
        try:
            variant, counts, court = name.split("-")
            return cls(Variant.parse(variant), tuple(int(c) for c in counts), int(court.removeprefix("c")))
        except (ValueError, KeyError) as error:
            raise Unsupported(f"not a tablebase family name: {name!r}") from error

    @property
    def positions(self) -> int:
        """Turn starts in the family (mover's side): arrangements × 169 coin pairs."""
        return len(self.arrangements) * CELLS

    @property
    def arrangement_of_codes(self) -> npt.NDArray[np.int32]:
        """``[mover_code * 20 + other_code]``: the arrangement's number, -1 where none."""
        return _numbering(self.arrangements)

    def arrangement(self, mover: tuple[int, ...], other: tuple[int, ...]) -> int:
        """The number of (mover's hand, other's hand), as sorted character positions; -1 if
        the family has no such arrangement."""
        code = _HAND_CODE.get(mover, -1), _HAND_CODE.get(other, -1)
        if code[0] < 0 or code[1] < 0:
            return NO_ARRANGEMENT
        return int(self.arrangement_of_codes[code[0] * len(HANDS) + code[1]])

    def court_of(self, arrangement: int) -> tuple[int, ...]:
        """The court of an arrangement, as sorted character positions."""
        mover, other = self.arrangements[arrangement]
        left = list(self.counts)
        for c in HANDS[mover] + HANDS[other]:
            left[c] -= 1
        return tuple(c for c in range(5) for _ in range(left[c]))

    def state(self, arrangement: int, coins: tuple[int, int] = (0, 0), names: tuple[str, str] = ("A", "B")) -> State:
        """The turn start of ``arrangement`` with the mover in the first seat (face-up cards
        and cards out of play left empty: they change no value)."""
        chars = self.variant.characters
        mover, other = self.arrangements[arrangement]
        hidden = (tuple(chars[c] for c in HANDS[mover]), tuple(chars[c] for c in HANDS[other]))
        court = tuple(chars[c] for c in self.court_of(arrangement))
        from ..state import Turn

        return State(names, self.variant, coins, hidden, ((), ()), court, (), Turn(Phase.ACTION, 0, 0))

    def lower(self) -> tuple[Family, ...]:
        """The families a lost influence leads to (one card fewer in play, the same court),
        while both players keep a card."""
        if self.hands <= 2:
            return ()
        out = []
        for c in range(5):
            if self.counts[c]:
                counts = tuple(n - (i == c) for i, n in enumerate(self.counts))
                out.append(Family(self.variant, counts, self.court))
        return tuple(out)


def cards_key(variant: Variant, cards: tuple[Character, ...]) -> tuple[int, ...]:
    """Sorted character positions (0-4 in ``variant.characters``) of ``cards``. Raises
    :class:`Unsupported` for an unknown card or one of the other variant."""
    chars = variant.characters
    try:
        return tuple(sorted(chars.index(c) for c in cards))
    except ValueError as error:
        raise Unsupported(f"the tables need every card known ({variant} variant); got {cards}") from error


@dataclass(frozen=True)
class Place:
    """Where a 2-seat turn start is in the tables: its family, its index there, and the mover's seat."""

    family: Family
    index: int
    mover: int


def locate(state: State) -> Place:
    """The family and index of a 2-seat turn start with two living players. Raises
    :class:`Unsupported` when it is out of the tables' reach (more seats, unknown cards, coins
    above 12, a player with no or three cards).

    >>> s = State.from_text("ambassador Alice:1:DK:- Bob:2:A:C court=DDAACCKKBBB aside=- phase=action actor=Alice")
    >>> p = locate(s)
    >>> p.family.name, p.index % 169, p.mover
    ('ambassador-33233-c11', 15, 0)
    """
    if len(state.names) != 2 or state.turn.phase is not Phase.ACTION:
        raise Unsupported("the tables hold 2-seat turn starts")
    mover = state.turn.actor
    mine, theirs = state.hidden[mover], state.hidden[1 - mover]
    if not (1 <= len(mine) <= 2 and 1 <= len(theirs) <= 2):
        raise Unsupported("the tables hold positions where each player has 1 or 2 face-down cards")
    x, y = state.coins[mover], state.coins[1 - mover]
    if max(x, y) > MAX_COINS:
        raise Unsupported(
            f"the tables hold coins up to {MAX_COINS} (the most play reaches); this position has {max(x, y)}"
        )
    family, arrangement = _layout(state.variant, mine, theirs, state.court)
    return Place(family, arrangement * CELLS + x * COINS + y, mover)


def family_of(state: State) -> Family:
    """The family of a 2-seat state with two living players, at any point of a turn: the cards
    in play (both hands, the court, and the cards an exchange has drawn), the court being what
    is not in a hand. Every turn start it can lead to is in this family or one it leads to.
    Raises :class:`Unsupported` when that is no family (unknown cards, more seats).

    >>> s = State.from_text("ambassador Alice:1:DK:- Bob:2:A:C court=DDAACCKKBBB aside=- phase=action actor=Alice")
    >>> family_of(s).name
    'ambassador-33233-c11'
    """
    if len(state.names) != 2:
        raise Unsupported("the tables hold 2-seat positions")
    drawn = state.turn.cards if state.turn.phase is Phase.EXCHANGE_KEEP else ()
    hands = len(state.hidden[0]) + len(state.hidden[1])
    counts = [0] * 5
    for k in cards_key(state.variant, (*state.hidden[0], *state.hidden[1], *state.court, *drawn)):
        counts[k] += 1
    return Family(state.variant, tuple(counts), sum(counts) - hands)


@lru_cache(maxsize=1 << 16)
def _layout(
    variant: Variant, mine: tuple[Character, ...], theirs: tuple[Character, ...], court: tuple[Character, ...]
) -> tuple[Family, int]:
    """The family and arrangement of these cards (the mover's, the other's, the court's): the
    same for every coin count and every probe of a position, so computed once."""
    m, o, c = cards_key(variant, mine), cards_key(variant, theirs), cards_key(variant, court)
    counts = [0] * 5
    for k in (*m, *o, *c):
        counts[k] += 1
    family = Family(variant, tuple(counts), len(c))
    return family, family.arrangement(m, o)
