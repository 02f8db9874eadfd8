"""Finite two-player zero-sum extensive games, their sequence form and its exact solution
(tests only: the reference for the hidden-card values, written from docs/spec/outputs.md and the
textbook definitions alone, without reading the project's equilibrium code).

A :class:`Tree` is built bottom-up (children first): :meth:`Tree.leaf`, :meth:`Tree.chance`,
:meth:`Tree.decision`; the last node made is the root.  Player 0 maximises the leaf payoffs,
player 1 minimises them.  A decision node names its information set by a key; every node of an
information set must offer the same action labels (checked).

The sequence form (Koller, Megiddo and von Stengel; von Stengel 1996): a *sequence* of a player
is the empty sequence (number 0) or a pair (information set, action); each information set has
a *parent sequence*, the player's last own (set, action) above it (the same for all its nodes:
perfect recall, checked).  A *realization plan* ``x`` gives each sequence the probability that
the player's own choices follow it: ``x[0] = 1`` and, at each set ``I``, the children of the
parent sequence sum to it.  The payoff is bilinear, ``x^T A y``, with ``A[s0, s1]`` the
chance-weighted payoff of the leaves reached by the pair of sequences.

:func:`solve` finds the value exactly:

1. the LP ``max f^T q  s.t.  F^T q - A^T x <= 0, E x = e, x >= 0`` (q: the minimiser's values of
   its information sets, the dual of its best response) and its mirror for the minimiser,
   in floats (HiGHS through scipy);
2. the two plans turned into exact fractions: first by rounding the behaviour probabilities
   (denominators up to 10^k), then, if that is not optimal, by solving exactly (python-flint)
   the linear equations of the support the floats found (the own plan's constraints, and the
   other player's indifference on the sequences it plays: complementary slackness);
3. **the certificate**: the exact best response of each player to the other's exact plan,
   computed by backward induction over the information sets (:func:`best_response`), gives a
   lower bound ``lo`` (what the maximiser's plan guarantees) and an upper bound ``hi`` (what the
   minimiser's guarantees); the value is returned only when ``lo == hi``.

>>> t = Tree()
>>> heads, tails = t.leaf(1), t.leaf(-1)
>>> a = t.decision(1, "guess", [("heads", heads), ("tails", tails)])
>>> heads2, tails2 = t.leaf(-1), t.leaf(1)
>>> b = t.decision(1, "guess", [("heads", heads2), ("tails", tails2)])
>>> root = t.decision(0, "hide", [("heads", a), ("tails", b)])
>>> solve(t).value
Fraction(0, 1)
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

LEAF, CHANCE = -2, -1
ZERO, ONE = Fraction(0), Fraction(1)


@dataclass
class Infoset:
    """An information set: its player, its key (the player's observations), action labels and nodes."""

    player: int
    key: Hashable
    labels: tuple[str, ...]
    nodes: list[int] = field(default_factory=list)


class Tree:
    """A game tree in flat lists, node ids in creation order (children before parents)."""

    def __init__(self) -> None:
        self.kind: list[int] = []  # 0 / 1 (the player deciding), CHANCE or LEAF
        self.info: list[int] = []  # decision nodes: the information set's index, else -1
        self.children: list[tuple[int, ...]] = []
        self.labels: list[tuple[str, ...]] = []  # the actions' (or chance outcomes') labels
        self.probs: list[tuple[Fraction, ...]] = []  # chance nodes only
        self.payoff: list[Fraction] = []  # leaves: the maximiser's payoff (0 elsewhere)
        self.infosets: list[Infoset] = []
        self._index: dict[tuple[int, Hashable], int] = {}

    @property
    def root(self) -> int:
        return len(self.kind) - 1

    @property
    def size(self) -> int:
        return len(self.kind)

    def _node(
        self,
        kind: int,
        info: int,
        children: tuple[int, ...],
        labels: tuple[str, ...],
        probs: tuple[Fraction, ...],
        payoff: Fraction,
    ) -> int:
        self.kind.append(kind)
        self.info.append(info)
        self.children.append(children)
        self.labels.append(labels)
        self.probs.append(probs)
        self.payoff.append(payoff)
        return len(self.kind) - 1

    def leaf(self, payoff: Fraction | int) -> int:
        """A terminal node worth ``payoff`` to the maximiser; returns its id."""
        return self._node(LEAF, -1, (), (), (), Fraction(payoff))

    def chance(self, outcomes: Sequence[tuple[str, Fraction, int]]) -> int:
        """A chance node choosing ``(label, probability, child)``; probabilities must sum to 1."""
        probs = tuple(Fraction(p) for _, p, _ in outcomes)
        if sum(probs) != 1 or any(p <= 0 for p in probs):
            raise ValueError(f"chance probabilities {probs} are not a distribution")
        return self._node(CHANCE, -1, tuple(c for _, _, c in outcomes), tuple(a for a, _, _ in outcomes), probs, ZERO)

    def decision(self, player: int, key: Hashable, moves: Sequence[tuple[str, int]]) -> int:
        """A node where ``player`` chooses among ``(label, child)``, in the information set ``key``."""
        labels = tuple(label for label, _ in moves)
        if len(set(labels)) != len(labels) or not labels:
            raise ValueError(f"action labels must be distinct and not empty: {labels}")
        i = self._index.get((player, key))
        if i is None:
            i = self._index[(player, key)] = len(self.infosets)
            self.infosets.append(Infoset(player, key, labels))
        elif self.infosets[i].labels != labels:
            raise ValueError(f"information set {key!r} offers {self.infosets[i].labels} and {labels}")
        node = self._node(player, i, tuple(c for _, c in moves), labels, (), ZERO)
        self.infosets[i].nodes.append(node)
        return node

    def counts(self) -> dict[str, int]:
        """Nodes, leaves and information sets (per player) of the tree."""
        return {
            "nodes": self.size,
            "leaves": self.kind.count(LEAF),
            "infosets_0": sum(1 for s in self.infosets if s.player == 0),
            "infosets_1": sum(1 for s in self.infosets if s.player == 1),
        }


# -- the sequence form -------------------------------------------------------------------------


@dataclass
class SequenceForm:
    """Sequences, information-set structure and the payoff matrix of a :class:`Tree`.

    Per player ``p``: ``sets[p]`` lists its information sets top-down (a set after its parent
    sequence's set); ``parent[p][k]`` is the parent sequence of ``sets[p][k]`` and
    ``first[p][k]`` the number of its first action's sequence (actions are numbered in a row);
    ``under[p][s]`` lists the positions (in ``sets[p]``) of the sets whose parent is sequence ``s``.
    ``payoff`` maps ``(s0, s1)`` to the chance-weighted payoff of the leaves they reach.
    """

    tree: Tree
    sets: tuple[list[int], list[int]]
    parent: tuple[list[int], list[int]]
    first: tuple[list[int], list[int]]
    width: tuple[list[int], list[int]]
    under: tuple[list[list[int]], list[list[int]]]
    payoff: dict[tuple[int, int], Fraction]
    position: dict[int, int]  # information set index -> position in its player's ``sets``

    def sequences(self, player: int) -> int:
        return len(self.under[player])

    def counts(self) -> dict[str, int]:
        return {
            "sequences_0": self.sequences(0),
            "sequences_1": self.sequences(1),
            "payoff_entries": len(self.payoff),
        }

    def sequence_label(self, player: int, s: int) -> str:
        """Readable name of a sequence: the set's key and the action (for messages)."""
        if s == 0:
            return "(empty)"
        for k, start in enumerate(self.first[player]):
            if start <= s < start + self.width[player][k]:
                info = self.tree.infosets[self.sets[player][k]]
                return f"{info.key!r}: {info.labels[s - start]}"
        raise IndexError(s)


def sequence_form(tree: Tree) -> SequenceForm:
    """Build the sequence form of ``tree``; raises ValueError if a player forgets (imperfect recall)."""
    sets: tuple[list[int], list[int]] = ([], [])
    parent: tuple[list[int], list[int]] = ([], [])
    first: tuple[list[int], list[int]] = ([], [])
    width: tuple[list[int], list[int]] = ([], [])
    under: tuple[list[list[int]], list[list[int]]] = ([[]], [[]])
    position: dict[int, int] = {}
    payoff: dict[tuple[int, int], Fraction] = {}
    kind, info, children, probs, value = tree.kind, tree.info, tree.children, tree.probs, tree.payoff
    stack: list[tuple[int, int, int, Fraction]] = [(tree.root, 0, 0, ONE)]
    while stack:
        node, s0, s1, p = stack.pop()
        k = kind[node]
        if k == LEAF:
            if value[node]:
                key = (s0, s1)
                payoff[key] = payoff.get(key, ZERO) + p * value[node]
        elif k == CHANCE:
            for child, q in zip(children[node], probs[node], strict=True):
                stack.append((child, s0, s1, p * q))
        else:
            i = info[node]
            own = s0 if k == 0 else s1
            pos = position.get(i)
            if pos is None:
                pos = position[i] = len(sets[k])
                sets[k].append(i)
                parent[k].append(own)
                first[k].append(len(under[k]))
                width[k].append(len(children[node]))
                under[k][own].append(pos)
                under[k].extend([] for _ in children[node])
            elif parent[k][pos] != own:
                raise ValueError(f"imperfect recall at information set {tree.infosets[i].key!r}")
            start = first[k][pos]
            for a, child in enumerate(children[node]):
                if k == 0:
                    stack.append((child, start + a, s1, p))
                else:
                    stack.append((child, s0, start + a, p))
    return SequenceForm(tree, sets, parent, first, width, under, payoff, position)


# -- realization plans, best responses -----------------------------------------------------------


def plan_from_behaviour(sf: SequenceForm, player: int, behaviour: dict[int, Sequence[Fraction]]) -> list[Fraction]:
    """The realization plan of a behaviour strategy (information set index -> probabilities of
    its actions); sets missing from ``behaviour`` play their first action."""
    x = [ZERO] * sf.sequences(player)
    x[0] = ONE
    for pos, i in enumerate(sf.sets[player]):
        here = x[sf.parent[player][pos]]
        start = sf.first[player][pos]
        beta = behaviour.get(i)
        for a in range(sf.width[player][pos]):
            x[start + a] = here * (beta[a] if beta is not None else (ONE if a == 0 else ZERO))
    return x


def check_plan(sf: SequenceForm, player: int, x: Sequence[Fraction]) -> None:
    """Raise ValueError unless ``x`` is a realization plan of ``player``, exactly."""
    if len(x) != sf.sequences(player) or x[0] != 1 or any(v < 0 for v in x):
        raise ValueError("not a realization plan: wrong size, x[empty] != 1 or a negative entry")
    for pos in range(len(sf.sets[player])):
        start = sf.first[player][pos]
        total = sum(x[start : start + sf.width[player][pos]], ZERO)
        if total != x[sf.parent[player][pos]]:
            raise ValueError(f"not a realization plan at set {pos}: {total} != {x[sf.parent[player][pos]]}")


def against(sf: SequenceForm, player: int, other_plan: Sequence[Fraction]) -> list[Fraction]:
    """The payoff coefficient of each of ``player``'s sequences when the other plays ``other_plan``
    (row or column of ``A`` times the plan), exactly."""
    g = [ZERO] * sf.sequences(player)
    for (s0, s1), a in sf.payoff.items():
        if player == 0:
            w = other_plan[s1]
            if w:
                g[s0] += a * w
        else:
            w = other_plan[s0]
            if w:
                g[s1] += a * w
    return g


def best_response(sf: SequenceForm, player: int, g: Sequence[Fraction]) -> tuple[Fraction, list[int]]:
    """The best value ``player`` reaches against the linear payoff ``g`` over its sequences (for the
    maximiser the largest, for the minimiser the smallest) and its choice (action number) at each
    of its sets, by backward induction over its information sets."""
    better = (lambda a, b: a > b) if player == 0 else (lambda a, b: a < b)
    n = len(sf.sets[player])
    set_value: list[Fraction] = [ZERO] * n
    choice = [0] * n
    under, first, width = sf.under[player], sf.first[player], sf.width[player]
    for pos in reversed(range(n)):
        start = first[pos]
        best: Fraction | None = None
        for a in range(width[pos]):
            s = start + a
            v = g[s] + sum((set_value[j] for j in under[s]), ZERO)
            if best is None or better(v, best):
                best, choice[pos] = v, a
        assert best is not None
        set_value[pos] = best
    return g[0] + sum((set_value[j] for j in under[0]), ZERO), choice


def guarantee(sf: SequenceForm, player: int, plan: Sequence[Fraction]) -> Fraction:
    """What ``plan`` guarantees ``player``: the payoff of the other player's exact best response."""
    other = 1 - player
    return best_response(sf, other, against(sf, other, plan))[0]


def plan_value(sf: SequenceForm, x: Sequence[Fraction], y: Sequence[Fraction]) -> Fraction:
    """The expected payoff ``x^T A y`` of two realization plans."""
    return sum((a * x[s0] * y[s1] for (s0, s1), a in sf.payoff.items()), ZERO)


def behaviour_of(sf: SequenceForm, player: int, plan: Sequence[Fraction]) -> dict[int, list[Fraction]]:
    """The behaviour strategy of a plan (uniform at sets the plan never reaches)."""
    out: dict[int, list[Fraction]] = {}
    for pos, i in enumerate(sf.sets[player]):
        here = plan[sf.parent[player][pos]]
        start, w = sf.first[player][pos], sf.width[player][pos]
        out[i] = [plan[start + a] / here for a in range(w)] if here else [Fraction(1, w)] * w
    return out


# -- the exact solution ----------------------------------------------------------------------------


@dataclass
class Solution:
    """The exact value (for the maximiser), the two exact plans that certify it, and how they
    were made exact (``"rounded"`` or ``"support"``)."""

    value: Fraction
    plans: tuple[list[Fraction], list[Fraction]]
    method: str
    form: SequenceForm


class NotCertified(AssertionError):
    """The exact plans found do not certify one value (lo < hi)."""


def solve(tree: Tree, sf: SequenceForm | None = None, rounding: bool = True) -> Solution:
    """The exact value of ``tree`` with its certificate (see the module's docstring); raises
    :class:`NotCertified` if no exact pair of plans proves it. ``rounding=False`` goes straight
    to the exact solutions on the support (to test that step)."""
    from .hidden_lp import float_plans, support_plans

    sf = sf if sf is not None else sequence_form(tree)
    floats = (float_plans(sf, 0), float_plans(sf, 1))
    best: list[tuple[list[Fraction], Fraction] | None] = [None, None]

    def consider(player: int, plan: list[Fraction], bound: Fraction) -> None:
        held = best[player]
        if held is None or (bound > held[1] if player == 0 else bound < held[1]):
            best[player] = (plan, bound)

    method = "rounded"
    if rounding:
        for player in (0, 1):
            consider(player, *_rounded(sf, player, floats[player].plan))
    if not rounding or best[0] is None or best[1] is None or best[0][1] != best[1][1]:
        method = "support"
        for player in (0, 1):
            for plan in support_plans(sf, player, floats[player], floats[1 - player]):
                consider(player, plan, guarantee(sf, player, plan))
    if best[0] is None or best[1] is None:
        raise NotCertified("no exact plan found")
    (x, lo), (y, hi) = best[0], best[1]
    if lo != hi:
        raise NotCertified(f"the maximiser's plan guarantees {lo}, the minimiser's {hi}")
    return Solution(lo, (x, y), method, sf)


def _rounded(sf: SequenceForm, player: int, plan: Sequence[float]) -> tuple[list[Fraction], Fraction]:
    """Round the float plan's behaviour probabilities to fractions (several denominators); the
    exact plan that guarantees the most, and what it guarantees."""
    best: tuple[list[Fraction], Fraction] | None = None
    for limit in (12, 1_000, 100_000, 10_000_000):
        behaviour: dict[int, list[Fraction]] = {}
        for pos, i in enumerate(sf.sets[player]):
            start, w = sf.first[player][pos], sf.width[player][pos]
            here = plan[sf.parent[player][pos]]
            if here <= 1e-9:
                continue
            raw = [max(plan[start + a], 0.0) / here for a in range(w)]
            probs = [Fraction(r).limit_denominator(limit) for r in raw]
            top = max(range(w), key=lambda a: raw[a])
            probs[top] = ONE - sum((p for a, p in enumerate(probs) if a != top), ZERO)
            if probs[top] < 0:
                probs = [ONE if a == top else ZERO for a in range(w)]
            behaviour[i] = probs
        exact = plan_from_behaviour(sf, player, behaviour)
        bound = guarantee(sf, player, exact)
        if best is None or (bound > best[1] if player == 0 else bound < best[1]):
            best = (exact, bound)
    assert best is not None
    return best


def kuhn_poker() -> Tree:
    """Kuhn poker (a deck J, Q, K; ante 1; one bet of 1): the first player's value is -1/18."""
    t = Tree()
    cards = "JQK"
    deals = []
    for a in range(3):
        for b in range(3):
            if a == b:
                continue
            win = 1 if a > b else -1

            def showdown(stake: int, win: int = win) -> int:
                return t.leaf(win * stake)

            # first checks: second checks (showdown 1) or bets: first folds (-1) or calls (showdown 2)
            after_check_bet = t.decision(0, (cards[a], "check", "bet"), [("fold", t.leaf(-1)), ("call", showdown(2))])
            after_check = t.decision(1, (cards[b], "check"), [("check", showdown(1)), ("bet", after_check_bet)])
            after_bet = t.decision(1, (cards[b], "bet"), [("fold", t.leaf(1)), ("call", showdown(2))])
            root = t.decision(0, (cards[a],), [("check", after_check), ("bet", after_bet)])
            deals.append((f"{cards[a]}{cards[b]}", Fraction(1, 6), root))
    t.chance(deals)
    return t
