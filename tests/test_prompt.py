"""End to end: the real prompt driven through prompt_toolkit's pipe input and through a
pseudo-terminal, and a game killed with SIGKILL and resumed with nothing lost."""

from __future__ import annotations

import signal
import sys
from pathlib import Path

import pexpect
import pytest

from companion.coup.commands import front
from companion.coup.commands import session as Session
from companion.coup.completion import completions
from companion.coup.tracker import replay
from companion.records import Journal
from tests.helpers import say, spawn_table, type_into

GAME = [
    "players Alice Bob Carol",
    "me Carol",
    "hand duke captain",
    "Alice tax",
    "Bob assassinate Carol",  # rejected: Bob has 2 coins
    "Bob challenge",
    "Alice lose duke",
    "Bob steal Alice",
    "undo",
    "Bob income",
    "Carol steal Alice",
    "Alice block ambassador",
    "Carol challenge",
    "Alice lose assassin",
]
EXPECTED_RECORD = (
    "players Alice Bob Carol\nvariant ambassador\nme Carol\nhand duke captain\nAlice tax\nBob challenge\n"
    "Alice lose duke\nBob income\nCarol steal Alice\nAlice block ambassador\nCarol challenge\nAlice lose assassin\n"
)


def test_a_whole_game_through_the_real_prompt_with_pipe_input(tmp_path: Path) -> None:
    journal = Journal(tmp_path / "game.coup")
    session = Session(journal)
    code, printed = type_into(session, front(session, history=False), "\n".join([*GAME, "table", "quit"]) + "\n")
    assert code == 0
    assert "Bob has 2 coins; assassinate costs 3" in printed
    assert "Bob's challenge succeeds with 55/78 (71%)" in printed
    assert "undone: Bob steal Alice" in printed
    assert "(out)" in printed  # the table after Alice lost her second card
    assert journal.path.read_text() == EXPECTED_RECORD
    view = replay(EXPECTED_RECORD).view
    assert view is not None and not view.alive(0) and view.coins == (0, 3, 2)  # the steal took nothing: Alice was out


def test_ctrl_c_cancels_the_line_and_ctrl_d_asks_before_leaving(tmp_path: Path) -> None:
    session = Session(Journal(tmp_path / "game.coup"))
    _, printed = type_into(
        session, front(session, history=False), "players Alice Bob\nAlice inc\x03" + "me Alice\n\x04n\n" + "\x04y\n"
    )
    assert session.journal is not None
    assert session.journal.path.read_text() == "players Alice Bob\nvariant ambassador\ndraft dealt-first\nme Alice\n"
    assert printed.count("Leave the table?") >= 2  # asked twice (plain output echoes each prompt)


def test_completion_offers_what_is_legal_now_in_the_language_being_typed() -> None:
    t = replay("players Alice Bob Carol\nme Carol\nhand duke captain\nAlice steal Bob\n")
    assert completions(t, "", Session().commands)[:3] == ["table", "odds", "solve"]
    assert set(completions(t, "B")) == {"Bob"}
    assert {"challenge", "block", "doute", "contre", "income"} <= set(completions(t, "Bob "))  # his turn is next
    assert completions(t, "Bob contre ") == ["capitaine", "ambassadeur"]
    assert completions(t, "Bob block ") == ["captain", "ambassador"]
    assert "challenge" not in completions(t, "Alice ")  # nobody challenges their own claim


def _spawn(tmp_path: Path, *args: str) -> pexpect.spawn:
    return spawn_table(tmp_path, sys.executable, ["-m", "companion.coup.cli", "table", *args], width=160)


@pytest.mark.skipif(sys.platform == "win32", reason="pseudo-terminals")
def test_a_whole_game_typed_into_a_pseudo_terminal(tmp_path: Path) -> None:
    path = tmp_path / "game.coup"
    child = _spawn(tmp_path, str(path))
    child.expect("help. lists the commands")
    say(child, GAME[0], journal=path, written="variant ambassador")  # the journal is canonical from the start
    for line in GAME[1:4]:
        say(child, line, journal=path)
    say(child, "Bob assassinate Carol", "Bob has 2 coins; assassinate costs 3")
    say(child, "Bob challenge", "succeeds with 55/78", journal=path)
    say(child, "Alice lose duke", journal=path)
    say(child, "Bob steal Alice", journal=path)
    say(child, "undo", "undone: Bob steal Alice")
    for line in GAME[9:]:
        say(child, line, journal=path)
    say(child, "table", "(out)")
    say(child, "quit")
    child.expect(pexpect.EOF)
    assert path.read_text() == EXPECTED_RECORD


@pytest.mark.skipif(sys.platform == "win32", reason="signals")
def test_a_game_killed_with_sigkill_resumes_with_nothing_lost(tmp_path: Path) -> None:
    child = _spawn(tmp_path)
    child.expect("game file: ([^\\s\\x1b]+)")
    path = Path(child.match.group(1).strip())
    say(child, GAME[0], journal=path, written="variant ambassador")
    for line in [*GAME[1:4], "Bob challenge"]:
        say(child, line, journal=path)
    child.kill(signal.SIGKILL)  # mid-game, the line just answered
    child.wait()
    resumed = _spawn(tmp_path, "--resume")
    resumed.expect("6 lines so far")
    say(resumed, "Alice lose duke", journal=path)
    say(resumed, "history", "Alice lose duke")
    say(resumed, "quit")
    resumed.expect(pexpect.EOF)
    lines = [GAME[0], "variant ambassador", *GAME[1:4], "Bob challenge", "Alice lose duke"]
    assert path.read_text() == "".join(line + "\n" for line in lines)


def _piped(lines: list[str]) -> str:
    session = Session()
    _, printed = type_into(session, front(session, history=False), "\n".join([*lines, "quit"]) + "\n")
    return printed


def test_the_french_words_of_the_seed_texts_are_understood_at_the_prompt() -> None:
    printed = _piped(
        ["joueurs Alice Bob Dave", "moi Alice", "main duc capitaine", "Alice taxe", "Dave conteste", "table"]
    )
    assert "Dave's challenge succeeds with" in printed
    assert "unknown word" not in printed


def test_an_unknown_word_at_the_prompt_is_answered_with_the_nearest_known_one() -> None:
    printed = _piped(["players Alice Bob Dave", "Alice tax", "Dave chalenge"])
    assert "unknown word 'chalenge' after Dave: did you mean 'challenge'?" in printed


def test_with_pick_first_the_pick_is_suggested_before_the_deal_and_may_be_typed_after_it(tmp_path: Path) -> None:
    journal = Journal(tmp_path / "draft.coup")
    session = Session(journal)
    _, printed = type_into(
        session,
        front(session, history=False),
        "players Alice Bob\ndraft pick-first\nme Alice\ndealt duke\npick captain\nquit\n",
    )
    assert "draft: pick" in printed.split("dealt duke")[0]
    assert journal.path.read_text() == (
        "players Alice Bob\nvariant ambassador\ndraft pick-first\nme Alice\ndealt duke\npick captain\n"
    )
