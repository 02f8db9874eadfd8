"""What a typed line costs at the table as the history grows: each game's long record typed
line by line into a table session (as at the prompt, without its journal: the journal's fsync,
the same either way, costs milliseconds that depend on the disk), timing ``handle`` per line;
side by side, in the same run, the bookkeeping the session did per line before the tables said
where a line went (:attr:`companion.tracked.TrackedTable.placed`): both whole canonical records
rebuilt and compared.

    python benchmarks/session.py [--json]

With ``--json`` the last line is ``{"coup": {"lines": ..., "handle_first_ms": ..., "handle_last_ms":
..., "rebuild_first_ms": ..., "rebuild_last_ms": ...}, ...}`` (first and last: medians over the
first and the last quarter of the record's lines).
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from importlib import import_module
from pathlib import Path
from typing import Any

from companion.records import replay

ROOT = Path(__file__).resolve().parent.parent


def _records() -> dict[str, tuple[str, list[str]]]:
    """Each game's session module and a long canonical record."""
    from companion.spicy.simulate import random_record as spicy_record
    from companion.treasure.simulate import random_record as treasure_record
    from solver.spicy import Deck

    coup = (ROOT / "benchmarks" / "records" / "long" / "158-turns.coup").read_text()
    spicy = spicy_record(6, 18, seat=0, deck=Deck(worlds_end=(0, 0, 0, 0, 0)))  # benchmarks/spicy.py's long one
    treasure = treasure_record(5, 1)
    texts = {"coup": coup, "spicy": spicy, "tresor": treasure}
    modules = {
        "coup": "companion.coup.commands",
        "spicy": "companion.spicy.commands",
        "tresor": "companion.treasure.commands",
    }
    out = {}
    for game, text in texts.items():
        table = replay(text.splitlines(), import_module(modules[game]).session().table, game)
        out[game] = (modules[game], table.record_lines())
    return out


def _old_bookkeeping(before: Any, after: Any) -> bool:
    """What the session did per line before: rebuild both records and compare them."""
    old, new = before.record_lines(), after.record_lines()
    return len(new) == len(old) + 1 and new[:-1] == old


def time_game(module: str, lines: list[str]) -> dict[str, Any]:
    session = import_module(module).session()
    handle, rebuild = [], []
    for line in lines:
        before = session.table
        start = time.perf_counter()
        said = session.handle(line)
        handle.append(time.perf_counter() - start)
        assert all(style != "error" for style, _ in said), (line, said)
        start = time.perf_counter()
        _old_bookkeeping(before, session.table)
        rebuild.append(time.perf_counter() - start)
    quarter = max(1, len(lines) // 4)

    def ms(values: list[float]) -> float:
        return round(1000 * statistics.median(values), 3)

    return {
        "lines": len(lines),
        "handle_first_ms": ms(handle[:quarter]),
        "handle_last_ms": ms(handle[-quarter:]),
        "rebuild_first_ms": ms(rebuild[:quarter]),
        "rebuild_last_ms": ms(rebuild[-quarter:]),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    figures = {}
    for game, (module, lines) in _records().items():
        figures[game] = f = time_game(module, lines)
        if not args.json:
            print(
                f"{game}: {f['lines']} lines; handle median {f['handle_first_ms']} ms (first quarter), "
                f"{f['handle_last_ms']} ms (last quarter); the old per-line record rebuild "
                f"{f['rebuild_first_ms']} -> {f['rebuild_last_ms']} ms, no longer done"
            )
    if args.json:
        print(json.dumps(figures))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
