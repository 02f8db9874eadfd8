"""The games of the solver by name, as OpenSpiel's game registry: each game registers its
:class:`GameType` once, when its package is imported, and :func:`load_game` makes a
:class:`Game` from a name and parameters, whose :meth:`Game.new_initial_state` starts a game.
Every search, bot, playout and the conformance tests reach a game this way. A game is a
sub-package of :mod:`solver`; the registry imports them when asked for a game it does not know
yet, and names none itself.

>>> game = load_game("coup", players=4, variant="inquisitor")
>>> game
load_game('coup', players=4, variant='inquisitor')
>>> state = game.new_initial_state()
>>> state.is_chance_node(), game.num_players(), state.names
(True, 4, ('P1', 'P2', 'P3', 'P4'))
>>> load_game("coup", names=("Alice", "Bob"), draft="none").new_initial_state().turn.phase
Phase.DEAL
>>> sorted(registered())
['coup', 'spicy', 'tresor']
"""

from __future__ import annotations

import pkgutil
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from importlib import import_module
from typing import Any, TypeVar

from .errors import ParseError
from .game import GameState

T = TypeVar("T")


@dataclass(frozen=True)
class Parameter:
    """One parameter of a game besides its players: its ``default``, how a value given to
    :func:`load_game` is read (``read``: a word or the value itself, raises ParseError), and
    the values the conformance suite plays (``examples``, the default among them)."""

    default: object
    read: Callable[[Any], object]
    examples: tuple[object, ...] = ()


@dataclass(frozen=True)
class GameType:
    """What a game registers: its ``name`` (the record header's word), its ``title``, how many
    ``players`` it takes, its other ``parameters``, and ``start``, which makes the state before
    the first move from the players' names and the parameters' values. ``zero_sum``: the returns
    always sum to 0. ``max_chance_outcomes(players, parameters)``: at most how many outcomes a
    chance node of such a game has (OpenSpiel's ``MaxChanceOutcomes``; a full deal can have
    millions, to be sampled rather than listed)."""

    name: str
    title: str
    players: range
    start: Callable[..., GameState[Any]]
    parameters: Mapping[str, Parameter] = field(default_factory=dict)
    max_chance_outcomes: Callable[[int, Mapping[str, object]], int] = lambda players, parameters: 0
    zero_sum: bool = True

    def __repr__(self) -> str:
        return f"<GameType {self.name}: {self.title}, {self.players.start} to {self.players.stop - 1} players>"


@dataclass(frozen=True)
class Game:
    """A game with its parameters set, as OpenSpiel's: :meth:`new_initial_state` starts it."""

    type: GameType
    names: tuple[str, ...]
    parameters: Mapping[str, object]

    def new_initial_state(self) -> GameState[Any]:
        """The state before the first move (the deal to come, as chance's)."""
        return self.type.start(self.names, **self.parameters)

    def num_players(self) -> int:
        return len(self.names)

    def max_chance_outcomes(self) -> int:
        """At most how many outcomes a chance node of this game has."""
        return self.type.max_chance_outcomes(len(self.names), self.parameters)

    def __repr__(self) -> str:
        n = len(self.names)
        given = [f"players={n}" if self.names == default_names(n) else f"names={self.names}"]
        for name, value in self.parameters.items():
            if value != self.type.parameters[name].default:
                given.append(f"{name}={str(value)!r}" if isinstance(value, Enum) else f"{name}={value!r}")
        return f"load_game({self.type.name!r}, {', '.join(given)})"


def instance(kind: type[T]) -> Callable[[object], T]:
    """A :class:`Parameter`'s reader for values given only as objects of ``kind`` (a deck, a
    flag): the value itself, or :class:`~solver.errors.ParseError`.

    >>> instance(bool)(True)
    True
    >>> instance(bool)("yes")
    Traceback (most recent call last):
    ...
    solver.errors.ParseError: a bool, not 'yes'
    """

    def read(value: object) -> T:
        if not isinstance(value, kind):
            raise ParseError(f"a {kind.__name__}, not {value!r}", input=str(value))
        return value

    return read


_TYPES: dict[str, GameType] = {}


def register(game: GameType) -> GameType:
    """Add ``game`` to the registry (a game's package does it once, on import)."""
    _TYPES[game.name] = game
    return game


def registered() -> dict[str, GameType]:
    """Every game of the solver: its sub-packages are imported (each registers itself)."""
    package = import_module(__package__ or "solver")
    for module in pkgutil.iter_modules(package.__path__):
        if module.ispkg:
            import_module(f"{package.__name__}.{module.name}")
    return dict(_TYPES)


def default_names(players: int) -> tuple[str, ...]:
    """The players' names when only their number is given: ``P1``, ``P2``..."""
    return tuple(f"P{seat}" for seat in range(1, players + 1))


def load_game(
    name: str, *, players: int | None = None, names: Sequence[str] | None = None, **parameters: object
) -> Game:
    """The game ``name`` with ``players`` players (or the players ``names``; the smallest
    number the game takes by default) and its other parameters (each a value or its word;
    the defaults for the others). Raises :class:`~solver.errors.ParseError` for an unknown
    game, player count or parameter.

    >>> load_game("chess")
    Traceback (most recent call last):
    ...
    solver.errors.ParseError: unknown game 'chess' (coup, spicy, tresor)
    >>> load_game("coup", players=9)
    Traceback (most recent call last):
    ...
    solver.errors.ParseError: coup is played by 2 to 8 players, not 9
    """
    kind = _TYPES.get(name) or registered().get(name)
    if kind is None:
        raise ParseError(f"unknown game {name!r} ({', '.join(sorted(_TYPES))})", input=name)
    seats = tuple(names) if names is not None else default_names(players or kind.players.start)
    if players is not None and players != len(seats):
        raise ParseError(f"{len(seats)} names for {players} players", input=str(players))
    if len(seats) not in kind.players:
        least, most = kind.players.start, kind.players.stop - 1
        raise ParseError(f"{name} is played by {least} to {most} players, not {len(seats)}", input=str(len(seats)))
    unknown = sorted(set(parameters) - set(kind.parameters))
    if unknown:
        raise ParseError(f"{name} has no parameter {unknown[0]!r} ({', '.join(kind.parameters)})", input=unknown[0])
    values = {key: p.read(parameters[key]) if key in parameters else p.default for key, p in kind.parameters.items()}
    return Game(kind, seats, values)


__all__ = ["Game", "GameType", "Parameter", "default_names", "instance", "load_game", "register", "registered"]
