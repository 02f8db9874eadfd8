"""`coup analyze`, timed two ways.

1. A long record, the endgame solver left out: the annotation's time next to a plain replay of
   the same record (the table alone, which the analysis needs anyway). The record,
   benchmarks/records/long/158-turns.coup, is a random 8-player game (seed 100 of
   companion.coup.simulate with calm play) of 158 turns and 300 lines, from one seat's view.
2. Records with long heads-up endgames (issue 19): for 3 to 6 players and both variants, the
   first random calm game (companion.coup.simulate) with at least 10 lines played once two
   players are left; `coup analyze FILE --json` as a person runs it (a fresh interpreter,
   command start included, tables warm), next to the same command with the endgame's turns
   backed up through the engine afresh for every line (``open_values(engine=True)``, the way
   before: nothing kept from one line or hypothesis to the next). Target: every record under 3 s.
   Each figure is given in wall-clock seconds and in CPU seconds (user + system): on a machine
   shared by several, the second is what the command costs.

    python benchmarks/analyze.py [--json] [--repeat 3] [--skip-long] [--players 3,4,5,6]
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from common import installed_env

from companion.coup.analysis import analysis_json, analyze
from companion.coup.tracker import replay
from solver.coup import Variant

RECORD = Path(__file__).parent / "records" / "long" / "158-turns.coup"
TARGET_S = 3.0
MIN_ENDGAME_LINES = 10
COMMAND = "import sys; from companion.coup.cli import main; sys.exit(main())"
BEFORE = (
    "import functools, sys; import solver.coup.hidden as h; "
    "h.table_values = functools.partial(h.table_values, engine=True); "
    "from companion.coup.cli import main; sys.exit(main())"
)


def long_record(repeat: int) -> dict[str, Any]:
    text = RECORD.read_text()
    analysis, plain = [], []
    for _ in range(repeat):  # alternate, so that both see the same machine
        started = time.perf_counter()
        result = analyze(text, endgame=False)
        analysis_json(result)
        analysis.append(time.perf_counter() - started)
        started = time.perf_counter()
        replay(text)
        plain.append(time.perf_counter() - started)
    report = {
        "record": RECORD.name,
        "turns": len(result.timeline) - 1,
        "lines": len(text.splitlines()),
        "claims": len(result.claims),
        "challenges": len(result.challenges),
        "analyze_s": round(statistics.median(analysis), 3),
        "replay_s": round(statistics.median(plain), 3),
    }
    print(
        f"{report['record']}: {report['turns']} turns, {report['lines']} lines, {report['claims']} claims, "
        f"{report['challenges']} challenges: analysed in {report['analyze_s']} s "
        f"(plain replay {report['replay_s']} s), endgame solving excluded"
    )
    return report


def heads_up_lines(text: str) -> int:
    """How many of the record's lines the analysis values in the open-hand endgame."""
    from companion.coup.analysis import _ENDGAME_VERBS, _two_left
    from companion.coup.language import parse_line
    from companion.coup.tracker import Table
    from companion.records import replay as replay_lines

    count = 0

    def each(before: Table, table: Table, number: int, line_text: str) -> None:
        nonlocal count
        line = parse_line(line_text, before.names)
        if line is not None and line.verb in _ENDGAME_VERBS:
            started = before if before.state is not None else before.start()
            count += _two_left(started)

    replay_lines(text.splitlines(), Table.new(), "<record>", each=each)
    return count


def endgame_record(players: int, variant: Variant) -> tuple[int, str]:
    """The first seed whose calm random game has a long heads-up endgame, and its record."""
    from companion.coup.simulate import Style, random_record

    for seed in range(500):
        text = random_record(players, seed, variant=variant, style=Style(calm=0.7, challenge=0.1))
        if heads_up_lines(text) >= MIN_ENDGAME_LINES:
            return seed, text
    raise SystemExit(f"no record with a long endgame for {players} players, {variant}")


