"""Exact equilibria of small zero-sum games where each player first learns a private *type*
(a dealt card) and then picks an action: the draft, Kuhn-style poker, matrix games.

How: a float linear program (scipy's HiGHS) finds each player's optimal strategy; only its
*supports* are trusted. The exact strategies are then the rational solution of the
indifference equations on those supports (python-flint), and the result is **verified
exactly** before it is returned: both strategies are distributions, every action either
player uses is a best response for its type, and the two sides' guarantees agree (the game
value). Nothing unverified is reported (:class:`NotVerified`).

>>> e = matrix_game([[Fraction(1), Fraction(-1)], [Fraction(-1), Fraction(1)]])  # matching pennies
>>> e.value, e.row[0], e.column[0]
(Fraction(0, 1), [Fraction(1, 2), Fraction(1, 2)], [Fraction(1, 2), Fraction(1, 2)])
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

import numpy as np
from flint import fmpq, fmpq_mat
from scipy.optimize import linprog

from .errors import GameError

SUPPORT = 1e-9
"""Float weights above this are in a strategy's support."""

Strategy = list[list[Fraction]]
"""Per type, the probability of each action."""


class NotVerified(GameError):
    """An equilibrium that failed its exact check (never reported)."""


@dataclass(frozen=True)
class Equilibrium:
    """Exact optimal strategies of both players and what each action is worth against the
    other's strategy, per type, *given* the type (conditional expectations)."""

    value: Fraction  # to the row player; the column player's is its opposite
    row: Strategy
    column: Strategy
    row_payoffs: Strategy  # [type][action]: the row player's expected payoff
    column_payoffs: Strategy  # [type][action]: the row player's expected payoff (column minimises)
    row_type_probability: list[Fraction]
    column_type_probability: list[Fraction]


Payoff = Callable[[int, int, int, int], Fraction]
"""payoff(row type, column type, row action, column action), to the row player."""


def matrix_game(matrix: list[list[Fraction]]) -> Equilibrium:
    """A matrix game (payoffs to the row player, who maximises): one type each."""
    return bayesian_game([[Fraction(1)]], len(matrix), len(matrix[0]), lambda _, __, i, j: matrix[i][j])


def bayesian_game(prior: list[list[Fraction]], row_actions: int, column_actions: int, payoff: Payoff) -> Equilibrium:
    """Solve the game where chance draws types (t1, t2) with probability ``prior[t1][t2]``,
    each player sees only their own, then both act at once.

    Raises :class:`NotVerified` if the exact check fails.

    >>> e = bayesian_game([[Fraction(1, 2)], [Fraction(1, 2)]], 2, 2,
    ...     lambda t1, t2, a1, a2: Fraction(1 if (a1 == a2) == (t1 == 0) else -1))
    >>> e.value, e.column  # type 0 wants to match the column, type 1 not to: the column mixes
    (Fraction(0, 1), [[Fraction(1, 2), Fraction(1, 2)]])
    """
    n1, n2 = len(prior), len(prior[0])
    # a[t1][t2] is the matrix of weighted payoffs between the two types' actions
    a = [
        [
            [[prior[t1][t2] * payoff(t1, t2, i, j) for j in range(column_actions)] for i in range(row_actions)]
            for t2 in range(n2)
        ]
        for t1 in range(n1)
    ]
    transposed = [
        [[[-a[t1][t2][i][j] for i in range(row_actions)] for j in range(column_actions)] for t1 in range(n1)]
        for t2 in range(n2)
    ]
    row_float = _float_strategy(a, row_actions, column_actions)
    column_float = _float_strategy(transposed, column_actions, row_actions)
    column = _indifferent(a, _supports(row_float), column_float, column_actions)
    row = _indifferent(transposed, _supports(column_float), row_float, row_actions)
    return _verified(a, prior, row, column)


def _float_strategy(a: list[list[list[list[Fraction]]]], mine: int, theirs: int) -> list[list[float]]:
    """The maximiser's optimal strategy by HiGHS: max sum q[t2] subject to q[t2] <= the
    payoff of each of t2's actions against x, x a distribution per type."""
    n1, n2 = len(a), len(a[0])
    nx = n1 * mine
    cost = np.concatenate((np.zeros(nx), -np.ones(n2)))
    rows, bounds_ub = [], []
    for t2 in range(n2):
        for j in range(theirs):
            row = np.zeros(nx + n2)
            for t1 in range(n1):
                for i in range(mine):
                    row[t1 * mine + i] = -float(a[t1][t2][i][j])
            row[nx + t2] = 1.0
            rows.append(row)
            bounds_ub.append(0.0)
    eq = np.zeros((n1, nx + n2))
    for t1 in range(n1):
        eq[t1, t1 * mine : (t1 + 1) * mine] = 1.0
    bounds = [(0, None)] * nx + [(None, None)] * n2
    result = linprog(
        cost, A_ub=np.array(rows), b_ub=bounds_ub, A_eq=eq, b_eq=np.ones(n1), bounds=bounds, method="highs"
    )
    if result.status != 0:
        raise NotVerified(f"the float linear program failed: {result.message}")
    assert result.x is not None
    x = result.x[:nx]
    return [list(map(float, x[t1 * mine : (t1 + 1) * mine])) for t1 in range(n1)]


