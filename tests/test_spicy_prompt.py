"""End to end at the Spicy table: the real prompt driven through prompt_toolkit's pipe input and
the installed ``spicy`` command in a pseudo-terminal, a game killed with SIGKILL and resumed with
nothing lost, and completion of what is legal now in the language being typed."""

from __future__ import annotations

import signal
import sys
from pathlib import Path

import pexpect
import pytest

from companion.records import Journal
from companion.spicy.commands import front, toolbar
from companion.spicy.commands import session as Session
from companion.spicy.completion import completions
from companion.spicy.tracker import replay
from tests.helpers import say, spawn_table, type_into

SPICY = Path(sys.executable).parent / "spicy"
GAME = [
    "players Ana Ben",
    "me Ana",
    "hand chili-1 chili-2 chili-3 chili-4 chili-5 chili-6",
    "Ana play chili-1 as chili 1",
    "Ben play chili 7",
    "Ana play chili-2 as chili 2",  # rejected: the pile is at 7
    "Ana pass",
    "draw wasabi-1",
    "Ben play chili 8",
    "Ana conteste puissance",  # French: challenge number
    "révèle piment-8",
    "pioche wasabi-2 wasabi-3",
    "undo",
    "pioche wasabi-2 wasabi-3",
    "Ana play chili-2 as chili 2",
    "Ben play chili 3",
    "Ana play chili-4 as chili 4",
    "Ben play chili 5",
    "Ana play chili-6 as chili 6",
    "Ben play chili 7",
    "Ana play chili-3 as chili 8",
    "Ben play chili 9",  # his last card
    "passe",  # nobody challenges: a trophy
]
RECORD = [
    "game spicy",
    "players Ana Ben",
    "me Ana",
    "hand chili-1 chili-2 chili-3 chili-4 chili-5 chili-6",
    "Ana play chili-1 as chili 1",
    "Ben play chili 7",
    "Ana pass",
    "draw wasabi-1",
    "Ben play chili 8",
    "Ana challenge number",
    "reveal chili-8",
    "draw wasabi-2 wasabi-3",
    "Ana play chili-2 as chili 2",
    "Ben play chili 3",
    "Ana play chili-4 as chili 4",
    "Ben play chili 5",
    "Ana play chili-6 as chili 6",
    "Ben play chili 7",
    "Ana play chili-3 as chili 8",
    "Ben play chili 9",
    "pass",
]
"""The record of GAME: canonical English words; the rejected line and the undone draw leave nothing."""
EXPECTED = "".join(line + "\n" for line in RECORD)
REJECTED = "Ana cannot claim chili 2: a pile of chili at 7 needs chili 8 to 10"
TROPHY = "nobody challenges: Ben takes a trophy (1 now)"


def test_the_expected_record_is_the_game_typed_in_canonical_words() -> None:
    t = replay(EXPECTED)
    assert t.record() == EXPECTED and t.turn == "Ana" and t.hand_sizes() == (4, 6)
    assert t.state is not None and t.state.trophies == (0, 1)


def test_a_whole_game_through_the_real_prompt_with_pipe_input(tmp_path: Path) -> None:
    journal = Journal(tmp_path / "game.spicy")
    session = Session(journal)
    code, printed = type_into(
        session, front(session, history=False), "\n".join([*GAME, "table", "odds", "quit"]) + "\n"
    )
    assert code == 0
    assert REJECTED in printed
    assert "waiting for your draw of 2 cards (draw CARD CARD)" in printed
    assert "Ana was wrong: Ben's card is chili-8, true on number" in printed
    assert "undone: draw wasabi-2 wasabi-3" in printed
    assert "Ben's last card: if nobody challenges, Ben takes a trophy" in printed
    assert TROPHY in printed
    assert "Ben         6 in hand" in printed  # the table: Ben drew a new hand after his trophy
    assert "your true plays now:" in printed  # the odds command
    assert journal.path.read_text() == EXPECTED


def test_the_toolbar_shows_turn_pile_hands_trophies_scores_and_what_is_owed() -> None:
    session = Session()
    for line in GAME[:5]:
        session.handle(line)
    assert toolbar(session) == " turn: Ana | pile 2: chili 7 by Ben | Ana 5  Ben 5 | score Ana -5 Ben -5"
    session.handle("Ana pass")
    assert toolbar(session).endswith("| waiting for your draw of 1 card (draw CARD)")
    for line in GAME[7:]:
        session.handle(line)
    assert "trophies Ben 1" in toolbar(session)


