"""Time per typed line at the treasure table, over an 8-player record (made here by bots, from a
fixed seed): for each line, apply it and compute the whole table as ``tresor replay --json``
does (the exact treasure odds, the value of every bid open to the seat, every placement with its
points and set change). Prints the median and the worst line; the target is a worst line under
20 ms. The libraries the table loads on first use (networkx, for the connected sets) are loaded
before the clock starts, as in a prompt that has answered its first line; that one-time cost is
printed apart (``import_ms``). Beside it the naive way: the independent brute force of the tests
(tests/reference/treasure_brute.py, the removed card and the unseen deal enumerated) replaying
the record up to each line.

    python benchmarks/treasure.py [--json] [--players N] [--seed S] [--records K] [--no-naive]

With ``--json`` the last line is ``{"median_ms": ..., "worst_ms": ..., "lines": ..., ...}``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

import common

from companion.treasure.report import table_json
from companion.treasure.simulate import random_record
from companion.treasure.tracker import Table

TARGET_MS = 20.0


def time_lines(text: str) -> list[float]:
    """Seconds per line: apply it, then the whole table (odds, bids, placements)."""
    return common.time_lines(text, Table.new(), table_json)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--players", type=int, default=8)
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--records", type=int, default=3, help="how many records (seats) to time")
    parser.add_argument("--no-naive", action="store_true", help="skip the brute-force comparison")
    args = parser.parse_args()
    start = time.perf_counter()
    import networkx  # noqa: F401  (loaded once per process, on the first line that needs a set)

    import_ms = 1000 * (time.perf_counter() - start)
    times: list[float] = []
    naive: list[float] | None = []
    lines = 0
    for k in range(args.records):
        text = random_record(args.players, args.seed + k, me=k % args.players)
        lines += len(text.splitlines())
        ours = time_lines(text)
        times += ours
        if naive is not None and not args.no_naive:
            brute = common.time_naive(text, "treasure_brute")
            naive = None if brute is None else naive + brute
    ms = sorted(1000 * t for t in times)
    result = {
        "players": args.players,
        "records": args.records,
        "lines": lines,
        "median_ms": round(statistics.median(ms), 3),
        "worst_ms": round(ms[-1], 3),
        "p95_ms": round(ms[int(0.95 * (len(ms) - 1))], 3),
        "target_ms": TARGET_MS,
        "import_ms": round(import_ms, 1),
        **common.against_naive(times, naive if not args.no_naive else None),
    }
    if not args.json:
        print(f"{args.players} players, {lines} lines in {args.records} records, every line with the whole table:")
        print(f"  median {result['median_ms']} ms, 95% {result['p95_ms']} ms, worst {result['worst_ms']} ms")
        print(f"  target: worst under {TARGET_MS} ms: {'met' if ms[-1] < TARGET_MS else 'NOT met'}")
        print(f"  (once per process, before the first line: networkx loaded in {import_ms:.0f} ms)")
        if not args.no_naive:
            print("  " + common.naive_text(common.against_naive(times, naive)))
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
