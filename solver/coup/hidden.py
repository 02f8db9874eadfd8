"""The solver's answer about a position with hypotheses: the weighted value, the best first
move, the principal line, and the exact figures behind them (outputs.md, "Puzzles"), from the
endgame tables (:mod:`solver.coup.tablebase`); and the same answers from a game graph solved on
the spot (:func:`graph_open_values`, :func:`graph_answer`: today's method before the tables, for
cross-checks, exports and recomputations).

>>> from solver.coup.puzzle import Puzzle
>>> p = Puzzle.from_mapping({"to_move": "Alice", "players": {
...     "Alice": {"coins": 4, "hand": ["captain"], "face_up": ["contessa"]},
...     "Bob": {"coins": 5, "hand": ["assassin"], "face_up": ["duke"]}}})
>>> answer(p.hypotheses()).value
Fraction(-1, 1)
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from fractions import Fraction

from ..errors import Unsupported
from ..graph import CHANCE, END
from ..values import Solution, solve
from .limits import DEFAULT_BUDGET
from .moves import Move
from .puzzle import Hypothesis
from .rules import Kind
from .state import Phase, State
from .tablebase.probe import library_for, probe
from .tablebase.probe import open_values as table_values
from .tablebase.probe import principal_line as table_line
from .turns import build, build_many

LINE_LENGTH = 20


@dataclass(frozen=True)
class Solved:
    """One hypothesis, solved: its value and figures at the root, each first move's value (in
    the engine's order), its principal line, and how many positions were solved on the spot
    for it (0 when the tables answered)."""

    hypothesis: Hypothesis
    value: Fraction
    win: Fraction
    loss: Fraction
    moves: list[tuple[Move, Fraction]]
    line: list[Move]
    states: int = 0
    solution: Solution | None = None  # a graph solved on the spot, kept only when asked for (--graph)

    @classmethod
    def from_tables(cls, hypothesis: Hypothesis, budget: int, with_line: bool = True) -> Solved:
        """The hypothesis answered from the tables (a missing table generated on the spot, at
        most ``budget`` positions); without ``with_line`` its line is left empty (drawing one
        costs more than the values). Raises Unsupported, TooLarge or NotCertified."""
        state = hypothesis.state
        p = probe(state, library=library_for(budget))
        value_of = {m: v for m, v, _ in p.moves}
        moves = [(m, value_of[m]) for m in state.legal_moves()]
        return cls(hypothesis, p.value, p.win, p.loss, moves, p.line(3 * LINE_LENGTH) if with_line else [])

    @classmethod
    def from_graph(cls, hypothesis: Hypothesis, budget: int, keep: bool = False) -> Solved:
        """The hypothesis solved on a game graph built on the spot (at most ``budget``
        positions). Raises TooLarge or NotCertified."""
        solution = solve(build(hypothesis.state, budget))
        g, v = solution.graph, solution.value
        moves = [(g.move(e), v[int(g.succ[e])]) for e in g.successors(0)]
        line = graph_line(solution, max(moves, key=lambda mv: mv[1])[0])
        return cls(hypothesis, v[0], solution.win[0], solution.loss[0], moves, line, g.size, solution if keep else None)


@dataclass(frozen=True)
class Answer:
    """Everything `coup solve` prints."""

    to_move: str
    value: Fraction
    win: Fraction
    loss: Fraction
    draw: Fraction
    best: Move
    best_value: Fraction
    line: list[str]
    states: int
    seconds: float
    solved: list[Solved] = field(default_factory=list)

    @property
    def hypotheses(self) -> int:
        return len(self.solved)


def answer(
    hypotheses: list[Hypothesis],
    budget: int = DEFAULT_BUDGET,
    keep: bool = False,
    tick: Callable[[], None] = lambda: None,
) -> Answer:
    """Answer each hypothesis open-hand from the tables and weigh them; ``budget`` bounds what
    is generated on the spot when a table is missing; with ``keep`` the most probable
    hypothesis is also solved on a game graph, kept for export. ``tick()`` after each
    hypothesis. Raises Unsupported, TooLarge or NotCertified."""
    # only the most likely hypothesis's line is shown: :func:`_line_from` draws that one
    return _weighed(hypotheses, lambda h: Solved.from_tables(h, budget, with_line=False), budget, keep, tick)


def graph_answer(
    hypotheses: list[Hypothesis], budget: int = DEFAULT_BUDGET, tick: Callable[[], None] = lambda: None
) -> Answer:
    """:func:`answer` with every hypothesis solved on a game graph built on the spot (today's
    method before the tables: for cross-checks and recomputations)."""
    return _weighed(hypotheses, lambda h: Solved.from_graph(h, budget), budget, False, tick)


def _weighed(
    hypotheses: list[Hypothesis],
    solve_one: Callable[[Hypothesis], Solved],
    budget: int,
    keep: bool,
    tick: Callable[[], None],
) -> Answer:
    started = time.perf_counter()
    hypotheses = [Hypothesis(two_seats(h.state), h.probability) for h in hypotheses]
    likely = max(range(len(hypotheses)), key=lambda i: (hypotheses[i].probability, -i))
    solved = []
    for h in hypotheses:
        solved.append(solve_one(h))
        tick()
    if keep:
        solved[likely] = replace(solved[likely], solution=Solved.from_graph(hypotheses[likely], budget, True).solution)
    root = hypotheses[0].state
    value = sum((s.hypothesis.probability * s.value for s in solved), Fraction(0))
    win = sum((s.hypothesis.probability * s.win for s in solved), Fraction(0))
    loss = sum((s.hypothesis.probability * s.loss for s in solved), Fraction(0))
    moves = [m for m, _ in solved[0].moves]
    weighted = [sum((s.hypothesis.probability * dict(s.moves)[m] for s in solved), Fraction(0)) for m in moves]
    best_value = max(weighted)
    best = moves[weighted.index(best_value)]  # ties: the engine's order (action table, then seats)
    return Answer(
        to_move=root.names[root.current_player()],
        value=value,
        win=win,
        loss=loss,
        draw=1 - win - loss,
        best=best,
        best_value=best_value,
        line=_line_text(root.names, _line_from(solved[likely], best, budget)),
        states=sum(s.states for s in solved),
        seconds=time.perf_counter() - started,
        solved=solved,
    )


def _line_from(solved: Solved, first: Move, budget: int) -> list[Move]:
    """The principal line of a solved hypothesis starting with ``first`` (the weighed best
    move, which may differ from the hypothesis's own best)."""
    if solved.line and solved.line[0] == first:
        return solved.line
    after = solved.hypothesis.state.apply(first)
    return [first, *table_line(after, 3 * LINE_LENGTH, library_for(budget))]


def _line_text(names: tuple[str, ...], line: list[Move]) -> list[str]:
    """A line in the table's words, passes left out (as the table leaves them implicit), at most
    :data:`LINE_LENGTH` moves."""
    return [m.text(names) for m in line if m.kind is not Kind.PASS][:LINE_LENGTH]


def graph_line(solution: Solution, first: Move) -> list[Move]:
    """The moves of a graph solution's line: ``first``, then the reported strategies and the
    forced moves folded into the edges, the most probable chance outcome at each draw."""
    g = solution.graph
    first_edge = next(e for e in g.successors(0) if g.move(e) == first)
    node = int(g.succ[first_edge])
    line: list[Move] = [first, *g.tail(first_edge)]
    seen = {0}
    while len(line) < 3 * LINE_LENGTH and g.kind[node] != END and node not in seen:
        seen.add(node)
        if g.kind[node] == CHANCE:
            edge = max(g.successors(node), key=lambda e: (g.exact(e), -e))
        else:
            edge = int(solution.choice[node])
        line.extend((g.move(edge), *g.tail(edge)))
        node = int(g.succ[edge])
    return line


def open_values(states: list[State], budget: int = DEFAULT_BUDGET, seat: int = 0) -> list[Fraction]:
    """The exact open-hand value of each state for ``seat``, at any point of a turn (a
    challenge window, a card to lose...), from the tables: the rest of the turn is expanded by
    the engine and valued backwards from the stored turn starts. States of bigger games with two
    players left are valued on their two seats; ``budget`` bounds what is generated on the spot
    when a table is missing. Raises Unsupported, TooLarge or NotCertified.

    >>> from solver.coup.state import State
    >>> s = State.from_text("ambassador Alice:7:D:A Bob:7:A:C court=DDACCKKKBBB aside=- phase=action actor=Alice")
    >>> open_values([s, s.apply(Move(Kind.INCOME, 0))])
    [Fraction(1, 1), Fraction(-1, 1)]
    """
    return table_values(states, seat, library_for(budget))


def graph_open_values(states: list[State], budget: int = DEFAULT_BUDGET, seat: int = 0) -> list[Fraction]:
    """:func:`open_values` from game graphs built on the spot (each side's turn starts solved as
    one graph): today's method before the tables. Raises Unsupported, TooLarge or NotCertified.

    >>> from solver.coup.state import State
    >>> s = State.from_text("ambassador Alice:7:D:A Bob:7:A:C court=DDACCKKKBBB aside=- phase=action actor=Alice")
    >>> graph_open_values([s, s.apply(Move(Kind.INCOME, 0))])
    [Fraction(1, 1), Fraction(-1, 1)]
    """
    heads = [two_seats(s) for s in states]
    values = _heads_up_values(heads, budget)
    out = []
    for state, value in zip(states, values, strict=True):
        if state.is_terminal():
            out.append(Fraction(1 if state.winner() == seat else -1))
            continue
        living = state.living() if len(state.names) > 2 else [0, 1]
        if seat not in living:
            raise Unsupported(f"{state.names[seat]} is out of the game")
        out.append(value if living.index(seat) == 0 else -value)
    return out


def two_seats(state: State) -> State:
    """``state`` on the seats of its two living players. Raises Unsupported otherwise."""
    if state.is_terminal() or len(state.names) == 2:
        return state
    return state.heads_up()


def _heads_up_values(states: list[State], budget: int) -> list[Fraction]:
    """open_values on 2-seat states (terminal states of any size pass through as 0)."""
    children: dict[State, list[tuple[State, Fraction]]] = {}
    starts: set[State] = set()
    stack = [s for s in states if len(s.names) == 2]
    while stack:
        s = stack.pop()
        if s in children or s in starts or s.is_terminal():
            continue
        if s.turn.phase is Phase.ACTION:  # a turn start: solved on the graph
            starts.add(s)
            continue
        outcomes = s.chance_outcomes() if s.is_chance_node() else [(m, Fraction(0)) for m in s.legal_moves()]
        children[s] = [(s.apply(m), p) for m, p in outcomes]
        stack.extend(c for c, _ in children[s])
    value: dict[State, Fraction] = {}
    for actor in (0, 1):
        group = sorted((s for s in starts if s.turn.actor == actor), key=lambda s: s.text())
        if group:
            graph, nodes = build_many(group, budget)
            solution = solve(graph)
            sign = 1 if actor == 0 else -1
            value.update({s: sign * solution.value[n] for s, n in zip(group, nodes, strict=True)})
    return [_backward(s, children, value) if len(s.names) == 2 else Fraction(0) for s in states]


def _backward(
    state: State, children: dict[State, list[tuple[State, Fraction]]], value: dict[State, Fraction]
) -> Fraction:
    """The value of ``state`` (first seat's side) by backward induction through its turn."""
    if state in value:
        return value[state]
    if state.is_terminal():
        return Fraction(1 if state.winner() == 0 else -1)
    below = [(_backward(c, children, value), p) for c, p in children[state]]
    if state.is_chance_node():
        out = sum((v * p for v, p in below), Fraction(0))
    elif state.current_player() == 0:
        out = max(v for v, _ in below)
    else:
        out = min(v for v, _ in below)
    value[state] = out
    return out