def test_ctrl_c_cancels_the_line_and_ctrl_d_asks_before_leaving(tmp_path: Path) -> None:
    session = Session(Journal(tmp_path / "game.spicy"))
    _, _printed = type_into(
        session, front(session, history=False), "players Ana Ben\nAna pla\x03" + "me Ana\n\x04n\n" + "\x04y\n"
    )
    assert session.journal is not None
    assert session.journal.path.read_text() == "game spicy\nplayers Ana Ben\nme Ana\n"


def test_completion_offers_what_is_legal_now_in_the_language_being_typed() -> None:
    t = replay("".join(line + "\n" for line in RECORD[:6]))  # Ben just played chili 7 on Ana's chili 1
    assert completions(t, "", Session().commands)[:2] == ["table", "odds"]
    assert set(completions(t, "Ana ")) == {"play", "pass", "challenge", "joue", "passe", "conteste"}
    assert completions(t, "Ana play ")[:3] == ["chili-2", "chili-3", "chili-4"]
    assert completions(t, "Ana play chili-2 as chili ") == ["8", "9", "10"]
    assert completions(t, "Ana joue piment-2 comme ") == ["piment"]
    assert completions(t, "Ana conteste ") == ["épice", "puissance"]
    assert completions(t, "A") == ["Ana"]
    assert completions(t, "Ben ") == []  # not his turn, and nobody challenges their own card
    drawing = replay("".join(line + "\n" for line in RECORD[:7]))  # Ana passed: her draw is owed
    assert completions(drawing, "draw wild") == ["wild-number", "wild-spice"]
    assert completions(drawing, "draw wasabi-1 ") == []  # one card owed


def _spawn(tmp_path: Path, *args: str) -> pexpect.spawn:
    return spawn_table(tmp_path, str(SPICY), ["table", *args])


def _steps() -> list[tuple[str, str | None, str | None]]:
    """GAME as (typed line, what the screen shows, the journal's last line once it is answered)."""
    steps: list[tuple[str, str | None, str | None]] = []
    written = iter(RECORD[1:])
    for i, line in enumerate(GAME):
        if i == GAME.index("Ana play chili-2 as chili 2"):
            steps.append((line, REJECTED, None))
        elif line == "undo":
            steps.append((line, "undone: draw wasabi-2 wasabi-3", None))
        elif i == GAME.index("pioche wasabi-2 wasabi-3"):
            steps.append((line, None, "draw wasabi-2 wasabi-3"))  # undone next
        else:
            steps.append((line, TROPHY if line == "passe" else None, next(written)))
    return steps


def _play(child: pexpect.spawn, steps: list[tuple[str, str | None, str | None]], path: Path) -> None:
    for line, shown, journal in steps:
        say(child, line, shown, path if journal is not None else None, journal)


@pytest.mark.skipif(sys.platform == "win32", reason="pseudo-terminals")
def test_a_whole_game_typed_into_a_pseudo_terminal_of_the_installed_command(tmp_path: Path) -> None:
    path = tmp_path / "game.spicy"
    child = _spawn(tmp_path, str(path))
    child.expect("'help' lists the commands")
    _play(child, _steps(), path)
    say(child, "table", "Ben         6 in hand")
    say(child, "quit")
    child.expect(pexpect.EOF)
    assert path.read_text() == EXPECTED


@pytest.mark.skipif(sys.platform == "win32", reason="signals")
def test_a_game_killed_with_sigkill_resumes_with_nothing_lost(tmp_path: Path) -> None:
    child = _spawn(tmp_path)
    child.expect("game file: ([^\\s\\x1b]+)")
    path = Path(child.match.group(1).strip())
    _play(child, _steps()[:11], path)  # up to the reveal of Ben's chili 8: Ana's draw of 2 is owed
    child.kill(signal.SIGKILL)  # mid-game, the line just answered
    child.wait()
    resumed = _spawn(tmp_path, "--resume")
    resumed.expect("11 lines so far; waiting for your draw of 2 cards")
    say(resumed, "draw wasabi-2 wasabi-3", journal=path)
    say(resumed, "history", "draw wasabi-2 wasabi-3")
    say(resumed, "quit")
    resumed.expect(pexpect.EOF)
    assert path.read_text() == "".join(line + "\n" for line in RECORD[:12])
