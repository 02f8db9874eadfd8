"""The interface every game's state offers, in OpenSpiel's shape, so that any search, playout
or property test drives any game.

A state is immutable and hashable. ``current_player()`` is a seat number, :data:`CHANCE` at a
chance node or :data:`TERMINAL` once the game is over; ``legal_moves()`` lists the moves in a
fixed order (at a chance node, the outcomes); ``apply(move)`` returns the next state or raises
:class:`~solver.errors.IllegalMove`; ``chance_outcomes()`` gives each outcome with its exact
probability; ``returns()`` the result per seat once the game is over.

What every game shares is written here once: who is to move (:func:`current_player`), the
zero-sum result (:func:`shared_returns`) and the one loop that plays a game on (:func:`play`:
chance by its probabilities, decisions by a chooser, observers told each move), which
:func:`play_random`, the bots, the demos and the random records all use.

>>> import random
>>> from solver.coup import new_game
>>> end, moves = play_random(new_game(("Alice", "Bob", "Carol")), random.Random(3))
>>> end.is_terminal(), sum(end.returns())
(True, Fraction(0, 1))
"""

from __future__ import annotations

import random
from collections.abc import Callable, Collection, Iterable, Sequence
from fractions import Fraction
from typing import Any, Protocol, Self, TypeVar

CHANCE = -1
"""The player id of chance nodes (as OpenSpiel's ``kChancePlayerId``)."""
TERMINAL = -4
"""The player id of terminal states (as OpenSpiel's ``kTerminalPlayerId``)."""
NOBODY = -3
"""No seat, in a move's or a turn's seat field (no target, no blocker, a table event's player,
the start card's owner): OpenSpiel's ``kInvalidPlayer``, never a player id that
``current_player`` returns."""

M = TypeVar("M")


class GameState(Protocol[M]):
    """What a game's state offers (OpenSpiel's shape)."""

    def current_player(self) -> int:
        """The seat to decide, :data:`CHANCE`, or :data:`TERMINAL`."""
        ...

    def is_chance_node(self) -> bool: ...

    def is_terminal(self) -> bool: ...

    def legal_moves(self) -> Sequence[M]:
        """Every legal move in a fixed order (at a chance node, every outcome)."""
        ...

    def apply(self, move: M) -> Self:
        """The state after ``move``; raises :class:`~solver.errors.IllegalMove`."""
        ...

    def chance_outcomes(self) -> Sequence[tuple[M, Fraction]]:
        """At a chance node, every outcome with its exact probability (they sum to 1)."""
        ...

    def sample_chance(self, rng: random.Random) -> M:
        """At a chance node, one outcome drawn with the probabilities of :meth:`chance_outcomes`."""
        ...

    def returns(self) -> Sequence[Fraction]:
        """The result per seat once the game is over (zeros before)."""
        ...


S = TypeVar("S", bound=GameState)  # type: ignore[type-arg]

Chooser = Callable[[S, random.Random], M]
"""Decides a move at a decision node: ``choose(state, rng)`` returns one of the legal moves."""
Observer = Callable[[S, M, S], None]
"""Told every move once it is played: ``observe(before, move, after)``."""


class Staged(Protocol):
    """What :func:`current_player` reads of a state."""

    def is_chance_node(self) -> bool: ...

    def is_terminal(self) -> bool: ...


def current_player(state: Staged, decider: int) -> int:
    """OpenSpiel's ``current_player``: :data:`TERMINAL` once ``state`` is over, :data:`CHANCE`
    at a chance node, else ``decider`` (the seat the game's turn names).

    >>> from solver.coup import new_game
    >>> current_player(new_game(("Alice", "Bob")), 0)
    -1
    """
    if state.is_terminal():
        return TERMINAL
    if state.is_chance_node():
        return CHANCE
    return decider


def shared_returns(players: int, winners: Collection[int]) -> tuple[Fraction, ...]:
    """The returns of a zero-sum game: the ``winners`` share +1 and the others share -1; all
    zeros when nobody has won yet (the game goes on) or everybody ties.

    >>> shared_returns(3, (1,))
    (Fraction(-1, 2), Fraction(1, 1), Fraction(-1, 2))
    >>> shared_returns(2, ()) == shared_returns(2, (0, 1)) == (0, 0)
    True
    """
    w = len(winners)
    if not w or w == players:
        return (Fraction(0),) * players
    win, lose = Fraction(1, w), Fraction(-1, players - w)
    return tuple(win if seat in winners else lose for seat in range(players))


class Unfinished(RuntimeError):
    """A playout that did not end within its move limit (adversarial play may loop: a draw)."""


def uniform(state: GameState[M], rng: random.Random) -> M:
    """A uniformly random legal move (the chooser of :func:`play_random`)."""
    moves = state.legal_moves()
    return moves[int(rng.random() * len(moves))]


def play(
    state: S,
    choose: Chooser[S, M],
    rng: random.Random,
    observers: Iterable[Observer[S, M]] = (),
    max_moves: int = 100_000,
    stop: Callable[[S], bool] | None = None,
) -> tuple[S, int]:
    """Play on from ``state``: chance by its probabilities (``sample_chance``), each decision by
    ``choose(state, rng)``, every observer told ``(before, move, after)`` once a move is played.
    Stops when the game is over, when ``stop(state)`` holds, or after ``max_moves`` moves (the
    caller tells a draw by the state not being terminal). Returns the last state and the number
    of moves played. The one play loop of the house: playouts, bots, demos and records use it.

    >>> from solver.coup import new_game
    >>> told = []
    >>> end, count = play(new_game(("Alice", "Bob")), uniform, random.Random(1),
    ...                   [lambda before, move, after: told.append(move)], max_moves=3)
    >>> count, len(told), end.is_terminal()
    (3, 3, False)
    """
    seen = tuple(observers)
    count = 0
    while count < max_moves and not state.is_terminal() and not (stop is not None and stop(state)):
        move = state.sample_chance(rng) if state.is_chance_node() else choose(state, rng)
        after = state.apply(move)
        for observe in seen:
            observe(state, move, after)
        state = after
        count += 1
    return state, count


def repeated(times: int = 3) -> Callable[[Any], bool]:
    """A ``stop`` for :func:`play`: true once the same state has occurred ``times`` times (the
    game then goes round a loop, as deterministic bots can: a draw by repetition, as in chess).
    Each call counts one occurrence, so use a new one for each game.

    >>> stop = repeated(2)
    >>> [stop(s) for s in ("a", "b", "a")]
    [False, False, True]
    """
    seen: dict[Any, int] = {}

    def stop(state: Any) -> bool:
        seen[state] = count = seen.get(state, 0) + 1
        return count >= times

    return stop


def play_random(state: S, rng: random.Random, max_moves: int = 100_000) -> tuple[S, int]:
    """Play uniformly random legal moves (chance by its probabilities) until the game ends.

    Returns the final state and the number of moves applied. Raises :class:`Unfinished` if
    ``max_moves`` is exceeded (random play ends long before).
    """
    end, count = play(state, uniform, rng, max_moves=max_moves)
    if not end.is_terminal():
        raise Unfinished(f"no end after {max_moves} moves: {end!r}")
    return end, count
