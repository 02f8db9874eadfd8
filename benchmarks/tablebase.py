"""Endgame tablebases against today's per-position graph solve, in one run.

Figures (issue 12):
  family_2v2_s    the 15-card family of a plain 2-player deal and every family it leads to
                  (21 families, 224,770 turn starts), generated from scratch; beside it today's
                  graph solve of one 2-against-2 position (the draft start of benchmarks/solve.py)
  family_1v1_s    one 1-against-1 family (13 cards, court 11), generated in one process as the
                  table generates a missing family; beside it today's solve of one 1-against-1
                  position
  *_baseline_s    with --baseline-src DIR: the same generations by DIR's packages, in the same
                  run (each run of ours followed by one of the baseline; --repeat N: medians)
  all_2p_s        every family of both variants' 2-player set-ups (only with --all; otherwise
                  the figure of the last build found in the logs given with --all-log)
  probe_value_us  the exact value of a turn start from the tables
  probe_best_ms   best move (every move valued exactly) and a principal line
  table_solve_ms  the table's `solve` just after the draft (every hypothesis of the seat's
                  knowledge weighed), the worst of dealt-first, pick-first and draft none; beside
                  it the same hypotheses weighed one by one through the probe
  analyze_4p_s    `coup analyze` of a random 4-player record played to its end (heads-up at the
                  last), endgame included, with the 4-player endgame tables already cached;
                  analyze_4p_cold_s: the same with an empty cache (the tables generated first)
  first_solve     the table's first `solve` once two players are left, 3 to 6 players, both
                  variants, in a fresh process with an empty cache (a fresh install); with
                  --before DIR, beside it the same with only DIR's tables installed (those shipped
                  before: the others generated on the spot)
  build_Np_s      with --build N: `coup tablebase build --players N` from scratch, time and size
  package_mb      the shipped tables; peak_mb: the largest resident memory of a generation

Each generation runs in its own process, into a temporary directory, for its time and memory.

Generations are timed once the runner is ready (the 2-worker cluster started, the generator
imported on each worker): the figure is the generator's, not Dask's start-up.

    python benchmarks/tablebase.py [--json] [--quick] [--all] [--before DIR] [--build 8]
                                   [--baseline-src DIR] [--repeat N]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from fractions import Fraction
from itertools import permutations
from pathlib import Path
from typing import Any

from solver.coup import Character, State, Variant
from solver.coup.cards import Draft
from solver.coup.draft import opening
from solver.coup.tablebase import Family, Library, families_for, installed_dir, probe
from solver.coup.tablebase.probe import value_of
from solver.coup.turns import build
from solver.values import solve

ONE_ONE = Family(Variant.AMBASSADOR, (3, 3, 3, 2, 2), court=11)


WARM = ("numpy", "scipy.sparse.csgraph", "flint", "companion.coup.table_build")
"""Modules a worker imports before the clock starts (a start-up cost, not the generator's)."""


def generate_in_process(what: str, source: str | None = None) -> dict[str, Any]:
    """Generate ``what`` ('2v2', '1v1' or 'all') from scratch in a child process; with
    ``source``, by the ``solver``/``companion`` packages of that source tree (a baseline)."""
    code = (
        "import json, sys, time, resource, tempfile; from pathlib import Path; "
        "sys.path.insert(0, 'benchmarks'); import solver; from tablebase import _generate; "
        f"print(json.dumps(dict(_generate({what!r}), source=solver.__path__[0])))"
    )
    env = dict(os.environ)
    if source is not None:
        env["PYTHONPATH"] = os.pathsep.join(p for p in (source, env.get("PYTHONPATH")) if p)
    # -P: no current directory first on the path (it would shadow the baseline with this tree)
    done = subprocess.run([sys.executable, "-P", "-c", code], capture_output=True, text=True, check=True, env=env)
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    if source is not None and not Path(result["source"]).resolve().is_relative_to(Path(source).resolve()):
        raise SystemExit(f"the baseline ran {result['source']}, not the packages of {source}")
    return result


def _generate(what: str) -> dict[str, Any]:
    """One generation: the 1-against-1 family in this process, as the table generates a
    missing family (:func:`~solver.coup.tablebase.library.generate`); the others as `coup
    tablebase build` does, on 2 workers, timed once the cluster is started and the generator
    imported on each worker. ``cpu_s``: this process's CPU time (the whole work for 1v1)."""
    from importlib import import_module

    from companion.coup.table_build import build_job
    from companion.runner import Runner
    from solver.coup.tablebase.library import generate

    for module in WARM:
        import_module(module)
    if what == "1v1":
        families = [ONE_ONE]
    elif what == "2v2":
        families = families_for(Variant.AMBASSADOR, 2, Draft.NONE)
    else:
        families = families_for(None, 2, None)
    with tempfile.TemporaryDirectory() as directory:
        if what == "1v1":  # as the table generates a missing family: here, no runner
            started, cpu = time.perf_counter(), time.process_time()
            built = generate(families, Path(directory))
            seconds, cpu = time.perf_counter() - started, time.process_time() - cpu
        else:
            with Runner(workers=2, quiet=True) as run:
                for module in WARM:
                    run.client.run(import_module, module)
                started, cpu = time.perf_counter(), time.process_time()
                built = build_job(families, run, Path(directory), installed=False)
                seconds, cpu = time.perf_counter() - started, time.process_time() - cpu
    return {
        "seconds": seconds,
        "cpu_s": cpu,
        "families": len(built),
        "positions": sum(b.family.positions for b in built),
        "bytes": sum(b.bytes for b in built),
        "peak_mb": max(
            resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
        )
        / 1024,
    }


def generation(what: str, args: argparse.Namespace) -> dict[str, Any]:
    """The median of ``args.repeat`` generations of ``what``; with ``args.baseline_src``, each
    run of this tree followed by one of the baseline tree (under ``"baseline"``, its median)."""
    ours, theirs = [], []
    for _ in range(args.repeat):
        ours.append(generate_in_process(what))
        if args.baseline_src:
            theirs.append(generate_in_process(what, args.baseline_src))
    out = dict(median(ours))
    if theirs:
        out["baseline"] = median(theirs)
    return out


def median(runs: list[dict[str, Any]]) -> dict[str, Any]:
    return sorted(runs, key=lambda run: float(run["seconds"]))[len(runs) // 2]


def beside(result: dict[str, Any], report: dict[str, Any], name: str) -> str:
    """The baseline's figure beside ours (and into ``report``), as text."""
    base = result.get("baseline")
    if base is None:
        return ""
    report[f"{name}_baseline_s"] = round(base["seconds"], 3)
    report[f"{name}_ratio"] = round(result["seconds"] / base["seconds"], 3)
    return f"; the baseline {base['seconds']:.3f} s, ratio {result['seconds'] / base['seconds']:.2f}"


def graph_solve_seconds(state: State) -> tuple[float, Fraction, int]:
    started = time.perf_counter()
    graph = build(state)
    value = solve(graph).value[0]
    return time.perf_counter() - started, value, graph.size


def one_one_position() -> State:
    c, k, b = Character.CONTESSA, Character.CAPTAIN, Character.AMBASSADOR
    return State.position(("Alice", "Bob"), Variant.AMBASSADOR, coins=(2, 2), hidden=((c,), (k,)), face_up=((k,), (b,)))


def two_two_position() -> State:
    d, a, ct, k, b = (Character.DUKE, Character.ASSASSIN, Character.CONTESSA, Character.CAPTAIN, Character.AMBASSADOR)
    return State.position(
        ("Alice", "Bob"), Variant.AMBASSADOR, coins=(1, 2), hidden=((a, k), (d, d)), face_up=((), ()), court=(ct, k, b)
    )


def weigh_after_draft(library: Library, variant: Variant = Variant.AMBASSADOR) -> tuple[float, int, Fraction]:
    """The first seat dealt a duke, picked a captain: every (other's dealt card, other's pick)
    weighed, each first move's weighted value; returns seconds, hypotheses, best weighted value."""
    chars = variant.characters
    started = time.perf_counter()
    mine = (Character.DUKE, Character.CAPTAIN)
    hypotheses = [
        opening(variant, (mine[0], dealt), (mine[1], pick)) for dealt in chars if dealt != mine[0] for pick in chars
    ]
    weight = Fraction(1, len(hypotheses))
    totals: dict[object, Fraction] = {}
    for state in hypotheses:
        for move, value, _ in probe(state, library=library).moves:
            totals[move] = totals.get(move, Fraction(0)) + weight * value
    return time.perf_counter() - started, len(hypotheses), max(totals.values())


def timed_probes(library: Library) -> tuple[float, float, int]:
    """Microseconds for a value, milliseconds for the best move with a line (averages)."""
    states = [
        opening(Variant.AMBASSADOR, deal, (p1, p2))
        for deal in list(permutations(Variant.AMBASSADOR.characters, 2))[:6]
        for p1, p2 in ((Character.CAPTAIN, Character.DUKE), (Character.ASSASSIN, Character.CONTESSA))
    ]
    for s in states:  # load the tables first: a probe's time, not a file's
        value_of(s, library)
    started = time.perf_counter()
    rounds = 20
    for _ in range(rounds):
        for s in states:
            value_of(s, library)
    value_us = (time.perf_counter() - started) / (rounds * len(states)) * 1e6
    started = time.perf_counter()
    moves = 0
    for s in states:
        p = probe(s, library=library)
        moves += len(p.line())
    best_ms = (time.perf_counter() - started) / len(states) * 1e3
    return value_us, best_ms, moves


AFTER_DRAFT = {
    "dealt-first": ["draft dealt-first", "dealt ambassador", "pick duke"],
    "pick-first": ["draft pick-first", "pick duke", "dealt ambassador"],
    "none": ["draft none", "hand ambassador duke"],
}


def table_solve_seconds(draft: str) -> tuple[float, int]:
    """The table's ``solve`` command, timed, on a 2-player table whose set-up just ended."""
    from companion.coup.endgame import hypotheses, solve_table
    from companion.coup.tracker import replay

    table = replay("\n".join(["players Alice Bob", "variant ambassador", "me Alice", *AFTER_DRAFT[draft]]))
    started = time.perf_counter()
    found = hypotheses(table)
    solve_table(table, found=found)
    return time.perf_counter() - started, len(found)


def analyze_in_process(seed: int = 4) -> tuple[float, float, int]:
    """``coup analyze`` of a random 4-player record in a child process with an empty cache:
    (seconds the first time, seconds the second time, lines)."""
    code = (
        "import json, sys, time; sys.path.insert(0, 'benchmarks'); from tablebase import _analyze; "
        f"print(json.dumps([_analyze({seed}), _analyze({seed})]))"
    )
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "XDG_CACHE_HOME": cache}
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env)
    (cold, lines), (warm, _) = json.loads(done.stdout.strip().splitlines()[-1])
    return cold, warm, lines


