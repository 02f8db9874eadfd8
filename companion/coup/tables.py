"""``coup tablebase info|build|verify``: what endgame tables are installed and cached, generating
them, and re-certifying them from scratch against the stored files.

``build`` runs on the job runner (:mod:`companion.runner`): one task per family, after the tasks
of the families it leads to, each a fresh generation from those families' tables (so that a
family's file is the same whichever worker made it, and however often). Each file comes back to
the client, which checks it (checksum, family, the one-step equation at a few turn starts
probed) in a staging folder beside the cache before moving it in: an interrupted build leaves
no partial file installed.

>>> from solver.coup.tablebase import families_for
>>> rows = info_rows(shipped_only=True)
>>> rows[0].startswith("installed"), len(families_for(Variant.AMBASSADOR, 2)) > 100
(True, True)
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

from solver.coup import GameError, Variant
from solver.coup.tablebase import Built, Family, Library, closure, default_library, families_for, info, verify
from solver.coup.tablebase.expand import Expansion
from solver.coup.tablebase.generate import Generator
from solver.coup.tablebase.library import table_of
from solver.coup.tablebase.probe import probe
from solver.coup.tablebase.store import SUFFIX, Table, TableError, cache_dir, decode, encode, installed_dir

from .. import runner
from ..progress import progress
from ..runner import Runner, Task

PLAYERS = range(2, 9)


def wanted(args: argparse.Namespace) -> list[Family]:
    """The families the command line names: a variant (default both), a player count (default
    2: every 2-player set-up), or ``--all`` (every player count, both variants)."""
    variants = [Variant.parse(args.variant)] if args.variant else list(Variant)
    counts = list(PLAYERS) if args.all else [args.players]
    out: list[Family] = []
    for variant in variants:
        for players in counts:
            out.extend(f for f in families_for(variant, players) if f not in out)
    return out


def info_rows(library: Library | None = None, shipped_only: bool = False) -> list[str]:
    """One line per place tables are kept: families, positions, bytes."""
    lib = library or default_library()
    places = {installed_dir(): "installed", cache_dir(): "cached"}
    rows = []
    for place, label in places.items():
        if shipped_only and label != "installed":
            continue
        found = [t for t in info(lib) if t.path.parent == place]
        positions = sum(t.positions for t in found)
        size = sum(t.bytes for t in found)
        rows.append(f"{label:<9} {len(found):>4} families {positions:>12,} positions {size / 1e6:>8.2f} MB  {place}")
    return rows


def run(args: argparse.Namespace) -> int:
    """The ``coup tablebase`` sub-command."""
    try:
        return _ACTIONS[args.action](args)
    except GameError as error:
        print(f"coup tablebase: {error}", file=sys.stderr)
        return 1


def _info(args: argparse.Namespace) -> int:
    print("\n".join(info_rows()))
    return 0


def _build(args: argparse.Namespace) -> int:
    families = wanted(args)
    started = time.perf_counter()
    try:
        with Runner.from_args(args) as run:
            built = build_job(families, run, Path(args.into) if args.into else None)
    except KeyboardInterrupt:
        print("coup tablebase: cancelled (the tables already checked are kept)", file=sys.stderr)
        return 130
    seconds = time.perf_counter() - started
    size = sum(b.bytes for b in built)
    there = len(families) - len(built)
    print(f"{len(built)} families generated ({size / 1e6:.2f} MB) in {seconds:.1f} s; {there} were there already")
    return 0


def _verify(args: argparse.Namespace) -> int:
    families = wanted(args)
    with progress("re-certifying endgame tables", total=len(families)) as tick:
        results = verify(families, default_library(), tick=tick)
    bad = [(f, why) for f, same, why in results if not same]
    for family, why in bad:
        print(f"{family.name}: {why}")
    print(f"{len(results) - len(bad)} of {len(results)} families equal a fresh certified generation")
    return 1 if bad else 0


# -- build, on the runner --------------------------------------------------------------------

PROBED = 4
"""Turn starts of each arriving family probed (the one-step equation) before it is installed."""


def build_job(
    families: Sequence[Family], run: Runner, directory: Path | None = None, installed: bool = True
) -> list[Built]:
    """Generate ``families`` and the families they lead to into ``directory`` (default: the
    user's cache) on ``run``, skipping those a file already holds there (or among the
    installed tables, unless ``installed`` is false); each file checked on arrival, then
    installed. Returns what each generated family took, largest first. Raises GameError
    (:class:`~solver.errors.NotCertified`, or TableError for a file that does not check)."""
    target = cache_dir() if directory is None else directory
    library = Library(directories=None if installed else [], cache=target)
    wanted = closure(families)
    have = {f: library.find(f) for f in wanted}
    todo = [f for f in wanted if have[f] is None]
    below = {f: tuple(closure([f])[1:]) for f in todo}
    tasks: dict[Family, Task[Made]] = {}
    for family in reversed(wanted):  # the smallest first: the order of a build on one core
        table = have[family]
        if table is None:
            tasks[family] = Task(family_file, (family,), needs=below[family])
        elif any(family in below[f] for f in todo):
            tasks[family] = Task(kept, (encode(table),))
    if not todo:
        return []
    target.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=".incoming-", dir=target))
    arrived = Arrivals(target, staging, [staging, target, *library.directories])
    try:
        done = run.graph(tasks, "generating endgame tables", arrived.install)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return [built for f in wanted if f in done and (built := done[f][1]) is not None]


Made = tuple[bytes, Built | None]
"""A family's table file, and what its generation took (None: a file already kept)."""


