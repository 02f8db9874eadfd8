"""The public ledger of a Spicy table: every claim as it was typed (with its odds and flag, as
the seat saw them at that moment) and every challenge (its chance, then its outcome). The
flags of ``replay --json``, the analysis and the bots read it.

>>> from solver.spicy import Claim, Spice, Trait
>>> ledger = Ledger().claimed(ClaimNote(5, "Ben", Claim(Spice.CHILI, 2), None, 6, 1))
>>> note = ChallengeNote(6, "Ana", "Ben", Claim(Spice.CHILI, 2), 5, Trait.NUMBER, Fraction(1, 3), 1, False)
>>> ledger = ledger.challenged(note).revealed(Card.parse("wasabi-2"))
>>> ledger.challenges[-1].succeeded, ledger.top().line
(False, 5)
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction

from solver.spicy import Card, Claim, Trait, true_on
from solver.spicy.odds import ClaimOdds, Flag


@dataclass(frozen=True)
class ClaimNote:
    """One claim as typed: its record ``line``, who made it, the claim and the claim it followed,
    the claimant's hand just before (``hand``), the pile's size with it; the seat's own ``card``
    (known), or for another player the ``odds`` and ``flag`` at that moment."""

    line: int
    player: str
    claim: Claim
    follows: Claim | None
    hand: int
    pile: int
    card: Card | None = None
    odds: ClaimOdds | None = None
    flag: Flag | None = None
    taken_back: bool = False

    @property
    def last(self) -> bool:
        """True for the last card of its player's hand."""
        return self.hand == 1


@dataclass(frozen=True)
class ChallengeNote:
    """One challenge: its line, the challenger and the claimant, the claim (and its line), the
    trait named, the chance that trait was false as the seat saw it just before (exact 0 or 1 for
    the seat's own card), the pile at stake, whether it was a last card; the card turned over
    once known."""

    line: int
    challenger: str
    claimant: str
    claim: Claim
    claim_line: int
    trait: Trait
    chance: Fraction | None  # None on a table that does not price (a bot's)
    pile: int
    last: bool
    card: Card | None = None

    @property
    def succeeded(self) -> bool | None:
        """True if the named trait was false (the challenger won); None until the card is known."""
        return None if self.card is None else not true_on(self.card, self.trait, self.claim)


@dataclass(frozen=True)
class Ledger:
    """Every claim and challenge so far, in order."""

    claims: tuple[ClaimNote, ...] = ()
    challenges: tuple[ChallengeNote, ...] = ()

    def __repr__(self) -> str:
        return f"<Ledger {len(self.claims)} claims, {len(self.challenges)} challenges>"

    def claimed(self, note: ClaimNote) -> Ledger:
        return replace(self, claims=(*self.claims, note))

    def challenged(self, note: ChallengeNote) -> Ledger:
        return replace(self, challenges=(*self.challenges, note))

    def revealed(self, card: Card) -> Ledger:
        """The last challenge with its card turned over."""
        last = replace(self.challenges[-1], card=card)
        return replace(self, challenges=(*self.challenges[:-1], last))

    def taken_back(self) -> Ledger:
        """The top claim marked as taken back (the card returned to its player's hand)."""
        i = self._top_index()
        claims = list(self.claims)
        claims[i] = replace(claims[i], taken_back=True)
        return replace(self, claims=tuple(claims))

    def top(self) -> ClaimNote:
        """The claim of the pile's top card: the last one not taken back (only while the pile
        has cards)."""
        return self.claims[self._top_index()]

    def _top_index(self) -> int:
        return next(i for i in range(len(self.claims) - 1, -1, -1) if not self.claims[i].taken_back)

    def flags(self) -> tuple[ClaimNote, ...]:
        """The flagged claims, in order."""
        return tuple(c for c in self.claims if c.flag is not None)
