"""Puzzles: a position described by a TOML document (outputs.md, "Puzzles"), with ``"?"`` cards
turned into hypotheses (every assignment of characters, with its exact probability).

The file is read by the companion (``tomllib``); this module takes the parsed mapping.

>>> puzzle = Puzzle.from_mapping({"to_move": "Alice", "players": {
...     "Alice": {"coins": 3, "hand": ["duke", "contessa"], "face_up": []},
...     "Bob": {"coins": 6, "hand": ["?"], "face_up": ["captain"]}}})
>>> [(h.probability, h.state.hidden[1]) for h in puzzle.hypotheses()][:2]
[(Fraction(1, 6), (Character.DUKE,)), (Fraction(1, 4), (Character.ASSASSIN,))]
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from fractions import Fraction
from itertools import product
from math import prod
from typing import Any

from ..errors import ImpossibleTable, ParseError
from .cards import Character, Variant, deck, sort_cards
from .state import State

UNKNOWN = Character.UNKNOWN


@dataclass(frozen=True)
class Hypothesis:
    """One assignment of the unknown cards, with its probability."""

    state: State
    probability: Fraction


@dataclass(frozen=True)
class Puzzle:
    """A position at the start of ``to_move``'s turn, possibly with unknown cards."""

    names: tuple[str, ...]
    variant: Variant
    coins: tuple[int, ...]
    hidden: tuple[tuple[Character, ...], ...]
    face_up: tuple[tuple[Character, ...], ...]
    court: tuple[Character, ...] | None
    to_move: int

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any]) -> Puzzle:
        """Read a parsed puzzle file. Raises :class:`ParseError` or :class:`ImpossibleTable`
        with the reason (too many copies, a court under 2 cards, an unknown player...)."""
        players = data.get("players")
        if not isinstance(players, Mapping) or len(players) < 2:
            raise ParseError("a puzzle needs [players.NAME] tables for at least two players")
        names = tuple(str(n) for n in players)
        variant = Variant.parse(str(data.get("variant", "ambassador")))
        to_move_name = str(data.get("to_move", names[0]))
        if to_move_name not in names:
            raise ParseError(f"to_move = {to_move_name!r} is not one of the players ({', '.join(names)})")
        coins, hidden, face_up = [], [], []
        for name in names:
            seat = players[name]
            coins.append(_int(seat.get("coins", 2), f"{name}'s coins"))
            hidden.append(tuple(_card(w) for w in seat.get("hand", [])))
            face_up.append(tuple(_card(w) for w in seat.get("face_up", [])))
        court = None
        if "court" in data:
            court = tuple(_card(w) for w in data["court"].get("cards", []))
            if UNKNOWN in court:
                raise ParseError("the court lists known cards only")
        puzzle = cls(names, variant, tuple(coins), tuple(hidden), tuple(face_up), court, names.index(to_move_name))
        puzzle._check()
        return puzzle

    def _check(self) -> None:
        full = Counter(deck(self.variant, len(self.names)))
        listed = Counter(c for cards in (*self.hidden, *self.face_up, self.court or ()) for c in cards)
        listed.pop(UNKNOWN, None)
        for c, n in listed.items():
            if n > full[c]:
                raise ImpossibleTable(f"{n} {c.name_en}s listed, but the deck has {full[c]}")
        for name, cards, up in zip(self.names, self.hidden, self.face_up, strict=True):
            if len(cards) + len(up) > 2:
                raise ImpossibleTable(f"{name} has more than 2 cards")
        if self.court is not None and len(self.court) < 2:
            raise ImpossibleTable(
                f"a court of {len(self.court)} card{'s' if len(self.court) != 1 else ''}: an exchange needs at least 2"
            )
        unknown = sum(cards.count(UNKNOWN) for cards in self.hidden)
        if unknown > len(self._unlisted()):
            raise ImpossibleTable(f"{unknown} unknown cards but only {len(self._unlisted())} cards unlisted")

    def _unlisted(self) -> list[Character]:
        full = Counter(deck(self.variant, len(self.names)))
        listed = Counter(c for cards in (*self.hidden, *self.face_up, self.court or ()) for c in cards)
        listed.pop(UNKNOWN, None)
        return sorted((full - listed).elements())

    def hypotheses(self) -> list[Hypothesis]:
        """Every distinct assignment of characters to the ``"?"`` cards, drawn uniformly from
        the physical cards listed nowhere, with its exact probability (they sum to 1)."""
        slots = [(seat, i) for seat, cards in enumerate(self.hidden) for i, c in enumerate(cards) if c is UNKNOWN]
        pool = Counter(self._unlisted())
        total = sum(pool.values())
        out = []
        for assignment, p in _assignments(pool, total, len(slots)):
            hidden = [list(cards) for cards in self.hidden]
            for (seat, i), c in zip(slots, assignment, strict=True):
                hidden[seat][i] = c
            rest = pool - Counter(assignment)
            court = self.court if self.court is not None else tuple(rest.elements())
            aside = tuple(rest.elements()) if self.court is not None else ()
            state = State.position(
                self.names,
                self.variant,
                coins=self.coins,
                hidden=tuple(sort_cards(h) for h in hidden),
                face_up=self.face_up,
                court=sort_cards(court),
                aside=sort_cards(aside),
                to_move=self.to_move,
            )
            out.append(Hypothesis(state, p))
        merged: dict[State, Fraction] = {}
        for h in out:
            merged[h.state] = merged.get(h.state, Fraction(0)) + h.probability
        return [Hypothesis(s, p) for s, p in merged.items()]


def _assignments(pool: Counter[Character], total: int, slots: int) -> Iterator[tuple[tuple[Character, ...], Fraction]]:
    """Ordered draws of ``slots`` cards from ``pool`` without replacement, by character."""
    if slots == 0:
        yield (), Fraction(1)
        return
    kinds = sorted(pool)
    for combo in product(kinds, repeat=slots):
        counts = Counter(combo)
        if any(counts[c] > pool[c] for c in counts):
            continue
        ways = prod(pool[c] - k for i, c in enumerate(combo) for k in [combo[:i].count(c)])
        yield combo, Fraction(ways, prod(total - i for i in range(slots)))


def _card(word: object) -> Character:
    text = str(word)
    return UNKNOWN if text.strip() == "?" else Character.parse(text)


def _int(value: object, what: str) -> int:
    if not isinstance(value, int) or value < 0:
        raise ParseError(f"{what}: {value!r} is not a number of coins")
    return value
