"""The one atomic write of the house, and OS errors in a player's words.

A file is written whole or not at all: the bytes go to a temporary file in the same folder,
which is flushed to the disk and then renamed over the target; on any failure (an OS error, a
full disk, Ctrl-C) the temporary file is removed and the target is as it was. The solver writes
its own data files (the endgame tables) with it; the companion writes records, journals,
pictures and graphs with it (see :mod:`companion.files`, the one place commands read and write
through). Every OS error becomes a :class:`~solver.errors.FileError` (``FILE: reason``).

>>> import tempfile, pathlib
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> atomic_write(folder / "a.txt", b"one\\n"), read_bytes(folder / "a.txt")
(4, b'one\\n')
>>> sorted(p.name for p in folder.iterdir())
['a.txt']
>>> print(cannot(folder / "none.txt", "read", FileNotFoundError(2, "No such file or directory"))
...       .reason)
cannot read: no such file
"""

from __future__ import annotations

import contextlib
import errno
import os
import tempfile
from pathlib import Path
from typing import Literal

from .errors import FileError

_WHY = {
    errno.EISDIR: "it is a folder, not a file",
    errno.ENOTDIR: "a part of the path is not a folder",
    errno.EEXIST: "a part of the path is not a folder",  # mkdir where a file is
    errno.EACCES: "permission denied",
    errno.EPERM: "permission denied",
    errno.ENOSPC: "the disk is full",
    errno.EDQUOT: "the disk quota is exceeded",
    errno.EROFS: "the file system is read-only",
    errno.ENAMETOOLONG: "the name is too long",
    errno.ELOOP: "too many symbolic links",
}


def cannot(path: str | os.PathLike[str], verb: str, error: OSError) -> FileError:
    """The :class:`~solver.errors.FileError` for ``error``, met while trying to ``verb``
    (read, write, create) ``path``: ``FILE: cannot VERB: reason``."""
    if error.errno == errno.ENOENT:
        why = "no such file" if verb == "read" else f"no such folder {Path(path).parent}"
    else:
        why = _WHY.get(error.errno or 0) or (error.strerror or str(error) or type(error).__name__).lower()
    return FileError(str(path), f"cannot {verb}: {why}")


def read_bytes(path: str | os.PathLike[str]) -> bytes:
    """The bytes of the file ``path``. Raises :class:`~solver.errors.FileError` (missing, a
    folder, no permission...)."""
    try:
        with open(path, "rb") as f:
            return f.read()
    except OSError as error:
        raise cannot(path, "read", error) from error


def user_folder(kind: Literal["cache", "state"], app: str) -> Path:
    """Where ``app`` keeps this user's ``kind`` of files, as the platform has it
    (:mod:`platformdirs`; on Linux ``$XDG_CACHE_HOME/APP`` or ``~/.cache/APP``, and
    ``$XDG_STATE_HOME/APP`` or ``~/.local/state/APP``). The folder is not created.

    >>> user_folder("cache", "coup").name
    'coup'
    """
    import platformdirs  # here: a command that keeps nothing does not need it

    find = platformdirs.user_cache_dir if kind == "cache" else platformdirs.user_state_dir
    return Path(find(app, appauthor=False))


def atomic_write(path: str | os.PathLike[str], data: bytes, parents: bool = False, lasting: bool = True) -> int:
    """Write ``data`` to ``path`` whole or not at all (a temporary file in the same folder,
    flushed to the disk, then renamed over ``path``; removed on any failure, Ctrl-C included);
    with ``parents``, missing folders are created first. ``lasting``: the rename itself is
    flushed too (the folder synced), so that it survives a crash; a cache that is made again
    when missing passes False (a crash may then lose the new file, never tear it). Returns the
    bytes written. Raises :class:`~solver.errors.FileError`; the target is then as it was."""
    target = Path(path)
    folder = target.parent
    temporary: str | None = None
    try:
        if parents:
            folder.mkdir(parents=True, exist_ok=True)
        if target.is_dir():
            raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), str(target))
        mode = _mode(target)
        fd, temporary = tempfile.mkstemp(dir=folder, prefix=f".{target.name}.", suffix=".tmp")
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(temporary, mode)
        os.replace(temporary, target)
        temporary = None
        if lasting:
            _sync_folder(folder)
    except OSError as error:
        raise cannot(target, "write", error) from error
    finally:
        if temporary is not None:
            with contextlib.suppress(OSError):
                os.unlink(temporary)
    return len(data)


def _mode(target: Path) -> int:
    """The permissions the written file gets: those of the file it replaces, else the usual
    ones for a new file (0o666 less the umask), not the temporary file's 0o600."""
    try:
        return target.stat().st_mode & 0o7777
    except OSError:
        mask = os.umask(0o022)
        os.umask(mask)
        return 0o666 & ~mask


def _sync_folder(folder: Path) -> None:
    """Flush the rename to the disk, where the system allows it."""
    with contextlib.suppress(OSError):
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
