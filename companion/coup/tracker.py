"""The tracked Coup table: lines applied through the rules engine from one seat's point of view.

A :class:`Table` is composed of the set-up (:class:`~companion.coup.game_setup.Setup`), the
public position (an engine state whose unknown cards are wildcards), what the seat knows
(:class:`~companion.coup.knowledge.Knowledge`) and the public ledger
(:class:`~companion.coup.ledger.Ledger`). It is immutable: :meth:`Table.apply` returns the next
table and the events the line produced, or raises a GameError and changes nothing, so undo is
keeping the previous table.

>>> t = Table.new()
>>> for text in ("players Alice Bob Carol", "me Carol", "hand duke captain", "Alice tax"):
...     t = t.apply_text(text)
>>> t.open_window, t.turn
('challenge', 'Alice')
>>> t.apply_text("Alice assassinate Bob")
Traceback (most recent call last):
solver.errors.IllegalMove: Alice cannot assassinate now: the table waits for Bob to take an action
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from fractions import Fraction
from itertools import combinations

from solver.coup import (
    Character,
    Draft,
    GameError,
    IllegalMove,
    ImpossibleTable,
    Kind,
    Move,
    Phase,
    State,
    Variant,
    deck,
)
from solver.coup.counting import Beliefs, Odds
from solver.coup.engine import turn_face_up
from solver.coup.messages import claimed
from solver.coup.public import (
    Window,
    claim_of,
    claimant,
    hidden_from,
    meant,
    reveal,
    unseen_moves,
    window_name,
    window_passes,
)
from solver.coup.state import WINDOWS

from ..figures import counted
from ..tracked import Event, Lines, Over, Placed, Said, Waiting, placed_among
from .advice import (
    THRESHOLD,
    UNASSUMED,
    Sight,
    cannot_hold,
    challenge_note,
    draft_advice,
    judge,
    rejudge,
    rejudge_challenge,
)
from .advice import Challenged as ChallengedEvent
from .advice import Flagged as FlaggedEvent
from .game_setup import DraftModel, Setup
from .knowledge import Knowledge
from .language import PRIVATE, SETUP, Line, Verb, line_moves, parse_line, waiting
from .ledger import ChallengeNote, Claim, Ledger

UNKNOWN = Character.UNKNOWN
DRAFT_MODELS: tuple[DraftModel, ...] = ("uniform", "equilibrium")


@dataclass(frozen=True)
class Table(Lines[Line]):
    """One seat's table. Build with :meth:`new`; move with :meth:`apply` / :meth:`apply_text`."""

    setup: Setup = field(default_factory=Setup)
    state: State | None = None  # the public engine state, once the first action is typed
    knowledge: Knowledge | None = None
    ledger: Ledger = field(default_factory=Ledger)
    lines: tuple[tuple[int, Line], ...] = ()  # accepted lines with their record line numbers
    played_from: int = 0  # lines[played_from:] are play (the set-up lines come before)
    owed_redraw: bool = False  # the seat proved a card and has not yet typed its replacement
    deferred: Move | None = None  # the challenger's loss, typed before that replacement
    redraw_at: int | None = None  # where that replacement goes in the record (the loss came first)
    threshold: Fraction = THRESHOLD
    draft_model: DraftModel = "uniform"
    dropped: frozenset[int] = frozenset()  # lines whose failed proofs are not read as "holds none"
    placed: Placed | None = None  # where the last line went in the record

    @classmethod
    def new(cls, threshold: Fraction = THRESHOLD, draft_model: str = "uniform") -> Table:
        """An empty table. ``draft_model``: how the opponents' draft picks are weighed, uniform
        or by the draft's equilibrium (``coup draft``). Raises GameError for another model."""
        if draft_model not in DRAFT_MODELS:
            raise GameError(f"unknown draft model: {draft_model!r} (uniform or equilibrium)", input=draft_model)
        return cls(threshold=threshold, draft_model="equilibrium" if draft_model == "equilibrium" else "uniform")

    def __repr__(self) -> str:
        return f"<Table {len(self.lines)} lines, {self.state.text() if self.state else 'set-up'}>"

    # -- reading the table -------------------------------------------------------------------

    @property
    def names(self) -> tuple[str, ...]:
        return self.setup.names

    @property
    def variant(self) -> Variant:
        return self.setup.variant

    @property
    def draft(self) -> Draft:
        return self.setup.draft

    @property
    def me(self) -> int | None:
        return self.setup.me

    @property
    def claims(self) -> tuple[Claim, ...]:
        return self.ledger.claims

    @property
    def challenges(self) -> tuple[ChallengeNote, ...]:
        return self.ledger.challenges

    @property
    def face_up(self) -> tuple[tuple[Character, ...], ...]:
        return self.ledger.face_up

    @property
    def view(self) -> State | None:
        """The public position as the table sees it: ``state``, with a loss typed before the
        seat's replacement already turned face up (the action it lets go on waits for the
        replacement: the turn stays with the actor)."""
        if self.state is None or self.deferred is None:
            return self.state
        return turn_face_up(self.state, self.deferred)

    @property
    def started(self) -> bool:
        return self.state is not None

    @property
    def spectator(self) -> bool:
        return self.me is None

    @property
    def over(self) -> bool:
        return self.state is not None and self.state.is_terminal()

    @property
    def beliefs(self) -> Beliefs | None:
        """The seat's exact distribution of the unseen cards (with the assumptions)."""
        return self.knowledge.beliefs if self.knowledge is not None else None

    @property
    def turn(self) -> str | None:
        """The player whose turn it is (the actor until the action is resolved); None once over."""
        if self.state is None:
            return self.names[0] if self.names else None
        return None if self.state.is_terminal() else self.names[self.state.turn.actor]

    @property
    def open_window(self) -> Window | None:
        """``'challenge'``, ``'block'``, ``'block-challenge'`` or None."""
        return window_name(self.state) if self.state is not None else None

    @property
    def waiting(self) -> str | None:
        """What the table waits for, in words; None when nothing is owed."""
        if self.state is None:
            return self.setup.missing()
        if self.owed_redraw and not self.over:
            return f"{self.names[self.me or 0]} to draw a replacement (draw CARD)"
        return waiting(self.state, self.me)

    @property
    def at_heads_up_turn_start(self) -> bool:
        """True when the seat is one of the two players left, at a turn start, with nothing
        owed to the table (see :meth:`State.is_heads_up_turn_start`)."""
        view = self.view
        return view is not None and view.is_heads_up_turn_start() and self.waiting is None and self.me in view.living()

    def my_cards(self) -> tuple[Character, ...]:
        """The seat's face-down cards (known ones, and an exchange's drawn cards)."""
        if self.me is None:
            return ()
        if self.state is None:
            return self.setup.my_cards()
        s = self.state
        drawn = s.turn.cards if s.turn.phase is Phase.EXCHANGE_KEEP and s.turn.actor == self.me else ()
        return tuple(sorted(c for c in (*s.hidden[self.me], *drawn) if c is not UNKNOWN))

    def unseen(self) -> dict[Character, int]:
        """Per character: copies minus face-up, minus the seat's own cards (face down, being
        exchanged, or in the draft its whole pack)."""
        total = {c: deck(self.variant, max(2, len(self.names))).count(c) for c in self.variant.characters}
        for cards in self.face_up:
            for c in cards:
                total[c] -= 1
        for c in self.my_cards():
            total[c] -= 1
        if self.me is not None and self.setup.draft_game:  # the seat has seen its whole pack
            for c in self.variant.characters:
                if c is not self.setup.pick:
                    total[c] -= 1
        return total

    def holds(self, seat: int, beliefs: Beliefs | None = None) -> dict[Character, Fraction]:
        """For another living seat: the probability it holds at least one of each character."""
        b = beliefs or self.beliefs
        if b is None:
            raise GameError("the game has not started")
        return b.holds(seat)

    def probability_holds(self, seat: int, character: Character, beliefs: Beliefs | None = None) -> Fraction:
        """P(``seat`` holds a ``character``): 0 or 1 for the tracked seat."""
        if seat == self.me:
            return Fraction(int(character in self.my_cards()))
        return self.holds(seat, beliefs)[character]

    def odds(self, seat: int, character: Character) -> Odds | None:
        """How often another seat holds a ``character``, per assumption mask (None for the
        tracked seat, or before the game)."""
        if seat == self.me or self.knowledge is None:
            return None
        return self.knowledge.counts.odds(seat, character)

    def sight(self) -> Sight:
        """What the advice reads of this table (raises GameError before the game)."""
        if self.knowledge is None:
            raise GameError("the game has not started")
        cards = deck(self.variant, len(self.names))
        return Sight(
            self.names,
            self.me,
            self.my_cards(),
            {c: cards.count(c) for c in self.variant.characters},
            {c: sum(cards.count(c) for cards in self.face_up) for c in self.variant.characters},
            self.unseen(),
            self.knowledge.counts,
            tuple(self.knowledge.active_assumptions(self.dropped)),
            self.threshold,
        )

    def seat(self, name: str) -> int:
        return self.names.index(name)

    @property
    def notes(self) -> tuple[str, ...]:
        return self.knowledge.notes if self.knowledge is not None else ()

    def record_lines(self) -> list[str]:
        """The canonical record: the set-up in its canonical order (``variant`` and, for two
        players, ``draft`` written even when not typed), then every play line. The journal is
        this from the first line, so its line numbers are the canonical form's."""
        played = self.lines[self.played_from :] if self.started else ()
        return self._setup_record() + [line.canonical() for _, line in played]

    def _setup_record(self) -> list[str]:
        return [line.canonical() for line in self.setup.lines(defaults=True)]

    def record(self) -> str:
        """The canonical form of the record (``coup replay --canonical``), with a final newline."""
        return "".join(line + "\n" for line in self.record_lines())

    def status(self) -> str:
        waiting = f"; waiting for {self.waiting}" if self.waiting else ""
        return f"{counted(len(self.lines), 'line')} so far{waiting}"

    # -- applying a line ---------------------------------------------------------------------

    def parse(self, text: str) -> Line | None:
        return parse_line(text, self.names)

    def apply(self, line: Line, number: int) -> tuple[Table, tuple[Event, ...]]:
        """The table after ``line`` (record line ``number``) and the events it produced (flags,
        a challenge's chance, advice, the end, what the table now waits for). Raises GameError.

        If the line contradicts the behavioural assumption about earlier failed proofs (but
        not the cards), the assumptions that cause it are dropped and the table rebuilt.
        """
        table, said = self._apply(self._unnamed(line), number)
        events = list(said)
        if table.knowledge is not None and table.knowledge.contradicted:
            table, said = self._without_contradiction(table, said)
            events = [*said, Said(UNASSUMED)]
        advice = draft_advice(self.setup, table.setup)
        if advice is not None:
            events.append(advice)
        if table.over and not self.over:
            assert table.state is not None
            events.append(Over(f"{table.names[table.state.winner() or 0]} wins"))
        elif table.started and table.waiting is not None:
            events.append(Waiting(table.waiting))
        return table, tuple(events)

    def _unnamed(self, line: Line) -> Line:
        """A private line of the tracked seat written with its name (``Alice draw duke``, as a
        move is printed) is the seat's line; another player's is refused: its table does not
        see it."""
        if line.verb not in PRIVATE or line.player is None:
            return line
        if self.me is None or line.player != self.names[self.me]:
            seat = f"{self.names[self.me]}'s seat" if self.me is not None else "a spectator's record"
            raise IllegalMove(
                f"{line.player}'s {line.verb.value} is not seen from {seat}: leave it out", input=line.canonical()
            )
        return replace(line, player=None)

    def _apply(self, line: Line, number: int) -> tuple[Table, tuple[Event, ...]]:
        """The table after ``line`` and the events its moves said (flags, a challenge's chance)."""
        if self.over:
            assert self.state is not None
            raise IllegalMove(f"the game is over: {self.names[self.state.winner() or 0]} won")
        if line.verb in SETUP and not (line.verb is Verb.COINS and self.started):
            if self.started:
                raise IllegalMove(f"'{line.canonical()}' is a set-up line: the game has started")
            table = replace(self, setup=self.setup.apply(line))
            placed = placed_among(line.canonical(), self._setup_record(), table._setup_record())
            return replace(table, lines=(*self.lines, (number, line)), placed=placed), ()
        table, said = (self.start() if self.state is None else self)._play(line, number)
        return table._recorded(line, number), said

    def _recorded(self, line: Line, number: int) -> Table:
        """The table with ``line`` in its record: a replacement typed after the challenger's
        loss goes before it (show, draw, lose)."""
        entry, text = (number, line), line.canonical()
        if self.redraw_at is not None and line.verb is Verb.DRAW and not self.owed_redraw:
            at = self.redraw_at
            placed = Placed("inserted", text, self._record_index(at))
            return replace(self, lines=(*self.lines[:at], entry, *self.lines[at:]), redraw_at=None, placed=placed)
        placed = Placed("appended", text, self._record_index(len(self.lines)))
        return replace(self, lines=(*self.lines, entry), placed=placed)

    def _record_index(self, at: int) -> int:
        """The index in the record of the play line at ``lines[at]``."""
        return len(self.setup.lines(defaults=True)) + at - self.played_from

    def _without_contradiction(self, contradicted: Table, said: tuple[Event, ...]) -> tuple[Table, tuple[Event, ...]]:
        """Drop every assumption in a smallest set whose dropping makes the record possible
        (``contradicted``: the table after the line, which ``said`` those events)."""
        knowledge = contradicted.knowledge
        assert knowledge is not None
        active = [a.line for a in knowledge.active_assumptions(self.dropped)]
        for size in range(1, len(active) + 1):
            causes = [set(g) for g in combinations(active, size) if knowledge.possible_without(frozenset(g))]
            if causes:
                return contradicted._dropping(self.dropped | frozenset(set().union(*causes)), said)
        raise ImpossibleTable("impossible even without the assumptions about failed proofs")

    def _dropping(self, dropped: frozenset[int], said: tuple[Event, ...]) -> tuple[Table, tuple[Event, ...]]:
        """The table as if replayed without the assumptions of ``dropped``: the worlds' masks
        re-read, every claim and challenge judged again, this line's events (``said``) with them."""
        assert self.knowledge is not None
        table = replace(self, dropped=dropped, knowledge=self.knowledge.dropping(dropped - self.dropped))
        sight = table.sight()
        claims = tuple(rejudge(sight, c) for c in self.ledger.claims)
        notes = tuple(rejudge_challenge(sight, n) for n in self.ledger.challenges)
        table = replace(table, ledger=replace(self.ledger, claims=claims, challenges=notes))
        events: list[Event] = []
        for event in said:
            if isinstance(event, FlaggedEvent):
                events += [FlaggedEvent(c) for c in claims if c.line == event.claim.line and c.flagged and c.level]
            elif isinstance(event, ChallengedEvent):
                events += [ChallengedEvent(n) for n in notes if n.line == event.note.line]
            else:
                events.append(event)
        return table, tuple(events)

    # -- set-up --------------------------------------------------------------------------------

    def start(self) -> Table:
        """Freeze the set-up: the public engine state and the seat's prior (raises if owed)."""
        state = self.setup.opening()
        picks = None
        if self.setup.draft_game and self.draft_model == "equilibrium":
            from .draft_advice import pick_model

            picks = pick_model(self.variant, self.draft)
        prior = self.setup.prior(state, picks)
        return replace(
            self,
            state=state,
            knowledge=Knowledge.start(prior),
            ledger=Ledger.empty(len(self.names)),
            played_from=len(self.lines),
        )

    # -- play ----------------------------------------------------------------------------------

    def _play(self, line: Line, number: int) -> tuple[Table, tuple[Event, ...]]:
        """The table after a play line: resolved against the legal moves, windows closing
        implicitly included (:func:`~solver.coup.public.meant`), then each move played."""
        if line.verb is Verb.COINS:
            return self._coins(line), ()
        self._living(line)
        if self.owed_redraw and not self._may_come_before_redraw(line):
            raise IllegalMove(f"the table waits for {self.waiting}")
        state = self.state
        assert state is not None
        if self.owed_redraw and line.verb is Verb.DRAW:
            return self._redrawn(line), ()
        if line.verb is Verb.PASS and line.player is None:
            if state.turn.phase not in WINDOWS:
                raise IllegalMove("no window is open: pass closes a challenge or block window")
            moves = window_passes(state)
        else:
            respond = line.verb in (Verb.CHALLENGE, Verb.BLOCK, Verb.PASS)
            moves = meant(state, lambda position: line_moves(line, position, self.me), self.me, respond)
        table: Table = self
        said: tuple[Event, ...] = ()
        for move in moves:
            table, events = table._move(move, number)
            said += events
        return table, said

    def _living(self, line: Line) -> None:
        """Raises IllegalMove if the line's player or target is out of the game."""
        s = self.state
        assert s is not None
        if line.player is not None and not s.alive(self.seat(line.player)):
            raise IllegalMove(f"{line.player} is out of the game", input=line.canonical())
        if line.target is not None and not s.alive(self.seat(line.target)):
            raise IllegalMove(
                f"{line.target} is out of the game: {line.player} cannot target them", input=line.canonical()
            )

    def _may_come_before_redraw(self, line: Line) -> bool:
        s = self.state
        return line.verb is Verb.DRAW or (
            line.verb is Verb.LOSE
            and s is not None
            and s.turn.phase is Phase.LOSE
            and line.player is not None
            and self.seat(line.player) == s.turn.decider
        )

    def _coins(self, line: Line) -> Table:
        s = self.state
        assert s is not None
        seat, amount = self.seat(str(line.player)), int(line.value or 0)
        if s.turn.phase is not Phase.ACTION or self.owed_redraw:
            raise IllegalMove("coins can be corrected only when nothing is owed and no window is open")
        if not s.alive(seat) and amount:
            raise IllegalMove(f"{line.player} is out of the game: no coins")
        return replace(self, state=s._replace(coins=s.coins[:seat] + (amount,) + s.coins[seat + 1 :]))

    def close_window(self, number: int) -> Table:
        """The table with everybody still to speak in the open window letting it pass (as a line
        that cannot be a response closes it). ``number``: the line that closes it."""
        assert self.state is not None
        table = self
        for move in window_passes(self.state):
            table = table._step(move, number)
        return table

    # -- playing the moves a line names ----------------------------------------------------------

    def _move(self, move: Move, number: int) -> tuple[Table, tuple[Event, ...]]:
        """The table after one move a line names, with what the advice notes of it (a claim, an
        action's or a block's; a challenge and its chance; a loss before a replacement), and the
        events that says."""
        s = self.state
        assert s is not None
        if move.kind is Kind.CHALLENGE:
            note = challenge_note(self.sight(), number, move.player, claimant(s), claimed(s))
            return replace(self, ledger=self.ledger.challenged(note))._step(move, number), (ChallengedEvent(note),)
        if move.kind is Kind.LOSE and self.owed_redraw:
            return self._lose_before_redraw(move, number), ()
        table, said = self._claim_before(move, number)
        return table._step(move, number), said

    def _lose_before_redraw(self, move: Move, number: int) -> Table:
        """The challenger's loss before the seat's replacement: seen now, played after the draw."""
        s = self.state
        assert s is not None and self.knowledge is not None
        if s.apply(move).is_terminal():
            return self._step(move, number)
        table = replace(self, deferred=move, redraw_at=len(self.lines))
        table = replace(table, ledger=self.ledger.after(s, s, move))
        knowledge = self.knowledge.learn(s, move, number, self.me, table._cannot_hold, self.dropped)
        return replace(table, knowledge=knowledge)

    def _redrawn(self, line: Line) -> Table:
        """The seat's replacement for a card it proved, and the loss typed before it played."""
        s = self.state
        assert s is not None and self.me is not None and self.knowledge is not None
        if len(line.cards) != 1:
            raise IllegalMove("the replacement is one card: draw CARD")
        card = line.cards[0]
        knowledge = self.knowledge.drew_replacement(card)
        state = reveal(s, self.me, card)
        table = replace(self, state=state, knowledge=knowledge, owed_redraw=False, deferred=None)
        if self.deferred is None:
            return table
        return replace(table, state=hidden_from(state.apply(self.deferred), self.me))._advance()

    def _claim_before(self, move: Move, number: int) -> tuple[Table, tuple[Event, ...]]:
        """Note a claim (before it is applied), judged by the advice: its chance and flag (said
        if flagged)."""
        s = self.state
        assert s is not None
        character = claim_of(s, move)
        if character is None or character not in s.variant.characters or not s.alive(move.player):
            return self, ()
        claim = judge(self.sight(), move.player, character, number, move.kind is Kind.BLOCK)
        table = replace(self, ledger=self.ledger.claimed(claim))
        return table, (FlaggedEvent(claim, self.threshold),) if claim.flagged and claim.level is not None else ()

    # -- one engine move, what the seat learns, and what follows unseen --------------------------

    def _step(self, move: Move, number: int) -> Table:
        s = self.state
        assert s is not None and self.knowledge is not None
        after = s.apply(move)
        table = replace(self, state=hidden_from(after, self.me), ledger=self.ledger.after(s, after, move))
        knowledge = self.knowledge.learn(s, move, number, self.me, table._cannot_hold, self.dropped)
        return replace(table, knowledge=knowledge)._advance()

    def _advance(self) -> Table:
        """Play what follows unseen by the seat (:func:`~solver.coup.public.unseen_moves`):
        other players' draws and kept cards, and a placeholder for the seat's own replacement
        (its `draw` line may come later)."""
        table = self
        assert self.state is not None
        for move in unseen_moves(self.state, self.me):
            s, knowledge = table.state, table.knowledge
            assert s is not None and knowledge is not None
            t = s.turn
            state = hidden_from(s.apply(move), self.me)
            if t.phase is Phase.REDRAW and move.player == self.me:
                table = replace(table, state=state, owed_redraw=True)
            elif t.phase is Phase.REDRAW:
                table = replace(table, state=state, knowledge=knowledge.drawn_unseen(move.player, 1))
            elif t.phase is Phase.EXCHANGE_KEEP:
                kept = knowledge.exchanged_unseen(move.player, len(t.cards), len(move.cards))
                table = replace(table, state=state, knowledge=kept)
            else:
                table = replace(table, state=state)
        return table

    def _cannot_hold(self, seat: int, character: Character) -> str:
        return cannot_hold(self.sight(), seat, character)


def replay(text: str, threshold: Fraction = THRESHOLD) -> Table:
    """Apply every line of a record (its text); raises RecordError naming the line."""
    from ..records import replay as replay_lines

    return replay_lines(text.splitlines(), Table.new(threshold))


__all__ = ["ChallengeNote", "Claim", "Table", "replay"]
