"""What every game of the house does the same way, through the real commands: which files are
its records (another game's record, a README, an empty record), the core commands at every
prompt, the name of the person's seat."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).parent.parent
EXAMPLES = ROOT / "examples"
GAMES = {"coup": "companion.coup.cli", "spicy": "companion.spicy.cli", "tresor": "companion.treasure.cli"}
RECORD_COMMANDS = {"coup": ("replay", "analyze"), "spicy": ("replay", "analyze"), "tresor": ("replay",)}
OWN = {"coup": "three-players.coup", "spicy": "three-players.spicy", "tresor": "two-players.tresor"}


def run(game: str, *args: str, stdin: str = "", tmp: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)
    if tmp is not None:
        env["XDG_STATE_HOME"] = str(tmp / "state")
    return subprocess.run(
        [sys.executable, "-m", GAMES[game], *args], input=stdin, capture_output=True, text=True, timeout=300, env=env
    )


def _cases() -> list[tuple[str, str]]:
    return [(game, sub) for game, subs in RECORD_COMMANDS.items() for sub in subs]


@pytest.mark.parametrize(("game", "sub"), _cases())
def test_a_readme_given_as_a_record_is_not_a_record_of_the_game(game: str, sub: str) -> None:
    done = run(game, sub, str(ROOT / "README.md"))
    assert done.returncode == 1 and done.stdout == ""
    [line] = done.stderr.splitlines()
    assert f"this is not a {game} record" in line and line.startswith(f"{ROOT / 'README.md'}:")


@pytest.mark.parametrize(("game", "sub"), _cases())
def test_another_games_record_is_refused_naming_its_game(game: str, sub: str) -> None:
    for other, name in OWN.items():
        if other == game:
            continue
        done = run(game, sub, str(EXAMPLES / name))
        assert done.returncode == 1 and done.stdout == ""
        [line] = done.stderr.splitlines()
        if other == "coup":  # Coup's records have no header: its first line is a Coup line
            assert f"this is not a {game} record" in line and "(if it is a coup record: coup replay FILE)" in line
        else:
            assert f"this is a {other} record, not a {game} one (try: {other} replay FILE)" in line


def test_a_file_that_does_not_begin_as_a_coup_record_is_not_one(tmp_path: Path) -> None:
    record = tmp_path / "notes.coup"
    record.write_text("# what happened\nAlice tax\n")
    done = run("coup", "replay", str(record))
    assert done.returncode == 1 and done.stderr.startswith(f"{record}:2: this is not a coup record")


@pytest.mark.parametrize("game", list(GAMES))
def test_an_empty_record_is_an_empty_game_for_every_sub_command(game: str, tmp_path: Path) -> None:
    """Blank and comment lines only: accepted alike by replay, analyze and table (a table quit
    before its first line leaves such a file, and --resume opens it)."""
    path = tmp_path / f"empty.{game}"
    path.write_text("# nothing yet\n\n")
    for sub in RECORD_COMMANDS[game]:
        done = run(game, sub, str(path))
        assert done.returncode == 0 and done.stderr == "", (sub, done.stderr)
    assert '"players": []' in run(game, "replay", str(path), "--json").stdout
    done = run(game, "table", str(path), stdin="quit\n", tmp=tmp_path)
    assert done.returncode == 0 and "Traceback" not in done.stderr and "record" not in done.stderr
    new = run(game, "table", stdin="quit\n", tmp=tmp_path)  # a new table, quit at once
    assert new.returncode == 0
    resumed = run(game, "table", "--resume", stdin="quit\n", tmp=tmp_path)
    assert resumed.returncode == 0 and "record" not in resumed.stderr, resumed.stderr


TRESOR_HAND = (
    "hand 1cn 1en 1ev 1ev 1rv 1rb 1rb 2cn 2cv 2cv 2cb 2en 2ev 2eb 2rb 2rb 3cn 3cn 3cv 3cv 3en 3en 3ev 3rn 3rb 3rb"
)
PROMPTS = {  # (game, arguments, lines typed first, what `table` and `odds` print)
    "coup table": ("coup", ["table"], ["players Alice Bob Carol", "me Alice", "hand duke captain"], ("unseen", "Bob")),
    "coup puzzle": (
        "coup",
        ["puzzle", str(EXAMPLES / "puzzles" / "05-exchange-luck.toml"), "--seed", "1"],
        ["Alice income"],
        ("You are Alice", "Open hands"),
    ),
    "coup play": ("coup", ["play", "--players", "3", "--seed", "3"], [], ("unseen", "Bob")),
    "spicy table": ("spicy", ["table"], ["game spicy", "players Ana Ben Cleo", "me Ana"], ("pile", "pile")),
    "spicy play": ("spicy", ["play", "--players", "3", "--seed", "3"], [], ("pile", "true plays")),
    "tresor table": (
        "tresor",
        ["table"],
        ["game tresor", "players Ana Ben", "start 2eb"],  # a spectator's table
        ("owners", "treasure"),
    ),
    "tresor play": ("tresor", ["play", "--players", "2", "--seed", "3"], [], ("owners", "treasure")),
}
REFUSALS = ("is not a player", "unknown word", "needs a player first", "cannot be played", "not your move")


@pytest.mark.parametrize("prompt", list(PROMPTS))
def test_every_prompt_answers_the_core_commands(prompt: str, tmp_path: Path) -> None:
    """help, table, odds, history and quit, at a table, in a puzzle, against bots."""
    from companion.session import CORE

    game, args, first, (table, odds) = PROMPTS[prompt]
    if "play" in args:
        args = [*args, "--record", str(tmp_path / f"game.{game}")]
    typed = [*first, "help", "history", "table", "odds", "quit"]
    done = run(game, *args, stdin="".join(line + "\n" for line in typed), tmp=tmp_path)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert not any(refusal in out for refusal in REFUSALS), out
    listed = out[out.index("Commands:") :]
    assert all(f"\n  {name} " in listed for name in CORE)
    assert "   1  " in out  # the history, numbered
    assert table in out and odds in out


@pytest.mark.parametrize("game", list(GAMES))
def test_the_persons_seat_is_you_in_every_game_against_bots_or_the_name_given(game: str, tmp_path: Path) -> None:
    for extra, name in (([], "You"), (["--name", "Zoe"], "Zoe")):
        record = tmp_path / f"{name}.{game}"
        done = run(game, "play", "--players", "3", "--seed", "1", "--record", str(record), *extra, stdin="quit\n")
        assert done.returncode == 0, done.stderr
        lines = record.read_text().splitlines()
        assert f"me {name}" in lines and any(line.startswith(f"players {name} ") for line in lines)
    clash = run(game, "play", "--players", "3", "--name", "pass", "--record", str(tmp_path / "x"), stdin="quit\n")
    assert clash.returncode == 2 and "Traceback" not in clash.stderr
    assert clash.stderr.strip().startswith(f"{game} play: ") and len(clash.stderr.strip().splitlines()) == 1


SESSIONS = {
    "coup": "companion.coup.commands",
    "spicy": "companion.spicy.commands",
    "tresor": "companion.treasure.commands",
}


@pytest.mark.parametrize("game", list(GAMES))
def test_undo_right_after_opening_a_record_takes_back_its_last_line_only(game: str, tmp_path: Path) -> None:
    """Through the real prompt: a record opened, ``undo`` then ``quit`` leaves the record less its
    last line (each line of an opened record is its own undo step); ``redo`` puts it back."""
    from importlib import import_module

    from companion.records import Journal
    from tests.helpers import type_into

    commands = import_module(SESSIONS[game])
    text = (EXAMPLES / OWN[game]).read_text()
    lines = text.splitlines()
    path = tmp_path / f"game.{game}"
    path.write_text(text)
    session = commands.session(Journal(path))
    code, printed = type_into(session, commands.front(session, history=False), "undo\nundo\nquit\n")
    assert code == 0 and f"undone: {lines[-1]}" in printed and f"undone: {lines[-2]}" in printed
    assert path.read_text().splitlines() == lines[:-2]  # the two last lines only, nothing else lost
    session = commands.session(Journal(path))
    code, printed = type_into(session, commands.front(session, history=False), "undo\nredo\nquit\n")
    assert f"redone: {lines[-3]}" in printed and path.read_text().splitlines() == lines[:-2]
