"""The job runner's scaling: the same bot tournament and the same endgame-table build on 1 worker
(in process, no Dask) and on a local Dask cluster of 2 worker processes, side by side, their
results checked equal (the speed-up is 1 worker's time over 2 workers'); and the runner's
overhead on a tiny job (a local cluster of 2 started, two trivial tasks, the cluster stopped,
against the same two tasks in process, Dask already imported).

Each run of a side is a whole command's: a fresh Python process, timed from its start to its
answer (the interpreter's start, the job's imports, Dask's among them, the runner and its
cluster started, the job, the cluster stopped; Python's clean-up at exit aside). Both sides
start cold, as a command does: until 2 December 2026 the sides ran in this process, the best
of two runs kept, so that the 1-worker side's best run found the games' modules imported and
their caches warm (about a second of a 400-game tournament) while the cluster's workers, new
each run, always started cold; and neither side paid the import of Dask.

    python benchmarks/scale.py [--games 400] [--tables two|plain|draft|small] [--repeat 2]
                               [--only tournament|tablebase] [--json]

``--tables two``: every family of a 2-player game, both variants, plain and drafted deals (344
families: what ``coup tablebase build --players 2`` makes, two independent graphs); ``plain``:
those of a plain deal (42); ``draft``: those of the ambassador's dealt-first draft (151, one
graph); ``small``: a 6-card family of each variant and what it leads to (12). Each side is run
``--repeat`` times and its best time kept (this machine's speed wanders by 10-20% from one
minute to the next). With ``--json`` the last line is ``{"tournament_speedup": ...,
"tablebase_speedup": ..., "overhead_s": ..., ...}``. Targets: speed-ups of 1.7 or more on 2
workers, overhead under 2 s (on a quiet 2-core machine). Beside each ratio, less sensitive to a
busy machine: the seconds its tasks took in process and in the workers (``*_task_s_in_process``,
``*_task_s_in_workers``: a game's or a family's own time, summed), and the cluster's start and
stop (``*_cluster_start_s``, ``*_cluster_stop_s``); the CPU seconds the job used in process
(``*_cpu_s_in_process``) and, on the cluster, in the client (the scheduler, and the checks of
arriving tables) and in each worker (``*_cpu_s_client``, ``*_cpu_s_workers``). And the
machine's own figure for two processes at that moment: the same work in plain processes with
no Dask, one doing it all, then two sharing it out (the tournament's games halved, the tables
by graph), started together (``*_plain_1_process_s``, ``*_plain_2_processes_s``,
``*_plain_speedup``; ``--no-ceiling`` skips them). Two processes busy at once each run 15-25%
slower on this machine than one alone (measured without Dask), and the machine is shared: the
runner's ratio is to be read beside the plain one.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from importlib import import_module
from pathlib import Path
from typing import TYPE_CHECKING, Any

from companion.runner import Runner
from companion.tournament import _batch, tournament

if TYPE_CHECKING:
    from solver.coup.tablebase import Family

BOTS = ["honest", "bluffer", "counter", "random"]
JOBS = ("tournament", "tablebase")


def tables(which: str) -> list[Family]:
    from solver.coup import Draft, Variant
    from solver.coup.tablebase import Family, families_for

    if which == "small":
        return [Family(v, (2, 1, 1, 1, 1), court=3) for v in Variant]
    if which == "draft":
        return families_for(Variant.AMBASSADOR, 2, Draft.DEALT_FIRST)
    if which == "plain":
        return families_for(None, 2, Draft.NONE)
    return families_for(None, 2)


SIDES: dict[str, list[float]] = {}
"""Each side's task seconds and its cluster's start and stop, by ``{job}_{workers}`` (the
best run's)."""


def timed(job: Callable[[Runner], Any], workers: int, repeat: int = 1) -> tuple[float, Any]:
    """The best wall seconds of ``repeat`` runs of ``job`` on a runner of ``workers`` (its
    cluster started and stopped inside each time), and its result (checked the same each time).
    The best run's task seconds (what ``TASK_SECONDS`` got), cluster start and stop are kept in
    ``SIDES``."""
    best, result = float("inf"), None
    for _ in range(repeat):
        TASK_SECONDS.clear()
        started = time.perf_counter()
        with Runner(workers=workers, quiet=True) as run:
            if not run.in_process:
                run.client.wait_for_workers(workers)  # the cluster started
            processes = _processes(run)
            cpu = _cpu(processes)
            up = time.perf_counter()
            made = job(run)
            ended = time.perf_counter()
            used = [after - before for before, after in zip(cpu, _cpu(processes), strict=True)]
        stopped = time.perf_counter()
        if stopped - started < best:
            SIDES[f"{getattr(job, '__name__', 'job')}_{workers}"] = [
                sum(TASK_SECONDS),
                up - started,
                stopped - ended,
                ended - up,
                *used,
            ]
        best = min(best, stopped - started)
        if result is not None and made != result:
            raise SystemExit(f"the job gave two different results on {workers} worker(s)")
        result = made
    return best, result


def _processes(run: Runner) -> list[Any]:
    """This process, then each worker's (psutil handles): whose CPU seconds a job used."""
    import psutil

    pids = [] if run.in_process else sorted(run.client.run(os.getpid).values())
    return [psutil.Process(), *(psutil.Process(pid) for pid in pids)]


def _cpu(processes: list[Any]) -> list[float]:
    """Each process's CPU seconds so far (user and system)."""
    return [(lambda t: t.user + t.system)(p.cpu_times()) for p in processes]


TASK_SECONDS: list[float] = []
"""The seconds the last job's tasks took where they ran (in process, or in the workers)."""


def build_files(families: list[Family]) -> Callable[[Runner], dict[str, bytes]]:
    from companion.coup.table_build import build_job, forget

    def tablebase(run: Runner) -> dict[str, bytes]:
        forget()  # in process, a second run would start with the first one's cache
        with tempfile.TemporaryDirectory() as directory:
            built = build_job(families, run, Path(directory), installed=False)
            TASK_SECONDS.extend(b.seconds for b in built)
            return {p.name: p.read_bytes() for p in sorted(Path(directory).iterdir())}

    return tablebase


def play(games: int) -> Callable[[Runner], dict[str, Any]]:
    def tournament_(run: Runner) -> dict[str, Any]:
        report = tournament("coup", BOTS, games, 0, run)
        TASK_SECONDS.append(report["timing"]["game_seconds"])
        return {k: v for k, v in report.items() if k != "timing"}

    tournament_.__name__ = "tournament"
    return tournament_


def peer_job(name: str, part: int, parts: int, games: int, which: str) -> Callable[[], Any]:
    """Part ``part`` of ``parts`` of a job, as one plain process does it with no runner: the
    tournament's games in ``parts`` equal runs; the tables by graph (a family's tables need
    only those of its graph), the graphs shared out by positions."""
    if name == "tournament":
        first, last = part * games // parts, (part + 1) * games // parts
        return lambda: _batch(("coup", tuple(BOTS), 0, first, last - first))
    from companion.coup.table_build import build_job, graph_of
    from solver.coup.tablebase import closure

    load = [0] * parts
    mine: list[Family] = []
    graphs: dict[Any, list[Family]] = {}
    for family in closure(tables(which)):
        graphs.setdefault(graph_of(family), []).append(family)
    for graph in sorted(graphs, key=lambda g: (-sum(f.positions for f in graphs[g]), str(g))):
        least = min(range(parts), key=lambda i: (load[i], i))
        load[least] += sum(f.positions for f in graphs[graph])
        if least == part:
            mine += graphs[graph]

    def build() -> None:
        with tempfile.TemporaryDirectory() as directory, Runner(workers=1, quiet=True) as run:
            build_job(mine, run, Path(directory), installed=False)

    return build


def peer(spec: str, games: int, which: str) -> int:
    """A peer process (``--peer NAME:PART/PARTS``): ready its job, say so, wait for a line on
    stdin, run the job, print its seconds."""
    name, share = spec.split(":")
    part, parts = (int(x) for x in share.split("/"))
    job = peer_job(name, part, parts, games, which)
    print("ready", flush=True)
    sys.stdin.readline()
    started = time.perf_counter()
    job()
    print(time.perf_counter() - started, flush=True)
    return 0


def plain_processes(name: str, parts: int, games: int, which: str) -> float:
    """The wall seconds of ``parts`` plain processes (no Dask) sharing job ``name`` out, started
    together once each is ready: what the machine gives two processes at this moment."""
    command = [sys.executable, __file__, "--games", str(games), "--tables", which]
    pipes = {"stdin": subprocess.PIPE, "stdout": subprocess.PIPE, "text": True}
    peers = [subprocess.Popen([*command, "--peer", f"{name}:{i}/{parts}"], **pipes) for i in range(parts)]
    for process in peers:
        assert process.stdout is not None and process.stdout.readline().strip() == "ready"
    for process in peers:
        assert process.stdin is not None
        process.stdin.write("go\n")
        process.stdin.flush()
    seconds = [float(process.communicate()[0]) for process in peers]
    return max(seconds)


def ceiling(name: str, games: int, which: str, repeat: int) -> tuple[float, float]:
    """The best seconds of job ``name`` in one plain process and shared by two, ``repeat`` runs
    each (alternating)."""
    one = two = float("inf")
    for _ in range(repeat):
        one = min(one, plain_processes(name, 1, games, which))
        two = min(two, plain_processes(name, 2, games, which))
    return one, two


def tiny(run: Runner) -> list[int]:
    return run.map(abs, [-1, 2])


def side(name: str, workers: int, games: int, which: str) -> int:
    """One side's run, in a fresh process (``--side NAME:WORKERS``): the job once on a runner
    of ``workers``, then one JSON line (its ``SIDES`` figures, a digest of its result, the
    tables' count and bytes); the process then ends without Python's clean-up at exit (its
    parent's clock stopped at the line)."""
    job = play(games) if name == "tournament" else build_files(tables(which))
    _, made = timed(job, workers)
    sizes = [len(data) for data in made.values()] if name == "tablebase" else []
    digest = hashlib.sha256(repr(made).encode()).hexdigest()
    figures = SIDES[f"{name}_{workers}"]
    print(json.dumps({"sides": figures, "digest": digest, "families": len(sizes), "bytes": sum(sizes)}), flush=True)
    os._exit(0)


def fresh(name: str, workers: int, games: int, which: str) -> tuple[float, dict[str, Any]]:
    """The wall seconds of job ``name`` on ``workers`` as a command takes them: a fresh Python
    process started, the job's modules imported, its runner (and cluster) started, the job
    run, the runner closed, up to its answer; and what the process reported (:func:`side`)."""
    command = [sys.executable, __file__, "--games", str(games), "--tables", which, "--side", f"{name}:{workers}"]
    started = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.PIPE, text=True)
    assert process.stdout is not None
    line = process.stdout.readline()
    seconds = time.perf_counter() - started
    if process.wait() != 0 or not line:
        raise SystemExit(f"the {name} job on {workers} worker(s) failed")
    return seconds, json.loads(line)


