"""The tracked table of Conquêtes et chasse au trésor: lines applied through the rules engine from
the tracked seat's point of view.

A :class:`Table` is composed of its set-up (:class:`~companion.treasure.game_setup.Setup`), the
public position (an engine state whose other hands and markers are unknown, their sizes exact),
and once the domain is finished, what the end lines said (:class:`Ending`: the removed card, the
bidders' markers, the proven breaches). It is immutable: :meth:`Table.apply` returns the next
table and the events the line produced, or raises a GameError and changes nothing, so undo is
keeping the previous table.

A bidding round is opened by ``NAME neuro`` and closed by the next ``place`` or ``pass``: the
players it skips are the engine's declined calls and bids. The end lines come in any order.

>>> t = replay("game tresor\\nplayers Ana Ben\\nme Ana\\nhand 1cn 1ev 1ev\\nstart 1cv\\n", Deck(1, 2, 2))
>>> t.turn, t.hand_sizes(), t.vp(), t.deux_cartes
('Ana', (3, 3), (5, 5), False)
>>> t = t.apply_text("Ana place 1cn at 0 1").apply_text("Ben place 1cv at -1 0")
>>> t.apply_text("Ana place 1ev at 0 2")
Traceback (most recent call last):
solver.errors.IllegalMove: 1ev at 0 2 touches 1cn only and is not compatible with it (they share 1 attribute)
>>> t = t.apply_text("Ben neuro")
>>> t.waiting, t.turn, t.deux_cartes
('Ben to bid: they called neuro', 'Ana', True)
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass, field, replace
from fractions import Fraction

from solver.errors import IllegalMove, ParseError
from solver.treasure import (
    STANDARD,
    BidValue,
    Card,
    Deck,
    Kind,
    Marker,
    Move,
    Phase,
    PlacementValue,
    Score,
    State,
    Tile,
    Turn,
    odds,
)
from solver.treasure.engine import next_mover
from solver.treasure.messages import waiting_for
from solver.treasure.rules import BREACH_VP, emptying_bonus

from ..figures import counted, value
from ..tracked import Event, Lines, Placed, Said, Waiting, placed_among
from .advice import Advice, Final, bid_text, placement_text
from .game_setup import Setup
from .language import END, SETUP, Line, Verb, parse_line

Cell = tuple[int, int]


@dataclass(frozen=True)
class Ending:
    """What the end lines said: the removed card, each bidder's revealed markers (in the order
    of their bids) and each player's proven breaches."""

    removed: Card | None = None
    reveals: tuple[tuple[int, tuple[Marker, ...]], ...] = ()
    breaches: tuple[int, ...] = ()

    def revealed(self, seat: int) -> bool:
        return any(s == seat for s, _ in self.reveals)


