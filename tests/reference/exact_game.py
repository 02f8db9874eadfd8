"""Independent exact solver of 2-player open-hand endgames (tests only).

Written from docs/spec/outputs.md ("Value semantics") and the engine's public API alone, without
reading the project's solver (``solver/values.py``, ``solver/coup/turns.py``), so that the two can be
cross-checked.

The game
--------
Every state reachable from the root is a node: the player to move at the root decides at MAX
nodes, the other player at MIN nodes, chance picks a successor with its exact probability at
CHANCE nodes, and a finished game is a TERMINAL node worth +1 (the root's player won) or -1.
The payoff of a play is the value of the terminal it reaches, 0 if it never ends.  This is a
finite turn-based stochastic game; it is equivalent to a mean-payoff game (a terminal is an
absorbing state earning its value at every step, every other state earns 0), so it has a value
and both players have optimal *positional* (memoryless, deterministic) strategies, in the game
and in every one-player version of it (an MDP) obtained by fixing one side's strategy.

The method: strategy iteration, nested, with exact fractions
-----------------------------------------------------------
``_Solver.improve(sign, fixed)`` is one algorithm used at two levels.  The *controller*
(MAX if ``sign`` = +1, MIN if -1) improves a positional strategy; ``fixed`` is either ``None``
(the opponent chooses freely: the game) or a positional strategy of the opponent (an MDP).
A controller strategy is evaluated by the opponent's exact best response: in an MDP that is the
Markov chain of the two fixed strategies, solved exactly (``evaluate_chain``); in the game it
is the MDP where the controller's strategy is fixed, solved by the same ``improve`` one level
down.  Write ``v`` for the evaluation of the current strategy ``s`` (values always from the
root's player's point of view) and ``x`` = ``sign`` * ``v`` (what the controller maximises).

1. *Switch*: at every controller node, if a successor has a strictly larger ``x`` than the
   chosen one, choose the best successor.
2. Otherwise *stall*: a controller who is losing (``x`` < 0) in a set of positions where he can
   keep play going forever would rather draw.  Compute the largest set ``X`` of non-terminal
   nodes with ``x`` < 0 such that, calling an edge *level* when both its ends have the same
   ``v``: every controller node of ``X`` has a level edge into ``X``; every opponent node of
   ``X`` has *all* its level edges (only the fixed one in an MDP) into ``X``; every chance node
   of ``X`` has all its successors in ``X``.  If ``X`` is not empty, the controller moves along
   level edges into ``X`` there.
3. Otherwise stop: ``v`` is the optimal value.

Why it is exact (sketch of the proof; the code follows it step for step):

- *Each step improves.*  Let ``s'`` be the new strategy.  Every edge ``s'`` uses goes to a node
  with ``x`` at least as large, the opponent's evaluation is optimal for him (so ``x`` at his
  nodes is at most ``x`` of every successor), and chance nodes average: ``x`` of the current
  node is a bounded submartingale along any play of ``s'`` against a positional opponent.  Such
  a play either ends in a terminal (payoff = limit of ``x``), or stays forever in a recurrent
  class of the chain, where the submartingale is constant and no strict switch lies (a strict
  increase cannot occur inside a recurrent class).  Such a class either meets ``X`` (where
  ``x`` < 0, while the play is a draw, worth 0), or uses only edges of the old strategy ``s``, so
  it is a set in which the opponent could keep play going forever against ``s``, hence ``x`` <= 0
  there (his best response to ``s`` would otherwise draw there).  So the evaluation of ``s'`` is >= that of ``s``
  everywhere.  It is strictly larger where a switch was made, and on ``X`` (from ``X`` play
  either stays in ``X`` forever, worth 0 > ``x``, or leaves it through an opponent's edge that
  is not level, to a node whose ``x`` is strictly larger).  Evaluations strictly increase, so
  no strategy comes back: the iteration ends, after finitely many steps.
- *At the end ``v`` is the value.*  With no switch, ``v`` satisfies the one-step equations
  (max / min / mean) everywhere.  The controller's strategy guarantees ``v``.  Conversely let
  the opponent play level edges, and in the classes where ``x`` < 0 the level edge by which his
  node left ``X`` when ``X`` was computed (the removal order is an attractor ranking).  If the
  controller could do better against that strategy, take the nodes where his gain over ``v``
  is largest: his optimal reply keeps play inside them (gaps can only shrink along edges), so
  play there never ends, the gain is 0 - ``v`` and ``x`` < 0 there; that set satisfies the
  three conditions of step 2 under the opponent's ranking strategy, and the node of it removed
  first from ``X`` gives a contradiction.  So the opponent holds the controller to ``v``.

This also explains stalling: a greedy strategy that is "optimal" by one-step values but loops
forever in a won position is worth 0 to its owner, and that is what the evaluation says (the
chain gives 0 to every node that cannot reach a terminal); the opponent's best response uses
stalling as an option automatically (it is his step 2).

``exact_value`` runs ``improve`` at the game level, starting from the strategies that are
greedy under float value iteration (a warm start only: any start is correct), and then checks
the answer independently of the argument above when ``check`` is true: the opponent's
ranking strategy built from ``v`` is evaluated by the controller's exact best response, which
must give back ``v`` exactly (MAX guarantees >= v with his strategy, MIN <= v with his).

``value_iteration`` is plain value iteration in floats on the same graph, from 0 everywhere,
for a float cross-check.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction

from solver.coup import State

__all__ = [
    "CHANCE",
    "MAX",
    "MIN",
    "TERMINAL",
    "GameTooLarge",
    "Graph",
    "build",
    "evaluate_strategies",
    "exact_value",
    "principal_line",
    "solve_graph",
    "value_iteration",
]

MAX, MIN, CHANCE, TERMINAL = 0, 1, 2, 3
ZERO = Fraction(0)


class GameTooLarge(Exception):
    """More reachable states than the cap given to :func:`build`."""


class Graph:
    """Every state reachable from a root, numbered in discovery order (the root is 0)."""

    def __init__(self) -> None:
        self.states: list[State] = []
        self.kind: list[int] = []
        self.succ: list[list[int]] = []  # distinct successors
        self.prob: list[list[Fraction]] = []  # chance nodes: probability of each successor
        self.payoff: list[int] = []  # terminal nodes: +1 / -1 for the root's player

    @property
    def size(self) -> int:
        return len(self.kind)

    @classmethod
    def from_lists(cls, kind: list[int], succ: list[list[int]], prob: list[list[Fraction]], payoff: list[int]) -> Graph:
        """A hand-made graph (no engine states), for testing the method itself."""
        g = cls()
        g.kind, g.succ, g.prob, g.payoff = kind, succ, prob, payoff
        return g

    def describe(self, node: int) -> str:
        return self.states[node].text() if node < len(self.states) else f"node {node}"


def build(root: State, cap: int | None = None) -> Graph:
    """Explore every state reachable from ``root`` with the rules engine."""
    me = root.current_player()
    if me < 0:
        raise ValueError("the root must be a player's decision")
    if len(root.living()) != 2:
        raise ValueError("two living players only")
    g = Graph()
    index: dict[State, int] = {root: 0}
    g.states.append(root)
    i = 0
    while i < len(g.states):
        s = g.states[i]
        i += 1
        succ: list[int] = []
        probs: list[Fraction] = []
        if s.is_terminal():
            winner = s.winner()
            g.kind.append(TERMINAL)
            g.payoff.append(1 if winner == me else -1)
            g.succ.append(succ)
            g.prob.append(probs)
            continue
        player = s.current_player()
        if player == -1:
            g.kind.append(CHANCE)
            outcomes = [(s.apply(m), p) for m, p in s.chance_outcomes()]
        else:
            g.kind.append(MAX if player == me else MIN)
            outcomes = [(s.apply(m), ZERO) for m in s.legal_moves()]
        where: dict[int, int] = {}
        for t, p in outcomes:
            j = index.get(t)
            if j is None:
                j = index[t] = len(g.states)
                g.states.append(t)
                if cap is not None and len(g.states) > cap:
                    raise GameTooLarge(f"more than {cap} states")
            if j in where:
                probs[where[j]] += p
            else:
                where[j] = len(succ)
                succ.append(j)
                probs.append(p)
        g.payoff.append(0)
        g.succ.append(succ)
        g.prob.append(probs if player == -1 else [])
    if any(k == CHANCE and sum(p) != 1 for k, p in zip(g.kind, g.prob, strict=True)):
        raise AssertionError("chance probabilities do not sum to 1")
    return g


# -- floats ------------------------------------------------------------------------------------


def _float_sweeps(g: Graph, tolerance: float, gauss_seidel: bool, max_sweeps: int) -> list[float]:
    v = [float(g.payoff[i]) if g.kind[i] == TERMINAL else 0.0 for i in range(g.size)]
    # Far nodes first (reverse discovery order): with in-place updates values flow rootwards.
    nodes = [
        (i, g.kind[i], tuple(g.succ[i]), tuple(float(p) for p in g.prob[i]))
        for i in reversed(range(g.size))
        if g.kind[i] != TERMINAL
    ]
    for _ in range(max_sweeps):
        source = v if gauss_seidel else list(v)
        change = 0.0
        for i, k, targets, probs in nodes:
            if k == MAX:
                new = max([source[j] for j in targets])
            elif k == MIN:
                new = min([source[j] for j in targets])
            else:
                new = 0.0
                for p, j in zip(probs, targets, strict=True):
                    new += p * source[j]
            d = new - v[i]
            if d > change:
                change = d
            elif -d > change:
                change = -d
            v[i] = new
        if change < tolerance:
            return v
    raise RuntimeError(f"value iteration did not settle within {max_sweeps} sweeps")


def value_iteration(
    root: State, tolerance: float = 1e-12, *, graph: Graph | None = None, gauss_seidel: bool = True
) -> float:
    """Plain value iteration in floats, from 0 everywhere: a sweep sets every node to the max /
    min / probability-weighted mean of its successors' values (terminals fixed at +1 / -1),
    until the largest change in a sweep is below ``tolerance``.  Returns the root's value for
    the player to move there.

    ``gauss_seidel`` (the default) updates in place, farthest nodes first, which is the same
    iteration with fresher values (several times fewer sweeps); ``False`` is the textbook
    synchronous (Jacobi) form, each sweep reading only the previous sweep's values."""
    g = graph if graph is not None else build(root)
    return _float_sweeps(g, tolerance, gauss_seidel, max_sweeps=1_000_000)[0]


