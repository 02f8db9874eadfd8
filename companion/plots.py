"""Pictures, whatever the game (``--plot``): matplotlib is imported only when a picture is asked
for, and its absence is a one-line refusal naming the one extra that installs it, from a
checkout (``pip install -e .`` then the extra) as from an installed package.

>>> PLOT_EXTRA
'coup-companion[plot]'
>>> str(missing_matplotlib())
"--plot needs matplotlib: pip install 'coup-companion[plot]'"
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

from solver.errors import GameError

PLOT_EXTRA = "coup-companion[plot]"
"""The optional dependency that draws pictures: the project's name (pyproject.toml) and its
``plot`` extra. ``pip install 'coup-companion[plot]'`` adds matplotlib to an installed package,
editable checkouts included (pip keeps the installed project and installs the extra's
requirements); ``'.[plot]'`` works only from the checkout's folder."""


def missing_matplotlib() -> GameError:
    """The refusal when matplotlib is not installed."""
    return GameError(f"--plot needs matplotlib: pip install '{PLOT_EXTRA}'")


def pyplot() -> Any:
    """``matplotlib.pyplot`` on the file-only backend (no window). Raises GameError naming
    the extra when matplotlib is missing."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError as error:
        raise missing_matplotlib() from error
    return plt


def integer_ticks(axes: Iterable[Any], x: bool = True, y: bool = True) -> None:
    """Ticks at whole numbers only on the ``x`` and/or ``y`` axis of each of ``axes`` (lines,
    turns, coins, cards: no 2.5 coins)."""
    from matplotlib.ticker import MaxNLocator

    for ax in axes:
        if x:
            ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        if y:
            ax.yaxis.set_major_locator(MaxNLocator(integer=True))


def save(figure: Any, path: str | Path, dpi: int = 100) -> None:
    """Write ``figure`` to ``path`` (PNG, or the format its extension names) and free it. Raises
    FileError (:mod:`companion.files`) for a path that cannot be written. Figures are made with
    ``layout="constrained"``, so that no title or label is cut whatever their size."""
    import matplotlib.pyplot as plt

    from .files import save_figure

    try:
        figure.set_dpi(dpi)
        save_figure(figure, path)
    finally:
        plt.close(figure)
