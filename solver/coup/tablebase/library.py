"""Which tables exist, where they are, and how they are made: the installed tables (package
data), the cache (generated on first use), building and re-certifying.

>>> from solver.coup.cards import Draft
>>> [f.name for f in setup_families(Variant.AMBASSADOR, Draft.NONE)][:2]
['ambassador-33333-c11', 'ambassador-23333-c11']
>>> len(setup_families(Variant.INQUISITOR, Draft.DEALT_FIRST))
151
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from itertools import combinations_with_replacement
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from ...errors import FileError, ParseError, TooLarge, Unsupported
from ..cards import Draft, Variant, copies
from .index import Family
from .store import NO_RANK, SUFFIX, Table, cache_dir, installed_dir, read, write

if TYPE_CHECKING:  # the generator (scipy, networkx) is imported only to generate
    from .generate import Generator, Solved
    from .probe import Memo

Tick = Callable[[], None]


def setup_families(variant: Variant, draft: Draft, players: int = 2) -> list[Family]:
    """Every family a game of ``players`` can reach once two players are left, largest first.

    2 players: ``draft none`` deals 4 of the 15 cards (court 11); either draft order puts the
    third pack and both picks in play (court 3). With more players, the two left hold up to 4
    cards and the court keeps its size (9, 7, 5, 3 for 3 to 6 players; 6, 4 for 7 or 8, from 20
    cards): every family of 2 to 4 hand cards whose copies fit the deck.
    """
    n = copies(players)
    if players == 2 and draft is not Draft.NONE:
        tops = []
        for picks in combinations_with_replacement(range(5), 2):
            counts = [1] * 5
            for p in picks:
                counts[p] += 1
            tops.append(Family(variant, tuple(counts), 3))
        return closure(tops)
    court = (len(variant.characters) * n) - 2 * players if players > 2 else 11
    if players == 2:
        return closure([Family(variant, (3,) * 5, 11)])
    tops = []
    for removed in combinations_with_replacement(range(5), 5 * n - court - 4):
        counts = [n] * 5
        for c in removed:
            counts[c] -= 1
        if min(counts) >= 0:
            tops.append(Family(variant, tuple(counts), court))
    return closure(tops)


def closure(families: Iterable[Family]) -> list[Family]:
    """``families`` and every family they lead to, largest first (solve in reverse order)."""
    seen: dict[Family, None] = {}
    stack = list(families)
    while stack:
        f = stack.pop(0)
        if f in seen:
            continue
        seen[f] = None
        stack.extend(f.lower())
    return sorted(seen, key=lambda f: (-f.cards, f.name))


def table_of(solved: Solved, gen: Generator) -> Table:
    """A solved family as a table: its own list of distinct values, in increasing order, so
    that the file's bytes do not depend on what the generator met before (see :func:`canonical`)."""
    ids = np.concatenate((solved.value, solved.draw))
    distinct, inverse = np.unique(ids, return_inverse=True)
    rationals = tuple(gen.rationals.value(int(i)) for i in distinct)
    n = len(solved.value)
    local = inverse.ravel().astype(np.uint32)
    rank = np.minimum(solved.rank, NO_RANK).astype(np.uint16)
    return canonical(Table(solved.family, rationals, local[:n], local[n:], rank))


def canonical(table: Table) -> Table:
    """``table`` with its distinct values listed in increasing order (the same positions'
    values: only the file's numbering of them changes).

    >>> from fractions import Fraction
    >>> f = Family(Variant.AMBASSADOR, (1, 0, 0, 1, 1), court=1)
    >>> ones = np.ones(f.positions, np.uint32)
    >>> t = canonical(Table(f, (Fraction(1), Fraction(0)), ones * 0, ones, np.zeros(f.positions, np.uint16)))
    >>> t.rationals, int(t.value[0]), int(t.draw[0])
    ((Fraction(0, 1), Fraction(1, 1)), 1, 0)
    """
    order = sorted(range(len(table.rationals)), key=table.rationals.__getitem__)
    renumber = np.empty(len(order), dtype=np.uint32)
    renumber[order] = np.arange(len(order), dtype=np.uint32)
    rationals = tuple(table.rationals[i] for i in order)
    return Table(table.family, rationals, renumber[table.value], renumber[table.draw], table.rank)


@dataclass(frozen=True)
class Built:
    """What one family's generation took."""

    family: Family
    seconds: float
    bytes: int
    rounds: int


def generate(
    families: Iterable[Family],
    directory: Path,
    tick: Tick = lambda: None,
    known: Callable[[Family], Table | None] = lambda f: None,
) -> list[Built]:
    """Generate ``families`` (and the smaller ones they need) into ``directory``, smallest
    first, each certified before it is written; ``known(f)`` gives a table that already exists
    (its values are then used, not recomputed). ``tick()`` after each family written."""
    from .generate import Generator

    wanted = closure(families)
    out: list[Built] = []
    generators: dict[Variant, Generator] = {}
    for family in reversed(wanted):
        gen = generators.setdefault(family.variant, Generator(family.variant))
        existing = known(family)
        if existing is not None:
            gen.load(existing)
            continue
        for lower in family.lower():
            if not gen.known(lower):  # pragma: no cover - closure() lists them first
                raise Unsupported(f"{lower.name} is needed first")
        started = time.perf_counter()
        solved = gen.solve(family)
        size = write(table_of(solved, gen), directory / (family.name + SUFFIX))
        out.append(Built(family, time.perf_counter() - started, size, solved.rounds))
        tick()
    return out


