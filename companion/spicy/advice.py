"""What the prompt says after a line, as typed events (each with ``message()``): a claim's exact
odds, its flag, the challenge advice, what a last card's trophy would mean, a challenge's chance
and outcome, the seat's true plays on its turn, what the table waits for, the end.

Every probability is shown as :mod:`companion.figures` writes it (a percentage, with its exact
fraction beside it when short).

>>> Trophy("Ben", 1).message()
('info', 'nobody challenges: Ben takes a trophy (1 now)')

"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from solver.spicy import Card, Claim, Trait
from solver.spicy.odds import UNLIKELY_BELOW, Advice, Level, unlikely_reason

from ..figures import probability
from ..tracked import Message, Style
from .ledger import ChallengeNote, ClaimNote


@dataclass(frozen=True)
class Priced:
    """Another player's claim, priced the moment it is typed, under both models."""

    note: ClaimNote

    def message(self) -> Message:
        odds, n = self.note.odds, self.note
        assert odds is not None
        h, r = odds.honest, odds.random
        return "info", (
            f"{n.player}'s {n.claim}: true with {probability(h.both)} if honest when able "
            f"(spice {probability(h.spice)}, number {probability(h.number)}); {probability(r.both)} for any card"
        )


@dataclass(frozen=True)
class Flagged:
    """A claim flagged ``impossible``, ``bluff`` or ``unlikely``, with the counts as reason."""

    note: ClaimNote
    threshold: Fraction = UNLIKELY_BELOW

    def message(self) -> Message:
        flag, n = self.note.flag, self.note
        assert flag is not None
        style: Style = "impossible" if flag.level is Level.IMPOSSIBLE else "flag"
        if flag.level is not Level.UNLIKELY or n.odds is None:
            return style, f"{flag.level}: {n.player}'s {n.claim}: {flag.reason}"
        chance = probability(flag.probability, marks=[self.threshold])
        reason = unlikely_reason(n.odds, probability)
        return style, f"{flag.level}: {n.player}'s {n.claim} (true with {chance}): {reason}"


@dataclass(frozen=True)
class Advised:
    """Which trait to challenge, its chance of being false and the stake."""

    advice: Advice
    claimant: str

    def message(self) -> Message:
        return "info", f"advice: {self.advice.text(self.claimant, probability)}"


@dataclass(frozen=True)
class LastCard:
    """What the trophy of a last card would mean if nobody challenges it."""

    player: str
    trophies: int  # the player's trophies with this one
    ends: str | None  # how the game would end with it (None: it goes on)

    def message(self) -> Message:
        if self.ends is not None:
            return "flag", f"{self.player}'s last card: if nobody challenges, {self.player} {self.ends}"
        return "info", (
            f"{self.player}'s last card: if nobody challenges, {self.player} takes a trophy "
            f"({self.trophies} so far then) and draws a new hand"
        )


@dataclass(frozen=True)
class Challenged:
    """A challenge as typed: the chance, as the seat saw it just before, that the trait is false."""

    note: ChallengeNote
    known: bool  # the seat's own card: the outcome was certain

    def message(self) -> Message:
        n = self.note
        what = f"{n.challenger} challenges {n.claimant}'s {n.claim} on {n.trait}"
        if self.known:
            return "info", f"{what}: {'false' if n.chance == 1 else 'true'}, as you know"
        return "info", f"{what}: false with {probability(n.chance)}" if n.chance is not None else what


@dataclass(frozen=True)
class Resolved:
    """A challenge decided: the card, who was right, who takes the pile and who draws."""

    note: ChallengeNote
    trophy: bool  # the card's player took a trophy with it

    def message(self) -> Message:
        n = self.note
        assert n.card is not None
        if n.succeeded:
            why = _false(n.card, n.trait, n.claim)
            return "info", (
                f"{n.challenger} was right: {n.claimant}'s card is {n.card}, {why}; {n.challenger} takes the "
                f"{n.pile}-card pile, {n.claimant} draws 2 and starts the next pile"
            )
        trophy = " and a trophy" if self.trophy else ""
        return "info", (
            f"{n.challenger} was wrong: {n.claimant}'s card is {n.card}, true on {n.trait}; {n.claimant} takes "
            f"the {n.pile}-card pile{trophy}, {n.challenger} draws 2 and starts the next pile"
        )


def _false(card: Card, trait: Trait, claim: Claim) -> str:
    if trait is Trait.SPICE:
        return f"not {claim.spice}"
    return f"not a {claim.number}"


@dataclass(frozen=True)
class Trophy:
    """An unchallenged last card: its player takes a trophy."""

    player: str
    trophies: int

    def message(self) -> Message:
        return "info", f"nobody challenges: {self.player} takes a trophy ({self.trophies} now)"


@dataclass(frozen=True)
class YourTurn:
    """The seat is to play: the cards of its hand that make a true legal claim now."""

    plays: Sequence[tuple[Card, Claim]]

    def message(self) -> Message:
        if not self.plays:
            return "info", "your turn: no card of yours is true on a legal claim now (bluff or pass)"
        shown = ", ".join(f"play {card} as {claim}" for card, claim in self.plays)  # as the seat types it
        return "info", f"your turn: true plays now: {shown}"
