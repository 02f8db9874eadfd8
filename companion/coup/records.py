"""Records and the journal: game files on disk, written so that nothing is ever lost.

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
"""

from __future__ import annotations

import os
import tempfile
import time
from pathlib import Path

from solver.coup import GameError

from .table import Table


def state_dir() -> Path:
    """Where games without a file, the prompt history and the last game are kept:
    ``$XDG_STATE_HOME/coup`` (default ``~/.local/state/coup``)."""
    base = os.environ.get("XDG_STATE_HOME") or os.path.join(os.path.expanduser("~"), ".local", "state")
    path = Path(base) / "coup"
    path.mkdir(parents=True, exist_ok=True)
    return path


def new_game_path() -> Path:
    """A fresh record file in the state directory, named after the time."""
    games = state_dir() / "games"
    games.mkdir(exist_ok=True)
    stamp = time.strftime("%Y%m%d-%H%M%S")
    path = games / f"{stamp}.coup"
    n = 1
    while path.exists():
        n += 1
        path = games / f"{stamp}-{n}.coup"
    return path


def remember_last(path: Path) -> None:
    """Note ``path`` as the game ``coup table --resume`` continues."""
    last = state_dir() / "last"
    _atomic_write(last, str(path.resolve()) + "\n")


def last_game() -> Path | None:
    """The game to resume, if any."""
    last = state_dir() / "last"
    if not last.exists():
        return None
    path = Path(last.read_text().strip())
    return path if path.exists() else None


def _atomic_write(path: Path, text: str) -> None:
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


class Journal:
    """A record file kept in step with the table."""

    def __init__(self, path: Path) -> None:
        self.path = path
        path.parent.mkdir(parents=True, exist_ok=True)
        if not path.exists():
            path.touch()

    def __repr__(self) -> str:
        return f"Journal({str(self.path)!r})"

    def lines(self) -> list[str]:
        return self.path.read_text(encoding="utf-8").splitlines()

    def append(self, line: str) -> None:
        """Append one line and flush it to the disk before returning."""
        text = self.path.read_text(encoding="utf-8")
        prefix = "" if not text or text.endswith("\n") else "\n"
        with self.path.open("a", encoding="utf-8") as f:
            f.write(prefix + line + "\n")
            f.flush()
            os.fsync(f.fileno())

    def rewrite(self, lines: list[str]) -> None:
        """Replace the whole journal atomically (a new file, then a rename)."""
        _atomic_write(self.path, "".join(line + "\n" for line in lines))


def read_record(path: Path, table: Table | None = None) -> Table:
    """Replay the record at ``path``; raises GameError as ``FILE:LINE: reason``."""
    table = table or Table.new()
    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        try:
            table = table.apply_text(raw, number)
        except GameError as error:
            raise type(error)(f"{path}:{number}: {error}") from error
    return table
