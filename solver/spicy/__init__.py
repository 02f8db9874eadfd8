"""Spicy: the rules engine (cards and the deck as data, claims and truth as tables, moves, the
immutable state, the turn machine) and the exact odds of a claim. No prompt, no person.

>>> import random
>>> from solver.spicy import new_game, play_random
>>> end, moves = play_random(new_game(("Ana", "Ben", "Cleo")), random.Random(7))
>>> end.is_terminal(), sum(end.returns()), sum(len(c) for c in (*end.hands, *end.won, end.draw)) + end.pile_size
(True, Fraction(0, 1), 100)
"""

from ..errors import GameError, IllegalMove, ImpossibleTable, ParseError
from ..game import play_random
from ..registry import GameType, Parameter, instance, register
from .cards import DECK, UNKNOWN, WILD_NUMBER, WILD_SPICE, Card, CardKind, Deck, Spice
from .moves import CHANCE, NOBODY, TERMINAL, Kind, Move
from .rules import SCORE, Claim, Draw, Trait, legal_claims, refusal, score, true_on, true_on_both
from .state import HIDDEN, End, Phase, State, Top, Turn, new_game

_deck = instance(Deck)


GAME = register(
    GameType(
        "spicy",
        "Spicy",
        range(DECK.min_players, DECK.max_players + 1),
        new_game,
        {"deck": Parameter(DECK, _deck, (DECK,)), "public": Parameter(False, instance(bool), (False,))},
        max_chance_outcomes=lambda players, parameters: len(_deck(parameters["deck"]).kinds) + 1,
    )
)
"""Spicy in the solver's registry: ``load_game("spicy", players=3)``; a smaller deck with
``deck=Deck(...)``, a viewer's game (every card unknown) with ``public=True``."""

__all__ = [
    "CHANCE",
    "DECK",
    "GAME",
    "HIDDEN",
    "NOBODY",
    "SCORE",
    "TERMINAL",
    "UNKNOWN",
    "WILD_NUMBER",
    "WILD_SPICE",
    "Card",
    "CardKind",
    "Claim",
    "Deck",
    "Draw",
    "End",
    "GameError",
    "IllegalMove",
    "ImpossibleTable",
    "Kind",
    "Move",
    "ParseError",
    "Phase",
    "Spice",
    "State",
    "Top",
    "Trait",
    "Turn",
    "legal_claims",
    "new_game",
    "play_random",
    "refusal",
    "score",
    "true_on",
    "true_on_both",
]
