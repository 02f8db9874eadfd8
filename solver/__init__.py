"""Rules and exact reasoning for the games of the house: no prompt, no person, no file but the
solver's own data.

Game-free parts live here: :mod:`solver.errors` (one hierarchy of errors), :mod:`solver.game`
(the interface every game's state offers, in OpenSpiel's shape), :mod:`solver.graph` and
:mod:`solver.values` (exact values of 2-player stochastic games with their certificate),
:mod:`solver.sequence` (games with imperfect information in sequence form, built from states
and what each player observes), :mod:`solver.equilibrium` (their exact, verified equilibria) and
:mod:`solver.counting` (exact counting of copies). Each game is one folder: :mod:`solver.coup`.

>>> from solver import GameError, IllegalMove
>>> issubclass(IllegalMove, GameError)
True
>>> load_game("spicy", players=3).new_initial_state().current_player() == CHANCE
True
"""

from .errors import (
    GameError,
    IllegalMove,
    ImpossibleTable,
    NotCertified,
    ParseError,
    RecordError,
    TooLarge,
    Unsupported,
)
from .game import CHANCE, TERMINAL, GameState, play, play_random
from .registry import Game, GameType, load_game

__all__ = [
    "CHANCE",
    "TERMINAL",
    "Game",
    "GameError",
    "GameState",
    "GameType",
    "IllegalMove",
    "ImpossibleTable",
    "NotCertified",
    "ParseError",
    "RecordError",
    "TooLarge",
    "Unsupported",
    "load_game",
    "play",
    "play_random",
]
