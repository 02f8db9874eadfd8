"""Coup and Complots: the one rules engine (cards, rules as tables, moves, the immutable state,
the turn machine), and exact reasoning about it (turn templates, hidden-card endgames, the
draft, puzzle positions). No prompt, no person.

>>> from solver.coup import Character, Kind, Move, State, Variant
>>> s = State.from_text("ambassador Alice:1:DK:- Bob:2:A:C court=DDAACCKKBBB aside=- phase=action actor=Alice")
>>> s = s.apply(Move(Kind.TAX, 0)).apply(Move(Kind.PASS, 1))
>>> s.coins, s.current_player()
((4, 2), 1)
"""

from ..errors import GameError, IllegalMove, ImpossibleTable, ParseError
from ..game import play_random
from .cards import Character, Draft, Variant, deck
from .moves import CHANCE, NOBODY, TERMINAL, Move
from .rules import RULES, ActionRule, Blockers, Kind
from .state import After, Phase, State, Turn, new_game

__all__ = [
    "CHANCE",
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
