"""The table files: one per family, versioned, checksummed, read when first needed.

Format, version 1 (all integers little-endian)::

    b"COUPTB"            6 bytes, the magic
    version              u16 (1)
    header length H      u32
    header               H bytes of UTF-8 JSON: {"family": name, "positions": N,
                         "arrangements": [[mover, other], ...] (hand codes, see index.py),
                         "sections": {name: [offset, length], ...}} (offsets after the header)
    sections             each zlib-compressed:
                           "rationals"  the distinct exact values, one "p/q" per line (ASCII)
                           "value"      N u32: per position, the line of its value
                           "draw"       N u32: per position, the line of its draw probability
                           "rank"       N u16: turns to the end under the reported strategies
                                        (65535: never)
    checksum             32 bytes: SHA-256 of everything before it

Position ``i`` is arrangement ``i // 169`` (the ``arrangements`` list), mover's coins
``i % 169 // 13``, other's coins ``i % 13``; values are from the mover's side. A file whose
checksum, magic, version or header does not match is refused (a
:class:`~solver.errors.ParseError` naming the file), never used.

Installed tables live in the package (``solver/coup/data/tablebase``); the others are generated
on first use into ``$XDG_CACHE_HOME/coup/tablebase`` (default ``~/.cache/coup/tablebase``).

>>> import tempfile
>>> from solver.coup.cards import Variant
>>> f = Family(Variant.AMBASSADOR, (1, 0, 0, 1, 1), court=1)
>>> t = Table(f, (Fraction(1), Fraction(0)), np.zeros(f.positions, np.uint32), np.ones(f.positions, np.uint32),
...           np.zeros(f.positions, np.uint16))
>>> path = Path(tempfile.mkdtemp()) / t.file_name
>>> write(t, path) > 0, read(path) == t
(True, True)
"""

from __future__ import annotations

import hashlib
import json
import struct
import zlib
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

import numpy as np
import numpy.typing as npt

from ...errors import ParseError
from ...files import atomic_write, read_bytes, user_folder
from .index import Family

MAGIC = b"COUPTB"
VERSION = 1
SUFFIX = ".ctb"
NO_RANK = 65535


@dataclass(frozen=True, repr=False, eq=False)
class Table:
    """A family's stored answer: per position, the exact value, the draw probability (both as
    indices into ``rationals``) and the progress rank."""

    family: Family
    rationals: tuple[Fraction, ...]
    value: npt.NDArray[np.uint32]
    draw: npt.NDArray[np.uint32]
    rank: npt.NDArray[np.uint16]

    def __repr__(self) -> str:
        return f"<Table {self.family.name} {self.family.positions:,} positions, {len(self.rationals):,} values>"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Table):
            return NotImplemented
        return (
            self.family == other.family
            and self.rationals == other.rationals
            and np.array_equal(self.value, other.value)
            and np.array_equal(self.draw, other.draw)
            and np.array_equal(self.rank, other.rank)
        )

    __hash__ = None  # type: ignore[assignment]

    @property
    def file_name(self) -> str:
        return self.family.name + SUFFIX

    def value_at(self, index: int) -> Fraction:
        """The exact value of position ``index`` (mover's side)."""
        return self.rationals[int(self.value[index])]

    def draw_at(self, index: int) -> Fraction:
        return self.rationals[int(self.draw[index])]

    def rank_at(self, index: int) -> int:
        return int(self.rank[index])

    def values(self) -> list[Fraction]:
        """Every position's exact value, in index order."""
        return [self.rationals[int(i)] for i in self.value]

    def draws(self) -> list[Fraction]:
        return [self.rationals[int(i)] for i in self.draw]


