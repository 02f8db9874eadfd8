"""Exact equilibria of two-player zero-sum games with imperfect information, in sequence form
(:mod:`solver.sequence`): Coup's hidden-card endgames, the draft, Kuhn-style poker, matrix
games.

How: a float linear program (scipy's HiGHS) finds player 0's optimal realization plan and, as
its dual, player 1's; only their *supports* are trusted. The exact plans are then the rational
solution (python-flint) of the equations that hold on those supports: each player's plan is a
realization plan, and every sequence the *other* player uses is a best one (indifference at
the information sets where it mixes). Ties that leave freedom are pinned near the float plan.
The result is **verified exactly** before it is returned: each player's best response to the
other's plan, computed in rationals by backward induction over information sets, gives the
same value. Nothing unverified is reported (:class:`NotCertified`).

>>> e = matrix_game([[Fraction(1), Fraction(-1)], [Fraction(-1), Fraction(1)]])  # matching pennies
>>> e.value, e.row[0], e.column[0]
(Fraction(0, 1), [Fraction(1, 2), Fraction(1, 2)], [Fraction(1, 2), Fraction(1, 2)])
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from flint import fmpq, fmpq_mat

from .errors import NotCertified
from .sequence import Tree

Strategy = list[list[Fraction]]
"""Per type, the probability of each action."""
Plan = list[fmpq]
"""A realization plan: per sequence of one player, the probability that the player's own
choices follow it (1 for the empty sequence)."""

METHOD = "highs-ds"
"""HiGHS's method for the float program: the dual simplex gives vertices (measured fastest here)."""
PRIMAL = 0
"""Whose plan is the primal of the float program (the other's is its dual)."""
ZERO, ONE = -2, -1


@dataclass(frozen=True)
class Solution:
    """Exact optimal realization plans of both players of a :class:`Tree`, with the value (to
    player 0) and, per sequence of each player, the best-response value against the other's
    plan (chance- and opponent-weighted sums; the certificate)."""

    tree: Tree
    value: Fraction
    plans: tuple[Plan, Plan]
    best: tuple[list[fmpq], list[fmpq]]

    def behaviour(self, player: int, h: int) -> list[Fraction]:
        """The probability of each action at information set ``h`` of ``player``; where the
        player's own plan never reaches ``h``, its best response there (a pure choice)."""
        plan, tree = self.plans[player], self.tree
        reach = plan[tree.parent[player][h]]
        actions = tree.actions(player, h)
        if reach:
            return [_f(plan[s] / reach) for s in actions]
        values = [self.best[player][s] for s in actions]
        pick = values.index(max(values) if player == 0 else min(values))
        return [Fraction(int(i == pick)) for i in range(len(actions))]


def solve(tree: Tree) -> Solution:
    """The exact equilibrium of ``tree``, verified. Raises :class:`NotCertified` if no support
    the float program suggests gives plans that pass the exact check."""
    plans = _float_plans(tree)
    failure = "no support tried"
    for tries in TRIES:
        try:
            x = _exact_plan(tree, 0, plans, tries)
            y = _exact_plan(tree, 1, plans, tries)
            return verify(tree, x, y)
        except NotCertified as error:
            failure = str(error)
    raise NotCertified(f"no exact equilibrium on the float program's supports: {failure}")


def verify(tree: Tree, x: Plan, y: Plan) -> Solution:
    """Check exactly that ``x`` and ``y`` are realization plans and that each is a best
    response to the other: player 0's best response to ``y`` gets no more than player 1's
    best response to ``x`` concedes. Returns the solution; raises :class:`NotCertified`."""
    for player, plan in ((0, x), (1, y)):
        _check_plan(tree, player, plan)
    best0 = best_response(tree, 0, y)
    best1 = best_response(tree, 1, x)
    if best0[0] != best1[0]:
        raise NotCertified(
            f"not an equilibrium: player 0 can get {_f(best0[0])} against player 1's plan, "
            f"player 1 concedes only {_f(best1[0])}"
        )
    return Solution(tree, _f(best0[0]), (x, y), (best0, best1))


def best_response(tree: Tree, player: int, other: Plan) -> list[fmpq]:
    """Per sequence of ``player``, the payoff to player 0 (chance- and ``other``-weighted) of
    following it and then best-responding to ``other``; entry 0 is the best response's value
    (player 0 maximises, player 1 minimises)."""
    out = [fmpq(0)] * tree.sequences[player]
    if player == 0:
        for (s0, s1), v in tree.payoff.items():
            w = other[s1]
            if w:
                out[s0] += v * w
    else:
        for (s0, s1), v in tree.payoff.items():
            w = other[s0]
            if w:
                out[s1] += v * w
    pick = max if player == 0 else min
    first, moves, parent = tree.first[player], tree.moves[player], tree.parent[player]
    for h in range(len(parent) - 1, -1, -1):
        start = first[h]
        out[parent[h]] += pick(out[start : start + len(moves[h])])
    return out


