"""Time per typed line at the table, every probability included, over the fixed records in
benchmarks/records (3, 6 and 8 players, made by make_records.py).

For each line: apply it and compute the whole table (every player's holds, flags), as the
prompt does after each line. Prints median and worst per player count, and, side by side, the
independent brute-force counter of the tests replaying the same records (where it finishes).

    python benchmarks/table.py [--json] [--no-baseline]

With ``--json`` the last line is ``{"players": {"6": {"median_ms": ..., "worst_ms": ...}, ...}}``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path
from typing import Any

import common

from companion.coup.report import table_json
from companion.coup.tracker import Table
from companion.progress import progress

RECORDS = Path(__file__).parent / "records"
BASELINE_MAX_PLAYERS = 6  # the brute force enumerates every world: hopeless beyond


def time_lines(text: str) -> tuple[list[float], int]:
    """Seconds per line (apply + the whole table), caches cleared first; and the largest
    number of placements (terms) the beliefs held."""
    terms = [0]

    def count(table: Table) -> None:
        terms[0] = max(terms[0], len(table.beliefs) if table.beliefs is not None else 0)

    times = common.time_lines(text, Table.new(), table_json, count)
    return times, terms[0]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--no-baseline", action="store_true", help="skip the brute-force comparison")
    args = parser.parse_args()
    records = sorted(RECORDS.glob("*.coup"))
    by_players: dict[str, list[float]] = {}
    most_terms: dict[str, int] = {}
    rows = []
    with progress("records", total=len(records), quiet=args.json) as tick:
        for path in records:
            text = path.read_text()
            players = str(len(text.split("\n")[1].split()) - 1)
            times, terms = time_lines(text)
            by_players.setdefault(players, []).extend(times)
            most_terms[players] = max(most_terms.get(players, 0), terms)
            baseline = None
            if not args.no_baseline and int(players) <= BASELINE_MAX_PLAYERS:
                baseline = common.time_naive(text, "brute")
            rows.append((path.name, len(times), statistics.median(times), max(times), sum(times), baseline))
            tick()
    print(f"{'record':<22} {'lines':>5} {'median ms':>10} {'worst ms':>9}   naive: {'median ms':>10} {'worst ms':>9}")
    for name, n, median, worst, _, baseline in rows:
        naive = (
            f"{1000 * statistics.median(baseline):>10.2f} {1000 * max(baseline):>9.1f}"
            if baseline
            else f"{'-':>10} {'-':>9}"
        )
        print(f"{name:<22} {n:>5} {1000 * median:>10.2f} {1000 * worst:>9.1f}   naive: {naive}")
    report: dict[str, Any] = {"players": {}}
    for players, times in sorted(by_players.items(), key=lambda kv: int(kv[0])):
        report["players"][players] = {
            "median_ms": round(1000 * statistics.median(times), 3),
            "worst_ms": round(1000 * max(times), 3),
            "lines": len(times),
            "max_terms": most_terms[players],
        }
    comparable = [(total, sum(base)) for _, _, _, _, total, base in rows if base]
    if comparable:
        ratio = sum(b for _, b in comparable) / sum(t for t, _ in comparable)
        report["naive_over_ours"] = round(ratio, 1)
        print(f"naive brute force / ours, all lines of the records it finishes: {ratio:.1f}x")
    for players, figures in report["players"].items():
        print(
            f"{players} players: median {figures['median_ms']} ms, worst {figures['worst_ms']} ms per line, "
            f"at most {figures['max_terms']} placements"
        )
    if args.json:
        print(json.dumps(report))
    return 0


if __name__ == "__main__":
    sys.exit(main())
