"""What the benchmark scripts share: the time a table takes
per typed line (the line applied, then the whole JSON table, as the prompt does), and the same
for the naive way: the independent brute force of the tests replaying the record up to each line.

Run a script as ``python benchmarks/NAME.py``: this module is found beside it.
"""

from __future__ import annotations

import resource
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any


def time_lines(
    text: str,
    table: Any,
    view: Callable[[Any], object],
    each: Callable[[Any], None] = lambda t: None,
    budget: float = float("inf"),
) -> list[float]:
    """Seconds per line of the record ``text`` from ``table``: the line applied, then
    ``view(table)`` (the whole JSON table); ``each(table)`` after each line (not timed); the
    lines up to ``budget`` seconds in all."""
    times: list[float] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        start = time.perf_counter()
        after = table.apply_text(raw, number)
        if after is not table:
            view(after)
            times.append(time.perf_counter() - start)
        table = after
        each(table)
        if sum(times) > budget:
            break
    return times


NAIVE = """
import importlib, sys, time
sys.path.insert(0, sys.argv[1])
brute_replay = importlib.import_module("reference." + sys.argv[2]).brute_replay
lines = sys.stdin.read().splitlines()
for cut in range(1, len(lines) + 1):
    if not lines[cut - 1].strip() or lines[cut - 1].lstrip().startswith("#"):
        continue
    start = time.perf_counter()
    brute_replay("".join(line + "\\n" for line in lines[:cut]))
    print(time.perf_counter() - start, flush=True)
"""
MEMORY = 4 << 30
"""Bytes a baseline run in a subprocess may take (beyond, it is over its budget: one line of a
brute force over every deal of a 6-player table whose cards were exchanged took 15 GB)."""


def bounded(
    args: list[str], text: str, timeout: float, memory: int = MEMORY, **options: Any
) -> subprocess.CompletedProcess[str] | None:
    """Run ``args`` with ``text`` on its input, its output captured, stopped after ``timeout``
    s or at ``memory`` bytes (a MemoryError in it, rather than a shared machine out of memory);
    None if it ran out of time."""

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (memory, memory))

    try:
        return subprocess.run(
            args, input=text, capture_output=True, text=True, timeout=timeout, preexec_fn=limit, **options
        )
    except subprocess.TimeoutExpired:
        return None


def time_naive(text: str, reference: str, budget: float = 60.0) -> list[float] | None:
    """Seconds per line for the naive way: ``brute_replay`` of the module ``reference`` of
    ``tests/reference`` (written from the spec alone, every hidden deal enumerated) replaying the
    record up to each line, in a subprocess stopped after ``budget`` s (its start-up aside) or at
    :data:`MEMORY` bytes. None if it cannot run, or goes over either."""
    tests = str(Path(__file__).parent.parent / "tests")
    done = bounded([sys.executable, "-c", NAIVE, tests, reference], text, budget + 5)
    if done is None:
        return None
    times = [float(x) for x in done.stdout.split()]
    if done.returncode != 0 or sum(times) > budget:
        return None
    return times


def against_naive(ours: list[float], naive: list[float] | None) -> dict[str, float]:
    """The naive way's figures beside ours (milliseconds, and how many times as long in all);
    empty when the naive way did not finish."""
    if not naive:
        return {}
    return {
        "naive_median_ms": round(1000 * sorted(naive)[len(naive) // 2], 3),
        "naive_worst_ms": round(1000 * max(naive), 3),
        "naive_over_ours": round(sum(naive) / sum(ours), 1),
    }


def naive_text(naive: dict[str, float]) -> str:
    """One line for a person: the naive way's figures (:func:`against_naive`)."""
    if not naive:
        return "naive (the tests' brute force replaying up to each line): over its budget"
    return (
        f"naive (the tests' brute force replaying up to each line): median {naive['naive_median_ms']} ms, "
        f"worst {naive['naive_worst_ms']} ms; {naive['naive_over_ours']}x ours in all"
    )


def installed_env(**extra: str) -> dict[str, str]:
    """The environment of a command timed as a person runs it after installing: bytecode
    cached (pip compiles it at install; here in a folder of its own, so that no checkout is
    written to), whatever ``PYTHONDONTWRITEBYTECODE`` the developer's shell sets."""
    import os
    import tempfile

    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPYCACHEPREFIX"] = str(Path(tempfile.gettempdir()) / "companion-benchmark-bytecode")
    env.update(extra)
    return env
