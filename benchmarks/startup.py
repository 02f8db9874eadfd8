"""How long a person waits before a command does anything: ``coup --help``, ``spicy --help``,
``tresor --help``, ``coup replay`` of the bundled 5-player record, and the table prompt until it
is ready (``coup table``, a new game and the bundled 5-player record, on a pseudo-terminal until
the ``coup>`` prompt shows), side by side with a bare ``python -c pass`` in the same run.

Each command runs as the console script does (``main()`` of the game's command line module) in a
fresh interpreter, in a scratch folder, its code found through ``PYTHONPATH``, its bytecode
cached as after an install (:func:`common.installed_env`); the figure is the median of
``--repeat`` runs (a first run compiles the bytecode and is not counted). ``--baseline DIR``
times the same commands on another checkout (e.g. ``/work/main``) in the same run, interleaved.

Targets (issue 19): the three ``--help`` under 0.3 s, the replay under 0.5 s, the prompt ready
under 0.6 s.

    python benchmarks/startup.py [--json] [--repeat 5] [--baseline DIR]
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pexpect
from common import installed_env

ROOT = Path(__file__).resolve().parent.parent
RECORD = ROOT / "examples" / "five-players-inquisitor.coup"
MAINS = {
    "coup": "companion.coup.cli",
    "spicy": "companion.spicy.cli",
    "tresor": "companion.treasure.cli",
}
TARGETS = {"help": 0.3, "replay": 0.5, "table": 0.6}


def _code(command: str) -> str:
    return f"import sys; from {MAINS[command]} import main; sys.exit(main())"


def _env(tree: Path | None, state: Path) -> dict[str, str]:
    return installed_env(
        XDG_STATE_HOME=str(state), TERM="xterm", PROMPT_TOOLKIT_NO_CPR="1", PYTHONPATH=str(tree or ROOT)
    )


def _run(argv: list[str], env: dict[str, str], cwd: Path) -> float:
    started = time.perf_counter()
    subprocess.run(argv, env=env, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    return time.perf_counter() - started


def _prompt(argv: list[str], env: dict[str, str], cwd: Path) -> float:
    """Seconds from spawning ``argv`` on a pseudo-terminal until the ``coup>`` prompt shows."""
    started = time.perf_counter()
    child = pexpect.spawn(argv[0], argv[1:], env=env, cwd=str(cwd), encoding="utf-8", timeout=30, dimensions=(40, 200))
    child.expect("coup>")
    seconds = time.perf_counter() - started
    child.sendcontrol("d")
    child.sendline("y")
    child.expect(pexpect.EOF)
    child.close()
    return seconds


def commands(tree: Path | None, work: Path) -> dict[str, tuple[str, list[str]]]:
    """Each timed command: (how it is timed, its argv) on ``tree`` (None: this checkout)."""
    py = sys.executable
    copy = work / "five-players.coup"
    shutil.copyfile(RECORD, copy)
    return {
        "python -c pass": ("run", [py, "-c", "pass"]),
        "coup --help": ("run", [py, "-c", _code("coup"), "--help"]),
        "spicy --help": ("run", [py, "-c", _code("spicy"), "--help"]),
        "tresor --help": ("run", [py, "-c", _code("tresor"), "--help"]),
        "coup replay (5 players)": ("run", [py, "-c", _code("coup"), "replay", str(RECORD)]),
        "coup replay --json (5 players)": ("run", [py, "-c", _code("coup"), "replay", "--json", str(RECORD)]),
        "coup table (new game)": ("prompt", [py, "-c", _code("coup"), "table", str(work / "new.coup")]),
        "coup table (5-player record)": ("prompt", [py, "-c", _code("coup"), "table", str(copy)]),
    }


def target(name: str) -> float | None:
    """The issue's target for a command, if it has one."""
    if "--help" in name:
        return TARGETS["help"]
    if name.startswith("coup replay (") or name.startswith("coup replay --json"):
        return TARGETS["replay"]
    if name.startswith("coup table"):
        return TARGETS["table"]
    return None


def measure(trees: dict[str, Path | None], repeat: int) -> dict[str, dict[str, float]]:
    """Median seconds of each command on each tree, runs interleaved so that all see the same
    machine."""
    times: dict[str, dict[str, list[float]]] = {label: {} for label in trees}
    with tempfile.TemporaryDirectory() as tmp:
        for run in range(repeat + 1):
            for label, tree in trees.items():
                work = Path(tmp) / label
                work.mkdir(exist_ok=True)
                (work / "new.coup").unlink(missing_ok=True)
                env = _env(tree, work / "state")
                for name, (how, argv) in commands(tree, work).items():
                    seconds = (_prompt if how == "prompt" else _run)(argv, env, work)
                    (work / "new.coup").unlink(missing_ok=True)
                    if run:  # the first run compiles the bytecode
                        times[label].setdefault(name, []).append(seconds)
    return {label: {n: round(statistics.median(s), 3) for n, s in rows.items()} for label, rows in times.items()}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--baseline", metavar="DIR", help="also time another checkout (e.g. /work/main)")
    args = parser.parse_args()
    trees: dict[str, Path | None] = {"this": None}
    if args.baseline:
        trees["baseline"] = Path(args.baseline).resolve()
    figures = measure(trees, args.repeat)
    ours = figures["this"]
    met = {name: seconds < limit for name, seconds in ours.items() if (limit := target(name)) is not None}
    for name, seconds in ours.items():
        limit = target(name)
        goal = f"  (target < {limit} s: {'met' if met[name] else 'MISSED'})" if limit is not None else ""
        before = f"  baseline {figures['baseline'][name]:.3f} s" if "baseline" in figures else ""
        print(f"{name:<32} {seconds:6.3f} s{before}{goal}")
    if args.json:
        report: dict[str, object] = {"seconds": ours, "targets_met": met, "all_met": all(met.values())}
        if "baseline" in figures:
            report["baseline_seconds"] = figures["baseline"]
        print(json.dumps(report))
    return 0


if __name__ == "__main__":
    sys.exit(main())
