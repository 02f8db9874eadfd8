"""What the tracked seat knows: the exact distribution of the cards it has not seen (with and
without the behavioural assumption about failed proofs), the assumptions themselves, the notes
of what it knows in words, and the card it was shown while examining. Updated from each move
with the public semantics of outputs.md (others' cards unseen, the seat's own draws and returns
seen).

>>> from solver.coup import Character as C
>>> chars = (C.DUKE, C.ASSASSIN, C.CONTESSA, C.CAPTAIN, C.AMBASSADOR)
>>> k = Knowledge.start(Beliefs.deal(chars, unseen=(3, 3, 3, 2, 2), hands={1: 2, 2: 2}, court=9))
>>> k.beliefs.holds(1)[C.CAPTAIN]
Fraction(23, 78)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

from solver.coup import Character, ImpossibleTable, Kind, Move, Phase, State
from solver.coup.counting import Beliefs
from solver.coup.messages import claimed

Explain = Callable[[int, Character], str]
"""Why a seat cannot have held a character, in words (for a physically impossible line)."""


@dataclass(frozen=True)
class Assumption:
    """After a failed proof: ``seat`` holds no ``character`` (until it draws)."""

    line: int
    seat: int
    character: Character


@dataclass(frozen=True)
class Knowledge:
    """The seat's knowledge. ``counts`` holds every world the record allows, those breaking
    the i-th assumption tagged with bit i, the assumptions in use active; ``beliefs`` is None
    when those contradict the record (the tracker then drops some); ``free`` never uses them."""

    counts: Beliefs
    assumptions: tuple[Assumption, ...] = ()
    notes: tuple[str, ...] = ()
    shown_to_me: Character | None = None  # the card the seat saw while examining

    def __repr__(self) -> str:
        return f"<Knowledge {len(self.assumptions)} assumptions, {len(self.notes)} notes, {self.counts!r}>"

    @classmethod
    def start(cls, prior: Beliefs) -> Knowledge:
        return cls(prior)

    @property
    def beliefs(self) -> Beliefs | None:
        """The distribution under the assumptions in use; None when they cannot all hold."""
        return None if self.contradicted else self.counts

    @property
    def free(self) -> Beliefs:
        """The distribution without the assumptions."""
        return self.counts.assuming(0)

    @property
    def contradicted(self) -> bool:
        """True when the assumptions cannot all hold (the tracker drops some)."""
        return self.counts.total() == 0

    def _bits(self, lines: frozenset[int]) -> int:
        return sum(1 << i for i, a in enumerate(self.assumptions) if a.line in lines)

    def possible_without(self, lines: frozenset[int]) -> bool:
        """True when the record is possible once the assumptions of ``lines`` are not used."""
        return self.counts.assuming(self.counts.active & ~self._bits(lines)).total() > 0

    def dropping(self, lines: frozenset[int]) -> Knowledge:
        """The knowledge without the assumptions of ``lines``, for good."""
        return replace(self, counts=self.counts.forget(self._bits(lines)))

    def active_assumptions(self, dropped: frozenset[int]) -> list[Assumption]:
        """The assumptions in use (those of the lines in ``dropped`` are not)."""
        return [a for a in self.assumptions if a.line not in dropped]

    def observe(self, update: Callable[[Beliefs], Beliefs], why: Callable[[], str] | None = None) -> Knowledge:
        """Apply a beliefs update. A physical impossibility raises ImpossibleTable (``why()`` in
        words); a contradiction of the assumptions only leaves ``beliefs`` None."""
        try:
            counts = update(self.counts)
        except ImpossibleTable as error:
            raise ImpossibleTable(why() if why is not None else f"impossible: {error}") from error
        return replace(self, counts=counts)

    def note(self, text: str) -> Knowledge:
        return replace(self, notes=(*self.notes, text))

    def assume(self, assumption: Assumption, dropped: frozenset[int] = frozenset()) -> Knowledge:
        """The knowledge with ``assumption`` noted, and used unless its line is in ``dropped``."""
        bit = len(self.assumptions)
        counts = self.counts.assume_none(assumption.seat, assumption.character, bit)
        if assumption.line in dropped:
            counts = counts.assuming(counts.active & ~(1 << bit))
        return replace(self, counts=counts, assumptions=(*self.assumptions, assumption))

    def learn(
        self, before: State, move: Move, number: int, me: int | None, explain: Explain, dropped: frozenset[int]
    ) -> Knowledge:
        """The knowledge after ``move`` played at ``before`` (line ``number``), seen from ``me``
        (``dropped``: lines whose assumptions are not used; ``explain``: why a card cannot be
        where a line says, for a physically impossible line)."""
        t = before.turn
        seat, kind, names = move.player, move.kind, before.names
        if kind is Kind.PROVE:
            if seat == me:
                return self.note(f"line {number}: you shuffled your {move.card} into the court").observe(
                    lambda b: b.insert(move.card)
                )
            return self.observe(lambda b: b.reveal(seat, move.card, True), lambda: explain(seat, move.card))
        if kind is Kind.LOSE:
            return self._lost(before, move, number, me, explain, dropped)
        if kind is Kind.DRAW and seat == me:
            knowledge = self.observe(lambda b: b.observe_draw(*move.cards))
            if t.phase is Phase.SWAP_DRAW and t.cards:
                knowledge = knowledge.observe(lambda b: b.insert(t.cards[0]))
            return knowledge
        if kind is Kind.KEEP and seat == me:
            pool = list(before.hidden[seat]) + list(t.cards)
            for c in move.cards:
                pool.remove(c)
            knowledge = self.note(f"line {number}: you put back {' and '.join(c.name_en for c in pool)}")
            return knowledge.observe(lambda b: b.insert(*pool))
        if kind is Kind.SHOW and t.actor == me and seat != me:
            seen = self.observe(lambda b: b.seen(seat, move.card), lambda: explain(seat, move.card))
            return replace(
                seen.note(f"line {number}: {names[seat]} showed you {move.card.article}"), shown_to_me=move.card
            )
        if kind is Kind.SWAP and t.target != me:
            shown = self.shown_to_me
            if t.actor == me and shown is not None:
                return replace(self.observe(lambda b: b.swap_known(t.target, shown)), shown_to_me=None)
            return self.observe(lambda b: b.swap_random(t.target))
        if kind is Kind.RETURN:
            return replace(self, shown_to_me=None)
        return self

    def _lost(
        self, before: State, move: Move, number: int, me: int | None, explain: Explain, dropped: frozenset[int]
    ) -> Knowledge:
        seat = move.player
        if seat == me:
            return self
        knowledge = self.observe(lambda b: b.reveal(seat, move.card), lambda: explain(seat, move.card))
        if not before.hidden[seat][1:]:  # that was the last card
            return knowledge.observe(lambda b: b.remove_place(seat))
        if before.turn.phase is Phase.PROOF:
            return knowledge.assume(Assumption(number, seat, claimed(before)), dropped)
        return knowledge

    def drawn_unseen(self, seat: int, count: int) -> Knowledge:
        """``seat`` (not the seat tracked) drew ``count`` cards from the court."""
        return self.observe(lambda b: b.draw(seat, count))

    def kept_unseen(self, seat: int, keep: int) -> Knowledge:
        """``seat`` kept ``keep`` of its cards (unseen) and returned the rest to the court."""
        return self.observe(lambda b: b.keep_random(seat, keep))

    def exchanged_unseen(self, seat: int, draw: int, keep: int) -> Knowledge:
        """``seat`` drew ``draw`` cards and kept ``keep`` of them all (unseen)."""
        return self.observe(lambda b: b.exchange_random(seat, draw, keep))

    def drew_replacement(self, card: Character) -> Knowledge:
        """The seat drew ``card`` as the replacement of a card it proved."""
        return self.observe(lambda b: b.observe_draw(card))
