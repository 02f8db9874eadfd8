"""The one place files are read and written (companion.files over solver.files): OS and decoding
errors become a FileError naming the file (and the line), writes are whole or not at all, and
nothing is left behind on failure, a full disk or Ctrl-C."""

from __future__ import annotations

import errno
import os
import pickle
import stat
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from companion import files
from companion.records import Journal
from solver.coup.cards import Variant
from solver.coup.tablebase import Family, store
from solver.errors import FileError, GameError
from solver.files import atomic_write


def _left(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


def test_a_file_error_prints_file_colon_reason_and_carries_the_file() -> None:
    error = FileError("game.coup", "not UTF-8 text", 3)
    assert isinstance(error, GameError)
    assert str(error) == "game.coup:3: not UTF-8 text" and error.input == "game.coup"
    assert str(pickle.loads(pickle.dumps(error))) == "game.coup:3: not UTF-8 text"
    assert str(FileError("x.png", "cannot write: no such folder /a")) == "x.png: cannot write: no such folder /a"


@pytest.mark.parametrize(
    ("content", "line", "reason"),
    [
        (b"players Alice Bob\nAlice \xe9change\n", 2, "not UTF-8 text (byte 0xe9 at column 7); save the file as UTF-8"),
        (b"\x89PNG\r\n\x1a\n\x00\x00", 1, "not UTF-8 text (byte 0x89 at column 1); save the file as UTF-8"),
        (b"players Alice Bob\n\nab\x00cd\n", 3, "a binary file, not text (a NUL byte)"),
    ],
)
def test_text_that_is_not_utf8_is_refused_naming_the_line(
    tmp_path: Path, content: bytes, line: int, reason: str
) -> None:
    path = tmp_path / "game.coup"
    path.write_bytes(content)
    with pytest.raises(FileError) as raised:
        files.read_text(path)
    assert (raised.value.line, raised.value.reason) == (line, reason)
    assert str(raised.value) == f"{path}:{line}: {reason}"


def test_a_byte_order_mark_is_dropped(tmp_path: Path) -> None:
    path = tmp_path / "game.coup"
    path.write_bytes(b"\xef\xbb\xbfplayers Alice Bob\n")
    assert files.read_text(path) == "players Alice Bob\n"


@pytest.mark.parametrize(
    ("name", "reason"),
    [
        ("missing.coup", "cannot read: no such file"),
        (".", "cannot read: it is a folder, not a file"),
        ("plain.txt/x.coup", "cannot read: a part of the path is not a folder"),
    ],
)
def test_reading_what_is_not_a_readable_file_is_one_file_error(tmp_path: Path, name: str, reason: str) -> None:
    (tmp_path / "plain.txt").write_text("x\n")
    with pytest.raises(FileError, match="^.*: " + reason.replace("(", r"\(") + "$"):
        files.read_text(tmp_path / name)


@pytest.mark.parametrize(
    ("name", "reason"),
    [
        ("no/such/folder/x.png", "cannot write: no such folder {tmp}/no/such/folder"),
        (".", "cannot write: it is a folder, not a file"),
        ("plain.txt/x.png", "cannot write: a part of the path is not a folder"),
    ],
)
def test_an_output_that_cannot_be_written_is_refused_before_and_when_written(
    tmp_path: Path, name: str, reason: str
) -> None:
    (tmp_path / "plain.txt").write_text("x\n")
    target = tmp_path / name
    expected = f"{target}: {reason.format(tmp=tmp_path)}"
    with pytest.raises(FileError) as early:
        files.check_writable(target)
    with pytest.raises(FileError) as late:
        files.write_text(target, "text\n")
    assert str(early.value) == str(late.value) == expected
    assert _left(tmp_path) == ["plain.txt"]


@pytest.mark.parametrize(
    "failure",
    [OSError(errno.ENOSPC, "No space left on device"), PermissionError(errno.EACCES, "Permission denied"), None],
)
def test_a_failed_write_leaves_the_old_file_and_no_temporary_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, failure: OSError | None
) -> None:
    target = tmp_path / "game.coup"
    target.write_text("old\n")

    def fail(fd: int) -> None:
        raise failure if failure is not None else KeyboardInterrupt

    monkeypatch.setattr(os, "fsync", fail)
    with pytest.raises(FileError if failure is not None else KeyboardInterrupt) as raised:
        files.write_text(target, "new\n")
    if failure is not None:
        assert str(raised.value).startswith(f"{target}: cannot write: ")
        assert str(raised.value).endswith("the disk is full" if failure.errno == errno.ENOSPC else "permission denied")
    assert target.read_text() == "old\n" and _left(tmp_path) == ["game.coup"]


