"""The worlds' passes in numpy (exact limbs) against one world at a time, line by line.

Replays adversarial records through the tracker twice in one run, once with every pass over
the worlds done one world at a time (``worlds.BULK`` out of reach: the code before the numpy
passes) and once as shipped, and prints the CPU time of the worst line and of the whole record
for each, with their ratio. ``--json``: one JSON object on the last line.

    python benchmarks/worlds.py [--quick] [--json]
"""

from __future__ import annotations

import argparse
import json
import time

from companion.coup.report import table_json
from companion.coup.simulate import adversarial_record
from companion.coup.tracker import Table
from solver.coup import worlds
from solver.coup.counting import clear_caches

RECORDS = [("exchanges", 5, 2, 120), ("exchanges", 6, 2, 120), ("issue-19", 4, 1, 62)]


def replay(text: str) -> list[float]:
    """The CPU seconds of each line of ``text`` (tracker and its JSON table)."""
    clear_caches()
    table = Table()
    times = []
    for number, line in enumerate(text.splitlines(), 1):
        start = time.process_time()
        table = table.apply_text(line, number)
        if table.beliefs is not None:
            table_json(table)
        times.append(time.process_time() - start)
    return times


def measure(text: str, bulk: int) -> list[float]:
    saved = worlds.BULK
    worlds.BULK = bulk
    try:
        return replay(text)
    finally:
        worlds.BULK = saved


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="the first 60 lines of each record")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rows = []
    for shape, players, seed, lines in RECORDS:
        text = "\n".join(adversarial_record(shape, players, seed, lines).splitlines()[: 60 if args.quick else None])
        old, new = measure(text, 1 << 62), measure(text, worlds.BULK)
        rows.append({
            "record": f"{shape} {players}p", "lines": len(old),
            "worst_ms_one_at_a_time": round(1000 * max(old), 1), "worst_ms_numpy": round(1000 * max(new), 1),
            "total_s_one_at_a_time": round(sum(old), 2), "total_s_numpy": round(sum(new), 2),
            "ratio_total": round(sum(old) / sum(new), 2),
        })
    for row in rows:
        print(
            f"{row['record']:<14} {row['lines']:>4} lines  worst line {row['worst_ms_one_at_a_time']:>7} ms -> "
            f"{row['worst_ms_numpy']:>7} ms  total {row['total_s_one_at_a_time']:>6} s -> {row['total_s_numpy']:>6} s"
            f"  x{row['ratio_total']}"
        )
    if args.json:
        print(json.dumps({"records": rows}))


if __name__ == "__main__":
    main()