def counted(text: str) -> tuple[int, int]:
    """(endgame notes, hypotheses weighed in all) of the record's analysis, in this process."""
    import companion.coup.analysis as analysis

    seen = [0]
    original = analysis.open_hypotheses

    def counting(*args: Any) -> Any:
        found = original(*args)
        seen[0] += len(found)
        return found

    analysis.open_hypotheses = counting
    try:
        result = analyze(text)
    finally:
        analysis.open_hypotheses = original
    return len(result.endgame), seen[0]


def command_seconds(code: str, path: Path) -> tuple[float, float]:
    """Wall-clock and CPU seconds (user + system) of ``coup analyze FILE --json`` run by
    ``code`` in a fresh interpreter. On a machine shared by many, the CPU time is what the
    command costs; the wall-clock time is what a person waited there."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    subprocess.run(
        [sys.executable, "-c", code, "analyze", str(path), "--json"],
        check=True,
        stdout=subprocess.DEVNULL,
        cwd=Path(__file__).resolve().parent.parent,
        env=installed_env(),
    )
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def endgames(players: list[int], repeat: int) -> list[dict[str, Any]]:
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for n in players:
            for variant in Variant:
                seed, text = endgame_record(n, variant)
                path = Path(tmp) / f"{n}p-{variant}-{seed}.coup"
                path.write_text(text)
                notes, hypotheses = counted(text)
                command_seconds(COMMAND, path)  # the bytecode compiled, the tables read once from disk
                ours, before = [], []
                for _ in range(repeat):
                    ours.append(command_seconds(COMMAND, path))
                    before.append(command_seconds(BEFORE, path))
                row = {
                    "record": path.name,
                    "lines": len(text.splitlines()),
                    "endgame_lines": notes,
                    "hypotheses": hypotheses,
                    "analyze_s": round(statistics.median(w for w, _ in ours), 2),
                    "before_s": round(statistics.median(w for w, _ in before), 2),
                    "analyze_cpu_s": round(statistics.median(c for _, c in ours), 2),
                    "before_cpu_s": round(statistics.median(c for _, c in before), 2),
                }
                rows.append(row)
                print(
                    f"{row['record']:<26} {row['lines']:>3} lines, {notes:>2} endgame lines, "
                    f"{hypotheses:>4} hypotheses: coup analyze {row['analyze_s']:.2f} s, "
                    f"CPU {row['analyze_cpu_s']:.2f} s "
                    f"(before: {row['before_s']:.2f} s, CPU {row['before_cpu_s']:.2f} s)"
                    f"{'' if row['analyze_s'] < TARGET_S else '  OVER the 3 s target'}"
                )
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--skip-long", action="store_true", help="only the heads-up endgame records")
    parser.add_argument("--players", default="3,4,5,6", help="player counts of the endgame records")
    args = parser.parse_args()
    report: dict[str, Any] = {} if args.skip_long else long_record(args.repeat)
    rows = endgames([int(n) for n in args.players.split(",")], args.repeat)
    report["endgames"] = rows
    report["endgame_worst_s"] = max(r["analyze_s"] for r in rows)
    report["endgame_worst_before_s"] = max(r["before_s"] for r in rows)
    report["endgame_worst_cpu_s"] = max(r["analyze_cpu_s"] for r in rows)
    report["endgame_worst_before_cpu_s"] = max(r["before_cpu_s"] for r in rows)
    report["endgame_target_met"] = report["endgame_worst_s"] < TARGET_S
    print(
        f"worst endgame record: {report['endgame_worst_s']:.2f} s, CPU {report['endgame_worst_cpu_s']:.2f} s "
        f"(before: {report['endgame_worst_before_s']:.2f} s, CPU {report['endgame_worst_before_cpu_s']:.2f} s); "
        f"target < {TARGET_S} s {'met' if report['endgame_target_met'] else 'MISSED'}"
    )
    if args.json:
        print(json.dumps(report))
    return 0


if __name__ == "__main__":
    sys.exit(main())
