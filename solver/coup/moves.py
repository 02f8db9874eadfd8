"""Moves: every decision a player makes and every chance outcome, as one small immutable value.

Players are seat numbers (0 is the first player); names belong to the state.

>>> Move(Kind.STEAL, 0, target=1).text(("Alice", "Bob"))
'Alice steal Bob'
>>> Move(Kind.BLOCK, 1, cards=(Character.CONTESSA,))
Move(Kind.BLOCK, 1, cards=(Character.CONTESSA,))
"""

from __future__ import annotations

from typing import NamedTuple

from ..game import CHANCE, NOBODY, TERMINAL
from .cards import Character
from .rules import Kind

__all__ = ["CHANCE", "NOBODY", "TERMINAL", "Move"]


class Move(NamedTuple):
    """One move: ``kind`` done by seat ``player``, aimed at seat ``target``, naming ``cards``.

    ``cards`` holds the card(s) a move names: the block's character, the card proved, lost,
    shown or picked, the cards kept, the cards drawn (sorted), or the whole deal.
    """

    kind: Kind
    player: int
    target: int = NOBODY
    cards: tuple[Character, ...] = ()

    def __repr__(self) -> str:
        parts = [repr(self.kind), str(self.player)]
        if self.target != NOBODY:
            parts.append(f"target={self.target}")
        if self.cards:
            inside = ", ".join(repr(c) for c in self.cards)
            parts.append(f"cards=({inside}{',' if len(self.cards) == 1 else ''})")
        return f"Move({', '.join(parts)})"

    @property
    def card(self) -> Character:
        """The one card this move names (block, prove, lose, show, pick, a single draw)."""
        return self.cards[0]

    def text(self, names: tuple[str, ...]) -> str:
        """Return this move in the words of the table language, e.g. ``'Bob block contessa'``."""
        if self.kind is Kind.DEAL:
            size = max(1, len(self.cards) // len(names))
            hands = (self.cards[i : i + size] for i in range(0, len(self.cards), size))
            return "deal " + ", ".join(
                f"{name} {' '.join(c.name_en for c in hand)}" for name, hand in zip(names, hands, strict=False)
            )
        words = [names[self.player], _WORD[self.kind]]
        if self.target != NOBODY:
            words.append(names[self.target])
        words.extend(c.name_en for c in self.cards)
        return " ".join(words)


_WORD = {kind: str(kind) for kind in Kind}
_WORD[Kind.PROVE] = "show"
