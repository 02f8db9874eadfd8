"""A picture of the domain: in the terminal, a grid whose cells have the card's background as
their colour, its nature as a symbol (♥ coeur, ★ etoile, ✿ rose), its force as a digit and its
owner as a letter (``*`` the start card); and with matplotlib a PNG of the domain, its owners
and the chance that each domain card is the treasure, as a heat map.

The grid is one list of prompt_toolkit style fragments; the same fragments give the ANSI text
of a terminal and the plain text of a pipe or a test.

>>> from solver.treasure import Deck
>>> from companion.treasure.tracker import replay
>>> t = replay("game tresor\\nplayers Ana Ben\\nme Ana\\nhand 1cn 1ev 1ev\\nstart 1cv\\n"
...            "Ana place 1cn at 0 1\\n", Deck(1, 2, 2))
>>> print(grid_text(t))
     0    1
 0   1♥v* 1♥nA
owners: A Ana, B Ben; * the start card
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from solver.treasure.cards import BACKGROUNDS, NATURES

from .tracker import Table

Fragment = tuple[str, str]

SYMBOLS = {"coeur": "♥", "etoile": "★", "rose": "✿"}
"""The nature of a card as one symbol."""
STYLES = {"noir": "bg:#202020 #ffffff", "vert": "bg:#2e8b57 #000000", "bleu": "bg:#2050c0 #ffffff"}
"""The background of a card as the colour of its cell (prompt_toolkit styles)."""
ANSI = {"noir": "\x1b[48;5;235;97m", "vert": "\x1b[42;30m", "bleu": "\x1b[44;97m"}
"""The same colours as ANSI escape codes."""
PLOT_COLOURS = {"noir": "#303030", "vert": "#2e8b57", "bleu": "#2050c0"}
RESET = "\x1b[0m"
WIDTH = 5


def owner_letter(table: Table, owner: int) -> str:
    """``A`` for the first seat, ``B`` for the second... and ``*`` for the start card."""
    return chr(ord("A") + owner) if 0 <= owner < len(table.names) else "*"


def fragments(table: Table) -> list[Fragment]:
    """The grid as (style, text) fragments: a header of column numbers, then one line per open
    row, each cell ``force, symbol, background initial, owner``; then the owners' legend."""
    if table.state is None:
        return [("", "no domain yet\n")]
    domain = table.state.domain
    rows = sorted({t.row for t in domain.tiles})
    cols = range(min(t.col for t in domain.tiles), max(t.col for t in domain.tiles) + 1)
    out: list[Fragment] = [("", "    " + "".join(f" {c:<{WIDTH - 1}}" for c in cols) + "\n")]
    for r in range(rows[0], rows[-1] + 1):
        out.append(("", f"{r:>2}  "))
        for c in cols:
            tile = domain.at(r, c)
            if tile is None:
                out.append(("", " " * WIDTH))
                continue
            card, background = tile.card, BACKGROUNDS[tile.card.background]
            text = f"{card.force}{SYMBOLS[NATURES[card.nature]]}{background[0]}{owner_letter(table, tile.owner)}"
            out += [("", " "), (STYLES[background], text)]
        out.append(("", "\n"))
    legend = ", ".join(f"{owner_letter(table, seat)} {name}" for seat, name in enumerate(table.names))
    out.append(("", f"owners: {legend}; * the start card\n"))
    return out


def grid_text(table: Table, colour: bool = False) -> str:
    """The grid as text: with ANSI colours when ``colour``, else plain (no trailing spaces)."""
    if not colour:
        text = "".join(text for _, text in fragments(table))
        return "\n".join(line.rstrip() for line in text.rstrip("\n").split("\n"))
    ansi = {style: ANSI[name] for name, style in STYLES.items()}
    return "".join(f"{ansi[style]}{text}{RESET}" if style else text for style, text in fragments(table)).rstrip("\n")


def plot(table: Table, path: str | Path) -> None:
    """Write a PNG of the domain (cells in their background colour, card and owner written in
    them) beside a heat map of the chance that each domain card is the treasure, from the seat
    (or a spectator). Raises GameError before the set-up is complete, or without matplotlib."""
    from ..plots import save

    save(figure(table), path)


def figure(table: Table) -> Any:
    """The picture of :func:`plot` (a matplotlib figure), legible at any size of domain: a
    minimum size, titles laid out so that they are never cut."""
    from solver.errors import GameError

    from ..plots import pyplot

    if table.state is None:
        raise GameError(f"no domain yet: the table waits for {table.waiting}")
    plt = pyplot()
    import numpy as np
    from matplotlib.patches import Rectangle

    tiles = table.state.domain.tiles
    r0, c0 = min(t.row for t in tiles), min(t.col for t in tiles)
    height, width = max(t.row for t in tiles) - r0 + 1, max(t.col for t in tiles) - c0 + 1
    chance = {t.cell: p for t, p in table.treasure_cells()}
    heat = np.full((height, width), np.nan)
    size = (max(8.0, 2.4 + 1.2 * width), max(3.4, 1.4 + 0.7 * height))
    fig, (left, right) = plt.subplots(1, 2, figsize=size, squeeze=True, layout="constrained")
    for t in tiles:
        background = BACKGROUNDS[t.card.background]
        x, y = t.col - c0, t.row - r0
        left.add_patch(Rectangle((x, y), 0.95, 0.95, color=PLOT_COLOURS[background]))
        label = f"{t.card}\n{owner_letter(table, t.owner)}"
        left.text(x + 0.47, y + 0.5, label, ha="center", va="center", color="white", fontsize=9)
        heat[y, x] = float(chance.get(t.cell, 0))  # a picture only: the figures are exact elsewhere
        if t.cell in chance:
            right.text(x, y, str(chance[t.cell]), ha="center", va="center", fontsize=8)
    left.set_xlim(0, width)
    left.set_ylim(height, 0)
    left.set_aspect("equal")
    left.set_title("domain (letter: owner)", fontsize=10)
    image = right.imshow(heat, cmap="YlOrRd", vmin=0, vmax=1)
    seat = "a spectator" if table.me is None else table.names[table.me]
    right.set_title(f"chance to be the treasure\n(seen by {seat})", fontsize=10)
    fig.colorbar(image, ax=right, shrink=0.8)
    for axes in (left, right):
        axes.set_xticks(range(width), [str(c0 + i) for i in range(width)], fontsize=7)
        axes.set_yticks(range(height), [str(r0 + i) for i in range(height)], fontsize=7)
    left.set_xticks([i + 0.47 for i in range(width)], [str(c0 + i) for i in range(width)], fontsize=7)
    left.set_yticks([i + 0.47 for i in range(height)], [str(r0 + i) for i in range(height)], fontsize=7)
    return fig
