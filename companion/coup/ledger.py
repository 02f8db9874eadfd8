"""The public ledger of a Coup table: every claim and what became of it, every challenge with
its chance and result, and the cards turned face up in the order they were turned. What anyone
at the table could write down; what the seat *knows* is in :mod:`companion.coup.knowledge`.

>>> from solver.coup import Character
>>> ledger = Ledger.empty(2).turned(1, Character.DUKE)
>>> ledger.face_up
((), (Character.DUKE,))
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Literal

from solver.coup import Character, Kind, Move, Phase, State
from solver.coup.counting import Odds

Level = Literal["impossible", "unlikely"]
"""How a claim is flagged: the claimant held the character with probability 0, or below the threshold."""
Because = Literal["count", "assumption"]
"""Why: the copies alone make it so, or only the behavioural assumption about failed proofs."""
Outcome = Literal["proved", "caught", "unchallenged"]
"""What became of a claim: shown when challenged, caught (challenged and not shown), or let stand."""
OUTCOMES: tuple[Outcome, ...] = ("proved", "caught", "unchallenged")


@dataclass(frozen=True)
class Claim:
    """A claim (an action's or a block's), how likely it was true, and what became of it."""

    line: int
    player: str
    character: Character
    block: bool
    probability: Fraction  # that the claimant held the character, just before the claim
    level: Level | None
    because: Because | None  # when flagged
    reason: str  # in words, when flagged
    outcome: Outcome | None = None  # None while open
    flagged: bool = False  # reported in `flags` (claims by other players, or all for a spectator)
    # what it was judged on, to judge it again when an assumption is dropped: the chance per
    # assumption mask (None for the seat's own claims), the copies in words then
    odds: Odds | None = field(default=None, compare=False, repr=False)
    count_reason: str = field(default="", compare=False, repr=False)


@dataclass(frozen=True)
class ChallengeNote:
    """A challenge, how likely it was to succeed, and whether it did."""

    line: int
    challenger: str
    claimant: str
    character: Character
    success_probability: Fraction
    succeeded: bool | None = None
    odds: Odds | None = field(default=None, compare=False, repr=False)  # the claim's, per assumption mask


@dataclass(frozen=True)
class Ledger:
    """Claims, challenges and face-up cards (per seat, in the order turned). Immutable."""

    claims: tuple[Claim, ...] = ()
    challenges: tuple[ChallengeNote, ...] = ()
    face_up: tuple[tuple[Character, ...], ...] = ()

    def __repr__(self) -> str:
        return f"<Ledger {len(self.claims)} claims, {len(self.challenges)} challenges>"

    @classmethod
    def empty(cls, players: int) -> Ledger:
        return cls(face_up=tuple(() for _ in range(players)))

    def claimed(self, claim: Claim) -> Ledger:
        return replace(self, claims=(*self.claims, claim))

    def challenged(self, note: ChallengeNote) -> Ledger:
        return replace(self, challenges=(*self.challenges, note))

    def turned(self, seat: int, card: Character) -> Ledger:
        face_up = list(self.face_up)
        face_up[seat] = (*face_up[seat], card)
        return replace(self, face_up=tuple(face_up))

    def after(self, before: State, after: State, move: Move) -> Ledger:
        """The ledger once ``move`` took ``before`` to ``after``: claim outcomes, challenge
        results, the card turned face up."""
        t = before.turn
        ledger = self
        if move.kind is Kind.PROVE:
            ledger = ledger._resolved("proved")._challenge_result(False)
        elif move.kind is Kind.LOSE and t.phase is Phase.PROOF:
            ledger = ledger._resolved("caught")._challenge_result(True)
        elif move.kind is Kind.PASS:
            closed = after.turn.phase is not t.phase or after.turn.actor != t.actor
            if closed and t.phase in (Phase.CHALLENGE, Phase.BLOCK_CHALLENGE):
                ledger = ledger._resolved("unchallenged")
        if move.kind is Kind.LOSE:
            ledger = ledger.turned(move.player, move.card)
        return ledger

    def _resolved(self, outcome: Outcome) -> Ledger:
        for i in range(len(self.claims) - 1, -1, -1):
            if self.claims[i].outcome is None:
                claims = list(self.claims)
                claims[i] = replace(claims[i], outcome=outcome)
                return replace(self, claims=tuple(claims))
        return self

    def _challenge_result(self, succeeded: bool) -> Ledger:
        if not self.challenges or self.challenges[-1].succeeded is not None:
            return self
        notes = list(self.challenges)
        notes[-1] = replace(notes[-1], succeeded=succeeded)
        return replace(self, challenges=tuple(notes))

    def flags(self) -> list[Claim]:
        """The flagged claims, in order."""
        return [c for c in self.claims if c.flagged and c.level is not None]

    def history(self, name: str) -> str:
        """``'3 (1 proved, 1 caught, 1 unchallenged)'``: a player's claims and what became of them."""
        claims = [c for c in self.claims if c.player == name]
        if not claims:
            return ""
        counts = {o: sum(1 for c in claims if c.outcome == o) for o in OUTCOMES}
        details = ", ".join(f"{n} {o}" for o, n in counts.items() if n)
        return f"{len(claims)}" + (f" ({details})" if details else "")
