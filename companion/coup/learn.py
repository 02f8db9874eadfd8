"""What the seat learns from each move: the beliefs updated with public semantics (others'
cards unseen, the seat's own draws and returns seen), the moves that follow unseen (other
players' draws and kept cards), and the behavioural assumption about failed proofs.

Functions of a :class:`~companion.coup.table.Table` (its methods call them).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from operator import methodcaller
from typing import TYPE_CHECKING

from solver.coup import Character, ImpossibleTable, Kind, Move, Phase, State, deck
from solver.coup.messages import claimed

from .advice import count_reason
from .beliefs import Beliefs

if TYPE_CHECKING:
    from .table import Table

UNKNOWN = Character.UNKNOWN


@dataclass(frozen=True)
class Assumption:
    """After a failed proof: ``seat`` holds no ``character`` (until it draws)."""

    line: int
    seat: int
    character: Character


def public(state: State, me: int | None) -> State:
    """The engine state as the table sees it: others' cards and the court unknown."""
    hidden = tuple(cards if seat == me else (UNKNOWN,) * len(cards) for seat, cards in enumerate(state.hidden))
    court = (UNKNOWN,) * len(state.court)
    if hidden == state.hidden and court == state.court:
        return state
    return state._replace(hidden=hidden, court=court)


def learn(self: Table, before: State, move: Move, number: int) -> Table:
    """Update the beliefs for ``move`` played at ``before`` (public semantics)."""
    t = before.turn
    seat = move.player
    me = self.me
    kind = move.kind
    if kind is Kind.PROVE:
        if seat == me:
            table = note(self, f"line {number}: you shuffled your {move.card} into the court")
            return observe(table, methodcaller("insert", move.card), number)
        return observe(self, methodcaller("reveal", seat, move.card, True), number, (seat, move.card))
    if kind is Kind.LOSE:
        if seat == me:
            return self
        table = observe(self, methodcaller("reveal", seat, move.card), number, (seat, move.card))
        if not before.hidden[seat][1:]:  # that was the last card
            return observe(table, methodcaller("remove_place", seat), number)
        if t.phase is Phase.PROOF:
            return assume(table, Assumption(number, seat, claimed(before)))
        return table
    if kind is Kind.DRAW and seat == me:
        table = self
        for c in move.cards:
            table = observe(table, methodcaller("observe_draw", c), number)
        if t.phase is Phase.SWAP_DRAW and t.cards:
            table = observe(table, methodcaller("insert", t.cards[0]), number)
        return table
    if kind is Kind.KEEP and seat == me:
        pool = list(before.hidden[seat]) + list(t.cards)
        for c in move.cards:
            pool.remove(c)
        table = note(self, f"line {number}: you put back {' and '.join(c.name_en for c in pool)}")
        for c in pool:
            table = observe(table, methodcaller("insert", c), number)
        return table
    if kind is Kind.SHOW and t.actor == me and seat != me:
        seen = observe(self, methodcaller("seen", seat, move.card), number, (seat, move.card))
        seen = note(seen, f"line {number}: {self.names[seat]} showed you {move.card.article}")
        return replace(seen, shown_to_me=move.card)
    if kind is Kind.SWAP and t.target != me:
        target = t.target
        if t.actor == me and self.shown_to_me is not None:
            shown = self.shown_to_me
            return replace(observe(self, methodcaller("swap_known", target, shown), number), shown_to_me=None)
        return observe(self, methodcaller("swap_random", target), number)
    if kind is Kind.RETURN:
        return replace(self, shown_to_me=None)
    return self


def advance(self: Table, number: int) -> Table:
    """Play what follows unseen by the seat: other players' draws and kept cards, and a
    placeholder for the seat's own replacement (its `draw` line may come later)."""
    table = self
    while True:
        s = table.state
        assert s is not None
        t = s.turn
        if t.phase is Phase.REDRAW:
            seat = t.decider
            moved = s.apply(Move(Kind.DRAW, seat, cards=(UNKNOWN,)))
            table = replace(table, state=public(moved, table.me))
            if seat == table.me:
                table = replace(table, owed_redraw=True)
            else:
                table = observe(table, methodcaller("draw", seat, 1), number)
        elif t.phase is Phase.EXCHANGE_DRAW and t.actor != table.me:
            seat = t.actor
            k = min(s.variant.exchange_draw, len(s.court))
            drawn = s.apply(Move(Kind.DRAW, seat, cards=(UNKNOWN,) * k))
            kept = drawn.apply(Move(Kind.KEEP, seat, cards=(UNKNOWN,) * len(s.hidden[seat])))
            table = replace(table, state=public(kept, table.me))
            n = len(s.hidden[seat])
            table = observe(
                observe(table, methodcaller("draw", seat, k), number), methodcaller("keep_random", seat, n), number
            )
        elif t.phase is Phase.SWAP_DRAW and t.decider != table.me:
            moved = s.apply(Move(Kind.DRAW, t.decider, cards=(UNKNOWN,)))
            table = replace(table, state=public(moved, table.me))
        else:
            return table


def observe(
    self: Table, update: Callable[[Beliefs], Beliefs], number: int, holder: tuple[int, Character] | None = None
) -> Table:
    """Apply a beliefs update with and without the assumptions. A physical impossibility
    raises; a contradiction of the assumptions only leaves ``beliefs`` None (see apply)."""
    assert self.free is not None
    try:
        free = update(self.free)
    except ImpossibleTable as error:
        if holder is not None:
            raise ImpossibleTable(cannot_hold(self, *holder)) from error
        raise ImpossibleTable(f"impossible: {error}") from error
    if self.beliefs is None:
        return replace(self, free=free)
    try:
        beliefs: Beliefs | None = update(self.beliefs)
    except ImpossibleTable:
        beliefs = None
    return replace(self, beliefs=beliefs, free=free)


def note(self: Table, text: str) -> Table:
    return replace(self, notes=(*self.notes, text))


def cannot_hold(self: Table, seat: int, character: Character) -> str:
    """Why ``seat`` cannot have held a ``character``, in words."""
    unseen = self.unseen()[character]
    name = self.names[seat]
    if unseen > 0:
        return f"impossible: {name} cannot hold {character.article} (everything seen rules it out)"
    total = deck(self.variant, len(self.names)).count(character)
    face_up = sum(cards.count(character) for cards in self.face_up) + min(unseen, 0)  # before this line
    mine = self.my_cards().count(character)
    why = count_reason(character, total, face_up, mine, 0, self.spectator)
    return f"impossible: {name} cannot hold {character.article}: all {total} are accounted for ({why})"


def assume(self: Table, assumption: Assumption) -> Table:
    table = replace(self, assumptions=(*self.assumptions, assumption))
    if assumption.line in self.dropped or table.beliefs is None:
        return table
    try:
        return replace(table, beliefs=table.beliefs.assume_none(assumption.seat, assumption.character))
    except ImpossibleTable:
        return replace(table, beliefs=None)
