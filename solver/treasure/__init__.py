"""Conquêtes et chasse au trésor: the cards, the domain, the bids, the rules as tables, the
immutable state and the turn machine (OpenSpiel's shape), and the exact counting from a seat.
No prompt, no person.

>>> import random
>>> from solver.treasure import new_game, play_random
>>> end, _ = play_random(new_game(("Ana", "Ben", "Cleo")), random.Random(1))
>>> end.is_terminal(), len(end.final()), sum(end.returns())
(True, 3, Fraction(0, 1))
"""

from ..errors import GameError, IllegalMove, ImpossibleTable, ParseError
from ..game import NOBODY, play_random
from ..registry import GameType, Parameter, instance, register
from .bids import Bid
from .cards import STANDARD, UNKNOWN, Card, Deck
from .domain import Domain, Tile
from .moves import CHANCE, TERMINAL, Kind, Move
from .odds import BidValue, PlacementValue, bid_values, placement_values, treasure_cells, treasure_odds
from .rules import MAX_PLAYERS, MIN_PLAYERS, Marker
from .score import Score
from .state import Phase, State, Turn, new_game

_deck = instance(Deck)


GAME = register(
    GameType(
        "tresor",
        "Conquêtes et chasse au trésor",
        range(MIN_PLAYERS, MAX_PLAYERS + 1),
        new_game,
        {"deck": Parameter(STANDARD, _deck, (STANDARD,))},
        max_chance_outcomes=lambda players, parameters: len(_deck(parameters["deck"]).kinds()),
    )
)
"""The treasure game in the solver's registry: ``load_game("tresor", players=5)``."""

__all__ = [
    "CHANCE",
    "GAME",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "NOBODY",
    "STANDARD",
    "TERMINAL",
    "UNKNOWN",
    "Bid",
    "BidValue",
    "Card",
    "Deck",
    "Domain",
    "GameError",
    "IllegalMove",
    "ImpossibleTable",
    "Kind",
    "Marker",
    "Move",
    "ParseError",
    "Phase",
    "PlacementValue",
    "Score",
    "State",
    "Tile",
    "Turn",
    "bid_values",
    "new_game",
    "placement_values",
    "play_random",
    "treasure_cells",
    "treasure_odds",
]