# -- exact ---------------------------------------------------------------------------------------


class _Solver:
    def __init__(self, g: Graph) -> None:
        self.g = g
        self.n = g.size
        self.chains = 0  # Markov chains solved (statistics)

    # Evaluate a pair of positional strategies: a Markov chain.
    def evaluate_chain(self, choice: Sequence[int]) -> list[Fraction]:
        """Exact P(win) - P(loss) of the chain where decision node i moves to ``choice[i]``."""
        self.chains += 1
        g, n = self.g, self.n
        kind, succ = g.kind, g.succ

        def out(i: int) -> list[int]:
            k = kind[i]
            if k == CHANCE:
                return succ[i]
            if k == TERMINAL:
                return []
            return [choice[i]]

        # 1. Nodes that reach a terminal with positive probability; the others never end: 0.
        preds: list[list[int]] = [[] for _ in range(n)]
        for i in range(n):
            for j in out(i):
                preds[j].append(i)
        live = [False] * n
        stack = [i for i in range(n) if kind[i] == TERMINAL]
        for i in stack:
            live[i] = True
        while stack:
            j = stack.pop()
            for i in preds[j]:
                if not live[i]:
                    live[i] = True
                    stack.append(i)
        value: list[Fraction | None] = [None] * n
        for i in range(n):
            if kind[i] == TERMINAL:
                value[i] = Fraction(g.payoff[i])
            elif not live[i]:
                value[i] = ZERO

        # 2. Strongly connected components of the live part (iterative Tarjan); each is emitted
        # after every component it reaches, so it is solved with its exits known.
        index = [-1] * n
        low = [0] * n
        on_stack = [False] * n
        tarjan: list[int] = []
        counter = 0
        for start in range(n):
            if value[start] is not None or index[start] >= 0:
                continue
            work = [(start, 0)]
            index[start] = low[start] = counter
            counter += 1
            tarjan.append(start)
            on_stack[start] = True
            while work:
                node, pos = work[-1]
                edges = out(node)
                if pos < len(edges):
                    work[-1] = (node, pos + 1)
                    nxt = edges[pos]
                    if value[nxt] is not None:
                        continue
                    if index[nxt] < 0:
                        index[nxt] = low[nxt] = counter
                        counter += 1
                        tarjan.append(nxt)
                        on_stack[nxt] = True
                        work.append((nxt, 0))
                    elif on_stack[nxt] and index[nxt] < low[node]:
                        low[node] = index[nxt]
                    continue
                work.pop()
                if work:
                    parent = work[-1][0]
                    if low[node] < low[parent]:
                        low[parent] = low[node]
                if low[node] == index[node]:
                    component = []
                    while True:
                        m = tarjan.pop()
                        on_stack[m] = False
                        component.append(m)
                        if m == node:
                            break
                    self._solve_component(component, out, value)
        return [v if v is not None else ZERO for v in value]

    def _solve_component(
        self, component: list[int], out: Callable[[int], list[int]], value: list[Fraction | None]
    ) -> None:
        """Values of one strongly connected component whose exits are all known."""
        kind, prob = self.g.kind, self.g.prob

        def known(j: int) -> Fraction:
            found = value[j]
            assert found is not None, "a component is solved after every component it reaches"
            return found

        if len(component) == 1:
            i = component[0]
            edges = out(i)
            if i not in edges:
                if kind[i] == CHANCE:
                    value[i] = sum((p * known(j) for p, j in zip(prob[i], edges, strict=True)), ZERO)
                else:
                    value[i] = value[edges[0]]
                return
        # x_i - sum_{j in component} a_ij x_j = b_i, solved by sparse Gaussian elimination.
        members = set(component)
        rows: dict[int, dict[int, Fraction]] = {}
        rhs: dict[int, Fraction] = {}
        for i in component:
            row: dict[int, Fraction] = {i: Fraction(1)}
            b = ZERO
            edges = out(i)
            weights = prob[i] if kind[i] == CHANCE else [Fraction(1)]
            for p, j in zip(weights, edges, strict=True):
                if j in members:
                    row[j] = row.get(j, ZERO) - p
                else:
                    b += p * known(j)
            rows[i] = row
            rhs[i] = b
        # Eliminate in the order of the component (deterministic nodes first: they are cheap).
        order = sorted(component, key=lambda i: (kind[i] == CHANCE, i))
        users: dict[int, set[int]] = {i: set() for i in component}
        for i, row in rows.items():
            for j in row:
                if j != i:
                    users[j].add(i)
        solved_order: list[int] = []
        for pivot in order:
            row = rows[pivot]
            diag = row.pop(pivot, ZERO)
            if diag == 0:
                raise ArithmeticError("singular chain system")
            for j in row:
                row[j] /= diag
            rhs[pivot] /= diag
            # x_pivot = rhs[pivot] - sum row[j] x_j ; substitute into every row using x_pivot
            for u in list(users[pivot]):
                if u == pivot:
                    continue
                other = rows[u]
                coef = other.pop(pivot)
                rhs[u] -= coef * rhs[pivot]
                for j, a in row.items():
                    new = other.get(j, ZERO) - coef * a
                    if new == 0:
                        other.pop(j, None)
                        if j != u:
                            users[j].discard(u)
                    else:
                        other[j] = new
                        if j != u:
                            users[j].add(u)
            for j in row:
                users[j].discard(pivot)
            solved_order.append(pivot)
        for pivot in reversed(solved_order):
            value[pivot] = rhs[pivot] - sum((a * known(j) for j, a in rows[pivot].items()), ZERO)

    # One level of strategy iteration.
    def improve(
        self,
        sign: int,
        strategy: list[int],
        fixed: list[int] | None,
        inner: list[int] | None = None,
    ) -> tuple[list[Fraction], list[int], list[int]]:
        """Strategy iteration for the controller (MAX if ``sign`` = 1, MIN if -1).

        ``strategy``: the controller's start strategy (``strategy[i]`` = successor chosen at a
        controller node i; other entries ignored).  ``fixed``: the opponent's positional
        strategy (an MDP) or None (the game; the opponent best-responds, warm-started from
        ``inner``).  Returns (exact values, the controller's final strategy, the opponent's
        strategy used for the last evaluation)."""
        g, n = self.g, self.n
        kind, succ = g.kind, g.succ
        mine = MAX if sign > 0 else MIN
        theirs = MIN if sign > 0 else MAX
        strategy = list(strategy)
        reply = list(inner if inner is not None else strategy)
        while True:
            if fixed is None:
                # The opponent's exact best response: the MDP with our strategy fixed.
                value, reply, _ = self.improve(-sign, reply, strategy)
                choice = [reply[i] if kind[i] == theirs else strategy[i] for i in range(n)]
            else:
                choice = [fixed[i] if kind[i] == theirs else strategy[i] for i in range(n)]
                value = self.evaluate_chain(choice)
                reply = choice
            x = _ranks(value, sign)  # integers ordered as sign * value, cheaper than fractions
            switched = False
            for i in range(n):
                if kind[i] != mine:
                    continue
                best = strategy[i]
                for j in succ[i]:
                    if x[j] > x[best]:
                        best = j
                if best != strategy[i]:
                    strategy[i] = best
                    switched = True
            if switched:
                continue
            stay, _ = self.stalling_set(sign, value, choice if fixed is not None else None)
            if not stay:
                return value, strategy, reply
            for i, j in stay.items():
                strategy[i] = j

    def stalling_set(
        self, sign: int, value: list[Fraction], fixed: list[int] | None
    ) -> tuple[dict[int, int], dict[int, int]]:
        """Step 2 for the controller ``sign``: the largest set X (see the module docstring).

        Returns (a level edge into X for every controller node of X, and for every opponent
        node of the losing classes that left X, the level edge that made it leave: the
        opponent's ranking strategy)."""
        g, n = self.g, self.n
        kind, succ = g.kind, g.succ
        mine = MAX if sign > 0 else MIN
        x = _ranks(value, sign)
        zero = _ranks([*value, ZERO], sign)[-1]
        inside = [kind[i] != TERMINAL and x[i] < zero for i in range(n)]

        def level(i: int) -> list[int]:
            edges = [fixed[i]] if fixed is not None and kind[i] not in (mine, CHANCE) else succ[i]
            if kind[i] == CHANCE:
                return edges
            return [j for j in edges if x[j] == x[i]]

        levels = [level(i) if inside[i] else [] for i in range(n)]
        preds: list[list[int]] = [[] for _ in range(n)]
        count = [0] * n  # controller nodes: level edges still into X
        for i in range(n):
            if inside[i]:
                for j in levels[i]:
                    preds[j].append(i)
                if kind[i] == mine:
                    count[i] = sum(1 for j in levels[i] if inside[j])
        escape: dict[int, int] = {}
        queue = []
        for i in range(n):
            if not inside[i]:
                continue
            if kind[i] == mine:
                bad = count[i] == 0
            else:
                bad = any(not inside[j] for j in levels[i])
                if bad and kind[i] != CHANCE:
                    escape[i] = next(j for j in levels[i] if not inside[j])
            if bad:
                queue.append(i)
        for i in queue:
            inside[i] = False
        while queue:
            j = queue.pop()
            for i in preds[j]:
                if not inside[i]:
                    continue
                if kind[i] == mine:
                    count[i] -= 1
                    if count[i] > 0:
                        continue
                elif kind[i] != CHANCE:
                    escape[i] = j
                inside[i] = False
                queue.append(i)
        stay = {i: next(j for j in levels[i] if inside[j]) for i in range(n) if inside[i] and kind[i] == mine}
        return stay, escape


