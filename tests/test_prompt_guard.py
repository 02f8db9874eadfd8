"""The one guard around every prompt line: Ctrl-C during a long command answers "cancelled" with
the table as it was and nothing half-written, a GameError is one line, and the prompt never dies;
`save` to a path that cannot be written is one line at every game's table; `solve` answers or
refuses in one line at every point of a Coup game."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pexpect
import pytest

from companion.coup.bots import BotTable as CoupBots
from companion.coup.commands import front as coup_front
from companion.coup.commands import session as coup_session
from companion.coup.simulate import random_record
from companion.coup.tracker import replay
from companion.records import Journal
from companion.session import CANCELLED, Command, guarded, whole
from companion.spicy.bots import BotTable as SpicyBots
from companion.treasure.bots import BotTable as TreasureBots
from solver.coup import Variant
from solver.coup.tablebase import store
from solver.errors import GameError
from tests.helpers import say, spawn_table, type_into

ROOT = Path(__file__).resolve().parent.parent
MODULES = {"coup": "companion.coup.cli", "spicy": "companion.spicy.cli", "tresor": "companion.treasure.cli"}


def _interrupt(*args: Any, **kwargs: Any) -> Any:
    raise KeyboardInterrupt


# -- the guard, in-process ---------------------------------------------------------------------


def test_ctrl_c_in_a_table_command_is_cancelled_and_leaves_table_and_journal_as_they_were(tmp_path: Path) -> None:
    journal = Journal(tmp_path / "game.coup")
    session = coup_session(journal)
    for line in ("players Alice Bob Carol", "me Carol", "hand duke captain"):
        session.handle(line)
    before = (session.table, list(session.raw), journal.path.read_bytes())
    session.commands["solve"] = Command("solve", "solve", "", _interrupt)
    assert guarded(session.handle, "solve") == [CANCELLED]
    assert (session.table, session.raw, journal.path.read_bytes()) == before
    assert guarded(session.handle, "Alice tax") == []
    assert journal.lines()[-1] == "Alice tax"


def test_a_game_error_is_one_line_and_any_other_error_one_line_naming_it() -> None:
    def refuse(text: str) -> list[tuple[str, str]]:
        raise GameError("first\nsecond")

    def bug(text: str) -> list[tuple[str, str]]:
        raise IndexError("list index out of range")

    assert guarded(refuse, "x") == [("error", "first second")]
    [(style, text)] = guarded(bug, "x")
    assert style == "error" and text.startswith("internal error (IndexError: list index out of range)")


@pytest.mark.skipif(sys.platform == "win32", reason="signals")
def test_ctrl_c_while_the_journal_and_the_table_change_is_held_off() -> None:
    done = []
    with whole():
        os.kill(os.getpid(), signal.SIGINT)
        time.sleep(0.01)
        done.append("finished")
    assert done == ["finished"]
    with pytest.raises(KeyboardInterrupt):  # and Ctrl-C works again after
        os.kill(os.getpid(), signal.SIGINT)
        time.sleep(1)


BOTS: dict[str, Callable[[], Any]] = {
    "coup": lambda: CoupBots(2, Variant.AMBASSADOR, 4, ("counter",)),
    "spicy": lambda: SpicyBots(3, 4, ()),
    "tresor": lambda: TreasureBots(3, 4, ()),
}


def _state(game: Any) -> tuple[str, list[str], bool]:
    return game.record_text(), game.moves(), game.finished


def _a_move(game: Any) -> str:
    """The first of the moves offered that the game takes as typed."""
    for move in game.moves():
        try:
            game.seat_move(move)
        except GameError:
            continue
        return str(move)
    raise AssertionError(f"no move to type in {game.moves()}")  # pragma: no cover


@pytest.mark.parametrize("name", sorted(BOTS))
def test_ctrl_c_during_a_bots_reply_puts_the_game_back_as_before_the_move(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    game, twin = BOTS[name](), BOTS[name]()
    game.intro(), twin.intro()
    for _ in range(3):  # a few moves in, then the next reply is interrupted
        move = _a_move(game)
        game.handle(move), twin.handle(move)
    while _a_move(game).split()[-1] == "pass":  # a pass may need no reply: move on to one that does
        move = _a_move(game)
        game.handle(move), twin.handle(move)
    before = _state(game)
    bot = next(iter(game.bots.values()))
    monkeypatch.setattr(type(bot), "decide", _interrupt)
    move = _a_move(game)
    assert guarded(game.handle, move) == [CANCELLED]
    assert _state(game) == before
    monkeypatch.undo()
    assert game.handle(move) == twin.handle(move)  # and it goes on as if never interrupted
    assert _state(game) == _state(twin)


def test_a_history_file_that_cannot_be_read_or_written_costs_only_the_history(tmp_path: Path) -> None:
    session = coup_session(Journal(tmp_path / "game.coup"))
    front = coup_front(session)
    front.history = tmp_path  # a folder: neither read nor written
    _, printed = type_into(session, front, "players Alice Bob Carol\nme Carol\nhistory\nquit\n")
    assert "   3  me Carol" in printed and "Traceback" not in printed  # the journal is canonical: variant written
    assert session.journal is not None
    assert session.journal.lines() == ["players Alice Bob Carol", "variant ambassador", "me Carol"]


@pytest.mark.skipif(sys.platform == "win32", reason="signals")
def test_ctrl_c_while_tables_are_generated_leaves_no_partly_written_table(tmp_path: Path) -> None:
    into = tmp_path / "tables"
    argv = ["tablebase", "build", "--players", "7", "--variant", "ambassador", "--workers", "1", "--into", str(into)]
    child = subprocess.Popen(
        [sys.executable, "-m", MODULES["coup"], *argv],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.monotonic() + 120
    while not (into.exists() and any(into.glob("*.ctb"))):  # generating
        assert child.poll() is None and time.monotonic() < deadline
        time.sleep(0.05)
    child.send_signal(signal.SIGINT)
    out, err = child.communicate(timeout=60)
    assert (child.returncode, out) == (130, "")
    assert err.count("\n") == 1 and "cancelled" in err
    left = sorted(into.iterdir())
    assert left and all(p.suffix == store.SUFFIX for p in left)  # no temporary file
    for table_file in left:
        store.read(table_file)  # each whole and checked, or it raises


# -- through the real prompt ---------------------------------------------------------------------


def _spawn(tmp_path: Path, game: str, *args: str) -> pexpect.spawn:
    return spawn_table(tmp_path, sys.executable, ["-m", MODULES[game], "table", *args], width=200)


FIRST_LINES = {
    "coup": ("players Alice Bob", "me Alice"),
    "spicy": ("players Ana Ben", "me Ana"),
    "tresor": ("game tresor", "players Ana Ben"),
}


@pytest.mark.skipif(sys.platform == "win32", reason="pseudo-terminals")
@pytest.mark.parametrize("game", ["spicy", "tresor"])
def test_save_to_a_missing_folder_is_one_line_and_the_table_goes_on(game: str, tmp_path: Path) -> None:
    path = tmp_path / f"game.{game}"
    child = _spawn(tmp_path, game, str(path))
    first, second = FIRST_LINES[game]
    say(child, first, journal=path)
    target = tmp_path / "no" / "dir" / f"x.{game}"
    say(child, f"save {target}", f"{target}: cannot write: no such folder {target.parent}")
    say(child, second, journal=path)
    say(child, f"save {tmp_path / 'saved.txt'}", "saved")
    say(child, "quit")
    child.expect(pexpect.EOF)
    assert not (tmp_path / "no").exists()
    assert (tmp_path / "saved.txt").read_text() == path.read_text()


def _waiting_for_a_loss_after_a_coup() -> tuple[list[str], str]:
    """A 4-player inquisitor record from Alice's seat, cut when two are left and another
    player must lose an influence after a coup (where `solve` raised IndexError), and its
    next line."""
    for seed in range(200):
        lines = random_record(4, seed, me=0, variant=Variant.INQUISITOR).splitlines()
        table = replay("".join(line + "\n" for line in lines[:4]))
        for n, line in enumerate(lines[4:], start=5):
            table = table.apply_text(line)
            view = table.view
            if (
                view is not None
                and line.split()[1:2] == ["coup"]
                and len(view.living()) == 2
                and view.turn.phase.name == "LOSE"
                and view.current_player() != 0
            ):
                return lines[:n], lines[n]
    raise AssertionError("no such record")  # pragma: no cover


@pytest.mark.skipif(sys.platform == "win32", reason="pseudo-terminals")
def test_solve_waiting_for_a_loss_after_a_coup_and_save_to_a_missing_folder_are_one_line_each(tmp_path: Path) -> None:
    lines, loss = _waiting_for_a_loss_after_a_coup()
    path = tmp_path / "game.coup"
    path.write_text("".join(line + "\n" for line in lines))
    loser = lines[-1].split()[-1]
    child = _spawn(tmp_path, "coup", str(path))
    child.expect("lines so far")
    say(child, "solve", f"{loser} chooses among cards you cannot see")
    target = tmp_path / "no" / "dir" / "x.coup"
    say(child, f"save {target}", f"{target}: cannot write: no such folder {target.parent}")
    say(child, loss, journal=path)
    say(child, "quit")
    child.expect(pexpect.EOF)
    assert "Traceback" not in (child.before or "") and not (tmp_path / "no").exists()
    assert path.read_text() == "".join(line + "\n" for line in [*lines, loss])


@pytest.mark.skipif(sys.platform == "win32", reason="pseudo-terminals")
def test_ctrl_c_during_the_first_solve_cancels_it_and_the_table_goes_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Heads-up after a 7-player game (its tables are not shipped), in a fresh cache: the first
    `solve` generates endgame tables for seconds; Ctrl-C then says "cancelled", the next line is taken, and no partly
    written table is left in the cache."""
    cache = tmp_path / "cache"
    monkeypatch.setenv("XDG_CACHE_HOME", str(cache))
    lines = random_record(7, 0, me=0, variant=Variant.AMBASSADOR).splitlines()
    path = tmp_path / "game.coup"
    path.write_text("".join(line + "\n" for line in lines[:49]))
    table = replay(path.read_text())
    assert table.view is not None and len(table.view.living()) == 2 and table.waiting is None
    child = _spawn(tmp_path, "coup", str(path))
    child.expect("49 lines so far")
    child.send("solve\r")
    child.expect("generating endgame tables")  # the progress bar: the work has started
    child.send("\x03")
    child.expect("cancelled")
    say(child, lines[49], journal=path)
    say(child, "history", lines[49])
    say(child, "quit")
    child.expect(pexpect.EOF)
    assert "Traceback" not in (child.before or "")
    assert path.read_text() == "".join(line + "\n" for line in lines[:50])
    left = sorted(cache.rglob("*")) if cache.exists() else []
    assert [p for p in left if p.name.endswith(".tmp")] == []
    for table_file in (p for p in left if p.suffix == store.SUFFIX):
        store.read(table_file)  # whole and checked, or it raises


