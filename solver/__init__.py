"""The rules engine of Coup and Complots, and exact reasoning about it. No I/O, no prompt.

>>> from solver import Character, Kind, Move, State, Variant
>>> s = State.from_text("ambassador Alice:1:DK:- Bob:2:A:C court=DDAACCKKBBB aside=- phase=action actor=Alice")
>>> s = s.apply(Move(Kind.TAX, 0)).apply(Move(Kind.PASS, 1))
>>> s.coins, s.current_player()
((4, 2), 1)
"""

from .cards import Character, Draft, Variant, deck
from .errors import CoupError, IllegalMove, ImpossibleTable, ParseError
from .moves import CHANCE, NOBODY, TERMINAL, Move
from .rules import RULES, ActionRule, Blockers, Kind
from .state import After, Phase, State, Turn, new_game, play_random

__all__ = [
    "CHANCE",
    "NOBODY",
    "RULES",
    "TERMINAL",
    "ActionRule",
    "After",
    "Blockers",
    "Character",
    "CoupError",
    "Draft",
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
