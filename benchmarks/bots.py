"""A tournament of Coup's bots: 4-player games, each seating one bot of each personality (honest,
bluffer, counter, random) in an order drawn from the game's seed; win rates per personality with
95% Wilson intervals. Every bot decides from its own seat's table (exact counting included).
The games run on the job runner, as ``coup tournament`` runs them.

    python benchmarks/bots.py [--games 1000] [--workers 2] [--seed 0] [--json]
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from companion.runner import Runner
from companion.tournament import report_text, tournament


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    with Runner(workers=args.workers, quiet=args.json) as run:
        bots = ["honest", "bluffer", "counter", "random"]
        report: dict[str, Any] = tournament("coup", bots, args.games, args.seed, run)
    results = report["results"]
    counter_low = results["counter"]["ci95"][0]
    report["counter_beats_random"] = counter_low > results["random"]["ci95"][1]
    report["counter_beats_honest"] = counter_low > results["honest"]["ci95"][1]
    print(report_text(report))
    print(f"counter beats random: {report['counter_beats_random']}, beats honest: {report['counter_beats_honest']}")
    if args.json:
        print(json.dumps(report))
    return 0


if __name__ == "__main__":
    sys.exit(main())