def _analyze(seed: int) -> tuple[float, int]:
    from companion.coup.analysis import analyze
    from companion.coup.simulate import random_record

    record = random_record(players=4, seed=seed, variant=Variant.AMBASSADOR)
    started = time.perf_counter()
    result = analyze(record)
    assert result.endgame, "the record's heads-up endgame was analysed"
    return time.perf_counter() - started, len(record.splitlines())


def heads_up_lines(players: int, variant: Variant) -> list[str]:
    """The lines of the first calm random record (seeds from 0) that reach a turn start with
    the seat and one other player left, up to that line."""
    from companion.coup.commands import session
    from companion.coup.simulate import Style, random_record

    for seed in range(200):
        s, lines = session(), []
        for line in random_record(players, seed, variant=variant, style=Style(calm=0.5)).splitlines():
            s.handle(line)
            lines.append(line)
            if s.table.at_heads_up_turn_start:
                return lines
    raise SystemExit(f"no heads-up reached at {players} players")


def _first_solve(lines: list[str], installed: str | None) -> tuple[float, float]:
    """Seconds (wall clock, CPU) of the table's first `solve` in this (fresh) process: tables
    read from the package, or (``installed``: a folder) only from there, the rest generated on
    the spot."""
    import importlib

    from companion.coup.commands import session

    if installed is not None:
        probe_module = importlib.import_module("solver.coup.tablebase.probe")
        probe_module._DEFAULT.append(Library(directories=[Path(installed)]))
    s = session()
    for line in lines:
        s.handle(line)
    started, cpu = time.perf_counter(), time.process_time()
    answer = s.handle("solve")
    seconds, cpu = time.perf_counter() - started, time.process_time() - cpu
    assert any(words in answer[-1][1] for words in ("best move:", "best single move")), answer
    return seconds, cpu


