"""Every puzzle of examples/puzzles has its answer pinned."""

from __future__ import annotations

import os
import tomllib
from fractions import Fraction
from pathlib import Path

import pytest

from solver.coup import Kind, State
from solver.coup.hidden import answer
from solver.coup.puzzle import Puzzle

PUZZLES = Path(__file__).parent.parent / "examples" / "puzzles"

ANSWERS = {  # value, best move (ties: the action table's order)
    "01-race-to-seven": ("1", "Alice coup Bob"),
    "02-empty-purse": ("7/9", "Alice exchange"),
    "03-last-contessa": ("-1/3", "Alice aid"),
    "04-duke-against-the-clock": ("-1/3", "Alice tax"),
    "05-exchange-luck": ("1/3", "Alice exchange"),
    "06-inquisitor-examine": ("1/3", "Alice examine Bob"),
    "07-two-inquisitors": ("1", "Alice exchange"),
    "08-assassin-against-contessa": ("1", "Alice aid"),
    "09-steal-war": ("1", "Alice income"),
    "10-bluffless-contessa": ("-5/9", "Alice aid"),
    "11-two-against-one": ("1", "Alice aid"),
    "12-two-against-two": ("1", "Alice income"),
}
SLOW = {"12-two-against-two"}  # about 7 million positions: run with COUP_SLOW=1


def test_there_are_twelve_puzzles_each_with_a_story_and_a_difficulty() -> None:
    names = sorted(p.stem for p in PUZZLES.glob("*.toml"))
    assert names == sorted(ANSWERS)
    for path in PUZZLES.glob("*.toml"):
        text = path.read_text()
        assert text.startswith("# ") and len(text.splitlines()[0]) > 20
        assert 1 <= tomllib.loads(text)["difficulty"] <= 5


@pytest.mark.parametrize("name", sorted(ANSWERS))
def test_puzzle_answers_are_pinned(name: str) -> None:
    if name in SLOW and not os.environ.get("COUP_SLOW"):
        pytest.skip("a 2-against-2 solve takes a minute or more (COUP_SLOW=1 runs it)")
    value, best = ANSWERS[name]
    puzzle = Puzzle.from_mapping(tomllib.loads((PUZZLES / f"{name}.toml").read_text()))
    result = answer(puzzle.hypotheses())
    assert result.value == Fraction(value)
    assert result.best.text(puzzle.names) == best
    assert result.win - result.loss == result.value
    assert_line_is_playable(max(puzzle.hypotheses(), key=lambda h: h.probability).state, result.line)


def assert_line_is_playable(root: State, line: list[str]) -> None:
    """The principal line, passes left out, is a sequence of the engine's own moves and chance
    outcomes from the root: no forced move (a loss, a keep) is missing from it."""
    state = root
    for text in line:
        while True:
            options = [m for m, _ in state.chance_outcomes()] if state.is_chance_node() else state.legal_moves()
            named = [m for m in options if m.text(state.names) == text]
            if named:
                state = state.apply(named[0])
                break
            passes = [m for m in options if m.kind is Kind.PASS]
            assert passes, f"{text!r} cannot be played at {state.text()}"
            state = state.apply(passes[0])
