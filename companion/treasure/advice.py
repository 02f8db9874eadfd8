"""What the prompt says after a line: the points it scored, the "deux cartes" moment, a bidding
round opened, the end and the final score, what the table waits for, and advice for the
tracked seat (its best placement when its turn comes, its best bid when a round opens), all
read from the table before and after the line.

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
from typing import TYPE_CHECKING

from solver.treasure import BidValue, PlacementValue, Score
from solver.treasure.rules import emptying_bonus

from ..figures import value
from ..tracked import Event, Message, Said, Waiting
from .language import MARKERS, Line, Verb

if TYPE_CHECKING:
    from .tracker import Table


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


def events(before: Table, after: Table, line: Line) -> tuple[Event, ...]:
    """Everything worth saying about ``line``, which took the table from ``before`` to ``after``."""
    out: list[Event] = []
    if before.state is None and after.state is not None:
        out.append(Said(f"the table is set; first to play: {after.turn}"))
    out += _turn_events(before, after, line)
    if after.state is not None and after.deux_cartes and (before.state is None or not before.deux_cartes):
        sizes = after.hand_sizes()
        low = min(range(len(sizes)), key=sizes.__getitem__)
        down = f"{after.names[low]} is down to {sizes[low]} card{'s' * (sizes[low] != 1)}"
        out.append(Said(f"deux cartes: {down}; from now on everyone must place when they can", "flag"))
    if line.verb is Verb.NEURO:
        out.append(Said(f"{line.player} opens a bidding round: {line.player} bids first, then clockwise"))
    if after.ended and not before.ended:
        out.append(Said("the domain is finished: now the removed card (removed CARD) and each bidder's reveal"))
    final = after.final()
    if final is not None and final != before.final():
        out.append(Final(after.names, final, after.winners()))
    elif after.waiting is not None and after.state is not None and (after.ended or line.verb is Verb.NEURO):
        out.append(Waiting(after.waiting))
    out += _advice(before, after, line)
    return tuple(out)


def _turn_events(before: Table, after: Table, line: Line) -> list[Event]:
    if line.verb not in (Verb.PLACE, Verb.PASS) or before.state is None or after.state is None:
        return []
    seat = after.seat(str(line.player))
    gained = after.vp()[seat] - before.vp()[seat]
    who = after.names[seat]
    if line.verb is Verb.PASS:
        return [Said(f"{who} passes: {value(gained)} VP")]
    out: list[Event] = []
    if not after.state.hands[seat]:
        bonus = emptying_bonus(sum(1 for h in before.state.hands if not h))
        out.append(Said(f"{who} {value(gained - bonus)} VP, and has no card left: +{bonus} VP"))
    elif gained:
        out.append(Said(f"{who} {value(gained)} VP"))
    return out


def _advice(before: Table, after: Table, line: Line) -> list[Event]:
    """The seat's best placement when its turn comes, its best bid when a round opens."""
    s, me = after.state, after.me
    if s is None or me is None or s.ended():
        return []
    new_turn = before.state is None or line.verb in (Verb.PLACE, Verb.PASS)
    if new_turn and after.turn == after.names[me]:
        best = after.placement_values()
        if best:
            return [Advice(f"your turn, best: {placement_text(best[0])} ('placements' lists them all)")]
        return [Advice("your turn: no legal placement, you can only pass")]
    if line.verb is Verb.NEURO and s.markers[me]:
        bids = after.bid_values()
        if bids:
            return [Advice(f"a round is open, your best: {bid_text(bids[0])} ('bids' lists them all)")]
    return []