def first_solve_in_process(lines: list[str], installed: str | None = None) -> tuple[float, float]:
    """:func:`_first_solve` in a child process with an empty cache (a fresh install)."""
    code = (
        "import json, sys; sys.path.insert(0, 'benchmarks'); from tablebase import _first_solve; "
        f"print(json.dumps(_first_solve({lines!r}, {installed!r})))"
    )
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "XDG_CACHE_HOME": cache, "XDG_STATE_HOME": cache}
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env)
    wall, cpu = json.loads(done.stdout.strip().splitlines()[-1])
    return float(wall), float(cpu)


def first_solves(before: str | None) -> dict[str, Any]:
    """The first `solve` at a new table once two are left, 3 to 6 players, both variants, after
    a fresh install; beside it (``before``: a folder of the tables shipped before) the same
    with the missing tables generated on the spot."""
    rows: dict[str, Any] = {}
    for players in (3, 4, 5, 6):
        for variant in Variant:
            lines = heads_up_lines(players, variant)
            ours, cpu = first_solve_in_process(lines)
            then = first_solve_in_process(lines, before) if before else None
            rows[f"{players}p-{variant}"] = {
                "s": round(ours, 3),
                "cpu_s": round(cpu, 3),
                "before_s": None if then is None else round(then[0], 2),
                "before_cpu_s": None if then is None else round(then[1], 2),
            }
            print(
                f"first solve, {players} players, {variant}: {ours:.2f} s, CPU {cpu:.2f} s"
                + (f" (tables generated on the spot, as before: {then[0]:.1f} s, CPU {then[1]:.1f} s)" if then else "")
            )
    return rows


