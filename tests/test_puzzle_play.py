"""`coup puzzle`: a puzzle played at the prompt against the solver."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from companion.coup.puzzle_play import PuzzleSession, bundled, describe, load

PUZZLES = Path(__file__).parent.parent / "examples" / "puzzles"


def session(name: str, seed: int = 1) -> PuzzleSession:
    puzzle, story, _ = load(PUZZLES / name)
    return PuzzleSession(puzzle, seed=seed, story=story)


def test_the_position_is_told_in_words() -> None:
    s = session("01-race-to-seven.toml")
    assert describe(s.state, s.me) == (
        "You are Alice, with 7 coins. You hold an ambassador. Face up before you: an ambassador. "
        "Bob has 4 coins and 1 card: an assassin; face up: a duke. "
        "The court holds a duke, a contessa and an ambassador."
    )


def test_keeping_the_value_is_praised() -> None:
    s = session("01-race-to-seven.toml")
    said = s.handle("Alice coup Bob")
    assert s.finished and said[-1] == ("over", "You win: you kept the value of the position (+1).")


def test_a_move_that_throws_the_win_away_is_named_with_the_move_that_kept_it() -> None:
    s = session("01-race-to-seven.toml")
    said = s.handle("Alice income")  # Bob (4 coins, an assassin) goes for Alice's last card
    assert said[-1] == ("info", "Your move (Alice): challenge Bob's assassinate or pass.")
    assert s.handle("pass")[0] == ("", "You: Alice pass")  # no challenge: Bob holds the assassin
    said = s.handle("pass")  # no contessa to block with
    assert s.finished
    assert ("flag", "move 1: `Alice income` lost value (+1 -> -1); `Alice coup Bob` kept +1") in said
    assert said[-2][1].startswith("Bob wins")


def test_hint_undo_and_refusals_change_nothing() -> None:
    s = session("01-race-to-seven.toml")
    assert s.handle("hint") == [("info", "hint: Alice coup Bob (value +1)")]
    assert s.handle("Bob income")[0][0] == "error"
    assert "cannot be played now" in s.handle("Alice block duke")[0][1]
    before = s.state
    s.handle("Alice income")
    assert s.handle("undo")[0] == ("info", "undone: Alice income")
    assert s.state == before and not s.finished and s.judged == []
    assert s.moves()[0] == "Alice income"


def test_draws_are_seeded() -> None:
    """Exchange luck: the same seed gives the same draws."""
    lines = [session("05-exchange-luck.toml", seed=7).handle("Alice exchange") for _ in range(2)]
    assert lines[0] == lines[1]


def test_the_bundled_puzzles_are_offered_in_order() -> None:
    names = [p.name for p in bundled()]
    assert names == sorted(names) and len(names) == 12 and names[0].startswith("01-")


def test_coup_puzzle_through_the_prompt_to_the_end(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "companion.coup.cli", "puzzle", "--seed", "1"],
        input="1\nhint\nAlice income\nundo\nAlice coup Bob\n",
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "1. *     Your last ambassador and seven coins against Bob's assassin" in out
    assert "hint: Alice coup Bob (value +1)" in out and "undone: Alice income" in out
    assert "You win: you kept the value of the position (+1)." in out