def test_a_written_file_keeps_the_permissions_of_the_file_it_replaces(tmp_path: Path) -> None:
    target = tmp_path / "game.coup"
    files.write_text(target, "one\n")
    assert stat.S_IMODE(target.stat().st_mode) & 0o044 == 0o044  # readable by others, as a plain file
    target.chmod(0o640)
    files.write_text(target, "two\n")
    assert stat.S_IMODE(target.stat().st_mode) == 0o640 and target.read_text() == "two\n"


def test_an_append_that_fails_cuts_the_file_back_never_half_a_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    journal = Journal(tmp_path / "game.coup")
    journal.append("players Alice Bob")
    (tmp_path / "game.coup").write_bytes(b"players Alice Bob\nme Alice")  # no final line end
    journal.append("hand duke captain")
    assert journal.lines() == ["players Alice Bob", "me Alice", "hand duke captain"]

    def full(fd: int) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "fsync", full)
    with pytest.raises(FileError, match="cannot write: the disk is full"):
        journal.append("Alice tax")
    assert journal.lines() == ["players Alice Bob", "me Alice", "hand duke captain"]


def test_a_journal_in_a_missing_folder_is_refused_and_no_folder_is_made(tmp_path: Path) -> None:
    with pytest.raises(FileError, match="cannot write: no such folder"):
        Journal(tmp_path / "no" / "game.coup")
    assert _left(tmp_path) == []


def test_save_figure_writes_the_format_of_the_extension_and_refuses_an_unknown_one(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, _ = plt.subplots()
    try:
        files.save_figure(figure, tmp_path / "a.svg")
        files.save_figure(figure, tmp_path / "a.png")
        with pytest.raises(FileError, match=r"a\.xyz: cannot write a \.xyz picture"):
            files.save_figure(figure, tmp_path / "a.xyz")
    finally:
        plt.close(figure)
    assert (tmp_path / "a.svg").read_bytes().lstrip().startswith(b"<?xml")
    assert (tmp_path / "a.png").read_bytes().startswith(b"\x89PNG")
    assert _left(tmp_path) == ["a.png", "a.svg"]


def _small_table() -> store.Table:
    family = Family(Variant.AMBASSADOR, (1, 0, 0, 1, 1), court=1)
    n = family.positions
    ones = np.ones(n, np.uint32)
    return store.Table(family, (Fraction(1), Fraction(0)), ones * 0, ones, np.zeros(n, np.uint16))


def test_a_table_file_interrupted_while_written_is_never_left_in_the_cache(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = _small_table()
    path = tmp_path / "cache" / table.file_name

    def interrupted(fd: int) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "fsync", interrupted)
    with pytest.raises(KeyboardInterrupt):
        store.write(table, path)
    assert _left(tmp_path / "cache") == []
    monkeypatch.undo()
    store.write(table, path)
    assert store.read(path) == table and _left(tmp_path / "cache") == [table.file_name]


def test_a_table_cache_that_cannot_be_written_is_a_file_error(tmp_path: Path) -> None:
    (tmp_path / "plain").write_text("not a folder\n")
    with pytest.raises(FileError, match=r"plain/ambassador-10011-c1\.ctb: cannot write: a part of the path"):
        store.write(_small_table(), tmp_path / "plain" / "ambassador-10011-c1.ctb")


def test_the_tests_use_temporary_folders_even_when_the_user_has_set_theirs(monkeypatch: pytest.MonkeyPatch) -> None:
    """tests/conftest.py replaces the user's XDG folders (never ``setdefault``): a test never
    reads or writes a person's real games, tables or settings."""
    import importlib
    import tempfile

    mine = Path.home() / ".local" / "state"
    variables = ("XDG_CACHE_HOME", "XDG_STATE_HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME")
    for variable in variables:
        monkeypatch.setenv(variable, str(mine))
    conftest = importlib.import_module("tests.conftest")
    conftest._private_dirs()
    for variable in variables:
        folder = Path(os.environ[variable])
        assert folder.is_relative_to(tempfile.gettempdir()) and folder != mine, variable


def test_records_sync_their_folder_and_cache_tables_only_their_bytes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    synced: list[bool] = []  # for each fsync: was it a folder's
    real = os.fsync

    def spy(fd: int) -> None:
        synced.append(stat.S_ISDIR(os.fstat(fd).st_mode))
        real(fd)

    monkeypatch.setattr(os, "fsync", spy)
    files.write_text(tmp_path / "game.coup", "players Alice Bob\n")
    assert synced == [False, True]  # a record's rename survives a crash
    synced.clear()
    atomic_write(tmp_path / "cache" / "table.bin", b"\x00" * 8, parents=True, lasting=False)
    assert synced == [False]  # a cache file: its bytes flushed before the rename, never torn
