"""Endgame tablebases for 2-player Coup: every position of a family of cards solved once,
certified exactly, stored compactly, probed in milliseconds (as Syzygy does for chess).

- :mod:`.index`: families and the arithmetic numbering of their positions;
- :mod:`.expand`: the turns, expanded once by the engine for every coin count;
- :mod:`.exact`: exact values as interned ids;
- :mod:`.generate`: solving a family from the families it leads to, with the certificate;
- :mod:`.store`: the binary file format (versioned, checksummed);
- :mod:`.library`: which tables exist, building, verifying;
- :mod:`.probe`: values, best moves and lines from the tables.

Public API:

- ``probe(state, seat=None, library=None) -> Probe``; ``value_of(state, library=None) -> Fraction``
- ``open_values(states, seat=0, library=None) -> list[Fraction]``
- ``build(families, directory=None, tick=...) -> list[Built]`` and ``families_for(variant, players, draft)``
- ``verify(families, library, tick=...)``, ``info(library) -> list[Installed]``
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from ..cards import Draft, Variant
from .index import Family, family_of, locate
from .library import Built, Library, Tick, closure, setup_families, verify
from .library import generate as generate_families  # not `generate`: the name of the generator's module
from .probe import Probe, default_library, open_values, principal_line, probe, value_of
from .store import Table, cache_dir, installed_dir

__all__ = [
    "Built",
    "Family",
    "Installed",
    "Library",
    "Probe",
    "Table",
    "build",
    "cache_dir",
    "closure",
    "default_library",
    "families_for",
    "family_of",
    "info",
    "installed_dir",
    "locate",
    "open_values",
    "principal_line",
    "probe",
    "value_of",
    "verify",
]


def families_for(variant: Variant | None = None, players: int = 2, draft: Draft | None = None) -> list[Family]:
    """The families of these set-ups (every variant, every 2-player set-up when None), largest first.

    >>> len(families_for(Variant.AMBASSADOR, 2, Draft.NONE))
    21
    """
    variants = list(Variant) if variant is None else [variant]
    drafts = ([Draft.NONE, Draft.DEALT_FIRST] if draft is None else [draft]) if players == 2 else [Draft.NONE]
    out: list[Family] = []
    for v in variants:
        for d in drafts:
            out.extend(f for f in setup_families(v, d, players) if f not in out)
    return out


def build(
    families: Iterable[Family],
    directory: Path | None = None,
    tick: Tick = lambda: None,
    installed: bool = True,
) -> list[Built]:
    """Generate ``families`` and the smaller ones they need into ``directory`` (default: the
    user's cache), here, one after the other, skipping those a file already holds there or among
    the installed tables. ``tick()`` after each family; ``installed=False`` ignores the
    installed tables (generates from scratch whatever ``directory`` does not hold). Raises
    :class:`~solver.errors.NotCertified` if one fails. (``coup tablebase build`` runs on the
    job runner instead, a task per family: ``companion.coup.table_build``.)

    >>> import tempfile
    >>> [b.family.name for b in build([Family(Variant.AMBASSADOR, (1, 0, 0, 1, 1), court=1)], Path(tempfile.mkdtemp()))]
    ['ambassador-10011-c1']
    """
    target = cache_dir() if directory is None else directory
    library = Library(directories=None if installed else [], cache=target)
    return generate_families(families, target, tick, known=library.find)


@dataclass(frozen=True)
class Installed:
    """A table file: where, which family, how many positions and bytes."""

    path: Path
    family: Family
    positions: int
    bytes: int


def info(library: Library | None = None) -> list[Installed]:
    """Every table file the library sees (installed, then cached)."""
    lib = library or default_library()
    return [Installed(path, family, family.positions, size) for path, family, size in lib.installed()]
