"""Advice at the table: flags on claims with their reasons, the chance a challenge succeeds,
the pick to make in the draft; each said as an event the moment its line is typed.

>>> level(Fraction(0)), level(Fraction(1, 5)), level(Fraction(1, 2))
('impossible', 'unlikely', None)
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction
from typing import TYPE_CHECKING

from solver.coup import Character, deck
from solver.errors import GameError

from ..figures import probability
from ..tracked import Message, Said, Style
from .ledger import Because, ChallengeNote, Claim, Level

if TYPE_CHECKING:
    from .knowledge import Assumption
    from .tracker import Table

THRESHOLD = Fraction(1, 4)
"""Below this probability a claim is flagged "unlikely" (a setting)."""


def level(probability: Fraction, threshold: Fraction = THRESHOLD) -> Level | None:
    """``'impossible'`` for 0, ``'unlikely'`` below ``threshold``, else None."""
    if probability == 0:
        return "impossible"
    if probability < threshold:
        return "unlikely"
    return None


def count_reason(character: Character, total: int, face_up: int, mine: int, unseen: int, spectator: bool) -> str:
    """Why the copies alone make a claim impossible or unlikely, e.g.
    ``'2 dukes face up and 1 in your hand'``.

    >>> count_reason(Character.DUKE, 3, 2, 1, 0, False)
    '2 dukes face up and 1 in your hand'
    """
    name = character.name_en
    plural = f"{name}s"
    parts = []
    if face_up:
        parts.append(f"{face_up} {name if face_up == 1 else plural} face up")
    if mine:
        parts.append(f"{mine} in your hand")
    if unseen == 0:
        if parts:
            return " and ".join(parts)
        return f"all {total} {plural} are accounted for"
    seen = " and ".join(parts) if parts else "none seen"
    viewer = "" if spectator else " to you"
    return f"only {unseen} of {total} {plural} unseen{viewer} ({seen})"


def assumption_reason(player: str, character: Character) -> str:
    """Why only the behavioural assumption makes a claim impossible or unlikely."""
    return f"impossible if {player} had none when failing to prove {character.article}"


def copies_reason(table: Table, character: Character) -> str:
    """The count behind a flag: copies, face up, in the seat's hand, unseen."""
    total = deck(table.variant, len(table.names)).count(character)
    face_up = sum(cards.count(character) for cards in table.face_up)
    mine = table.my_cards().count(character)
    return count_reason(character, total, face_up, mine, table.unseen()[character], table.spectator)


def judge(table: Table, seat: int, character: Character, number: int, block: bool) -> Claim:
    """The claim of ``character`` by ``seat`` at line ``number``, judged just before it is
    applied: the chance it is true and, for another player's claim, its flag and reason."""
    odds = table.odds(seat, character)
    p = table.probability_holds(seat, character)
    claim = Claim(number, table.names[seat], character, block, p, None, None, "", flagged=seat != table.me)
    return rejudge(table, replace(claim, odds=odds, count_reason=copies_reason(table, character)))


def rejudge(table: Table, claim: Claim) -> Claim:
    """``claim`` judged under the assumptions ``table`` uses (the same as when it was made,
    but for those dropped since): its chance, flag and reason."""
    knowledge = table.knowledge
    assert knowledge is not None
    p = claim.probability if claim.odds is None else claim.odds.probability(knowledge.counts.active)
    lvl = level(p, table.threshold) if claim.flagged else None
    because: Because | None = None
    reason = ""
    if lvl is not None:
        active = [a for a in knowledge.active_assumptions(table.dropped) if a.line < claim.line]
        because, reason = _why(table, claim, lvl, active)
    return replace(claim, probability=p, level=lvl, because=because, reason=reason)


def _why(table: Table, claim: Claim, lvl: Level, active: list[Assumption]) -> tuple[Because, str]:
    """("count" or "assumption", the reason in words) for a flagged claim."""
    if not active or claim.odds is None or level(claim.odds.probability(), table.threshold) == lvl:
        return "count", claim.count_reason
    causes = [a for a in active if a.character is claim.character] or active
    return "assumption", assumption_reason(table.names[causes[-1].seat], causes[-1].character)


def cannot_hold(table: Table, seat: int, character: Character) -> str:
    """Why ``seat`` cannot have held a ``character``, in words (``table`` has the line's card
    face up already)."""
    unseen = table.unseen()[character]
    name = table.names[seat]
    if unseen > 0:
        return f"impossible: {name} cannot hold {character.article} (everything seen rules it out)"
    total = deck(table.variant, len(table.names)).count(character)
    face_up = sum(cards.count(character) for cards in table.face_up) + min(unseen, 0)  # before this line
    why = count_reason(character, total, face_up, table.my_cards().count(character), 0, table.spectator)
    return f"impossible: {name} cannot hold {character.article}: all {total} are accounted for ({why})"


def challenge_note(table: Table, number: int, challenger: int, claimant: int, character: Character) -> ChallengeNote:
    """A challenge of ``claimant``'s ``character`` by ``challenger``, with its chance of success."""
    p = table.probability_holds(claimant, character)
    odds = table.odds(claimant, character)
    return ChallengeNote(number, table.names[challenger], table.names[claimant], character, 1 - p, odds=odds)


def rejudge_challenge(table: Table, note: ChallengeNote) -> ChallengeNote:
    """``note``'s chance of success under the assumptions ``table`` uses."""
    knowledge = table.knowledge
    if note.odds is None or knowledge is None:
        return note
    return replace(note, success_probability=1 - note.odds.probability(knowledge.counts.active))


# -- what the prompt says ------------------------------------------------------------------------


@dataclass(frozen=True)
class Flagged:
    """A claim flagged the moment it was typed."""

    claim: Claim
    threshold: Fraction = THRESHOLD

    def message(self) -> Message:
        c = self.claim
        style: Style = "impossible" if c.level == "impossible" else "flag"
        chance = probability(c.probability, marks=[self.threshold])
        return style, f"{c.level}: {c.player} claims {c.character.article} ({chance}): {c.reason}"


@dataclass(frozen=True)
class Challenged:
    """A challenge and its chance of success."""

    note: ChallengeNote

    def message(self) -> Message:
        return "info", f"{self.note.challenger}'s challenge succeeds with {probability(self.note.success_probability)}"


UNASSUMED = "an earlier failed proof is no longer taken as 'holds none': it contradicts this line"


def draft_advice(before: Table, after: Table) -> Said | None:
    """The pick to make, said once, when the seat can make it (dealt-first: once dealt;
    pick-first: at once, before the deal)."""
    if not _ready_to_pick(after) or _ready_to_pick(before):
        return None
    from solver.coup import Draft

    from .draft_advice import suggestion

    setup = after.setup
    assert setup.me is not None
    try:
        dealt = setup.dealt if setup.draft is Draft.DEALT_FIRST else None
        return Said(suggestion(setup.variant, setup.draft, setup.me, dealt))
    except GameError:
        return None


def _ready_to_pick(table: Table) -> bool:
    from solver.coup import Draft

    setup = table.setup
    if setup.me is None or setup.pick is not None or not setup.draft_game:
        return False
    return setup.dealt is not None or setup.draft is Draft.PICK_FIRST
