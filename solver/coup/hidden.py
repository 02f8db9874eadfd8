"""The solver's answer about a position with hypotheses: the weighted value, the best first
move, the principal line, and the exact figures behind them (outputs.md, "Puzzles").

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
from .turns import build, build_many

LINE_LENGTH = 20


@dataclass(frozen=True)
class Solved:
    """One hypothesis, solved: its value and figures at the root, each first move's value,
    and its principal line (the graph itself is not kept: it can be large)."""

    hypothesis: Hypothesis
    value: Fraction
    win: Fraction
    loss: Fraction
    moves: list[tuple[Move, Fraction]]
    states: int
    solution: Solution | None = None  # kept only when asked for (--graph)

    @classmethod
    def of(cls, hypothesis: Hypothesis, budget: int, keep: bool = False) -> Solved:
        solution = solve(build(hypothesis.state, budget))
        g, v = solution.graph, solution.value
        moves = [(g.move(e), v[int(g.succ[e])]) for e in g.successors(0)]
        return cls(hypothesis, v[0], solution.win[0], solution.loss[0], moves, g.size, solution if keep else None)


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
    """Solve each hypothesis open-hand (at most ``budget`` positions each) and weigh them
    (``keep``: keep the most probable hypothesis's solution, for export); ``tick()`` is called
    after each hypothesis. Raises TooLarge or NotCertified."""
    started = time.perf_counter()
    hypotheses = [Hypothesis(two_seats(h.state), h.probability) for h in hypotheses]
    likely = max(range(len(hypotheses)), key=lambda i: (hypotheses[i].probability, -i))
    solved = []
    for i, h in enumerate(hypotheses):
        solved.append(Solved.of(h, budget, keep=keep or i == likely))
        tick()
    root = hypotheses[0].state
    value = sum((s.hypothesis.probability * s.value for s in solved), Fraction(0))
    win = sum((s.hypothesis.probability * s.win for s in solved), Fraction(0))
    loss = sum((s.hypothesis.probability * s.loss for s in solved), Fraction(0))
    moves = [m for m, _ in solved[0].moves]
    weighted = [sum((s.hypothesis.probability * dict(s.moves)[m] for s in solved), Fraction(0)) for m in moves]
    best_value = max(weighted)
    best = moves[weighted.index(best_value)]  # ties: the engine's order (action table, then seats)
    solution = solved[likely].solution
    assert solution is not None
    line = principal_line(solution, best)
    if not keep:
        solved = [replace(s, solution=None) for s in solved]
    return Answer(
        to_move=root.names[root.current_player()],
        value=value,
        win=win,
        loss=loss,
        draw=1 - win - loss,
        best=best,
        best_value=best_value,
        line=line,
        states=sum(s.states for s in solved),
        seconds=time.perf_counter() - started,
        solved=solved,
    )


def principal_line(solution: Solution, first: Move) -> list[str]:
    """The moves of the line: ``first``, then the reported strategies, the most probable
    chance outcome at each draw; passes are left out (as the table leaves them implicit)."""
    g = solution.graph
    names = g.names
    first_edge = next(e for e in g.successors(0) if g.move(e) == first)
    node = int(g.succ[first_edge])
    line = [m.text(names) for m in (first, *g.tail(first_edge)) if m.kind is not Kind.PASS]
    seen = {0}
    while len(line) < LINE_LENGTH and g.kind[node] != END and node not in seen:
        seen.add(node)
        if g.kind[node] == CHANCE:
            edge = max(g.successors(node), key=lambda e: (g.exact(e), -e))
        else:
            edge = int(solution.choice[node])
        line.extend(m.text(names) for m in (g.move(edge), *g.tail(edge)) if m.kind is not Kind.PASS)
        node = int(g.succ[edge])
    return line


def open_values(states: list[State], budget: int = DEFAULT_BUDGET, seat: int = 0) -> list[Fraction]:
    """The exact open-hand value of each state for ``seat``, at any point of a turn (a
    challenge window, a card to lose...): the rest of the turn is a small tree, solved
    backwards from the exact values of the turn starts it leads to (each side's turn starts
    solved as one graph). States of bigger games with two players left are solved on their
    two seats (:meth:`State.heads_up`). Raises TooLarge or NotCertified.

    >>> from solver.coup.state import State
    >>> s = State.from_text("ambassador Alice:7:D:A Bob:7:A:C court=DDACCKKKBBB aside=- phase=action actor=Alice")
    >>> open_values([s, s.apply(Move(Kind.INCOME, 0))])
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
