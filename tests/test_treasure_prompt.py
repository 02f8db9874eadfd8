"""End to end at the treasure table: the real prompt driven through prompt_toolkit's pipe input
and through a pseudo-terminal running the installed ``tresor`` command, a game killed with
SIGKILL and resumed with nothing lost, and a game against bots typed at the prompt."""

from __future__ import annotations

import signal
import sys
from pathlib import Path

import pexpect
import pytest

from companion.prompt import Front, whole_lines
from companion.records import Journal
from companion.treasure.bots import BotTable
from companion.treasure.commands import front
from companion.treasure.commands import session as Session
from companion.treasure.tracker import replay
from tests.helpers import say, spawn_table, type_into

HAND = " ".join(f"1{n}{b} 1{n}{b}" for n in "cer" for b in "nvb") + " 2cn 2cn 2cv 2cv 2cb 2cb 2en 2en"
GAME = [
    "jeu tresor",
    "joueurs Ana Ben",
    "moi Ana",
    f"main {' '.join(reversed(HAND.split()))}",
    "départ 3rb",
    "Ana pose 1cn en 0 1",  # refused: 1cn and 3rb share nothing
    "Ana pose 1rb en 0 1",
    "Ben pose 3rv en 1 0",
    "undo",
    "Ben pose 3rn en 1 0",
    "Ben neuro",
    "Ben mise 5 sur 0 1",
    "Ana mise 4 sur 0 0 avec force",
    "Ana pose 1rn en 1 1",  # touches 1rb and 3rn, compatible with both: +1
    "Ben passe",  # two players: one pass ends the building
    "retirée 2ev",
    "Ben révèle 1",
]
EXPECTED_RECORD = "".join(
    line + "\n"
    for line in [
        "game tresor",
        "players Ana Ben",
        "me Ana",
        f"hand {HAND}",
        "start 3rb",
        "Ana place 1rb at 0 1",
        "Ben place 3rn at 1 0",
        "Ben neuro",
        "Ben bid 5 on 0 1",
        "Ana bid 4 on 0 0 with force",
        "Ana place 1rn at 1 1",
        "Ben pass",
        "removed 2ev",
        "Ben reveal 1",
    ]
)
# The treasure 2ev. Ana: 5 + 1 VP, one set of two (0), 24 cards left (-20), force on 3rb (3 is not 2) -4.
# Ben: 5 - 1 for the pass, a one-card set (-1), 25 cards left (-20), 1 on 1rb (shares nothing) -10.
FINAL = ["  Ana        6 0 -20 -4 = -18", "  Ben        4 -1 -20 -10 = -27", "Ana wins"]


def test_a_whole_game_through_the_real_prompt_with_pipe_input(tmp_path: Path) -> None:
    journal = Journal(tmp_path / "game.tresor")
    session = Session(journal)
    code, printed = type_into(session, front(session, history=False), "\n".join([*GAME, "table", "quit"]) + "\n")
    assert code == 0
    assert "1cn at 0 1 touches 3rb only and is not compatible with it (they share 0 attributes)" in printed
    assert "undone: Ben place 3rv at 1 0" in printed
    assert "Ben opens a bidding round: Ben bids first, then clockwise" in printed
    assert "Ana +1 VP" in printed and "the domain is finished" in printed
    assert all(row in printed for row in FINAL)
    assert journal.path.read_text() == EXPECTED_RECORD
    assert replay(EXPECTED_RECORD).winners() == ("Ana",)


def test_ctrl_c_cancels_the_line_and_ctrl_d_asks_before_leaving(tmp_path: Path) -> None:
    session = Session(Journal(tmp_path / "game.tresor"))
    _, printed = type_into(
        session,
        front(session, history=False),
        "jeu tresor\njoueurs Ana Ben\nmoi A\x03" + "moi Ben\n\x04n\n" + "\x04y\n",
    )
    assert session.journal is not None
    assert session.journal.path.read_text() == "game tresor\nplayers Ana Ben\nme Ben\n"
    assert printed.count("Leave the table?") >= 2