@dataclass(frozen=True)
class Table(Lines[Line]):
    """One seat's table. Build with :meth:`new`; move with :meth:`apply` / :meth:`apply_text`."""

    setup: Setup = field(default_factory=Setup)
    state: State | None = None  # the public position, once the set-up is complete
    end_base: State | None = None  # the position when the domain was finished
    ending: Ending = field(default_factory=Ending)
    order: tuple[Cell, ...] = ()  # the domain's cells in the order they were laid
    played: tuple[Line, ...] = ()  # the lines after the set-up
    count: int = 0  # lines accepted
    placed: Placed | None = None  # where the last line went in the record

    @classmethod
    def new(cls, deck: Deck = STANDARD) -> Table:
        """An empty table; ``deck`` is the published one unless a smaller deck is given (for
        exact cross-checks)."""
        return cls(setup=Setup(deck=deck))

    def __repr__(self) -> str:
        return f"<Table {self.count} lines, {self.state.text() if self.state else 'set-up'}>"

    # -- reading the table -------------------------------------------------------------------

    @property
    def deck(self) -> Deck:
        return self.setup.deck

    @property
    def names(self) -> tuple[str, ...]:
        return self.setup.names

    @property
    def me(self) -> int | None:
        return self.setup.me

    @property
    def ended(self) -> bool:
        """True once the building of the domain is over (no more turns nor bids)."""
        return self.state is not None and self.state.ended()

    @property
    def turn(self) -> str | None:
        """Whose turn it is or comes next (during a bidding round, the next to place); None
        once the domain is finished."""
        if self.state is None:
            return self.names[0] if self.names else None
        seat = next_mover(self.state)
        return None if seat is None else self.names[seat]

    @property
    def waiting(self) -> str | None:
        """What the table waits for, in words; None when nothing is owed."""
        s = self.state
        if s is None:
            return f"the set-up: {self.setup.missing()}"
        t = s.turn
        if t.phase is Phase.BID and t.decider == t.caller:
            return waiting_for(s)
        if not s.ended():
            return None
        if self.ending.removed is None:
            return "the removed card to be shown (removed CARD)"
        owed = self.owed_reveals()
        return f"{self.names[owed[0]]}'s markers (reveal)" if owed else None

    def owed_reveals(self) -> tuple[int, ...]:
        """The other bidders whose markers are still to be revealed, in seating order."""
        if self.end_base is None:
            return ()
        bidders = sorted({b.player for b in self.end_base.bids if b.player != self.me})
        return tuple(seat for seat in bidders if not self.ending.revealed(seat))

    @property
    def deux_cartes(self) -> bool:
        """True from the moment a player is down to two cards (from the deal on, if dealt so few)."""
        if self.state is not None:
            return self.state.deux_cartes()
        return bool(self.names) and min(self.setup.sizes()) <= 2

    def hand_sizes(self) -> tuple[int, ...]:
        if self.state is None:
            return self.setup.sizes() if self.names else ()
        return tuple(len(h) for h in self.state.hands)

    def vp(self) -> tuple[int, ...]:
        """The public VP so far: start, extra card, placements, passes, emptying bonuses (the
        breaches are in the final score only)."""
        s = self.state
        if s is None:
            return self.setup.opening_vp() if self.names else ()
        return tuple(v - BREACH_VP * b for v, b in zip(s.vp, s.breaches, strict=True))

    def my_cards(self) -> tuple[Card, ...]:
        """The tracked seat's cards in hand, sorted."""
        if self.me is None:
            return ()
        if self.state is None:
            return self.setup.hand or ()
        return self.state.hands[self.me]

    def treasure_odds(self) -> dict[Card, Fraction]:
        """Every kind the treasure may be, with its exact chance from the seat, or for a
        spectator from the start card and the placed cards ({} during the set-up)."""
        if self.state is None:
            return {}
        return odds.treasure_odds(self.state, self.me)

    def treasure_cells(self) -> tuple[tuple[Tile, Fraction], ...]:
        """The domain cards that may be the treasure, with their chance, likeliest first."""
        if self.state is None:
            return ()
        return odds.treasure_cells(self.state, self.me)

    def bid_values(self) -> tuple[BidValue, ...]:
        """Every bid open to the seat with its exact value, best first; none once the domain is finished."""
        if self.state is None or self.me is None or self.state.ended():
            return ()
        return odds.bid_values(self.state, self.me)

    def placement_values(self) -> tuple[PlacementValue, ...]:
        """The seat's legal placements now with their VP and set change, best first; none once
        the domain is finished."""
        if self.state is None or self.me is None or self.state.ended():
            return ()
        return odds.placement_values(self.state, self.me)

    def final(self) -> tuple[Score, ...] | None:
        """Each player's score by part, once the removed card and every bid's marker are known."""
        return self.state.final() if self.state is not None else None

    def winners(self) -> tuple[str, ...]:
        """The players with the highest total once :meth:`final` is known (several when tied)."""
        return tuple(self.names[seat] for seat in self.state.winners()) if self.state is not None else ()

    def record_lines(self) -> list[str]:
        """The canonical record: ``game tresor``, the set-up in its canonical order, then every
        line of play in the order typed (nothing before the first line)."""
        if not self.count:
            return []
        setup = [line.canonical() for line in self.setup.lines()]
        return ["game tresor", *setup, *(line.canonical() for line in self.played)]

    def record(self) -> str:
        """The canonical form of the record (``tresor replay --canonical``), with a final newline."""
        return "".join(line + "\n" for line in self.record_lines())

    def status(self) -> str:
        waiting = f"; waiting for {self.waiting}" if self.waiting else ""
        return f"{counted(self.count, 'line')} so far{waiting}"

    def seat(self, name: str) -> int:
        return self.names.index(name)

    # -- applying a line ---------------------------------------------------------------------

    def parse(self, text: str) -> Line | None:
        """The line ``text`` names; a player's line typed without a name is the tracked seat's
        (``place 1cn at 0 1``, ``bid 5 on 0 1 with nature``: moves as the house suggests them)."""
        try:
            return parse_line(text, self.names)
        except ParseError:
            if self.me is None:
                raise
            with contextlib.suppress(ParseError):
                return parse_line(f"{self.names[self.me]} {text}", self.names)
            raise

    def apply(self, line: Line, number: int) -> tuple[Table, tuple[Event, ...]]:
        """The table after ``line`` (record line ``number``) and the events it produced (points,
        deux cartes, a round opened, the end, the final score, advice for the seat, what the
        table waits for). Raises GameError and changes nothing."""
        after, events = self._apply(line)
        after = replace(after, count=self.count + 1)
        text = line.canonical()
        if line.verb in SETUP:  # in the set-up's canonical order, the header written with the first line
            placed = placed_among(text, self.record_lines(), after.record_lines())
        else:
            placed = Placed("appended", text, 1 + len(self.setup.lines()) + len(self.played))
        after = replace(after, placed=placed)
        new_turn = self.state is None or line.verb in (Verb.PLACE, Verb.PASS)
        return after, (*events, *after._advice(new_turn, line.verb is Verb.NEURO))

    def _apply(self, line: Line) -> tuple[Table, list[Event]]:
        if line.verb in SETUP:
            return self._setup_line(line)
        s = self.state
        if s is None:
            raise IllegalMove(f"the table waits for the set-up: {self.setup.missing()}")
        if line.verb in END:
            return self._end_line(line, s)
        if s.ended():
            raise IllegalMove(f"the domain is finished: the table waits for {self.waiting or 'nothing more'}")
        events: list[Event] = []
        closed, move = self.resolve(line)
        after = closed.apply(move)
        if line.verb is Verb.NEURO:
            events.append(Said(f"{line.player} opens a bidding round: {line.player} bids first, then clockwise"))
        table = replace(self, state=after, played=(*self.played, line))
        if line.verb is Verb.PLACE:
            table = replace(table, order=(*self.order, line.cell))
        if line.verb in (Verb.PLACE, Verb.PASS):
            events += table._scored(s, after, self.seat(str(line.player)), line.verb is Verb.PASS)
        if after.ended():
            table = replace(table, end_base=after, ending=Ending(breaches=(0,) * len(self.names)))
            events.append(Said("the domain is finished: now the removed card (removed CARD) and each bidder's reveal"))
        if table.waiting is not None and (after.ended() or line.verb is Verb.NEURO):
            events.append(Waiting(table.waiting))
        return table, events

    def _setup_line(self, line: Line) -> tuple[Table, list[Event]]:
        if self.played:
            raise IllegalMove(f"'{line.canonical()}' is a set-up line: the game has begun")
        setup = self.setup.apply(line)  # a spectator's set-up may still become a seat's (me, hand)
        state = setup.opening() if setup.missing() is None else None
        table = replace(self, setup=setup, state=state, order=((0, 0),))
        if state is None:
            return table, []
        events: list[Event] = [] if self.state is not None else [Said(f"the table is set; first to play: {table.turn}")]
        if table.deux_cartes and (self.state is None or not self.deux_cartes):
            events.append(table._deux_cartes())
        return table, events

    def _scored(self, before: State, after: State, seat: int, passed: bool) -> list[Event]:
        """What a placement or a pass by ``seat`` scored (from ``before`` to this table's
        ``after``), and deux cartes if it began with it."""
        gained = self.vp()[seat] - (before.vp[seat] - BREACH_VP * before.breaches[seat])
        who = self.names[seat]
        out: list[Event] = []
        if passed:
            out.append(Said(f"{who} passes: {value(gained)} VP"))
        elif not after.hands[seat]:
            bonus = emptying_bonus(sum(1 for h in before.hands if not h))
            out.append(Said(f"{who} {value(gained - bonus)} VP, and has no card left: +{bonus} VP"))
        elif gained:
            out.append(Said(f"{who} {value(gained)} VP"))
        if after.deux_cartes() and not before.deux_cartes():
            out.append(self._deux_cartes())
        return out

    def _deux_cartes(self) -> Event:
        sizes = self.hand_sizes()
        low = min(range(len(sizes)), key=sizes.__getitem__)
        down = f"{self.names[low]} is down to {sizes[low]} card{'s' * (sizes[low] != 1)}"
        return Said(f"deux cartes: {down}; from now on everyone must place when they can", "flag")

    def _advice(self, new_turn: bool, neuro: bool) -> list[Event]:
        """The seat's best placement when its turn comes (``new_turn``: the line was a turn or
        set the table), its best bid when a round opens (``neuro``)."""
        s, me = self.state, self.me
        if s is None or me is None or s.ended():
            return []
        if new_turn and self.turn == self.names[me]:
            best = self.placement_values()
            if best:
                return [Advice(f"your turn, best: {placement_text(best[0])} ('placements' lists them all)")]
            return [Advice("your turn: no legal placement, you can only pass")]
        if neuro and s.markers[me]:
            bids = self.bid_values()
            if bids:
                return [Advice(f"a round is open, your best: {bid_text(bids[0])} ('bids' lists them all)")]
        return []

    # -- turns and bids ----------------------------------------------------------------------

    def resolve(self, line: Line) -> tuple[State, Move]:
        """The engine move a player's ``place``, ``pass``, ``neuro`` or ``bid`` line names now,
        and the state it is made in: the table's state once the windows the line closes are
        closed (a turn closes the bidding round or neuro window before it; a call or a bid
        comes after the players before them let theirs go). The table applies it. Raises
        IllegalMove (the line's reason); the engine's ``apply`` checks the rest."""
        s = self.state
        assert s is not None and not s.ended()
        seat = self.seat(str(line.player))
        if line.verb is Verb.NEURO:
            return self._neuro(s, seat), self.move_of(line)
        if line.verb is Verb.BID:
            return self._bid(s, line), self.move_of(line)
        t = s.turn
        if t.phase is Phase.BID and t.decider == t.caller:
            raise IllegalMove(f"{self.names[t.caller]} called neuro and must bid first")
        while s.turn.phase in (Phase.NEURO, Phase.BID):
            decline = Kind.NO_NEURO if s.turn.phase is Phase.NEURO else Kind.NO_BID
            s = s.apply(Move(decline, s.turn.decider))
        return s, self.move_of(line)

    def move_of(self, line: Line) -> Move:
        """The engine move a player's ``place``, ``pass``, ``neuro`` or ``bid`` line names, from
        this table's seat (another player's marker is face down). The one place a player's line
        becomes a move: :meth:`resolve` and the game against bots (the person's move) use it.
        Raises IllegalMove.

        >>> t = replay("game tresor\\nplayers Ana Ben\\nme Ana\\nhand 1cn 1ev 1ev\\nstart 1cv\\n", Deck(1, 2, 2))
        >>> t.move_of(t.parse("bid 5 on 0 1 with nature")).markers
        (Marker.NATURE,)
        """
        seat = self.seat(str(line.player))
        if line.verb is Verb.PLACE:
            return Move(Kind.PLACE, seat, card=line.card, row=line.row, col=line.col)
        if line.verb is Verb.PASS:
            return Move(Kind.PASS, seat)
        if line.verb is Verb.NEURO:
            return Move(Kind.NEURO, seat)
        if line.verb is Verb.BID:
            if seat == self.me and line.marker is None:
                raise IllegalMove(f"say your marker: {line.canonical()} with 0, 1, nature, fond or force")
            if seat != self.me and line.marker is not None:
                bare = replace(line, marker=None).canonical()
                raise IllegalMove(f"{self.names[seat]}'s marker is face down: write {bare!r}")
            marker = Marker.UNKNOWN if line.marker is None else line.marker
            return Move(Kind.BID, seat, row=line.row, col=line.col, base=line.base, markers=(marker,))
        raise IllegalMove(f"'{line.canonical()}' is not a move you make here", input=line.canonical())

    def _cannot_bid(self, s: State, seat: int) -> str | None:
        """Why ``seat`` cannot bid at all now, in words, or None."""
        if not s.cartons:
            return "no base carton is left: the bidding is over"
        if not s.markers[seat]:
            return f"{self.names[seat]} has no marker left"
        return None

    def _neuro(self, s: State, seat: int) -> State:
        """The state where ``seat`` calls neuro (the window's players before it let it go)."""
        who, t = self.names[seat], s.turn
        if t.phase is Phase.BID:
            raise IllegalMove(f"{self.names[t.caller]}'s bidding round is open: one round after each turn")
        reason = self._cannot_bid(s, seat)
        if reason is not None:
            raise IllegalMove(f"{who} cannot call neuro: {reason}")
        if t.phase is not Phase.NEURO:
            raise IllegalMove(f"neuro is called right after a turn, once: the table waits for {waiting_for(s)}")
        while s.turn.phase is Phase.NEURO and s.turn.decider != seat:
            s = s.apply(Move(Kind.NO_NEURO, s.turn.decider))
        return s

    def _bid(self, s: State, line: Line) -> State:
        """The state where ``line``'s player bids (the round's players before them let it go)."""
        seat = self.seat(str(line.player))
        who, t = self.names[seat], s.turn
        if t.phase is not Phase.BID:
            raise IllegalMove(f"no bidding round is open ({who} neuro opens one, right after a turn)")
        if t.decider == t.caller and seat != t.caller:
            raise IllegalMove(f"{self.names[t.caller]} called neuro and bids first")
        self.move_of(line)  # the marker said, or not, as the seat allows
        reason = self._cannot_bid(s, seat)
        if reason is not None:
            raise IllegalMove(f"{who} cannot bid: {reason}")
        while s.turn.phase is Phase.BID and s.turn.decider != seat:
            s = s.apply(Move(Kind.NO_BID, s.turn.decider))
        if s.turn.phase is not Phase.BID:
            raise IllegalMove(f"{who}'s chance to bid in {self.names[t.caller]}'s round has passed")
        return s

    # -- the end -----------------------------------------------------------------------------

    def _end_line(self, line: Line, s: State) -> tuple[Table, list[Event]]:
        base = self.end_base
        if base is None or not s.ended():
            waits = waiting_for(s)
            raise IllegalMove(f"'{line.verb.value}' comes once the domain is finished: the table waits for {waits}")
        ending = self.ending
        if line.verb is Verb.REMOVED:
            assert line.card is not None
            if ending.removed is not None:
                raise IllegalMove(f"the removed card is already shown: {ending.removed}")
            base.apply(Move(Kind.REMOVED, card=line.card))  # the engine's checks
            ending = replace(ending, removed=line.card)
        elif line.verb is Verb.REVEAL:
            ending = self._reveal(base, ending, self.seat(str(line.player)), line.markers)
        else:
            seat = self.seat(str(line.player))
            if base.suspects[seat] <= ending.breaches[seat]:
                raise IllegalMove(f"{self.names[seat]} made no other pass under deux cartes that could be a breach")
            breaches = tuple(b + (i == seat) for i, b in enumerate(ending.breaches))
            ending = replace(ending, breaches=breaches)
        table = replace(self, ending=ending, state=concluded(base, ending), played=(*self.played, line))
        final = table.final()
        if final is not None and final != self.final():
            return table, [Final(table.names, final, table.winners())]
        return table, [Waiting(table.waiting)] if table.waiting is not None else []

    def _reveal(self, base: State, ending: Ending, seat: int, markers: tuple[Marker, ...]) -> Ending:
        who = self.names[seat]
        made = tuple(b.marker for b in base.bids if b.player == seat)
        if not made:
            raise IllegalMove(f"{who} made no bid: there is nothing to reveal")
        if ending.revealed(seat):
            raise IllegalMove(f"{who}'s markers are already revealed")
        if seat == self.me:
            if markers != made:
                raise IllegalMove(f"your markers were {' '.join(str(m) for m in made)}, in the order of your bids")
        else:  # the engine's checks, as if it asked for this reveal now
            asked = base._replace(turn=Turn(Phase.REVEAL, decider=seat))
            asked.apply(Move(Kind.REVEAL, seat, markers=markers))
        return replace(ending, reveals=(*ending.reveals, (seat, markers)))


def concluded(base: State, ending: Ending) -> State:
    """The position once the end lines said so far are played in the engine's order: the
    removed card, then each bidder's reveal in seating order (as far as they are known), then
    the proven breaches (a player's other suspect passes cleared)."""
    s = base
    if ending.removed is None:
        return s
    s = s.apply(Move(Kind.REMOVED, card=ending.removed))
    reveals = dict(ending.reveals)
    while s.turn.phase is Phase.REVEAL and s.turn.decider in reveals:
        s = s.apply(Move(Kind.REVEAL, s.turn.decider, markers=reveals[s.turn.decider]))
    while s.turn.phase is Phase.BREACH:
        seat = s.turn.decider
        proven = ending.breaches[seat] > s.breaches[seat]
        s = s.apply(Move(Kind.BREACH if proven else Kind.NO_BREACH, seat))
    return s


def replay(text: str, deck: Deck = STANDARD) -> Table:
    """Apply every line of a record (its text); raises RecordError naming the line."""
    from ..records import replay as replay_lines

    return replay_lines(text.splitlines(), Table.new(deck))


__all__ = ["Ending", "Table", "concluded", "replay"]