def kept(data: bytes) -> Made:
    """A task: a table file already kept, handed to the families that need it."""
    return data, None


def family_file(family: Family, *below: Made) -> Made:
    """A task: ``family``'s table file, solved by a fresh generator from the files of every
    family it leads to (``below``), and what it took. The generator's cache of the engine's
    turns is the worker's, shared by its tasks of the variant (it holds only the engine's
    answers); the file's list of values is written in increasing order, so that its bytes do
    not depend on what the worker solved before."""
    started = time.perf_counter()
    gen = Generator(family.variant)
    gen.expansion = _expansion(family.variant)
    tables = {t.family: t for t in (decode(data, "a table sent to this worker") for data, _ in below)}
    for lower in reversed(closure([family])[1:]):
        table = tables[lower]
        gen.load(lower, table.values(), table.draws(), table.rank.astype(np.int64))
    solved = gen.solve(family)
    data = encode(canonical(table_of(solved, gen)))
    return data, Built(family, time.perf_counter() - started, len(data), solved.rounds)


_EXPANSIONS: dict[Variant, Expansion] = {}


def _expansion(variant: Variant) -> Expansion:
    return _EXPANSIONS.setdefault(variant, Expansion(variant))


def canonical(table: Table) -> Table:
    """``table`` with its distinct values listed in increasing order (the same positions'
    values: only the file's numbering of them changes)."""
    order = sorted(range(len(table.rationals)), key=table.rationals.__getitem__)
    renumber = np.empty(len(order), dtype=np.uint32)
    renumber[order] = np.arange(len(order), dtype=np.uint32)
    rationals = tuple(table.rationals[i] for i in order)
    return Table(table.family, rationals, renumber[table.value], renumber[table.draw], table.rank)


class Arrivals:
    """The client's side of a build: each arriving file checked in ``staging``, then moved into
    ``target``; ``search`` is where the probe finds the families a turn leads to."""

    def __init__(self, target: Path, staging: Path, search: list[Path]) -> None:
        self.target = target
        self.staging = staging
        self.library = Library(directories=search, cache=None)

    def install(self, family: Family, result: Made) -> None:
        """Check ``family``'s file and install it (nothing for a file already kept). Raises
        TableError or NotCertified."""
        data, built = result
        if built is None:
            return
        name = family.name + SUFFIX
        table = decode(data, f"{name} (as it arrived)")  # the checksum, the header
        if table.family != family:
            raise TableError(f"{name}: arrived holding {table.family.name}", input=name)
        staged = self.staging / name
        staged.write_bytes(data)
        arrangements = len(family.arrangements)
        for i in range(PROBED):
            state = family.state(i * arrangements // PROBED, (i * 3 % 13, (i * 5 + 2) % 13))
            probe(state, library=self.library)  # NotCertified if the stored value breaks the equation
        staged.replace(self.target / name)


_ACTIONS: dict[str, Callable[[argparse.Namespace], int]] = {"info": _info, "build": _build, "verify": _verify}


def add(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Declare ``coup tablebase``."""
    p = sub.add_parser("tablebase", help="endgame tables: what is installed, generate, re-certify")
    p.add_argument("action", choices=tuple(_ACTIONS), help="info, build or verify")
    p.add_argument("--variant", help="ambassador or inquisitor (default: both)")
    p.add_argument("--players", type=int, default=2, choices=PLAYERS, metavar="N", help="endgames of N players")
    p.add_argument("--all", action="store_true", help="every player count, both variants")
    p.add_argument("--into", metavar="DIR", help="build: where to write (default: the user's cache)")
    runner.add_options(p)
    p.set_defaults(func=run)
