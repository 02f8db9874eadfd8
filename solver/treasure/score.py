"""The final score by part: VP of play, connected sets, cards left in hand, bids; and the winner.

>>> from solver.treasure.state import State
>>> s = State.from_text("tresor deck=1x2x2 Ana:6:1en:0111NBF Ben:5:1cn1ev:0111NB removed=1cv "
...                     "domain=0,0:1cv;0,1:1cn:Ana;1,0:1ev:Ben;1,1:1en:Ana cartons=1111111112345 "
...                     "bids=Ben:1@0,0:F phase=over")
>>> s.final()
(Score(play=6, sets=0, hand=0, bids=0, total=6), Score(play=5, sets=-1, hand=-1, bids=1, total=4))
>>> s.winners()
(0,)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from .rules import Marker, hand_penalty

if TYPE_CHECKING:
    from .state import State


class Score(NamedTuple):
    """One player's final score by part; ``total`` is their sum."""

    play: int  # start, extra card, placements, passes, emptying bonuses, breaches
    sets: int  # connected sets: n - 2 per set of n cards
    hand: int  # cards left in hand: 0, -1, -5 or -20
    bids: int  # the bids' scores
    total: int


def bid_scores(s: State) -> tuple[int, ...] | None:
    """Per seat, what their bids score, once the removed card and every marker are known; else None."""
    treasure = s.treasure()
    if treasure is None or any(b.marker is Marker.UNKNOWN for b in s.bids):
        return None
    totals = [0] * len(s.names)
    for b in s.bids:
        tile = s.domain.at(b.row, b.col)
        assert tile is not None
        totals[b.player] += b.score(tile.card, treasure)
    return tuple(totals)


def final_scores(s: State) -> tuple[Score, ...] | None:
    """Each player's :class:`Score` once the game has ended, the removed card is shown and every
    bid's marker is known; else None."""
    from .state import Phase

    if s.turn.phase < Phase.REVEAL:
        return None
    bids = bid_scores(s)
    if bids is None:
        return None
    sets = s.domain.set_scores()
    scores = []
    for seat, play in enumerate(s.vp):
        parts = (play, sets.get(seat, 0), hand_penalty(len(s.hands[seat])), bids[seat])
        scores.append(Score(*parts, total=sum(parts)))
    return tuple(scores)


def winners(s: State) -> tuple[int, ...]:
    """The seats with the highest total, once :func:`final_scores` is known (several when tied); else ()."""
    scores = final_scores(s)
    if scores is None:
        return ()
    best = max(score.total for score in scores)
    return tuple(seat for seat, score in enumerate(scores) if score.total == best)