def _ranks(value: Sequence[Fraction], sign: int) -> list[int]:
    """Integers in the same order as ``sign * value`` (equal values, equal integers)."""
    pairs = [(v.numerator, v.denominator) for v in value]  # hashing fractions is slow
    distinct = sorted(set(pairs), key=lambda pair: Fraction(*pair))
    order = {pair: sign * r for r, pair in enumerate(distinct)}
    return [order[pair] for pair in pairs]


def _greedy(g: Graph, v: Sequence[float]) -> list[int]:
    strategy = [0] * g.size
    for i in range(g.size):
        if g.kind[i] == MAX:
            strategy[i] = max(g.succ[i], key=lambda j: v[j])
        elif g.kind[i] == MIN:
            strategy[i] = min(g.succ[i], key=lambda j: v[j])
    return strategy


def solve_graph(g: Graph, check: bool = True) -> list[Fraction]:
    """Exact values of every node of ``g`` (for the root's player)."""
    solver = _Solver(g)
    warm = _greedy(g, _float_sweeps(g, 1e-6, gauss_seidel=True, max_sweeps=1_000_000))
    value, sigma, _ = solver.improve(1, warm, None, inner=warm)
    if check:
        _check(solver, value, sigma)
    return value


def _check(solver: _Solver, value: list[Fraction], sigma: list[int]) -> None:
    """Certify ``value`` exactly: MAX's strategy is held to it by MIN's best response, MIN's
    ranking strategy holds MAX's best response to it, and the one-step equations hold."""
    g = solver.g
    kind, succ, prob = g.kind, g.succ, g.prob
    for i in range(g.size):
        k = kind[i]
        if k == TERMINAL:
            ok = value[i] == g.payoff[i]
        elif k == MAX:
            ok = value[i] == max(value[j] for j in succ[i])
        elif k == MIN:
            ok = value[i] == min(value[j] for j in succ[i])
        else:
            ok = value[i] == sum((p * value[j] for p, j in zip(prob[i], succ[i], strict=True)), ZERO)
        if not ok:
            raise AssertionError(f"one-step equation fails at {g.describe(i)}")
    _, escape = solver.stalling_set(1, value, None)
    tau = [0] * g.size
    for i in range(g.size):
        if kind[i] == MIN:
            tau[i] = escape.get(i, min(succ[i], key=lambda j: value[j]))
    high, _, _ = solver.improve(1, sigma, tau)  # MAX's best reply to MIN's ranking strategy
    if high != value:
        raise AssertionError("MIN's strategy does not hold MAX to the values")