def _check_plan(tree: Tree, player: int, plan: Plan) -> None:
    if len(plan) != tree.sequences[player] or plan[0] != 1:
        raise NotCertified(f"player {player}'s plan does not start with probability 1")
    for h, parent in enumerate(tree.parent[player]):
        mass = [plan[s] for s in tree.actions(player, h)]
        if any(p < 0 for p in mass) or sum(mass, fmpq(0)) != plan[parent]:
            raise NotCertified(f"player {player}'s plan is not a strategy at information set {h}")


# -- the float program ------------------------------------------------------------------------


def _float_plans(tree: Tree, side: int | None = None) -> tuple[list[float], list[float]]:
    """Both players' plans by HiGHS: one player's optimal plan as the primal of its linear
    program, the other's as the dual (``side``: the primal's player; by default player 0)."""
    side = PRIMAL if side is None else side
    mine, theirs = _float_lp(tree, side)
    return (mine, theirs) if side == 0 else (theirs, mine)


def _float_lp(tree: Tree, me: int) -> tuple[list[float], list[float]]:
    """``me``'s plan x and the other's plan y: max q_0 subject to F'q <= B'x, Ex = e, x >= 0
    (q free), where B is the payoff to ``me`` (rows: my sequences) and E, F the two players'
    plan constraints; y is the dual of the first constraints."""
    import numpy as np
    from scipy.optimize import linprog
    from scipy.sparse import coo_array

    other = 1 - me
    n0, n1 = tree.sequences[me], tree.sequences[other]
    m0, m1 = tree.infosets[me], tree.infosets[other]
    rows: list[int] = []
    cols: list[int] = []
    vals: list[float] = []
    sign = -1.0 if me == 0 else 1.0
    for (s0, s1), v in tree.float_payoff().items():
        mine, theirs = (s0, s1) if me == 0 else (s1, s0)
        rows.append(theirs)
        cols.append(mine)
        vals.append(sign * v)
    # F'q: column r of q is row r of F (r = 0: y_0 = 1; r = h + 1: -y_parent + sum y_a = 0)
    rows.append(0)
    cols.append(n0)
    vals.append(1.0)
    for h, parent in enumerate(tree.parent[other]):
        rows.append(parent)
        cols.append(n0 + h + 1)
        vals.append(-1.0)
        for s in tree.actions(other, h):
            rows.append(s)
            cols.append(n0 + h + 1)
            vals.append(1.0)
    a_ub = coo_array((vals, (rows, cols)), shape=(n1, n0 + m1 + 1)).tocsr()
    er, ec, ev = [0], [0], [1.0]
    for h, parent in enumerate(tree.parent[me]):
        er.append(h + 1)
        ec.append(parent)
        ev.append(-1.0)
        for s in tree.actions(me, h):
            er.append(h + 1)
            ec.append(s)
            ev.append(1.0)
    a_eq = coo_array((ev, (er, ec)), shape=(m0 + 1, n0 + m1 + 1)).tocsr()
    b_eq = np.zeros(m0 + 1)
    b_eq[0] = 1.0
    cost = np.zeros(n0 + m1 + 1)
    cost[n0] = -1.0
    bounds: list[tuple[float | None, float | None]] = [(0.0, None)] * n0 + [(None, None)] * (m1 + 1)
    result = linprog(  # type: ignore[call-overload]  # the stubs omit sparse matrices, which HiGHS takes
        cost, A_ub=a_ub, b_ub=np.zeros(n1), A_eq=a_eq, b_eq=b_eq, bounds=bounds, method=METHOD
    )
    if result.status != 0:
        raise NotCertified(f"the float linear program failed: {result.message}")
    x = [max(0.0, float(v)) for v in result.x[:n0]]
    y = [max(0.0, -float(v)) for v in result.ineqlin.marginals]
    return x, y


# -- exact plans on the supports ----------------------------------------------------------------


