"""The tracked table: lines applied through the rules engine from one seat's point of view.

A :class:`Table` is immutable: :meth:`Table.apply` returns the next table or raises a
:class:`~solver.GameError` and changes nothing, so undo is keeping the previous table. The
engine sees a *public* state (other players' cards and the court as unknown cards); what the
seat knows of where the cards are lives in :class:`~companion.coup.beliefs.Beliefs`.

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

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from fractions import Fraction
from itertools import combinations
from operator import methodcaller

from solver.coup import (
    NOBODY,
    RULES,
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
from solver.coup.messages import claimed, waiting_for

from .advice import THRESHOLD, ChallengeNote, Claim, assumption_reason, count_reason, level
from .beliefs import Beliefs
from .language import ACTIONS, SETUP, Line, Verb, parse_line
from .learn import Assumption, advance, learn, observe, public
from .setup import apply_setup, start

UNKNOWN = Character.UNKNOWN
ACTION_KINDS = {  # the verb of an action line -> the engine's kind
    Verb.INCOME: Kind.INCOME,
    Verb.AID: Kind.AID,
    Verb.COUP: Kind.COUP,
    Verb.TAX: Kind.TAX,
    Verb.ASSASSINATE: Kind.ASSASSINATE,
    Verb.STEAL: Kind.STEAL,
    Verb.EXCHANGE: Kind.EXCHANGE,
    Verb.EXAMINE: Kind.EXAMINE,
}
WINDOW_NAMES = {Phase.CHALLENGE: "challenge", Phase.BLOCK: "block", Phase.BLOCK_CHALLENGE: "block-challenge"}


@dataclass(frozen=True)
class Table:
    """One seat's table. Build with :meth:`new`; move with :meth:`apply_text` / :meth:`apply`."""

    names: tuple[str, ...] = ()
    variant: Variant = Variant.AMBASSADOR
    draft: Draft = Draft.DEALT_FIRST
    me: int | None = None
    hand: tuple[Character, ...] = ()  # the seat's starting hand (or dealt + pick)
    dealt: Character | None = None
    pick: Character | None = None
    coins: tuple[int, ...] = ()
    setup_lines: frozenset[Verb] = frozenset()
    state: State | None = None  # the public engine state, once the first action is typed
    beliefs: Beliefs | None = None  # with the behavioural assumptions
    free: Beliefs | None = None  # without them
    lines: tuple[tuple[int, Line], ...] = ()  # accepted lines with their record line numbers
    face_up: tuple[tuple[Character, ...], ...] = ()  # per seat, in the order turned
    claims: tuple[Claim, ...] = ()
    challenges: tuple[ChallengeNote, ...] = ()
    assumptions: tuple[Assumption, ...] = ()
    dropped: frozenset[int] = frozenset()  # lines whose assumptions were dropped
    owed_redraw: bool = False  # the seat proved a card and has not yet typed its replacement
    deferred: Move | None = None  # the challenger's loss, typed before that replacement
    threshold: Fraction = THRESHOLD
    draft_model: str = "uniform"  # the opponent's draft pick: "uniform" or "equilibrium"
    shown_to_me: Character | None = field(default=None)  # the card the seat saw while examining
    notes: tuple[str, ...] = ()  # what the seat knows of where cards are, in words

    @classmethod
    def new(cls, threshold: Fraction = THRESHOLD, draft_model: str = "uniform") -> Table:
        """An empty table. ``draft_model``: how the opponents' draft picks are weighed, uniform
        or by the draft's equilibrium (``coup draft``)."""
        if draft_model not in DRAFT_MODELS:
            raise GameError(f"unknown draft model: {draft_model!r} (uniform or equilibrium)")
        return cls(threshold=threshold, draft_model=draft_model)

    def __repr__(self) -> str:
        return f"<Table {len(self.lines)} lines, {self.state.text() if self.state else 'set-up'}>"

    # -- reading the table ----------------------------------------------------------------

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
    def turn(self) -> str | None:
        """The player whose turn it is (the actor until the action is resolved); None once over."""
        if self.state is None:
            return self.names[0] if self.names else None
        if self.state.is_terminal():
            return None
        return self.names[self.state.turn.actor]

    @property
    def open_window(self) -> str | None:
        """``'challenge'``, ``'block'``, ``'block-challenge'`` or None."""
        if self.state is None:
            return None
        return WINDOW_NAMES.get(self.state.turn.phase)

    @property
    def waiting(self) -> str | None:
        """What the table waits for, in words; None when nothing is owed."""
        if not self.names:
            return "the players (players Alice Bob Carol)"
        if self.state is None:
            missing = self._missing_setup()
            return missing
        if self.owed_redraw and not self.over:
            return f"{self.names[self.me or 0]} draws a replacement (draw CARD)"
        s = self.state
        phase = s.turn.phase
        if phase in WINDOW_NAMES or phase is Phase.ACTION or phase is Phase.OVER:
            return None
        if phase is Phase.EXAMINE_SHOW and s.turn.decider != self.me and s.turn.actor != self.me:
            return f"{self.names[s.turn.actor]} swaps or returns"
        if phase is Phase.EXAMINE_SHOW and s.turn.actor == self.me:
            return f"the card {self.names[s.turn.decider]} shows you (saw CARD)"
        return waiting_for(s)

    def _missing_setup(self) -> str | None:
        if self.me is None:
            return None
        name = self.names[self.me]
        if self._draft_game():
            if self.dealt is None:
                return f"{name}'s dealt card (dealt CARD)"
            if self.pick is None:
                return f"{name}'s pick (pick CARD)"
            return None
        if not self.hand:
            return f"{name}'s cards (hand CARD CARD)"
        return None

    def _draft_game(self) -> bool:
        return len(self.names) == 2 and self.draft is not Draft.NONE

    def my_cards(self) -> tuple[Character, ...]:
        """The seat's face-down cards (known ones), in character-table order."""
        if self.me is None:
            return ()
        if self.state is None:
            return tuple(sorted(self.hand or tuple(c for c in (self.dealt, self.pick) if c is not None)))
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
        if self.me is not None and self._draft_game():  # the seat has seen its whole pack
            for c in self.variant.characters:
                if c is not self.pick:
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

    def seat(self, name: str) -> int:
        return self.names.index(name)

    def record(self) -> str:
        """The canonical record: every accepted line, one per line, with a final newline."""
        return "".join(line.canonical() + "\n" for _, line in self.lines)

    # -- applying a line ---------------------------------------------------------------------

    def apply_text(self, text: str, number: int | None = None) -> Table:
        """Parse ``text`` and apply it; a blank or comment line changes nothing.

        Raises :class:`~solver.GameError` (ParseError, IllegalMove, ImpossibleTable).
        """
        line = parse_line(text, self.names)
        if line is None:
            return self
        return self.apply(line, number if number is not None else len(self.lines) + 1)

    def apply(self, line: Line, number: int) -> Table:
        """Return the table after ``line`` (record line ``number``). Raises GameError.

        If the line contradicts the behavioural assumption about earlier failed proofs (but
        not the cards), the assumptions that cause it are dropped and the table rebuilt.
        """
        table = self._apply(line, number)
        if table.started and table.beliefs is None:
            table = self._without_contradiction(line, number)
        if self.deferred is not None and table.deferred is None and line.verb is Verb.DRAW:
            # canonical order of a proof by the seat: show, draw, then the challenger's lose
            lines = list(table.lines)
            lines.insert(len(lines) - 2, lines.pop())
            table = replace(table, lines=tuple(lines))
        return table

    def _apply(self, line: Line, number: int) -> Table:
        if self.over:
            winner = self.state.winner() if self.state else None
            raise IllegalMove(f"the game is over: {self.names[winner] if winner is not None else '?'} won")
        if line.verb in SETUP:
            table = apply_setup(self, line)
        else:
            table = self.start() if self.state is None else self
            table = table._play(line, number)
        return replace(table, lines=(*table.lines, (number, line)))

    def _without_contradiction(self, line: Line, number: int) -> Table:
        """Drop every assumption in a smallest set whose dropping makes the record possible."""
        lines = (*self.lines, (number, line))
        contradicted = self._apply(line, number)
        active = [a.line for a in contradicted.assumptions if a.line not in self.dropped]
        for size in range(1, len(active) + 1):
            causes = [set(group) for group in combinations(active, size) if _possible(lines, self, set(group))]
            if causes:
                dropped = self.dropped | frozenset(set().union(*causes))
                return _rebuild(lines, self.threshold, dropped, self.draft_model)
        raise ImpossibleTable("impossible even without the assumptions about failed proofs")

    # -- set-up ----------------------------------------------------------------------------

    def start(self) -> Table:
        """Freeze the set-up: the public engine state and the seat's beliefs (raises if owed)."""
        return start(self)

    # -- play -----------------------------------------------------------------------------

    def _play(self, line: Line, number: int) -> Table:
        if self.owed_redraw and not self._may_come_before_redraw(line):
            raise IllegalMove(f"the table waits for {self.waiting}")
        if line.verb is Verb.PASS:
            return self._pass(number)
        errors: list[GameError] = []
        table = self
        for _ in range(4):  # close open windows one at a time until the line fits
            try:
                return table._direct(line, number)
            except IllegalMove as error:
                errors.append(error)
            assert table.state is not None
            if table.state.turn.phase not in WINDOW_NAMES:
                break
            table = table.close_window(number)
        first_is_better = line.verb in (Verb.CHALLENGE, Verb.BLOCK) and self.open_window is not None
        raise errors[0] if first_is_better else errors[-1]

    def _may_come_before_redraw(self, line: Line) -> bool:
        s = self.state
        return line.verb is Verb.DRAW or (
            line.verb is Verb.LOSE
            and s is not None
            and s.turn.phase is Phase.LOSE
            and line.player is not None
            and self.seat(line.player) == s.turn.decider
        )

    def _pass(self, number: int) -> Table:
        if self.state is None or self.state.turn.phase not in WINDOW_NAMES:
            raise IllegalMove("no window is open: pass closes a challenge or block window")
        return self.close_window(number)

    def close_window(self, number: int) -> Table:
        """The table with everybody still to speak in the open window letting it pass (as a line
        that cannot be a response closes it). ``number``: the line that closes it."""
        assert self.state is not None
        phase = self.state.turn.phase
        table = self
        while table.state is not None and table.state.turn.phase is phase and phase in WINDOW_NAMES:
            table = table._step(Move(Kind.PASS, table.state.turn.decider), number)
        return table

    def _direct(self, line: Line, number: int) -> Table:
        """Apply ``line`` as a move of the current phase (no implicit closing)."""
        handler = _DIRECT.get(line.verb)
        if handler is None:
            raise IllegalMove(f"{line.canonical()!r} cannot be played now")
        return handler(self, line, number)

    def _action(self, line: Line, number: int) -> Table:
        seat = self.seat(str(line.player))
        target = self.seat(line.target) if line.target is not None else NOBODY
        move = Move(ACTION_KINDS[line.verb], seat, target)
        return self._claim_before(move, line, number)._step(move, number)

    def _lose(self, line: Line, number: int) -> Table:
        s = self.state
        assert s is not None
        move = Move(Kind.LOSE, self.seat(str(line.player)), cards=line.cards)
        if self.owed_redraw and not s.apply(move).is_terminal():
            return self._defer(move, number)
        return self._step(move, number)

    def _keep(self, line: Line, number: int) -> Table:
        if self.me is None:
            raise IllegalMove("keep is the tracked seat's line (me NAME)")
        return self._step(Move(Kind.KEEP, self.me, cards=line.cards), number)

    def _offer_until(self, seat: int, phases: tuple[Phase, ...], number: int, what: str) -> Table:
        """Let the players offered the open window before ``seat`` pass."""
        table = self
        s = self.state
        assert s is not None
        if s.turn.phase not in phases:
            raise IllegalMove(f"{self.names[seat]} cannot {what} now: the table waits for {waiting_for(s)}")
        phase = s.turn.phase
        while True:
            state = table.state
            assert state is not None
            if state.turn.phase is not phase:
                raise IllegalMove(f"{self.names[seat]} cannot {what} now: {_why_not_offered(self, seat, phase)}")
            if state.turn.decider == seat:
                return table
            table = table._step(Move(Kind.PASS, state.turn.decider), number)

    def _challenge(self, line: Line, number: int) -> Table:
        seat = self.seat(str(line.player))
        table = self._offer_until(seat, (Phase.CHALLENGE, Phase.BLOCK_CHALLENGE), number, "challenge")
        s = table.state
        assert s is not None and s.turn.action is not None
        t = s.turn
        claimant = t.actor if t.phase is Phase.CHALLENGE else t.blocker
        character = claimed(s)
        p = table.probability_holds(claimant, character)
        note = ChallengeNote(number, self.names[seat], self.names[claimant], character, 1 - p)
        table = replace(table, challenges=(*table.challenges, note))
        return table._step(Move(Kind.CHALLENGE, seat), number)

    def _block(self, line: Line, number: int) -> Table:
        seat = self.seat(str(line.player))
        table = self._offer_until(seat, (Phase.BLOCK,), number, "block")
        move = Move(Kind.BLOCK, seat, cards=line.cards)
        table = table._claim_before(move, line, number)
        return table._step(move, number)

    def _show(self, line: Line, number: int) -> Table:
        s = self.state
        assert s is not None
        seat = self.seat(str(line.player))
        if s.turn.phase is Phase.EXAMINE_SHOW:
            if seat == self.me:
                if not line.cards:
                    raise IllegalMove(f"which card do you show? ({line.player} show CARD)")
                return self._step(Move(Kind.SHOW, seat, cards=line.cards), number)
            if line.cards:
                raise IllegalMove(
                    f"only {self.names[s.turn.actor]} sees the card: write '{line.player} show' "
                    "(or 'saw CARD' if you are the one examining)"
                )
            if s.turn.actor == self.me:
                raise IllegalMove("write what you saw: saw CARD")
            return self._step(Move(Kind.SHOW, seat, cards=(UNKNOWN,)), number)
        if not line.cards:
            raise IllegalMove(f"show which card? ({line.player} show CARD)")
        return self._step(Move(Kind.PROVE, seat, cards=line.cards), number)

    def _decide(self, line: Line, number: int) -> Table:
        s = self.state
        assert s is not None
        seat = self.seat(str(line.player))
        table = self
        if s.turn.phase is Phase.EXAMINE_SHOW and s.turn.actor == seat:
            if seat == self.me:
                raise IllegalMove("first write what you saw: saw CARD")
            if s.turn.decider == self.me:
                raise IllegalMove(f"first write the card you showed: {self.names[s.turn.decider]} show CARD")
            table = self._step(Move(Kind.SHOW, s.turn.decider, cards=(UNKNOWN,)), number)
        kind = Kind.SWAP if line.verb is Verb.SWAP else Kind.RETURN
        return table._step(Move(kind, seat), number)

    def _saw(self, line: Line, number: int) -> Table:
        s = self.state
        assert s is not None
        if self.me is None or s.turn.phase is not Phase.EXAMINE_SHOW or s.turn.actor != self.me:
            raise IllegalMove("saw is for the tracked seat's examine, once its windows are closed")
        return self._step(Move(Kind.SHOW, s.turn.decider, cards=line.cards), number)

    def _draw(self, line: Line, number: int) -> Table:
        s = self.state
        assert s is not None
        if self.me is None:
            raise IllegalMove("draw is the tracked seat's line (me NAME)")
        if self.owed_redraw:
            if len(line.cards) != 1:
                raise IllegalMove("the replacement is one card: draw CARD")
            hand = list(s.hidden[self.me])
            hand.remove(UNKNOWN)
            state = s._replace(hidden=_with_hand(s.hidden, self.me, tuple(sorted((*hand, line.cards[0])))))
            table = replace(self, state=state, owed_redraw=False)
            table = observe(table, methodcaller("observe_draw", line.cards[0]), number)
            if self.deferred is not None:  # the challenger's loss was typed first: now it counts
                table = replace(table, state=public(state.apply(self.deferred), self.me), deferred=None)
                table = advance(table, number)
            return table
        phase = s.turn.phase
        if phase is Phase.EXCHANGE_DRAW and s.turn.actor == self.me:
            return self._step(Move(Kind.DRAW, self.me, cards=line.cards), number)
        if phase is Phase.SWAP_DRAW and s.turn.decider == self.me:
            return self._step(Move(Kind.DRAW, self.me, cards=line.cards), number)
        raise IllegalMove(f"nothing to draw now: the table waits for {self.waiting or waiting_for(s)}")

    def _defer(self, move: Move, number: int) -> Table:
        """The challenger's loss before the seat's replacement: seen now, played after the draw."""
        s = self.state
        assert s is not None
        s.apply(move)  # legal?
        table = replace(self, deferred=move)._bookkeeping(s, move)
        return learn(table, s, move, number)

    @property
    def view(self) -> State | None:
        """The public state as the table sees it (with a deferred loss already turned up)."""
        s, move = self.state, self.deferred
        if s is None or move is None:
            return s
        seat = move.player
        hand = s.hidden[seat][1:]
        face_up = tuple(sorted((*s.face_up[seat], move.card)))
        coins = s.coins if hand else s.coins[:seat] + (0,) + s.coins[seat + 1 :]
        return s._replace(
            hidden=_with_hand(s.hidden, seat, hand), face_up=_with_hand(s.face_up, seat, face_up), coins=coins
        )

    # -- claims ------------------------------------------------------------------------------

    def _claim_before(self, move: Move, line: Line, number: int) -> Table:
        """Note a claim (before it is applied): its probability and flag."""
        s = self.state
        assert s is not None
        if move.kind is Kind.BLOCK:
            character = move.card
        else:
            rule = RULES[s.variant].get(move.kind)
            if rule is None or rule.claim is None:
                return self
            character = rule.claim
        if character not in s.variant.characters:
            return self
        seat = move.player
        if not s.alive(seat):
            return self
        p = self.probability_holds(seat, character)
        flagged = seat != self.me
        lvl = level(p, self.threshold) if flagged else None
        because, reason = None, ""
        if lvl is not None:
            because, reason = self._why(seat, character, p, lvl)
        claim = Claim(
            number, self.names[seat], character, move.kind is Kind.BLOCK, p, lvl, because, reason, flagged=flagged
        )
        return replace(self, claims=(*self.claims, claim))

    def _why(self, seat: int, character: Character, p: Fraction, lvl: str) -> tuple[str, str]:
        """("count" or "assumption", the reason in words) for a flagged claim."""
        unseen = self.unseen()[character]
        total = deck(self.variant, len(self.names)).count(character)
        face_up = sum(cards.count(character) for cards in self.face_up)
        mine = self.my_cards().count(character)
        text = count_reason(character, total, face_up, mine, unseen, self.spectator)
        active = [a for a in self.assumptions if a.line not in self.dropped]
        if not active or self.free is None:
            return "count", text
        free_p = self.probability_holds(seat, character, self.free)
        if level(free_p, self.threshold) == lvl:
            return "count", text
        causes = [a for a in active if a.character is character] or active
        return "assumption", assumption_reason(self.names[causes[-1].seat], causes[-1].character)

    def _resolve_claim(self, outcome: str) -> Table:
        for i in range(len(self.claims) - 1, -1, -1):
            if self.claims[i].outcome is None:
                claims = list(self.claims)
                claims[i] = replace(claims[i], outcome=outcome)
                return replace(self, claims=tuple(claims))
        return self

    def _resolve_challenge(self, succeeded: bool) -> Table:
        if not self.challenges or self.challenges[-1].succeeded is not None:
            return self
        notes = list(self.challenges)
        notes[-1] = replace(notes[-1], succeeded=succeeded)
        return replace(self, challenges=tuple(notes))

    # -- one engine move, its effect on beliefs, and what follows unseen ------------------------

    def _step(self, move: Move, number: int) -> Table:
        s = self.state
        assert s is not None
        after_state = s.apply(move)
        table = replace(self, state=public(after_state, self.me))
        table = table._bookkeeping(s, move)
        table = learn(table, s, move, number)
        return advance(table, number)

    def _bookkeeping(self, before: State, move: Move) -> Table:
        """Claim outcomes, challenge results, face-up order."""
        t = before.turn
        table = self
        if move.kind is Kind.PROVE:
            table = table._resolve_claim("proved")._resolve_challenge(False)
        elif move.kind is Kind.LOSE and t.phase is Phase.PROOF:
            table = table._resolve_claim("caught")._resolve_challenge(True)
        elif move.kind is Kind.PASS:
            after = table.state
            assert after is not None
            closed = after.turn.phase is not t.phase or after.turn.actor != t.actor
            if closed and t.phase in (Phase.CHALLENGE, Phase.BLOCK_CHALLENGE):
                table = table._resolve_claim("unchallenged")
        if move.kind is Kind.LOSE:
            face_up = list(table.face_up)
            face_up[move.player] = (*face_up[move.player], move.card)
            table = replace(table, face_up=tuple(face_up))
        return table


