"""Two-player zero-sum games with imperfect information in sequence form (Koller, Megiddo and
von Stengel), built from any game's OpenSpiel-shaped states and an observation function.

A player's *information set* is the sequence of what that player has observed so far (perfect
recall): two histories with equal observation sequences are one decision for that player. A
*sequence* is a player's own path of choices (information set, action); the sequences are
numbered per player in the order they are met, 0 being the empty one, so that a sequence's
information sets come after it. Each leaf adds its chance-weighted payoff (to player 0, who
maximises) to the payoff entry of its two players' sequences; leaves of equal sequences share
one entry.

A decision with a single legal move is no decision: the move is played, observed, and no
information set is made (a forced coup, the only card one can lose).

>>> from fractions import Fraction
>>> tree = Tree()
>>> h = tree.infoset(0, "deal", 0, ("heads", "tails"))
>>> g = tree.infoset(1, "deal", 0, ("heads", "tails"))
>>> for a in range(2):
...     for b in range(2):
...         tree.leaf(tree.first[0][h] + a, tree.first[1][g] + b, Fraction(1 if a == b else -1))
>>> tree.sequences
(3, 3)
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from fractions import Fraction
from typing import Any, Protocol

from flint import fmpq

from .errors import GameError


class History(Protocol):
    """What :func:`build` asks of a game's state: OpenSpiel's shape (:class:`solver.game.GameState`)
    without sampling; ``returns()`` may hold Fractions or python-flint rationals."""

    def current_player(self) -> int: ...

    def is_chance_node(self) -> bool: ...

    def is_terminal(self) -> bool: ...

    def legal_moves(self) -> Sequence[Any]: ...

    def chance_outcomes(self) -> Sequence[tuple[Any, Any]]: ...

    def apply(self, move: Any) -> History: ...

    def returns(self) -> Sequence[Any]: ...


Observe = Callable[[Any, Any, int], Hashable]
"""observe(state, move, player): what ``player`` sees of ``move`` played at ``state``."""


class Tree:
    """A game in sequence form: per player, the information sets (parent sequence, first
    sequence of their actions, the moves), and the payoff of each pair of sequences that ends in
    a leaf, chance-weighted (to player 0).

    Information sets are numbered in the order they are met, so reversing it goes from the
    leaves up (every information set after its parent sequence's)."""

    def __init__(self) -> None:
        self.parent: tuple[list[int], list[int]] = ([], [])
        self.first: tuple[list[int], list[int]] = ([], [])
        self.moves: tuple[list[Sequence[Any]], list[Sequence[Any]]] = ([], [])
        self.keys: tuple[list[Hashable], list[Hashable]] = ([], [])
        self.index: tuple[dict[Hashable, int], dict[Hashable, int]] = ({}, {})
        self.owner: tuple[list[int], list[int]] = ([-1], [-1])  # sequence -> information set
        self.payoff: dict[tuple[int, int], Any] = {}
        self.nodes = 0
        self._floats: dict[tuple[int, int], float] | None = None
        self.observations: list[tuple[int, Hashable]] = [(0, None)]  # id -> (previous id, token)

    def observed(self, player: int, h: int) -> tuple[Hashable, ...]:
        """What ``player`` had observed at information set ``h`` (built by :func:`build`), in order."""
        out = []
        k = self.keys[player][h]
        assert isinstance(k, int)
        while k:
            k, token = self.observations[k]
            out.append(token)
        return tuple(reversed(out))

    def find(self, player: int, observed: tuple[Hashable, ...]) -> int:
        """The information set of ``player`` after the observations ``observed``; raises KeyError."""
        for h in range(len(self.parent[player])):
            if self.observed(player, h) == observed:
                return h
        raise KeyError(observed)

    def __repr__(self) -> str:
        return f"<Tree {self.sequences} sequences, {self.infosets} information sets, {len(self.payoff)} payoffs>"

    @property
    def sequences(self) -> tuple[int, int]:
        return (len(self.owner[0]), len(self.owner[1]))

    @property
    def infosets(self) -> tuple[int, int]:
        return (len(self.parent[0]), len(self.parent[1]))

    def infoset(self, player: int, key: Hashable, parent: int, moves: Sequence[Any]) -> int:
        """The information set ``key`` of ``player``, reached after sequence ``parent`` and
        offering ``moves``: made the first time, checked after (perfect recall, same moves).
        Raises :class:`GameError` when the game's observations do not give perfect recall."""
        found = self.index[player].get(key)
        if found is not None:
            if self.parent[player][found] != parent or len(self.moves[player][found]) != len(moves):
                raise GameError(f"information set {key!r} of player {player} breaks perfect recall")
            return found
        h = len(self.parent[player])
        self.index[player][key] = h
        self.parent[player].append(parent)
        self.first[player].append(len(self.owner[player]))
        self.moves[player].append(moves)
        self.keys[player].append(key)
        self.owner[player].extend([h] * len(moves))
        return h

    def float_payoff(self) -> dict[tuple[int, int], float]:
        """The payoffs in floats (computed once)."""
        if self._floats is None or len(self._floats) != len(self.payoff):
            self._floats = {k: float(v) for k, v in self.payoff.items()}
        return self._floats

    def leaf(self, s0: int, s1: int, payoff: Any) -> None:
        """Add a leaf's chance-weighted payoff to player 0 (a Fraction or an fmpq)."""
        key = (s0, s1)
        found = self.payoff.get(key)
        self.payoff[key] = payoff if found is None else found + payoff

    def actions(self, player: int, h: int) -> range:
        """The sequences of information set ``h``'s actions."""
        start = self.first[player][h]
        return range(start, start + len(self.moves[player][h]))

    def children(self, player: int) -> list[list[int]]:
        """Per sequence, the information sets right after it."""
        out: list[list[int]] = [[] for _ in self.owner[player]]
        for h, parent in enumerate(self.parent[player]):
            out[parent].append(h)
        return out


def build(root: History, observe: Observe) -> Tree:
    """The sequence form of the two-player game from ``root``: every history walked once,
    chance weighted by its exact probabilities (an fmpq per leaf), information sets keyed on
    each player's observation sequence. ``returns()[0]`` of a terminal state is player 0's
    payoff. Raises :class:`GameError` if the observations break perfect recall.
    """
    tree = Tree()
    seen: dict[tuple[int, Hashable], int] = {}
    inverse = tree.observations
    one = fmpq(1)

    def history(previous: int, token: Hashable) -> int:
        k = (previous, token)
        found = seen.get(k)
        if found is None:
            found = seen[k] = len(inverse)
            inverse.append(k)
        return found

    def visit(state: Any, weight: fmpq, s0: int, s1: int, o0: int, o1: int) -> None:
        tree.nodes += 1
        if state.is_terminal():
            value = state.returns()[0]
            if value:
                tree.leaf(s0, s1, weight * _q(value))
            return
        if state.is_chance_node():
            for move, p in state.chance_outcomes():
                child = state.apply(move)
                visit(
                    child,
                    weight * _q(p),
                    s0,
                    s1,
                    history(o0, observe(state, move, 0)),
                    history(o1, observe(state, move, 1)),
                )
            return
        moves = state.legal_moves()
        player = state.current_player()
        if len(moves) == 1:
            move = moves[0]
            visit(
                state.apply(move),
                weight,
                s0,
                s1,
                history(o0, observe(state, move, 0)),
                history(o1, observe(state, move, 1)),
            )
            return
        mine = o0 if player == 0 else o1
        h = tree.infoset(player, mine, s0 if player == 0 else s1, moves)
        start = tree.first[player][h]
        for a, move in enumerate(moves):
            n0, n1 = history(o0, observe(state, move, 0)), history(o1, observe(state, move, 1))
            if player == 0:
                visit(state.apply(move), weight, start + a, s1, n0, n1)
            else:
                visit(state.apply(move), weight, s0, start + a, n0, n1)

    visit(root, one, 0, 0, 0, 0)
    return tree


def _q(value: Any) -> fmpq:
    if isinstance(value, fmpq):
        return value
    if isinstance(value, int):
        return fmpq(value)
    f = Fraction(value)
    return fmpq(f.numerator, f.denominator)
