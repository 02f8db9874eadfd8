"""The sequence-form LP of :mod:`tests.reference.hidden_tree` in floats (HiGHS through scipy), and
the exact plan on the support the floats found (sparse exact elimination, sympy's DomainMatrix
over QQ).

For player ``p`` (payoff ``u = A`` for the maximiser, ``-A`` for the minimiser, ``o`` the other):

    maximise w[root]  over the plan z of p and the values w of o's sets (free), subject to
        w[J(t)] - sum(w[J'] for J' under t) - (u^T z)[t] <= 0   for every sequence t of o
        E z = e, z >= 0

(the inner minimisation over o's plans replaced by its LP dual: ``w`` are o's best-response
values of its information sets, ``J(t)`` the set of sequence ``t``, the root for the empty one).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from .hidden_tree import NotCertified, SequenceForm, check_plan

TOLERANCE = 1e-7


@dataclass
class FloatLP:
    """A float optimum of player ``player``'s LP: its plan, the other's set values (``w[0]`` the
    root, ``w[1 + k]`` the other's ``k``-th set) and the slack of each of the other's sequences."""

    player: int
    plan: list[float]
    w: list[float]
    slack: list[float]
    value: float


def _column_index(sf: SequenceForm, player: int) -> list[list[tuple[int, Fraction]]]:
    """For each sequence t of the other player, the pairs (own sequence s, u[s, t])."""
    other = 1 - player
    sign = 1 if player == 0 else -1
    out: list[list[tuple[int, Fraction]]] = [[] for _ in range(sf.sequences(other))]
    for (s0, s1), a in sf.payoff.items():
        s, t = (s0, s1) if player == 0 else (s1, s0)
        out[t].append((s, sign * a))
    return out


def float_plans(sf: SequenceForm, player: int) -> FloatLP:
    """Solve ``player``'s LP in floats (HiGHS dual simplex: a vertex)."""
    import numpy as np
    from scipy.optimize import linprog
    from scipy.sparse import coo_matrix

    other = 1 - player
    n, m_other = sf.sequences(player), len(sf.sets[other])
    columns = _column_index(sf, player)
    rows, cols, vals = [], [], []
    for t in range(sf.sequences(other)):
        for s, a in columns[t]:
            rows.append(t)
            cols.append(s)
            vals.append(-float(a))
    for pos in range(m_other):
        start, width = sf.first[other][pos], sf.width[other][pos]
        for t in range(start, start + width):
            rows.append(t)
            cols.append(n + 1 + pos)
            vals.append(1.0)
        for child in range(start, start + width):
            for j in sf.under[other][child]:
                rows.append(child)
                cols.append(n + 1 + j)
                vals.append(-1.0)
    rows.append(0)
    cols.append(n)
    vals.append(1.0)
    for j in sf.under[other][0]:
        rows.append(0)
        cols.append(n + 1 + j)
        vals.append(-1.0)
    a_ub = coo_matrix((vals, (rows, cols)), shape=(sf.sequences(other), n + 1 + m_other)).tocsr()
    erows, ecols, evals = [0], [0], [1.0]
    for pos in range(len(sf.sets[player])):
        start, width = sf.first[player][pos], sf.width[player][pos]
        erows.append(pos + 1)
        ecols.append(sf.parent[player][pos])
        evals.append(-1.0)
        for s in range(start, start + width):
            erows.append(pos + 1)
            ecols.append(s)
            evals.append(1.0)
    a_eq = coo_matrix((evals, (erows, ecols)), shape=(len(sf.sets[player]) + 1, n + 1 + m_other)).tocsr()
    b_eq = np.zeros(len(sf.sets[player]) + 1)
    b_eq[0] = 1.0
    c = np.zeros(n + 1 + m_other)
    c[n] = -1.0
    bounds = [(0, None)] * n + [(None, None)] * (1 + m_other)
    res = linprog(
        c, A_ub=a_ub, b_ub=np.zeros(sf.sequences(other)), A_eq=a_eq, b_eq=b_eq, bounds=bounds, method="highs-ds"
    )
    if res.status != 0:
        raise NotCertified(f"HiGHS failed on player {player}'s LP: {res.message}")
    z = list(res.x[:n])
    w = list(res.x[n:])
    slack = list(res.ineqlin.residual)
    return FloatLP(player, z, w, slack, -float(res.fun))


def support_plans(sf: SequenceForm, player: int, own: FloatLP, theirs: FloatLP) -> list[list[Fraction]]:
    """Exact plans of ``player`` solving the equations the floats suggest: its own plan's
    constraints restricted to the sequences it plays, and as equalities the LP constraints
    (the other player's indifference) of, first, every sequence whose constraint is tight in
    the float optimum (at a vertex they fix the plan), then only the sequences the other's
    float plan plays. Free unknowns take their float values, rounded. Returns the solutions
    that are plans (possibly none)."""
    tight = [t for t, v in enumerate(own.slack) if abs(v) <= TOLERANCE]
    played = [t for t, v in enumerate(theirs.plan) if v > TOLERANCE]
    out = []
    for rows in (tight, played):
        try:
            out.append(_solve_equations(sf, player, own, rows))
        except NotCertified:
            continue
    return out


def _solve_equations(sf: SequenceForm, player: int, own: FloatLP, equal: list[int]) -> list[Fraction]:
    """The exact plan on ``own``'s support with the LP constraints of the other's sequences
    ``equal`` as equations (see :func:`support_plans`); raises :class:`NotCertified`."""
    from sympy.polys.domains import QQ
    from sympy.polys.matrices import DomainMatrix

    other = 1 - player
    played = [s for s, v in enumerate(own.plan) if v > TOLERANCE]
    column = {s: k for k, s in enumerate(played)}
    set_of = [0] * sf.sequences(other)  # the w index (0: root, 1 + pos) of each sequence's set
    for pos in range(len(sf.sets[other])):
        start = sf.first[other][pos]
        for t in range(start, start + sf.width[other][pos]):
            set_of[t] = 1 + pos
    wcol: dict[int, int] = {}

    def w(j: int) -> int:
        if j not in wcol:
            wcol[j] = len(played) + len(wcol)
        return wcol[j]

    rhs = -1  # the right-hand side's column, renumbered once the width is known
    equations: list[dict[int, Fraction]] = [{column[0]: Fraction(1), rhs: Fraction(1)}]
    for pos in range(len(sf.sets[player])):
        parent = sf.parent[player][pos]
        if parent not in column:
            continue
        row = {column[parent]: Fraction(-1)}
        start = sf.first[player][pos]
        for s in range(start, start + sf.width[player][pos]):
            if s in column:
                row[column[s]] = Fraction(1)
        equations.append(row)
    columns = _column_index(sf, player)
    for t in equal:
        row = {w(set_of[t]): Fraction(1)}
        for j in sf.under[other][t]:
            row[w(1 + j)] = row.get(w(1 + j), Fraction(0)) - 1
        for s, a in columns[t]:
            if s in column:
                row[column[s]] = row.get(column[s], Fraction(0)) - a
        equations.append({k: v for k, v in row.items() if v})
    width = len(played) + len(wcol)
    sdm = {
        i: {(width if k == rhs else k): QQ(v.numerator, v.denominator) for k, v in row.items()}
        for i, row in enumerate(equations)
    }
    matrix = DomainMatrix.from_dod(sdm, (len(equations), width + 1), QQ)  # type: ignore[attr-defined]
    reduced, pivots = matrix.rref()
    if width in pivots:
        raise NotCertified(f"the support equations of player {player} have no solution")
    free = [k for k in range(width) if k not in set(pivots)]
    guess = [own.plan[s] for s in played] + [own.w[j] for j in wcol]
    values: dict[int, Fraction] = {k: Fraction(guess[k]).limit_denominator(1_000_000) for k in free}
    rows = reduced.to_dod()
    for r, p in enumerate(pivots):
        total = Fraction(0)
        for k, v in rows.get(r, {}).items():
            if k == width:
                total += Fraction(int(v.numerator), int(v.denominator))
            elif k != p:
                total -= Fraction(int(v.numerator), int(v.denominator)) * values[k]
        values[p] = total
    plan = [Fraction(0)] * sf.sequences(player)
    for s, k in column.items():
        plan[s] = values[k]
    try:
        check_plan(sf, player, plan)
    except ValueError as error:
        raise NotCertified(f"the support solution of player {player} is not a plan: {error}") from error
    return plan
