"""The interface every game's state offers, in OpenSpiel's shape, so that any search, playout
or property test drives any game.

A state is immutable and hashable. ``current_player()`` is a seat number, :data:`CHANCE` at a
chance node or :data:`TERMINAL` once the game is over; ``legal_moves()`` lists the moves in a
fixed order (at a chance node, the outcomes); ``apply(move)`` returns the next state or raises
:class:`~solver.errors.IllegalMove`; ``chance_outcomes()`` gives each outcome with its exact
probability; ``returns()`` the result per seat once the game is over.

>>> import random
>>> from solver.coup import new_game
>>> end, moves = play_random(new_game(("Alice", "Bob", "Carol")), random.Random(3))
>>> end.is_terminal(), sum(end.returns())
(True, Fraction(0, 1))
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from fractions import Fraction
from typing import Protocol, Self, TypeVar

CHANCE = -1
"""The player id of chance nodes (as OpenSpiel's ``kChancePlayerId``)."""
TERMINAL = -4
"""The player id of terminal states (as OpenSpiel's ``kTerminalPlayerId``)."""

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


class Unfinished(RuntimeError):
    """A playout that did not end within its move limit (adversarial play may loop: a draw)."""


def play_random(state: S, rng: random.Random, max_moves: int = 100_000) -> tuple[S, int]:
    """Play uniformly random legal moves (chance by its probabilities) until the game ends.

    Returns the final state and the number of moves applied. Raises :class:`Unfinished` if
    ``max_moves`` is exceeded (random play ends long before).
    """
    for count in range(max_moves):
        if state.is_terminal():
            return state, count
        if state.is_chance_node():
            state = state.apply(state.sample_chance(rng))
        else:
            moves = state.legal_moves()
            state = state.apply(moves[int(rng.random() * len(moves))])
    raise Unfinished(f"no end after {max_moves} moves: {state!r}")