# -- `solve` at every point of a game ----------------------------------------------------------


def _records(slow: bool) -> list[tuple[str, str]]:
    out = [(p.name, p.read_text()) for p in sorted((ROOT / "examples").glob("*.coup"))]
    if not slow:  # the bundled records are all but one of the ambassador variant
        return [*out, ("2 players inquisitor 0", random_record(2, 0, me=0, variant=Variant.INQUISITOR))]
    for seed in range(12):
        for variant in Variant:
            players = 2 + seed % 3
            out.append(
                (f"{players} players {variant} {seed}", random_record(players, seed, me=seed % 2, variant=variant))
            )
    return out


def _solve_after_every_heads_up_line(name: str, text: str) -> tuple[int, int]:
    session = coup_session()
    answers = refusals = 0
    for number, line in enumerate(text.splitlines(), start=1):
        session.handle(line)
        view = session.table.view
        if view is None or len(view.living()) != 2:
            continue
        said = session.handle("solve")  # nothing may escape
        assert said, f"{name}:{number}: no answer"
        if said[0][0] == "error":
            assert len(said) == 1 and "\n" not in said[0][1], f"{name}:{number}: {said}"
            refusals += 1
        else:
            assert all(style != "error" for style, _ in said), f"{name}:{number}: {said}"
            answers += 1
    return answers, refusals


def test_solve_answers_or_refuses_in_one_line_after_every_heads_up_line() -> None:
    totals = [_solve_after_every_heads_up_line(name, text) for name, text in _records(slow=False)]
    answers, refusals = sum(a for a, _ in totals), sum(r for _, r in totals)
    assert answers > 50 and refusals > 5  # both kinds are met


@pytest.mark.slow
def test_solve_answers_or_refuses_in_one_line_after_every_heads_up_line_of_many_games() -> None:
    for name, text in _records(slow=True):
        _solve_after_every_heads_up_line(name, text)