def _supports(tree: Tree, player: int, plan: list[float], threshold: float) -> tuple[list[int], list[list[int]]]:
    """Per sequence, whether the plan uses it (1/0), and per information set the actions used."""
    used = [0] * tree.sequences[player]
    used[0] = 1
    chosen: list[list[int]] = []
    for h, parent in enumerate(tree.parent[player]):
        actions = tree.actions(player, h)
        if not used[parent]:
            chosen.append([])
            continue
        reach = max(plan[parent], 1e-300)
        mine = [s for s in actions if plan[s] > threshold * reach]
        if not mine:
            mine = [max(actions, key=lambda s: plan[s])]
        for s in mine:
            used[s] = 1
        chosen.append(mine)
    return used, chosen


def _exact_plan(tree: Tree, player: int, plans: tuple[list[float], list[float]], tries: Try) -> Plan:
    """``player``'s exact plan on its float plan's support that makes the other player's
    float choices best responses: every sequence the other uses at an information set, and
    every other one as good in floats (``tries.tight``), is worth as much as the first one used
    there. Raises NotCertified when the equations have no solution."""
    plan = plans[player]
    # each sequence of ``player``: ZERO, ONE, or the index of an unknown
    rep = [ZERO] * tree.sequences[player]
    rep[0] = ONE
    _, chosen = _supports(tree, player, plan, tries.threshold)
    guess: list[float] = []
    equations: list[dict[int, fmpq]] = []
    for h, actions in enumerate(chosen):
        if len(actions) == 1:
            rep[actions[0]] = rep[tree.parent[player][h]]
        elif actions:
            total: dict[int, fmpq] = {}
            for s in actions:
                rep[s] = len(guess)
                total[len(guess)] = fmpq(1)
                guess.append(plan[s])
            _add(total, rep[tree.parent[player][h]], fmpq(-1))
            equations.append(total)
    if not guess:
        return [fmpq(1) if r == ONE else fmpq(0) for r in rep]
    equations.extend(_indifference(tree, 1 - player, plans, tries, rep))
    values = _solve_linear(equations, guess, tries.denominator)
    one = fmpq(1)
    return [values[r] if r >= 0 else (one if r == ONE else fmpq(0)) for r in rep]


@dataclass(frozen=True)
class Try:
    """How the float plans are read: the relative weight above which a sequence is used, the
    gap under which two float values count as equal (0: only the sequences used), the
    denominators of the free weights (None: the float exactly)."""

    threshold: float
    tight: float
    denominator: int | None


TRIES = [Try(t, g, d) for g in (1e-9, 1e-7, 0.0) for t in (1e-7, 1e-9, 1e-5) for d in (10**4, 10**9, None)]


def _add(form: dict[int, fmpq], unknown: int, coefficient: fmpq) -> None:
    if unknown == ZERO or not coefficient:
        return
    found = form.get(unknown)
    form[unknown] = coefficient if found is None else found + coefficient


def _indifference(
    tree: Tree, player: int, plans: tuple[list[float], list[float]], tries: Try, rep: list[int]
) -> list[dict[int, fmpq]]:
    """Equations saying that every sequence ``player``'s float plan uses at an information set,
    and every one as good in floats, is worth as much as the first one used there, against the
    other's plan written as ``rep`` (each value a linear form in the unknowns, key ONE for the
    constant). Below a sequence not used, the value follows the float best response."""
    used, chosen = _supports(tree, player, plans[player], tries.threshold)
    floats = _float_best(tree, player, plans[1 - player]) if tries.tight else None
    form: list[dict[int, fmpq] | None] = [None] * tree.sequences[player]
    for (s0, s1), v in tree.payoff.items():
        mine, theirs = (s0, s1) if player == 0 else (s1, s0)
        if rep[theirs] != ZERO and (floats is not None or used[mine]):
            found = form[mine]
            if found is None:
                found = form[mine] = {}
            _add(found, rep[theirs], v)
    equations = []
    parent = tree.parent[player]
    pick = max if player == 0 else min
    for h in range(len(parent) - 1, -1, -1):
        actions = chosen[h]
        if floats is None and not actions:
            continue
        here = tree.actions(player, h)
        best = actions[0] if actions else pick(here, key=lambda s: floats[s])  # type: ignore[index]
        first = form[best] or {}
        others = [s for s in here if s != best and (s in actions or _tied(floats, s, best, tries.tight))]
        for s in others:
            difference = dict(form[s] or {})
            for k, c in first.items():
                _add(difference, k, -c)
            difference = {k: c for k, c in difference.items() if c}
            if difference:
                equations.append(difference)
        if first:
            into = form[parent[h]]
            if into is None:
                into = form[parent[h]] = {}
            for k, c in first.items():
                _add(into, k, c)
    return equations


def _tied(floats: list[float] | None, s: int, best: int, gap: float) -> bool:
    return floats is not None and abs(floats[s] - floats[best]) <= gap