def test_a_game_against_bots_typed_at_the_prompt_ends_with_its_score() -> None:
    probe = BotTable(players=2, seed=7)  # the same game played first, to know what to type
    probe.intro()
    typed: list[str] = []
    while not probe.finished:  # the first placement offered each time; every bid let go by
        moves = probe.moves()
        line = next((m for m in moves if " place " in m), "no" if "no" in moves else moves[0])
        typed.append(line.removeprefix("You "))
        probe.handle(line)
        assert len(typed) < 100
    game = BotTable(players=2, seed=7)
    _, printed = type_into(
        game, Front(prompt="tresor> ", suggest=whole_lines(game.moves)), "\n".join([*typed, "quit"]) + "\n"
    )
    assert game.finished and game.record == probe.record
    assert "final score (play + sets + hand + bids = total):" in printed
    assert replay("".join(line + "\n" for line in game.record)).final() is not None


def _tresor() -> str:
    command = Path(sys.executable).parent / "tresor"
    if not command.exists():
        pytest.skip("the tresor command is not installed in this environment")
    return str(command)


def _spawn(tmp_path: Path, *args: str) -> pexpect.spawn:
    return spawn_table(tmp_path, _tresor(), ["table", *args], timeout=20, width=160)


@pytest.mark.skipif(sys.platform == "win32", reason="pseudo-terminals")
def test_a_whole_game_typed_into_a_pseudo_terminal(tmp_path: Path) -> None:
    path = tmp_path / "game.tresor"
    child = _spawn(tmp_path, str(path))
    child.expect("help. lists the commands")
    for n, line in enumerate(GAME[:5], start=1):
        say(child, line, journal=path, written=n)
    say(child, GAME[5], "they share 0 attributes")
    say(child, GAME[6], journal=path, written=6)
    say(child, GAME[7], journal=path, written=7)
    say(child, "undo", "undone: Ben place 3rv at 1 0", journal=path, written=6)
    for n, line in enumerate(GAME[9:], start=7):
        say(child, line, journal=path, written=n)
    child.expect("Ana wins")
    say(child, "domain", "owners: A Ana, B Ben")
    say(child, "quit")
    child.expect(pexpect.EOF)
    assert path.read_text() == EXPECTED_RECORD


@pytest.mark.skipif(sys.platform == "win32", reason="signals")
def test_a_game_killed_with_sigkill_resumes_with_nothing_lost(tmp_path: Path) -> None:
    child = _spawn(tmp_path)
    child.expect("game file: ([^\\s\\x1b]+)")
    path = Path(child.match.group(1).strip())
    for n, line in enumerate([*GAME[:5], GAME[6], GAME[9], GAME[10]], start=1):
        say(child, line, journal=path, written=n)
    child.kill(signal.SIGKILL)  # mid-game, a bidding round just opened
    child.wait()
    resumed = _spawn(tmp_path, "--resume")
    resumed.expect("8 lines so far; waiting for Ben to bid: they called neuro")
    say(resumed, GAME[11], journal=path, written=9)
    say(resumed, "history", "Ben bid 5 on 0 1")
    say(resumed, "quit")
    resumed.expect(pexpect.EOF)
    assert path.read_text() == "".join(line + "\n" for line in EXPECTED_RECORD.splitlines()[:9])


@pytest.mark.skipif(sys.platform == "win32", reason="pseudo-terminals")
def test_a_new_game_from_a_copy_of_a_record_starts_where_it_ends(tmp_path: Path) -> None:
    source = tmp_path / "started.tresor"
    source.write_text("".join(line + "\n" for line in EXPECTED_RECORD.splitlines()[:8]))
    child = _spawn(tmp_path, "--from", str(source))
    child.expect("game file: ([^\\s\\x1b]+)")
    path = Path(child.match.group(1).strip())
    child.expect("8 lines so far; waiting for Ben to bid: they called neuro")
    say(child, "Ben bid 5 on 0 1", journal=path, written=9)
    say(child, "quit")
    child.expect(pexpect.EOF)
    assert path != source and source.read_text().count("\n") == 8
    assert path.read_text() == "".join(line + "\n" for line in EXPECTED_RECORD.splitlines()[:9])