def encode(table: Table) -> bytes:
    """The file's bytes (see the module docstring)."""
    sections = {
        "rationals": "\n".join(f"{q.numerator}/{q.denominator}" for q in table.rationals).encode("ascii"),
        "value": table.value.astype("<u4").tobytes(),
        "draw": table.draw.astype("<u4").tobytes(),
        "rank": table.rank.astype("<u2").tobytes(),
    }
    body = b""
    places = {}
    for name, raw in sections.items():
        packed = zlib.compress(raw, 9)
        places[name] = [len(body), len(packed)]
        body += packed
    header = json.dumps(
        {
            "family": table.family.name,
            "positions": table.family.positions,
            "arrangements": [list(a) for a in table.family.arrangements],
            "sections": places,
        },
        separators=(",", ":"),
    ).encode("utf-8")
    data = MAGIC + struct.pack("<HI", VERSION, len(header)) + header + body
    return data + hashlib.sha256(data).digest()


def decode(data: bytes, source: str = "table") -> Table:
    """The table in ``data``. Raises :class:`~solver.errors.ParseError` when anything does not check."""
    if len(data) < len(MAGIC) + 6 + 32 or data[: len(MAGIC)] != MAGIC:
        raise ParseError(f"{source}: not a Coup table file", input=source)
    if hashlib.sha256(data[:-32]).digest() != data[-32:]:
        raise ParseError(f"{source}: checksum mismatch, the file is corrupted; delete it to regenerate", input=source)
    version, size = struct.unpack_from("<HI", data, len(MAGIC))
    if version != VERSION:
        raise ParseError(f"{source}: table format version {version}, this program reads {VERSION}", input=source)
    start = len(MAGIC) + 6
    try:
        header = json.loads(data[start : start + size].decode("utf-8"))
        family = Family.from_name(header["family"])
        if [list(a) for a in family.arrangements] != header["arrangements"]:
            raise ParseError(f"{source}: its arrangements are not numbered as this program numbers them")
        body = data[start + size : -32]

        def section(name: str) -> bytes:
            offset, length = header["sections"][name]
            return zlib.decompress(body[offset : offset + length])

        text = section("rationals").decode("ascii")
        rationals = tuple(Fraction(*map(int, line.split("/"))) for line in text.split("\n"))
        value = np.frombuffer(section("value"), dtype="<u4").astype(np.uint32)
        draw = np.frombuffer(section("draw"), dtype="<u4").astype(np.uint32)
        rank = np.frombuffer(section("rank"), dtype="<u2").astype(np.uint16)
    except (KeyError, ValueError, TypeError, zlib.error) as error:
        raise ParseError(f"{source}: unreadable table ({error})", input=source) from error
    n = family.positions
    if not (len(value) == len(draw) == len(rank) == n == header["positions"]):
        raise ParseError(f"{source}: expected {n} positions", input=source)
    if len(rationals) == 0 or int(max(value.max(), draw.max())) >= len(rationals):
        raise ParseError(f"{source}: a position points past the values", input=source)
    return Table(family, rationals, value, draw, rank)


def write(table: Table, path: Path) -> int:
    """Write ``table`` to ``path`` with the house's atomic write (:func:`solver.files.atomic_write`:
    whole or not at all, never a partly written file, even on Ctrl-C), creating its folder;
    returns the bytes written. The rename is not synced to the disk (4 ms of a 1-against-1
    family's ~90): a crash may lose the new table, which is then made again, never tear it.
    Raises :class:`~solver.errors.FileError`."""
    return atomic_write(path, encode(table), parents=True, lasting=False)


def read(path: Path) -> Table:
    """The table in the file ``path``. Raises :class:`~solver.errors.ParseError` (a corrupted file) or
    :class:`~solver.errors.FileError` (an unreadable one)."""
    return decode(read_bytes(path), str(path))


def installed_dir() -> Path:
    """Where the shipped tables are (package data)."""
    return Path(__file__).resolve().parent.parent / "data" / "tablebase"


def cache_dir() -> Path:
    """Where tables generated on first use go: ``$XDG_CACHE_HOME/coup/tablebase``."""
    return user_folder("cache", "coup") / "tablebase"
