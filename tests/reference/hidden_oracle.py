"""The normal form of a :class:`~tests.reference.hidden_tree.Tree` solved by double oracle,
exactly (tests only): a second method for the hidden-card value, sharing nothing with the
sequence form but the tree.

A pure strategy chooses one action at every information set of its player. Double oracle
(McMahan, Gordon and Blum 2003) keeps a few pure strategies per player, solves the restricted
matrix game exactly (:func:`solve_matrix`, a simplex in fractions), and adds each player's exact
best response (:func:`best_reply`, computed on the tree by backward induction over the player's
information sets, deepest first) to the other's restricted optimal mixture, until neither best
response beats the restricted value. Then the maximiser's mixture guarantees the value against
every pure strategy and the minimiser's holds every pure strategy to it: the value is certified.

>>> from tests.reference.hidden_tree import kuhn_poker
>>> double_oracle(kuhn_poker()).value
Fraction(-1, 18)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from .hidden_tree import CHANCE, LEAF, NotCertified, Tree

ZERO, ONE = Fraction(0), Fraction(1)
Pure = tuple[int, ...]  # an action number for every information set of the tree (the player's own)


def payoff(tree: Tree, first: Pure, second: Pure) -> Fraction:
    """The maximiser's expected payoff when the two pure strategies meet (chance averaged)."""
    choice = [first[i] if s.player == 0 else second[i] for i, s in enumerate(tree.infosets)]
    total = ZERO
    stack = [(tree.root, ONE)]
    while stack:
        node, p = stack.pop()
        kind = tree.kind[node]
        if kind == LEAF:
            total += p * tree.payoff[node]
        elif kind == CHANCE:
            stack.extend(zip(tree.children[node], (p * q for q in tree.probs[node]), strict=True))
        else:
            stack.append((tree.children[node][choice[tree.info[node]]], p))
    return total


def best_reply(tree: Tree, player: int, mixture: Sequence[tuple[Fraction, Pure]]) -> tuple[Fraction, Pure]:
    """``player``'s best pure reply to the other's ``mixture`` of pure strategies, and its payoff
    (the maximiser's payoff: the largest for player 0, the smallest for player 1)."""
    weight: dict[int, Fraction] = {}  # leaf -> chance x the other's reach x payoff
    depth: dict[int, int] = {}  # own information set -> own decisions above it
    stack: list[tuple[int, Fraction, tuple[int, ...], int]] = [(tree.root, ONE, tuple(range(len(mixture))), 0)]
    while stack:
        node, p, alive, own = stack.pop()
        kind = tree.kind[node]
        if kind == LEAF:
            reach = sum((mixture[k][0] for k in alive), ZERO)
            weight[node] = p * reach * tree.payoff[node]
        elif kind == CHANCE:
            for child, q in zip(tree.children[node], tree.probs[node], strict=True):
                stack.append((child, p * q, alive, own))
        elif kind == player:
            depth.setdefault(tree.info[node], own)
            for child in tree.children[node]:
                stack.append((child, p, alive, own + 1))
        else:
            i = tree.info[node]
            for a, child in enumerate(tree.children[node]):
                kept = tuple(k for k in alive if mixture[k][1][i] == a)
                if kept:
                    stack.append((child, p, kept, own))
    choice = [0] * len(tree.infosets)
    memo: dict[int, Fraction] = {}

    def value(node: int) -> Fraction:
        got = memo.get(node)
        if got is not None:
            return got
        kind = tree.kind[node]
        if kind == LEAF:
            v = weight.get(node, ZERO)
        elif kind == player:
            v = value(tree.children[node][choice[tree.info[node]]])
        else:
            v = sum((value(c) for c in tree.children[node]), ZERO)
        memo[node] = v
        return v

    for i in sorted(depth, key=lambda i: -depth[i]):
        nodes = tree.infosets[i].nodes
        totals = [sum((value(tree.children[h][a]) for h in nodes), ZERO) for a in range(len(tree.infosets[i].labels))]
        best = max(totals) if player == 0 else min(totals)
        choice[i] = totals.index(best)
    return value(tree.root), tuple(choice)