def _float_best(tree: Tree, player: int, other: list[float]) -> list[float]:
    """:func:`best_response` in floats."""
    out = [0.0] * tree.sequences[player]
    for (s0, s1), v in tree.float_payoff().items():
        if player == 0:
            out[s0] += v * other[s1]
        else:
            out[s1] += v * other[s0]
    pick = max if player == 0 else min
    first, moves, parent = tree.first[player], tree.moves[player], tree.parent[player]
    for h in range(len(parent) - 1, -1, -1):
        start = first[h]
        out[parent[h]] += pick(out[start : start + len(moves[h])])
    return out


def _solve_linear(equations: list[dict[int, fmpq]], guess: list[float], denominator: int | None) -> list[fmpq]:
    """A rational solution of the equations (key ONE: the constant, on the left side); free
    unknowns pinned to their float guess rounded to ``denominator``. Raises NotCertified when
    there is none."""
    size = len(guess)
    reduced, pivots = _rref(equations, size)
    free = [u for u in range(size) if u not in pivots]
    if free:
        for u in free:
            value = Fraction(guess[u]) if denominator is None else Fraction(guess[u]).limit_denominator(denominator)
            equations.append({u: fmpq(1), ONE: -fmpq(value.numerator, value.denominator)})
        reduced, pivots = _rref(equations, size)
        if len(pivots) != size:
            raise NotCertified("the support's equations leave the plan undetermined")
    solution = [fmpq(0)] * size
    for r, u in enumerate(pivots):
        solution[u] = reduced[r, size]
    return solution


def _rref(equations: list[dict[int, fmpq]], size: int) -> tuple[fmpq_mat, list[int]]:
    matrix = fmpq_mat(len(equations), size + 1)
    for r, equation in enumerate(equations):
        for u, c in equation.items():
            matrix[r, size if u == ONE else u] = -c if u == ONE else c
    reduced, rank = matrix.rref()
    pivots: list[int] = []
    column = 0
    for r in range(rank):
        while reduced[r, column] == 0:
            column += 1
        if column == size:
            raise NotCertified("the support's equations have no solution")
        pivots.append(column)
    return reduced, pivots


def _f(value: Any) -> Fraction:
    if isinstance(value, fmpq):
        return Fraction(int(value.p), int(value.q))
    return Fraction(value)


# -- Bayesian and matrix games ------------------------------------------------------------------


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
    each player sees only their own, then both act at once: a :class:`Tree` with one
    information set per type, solved by :func:`solve`.

    Raises :class:`NotCertified` if the exact check fails.

    >>> e = bayesian_game([[Fraction(1, 2)], [Fraction(1, 2)]], 2, 2,
    ...     lambda t1, t2, a1, a2: Fraction(1 if (a1 == a2) == (t1 == 0) else -1))
    >>> e.value, e.column  # type 0 wants to match the column, type 1 not to: the column mixes
    (Fraction(0, 1), [[Fraction(1, 2), Fraction(1, 2)]])
    """
    n1, n2 = len(prior), len(prior[0])
    tree = Tree()
    rows = [tree.infoset(0, t1, 0, range(row_actions)) for t1 in range(n1)]
    columns = [tree.infoset(1, t2, 0, range(column_actions)) for t2 in range(n2)]
    for t1 in range(n1):
        for t2 in range(n2):
            weight = prior[t1][t2]
            if not weight:
                continue
            for i in range(row_actions):
                for j in range(column_actions):
                    v = weight * payoff(t1, t2, i, j)
                    if v:
                        tree.leaf(
                            tree.first[0][rows[t1]] + i,
                            tree.first[1][columns[t2]] + j,
                            fmpq(v.numerator, v.denominator),
                        )
    s = solve(tree)
    p1 = [sum(prior[t1], Fraction(0)) for t1 in range(n1)]
    p2 = [sum((prior[t1][t2] for t1 in range(n1)), Fraction(0)) for t2 in range(n2)]

    def payoffs(player: int, h: int, p: Fraction) -> list[Fraction]:
        return [_f(s.best[player][a]) / (p or 1) for a in tree.actions(player, h)]

    return Equilibrium(
        value=s.value,
        row=[s.behaviour(0, h) for h in rows],
        column=[s.behaviour(1, h) for h in columns],
        row_payoffs=[payoffs(0, h, p1[t]) for t, h in enumerate(rows)],
        column_payoffs=[payoffs(1, h, p2[t]) for t, h in enumerate(columns)],
        row_type_probability=p1,
        column_type_probability=p2,
    )
