"""Advice at the table: flags on claims with their reasons, the chance a challenge succeeds,
the pick to make in the draft; each said as an event the moment its line is typed. Pure
functions over what the seat sees (a :class:`Sight`: its counts and copies), as Spicy's are:
the tracker builds the sight, the advice never reads the table.

>>> level(Fraction(0)), level(Fraction(1, 5)), level(Fraction(1, 2))
('impossible', 'unlikely', None)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from fractions import Fraction

from solver.coup import Character, Draft
from solver.coup.counting import Beliefs, Odds
from solver.errors import GameError

from ..figures import probability
from ..tracked import Message, Said, Style
from .game_setup import Setup
from .knowledge import Assumption
from .ledger import Because, ChallengeNote, Claim, Level

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


@dataclass(frozen=True)
class Sight:
    """What the advice reads of one seat's table: the names, the seat (None: a spectator),
    its face-down cards, the copies of each character (in the deck, face up, unseen by the
    seat), the seat's exact counts (every world, tagged by the assumptions it breaks), the
    assumptions in use and the flag threshold. Built by the tracker (``Table.sight``)."""

    names: tuple[str, ...]
    me: int | None
    mine: tuple[Character, ...]
    copies: Mapping[Character, int]
    face_up: Mapping[Character, int]
    unseen: Mapping[Character, int]
    counts: Beliefs
    assumptions: tuple[Assumption, ...] = ()
    threshold: Fraction = THRESHOLD

    @property
    def spectator(self) -> bool:
        return self.me is None

    def probability_holds(self, seat: int, character: Character) -> Fraction:
        """P(``seat`` holds a ``character``): 0 or 1 for the seat itself."""
        if seat == self.me:
            return Fraction(int(character in self.mine))
        return self.counts.holds(seat)[character]

    def odds(self, seat: int, character: Character) -> Odds | None:
        """How often another seat holds a ``character``, per assumption mask (None for the seat)."""
        return None if seat == self.me else self.counts.odds(seat, character)


def copies_reason(sight: Sight, character: Character) -> str:
    """The count behind a flag: copies, face up, in the seat's hand, unseen."""
    return count_reason(
        character,
        sight.copies[character],
        sight.face_up[character],
        sight.mine.count(character),
        sight.unseen[character],
        sight.spectator,
    )


def judge(sight: Sight, seat: int, character: Character, number: int, block: bool) -> Claim:
    """The claim of ``character`` by ``seat`` at line ``number``, judged just before it is
    applied: the chance it is true and, for another player's claim, its flag and reason."""
    p = sight.probability_holds(seat, character)
    claim = Claim(number, sight.names[seat], character, block, p, None, None, "", flagged=seat != sight.me)
    claim = replace(claim, odds=sight.odds(seat, character), count_reason=copies_reason(sight, character))
    return rejudge(sight, claim)


def rejudge(sight: Sight, claim: Claim) -> Claim:
    """``claim`` judged under the assumptions ``sight`` uses (the same as when it was made,
    but for those dropped since): its chance, flag and reason."""
    p = claim.probability if claim.odds is None else claim.odds.probability(sight.counts.active)
    lvl = level(p, sight.threshold) if claim.flagged else None
    because: Because | None = None
    reason = ""
    if lvl is not None:
        active = [a for a in sight.assumptions if a.line < claim.line]
        because, reason = _why(sight, claim, lvl, active)
    return replace(claim, probability=p, level=lvl, because=because, reason=reason)


def _why(sight: Sight, claim: Claim, lvl: Level, active: list[Assumption]) -> tuple[Because, str]:
    """("count" or "assumption", the reason in words) for a flagged claim."""
    if not active or claim.odds is None or level(claim.odds.probability(), sight.threshold) == lvl:
        return "count", claim.count_reason
    causes = [a for a in active if a.character is claim.character] or active
    return "assumption", assumption_reason(sight.names[causes[-1].seat], causes[-1].character)


def cannot_hold(sight: Sight, seat: int, character: Character) -> str:
    """Why ``seat`` cannot have held a ``character``, in words (``sight`` has the line's card
    face up already)."""
    unseen = sight.unseen[character]
    name = sight.names[seat]
    if unseen > 0:
        return f"impossible: {name} cannot hold {character.article} (everything seen rules it out)"
    total = sight.copies[character]
    face_up = sight.face_up[character] + min(unseen, 0)  # before this line
    why = count_reason(character, total, face_up, sight.mine.count(character), 0, sight.spectator)
    return f"impossible: {name} cannot hold {character.article}: all {total} are accounted for ({why})"


def challenge_note(sight: Sight, number: int, challenger: int, claimant: int, character: Character) -> ChallengeNote:
    """A challenge of ``claimant``'s ``character`` by ``challenger``, with its chance of success."""
    p = sight.probability_holds(claimant, character)
    odds = sight.odds(claimant, character)
    return ChallengeNote(number, sight.names[challenger], sight.names[claimant], character, 1 - p, odds=odds)


def rejudge_challenge(sight: Sight, note: ChallengeNote) -> ChallengeNote:
    """``note``'s chance of success under the assumptions ``sight`` uses."""
    if note.odds is None:
        return note
    return replace(note, success_probability=1 - note.odds.probability(sight.counts.active))


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


def draft_advice(before: Setup, after: Setup) -> Said | None:
    """The pick to make, said once, when the seat can make it (dealt-first: once dealt;
    pick-first: at once, before the deal)."""
    if not _ready_to_pick(after) or _ready_to_pick(before):
        return None
    from .draft_advice import suggestion

    assert after.me is not None
    try:
        dealt = after.dealt if after.draft is Draft.DEALT_FIRST else None
        return Said(suggestion(after.variant, after.draft, after.me, dealt))
    except GameError:
        return None


def _ready_to_pick(setup: Setup) -> bool:
    if setup.me is None or setup.pick is not None or not setup.draft_game:
        return False
    return setup.dealt is not None or setup.draft is Draft.PICK_FIRST
