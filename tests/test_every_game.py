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
