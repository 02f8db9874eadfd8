"""The turns of a family, expanded by the engine once for every coin count.

Inside a turn, after the action is chosen, coins matter only through how much a steal takes
(0, 1 or 2 coins); every other effect of coins is a fixed change. So each state inside a turn is
expanded once, *normalised*: the actor in the first seat with 0 coins, the other with 0 coins
(or, in a steal, what the steal would take), face-up cards and cards out of play cleared (no rule
reads them). Its value is then an array over the 13 × 13 actual coin counts (actor, other), and
every edge carries the coin change the engine made (``dx``, ``dy``). The turn starts of an
arrangement are expanded from one representative coin count per bracket (0, 3, 7, 10: what the
actor can afford) and, for steals, per amount taken; each root edge has the mask of the coin
counts it stands for. This is only a cache of the engine's answers: ``tests/test_tablebase.py``
checks it against the engine, state by state.

Besides the :class:`Edge` lists, every state's edges are kept in flat arrays (:meth:`Expansion.arrays`):
the generator reads a whole family's turns from them with array operations.

>>> from solver.coup.cards import Variant
>>> from solver.coup.tablebase.index import Family
>>> f = Family(Variant.AMBASSADOR, (1, 0, 0, 1, 1), court=1)
>>> e = Expansion(Variant.AMBASSADOR)
>>> roots = e.roots(f, 0)
>>> sorted({str(r.move.kind) for r in roots})
['aid', 'assassinate', 'coup', 'exchange', 'income', 'steal', 'tax']
>>> e.arrays().many.sum() == sum(len(edges) for edges in e.edges)
np.True_
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from ..cards import Variant
from ..moves import Move
from ..rules import STEAL_AMOUNT, Kind
from ..state import CHANCE_PHASES, Phase, State, Turn
from ..turns import coin_class
from .index import CELLS, COINS, Family, cards_key

MOVER, OTHER, CHANCE = 0, 1, 2
"""Who decides at an inner node: the player whose turn it is, the other player, or chance."""
NODE, START, END = 0, 1, 2
"""What an edge leads to: an inner node, the next turn start (the other player to move), the end."""
BRACKET_COINS = (0, 3, 7, 10)
"""A representative of each coin bracket of the player to move (what they can afford)."""
ZERO = Fraction(0)

Mask = npt.NDArray[np.bool_]
Ints = npt.NDArray[np.int64]


class Edge(NamedTuple):
    """One move or chance outcome. ``target`` is a node id (NODE), a family id with
    ``arrangement`` (START: the next turn, from the other player's side), or the winner
    (END: 0 the player to move, 1 the other). ``dx``/``dy``: the coins it adds to the actor /
    the other; ``prob``: its chance (0 for a decision)."""

    kind: int
    target: int
    arrangement: int
    dx: int
    dy: int
    prob: Fraction
    move: Move


class Root(NamedTuple):
    """A first move of a turn start: an :class:`Edge` and the coin counts (mover, other) where
    the engine offers it."""

    edge: Edge
    mask: Mask

    @property
    def move(self) -> Move:
        return self.edge.move


class Flat(NamedTuple):
    """Every expanded state's edges as arrays: state ``n`` has edges ``first[n]`` to
    ``first[n] + many[n]`` (engine order) of ``kind``/``target``/``arrangement``/``dx``/``dy``,
    and ``prob[e]`` indexes ``Expansion.probabilities``. ``state_kind[n]``: MOVER/OTHER/CHANCE;
    ``take[n]``: the coins a steal in progress takes (0 when none)."""

    first: Ints
    many: Ints
    state_kind: Ints
    take: Ints
    kind: Ints
    target: Ints
    arrangement: Ints
    dx: Ints
    dy: Ints
    prob: Ints


def _bracket_masks() -> dict[tuple[int, int, bool], Mask]:
    x = np.arange(COINS)[:, None]
    y = np.arange(COINS)[None, :]
    brackets = np.array([coin_class((int(i), 0), 0)[0] for i in range(COINS)])[:, None]
    takes = np.minimum(y, STEAL_AMOUNT)
    out = {}
    for bracket in range(len(BRACKET_COINS)):
        for take in range(STEAL_AMOUNT + 1):
            for steal in (False, True):
                where = (brackets == bracket) & ((takes == take) if steal else (y >= 0))
                out[bracket, take, steal] = where & (x >= 0)
    return out


_MASKS = _bracket_masks()
_new = tuple.__new__


@dataclass(repr=False)
class Expansion:
    """Every state inside turns that was met, normalised, with its engine moves; shared by the
    families of one variant (a state reached after a lost influence belongs to a smaller family,
    and is expanded once)."""

    variant: Variant
    states: list[State] = field(default_factory=list)
    kind: list[int] = field(default_factory=list)
    edges: list[list[Edge]] = field(default_factory=list)
    index: dict[State, int] = field(default_factory=dict)
    families: list[Family] = field(default_factory=list)
    family_id: dict[Family, int] = field(default_factory=dict)
    probabilities: list[Fraction] = field(default_factory=lambda: [ZERO])
    _roots: dict[tuple[int, int], list[Root]] = field(default_factory=dict)
    _starts: dict[tuple[object, ...], tuple[int, int]] = field(default_factory=dict)
    _prob_code: dict[Fraction, int] = field(default_factory=lambda: {ZERO: 0})
    _flat: list[list[int]] = field(default_factory=lambda: [[] for _ in range(6)])
    _first: list[int] = field(default_factory=list)
    _take: list[int] = field(default_factory=list)
    _arrays: Flat | None = None

    def __repr__(self) -> str:
        return f"<Expansion {self.variant} {len(self.states):,} inner states, {len(self.families)} families>"

    def fid(self, family: Family) -> int:
        """The number of ``family`` in this expansion (registered on first sight)."""
        found = self.family_id.get(family)
        if found is None:
            found = self.family_id[family] = len(self.families)
            self.families.append(family)
        return found

    def roots(self, family: Family, arrangement: int) -> list[Root]:
        """The first moves of the turn start ``arrangement`` of ``family``, each with its coin mask."""
        key = (self.fid(family), arrangement)
        found = self._roots.get(key)
        if found is None:
            found = self._roots[key] = self._expand_roots(family, arrangement)
        return found

    def _expand_roots(self, family: Family, arrangement: int) -> list[Root]:
        where: dict[Edge, list[tuple[int, int, bool]]] = {}
        for bracket, mine in enumerate(BRACKET_COINS):
            for take in range(STEAL_AMOUNT + 1):
                root = family.state(arrangement, (mine, take))
                for move in root.legal_moves():
                    steal = move.kind is Kind.STEAL
                    if take and not steal:
                        continue
                    edge = self._edge(root, move, root.apply(move), ZERO)
                    where.setdefault(edge, []).append((bracket, take, steal))
        out = []
        for edge, keys in where.items():
            mask = _MASKS[keys[0]].copy()
            for key in keys[1:]:
                mask |= _MASKS[key]
            out.append(Root(edge, mask))
        return out

    def _edge(self, parent: State, move: Move, child: State, prob: Fraction) -> Edge:
        dx, dy = child.coins[0] - parent.coins[0], child.coins[1] - parent.coins[1]
        phase = child.turn.phase
        if phase is Phase.OVER:
            return Edge(END, int(child.winner() or 0), 0, dx, dy, prob, move)
        if phase is Phase.ACTION:  # the other player's turn: their side first
            key = (child.hidden[1], child.hidden[0], child.court)
            found = self._starts.get(key)
            if found is None:
                mover, other = cards_key(self.variant, child.hidden[1]), cards_key(self.variant, child.hidden[0])
                court = cards_key(self.variant, child.court)
                counts = tuple((mover + other + court).count(c) for c in range(5))
                fam = Family(self.variant, counts, len(court))
                found = self._starts[key] = (self.fid(fam), fam.arrangement(mover, other))
            return Edge(START, found[0], found[1], dx, dy, prob, move)
        return Edge(NODE, self.node(child), 0, dx, dy, prob, move)

    def node(self, state: State) -> int:
        """The id of the inner state ``state`` (normalised), expanding it and what follows on
        first sight."""
        key = normalised(state)
        found = self.index.get(key)
        if found is not None:
            return found
        pending = [key]
        first = self._new(key)
        while pending:
            s = pending.pop()
            n = self.index[s]
            chance = s.turn.phase in CHANCE_PHASES
            outcomes = s.chance_outcomes() if chance else [(m, ZERO) for m in s.legal_moves()]
            out = []
            for move, p in outcomes:
                child = s.apply(move)
                phase = child.turn.phase
                if phase is not Phase.OVER and phase is not Phase.ACTION:
                    ck = normalised(child)
                    if ck not in self.index:
                        self._new(ck)
                        pending.append(ck)
                out.append(self._edge(s, move, child, p))
            self._set_edges(n, out)
        return first

    def _set_edges(self, n: int, out: list[Edge]) -> None:
        self.edges[n] = out
        kind, target, arrangement, dx, dy, prob = self._flat
        self._first[n] = len(kind)
        codes = self._prob_code
        for e in out:
            kind.append(e.kind)
            target.append(e.target)
            arrangement.append(e.arrangement)
            dx.append(e.dx)
            dy.append(e.dy)
            code = codes.get(e.prob)
            if code is None:
                code = codes[e.prob] = len(self.probabilities)
                self.probabilities.append(e.prob)
            prob.append(code)

    def _new(self, key: State) -> int:
        n = len(self.states)
        self.index[key] = n
        self.states.append(key)
        self.kind.append(CHANCE if key.turn.phase in CHANCE_PHASES else (MOVER if key.turn.decider == 0 else OTHER))
        self.edges.append([])
        self._first.append(0)
        self._take.append(key.coins[1])
        return n

    def arrays(self) -> Flat:
        """The flat edge arrays of every state expanded so far (rebuilt only when states were added)."""
        found = self._arrays
        if found is not None and len(found.first) == len(self.states):
            return found
        count = np.array([len(e) for e in self.edges], dtype=np.int64)
        kind, target, arrangement, dx, dy, prob = (np.array(a, dtype=np.int64) for a in self._flat)
        found = self._arrays = Flat(
            np.array(self._first, dtype=np.int64),
            count,
            np.array(self.kind, dtype=np.int64),
            np.array(self._take, dtype=np.int64),
            kind,
            target,
            arrangement,
            dx,
            dy,
            prob,
        )
        return found


def normalised(state: State) -> State:
    """A state inside a turn with what no later rule reads cleared: coins (except what a steal
    would take from the other player), face-up cards and cards out of play. The actor must be
    the first seat."""
    turn = state.turn
    if turn.actor != 0:
        raise ValueError("inner states are expanded with the actor in the first seat")
    take = min(state.coins[1], STEAL_AMOUNT) if turn.action is Kind.STEAL else 0
    return _new(State, (state.names, state.variant, (0, take), state.hidden, ((), ()), state.court, (), turn))


def real_state(family: Family, arrangement: int, cell: int) -> State:
    """The turn start of ``arrangement`` at coin cell ``cell`` (mover * 13 + other)."""
    return family.state(arrangement, (cell // COINS, cell % COINS))


def turn_start(state: State) -> State:
    """``state`` as a turn start with the actor in the first seat."""
    return state._replace(turn=Turn(Phase.ACTION, 0, 0))


__all__ = [
    "CELLS",
    "CHANCE",
    "END",
    "MOVER",
    "NODE",
    "OTHER",
    "START",
    "Edge",
    "Expansion",
    "Flat",
    "Root",
    "normalised",
]
