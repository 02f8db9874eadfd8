"""The job runner's scaling: the same bot tournament and the same endgame-table build on 1 worker
(in process, no Dask) and on a local Dask cluster of 2 worker processes, side by side (wall time,
each including the cluster's start and stop; the speed-up is 1 worker's time over 2 workers'),
their results checked equal; and the runner's overhead on a tiny job (a local cluster of 2
started, two trivial tasks, the cluster stopped, against the same two tasks in process).

    python benchmarks/scale.py [--games 200] [--tables plain|draft|small] [--json]

``--tables plain``: every family of a plain 2-player deal, both variants (42 families, two
independent graphs); ``draft``: those of the ambassador's dealt-first draft (151); ``small``: a
6-card family of each variant and what it leads to (12). With ``--json`` the last line is
``{"tournament_speedup": ..., "tablebase_speedup": ..., "overhead_s": ..., ...}``. Targets:
speed-ups of 1.7 or more on 2 workers, overhead under 2 s (on a quiet 2-core machine).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from companion.coup.table_build import build_job
from companion.runner import Runner
from companion.tournament import tournament
from solver.coup import Draft, Variant
from solver.coup.tablebase import Family, families_for

BOTS = ["honest", "bluffer", "counter", "random"]


def tables(which: str) -> list[Family]:
    if which == "small":
        return [Family(v, (2, 1, 1, 1, 1), court=3) for v in Variant]
    if which == "draft":
        return families_for(Variant.AMBASSADOR, 2, Draft.DEALT_FIRST)
    return families_for(None, 2, Draft.NONE)


def timed(job: Callable[[Runner], Any], workers: int) -> tuple[float, Any]:
    """Wall seconds of ``job`` on a runner of ``workers`` (its cluster started and stopped inside)."""
    started = time.perf_counter()
    with Runner(workers=workers, quiet=True) as run:
        result = job(run)
    return time.perf_counter() - started, result


def build_files(families: list[Family]) -> Callable[[Runner], dict[str, bytes]]:
    def job(run: Runner) -> dict[str, bytes]:
        with tempfile.TemporaryDirectory() as directory:
            build_job(families, run, Path(directory), installed=False)
            return {p.name: p.read_bytes() for p in sorted(Path(directory).iterdir())}

    return job


def play(games: int) -> Callable[[Runner], dict[str, Any]]:
    def job(run: Runner) -> dict[str, Any]:
        report = tournament("coup", BOTS, games, 0, run)
        return {k: v for k, v in report.items() if k != "timing"}

    return job


def tiny(run: Runner) -> list[int]:
    return run.map(abs, [-1, 2])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200, help="games of the tournament (default 200)")
    parser.add_argument("--tables", choices=("plain", "draft", "small"), default="plain")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    report: dict[str, Any] = {"games": args.games, "tables": args.tables}
    families = tables(args.tables)
    made: dict[str, Any] = {}
    for name, job in (("tournament", play(args.games)), ("tablebase", build_files(families))):
        one, serial = timed(job, 1)
        two, spread = timed(job, 2)
        report[f"{name}_1_worker_s"] = round(one, 2)
        report[f"{name}_2_workers_s"] = round(two, 2)
        report[f"{name}_speedup"] = round(one / two, 2)
        report[f"{name}_identical"] = serial == spread
        made[name] = serial
        print(
            f"{name}: {one:.1f} s on 1 worker, {two:.1f} s on 2 workers: speed-up {one / two:.2f} "
            f"(target 1.7); results identical: {serial == spread}"
        )
    report["table_families"] = len(made["tablebase"])
    report["table_bytes"] = sum(len(data) for data in made["tablebase"].values())
    here, _ = timed(tiny, 1)
    cluster, _ = timed(tiny, 2)
    report["tiny_job_in_process_s"] = round(here, 3)
    report["tiny_job_on_a_new_cluster_s"] = round(cluster, 2)
    report["overhead_s"] = round(cluster - here, 2)
    print(f"overhead of the runner on a tiny job: {cluster - here:.2f} s (a local cluster of 2 started and stopped)")
    if args.json:
        print(json.dumps(report))
    return 0


if __name__ == "__main__":
    sys.exit(main())
