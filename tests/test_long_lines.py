"""A line far longer than any table line (a pasted megabyte) is refused at once, in one line
that does not repeat it, and changes nothing, at every game's prompt and in every record."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from companion.coup.commands import session as coup_session
from companion.session import LONGEST_LINE
from companion.spicy.commands import session as spicy_session
from companion.treasure.commands import session as treasure_session

SESSIONS = {"coup": coup_session, "spicy": spicy_session, "tresor": treasure_session}
START = {
    "coup": ["players Alice Bob Carol", "me Alice"],
    "spicy": ["players Alice Bob Carol", "me Alice"],
    "tresor": ["players Alice Bob Carol", "me Alice"],
}


@pytest.mark.parametrize("game", sorted(SESSIONS))
@pytest.mark.parametrize("junk", ["x" * 1_000_000, "Alice " + "tax " * 250_000, "odds " + "y" * 5000])
def test_a_huge_line_is_refused_in_one_short_line_and_changes_nothing(game: str, junk: str) -> None:
    session = SESSIONS[game]()
    for line in START[game]:
        session.handle(line)
    before = list(session.history_lines())
    [(kind, said)] = session.handle(junk)
    assert kind == "error"
    assert said == f"a line of {len(junk):,} characters is too long to be a table line (at most {LONGEST_LINE:,})"
    assert session.history_lines() == before


def test_a_line_just_within_the_limit_is_read_as_usual() -> None:
    session = coup_session()
    [(kind, said)] = session.handle("x" * LONGEST_LINE)
    assert kind == "error" and "too long" not in said


@pytest.mark.parametrize("game", sorted(SESSIONS))
def test_a_record_with_a_huge_line_is_refused_naming_its_file_and_line(game: str, tmp_path: Path) -> None:
    record = tmp_path / f"long.{game}"
    header = "" if game == "coup" else f"game {game}\n"
    record.write_text(header + "players Alice Bob Carol\nAlice " + "x" * 100_000 + "\n", encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", f"companion.{'treasure' if game == 'tresor' else game}.cli", "replay", str(record)],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 1, done.stderr
    line = 3 if header else 2
    too_long = f"a line of 100,006 characters is too long to be a table line (at most {LONGEST_LINE:,})"
    assert done.stderr.strip() == f"{record}:{line}: {too_long}"