def solve_matrix(m: Sequence[Sequence[Fraction]]) -> tuple[Fraction, list[Fraction], list[Fraction]]:
    """The exact value of the matrix game ``m`` (the row player maximises) and optimal mixed
    strategies of both players, by the simplex method in exact rationals (python-flint, Bland's rule); checked exactly.

    >>> solve_matrix([[Fraction(1), Fraction(-1)], [Fraction(-1), Fraction(1)]])[0]
    Fraction(0, 1)
    """
    from flint import fmpq

    rows, cols = len(m), len(m[0])
    shift = ONE - min(min(r) for r in m)
    one, zero = fmpq(1), fmpq(0)
    # max sum(t) s.t. (m + shift) t <= 1, t >= 0; tableau columns: t (cols), slacks (rows), rhs
    tab = [
        [fmpq((v + shift).numerator, (v + shift).denominator) for v in m[i]]
        + [one if k == i else zero for k in range(rows)]
        + [one]
        for i in range(rows)
    ]
    obj = [-one] * cols + [zero] * rows + [zero]
    basis = [cols + i for i in range(rows)]
    while True:
        enter = next((j for j in range(cols + rows) if obj[j] < 0), None)  # Bland's rule
        if enter is None:
            break
        best: tuple[Any, int, int] | None = None
        for i in range(rows):
            a = tab[i][enter]
            if a > 0:
                key = (tab[i][-1] / a, basis[i], i)
                if best is None or key[:2] < best[:2]:
                    best = key
        assert best is not None, "the matrix game's LP is bounded"
        r = best[2]
        pivot = tab[r][enter]
        prow = tab[r] = [v / pivot for v in tab[r]]
        nonzero = [k for k, v in enumerate(prow) if v != 0]
        for row in (*(tab[i] for i in range(rows) if i != r), obj):
            f = row[enter]
            if f != 0:
                for k in nonzero:
                    row[k] -= f * prow[k]
        basis[r] = enter

    def exact(v: Any) -> Fraction:
        return Fraction(int(v.p), int(v.q))

    t = [ZERO] * cols
    for i, b in enumerate(basis):
        if b < cols:
            t[b] = exact(tab[i][-1])
    u = [exact(v) for v in obj[cols : cols + rows]]
    total = sum(t, ZERO)
    value = ONE / total - shift
    q = [v / total for v in t]
    p = [v / sum(u, ZERO) for v in u]
    low = min(sum((p[i] * m[i][j] for i in range(rows)), ZERO) for j in range(cols))
    high = max(sum((m[i][j] * q[j] for j in range(cols)), ZERO) for i in range(rows))
    if not low == value == high:
        raise NotCertified(f"matrix game: {low} <= {value} <= {high} is not tight")
    return value, p, q


@dataclass
class OracleSolution:
    """The certified value, the final strategy sets' sizes and the number of iterations."""

    value: Fraction
    strategies: tuple[int, int]
    iterations: int


def double_oracle(tree: Tree, max_iterations: int = 10_000) -> OracleSolution:
    """The exact value of ``tree``'s normal form by double oracle (see the module docstring)."""
    first = tuple(0 for _ in tree.infosets)
    sets: tuple[list[Pure], list[Pure]] = ([first], [first])
    m = [[payoff(tree, first, first)]]
    for iteration in range(1, max_iterations + 1):
        value, p, q = solve_matrix(m)
        high, reply0 = best_reply(tree, 0, list(zip(q, sets[1], strict=True)))
        low, reply1 = best_reply(tree, 1, list(zip(p, sets[0], strict=True)))
        if low == value == high:
            return OracleSolution(value, (len(sets[0]), len(sets[1])), iteration)
        if not low <= value <= high:
            raise NotCertified(f"a best reply does worse than the restricted game: {low}, {value}, {high}")
        if high > value:
            sets[0].append(reply0)
            m.append([payoff(tree, reply0, s) for s in sets[1]])
        if low < value:
            sets[1].append(reply1)
            for row, s in zip(m, sets[0], strict=True):
                row.append(payoff(tree, s, reply1))
    raise NotCertified(f"double oracle did not converge in {max_iterations} iterations")
