"""Progress bars for long work: shown on a terminal, silent with ``--json`` or when piped.

>>> with progress("counting", total=3, quiet=True) as tick:
...     for _ in range(3):
...         tick()
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager


@contextmanager
def progress(label: str, total: int | None = None, quiet: bool = False) -> Iterator[Callable[[], None]]:
    """Yield a ``tick()`` that advances a prompt_toolkit progress bar by one step.

    The bar is drawn only when standard output is a terminal and ``quiet`` is false.
    """
    if quiet or not sys.stdout.isatty():
        yield lambda: None
        return
    from prompt_toolkit.shortcuts import ProgressBar
    from prompt_toolkit.shortcuts.progress_bar.base import ProgressBarCounter

    with ProgressBar() as bar:
        counter: ProgressBarCounter[None] = bar(label=label, total=total)

        def tick() -> None:
            counter.item_completed()

        yield tick
        counter.done = True
