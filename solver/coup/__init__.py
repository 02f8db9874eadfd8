"""Coup and Complots: the one rules engine (cards, rules as tables, moves, the immutable state,
the turn machine), and exact reasoning about it (turn templates, hidden-card endgames, the
draft, puzzle positions). No prompt, no person.

>>> from solver.coup import Character, Kind, Move, State, Variant
>>> s = State.from_text("ambassador Alice:1:DK:- Bob:2:A:C court=DDAACCKKBBB aside=- phase=action actor=Alice")
>>> s = s.apply(Move(Kind.TAX, 0)).apply(Move(Kind.PASS, 1))
>>> s.coins, s.current_player()
((4, 2), 1)
"""

from math import comb

from ..errors import GameError, IllegalMove, ImpossibleTable, ParseError
from ..game import play_random
from ..registry import GameType, Parameter, register
from .cards import MAX_PLAYERS, MIN_PLAYERS, Character, Draft, Variant, deck
from .moves import CHANCE, NOBODY, TERMINAL, Move
from .rules import RULES, ActionRule, Blockers, Kind
from .state import After, Phase, State, Turn, new_game


def _variant(value: object) -> Variant:
    return value if isinstance(value, Variant) else Variant.parse(str(value))


def _draft(value: object) -> Draft:
    return value if isinstance(value, Draft) else Draft.parse(str(value))


def _pairs(variant: Variant) -> int:
    """The pairs of characters one seat can be dealt: a full deal has at most this many outcomes
    per seat (15 with 5 characters)."""
    return comb(len(variant.characters) + 1, 2)


GAME = register(
    GameType(
        "coup",
        "Coup and Complots",
        range(MIN_PLAYERS, MAX_PLAYERS + 1),
        new_game,
        {
            "variant": Parameter(Variant.AMBASSADOR, _variant, tuple(Variant)),
            "draft": Parameter(Draft.DEALT_FIRST, _draft, tuple(Draft)),
        },
        max_chance_outcomes=lambda players, parameters: _pairs(_variant(parameters["variant"])) ** players,
    )
)
"""Coup in the solver's registry: ``load_game("coup", players=4, variant="inquisitor")``."""

__all__ = [
    "CHANCE",
    "GAME",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "NOBODY",
    "RULES",
    "TERMINAL",
    "ActionRule",
    "After",
    "Blockers",
    "Character",
    "Draft",
    "GameError",
    "IllegalMove",
    "ImpossibleTable",
    "Kind",
    "Move",
    "ParseError",
    "Phase",
    "State",
    "Turn",
    "Variant",
    "deck",
    "new_game",
    "play_random",
]