_DIRECT: dict[Verb, Callable[[Table, Line, int], Table]] = {
    **{verb: Table._action for verb in ACTIONS},
    Verb.CHALLENGE: Table._challenge,
    Verb.BLOCK: Table._block,
    Verb.SHOW: Table._show,
    Verb.LOSE: Table._lose,
    Verb.SWAP: Table._decide,
    Verb.RETURN: Table._decide,
    Verb.SAW: Table._saw,
    Verb.DRAW: Table._draw,
    Verb.KEEP: Table._keep,
}
"""How each kind of line is played in the current phase."""


def _possible(lines: tuple[tuple[int, Line], ...], start: Table, dropped: set[int]) -> bool:
    try:
        table = _rebuild(lines, start.threshold, start.dropped | frozenset(dropped), start.draft_model)
    except GameError:
        return False
    return table.beliefs is not None


def _rebuild(
    lines: tuple[tuple[int, Line], ...], threshold: Fraction, dropped: frozenset[int], draft_model: str
) -> Table:
    table = Table(threshold=threshold, dropped=dropped, draft_model=draft_model)
    for number, line in lines:
        table = table._apply(line, number)
    return table


def _with_hand(
    hidden: tuple[tuple[Character, ...], ...], seat: int, hand: tuple[Character, ...]
) -> tuple[tuple[Character, ...], ...]:
    return hidden[:seat] + (hand,) + hidden[seat + 1 :]


def _why_not_offered(table: Table, seat: int, phase: Phase) -> str:
    s = table.state
    assert s is not None
    if not s.alive(seat):
        return f"{table.names[seat]} is out of the game"
    t = s.turn
    if phase is Phase.CHALLENGE and seat == t.actor:
        return "nobody challenges their own claim"
    if phase is Phase.BLOCK_CHALLENGE and seat == t.blocker:
        return "nobody challenges their own block"
    if phase is Phase.BLOCK:
        return f"only {table.names[t.target]} may block that" if t.target != NOBODY else "nobody may block that"
    return "that window is closed"


DRAFT_MODELS = ("uniform", "equilibrium")


def replay(text: str, threshold: Fraction = THRESHOLD) -> Table:
    """Apply every line of a record; raises GameError naming the line ("line 7: ...")."""
    table = Table.new(threshold)
    for number, raw in enumerate(text.splitlines(), start=1):
        try:
            table = table.apply_text(raw, number)
        except GameError as error:
            raise type(error)(f"line {number}: {error}") from error
    return table