def evaluate_strategies(g: Graph, choice: Sequence[int]) -> list[Fraction]:
    """Exact P(win) - P(loss) at every node when decision node i always moves to ``choice[i]``
    (a play that never ends counts 0)."""
    return _Solver(g).evaluate_chain(choice)


def principal_line(g: Graph, value: Sequence[Fraction], length: int = 20) -> list[str]:
    """A line of best moves under ``value`` from the root (first best move in the engine's
    order; the most probable chance outcome), for failure messages."""
    lines: list[str] = []
    index = {s: i for i, s in enumerate(g.states)}
    state = g.states[0]
    while len(lines) < length and not state.is_terminal():
        if state.current_player() == -1:
            move = max(state.chance_outcomes(), key=lambda outcome: outcome[1])[0]
        else:
            here = value[index[state]]
            move = next(m for m in state.legal_moves() if value[index[state.apply(m)]] == here)
        lines.append(move.text(state.names))
        state = state.apply(move)
    return lines


def exact_value(root: State, check: bool = True, graph: Graph | None = None) -> Fraction:
    """The exact value of ``root`` for ``root.current_player()``: P(win) - P(loss) under
    optimal open-hand play, a game that never ends counting 0."""
    g = graph if graph is not None else build(root)
    return solve_graph(g, check)[0]
