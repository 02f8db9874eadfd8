"""Flags on claims and the chance a challenge succeeds, with the reasons in words.

>>> level(Fraction(0)), level(Fraction(1, 5)), level(Fraction(1, 2))
('impossible', 'unlikely', None)
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from solver.coup import Character

THRESHOLD = Fraction(1, 4)
"""Below this probability a claim is flagged "unlikely" (a setting)."""


def level(probability: Fraction, threshold: Fraction = THRESHOLD) -> str | None:
    """``'impossible'`` for 0, ``'unlikely'`` below ``threshold``, else None."""
    if probability == 0:
        return "impossible"
    if probability < threshold:
        return "unlikely"
    return None


@dataclass(frozen=True)
class Claim:
    """A claim (an action's or a block's) and what became of it."""

    line: int
    player: str
    character: Character
    block: bool
    probability: Fraction  # that the claimant held the character, just before the claim
    level: str | None
    because: str | None  # "count" or "assumption" when flagged
    reason: str  # in words, when flagged
    outcome: str | None = None  # "proved", "caught", "unchallenged"; None while open
    flagged: bool = False  # reported in `flags` (claims by other players, or all for a spectator)


@dataclass(frozen=True)
class ChallengeNote:
    """A challenge, how likely it was to succeed, and whether it did."""

    line: int
    challenger: str
    claimant: str
    character: Character
    success_probability: Fraction
    succeeded: bool | None = None


def percent(p: Fraction) -> str:
    """``'3/11 (27%)'``: a fraction and its rounded percentage."""
    return f"{p.numerator}/{p.denominator} ({round(100 * p)}%)" if p.denominator != 1 else f"{p} ({round(100 * p)}%)"


def count_reason(character: Character, total: int, face_up: int, mine: int, unseen: int, spectator: bool) -> str:
    """Why the copies alone make a claim impossible or unlikely, e.g.
    ``'2 dukes face up and 1 in your hand'``."""
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
