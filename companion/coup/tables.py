"""``coup tablebase info|build|verify``: what endgame tables are installed and cached, generating
them, and re-certifying them from scratch against the stored files.

``build`` runs on the job runner (:mod:`companion.coup.table_build`), imported when it runs.

>>> from solver.coup.tablebase import families_for
>>> rows = info_rows(shipped_only=True)
>>> rows[0].startswith("installed"), len(families_for(Variant.AMBASSADOR, 2)) > 100
(True, True)
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from solver.coup import MAX_PLAYERS, MIN_PLAYERS, GameError, Variant

from .. import runner
from ..progress import progress
from ..runner import Runner

if TYPE_CHECKING:  # the tables are imported when the command runs, not to build the parser
    from solver.coup.tablebase import Family, Library

PLAYERS = range(MIN_PLAYERS, MAX_PLAYERS + 1)


def wanted(args: argparse.Namespace) -> list[Family]:
    """The families the command line names: a variant (default both), a player count (default
    2: every 2-player set-up), or ``--all`` (every player count, both variants)."""
    from solver.coup.tablebase import families_for

    variants = [Variant.parse(args.variant)] if args.variant else list(Variant)
    counts = list(PLAYERS) if args.all else [args.players]
    out: list[Family] = []
    for variant in variants:
        for players in counts:
            out.extend(f for f in families_for(variant, players) if f not in out)
    return out


def info_rows(library: Library | None = None, shipped_only: bool = False) -> list[str]:
    """One line per place tables are kept: families, positions, bytes."""
    from solver.coup.tablebase import cache_dir, default_library, info, installed_dir

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
    from .table_build import build_job

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
    from solver.coup.tablebase import default_library, verify

    families = wanted(args)
    with progress("re-certifying endgame tables", total=len(families)) as tick:
        results = verify(families, default_library(), tick=tick)
    bad = [(f, why) for f, same, why in results if not same]
    for family, why in bad:
        print(f"{family.name}: {why}")
    print(f"{len(results) - len(bad)} of {len(results)} families equal a fresh certified generation")
    return 1 if bad else 0


_ACTIONS: dict[str, Callable[[argparse.Namespace], int]] = {"info": _info, "build": _build, "verify": _verify}


def add(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Declare ``coup tablebase``."""
    p = sub.add_parser("tablebase", help="endgame tables: what is installed, generate, re-certify")
    p.add_argument("action", choices=tuple(_ACTIONS), help="info, build or verify")
    p.add_argument("--variant", choices=tuple(str(v) for v in Variant), help="ambassador or inquisitor (default: both)")
    p.add_argument("--players", type=int, default=2, choices=PLAYERS, metavar="N", help="endgames of N players")
    p.add_argument("--all", action="store_true", help="every player count, both variants")
    p.add_argument("--into", metavar="DIR", help="build: where to write (default: the user's cache)")
    runner.add_options(p)
    p.set_defaults(func=run)
