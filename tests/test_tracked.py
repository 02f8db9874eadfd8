"""The one shape of a tracked table (companion/tracked.py), as the session uses it: a typed line
applied once, its place in the record said by the table, the journal and undo following it."""

from __future__ import annotations

from importlib import import_module
from pathlib import Path
from typing import Any

import pytest

from companion.records import Journal

ROOT = Path(__file__).parent.parent
GAMES = {
    "three-players.coup": "companion.coup.commands",
    "three-players.spicy": "companion.spicy.commands",
    "two-players.tresor": "companion.treasure.commands",
}


def _canonical(example: str) -> list[str]:
    """The canonical record of an example game (its comments dropped, its words the house's)."""
    from companion.records import replay

    session = import_module(GAMES[example]).session()
    lines = (ROOT / "examples" / example).read_text().splitlines()
    return list(replay(lines, session.table, example).record_lines())


def _opened(example: str, tmp_path: Path, keep: int) -> tuple[Any, list[str], Path]:
    """A session of the example's game opened on its canonical record less the last ``keep``
    lines; the whole record; the journal's path."""
    lines = _canonical(example)
    path = tmp_path / example
    path.write_text("".join(line + "\n" for line in lines[: len(lines) - keep]))
    return import_module(GAMES[example]).session(Journal(path)), lines, path


@pytest.mark.parametrize("example", list(GAMES))
def test_a_typed_line_does_not_rebuild_the_record_however_long_the_history(
    example: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The session appends the line the table says it appended, without asking any table for
    its whole record (the cost of a typed line does not grow with the history)."""
    session, lines, path = _opened(example, tmp_path, keep=1)
    built = []
    original = type(session.table).record_lines

    def counted(table: Any) -> list[str]:
        built.append(table)
        return original(table)

    monkeypatch.setattr(type(session.table), "record_lines", counted)
    session.handle(lines[-1])
    assert session.table.placed.how == "appended" and session.table.placed.at == len(lines) - 1
    assert built == []
    monkeypatch.undo()
    assert path.read_text().splitlines() == lines == session.table.record_lines()


@pytest.mark.parametrize("example", list(GAMES))
def test_the_table_says_where_each_line_of_a_canonical_record_went(example: str) -> None:
    """Replaying a canonical record, every line is appended at its own index, but for set-up
    lines written with a default line (Coup's ``variant``): rewritten, the record said whole."""
    from companion.records import replay

    lines = _canonical(example)
    placed: list[Any] = []
    replay(
        lines, import_module(GAMES[example]).session().table, example, each=lambda *args: placed.append(args[1].placed)
    )
    assert [p.text for p in placed] == lines
    rewritten = [at for at, p in enumerate(placed) if p.how == "rewritten"]
    assert all(p.at == at for at, p in enumerate(placed) if p.how == "appended")
    assert len(rewritten) <= 2 and all(lines[at].split()[0] in ("players", "variant") for at in rewritten)


CARRIED = "players Alice Bob Carol\nvariant ambassador\nme Carol\nhand duke captain\nAlice income\nBob income\n"


def test_undo_after_a_replacement_inserted_before_the_loss_takes_back_the_replacement(tmp_path: Path) -> None:
    """The seat proves its duke, the challenger's loss is typed, then the replacement: the table
    puts the draw before the loss (its place in the record), the journal is rewritten so; undo
    names the draw and gives back the journal as it was, redo puts the draw back in its place."""
    from companion.coup.commands import session as coup_session

    path = tmp_path / "game.coup"
    path.write_text(CARRIED)
    session = coup_session(Journal(path))
    for line in ("Carol tax", "Alice challenge", "Carol show duke", "Alice lose contessa"):
        assert all(style != "error" for style, _ in session.handle(line)), line
    before = path.read_text()
    session.handle("draw duke")
    placed = session.table.placed
    assert (placed.how, placed.text) == ("inserted", "draw duke")
    inserted = path.read_text().splitlines()
    assert inserted[placed.at :] == ["draw duke", "Alice lose contessa"]
    assert inserted == session.table.record_lines()
    assert session.handle("undo") == [("info", "undone: draw duke")]
    assert path.read_text() == before
    assert session.handle("redo") == [("info", "redone: draw duke")]
    assert path.read_text().splitlines() == inserted


def test_undo_right_after_opening_a_record_keeps_the_rest_of_the_file(tmp_path: Path) -> None:
    """Each line of an opened record is its own undo step: undo takes back the last line, never
    the whole file (the journal emptied)."""
    session, lines, path = _opened("three-players.coup", tmp_path, keep=0)
    assert session.handle("undo") == [("info", f"undone: {lines[-1]}")]
    assert path.read_text().splitlines() == lines[:-1]
