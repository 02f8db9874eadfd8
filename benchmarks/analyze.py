"""`coup analyze` on a long record, the endgame solver left out: the annotation's time next to
a plain replay of the same record (the table alone, which the analysis needs anyway).

The record, benchmarks/records/long/158-turns.coup, is a random 8-player game (seed 100 of
companion.coup.simulate with calm play) of 158 turns and 300 lines, from one seat's view.

    python benchmarks/analyze.py [--json] [--repeat 3]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

from companion.coup.analysis import analysis_json, analyze
from companion.coup.tracker import replay

RECORD = Path(__file__).parent / "records" / "long" / "158-turns.coup"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    text = RECORD.read_text()
    analysis, plain = [], []
    for _ in range(args.repeat):  # alternate, so that both see the same machine
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
    if args.json:
        print(json.dumps(report))
    return 0


if __name__ == "__main__":
    sys.exit(main())
