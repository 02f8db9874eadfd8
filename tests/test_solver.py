"""The exact solver: golden puzzles, certificates, stalling traps, refusals."""

from __future__ import annotations

import json
import tomllib
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from solver.coup.hidden import answer
from solver.coup.puzzle import Puzzle
from solver.coup.state import State
from solver.coup.turns import build
from solver.errors import NotCertified, TooLarge, Unsupported
from solver.graph import CHANCE, END, MAX, MIN, GameGraph
from solver.values import _Arrays, _end_component_violations, solve

GOLDEN = Path(__file__).parent / "golden" / "puzzles"


def puzzle(path: Path) -> Puzzle:
    return Puzzle.from_mapping(tomllib.loads(path.read_text()))


@pytest.mark.parametrize("name", ["p1", "p2"])
def test_golden_puzzles_have_the_expected_exact_value(name: str) -> None:
    expected = json.loads((GOLDEN / f"{name}.expected.json").read_text())
    result = answer(puzzle(GOLDEN / f"{name}.toml").hypotheses())
    assert result.to_move == expected["to_move"]
    assert result.value == Fraction(expected["value"])
    assert result.hypotheses == expected["hypotheses"]
    assert result.win - result.loss == result.value  # the reported strategies achieve it


def test_the_golden_puzzle_with_an_unknown_card_has_five_hypotheses() -> None:
    hypotheses = puzzle(GOLDEN / "p3.toml").hypotheses()
    assert len(hypotheses) == 5
    assert sum(h.probability for h in hypotheses) == 1
    assert sorted(h.probability for h in hypotheses) == [Fraction(1, 6)] * 3 + [Fraction(1, 4)] * 2


def synthetic(kinds: list[int], edges: list[list[tuple[int, Fraction]]], terminal: list[int]) -> GameGraph:
    """A hand-made game graph (no engine states) for testing the solver's logic alone."""
    children = [[t for t, _ in row] for row in edges]
    chances = [[p for _, p in row] for row in edges]
    return GameGraph.of_edges(kinds, children, terminal, chances)


def test_a_loser_who_can_loop_forever_gets_a_draw() -> None:
    """Stalling trap. Node 0 (the maximiser) must move to node 1; at node 1 the minimiser
    either lets the maximiser win (node 2) or sends play back to node 0. Looping forever is a
    draw, so the minimiser loops: the value is 0, not the 1 that the one-step equations also
    allow (v = 1 everywhere satisfies v0 = v1 = min(v0, 1))."""
    graph = synthetic(
        [MAX, MIN, END, END],
        [[(1, Fraction(0))], [(0, Fraction(0)), (2, Fraction(0))], [], []],
        [0, 0, 1, -1],
    )
    solution = solve(graph)
    assert solution.value[0] == 0 and solution.draw(0) == 1


def test_the_certificate_refuses_a_value_the_loser_can_escape_by_looping() -> None:
    graph = synthetic(
        [MAX, MIN, END, END],
        [[(1, Fraction(0))], [(0, Fraction(0)), (2, Fraction(0))], [], []],
        [0, 0, 1, -1],
    )
    from flint import fmpq

    wrong = np.array([fmpq(1), fmpq(1), fmpq(1), fmpq(-1)], dtype=object)  # one-step equations hold
    choice = np.array([0, 2, -1, -1], dtype=np.int64)  # the minimiser "exits": greedy under the wrong values
    assert _end_component_violations(graph, _Arrays(graph), wrong, choice) > 0


def test_a_chance_loop_is_solved_exactly() -> None:
    """Node 0 (max) may take a gamble (node 1: win with 1/3, else back to 0) or settle for a
    draw-like loop at node 3 (a minimiser that can only return). Repeating the gamble wins
    with probability 1: value 1."""
    graph = synthetic(
        [MAX, CHANCE, END, MIN, END],
        [[(1, Fraction(0)), (3, Fraction(0))], [(2, Fraction(1, 3)), (0, Fraction(2, 3))], [], [(0, Fraction(0))], []],
        [0, 0, 1, 0, -1],
    )
    solution = solve(graph)
    assert solution.value[0] == 1 and solution.win[0] == 1


