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

import gc
from collections.abc import Callable, Hashable, Sequence
from fractions import Fraction
from typing import Any, Protocol

from flint import fmpq

from .errors import GameError, TooLarge


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
        self.tagged: list[dict[tuple[int, int], Any]] | None = None  # per outcome of the root's chance
        self.tag = 0
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
            known = self.moves[player][found]
            if self.parent[player][found] != parent or (known is not moves and known != moves):
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
        """Add a leaf's chance-weighted payoff to player 0 (a Fraction, an int or an fmpq, kept
        as an fmpq)."""
        if not isinstance(payoff, fmpq):
            payoff = _q(payoff)
        key = (s0, s1)
        found = self.payoff.get(key)
        self.payoff[key] = payoff if found is None else found + payoff
        if self.tagged is not None:
            mine = self.tagged[self.tag]
            found = mine.get(key)
            mine[key] = payoff if found is None else found + payoff

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


def build(
    root: History,
    observe: Observe,
    tagged: bool = False,
    limit: int | None = None,
    tick: Callable[[], None] = lambda: None,
) -> Tree:
    """The sequence form of the two-player game from ``root``: every history walked once,
    chance weighted by its exact probabilities (an fmpq per leaf), information sets keyed on
    each player's observation sequence. ``returns()[0]`` of a terminal state is player 0's
    payoff. States must be hashable: a state met again (by another history) is expanded once,
    its moves, children and observations reused. Raises :class:`GameError` if the
    observations break perfect recall. With ``tagged`` (the root a chance node), the payoffs
    are also kept apart per outcome of the root's chance (``tree.tagged``). Raises
    :class:`TooLarge` past ``limit`` histories; ``tick()`` every 65,536 histories.
    """
    tree = Tree()
    seen: dict[int, int] = {}
    inverse = tree.observations
    tokens: dict[Hashable, int] = {}
    named: list[Hashable] = []
    ids: dict[Any, int] = {}
    nodes: list[Any] = []
    expansions: list[tuple[Any, ...] | None] = []

    def token(t: Hashable) -> int:
        found = tokens.get(t)
        if found is None:
            found = tokens[t] = len(named)
            named.append(t)
        return found

    def number(node: Any) -> int:
        found = ids.get(node)
        if found is None:
            found = ids[node] = len(nodes)
            nodes.append(node)
            expansions.append(None)
        return found

    def expand(node: Any) -> tuple[Any, ...]:
        if node.is_terminal():
            return (_END, _q(node.returns()[0]))
        if node.is_chance_node():
            return (
                _CHANCE,
                [
                    (number(node.apply(m)), _q(p), token(observe(node, m, 0)), token(observe(node, m, 1)))
                    for m, p in node.chance_outcomes()
                ],
            )
        moves = node.legal_moves()
        kids = [(number(node.apply(m)), token(observe(node, m, 0)), token(observe(node, m, 1))) for m in moves]
        return (_FORCED if len(moves) == 1 else _DECISION, node.current_player(), moves, kids)

    def history(previous: int, t: int) -> int:
        k = (previous << 24) | t
        found = seen.get(k)
        if found is None:
            found = seen[k] = len(inverse)
            inverse.append((previous, named[t]))
        return found

    most = limit if limit is not None else -1

    def visit(n: int, weight: fmpq, s0: int, s1: int, o0: int, o1: int) -> None:
        tree.nodes += 1
        if not tree.nodes & 0xFFFF:
            tick()
            if tree.nodes > most >= 0:
                raise TooLarge(f"the game has more than {most:,} histories, the limit")
        e = expansions[n]
        if e is None:
            e = expansions[n] = expand(nodes[n])
        kind = e[0]
        if kind is _END:
            if e[1]:
                tree.leaf(s0, s1, weight * e[1])
        elif kind is _CHANCE:
            for child, p, t0, t1 in e[1]:
                visit(child, weight * p, s0, s1, history(o0, t0), history(o1, t1))
        elif kind is _FORCED:
            child, t0, t1 = e[3][0]
            visit(child, weight, s0, s1, history(o0, t0), history(o1, t1))
        else:
            player = e[1]
            if player == 0:
                start = tree.first[0][tree.infoset(0, o0, s0, e[2])]
                for a, (child, t0, t1) in enumerate(e[3]):
                    visit(child, weight, start + a, s1, history(o0, t0), history(o1, t1))
            else:
                start = tree.first[1][tree.infoset(1, o1, s1, e[2])]
                for a, (child, t0, t1) in enumerate(e[3]):
                    visit(child, weight, s0, start + a, history(o0, t0), history(o1, t1))

    paused = gc.isenabled()
    gc.disable()  # millions of small objects, none cyclic: the collector's passes only cost
    try:
        top = number(root)
        if not tagged:
            visit(top, fmpq(1), 0, 0, 0, 0)
        else:
            e = expansions[top] = expand(root)
            if e[0] is not _CHANCE:
                raise GameError("only a game that starts with chance has its payoffs kept per outcome")
            tree.tagged = [{} for _ in e[1]]
            tree.nodes += 1
            for i, (child, p, t0, t1) in enumerate(e[1]):
                tree.tag = i
                visit(child, p, 0, 0, history(0, t0), history(0, t1))
    finally:
        if paused:
            gc.enable()
    return tree


_END, _CHANCE, _FORCED, _DECISION = "end", "chance", "forced", "decision"


def _q(value: Any) -> fmpq:
    if isinstance(value, fmpq):
        return value
    if isinstance(value, int):
        return fmpq(value)
    f = Fraction(value)
    return fmpq(f.numerator, f.denominator)
