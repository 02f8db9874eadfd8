"""Records and the journal, whatever the game: game files on disk, written so that nothing is
ever lost, and the one loop that replays a record through a game's tracker.

Every accepted line is appended and flushed (and fsynced) before the prompt answers; rewrites
(undo, redo) go to a new file that is then renamed over the old one, so a crash leaves either
the old journal or the new one, never half of one.

>>> import tempfile, pathlib
>>> path = pathlib.Path(tempfile.mkdtemp()) / "game.coup"
>>> journal = Journal(path)
>>> journal.append("players Alice Bob Carol")
>>> journal.rewrite(["players Alice Bob Carol", "me Carol"])
>>> path.read_text()
'players Alice Bob Carol\\nme Carol\\n'
>>> header("# a game of Spicy\\ngame spicy\\nplayers Ana Ben\\n")
'spicy'
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TypeVar

from solver.errors import GameError, RecordError
from solver.files import user_folder
from solver.vocabulary import fold

from . import files
from .tracked import AnyTable

HEADER_WORDS = ("game", "jeu")
"""The first word of a record's header line (``game spicy``); records without one are Coup's."""


T = TypeVar("T", bound=AnyTable)


def header(text: str) -> str | None:
    """The game named by a record's header line (its first line that is not blank or a comment),
    folded; None if it has none."""
    for raw in text.splitlines():
        words = raw.split("#", 1)[0].split()
        if not words:
            continue
        if fold(words[0]) in HEADER_WORDS and len(words) == 2:
            return fold(words[1])
        return None
    return None


def replay(
    lines: Iterable[str],
    table: T,
    path: str = "<record>",
    first: int = 1,
    each: Callable[[T, T, int, str], None] | None = None,
) -> T:
    """Apply every line to ``table`` (a :class:`~companion.tracked.TrackedTable`, lines numbered
    from ``first``) and return the last table; ``each(before, after, number, text)`` is called
    after each line (``after`` is ``before`` for a blank or comment line). The one replay loop of
    the house: records, the table, the analysis and the bots all use it. Raises
    :class:`~solver.errors.RecordError` (``FILE:LINE: reason``, the underlying error as its
    ``cause``)."""
    for number, text in enumerate(lines, start=first):
        try:
            after = table.apply_line(text, number)[0]
        except RecordError:
            raise
        except GameError as error:
            raise RecordError(path, number, error) from error
        if each is not None:
            each(table, after, number, text)
        table = after
    return table


# -- where games are kept ----------------------------------------------------------------------


def state_dir(app: str) -> Path:
    """Where ``app``'s games without a file, its prompt history and its last game are kept:
    ``$XDG_STATE_HOME/APP`` (default ``~/.local/state/APP``). Raises FileError if it cannot be
    created."""
    return files.ensure_folder(user_folder("state", app))


def new_game_path(app: str, extension: str) -> Path:
    """A fresh record file in ``app``'s state directory, named after the time."""
    games = files.ensure_folder(state_dir(app) / "games")
    stamp = time.strftime("%Y%m%d-%H%M%S")
    path = games / f"{stamp}.{extension}"
    n = 1
    while path.exists():
        n += 1
        path = games / f"{stamp}-{n}.{extension}"
    return path


def remember_last(app: str, path: Path) -> None:
    """Note ``path`` as the game ``APP table --resume`` continues."""
    files.write_text(state_dir(app) / "last", str(path.resolve()) + "\n")


def last_game(app: str) -> Path | None:
    """The game to resume, if any. Raises FileError if the note cannot be read."""
    last = state_dir(app) / "last"
    if not last.exists():
        return None
    path = Path(files.read_text(last).strip())
    return path if path.exists() else None


class Journal:
    """A record file kept in step with the table (created empty if missing; its folder must
    exist). Every method raises FileError when the file cannot be read or written."""

    def __init__(self, path: Path) -> None:
        self.path = path
        if not path.exists():
            files.write_text(path, "")

    def __repr__(self) -> str:
        return f"Journal({str(self.path)!r})"

    def lines(self) -> list[str]:
        return files.read_text(self.path).splitlines()

    def append(self, line: str) -> None:
        """Append one line and flush it to the disk before returning."""
        files.append_line(self.path, line)

    def rewrite(self, lines: list[str]) -> None:
        """Replace the whole journal atomically (a new file, then a rename)."""
        files.write_text(self.path, "".join(line + "\n" for line in lines))
