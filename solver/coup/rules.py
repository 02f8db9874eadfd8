"""The rules as data: what each action costs, claims, targets, and who may block it with what.

Everything the engine decides about an action comes from :data:`RULES`; nowhere else in the
project should test ``action == STEAL``.

>>> RULES[Variant.AMBASSADOR][Kind.STEAL].block_with
(Character.CAPTAIN, Character.AMBASSADOR)
>>> RULES[Variant.INQUISITOR][Kind.EXCHANGE].claim
Character.INQUISITOR
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

from .cards import Character, Variant


class Kind(IntEnum):
    """What a move does. Actions come first, in the order of the action table of rules.md
    (the order ties are broken in); then the responses; then the chance outcomes."""

    INCOME = 0
    AID = 1
    COUP = 2
    TAX = 3
    ASSASSINATE = 4
    STEAL = 5
    EXCHANGE = 6
    EXAMINE = 7
    PASS = 8
    CHALLENGE = 9
    BLOCK = 10
    PROVE = 11
    LOSE = 12
    KEEP = 13
    SHOW = 14
    SWAP = 15
    RETURN = 16
    PICK = 17
    DRAW = 18
    DEAL = 19

    def __repr__(self) -> str:
        return f"Kind.{self.name}"

    def __str__(self) -> str:
        return self.name.lower()

    @property
    def is_action(self) -> bool:
        """True for the eight actions a player takes on their turn."""
        return self <= Kind.EXAMINE


ACTIONS = tuple(k for k in Kind if k.is_action)


class Blockers(IntEnum):
    """Who may block an action."""

    NOBODY = 0
    ANYONE = 1  # any other living player (foreign aid)
    TARGET = 2  # the target only


@dataclass(frozen=True)
class ActionRule:
    """One row of the action table of rules.md, for one variant."""

    action: Kind
    cost: int
    claim: Character | None
    targeted: bool
    blockers: Blockers
    block_with: tuple[Character, ...]
    words: str = ""  # the effect in words, for messages and help, when it is not a gain
    gain: int = 0  # coins the action brings its actor when it takes effect

    @property
    def effect(self) -> str:
        """The effect in words: ``'+2 coins'``, ``'target loses an influence'``."""
        return f"+{self.gain} coin{'s' if self.gain > 1 else ''}" if self.gain else self.words


COUP_COST = 7
ASSASSINATE_COST = 3
FORCED_COUP_COINS = 10
STEAL_AMOUNT = 2


def stolen(coins: int) -> int:
    """What a steal takes from a target who has ``coins``: all of them, up to :data:`STEAL_AMOUNT`.

    >>> stolen(1), stolen(5)
    (1, 2)
    """
    return min(coins, STEAL_AMOUNT)


def _table(variant: Variant) -> dict[Kind, ActionRule]:
    exchanger = variant.exchanger
    rows = (
        ActionRule(Kind.INCOME, 0, None, False, Blockers.NOBODY, (), gain=1),
        ActionRule(Kind.AID, 0, None, False, Blockers.ANYONE, (Character.DUKE,), gain=2),
        ActionRule(Kind.COUP, COUP_COST, None, True, Blockers.NOBODY, (), "target loses an influence"),
        ActionRule(Kind.TAX, 0, Character.DUKE, False, Blockers.NOBODY, (), gain=3),
        ActionRule(
            Kind.ASSASSINATE,
            ASSASSINATE_COST,
            Character.ASSASSIN,
            True,
            Blockers.TARGET,
            (Character.CONTESSA,),
            "target loses an influence",
        ),
        ActionRule(
            Kind.STEAL,
            0,
            Character.CAPTAIN,
            True,
            Blockers.TARGET,
            (Character.CAPTAIN, exchanger),
            f"take up to {STEAL_AMOUNT} coins from the target",
        ),
        ActionRule(Kind.EXCHANGE, 0, exchanger, False, Blockers.NOBODY, (), "exchange cards with the court"),
        ActionRule(Kind.EXAMINE, 0, Character.INQUISITOR, True, Blockers.NOBODY, (), "look at a card of the target"),
    )
    return {row.action: row for row in rows if row.action is not Kind.EXAMINE or variant is Variant.INQUISITOR}


RULES: dict[Variant, dict[Kind, ActionRule]] = {v: _table(v) for v in Variant}
"""``RULES[variant][action]``: the row of the action table. Examine exists only with the inquisitor."""
