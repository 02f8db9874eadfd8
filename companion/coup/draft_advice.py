"""`coup draft`: exact advice for the 2-player draft (outputs.md, "2-player draft").

The open-hand value of the 500 games the draft can produce per variant is read from the
endgame tables (:func:`from_tables`: every draft family is shipped), or solved again from
scratch on game graphs (:func:`recompute`, 15 graphs, the method before the tables) to compare;
the draft's equilibrium is then a tiny exact linear program solved on the spot.

>>> advice = Advice.load(Variant.AMBASSADOR, Draft.DEALT_FIRST)
>>> sum(advice.game_value(seat) for seat in (0, 1))
Fraction(0, 1)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from typing import Any

from solver.coup import Character, Draft, GameError, Variant
from solver.coup.draft import Payoffs, dealt_first, games, opening, pick_first, pick_pairs, solve_pair
from solver.coup.tablebase import value_of
from solver.equilibrium import Equilibrium

from ..figures import columns, probability, value
from ..runner import Runner

SEATS = ("first", "second")


def draft_order(text: str) -> Draft:
    """dealt-first or pick-first (``none`` has no draft to advise on)."""
    order = Draft.parse(text)
    if order is Draft.NONE:
        raise GameError("draft none has no draft: use dealt-first or pick-first")
    return order


def from_tables(variant: Variant) -> Payoffs:
    """The first player's value of each of the draft's 500 games, from the endgame tables.
    Raises GameError if a table is missing and cannot be generated."""
    return {(deal, picks): value_of(opening(variant, deal, picks)) for deal, picks in games(variant)}


def recompute(
    variant: Variant, pairs: list[tuple[Character, Character]] | None = None, run: Runner | None = None
) -> tuple[Payoffs, int]:
    """The payoff table (of ``pairs`` of picks, all 15 by default), one task per pair on the
    job runner ``run`` (default: here); and the total of states solved."""
    jobs = [(variant, pair) for pair in (pairs if pairs is not None else pick_pairs(variant))]
    out: Payoffs = {}
    states = 0
    runner = run if run is not None else Runner(workers=1, quiet=True)
    for table, size in runner.map(_solve_pair, jobs, "solving the draft's games"):
        out.update(table)
        states += size
    return out, states


def _solve_pair(job: tuple[Variant, tuple[Character, Character]]) -> tuple[Payoffs, int]:
    return solve_pair(*job)


@dataclass(frozen=True)
class Advice:
    """The draft's equilibrium for one variant and order, read from either seat."""

    variant: Variant
    order: Draft
    equilibrium: Equilibrium

    @classmethod
    def load(cls, variant: Variant, order: Draft, table: Payoffs | None = None) -> Advice:
        table = from_tables(variant) if table is None else table
        solve = dealt_first if order is Draft.DEALT_FIRST else pick_first
        return cls(variant, order, solve(variant, table))

    def _side(self, seat: int) -> tuple[list[list[Fraction]], list[list[Fraction]], int]:
        """(strategy, payoffs from the seat's side, sign)."""
        e = self.equilibrium
        if seat == 0:
            return e.row, e.row_payoffs, 1
        return e.column, [[-v for v in row] for row in e.column_payoffs], -1

    def game_value(self, seat: int) -> Fraction:
        """The whole draft's value for ``seat`` (0 first, 1 second) before any deal; unique."""
        return self.equilibrium.value if seat == 0 else -self.equilibrium.value

    def advice(self, seat: int, dealt: Character | None) -> dict[str, Any]:
        """The outputs.md object for ``seat`` and its dealt card (None with pick-first)."""
        chars = self.variant.characters
        if self.order is Draft.PICK_FIRST:
            if dealt is not None:
                raise GameError("with pick-first the pick comes before the deal: --dealt does not apply")
            row = 0
        else:
            if dealt is None:
                raise GameError("dealt-first needs the dealt card")
            if dealt not in chars:
                raise GameError(f"{dealt.name_en} is not a card of the {self.variant} variant")
            row = chars.index(dealt)
        strategy, payoffs, _ = self._side(seat)
        picks = {c.name_en: payoffs[row][i] for i, c in enumerate(chars)}
        recommended = {c.name_en: p for c, p in zip(chars, strategy[row], strict=True) if p}
        return {
            "variant": str(self.variant),
            "order": str(self.order),
            "seat": SEATS[seat],
            "dealt": dealt.name_en if dealt is not None else None,
            "picks": {k: str(v) for k, v in picks.items()},
            "recommended": {k: str(v) for k, v in recommended.items()},
            "value": str(max(picks.values())),
            "game_value": str(self.game_value(seat)),
        }

    def dealt_cards(self) -> list[Character | None]:
        return list(self.variant.characters) if self.order is Draft.DEALT_FIRST else [None]

    def text(self, seats: tuple[int, ...] = (0, 1)) -> str:
        """For each seat and dealt card: every pick's value and the recommended pick(s)."""
        chars = self.variant.characters
        lines = [
            f"2-player draft, {self.variant}, {self.order}: each pick's value for the seat,",
            "P(win) - P(loss) with best play (the open-hand game after the draft), averaged over",
            "the opponent's cards, not yet known (--exact: the exact fractions)",
        ]
        for seat in seats:
            rows = [["dealt", *(c.name_en for c in chars), "pick"]]
            for dealt in self.dealt_cards():
                a = self.advice(seat, dealt)
                label = dealt.name_en if dealt is not None else "(before the deal)"
                rows.append([label, *(value(Fraction(a["picks"][c.name_en])) for c in chars), _mix(a)])
            lines += ["", f"{SEATS[seat]} player (the whole draft is worth {value(self.game_value(seat))}):"]
            lines += columns(rows, "<" + ">" * len(chars), indent="  ")
        return "\n".join(lines)


def _mix(advice: dict[str, Any]) -> str:
    """The recommended pick, or the equilibrium's mix of picks with their probabilities."""
    return ", ".join(k if v == "1" else f"{k} {probability(Fraction(v))}" for k, v in advice["recommended"].items())


@cache
def advice_for(variant: Variant, order: Draft) -> Advice:
    """The advice from the endgame tables (computed once per process)."""
    return Advice.load(variant, order)


def pick_model(variant: Variant, order: Draft) -> Callable[[int, Character], dict[Character, Fraction]]:
    """The equilibrium's pick probabilities per seat and dealt card, for the table's
    probability model (``coup table --draft-model equilibrium``)."""
    advice = advice_for(variant, order)
    chars = variant.characters

    def picks(seat: int, dealt: Character) -> dict[Character, Fraction]:
        strategy = advice.equilibrium.row if seat == 0 else advice.equilibrium.column
        mix = strategy[0] if order is Draft.PICK_FIRST else strategy[chars.index(dealt)]
        return dict(zip(chars, mix, strict=True))

    return picks


def suggestion(variant: Variant, order: Draft, seat: int, dealt: Character | None) -> str:
    """One line for the table: the recommended pick and its value."""
    a = advice_for(variant, order).advice(seat, dealt)
    given = f"with a dealt {dealt.name_en}" if dealt is not None else "before the deal"
    return (
        f"draft: pick {_mix(a)}: {given}, the draft is worth {value(Fraction(a['value']))} to you (P(win) - P(loss) "
        "with best play, averaged over the opponent's cards, not yet known, their pick as the draft's equilibrium; "
        "coup draft for every pick)"
    )