def build_all(players: int) -> dict[str, Any]:
    """``coup tablebase build --players N`` from scratch (nothing installed read), its time
    and size."""
    with tempfile.TemporaryDirectory() as directory:
        code = (
            "import sys; from companion.coup.cli import main; "
            f"sys.exit(main(['tablebase', 'build', '--players', '{players}', '--into', {directory!r}]))"
        )
        started = time.perf_counter()
        subprocess.run([sys.executable, "-c", code], check=True, capture_output=True)
        seconds = time.perf_counter() - started
        files = list(Path(directory).glob("*.ctb"))
        size = sum(f.stat().st_size for f in files)
    print(f"coup tablebase build --players {players}: {len(files)} families, {size / 2**20:.2f} MB in {seconds:.0f} s")
    return {"seconds": round(seconds, 1), "families": len(files), "mb": round(size / 2**20, 2)}


def package_mb() -> float:
    return sum(p.stat().st_size for p in installed_dir().glob("*.ctb")) / 2**20


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--quick", action="store_true", help="skip today's 2-against-2 solve and the 21-family build")
    parser.add_argument("--all", action="store_true", help="generate every 2-player family of both variants too")
    parser.add_argument("--skip-first-solve", action="store_true", help="leave out the first solve at 3-6 players")
    parser.add_argument(
        "--before", metavar="DIR", help="first solve: also with only the tables of DIR installed (those shipped before)"
    )
    parser.add_argument(
        "--build", type=int, action="append", default=[], metavar="N", help="time `coup tablebase build --players N`"
    )
    parser.add_argument(
        "--baseline-src",
        metavar="DIR",
        help="also time the generations with the solver/companion packages of DIR (e.g. `git archive main`)",
    )
    parser.add_argument("--repeat", type=int, default=1, metavar="N", help="generations: the median of N runs")
    args = parser.parse_args()
    report: dict[str, Any] = {}
    one = generation("1v1", args)
    report.update(family_1v1_s=round(one["seconds"], 3), family_1v1_cpu_s=round(one["cpu_s"], 3))
    seconds, value, states = graph_solve_seconds(one_one_position())
    report["today_1v1_position_s"] = round(seconds, 2)
    print(
        f"1-against-1 family ({ONE_ONE.positions:,} turn starts): {one['seconds']:.3f} s "
        f"(CPU {one['cpu_s']:.3f} s{beside(one, report, 'family_1v1')}); "
        f"today one 1-against-1 position: {seconds:.2f} s ({states:,} states, value {value})"
    )
    peaks = [one["peak_mb"]]
    if not args.quick:
        two = generation("2v2", args)
        peaks.append(two["peak_mb"])
        report.update(family_2v2_s=round(two["seconds"], 2), family_2v2_positions=two["positions"])
        seconds, value, states = graph_solve_seconds(two_two_position())
        report["today_2v2_position_s"] = round(seconds, 2)
        print(
            f"15-card family and all it leads to ({two['families']} families, {two['positions']:,} turn starts): "
            f"{two['seconds']:.2f} s{beside(two, report, 'family_2v2')}, {two['peak_mb']:.0f} MB; "
            f"today one 2-against-2 position: {seconds:.1f} s ({states:,} states)"
        )
    if args.all:
        every = generate_in_process("all")
        peaks.append(every["peak_mb"])
        report.update(all_2p_s=round(every["seconds"], 1), all_2p_positions=every["positions"])
        print(
            f"every 2-player family of both variants ({every['families']} families, {every['positions']:,} "
            f"turn starts): {every['seconds']:.0f} s, {every['peak_mb']:.0f} MB"
        )
    library = Library(cache=None)
    value_us, best_ms, moves = timed_probes(library)
    report.update(probe_value_us=round(value_us, 1), probe_best_ms=round(best_ms, 2))
    print(f"probe: value {value_us:.0f} µs, best move and line {best_ms:.1f} ms ({moves} moves in 12 lines)")
    solve_s, hypotheses, best = weigh_after_draft(library)
    table_s = {draft: table_solve_seconds(draft) for draft in AFTER_DRAFT}
    report["table_solve_ms"] = round(max(s for s, _ in table_s.values()) * 1e3, 1)
    print(
        "the table's solve after the draft: "
        + ", ".join(f"{draft} {s * 1e3:.0f} ms ({n} hypotheses)" for draft, (s, n) in table_s.items())
        + f"; the probe alone on {hypotheses} hypotheses: {solve_s * 1e3:.0f} ms (best weighted value {best})"
    )
    cold, warm, lines = analyze_in_process()
    report.update(analyze_4p_s=round(warm, 2), analyze_4p_cold_s=round(cold, 2))
    print(
        f"coup analyze, a 4-player record of {lines} lines ending heads-up: {warm:.2f} s "
        f"({cold:.1f} s with an empty cache)"
    )
    if not args.skip_first_solve:
        solves = first_solves(args.before)
        report["first_solve"] = solves
        report["first_solve_worst_s"] = max(r["s"] for r in solves.values())
        report["first_solve_worst_cpu_s"] = max(r["cpu_s"] for r in solves.values())
        befores = [r["before_s"] for r in solves.values() if r["before_s"] is not None]
        report["first_solve_worst_before_s"] = max(befores) if befores else None
        print(
            f"worst first solve at a 3-6 player table: {report['first_solve_worst_s']:.2f} s, "
            f"CPU {report['first_solve_worst_cpu_s']:.2f} s (target < 1 s)"
        )
    for players in args.build:
        report[f"build_{players}p"] = build_all(players)
    report["package_mb"] = round(package_mb(), 2)
    report["peak_mb"] = round(max(peaks))
    print(f"shipped tables: {report['package_mb']} MB; peak memory of a generation: {report['peak_mb']} MB")
    report.setdefault("family_2v2_s", None)
    report.setdefault("all_2p_s", None)
    if args.json:
        print(json.dumps(report))
    return 0


if __name__ == "__main__":
    sys.exit(main())
