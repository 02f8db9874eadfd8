"""Every file a command reads or writes, whatever the game, goes through here: records,
puzzles, journals, ``--from``, ``save FILE``, ``--record``, pictures (``--plot``), graphs
(``--graph``), the last-game pointer. Every OS error (missing, a folder, no permission, the
disk full) and every decoding error becomes a :class:`~solver.errors.FileError`, printed as
``FILE: reason`` (exit code 1 on the command line, one line at the prompt). Writes are atomic
(:func:`solver.files.atomic_write`, the house's one atomic write): a file is written whole or
not at all, and nothing is left behind on failure or Ctrl-C.

Text files are UTF-8 (table-language.md). A file that is not (a Latin-1 ``Alice \\xe9change``
from an old editor, a binary file) is refused, naming the first faulty line and column: the
tool never guesses an encoding, so that a record means the same on every machine. A leading
byte-order mark is accepted and dropped.

>>> import tempfile, pathlib
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> write_text(folder / "game.coup", "players Alice Bob\\n")
>>> read_text(folder / "game.coup")
'players Alice Bob\\n'
>>> _ = (folder / "latin.coup").write_bytes(b"players Alice Bob\\nAlice \\xe9change\\n")
>>> try:
...     read_text(folder / "latin.coup")
... except FileError as error:
...     print(error.line, error.reason)
2 not UTF-8 text (byte 0xe9 at column 7); save the file as UTF-8
>>> try:
...     read_text(folder)
... except FileError as error:
...     print(error.reason)
cannot read: it is a folder, not a file
"""

from __future__ import annotations

import io
import os
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any

from solver.errors import FileError
from solver.files import atomic_write, cannot, read_bytes

__all__ = [
    "FileError",
    "append_line",
    "atomic_write",
    "check_writable",
    "decode",
    "ensure_folder",
    "read_bytes",
    "read_text",
    "read_toml",
    "save_figure",
    "write_output",
    "write_text",
]

Where = str | os.PathLike[str]


def decode(data: bytes, path: Where) -> str:
    """``data`` (the bytes of the file ``path``) as text. Raises FileError on the first byte
    that is not UTF-8, or on a NUL byte (a binary file), naming its line."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        line, column = _place(data, error.start)
        reason = f"not UTF-8 text (byte 0x{data[error.start]:02x} at column {column}); save the file as UTF-8"
        raise FileError(str(path), reason, line) from None
    nul = text.find("\0")
    if nul >= 0:
        raise FileError(str(path), "a binary file, not text (a NUL byte)", text.count("\n", 0, nul) + 1)
    return text.removeprefix("\ufeff")


def _place(data: bytes, offset: int) -> tuple[int, int]:
    """The 1-based line and column (in bytes) of ``offset``."""
    start = data.rfind(b"\n", 0, offset) + 1
    return data.count(b"\n", 0, offset) + 1, offset - start + 1


def read_text(path: Where) -> str:
    """The text of the UTF-8 file ``path``. Raises FileError."""
    return decode(read_bytes(path), path)


def read_toml(path: Where, what: str = "a TOML file") -> dict[str, Any]:
    """The TOML file ``path`` as a mapping. Raises FileError (``FILE: not WHAT: reason``)."""
    text = read_text(path)
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise FileError(str(path), f"not {what}: {error}") from None


def write_text(path: Where, text: str) -> None:
    """Write ``text`` (UTF-8) to ``path``, whole or not at all. Raises FileError."""
    atomic_write(path, text.encode("utf-8"))


def write_output(path: Where, draw: Callable[[IO[bytes]], None]) -> int:
    """Write what ``draw(stream)`` writes to a binary stream (a picture, a graph) to ``path``,
    whole or not at all; returns the bytes written. Raises FileError."""
    buffer = io.BytesIO()
    draw(buffer)
    return atomic_write(path, buffer.getvalue())


def save_figure(figure: Any, path: Where) -> int:
    """Save a matplotlib ``figure`` to ``path`` in the format its extension names (PNG without
    one); returns the bytes written. Raises FileError for a format matplotlib does not write."""
    suffix = Path(path).suffix.lower().lstrip(".") or "png"
    known = figure.canvas.get_supported_filetypes()
    if suffix not in known:
        raise FileError(str(path), f"cannot write a .{suffix} picture (try .png, .svg or .pdf)")
    return write_output(path, lambda stream: figure.savefig(stream, format=suffix))


def check_writable(path: Where) -> None:
    """Refuse, before long work, an output ``path`` that could not be written: its folder
    missing or not a folder, ``path`` a folder, no permission. Raises FileError."""
    target = Path(path)
    folder = target.parent
    try:
        if target.is_dir():
            raise IsADirectoryError(21, "Is a directory", str(target))
        if not folder.exists():
            raise FileNotFoundError(2, "No such file or directory", str(folder))
        if not folder.is_dir():
            raise NotADirectoryError(20, "Not a directory", str(folder))
        if not os.access(folder, os.W_OK | os.X_OK):
            raise PermissionError(13, "Permission denied", str(folder))
    except OSError as error:
        raise cannot(target, "write", error) from None


def ensure_folder(path: Where) -> Path:
    """The folder ``path``, created (with its parents) if missing. Raises FileError."""
    folder = Path(path)
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise cannot(folder, "create", error) from error
    return folder


def append_line(path: Where, line: str) -> None:
    """Append ``line`` (and a line end; another first if the file does not end with one) to
    ``path`` and flush it to the disk before returning. On failure (the disk full, Ctrl-C) the
    file is cut back to what it was: never half a line. Raises FileError."""
    try:
        fd = os.open(path, os.O_RDWR | os.O_APPEND | os.O_CREAT, 0o666)
    except OSError as error:
        raise cannot(path, "write", error) from error
    try:
        size = os.lseek(fd, 0, os.SEEK_END)
        ends = not size or os.pread(fd, 1, size - 1) == b"\n"
        rest = memoryview((b"" if ends else b"\n") + line.encode("utf-8") + b"\n")
        try:
            while rest:
                rest = rest[os.write(fd, rest) :]
            os.fsync(fd)
        except BaseException:
            os.ftruncate(fd, size)
            raise
    except OSError as error:
        raise cannot(path, "write", error) from error
    finally:
        os.close(fd)
