"""Time per typed line at the table, every probability included: the fixed records of
benchmarks/records (3, 6 and 8 players, made by make_records.py) and adversarial records made on
the spot (``companion.coup.simulate.ADVERSARIAL``): every player exchanging whenever it may (3-6
players); the inquisitor's examines, swaps and one-card exchanges; failed proofs amid exchanges
(the assumption about them made, dropped and made again); 7-8 players exchanging; and issue 19's
62-line record (4 players, the seat and two others exchanging again and again).

For each line: apply it and compute the whole table (every player's holds, flags), as the prompt
does. Side by side, in the same run: the independent brute force of the tests replaying the
record up to each line (where it finishes within its budget), and the counting of another git
revision (``--against``, by default main before issue 19's counting: its code unpacked with ``git
archive`` and run in a subprocess, up to its budget and 4 GB) on issue 19's record and on the
fixed records.

    python benchmarks/table.py [--json] [--quick] [--no-baseline] [--against REF]

Targets: the worst line under 100 ms at 3-6 players, under 250 ms at 7-8, on every record. With
``--json`` the last line is one object: ``{"records": [...], "families": {...}, "issue_19":
{...}}``, times in milliseconds.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import statistics
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path
from typing import Any

import common

from companion.coup.report import table_json
from companion.coup.simulate import adversarial_record
from companion.coup.tracker import Table
from companion.memory import keep_freed_memory
from companion.progress import progress
from solver.coup.counting import clear_caches

ROOT = Path(__file__).resolve().parent.parent
RECORDS = Path(__file__).parent / "records"
TARGET_MS = {players: 100.0 if players <= 6 else 250.0 for players in range(2, 9)}
BRUTE_BUDGET = 20.0  # seconds of brute force per record, at most
REVISION_BUDGET = 120.0  # seconds of the other revision per record, at most
OUR_BUDGET = 120.0  # seconds of ours per record, at most (a record stopped there says so)

RECORDS_MADE: list[tuple[str, int, int, int]] = [
    # (shape, players, seed, lines): failed-proofs seeds whose records drop an assumption
    *[("exchanges", p, seed, 120) for p in (3, 4, 5, 6) for seed in (1, 2)],
    *[("examines", p, 2, 120) for p in (3, 4, 5, 6)],
    ("examines", 6, 1, 120),
    *[("failed-proofs", p, seed, 130) for p, seed in ((3, 15), (4, 1), (4, 17), (5, 11), (5, 21), (6, 9), (6, 7))],
    *[("crowd", p, seed, 120) for p in (7, 8) for seed in (1, 2)],
]
QUICK = [
    ("exchanges", 3, 1, 60),
    ("exchanges", 5, 1, 60),
    ("examines", 4, 2, 60),
    ("failed-proofs", 4, 1, 80),
    ("crowd", 8, 2, 60),
]
BRUTE_MAX_PLAYERS = 6  # the brute force enumerates every world: hopeless beyond, once cards are exchanged

BEFORE = "38d11326327ded07a733098996552d0876942d70"
"""The last revision of main before the counting of issue 19 was merged (the baseline of
``--against``: its counting in companion/coup/beliefs.py, whose cost grew with the history)."""
REVISION = """
import json, sys, time
from companion.coup.report import table_json
from companion.coup.tracker import Table
budget, table, times = float(sys.argv[1]), Table.new(), []
for number, raw in enumerate(sys.stdin.read().splitlines(), start=1):
    start = time.perf_counter()
    after = table.apply_text(raw, number)
    if after is not table:
        table_json(after)
        times.append(time.perf_counter() - start)
    table = after
    if sum(times) > budget:
        break
