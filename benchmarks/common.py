"""What the benchmark scripts share: a win rate's confidence interval, and the time a table
takes per typed line (the line applied, then the whole JSON table, as the prompt does).

Run a script as ``python benchmarks/NAME.py``: this module is found beside it.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from typing import Any


def wilson(wins: int, games: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a win rate (a float is fine here: it is a statistic of
    the benchmark, not a probability the companion reports)."""
    if games == 0:
        return 0.0, 1.0
    p = wins / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return centre - half, centre + half


def time_lines(
    text: str, table: Any, view: Callable[[Any], object], each: Callable[[Any], None] = lambda t: None
) -> list[float]:
    """Seconds per line of the record ``text`` from ``table``: the line applied, then
    ``view(table)`` (the whole JSON table); ``each(table)`` after each line (not timed)."""
    times = []
    for number, raw in enumerate(text.splitlines(), start=1):
        start = time.perf_counter()
        after = table.apply_text(raw, number)
        if after is not table:
            view(after)
            times.append(time.perf_counter() - start)
        table = after
        each(table)
    return times
