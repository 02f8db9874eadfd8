"""The full recomputation of the 2-player draft for one variant: the 500 open-hand games (15
solver graphs, on worker processes), then both orders' exact equilibria; time and peak memory.

    python benchmarks/draft.py [--variant ambassador] [--workers 2] [--json]
"""

from __future__ import annotations

import argparse
import json
import resource
import sys
import time
from typing import Any

from companion.coup.draft_advice import Advice, from_tables, recompute
from companion.runner import Runner
from solver.coup import Draft, Variant


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variant", default="ambassador")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    variant = Variant.parse(args.variant)
    started = time.perf_counter()
    with Runner(workers=args.workers, quiet=args.json) as run:
        table, states = recompute(variant, run=run)
    games_s = time.perf_counter() - started
    advice = {order: Advice.load(variant, order, table) for order in (Draft.DEALT_FIRST, Draft.PICK_FIRST)}
    total_s = time.perf_counter() - started
    worker_mb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    own_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    first = advice[Draft.DEALT_FIRST]
    best = {c.name_en: first.advice(0, c)["recommended"] for c in variant.characters}
    report: dict[str, Any] = {
        "variant": str(variant),
        "workers": args.workers,
        "games": len(table),
        "states": states,
        "seconds": round(total_s, 1),
        "games_seconds": round(games_s, 1),
        "peak_mb_per_worker": round(worker_mb),
        "peak_mb_all": round(own_mb + args.workers * worker_mb),
        "equal_to_tables": table == from_tables(variant),
        "dealt_first_game_value": str(first.game_value(0)),
        "pick_first_game_value": str(advice[Draft.PICK_FIRST].game_value(0)),
        "first_player_picks": best,
    }
    print(
        f"{variant}: {len(table)} games, {states:,} states in {total_s:.0f} s on {args.workers} workers "
        f"(peak {report['peak_mb_per_worker']} MB per worker, about {report['peak_mb_all']} MB in all); "
        f"{'equal to' if report['equal_to_tables'] else 'DIFFERENT from'} the endgame tables"
    )
    print(
        f"first player's value: dealt-first {report['dealt_first_game_value']}, "
        f"pick-first {report['pick_first_game_value']}"
    )
    for card, mix in best.items():
        print(f"  dealt {card}: pick {', '.join(f'{k} {v}' for k, v in mix.items())}")
    if args.json:
        print(json.dumps(report))
    return 0


if __name__ == "__main__":
    sys.exit(main())