def sides(name: str, games: int, which: str, repeat: int) -> dict[int, tuple[float, dict[str, Any]]]:
    """The best of ``repeat`` fresh runs (:func:`fresh`) of job ``name`` on 1 and on 2 workers,
    alternating; each side's runs checked to give one result."""
    best: dict[int, tuple[float, dict[str, Any]]] = {}
    for _ in range(repeat):
        for workers in (1, 2):
            seconds, got = fresh(name, workers, games, which)
            if workers in best and got["digest"] != best[workers][1]["digest"]:
                raise SystemExit(f"the {name} job gave two different results on {workers} worker(s)")
            if workers not in best or seconds < best[workers][0]:
                best[workers] = seconds, got
    return best


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=400, help="games of the tournament (default 400)")
    parser.add_argument("--tables", choices=("two", "plain", "draft", "small"), default="two")
    parser.add_argument("--repeat", type=int, default=2, help="runs of each side, the best kept (default 2)")
    parser.add_argument("--only", choices=JOBS, help="time one job only")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--no-ceiling", action="store_true", help="skip the plain processes' speed-up")
    parser.add_argument("--peer", help=argparse.SUPPRESS)
    parser.add_argument("--side", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.peer:
        return peer(args.peer, args.games, args.tables)
    if args.side:
        name, workers = args.side.split(":")
        return side(name, int(workers), args.games, args.tables)
    report: dict[str, Any] = {"games": args.games, "tables": args.tables, "repeat": args.repeat}
    for name in (args.only,) if args.only else JOBS:
        best = sides(name, args.games, args.tables, args.repeat)
        (one, serial), (two, spread) = best[1], best[2]
        same = serial["digest"] == spread["digest"]
        report[f"{name}_1_worker_s"] = round(one, 2)
        report[f"{name}_2_workers_s"] = round(two, 2)
        report[f"{name}_speedup"] = round(one / two, 2)
        report[f"{name}_identical"] = same
        if name == "tablebase":
            report["table_families"], report["table_bytes"] = serial["families"], serial["bytes"]
        here, _, _, job_1, cpu_1 = serial["sides"]
        there, up, down, job_2, client_cpu, *workers_cpu = spread["sides"]
        report[f"{name}_job_s_in_process"] = round(job_1, 2)
        report[f"{name}_cpu_s_in_process"] = round(cpu_1, 2)
        report[f"{name}_job_s_on_cluster"] = round(job_2, 2)
        report[f"{name}_cpu_s_client"] = round(client_cpu, 2)
        report[f"{name}_cpu_s_workers"] = [round(c, 2) for c in workers_cpu]
        report[f"{name}_task_s_in_process"] = round(here, 2)
        report[f"{name}_task_s_in_workers"] = round(there, 2)
        report[f"{name}_cluster_start_s"] = round(up, 2)
        report[f"{name}_cluster_stop_s"] = round(down, 2)
        if not args.no_ceiling:
            alone, shared = ceiling(name, args.games, args.tables, args.repeat)
            report[f"{name}_plain_1_process_s"] = round(alone, 2)
            report[f"{name}_plain_2_processes_s"] = round(shared, 2)
            report[f"{name}_plain_speedup"] = round(alone / shared, 2)
        print(
            f"{name}: {one:.1f} s on 1 worker, {two:.1f} s on 2 workers (whole runs, each a fresh process): "
            f"speed-up {one / two:.2f} (target 1.7); results identical: {same}\n"
            f"  its tasks took {here:.1f} s in process, {there:.1f} s in the workers ({there / here - 1:+.0%}); "
            f"the cluster started in {up:.2f} s and stopped in {down:.2f} s\n"
            f"  CPU seconds: {cpu_1:.1f} in process ({job_1:.1f} s of job); on the cluster the client "
            f"{client_cpu:.1f}, the workers {' + '.join(f'{c:.1f}' for c in workers_cpu)} ({job_2:.1f} s of job)"
        )
        if not args.no_ceiling:
            print(
                f"  the same work in plain processes, no Dask: {alone:.1f} s in one, {shared:.1f} s shared by two: "
                f"speed-up {alone / shared:.2f} (what this machine gives two processes now)"
            )
    import_module("dask.distributed")  # imported before the tiny job, as a job's sides import it themselves
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
