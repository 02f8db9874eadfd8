"""How the table says its advice and the final score: a placement's and a bid's words, the
seat's advice, the final score by part. The tracker (:meth:`~companion.treasure.tracker.Table.apply`)
says them as it applies a line, with the other events (points, deux cartes, a round opened, the
end, what the table waits for); this module knows no table.

>>> from companion.treasure.tracker import Table
>>> t = Table.new()
>>> for text in ("players Ana Ben Cleo Dan Eve Finn Gus Hana", "me Hana", "start 2cv"):
...     t = t.apply_text(text)
>>> after, said = t.apply_line("hand 1cn 1cn 1cv 1cv 1cb 1cb", 4)
>>> [event.message() for event in said][0]
('info', 'the table is set; first to play: Ana')
"""

from __future__ import annotations

from dataclasses import dataclass

from solver.treasure import BidValue, PlacementValue, Score

from ..figures import value
from ..tracked import Message, Said
from .language import MARKERS


def placement_text(p: PlacementValue) -> str:
    """``'place 1cn at 0 1 (+1 VP, sets +1)'``: the move as the seat types it, then its worth."""
    return f"place {p.card} at {p.row} {p.col} ({value(p.vp)} VP, sets {value(p.sets)})"


def bid_text(b: BidValue) -> str:
    """``'bid 5 on 0 1 with nature, worth +3.33'`` (exactly ``+10/3`` inside
    :func:`~companion.figures.exact`): the move as the seat types it, then its worth."""
    return f"bid {b.base} on {b.row} {b.col} with {MARKERS.english(b.marker)}, worth {value(b.value)}"


@dataclass(frozen=True)
class Advice(Said):
    """Advice for the tracked seat: its best placement or bid."""


@dataclass(frozen=True)
class Final:
    """The final score by part and the winner."""

    names: tuple[str, ...]
    scores: tuple[Score, ...]
    winners: tuple[str, ...]

    def message(self) -> Message:
        rows = ["final score (play + sets + hand + bids = total):"]
        for name, s in zip(self.names, self.scores, strict=True):
            parts = f"{s.play} {value(s.sets)} {value(s.hand)} {value(s.bids)}"
            rows.append(f"  {name:<10} {parts} = {s.total}")
        won = " and ".join(self.winners)
        rows.append(f"{won} {'wins' if len(self.winners) == 1 else 'tie'}")
        return "over", "\n".join(rows)