def _supports(strategy: list[list[float]]) -> list[list[int]]:
    return [[i for i, p in enumerate(row) if p > SUPPORT] for row in strategy]


def _indifferent(
    a: list[list[list[list[Fraction]]]], mine: list[list[int]], guess: list[list[float]], actions: int
) -> Strategy:
    """The opponent's strategy (on the supports of its float ``guess``) that makes every
    action of each of my types in ``mine`` equally good: rational unknowns y and my per-type
    values v. Where the equations leave freedom (ties), the guess, rounded, fixes it."""
    n1, n2 = len(a), len(a[0])
    theirs = _supports(guess)
    unknowns = [(t2, j) for t2 in range(n2) for j in theirs[t2]]
    column = {u: k for k, u in enumerate(unknowns)}
    size = len(unknowns) + n1
    equations: list[tuple[list[Fraction], Fraction]] = []
    for t1 in range(n1):
        for i in mine[t1]:
            coefficients = [Fraction(0)] * size
            for (t2, j), k in column.items():
                coefficients[k] = a[t1][t2][i][j]
            coefficients[len(unknowns) + t1] = Fraction(-1)
            equations.append((coefficients, Fraction(0)))
    for t2 in range(n2):
        coefficients = [Fraction(0)] * size
        for j in theirs[t2]:
            coefficients[column[(t2, j)]] = Fraction(1)
        equations.append((coefficients, Fraction(1)))
    solution = _solve_exactly(equations, size)
    if solution is None:  # not one solution: pin the free weights to the float guess
        for (t2, j), k in column.items():
            coefficients = [Fraction(0)] * size
            coefficients[k] = Fraction(1)
            equations.append((coefficients, Fraction(guess[t2][j]).limit_denominator(10**6)))
            solution = _solve_exactly(equations, size)
            if solution is not None:
                break
        else:
            raise NotVerified("the supports' indifference equations have no single solution")
    assert solution is not None
    out = [[Fraction(0)] * actions for _ in range(n2)]
    for (t2, j), k in column.items():
        out[t2][j] = solution[k]
    return out


def _solve_exactly(equations: list[tuple[list[Fraction], Fraction]], size: int) -> list[Fraction] | None:
    """The unique rational solution of the equations (more equations than unknowns is fine),
    or None if there is none or more than one."""
    matrix = fmpq_mat(len(equations), size + 1)
    for r, (coefficients, constant) in enumerate(equations):
        for c, value in enumerate(coefficients):
            if value:
                matrix[r, c] = fmpq(value.numerator, value.denominator)
        matrix[r, size] = fmpq(constant.numerator, constant.denominator)
    reduced, rank = matrix.rref()
    pivots = []
    for r in range(rank):
        c = next(c for c in range(size + 1) if reduced[r, c] != 0)
        pivots.append(c)
    if size in pivots or rank != size:
        return None
    return [Fraction(int(reduced[r, size].p), int(reduced[r, size].q)) for r in range(size)]


def _verified(
    a: list[list[list[list[Fraction]]]], prior: list[list[Fraction]], row: Strategy, column: Strategy
) -> Equilibrium:
    """Check exactly that (row, column) is an equilibrium; return it with its payoffs."""
    n1, n2 = len(a), len(a[0])
    for strategy in (row, column):
        for mix in strategy:
            if any(p < 0 for p in mix) or sum(mix) != 1:
                raise NotVerified(f"not a distribution: {mix}")
    p1 = [sum(prior[t1], Fraction(0)) for t1 in range(n1)]
    p2 = [sum((prior[t1][t2] for t1 in range(n1)), Fraction(0)) for t2 in range(n2)]
    row_payoffs = [
        [
            sum((a[t1][t2][i][j] * column[t2][j] for t2 in range(n2) for j in range(len(column[t2]))), Fraction(0))
            for i in range(len(row[t1]))
        ]
        for t1 in range(n1)
    ]
    column_payoffs = [
        [
            sum((a[t1][t2][i][j] * row[t1][i] for t1 in range(n1) for i in range(len(row[t1]))), Fraction(0))
            for j in range(len(column[t2]))
        ]
        for t2 in range(n2)
    ]
    for t1 in range(n1):
        best = max(row_payoffs[t1])
        if any(p and row_payoffs[t1][i] != best for i, p in enumerate(row[t1])):
            raise NotVerified(f"row type {t1} plays an action that is not a best response")
    for t2 in range(n2):
        best = min(column_payoffs[t2])
        if any(p and column_payoffs[t2][j] != best for j, p in enumerate(column[t2])):
            raise NotVerified(f"column type {t2} plays an action that is not a best response")
    guaranteed = sum((max(r) for r in row_payoffs), Fraction(0))
    conceded = sum((min(c) for c in column_payoffs), Fraction(0))
    if guaranteed != conceded:
        raise NotVerified(f"the two sides' guarantees differ: {guaranteed} and {conceded}")
    return Equilibrium(
        value=guaranteed,
        row=row,
        column=column,
        row_payoffs=[[v / p1[t1] if p1[t1] else v for v in r] for t1, r in enumerate(row_payoffs)],
        column_payoffs=[[v / p2[t2] if p2[t2] else v for v in c] for t2, c in enumerate(column_payoffs)],
        row_type_probability=p1,
        column_type_probability=p2,
    )