class Library:
    """The tables one program uses: installed first, then the cache; missing families are
    generated into the cache on first use (at most ``budget`` positions at a time, when set;
    ``tick()`` after each family generated, for a progress bar).

    >>> lib = Library(directories=[], cache=None)
    >>> lib.find(Family(Variant.AMBASSADOR, (1, 1, 0, 0, 1), court=1)) is None
    True
    """

    def __init__(
        self,
        directories: list[Path] | None = None,
        cache: Path | None = Path("."),  # the default: the user's cache (see store.cache_dir)
        budget: int | None = None,
        tick: Tick = lambda: None,
    ) -> None:
        self.directories = [installed_dir()] if directories is None else list(directories)
        self.cache = cache_dir() if cache == Path(".") else cache
        self.budget = budget
        self.tick = tick
        self._tables: dict[Family, Table] = {}
        self._memo: Memo | None = None

    def __repr__(self) -> str:
        places = ", ".join(str(d) for d in [*self.directories, *([self.cache] if self.cache else [])])
        return f"<Library {len(self._tables)} tables loaded from {places}>"

    def limited(self, budget: int | None) -> Library:
        """This library with another generation budget, sharing the tables it has loaded."""
        if budget == self.budget:
            return self
        other = Library(self.directories, self.cache, budget, self.tick)
        other._tables = self._tables
        other._memo = self.memo
        return other

    @property
    def memo(self) -> Memo:
        """What the probes of this library found (shared with its :meth:`limited` copies)."""
        if self._memo is None:
            from .probe import Memo

            self._memo = Memo()
        return self._memo

    def paths(self) -> list[Path]:
        return [*self.directories, *([self.cache] if self.cache else [])]

    def find(self, family: Family) -> Table | None:
        """The table of ``family`` if a file holds it (loaded once, checked). Raises
        :class:`~solver.errors.ParseError` for a corrupted file."""
        found = self._tables.get(family)
        if found is not None:
            return found
        for directory in self.paths():
            path = directory / (family.name + SUFFIX)
            if path.exists():
                table = read(path)
                if table.family != family:
                    raise ParseError(f"{path}: holds {table.family.name}", input=str(path))
                self._tables[family] = table
                return table
        return None

    def table(self, family: Family, tick: Tick | None = None) -> Table:
        """The table of ``family``, generated into the cache if no file holds it. Raises
        :class:`TooLarge` past the budget, :class:`Unsupported` without a cache."""
        found = self.find(family)
        if found is not None:
            return found
        self.fill(self.missing([family]), tick)
        table = self.find(family)
        assert table is not None
        return table

    def missing(self, families: Iterable[Family]) -> list[Family]:
        """The families ``families`` need (themselves and those they lead to) that no file
        holds, largest first."""
        return [f for f in closure(families) if self.find(f) is None]

    def fill(self, families: list[Family], tick: Tick | None = None) -> None:
        """Generate ``families`` (their closure, see :meth:`missing`) into the cache, ``tick()``
        after each one. Raises :class:`TooLarge` past the budget, :class:`Unsupported` without
        a cache."""
        if not families:
            return
        names = families[0].name + (f" and {len(families) - 1} more" if len(families) > 1 else "")
        if self.cache is None:
            raise Unsupported(f"no table for {names} and no cache to generate it into")
        size = sum(f.positions for f in families)
        if self.budget is not None and size > self.budget:
            raise TooLarge(
                f"{size:,} positions to generate for {names}, more than the budget of {self.budget:,}; "
                f"generate them once with `coup tablebase build`"
            )
        generate(families, self.cache, tick or self.tick, known=self.find)

    def installed(self) -> list[tuple[Path, Family, int]]:
        """Every table file present: (file, family, bytes)."""
        out = []
        for directory in self.paths():
            if directory.is_dir():
                for path in sorted(directory.glob("*" + SUFFIX)):
                    out.append((path, Family.from_name(path.name.removesuffix(SUFFIX)), path.stat().st_size))
        return out


def verify(families: Iterable[Family], library: Library, tick: Tick = lambda: None) -> list[tuple[Family, bool, str]]:
    """Re-certify ``families`` from scratch (a fresh generation, every smaller family too) and
    compare with the stored files: (family, equal, why not)."""
    from .generate import Generator

    wanted = closure(families)
    out = []
    gens: dict[Variant, Generator] = {}
    fresh: dict[Family, Table] = {}
    for family in reversed(wanted):
        gen = gens.setdefault(family.variant, Generator(family.variant))
        fresh[family] = table_of(gen.solve(family), gen)
    for family in families:
        try:
            stored = library.find(family)
        except (ParseError, FileError) as error:
            out.append((family, False, str(error)))
            tick()
            continue
        if stored is None:
            out.append((family, False, "no stored table"))
        else:
            a, b = fresh[family], stored
            differ = [
                what
                for what, same in (
                    ("values", a.values() == b.values()),
                    ("draw probabilities", a.draws() == b.draws()),
                    ("ranks", np.array_equal(a.rank, b.rank)),
                )
                if not same
            ]
            out.append((family, not differ, f"{', '.join(differ)} differ" if differ else ""))
        tick()
    return out