print(json.dumps({"times": times, "finished": sum(times) <= budget}))
"""


def time_lines(text: str, budget: float = OUR_BUDGET) -> tuple[list[float], int, str]:
    """Seconds per line (apply + the whole table), caches emptied first, up to ``budget`` s in
    all; the largest number of terms or worlds the counting held, and how it held them last."""
    clear_caches()
    largest: list[Any] = [0, ""]

    def held(table: Table) -> None:
        if table.beliefs is not None:
            largest[:] = max(largest[0], len(table.beliefs)), table.beliefs.representation

    times = common.time_lines(text, Table.new(), table_json, held, budget)
    return times, int(largest[0]), str(largest[1])


def time_revision(ref: str, text: str, budget: float = REVISION_BUDGET) -> dict[str, Any] | None:
    """Seconds per line of the counting of git revision ``ref`` on ``text`` (its solver and
    companion unpacked in a temporary folder, run in a subprocess); None if it cannot run."""
    try:
        archive = subprocess.run(
            ["git", "-C", str(ROOT), "archive", ref, "solver", "companion"], capture_output=True, check=True
        ).stdout
    except (OSError, subprocess.CalledProcessError):
        return None
    with tempfile.TemporaryDirectory() as tmp:
        with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
            tar.extractall(tmp, filter="data")
        env = {**os.environ, "PYTHONPATH": tmp}
        done = common.bounded([sys.executable, "-c", REVISION, str(budget)], text, 4 * budget + 120, cwd=tmp, env=env)
    if done is None:
        return None
    if done.returncode != 0:
        return None
    result: dict[str, Any] = json.loads(done.stdout.splitlines()[-1])
    return result


def figures(times: list[float]) -> dict[str, float]:
    return {
        "lines": len(times),
        "median_ms": round(1000 * statistics.median(times), 2),
        "worst_ms": round(1000 * max(times), 1),
        "total_s": round(sum(times), 2),
    }


def players_of(text: str) -> int:
    return len(next(line for line in text.splitlines() if line.startswith("players")).split()) - 1


def run_record(name: str, text: str, brute: bool, against: str | None) -> dict[str, Any]:
    times, largest, representation = time_lines(text)
    row: dict[str, Any] = {"record": name, "players": players_of(text), **figures(times)}
    row["finished"] = len(times) == sum(1 for line in text.splitlines() if line.strip() and line[0] != "#")
    row |= {"largest": largest, "representation": representation}
    row["target_ms"] = TARGET_MS[row["players"]]
    row["met"] = row["worst_ms"] < row["target_ms"]
    if brute:
        naive = common.time_naive(text, "brute", BRUTE_BUDGET)
        row["brute"] = figures(naive) if naive else None
    if against is not None:
        other = time_revision(against, text)
        if other is not None and other["times"]:
            row["revision"] = {**figures(other["times"]), "finished": other["finished"], "ref": against[:10]}
    return row


def records(quick: bool) -> list[tuple[str, str, str]]:
    """(name, shape, text) of every record timed."""
    out = [(path.name, "fixed", path.read_text()) for path in sorted(RECORDS.glob("*.coup"))]
    for shape, players, seed, length in QUICK if quick else RECORDS_MADE:
        out.append((f"{shape}-{players}p-s{seed}", shape, adversarial_record(shape, players, seed, length)))
    out.append(("issue-19-4p", "issue-19", adversarial_record("issue-19", 4, 1, 62)))
    return out


def text_row(row: dict[str, Any]) -> str:
    def side(d: dict[str, Any] | None) -> str:
        if not d:
            return f"{'over budget':>21}"
        over = "" if d.get("finished", True) else f" (first {d['lines']} lines)"
        return f"{d['median_ms']:>9.2f} {d['worst_ms']:>10.1f}{over}"

    flag = ("" if row["met"] else "  > target") + ("" if row["finished"] else " (stopped)")
    main = f"{row['record']:<24} {row['lines']:>5} {row['median_ms']:>9.2f} {row['worst_ms']:>9.1f}{flag:<11}"
    size = f"{row['largest']:>8} {row['representation'][:6]:<6}"
    brute = f"   brute: {side(row['brute'])}" if "brute" in row else ""
    other = f"   {row['revision']['ref']}: {side(row['revision'])}" if "revision" in row else ""
    return f"{main} {size}{brute}{other}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--quick", action="store_true", help="fewer and shorter adversarial records")
    parser.add_argument("--no-baseline", action="store_true", help="skip the brute force and the other revision")
    parser.add_argument(
        "--against", default=BEFORE, help="git revision to time side by side (default: main before issue 19's counting)"
    )
    args = parser.parse_args()
    keep_freed_memory()  # as every `coup` command does (companion.cli.main)
    todo = records(args.quick)
    rows = []
    with progress("records", total=len(todo), quiet=args.json) as tick:
        for name, shape, text in todo:
            against = None if args.no_baseline or shape not in ("fixed", "issue-19") else args.against
            brute = not args.no_baseline and players_of(text) <= BRUTE_MAX_PLAYERS
            row = run_record(name, text, brute=brute, against=against)
            rows.append({"shape": shape, **row})
            tick()
    print(f"{'record':<24} {'lines':>5} {'median ms':>9} {'worst ms':>9} {'':<11} {'largest':>8} {'rep':<6}")
    for row in rows:
        print(text_row(row))
    families: dict[str, Any] = {}
    for row in rows:
        family = families.setdefault(row["shape"], {"worst_ms": 0.0, "record": "", "met": True, "brute_worst_ms": None})
        if row["worst_ms"] >= family["worst_ms"]:
            family["worst_ms"], family["record"] = row["worst_ms"], row["record"]
        family["met"] = family["met"] and row["met"]
        if row.get("brute"):
            family["brute_worst_ms"] = max(family["brute_worst_ms"] or 0.0, row["brute"]["worst_ms"])
    for shape, family in families.items():
        verdict = "met" if family["met"] else "NOT met"
        brute = f"; brute force's worst {family['brute_worst_ms']} ms" if family["brute_worst_ms"] else ""
        print(f"{shape:<14} worst line {family['worst_ms']} ms ({family['record']}), target {verdict}{brute}")
    issue = next(row for row in rows if row["shape"] == "issue-19")
    if "revision" in issue:
        rev = issue["revision"]
        note = "" if rev["finished"] else f" (over its {REVISION_BUDGET:.0f} s budget after {rev['lines']} lines)"
        print(
            f"issue 19's record: worst line {issue['worst_ms']} ms, replay {issue['total_s']} s; "
            f"{rev['ref']}: worst line {rev['worst_ms']} ms, replay {rev['total_s']} s{note}"
        )
    if args.json:
        print(json.dumps({"records": rows, "families": families, "issue_19": issue}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
