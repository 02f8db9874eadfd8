"""Moves: every decision a player makes, every chance outcome and every event the table
reports, as one small immutable value. Players are seat numbers; names belong to the state.

>>> from solver.spicy.cards import Card, Spice
>>> names = ("Ana", "Ben")
>>> Move(Kind.PLAY, 0, card=Card.parse("chili-3"), claim=Claim(Spice.CHILI, 2)).text(names)
'Ana play chili-3 as chili 2'
>>> Move(Kind.CHALLENGE, 1, trait=Trait.NUMBER)
Move(Kind.CHALLENGE, 1, trait=Trait.NUMBER)
"""

from __future__ import annotations

from enum import IntEnum
from typing import NamedTuple

from ..game import CHANCE, NOBODY, TERMINAL
from .cards import Card
from .rules import Claim, Trait

__all__ = ["CHANCE", "NOBODY", "TERMINAL", "Kind", "Move"]


class Kind(IntEnum):
    """What a move does: the decisions first, then chance outcomes and table events."""

    PLAY = 0  # the player to move lays a card face down with a claim
    PASS = 1  # the player to move passes and draws 1
    DECLINE = 2  # a window's decider lets the top card stand
    CHALLENGE = 3  # a window's decider challenges the top card, naming a trait
    TAKE_BACK = 4  # the last card's player forgot to announce it: it returns, and they pass
    DEAL = 5  # chance: one card of the deal to a seat
    DRAW = 6  # chance: one card drawn by a seat
    REVEAL = 7  # chance for a viewer: the challenged card turns out to be this one
    WORLDS_END = 8  # the table reports World's End on top of the draw pile (public states)

    def __repr__(self) -> str:
        return f"Kind.{self.name}"

    def __str__(self) -> str:
        return _WORD[self]


_WORD = {kind: kind.name.lower().replace("_", "-") for kind in Kind}


class Move(NamedTuple):
    """One move: ``kind`` done by seat ``player``; ``card`` played, dealt, drawn or revealed;
    ``claim`` announced with a play; ``trait`` named by a challenge."""

    kind: Kind
    player: int
    card: Card | None = None
    claim: Claim | None = None
    trait: Trait | None = None

    def __repr__(self) -> str:
        parts = [repr(self.kind), str(self.player)]
        for field in ("card", "claim", "trait"):
            value = getattr(self, field)
            if value is not None:
                parts.append(f"{field}={value!r}")
        return f"Move({', '.join(parts)})"

    def text(self, names: tuple[str, ...]) -> str:
        """This move in the words of the table language: ``'Ben play chili 5'``,
        ``'Dan challenge number'``, ``'reveal wasabi-5'``, ``'worlds-end'``."""
        who = names[self.player] if 0 <= self.player < len(names) else "?"
        card = self.card.text() if self.card is not None else "?"
        if self.kind is Kind.PLAY:
            claim = self.claim.text() if self.claim is not None else "?"
            if self.card is None or not self.card.is_known:
                return f"{who} play {claim}"
            return f"{who} play {card} as {claim}"
        if self.kind is Kind.CHALLENGE:
            return f"{who} challenge {self.trait if self.trait is not None else '?'}"
        if self.kind is Kind.DEAL:
            return f"deal {who} {card}"
        if self.kind is Kind.DRAW:
            return f"{who} draw {card}"
        if self.kind is Kind.REVEAL:
            return f"reveal {card}"
        if self.kind is Kind.WORLDS_END:
            return "worlds-end"
        return f"{who} {self.kind}"
