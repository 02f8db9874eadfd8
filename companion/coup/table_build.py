"""``coup tablebase build`` on the job runner (:mod:`companion.runner`): one task per family,
after the tasks of the families it leads to, each a fresh generation from those families' tables
(so that a family's file is the same whichever worker made it, and however often). Each file
comes back to the client, which checks it (checksum, family, the one-step equation at a few turn
starts probed) in a staging folder beside the cache before moving it in: an interrupted build
leaves no partial file installed.

>>> kept(b"a table file")  # a family already kept, handed on to the families that need it
(b'a table file', None)
"""

from __future__ import annotations

import shutil
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from solver.coup import ParseError, Variant
from solver.coup.tablebase import Built, Family, Library, closure
from solver.coup.tablebase.expand import Expansion
from solver.coup.tablebase.generate import Generator
from solver.coup.tablebase.library import table_of
from solver.coup.tablebase.probe import probe
from solver.coup.tablebase.store import SUFFIX, cache_dir, decode, encode

from ..runner import Runner, Task

PROBED = 4
"""Turn starts of each arriving family probed (the one-step equation) before it is installed."""


def build_job(
    families: Sequence[Family], run: Runner, directory: Path | None = None, installed: bool = True
) -> list[Built]:
    """Generate ``families`` and the families they lead to into ``directory`` (default: the
    user's cache) on ``run``, skipping those a file already holds there (or among the
    installed tables, unless ``installed`` is false); each file checked on arrival, then
    installed. Returns what each generated family took, largest first. Raises GameError
    (:class:`~solver.errors.NotCertified`, or ParseError for a file that does not check)."""
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
            tasks[family] = Task(family_file, (family,), below[family], family.positions, graph_of(family))
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
    family it leads to (``below``: a turn may cost both players an influence), and what it
    took. The generator's cache of the engine's turns is the worker's, shared by its
    tasks of the graph (it holds only the engine's answers); the file is the same as a
    build in one process writes (:func:`table_of`)."""
    started = time.perf_counter()
    gen = Generator(family.variant)
    gen.expansion = _expansion(family)
    for data, _ in below:
        gen.load(decode(data, "a table sent to this worker"))
    solved = gen.solve(family)
    data = encode(table_of(solved, gen))
    return data, Built(family, time.perf_counter() - started, len(data), solved.rounds)


def graph_of(family: Family) -> tuple[Variant, int]:
    """The graph ``family`` belongs to: its variant and court (a lost influence keeps the court:
    the families of a player count, or of the 2-player draft, make one graph of their own)."""
    return family.variant, family.court


_EXPANSIONS: dict[tuple[Variant, int], Expansion] = {}


def _expansion(family: Family) -> Expansion:
    """The cache of the engine's turns that the families of ``family``'s graph share (one per
    graph: shared across graphs, the plain deal's tables took 12 s after the draft's against 8 s
    alone, its flat arrays spanning every state met)."""
    key = graph_of(family)
    found = _EXPANSIONS.get(key)
    if found is None:
        found = _EXPANSIONS[key] = Expansion(family.variant)
    return found


def forget() -> None:
    """Drop this process's cache of the engine's turns, which the builds of a variant share
    (a benchmark times cold builds: a warm cache saves about 40% of a build)."""
    _EXPANSIONS.clear()


class Arrivals:
    """The client's side of a build: each arriving file checked in ``staging``, then moved into
    ``target``; ``search`` is where the probe finds the families a turn leads to."""

    def __init__(self, target: Path, staging: Path, search: list[Path]) -> None:
        self.target = target
        self.staging = staging
        self.library = Library(directories=search, cache=None)

    def install(self, family: Family, result: Made) -> None:
        """Check ``family``'s file and install it (nothing for a file already kept). Raises
        ParseError or NotCertified."""
        data, built = result
        if built is None:
            return
        name = family.name + SUFFIX
        table = decode(data, f"{name} (as it arrived)")  # the checksum, the header
        if table.family != family:
            raise ParseError(f"{name}: arrived holding {table.family.name}", input=name)
        staged = self.staging / name
        staged.write_bytes(data)
        arrangements = len(family.arrangements)
        for i in range(PROBED):
            state = family.state(i * arrangements // PROBED, (i * 3 % 13, (i * 5 + 2) % 13))
            probe(state, library=self.library)  # NotCertified if the stored value breaks the equation
        staged.replace(self.target / name)