def test_a_gamble_against_a_loss_has_its_exact_value() -> None:
    """Node 0 (max) must gamble: win with 2/7, lose with 1/7, else back to 0. Value
    (2/7 - 1/7) / (3/7) = 1/3, win 2/3, loss 1/3."""
    graph = synthetic(
        [MAX, CHANCE, END, END],
        [[(1, Fraction(0))], [(2, Fraction(2, 7)), (3, Fraction(1, 7)), (0, Fraction(4, 7))], [], []],
        [0, 0, 1, -1],
    )
    solution = solve(graph)
    assert (solution.value[0], solution.win[0], solution.loss[0]) == (Fraction(1, 3), Fraction(2, 3), Fraction(1, 3))


def test_more_than_two_living_players_are_refused_naming_the_limit() -> None:
    three = Puzzle.from_mapping(
        {"players": {n: {"hand": ["duke"], "face_up": ["captain"]} for n in ("A1", "B1", "C1")}}
    )
    with pytest.raises(Unsupported, match="two players"):
        answer(three.hypotheses())


UNSHIPPED_ENDGAME = {  # a court of 4, which no game of 15 cards reaches: a family not shipped
    "players": {
        "Alice": {"coins": 2, "hand": ["duke", "captain"]},
        "Bob": {"coins": 3, "hand": ["assassin", "contessa"]},
    },
    "court": {"cards": ["duke", "assassin", "contessa", "captain"]},
}


def test_a_table_to_generate_on_the_spot_beyond_the_budget_is_refused_naming_the_limit() -> None:
    with pytest.raises(TooLarge, match="more than the budget of 1,000"):
        answer(Puzzle.from_mapping(UNSHIPPED_ENDGAME).hypotheses(), budget=1000)


def test_a_position_the_shipped_tables_hold_is_answered_whatever_the_budget() -> None:
    assert answer(puzzle(GOLDEN / "p1.toml").hypotheses(), budget=1000).value == -1


def test_impossible_puzzles_are_refused_with_the_reason() -> None:
    from solver.coup import ImpossibleTable

    with pytest.raises(ImpossibleTable, match="4 dukes"):
        Puzzle.from_mapping({"players": {"A1": {"hand": ["duke", "duke"]}, "B1": {"hand": ["duke", "duke"]}}})
    with pytest.raises(ImpossibleTable, match="court of 1 card"):
        Puzzle.from_mapping(
            {"players": {"A1": {"hand": ["duke"]}, "B1": {"hand": ["duke"]}}, "court": {"cards": ["duke"]}}
        )


def test_not_certified_is_an_error_never_an_answer() -> None:
    assert issubclass(NotCertified, Exception)
    root = State.from_text("ambassador Alice:7:D:A Bob:7:A:C court=DDACCKKKBBB aside=- phase=action actor=Alice")
    assert solve(build(root)).value[0] == 1


def test_component_levels_are_longest_paths_between_components() -> None:
    """The vectorised levels equal a plain recursion over the condensation, on random graphs
    with cycles."""
    from solver.values import _component_levels, _components

    rng = np.random.default_rng(7)
    for _ in range(30):
        n = int(rng.integers(1, 60))
        degree = rng.integers(0, 4, size=n)
        start = np.concatenate(([0], np.cumsum(degree))).astype(np.int64)
        succ = rng.integers(0, n, size=int(start[-1])).astype(np.int64)
        src = np.repeat(np.arange(n, dtype=np.int64), degree)
        labels = _components(n, src, succ)
        reach: dict[int, set[int]] = {}
        for a, b in zip(labels[src], labels[succ], strict=True):
            if a != b:
                reach.setdefault(int(a), set()).add(int(b))

        def level(c: int, reach: dict[int, set[int]] = reach) -> int:
            return 1 + max(level(d) for d in reach[c]) if c in reach else 0

        got = _component_levels(labels, start, succ)
        assert [int(x) for x in got] == [level(c) for c in range(int(labels.max()) + 1)]
