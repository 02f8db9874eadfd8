"""The exact solver on fixed workloads, next to plain value iteration over the same graph.

Workloads (issue 4):
  1. 1-against-1: for each ordered pair of characters (a, b) and each variant, Alice holds a
     with the next character of the table (cyclically) face up, Bob holds b with the next one
     after b face up, 2 coins each, the court the rest of the deck (50 positions).
  2. 2-against-1: Alice duke and captain, 3 coins; Bob assassin, contessa face up, 3 coins;
     the full court; Alice to move.
  3. 2-against-2, a draft start: Alice (first, 1 coin) assassin and captain; Bob (2 coins)
     duke and duke; court contessa, captain, ambassador.

Plain value iteration: Jacobi sweeps over the whole graph from 0 until the largest change is
below 1e-12, no certificate; vectorised with numpy on every workload, and in plain Python (the
issue's baseline) on every 10th single-card position. Each workload runs in its own process, for its peak
memory.

    python benchmarks/solve.py [--json] [--quick] [--no-baseline]
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time
from typing import Any

import numpy as np

from companion.progress import progress
from solver.coup import Character, State, Variant
from solver.coup.turns import build
from solver.graph import CHANCE, END, MAX, MIN, GameGraph
from solver.values import solve


def single_card(a: Character, b: Character, variant: Variant) -> State:
    chars = variant.characters
    after = {c: chars[(i + 1) % len(chars)] for i, c in enumerate(chars)}
    return State.position(
        ("Alice", "Bob"), variant, coins=(2, 2), hidden=((a,), (b,)), face_up=((after[a],), (after[b],))
    )


def two_against_one() -> State:
    d, a, ct, k = Character.DUKE, Character.ASSASSIN, Character.CONTESSA, Character.CAPTAIN
    return State.position(
        ("Alice", "Bob"), Variant.AMBASSADOR, coins=(3, 3), hidden=((d, k), (a,)), face_up=((), (ct,))
    )


def two_against_two() -> State:
    d, a, ct, k, b = (Character.DUKE, Character.ASSASSIN, Character.CONTESSA, Character.CAPTAIN, Character.AMBASSADOR)
    return State.position(
        ("Alice", "Bob"), Variant.AMBASSADOR, coins=(1, 2), hidden=((a, k), (d, d)), face_up=((), ()), court=(ct, k, b)
    )


def plain_value_iteration(graph: GameGraph, tolerance: float = 1e-12, max_sweeps: int = 1_000_000) -> tuple[float, int]:
    """Seconds and sweeps of Jacobi value iteration over the whole graph (floats)."""
    started = time.perf_counter()
    counts = np.diff(graph.start)
    nodes = np.flatnonzero(counts > 0)
    seg = graph.start[:-1][counts > 0]
    kind = graph.kind[nodes]
    is_max, is_min = kind == MAX, kind == MIN
    values = graph.terminal.astype(np.float64)
    sweeps = 0
    while sweeps < max_sweeps:
        sweeps += 1
        seen = values[graph.succ]
        new = np.add.reduceat(seen * graph.prob, seg)
        new[is_max] = np.maximum.reduceat(seen, seg)[is_max]
        new[is_min] = np.minimum.reduceat(seen, seg)[is_min]
        change = float(np.max(np.abs(new - values[nodes])))
        values[nodes] = new
        if change < tolerance:
            break
    assert not np.any((graph.kind == CHANCE) & (counts == 0)) and np.all(graph.kind[counts == 0] == END)
    return time.perf_counter() - started, sweeps


def python_value_iteration(
    graph: GameGraph, tolerance: float = 1e-12, max_sweeps: int = 1_000_000
) -> tuple[float, int]:
    """Seconds and sweeps of the same Jacobi value iteration written in plain Python (lists),
    the baseline the issue names."""
    started = time.perf_counter()
    start, succ, prob, kind = graph.start.tolist(), graph.succ.tolist(), graph.prob.tolist(), graph.kind.tolist()
    rows = [
        (i, kind[i], succ[start[i] : start[i + 1]], prob[start[i] : start[i + 1]])
        for i in range(graph.size)
        if start[i + 1] > start[i]
    ]
    values = [float(x) for x in graph.terminal.tolist()]
    sweeps = 0
    while sweeps < max_sweeps:
        sweeps += 1
        new = values[:]
        change = 0.0
        for i, k, targets, probs in rows:
            if k == MAX:
                v = max(values[j] for j in targets)
            elif k == MIN:
                v = min(values[j] for j in targets)
            else:
                v = sum(p * values[j] for p, j in zip(probs, targets, strict=True))
            change = max(change, abs(v - values[i]))
            new[i] = v
        values = new
        if change < tolerance:
            break
    return time.perf_counter() - started, sweeps


PYTHON_BASELINE_EVERY = 10
"""Plain-Python value iteration runs on every 10th single-card position (it takes a minute each)."""


def run_one(name: str, baseline: bool, python_baseline: bool = False) -> dict[str, Any]:
    """Solve one workload in this process: figures as a dict."""
    if name.startswith("single"):
        _, a, b, v = name.split(":")
        root = single_card(Character.parse(a), Character.parse(b), Variant.parse(v))
    else:
        root = two_against_one() if name == "two_vs_one" else two_against_two()
    started = time.perf_counter()
    graph = build(root)
    built = time.perf_counter()
    solution = solve(graph)
    seconds = time.perf_counter() - started
    out: dict[str, Any] = {
        "name": name,
        "states": graph.size,
        "seconds": seconds,
        "solve_seconds": time.perf_counter() - built,
        "value": str(solution.value[0]),
    }
    if baseline:
        vi_seconds, sweeps = plain_value_iteration(graph)
        out.update(vi_seconds=vi_seconds, vi_sweeps=sweeps)
    if python_baseline:
        py_seconds, py_sweeps = python_value_iteration(graph)
        out.update(py_vi_seconds=py_seconds, py_vi_sweeps=py_sweeps)
    out["peak_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return out


def in_process(name: str, baseline: bool, python_baseline: bool = False) -> dict[str, Any]:
    code = (
        "import json, sys; sys.path.insert(0, 'benchmarks'); from solve import run_one; "
        f"print(json.dumps(run_one({name!r}, {baseline!r}, {python_baseline!r})))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--quick", action="store_true", help="10 single-card positions, no 2-against-2")
    parser.add_argument("--no-baseline", action="store_true", help="skip plain value iteration")
    args = parser.parse_args()
    singles = [f"single:{a}:{b}:{v}" for v in Variant for a in v.characters for b in v.characters]
    if args.quick:
        singles = singles[:: len(singles) // 10]
    names = [*singles, "two_vs_one"] + ([] if args.quick else ["two_vs_two"])
    results = []
    with progress("workloads", total=len(names), quiet=args.json) as tick:
        for i, name in enumerate(names):
            python = not args.no_baseline and name.startswith("single") and i % PYTHON_BASELINE_EVERY == 0
            results.append(in_process(name, not args.no_baseline, python))
            tick()
    single = [r for r in results if r["name"].startswith("single")]
    worst = max(single, key=lambda r: r["seconds"])
    report: dict[str, Any] = {
        "single_card_positions": len(single),
        "single_card_worst_s": round(worst["seconds"], 3),
        "single_card_median_s": round(float(np.median([r["seconds"] for r in single])), 3),
        "single_card_states_max": max(r["states"] for r in single),
    }
    for r in results:
        if not r["name"].startswith("single"):
            key = "two_vs_one" if r["name"] == "two_vs_one" else "two_vs_two"
            report[f"{key}_s"] = round(r["seconds"], 2)
            report[f"{key}_states"] = r["states"]
            report[f"{key}_peak_mb"] = round(r["peak_mb"])
            report[f"{key}_value"] = r["value"]
    if not args.no_baseline:
        ours = sum(r["seconds"] for r in results)
        plain = sum(r["vi_seconds"] for r in results)
        report["ratio_vs_numpy_value_iteration"] = round(plain / ours, 2)
        report["numpy_value_iteration_s"] = round(plain, 2)
        report["ours_s"] = round(ours, 2)
        sampled = [r for r in results if "py_vi_seconds" in r]
        if sampled:
            python, mine = sum(r["py_vi_seconds"] for r in sampled), sum(r["seconds"] for r in sampled)
            report["ratio_vs_value_iteration"] = round(python / mine, 1)
            report["ratio_vs_value_iteration_graph_given"] = round(python / sum(r["solve_seconds"] for r in sampled), 1)
            report["python_value_iteration_s"] = round(python, 1)
            report["python_value_iteration_sweeps"] = [r["py_vi_sweeps"] for r in sampled]
            report["ours_on_those_s"] = round(mine, 2)
    print(
        f"single-card positions: {len(single)}, worst {report['single_card_worst_s']} s ({worst['name']}), "
        f"median {report['single_card_median_s']} s, up to {report['single_card_states_max']:,} states"
    )
    for key in ("two_vs_one", "two_vs_two"):
        if f"{key}_s" in report:
            print(
                f"{key}: {report[f'{key}_s']} s, {report[f'{key}_states']:,} states, "
                f"{report[f'{key}_peak_mb']} MB peak, value {report[f'{key}_value']}"
            )
    if "ratio_vs_numpy_value_iteration" in report:
        print(
            f"value iteration (numpy, vectorised) over the same graphs: {report['numpy_value_iteration_s']} s "
            f"against {report['ours_s']} s exact and certified (ratio {report['ratio_vs_numpy_value_iteration']})"
        )
    if "ratio_vs_value_iteration" in report:
        print(
            f"plain value iteration (Python) on {len(report['python_value_iteration_sweeps'])} single-card graphs: "
            f"{report['python_value_iteration_s']} s against {report['ours_on_those_s']} s "
            f"(ratio {report['ratio_vs_value_iteration']}; "
            f"{report['ratio_vs_value_iteration_graph_given']} with the graph given to both)"
        )
    if args.json:
        print(json.dumps(report))
    return 0


if __name__ == "__main__":
    sys.exit(main())
