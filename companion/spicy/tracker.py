"""The tracked Spicy table: lines applied through the rules engine from one seat's point of view.

A :class:`Table` holds the set-up (names, the seat), the seat's *public* engine state (the cards
it has not seen are unknown wildcards; World's End is hidden, so the table reports it), the
public ledger of claims and challenges, and the accepted lines. It is immutable:
:meth:`Table.apply` returns the next table and the events the line produced, or raises a
GameError and changes nothing, so undo is keeping the previous table.

A line becomes engine moves: a play or a pass first lets the open top card stand (nobody
challenged it), a challenge is asked of its challenger, ``pass`` lets a last card stand for
everybody; then the other players' draws are made unseen, up to the seat's own (which the seat
types) or the end of the draw pile.

>>> t = Table.new()
>>> for text in ("game spicy", "players Ana Ben Cleo", "me Ana",
...              "hand chili-1 chili-2 wasabi-3 wasabi-9 pepper-5 wild-spice", "Ana play chili-1 as chili 1"):
...     t = t.apply_text(text)
>>> t.turn, t.hand_sizes()
('Ben', (5, 6, 6))
>>> t.apply_text("Ben play chili 1")
Traceback (most recent call last):
solver.errors.IllegalMove: Ben cannot claim chili 1: a pile of chili at 1 needs chili 2 to 10
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from fractions import Fraction

from solver.errors import IllegalMove, ParseError
from solver.game import NOBODY
from solver.spicy import DECK, SCORE, UNKNOWN, Card, Deck, End, Kind, Move, Phase, State, Trait, new_game, true_on
from solver.spicy.odds import UNLIKELY_BELOW, claim_odds, flag, top_advice, top_odds, true_plays
from solver.spicy.rules import TROPHIES_TO_WIN

from ..figures import counted
from ..tracked import Event, Lines, Over, Placed, Waiting
from .advice import Advised, Challenged, Flagged, LastCard, Priced, Resolved, Trophy, YourTurn
from .language import Line, Verb, parse_line
from .ledger import ChallengeNote, ClaimNote, Ledger

Events = list[Event]


@dataclass(frozen=True)
class Drawn:
    """The other players' draws the last line made unseen: the state before them and how many
    cards (``worlds-end after K`` stops them after K)."""

    before: State
    cards: int


@dataclass(frozen=True)
class Table(Lines[Line]):
    """One seat's table (or a spectator's). Build with :meth:`new`; move with :meth:`apply`."""

    deck: Deck = DECK
    threshold: Fraction = UNLIKELY_BELOW
    header: bool = False  # `game spicy` typed (a record's canonical form always has it)
    names: tuple[str, ...] = ()
    me: int | None = None
    state: State | None = None  # the seat's public state, dealt, from `players` on
    hand_given: bool = False
    started: bool = False  # the first action has been typed: the set-up is closed
    lines: tuple[tuple[int, Line], ...] = ()  # accepted lines (the header aside) with their numbers
    ledger: Ledger = field(default_factory=Ledger)
    drawn: Drawn | None = None
    priced: bool = True  # price and flag every claim as it is typed (a bot's table prices when it decides)
    placed: Placed | None = None  # where the last line went in the record

    @classmethod
    def new(cls, deck: Deck = DECK, threshold: Fraction = UNLIKELY_BELOW, priced: bool = True) -> Table:
        """An empty table for ``deck`` (the published one by default; small ones for exact
        cross-checks), flagging claims less likely than ``threshold`` as ``unlikely``; without
        ``priced``, claims are noted unpriced (no flags, no advice: a bot's table)."""
        return cls(deck=deck, threshold=threshold, priced=priced)

    def __repr__(self) -> str:
        return f"<Table {len(self.lines)} lines, {self.state.text() if self.state else 'set-up'}>"

    # -- reading the table ---------------------------------------------------------------------

    def seat(self, name: str) -> int:
        return self.names.index(name)

    @property
    def over(self) -> bool:
        return self.state is not None and self.state.is_terminal()

    @property
    def turn(self) -> str | None:
        """Who plays next by the rules as lines were accepted (the next player clockwise while a
        last card waits); None once over."""
        s = self.state
        if s is None:
            return self.names[0] if self.names else None
        if s.is_terminal():
            return None
        if s.top is not None and s.turn.phase in (Phase.LAST_CARD, Phase.REVEAL) and not s.hands[s.top.player]:
            return self.names[(s.top.player + 1) % len(self.names)]
        return self.names[s.turn.actor]

    @property
    def waiting(self) -> str | None:
        """What the table waits for, in words (the seat's owed lines with what to type); None
        when any player may act."""
        if not self.names:
            return "the players (players Ana Ben Cleo)"
        if self.me is not None and not self.hand_given:
            return f"your starting hand (hand and your {self.deck.hand} cards)"
        s = self.state
        assert s is not None
        t, top = s.turn, s.top
        if t.phase is Phase.REVEAL and top is not None:
            owner, challenger = self.names[top.player], self.names[t.challenger]
            return f"the card {owner} played, challenged by {challenger} (reveal CARD)"
        if t.phase is Phase.LAST_CARD and top is not None:
            return f"a challenge of {self.names[top.player]}'s last card, or pass (nobody challenges)"
        if t.phase is Phase.DRAW and not s.draw:
            return "World's End: the draw pile is empty (worlds-end)"
        if t.phase is Phase.DRAW:
            cards = " ".join(["CARD"] * min(t.owed, len(s.draw)))
            short = f"; the draw pile has {len(s.draw)}, then worlds-end" if len(s.draw) < t.owed else ""
            return f"your draw of {t.owed} card{'s' * (t.owed > 1)} (draw {cards}){short}"
        return None

    def my_cards(self) -> tuple[Card, ...]:
        """The seat's hand, sorted (empty for a spectator)."""
        if self.me is None or self.state is None:
            return ()
        return tuple(c for c in self.state.hands[self.me] if c.is_known)

    def hand_sizes(self) -> tuple[int, ...]:
        s = self.state
        return tuple(len(h) for h in s.hands) if s is not None else ()

    def unseen(self) -> dict[Card, int]:
        """Per card kind of the deck, the copies the seat has not seen."""
        if self.state is None:
            return dict(self.deck.counts)
        left = self.state.unseen()
        return {card: left[card] for card in self.deck.kinds}

    def winners(self) -> tuple[str, ...]:
        s = self.state
        return tuple(self.names[i] for i in s.winners()) if s is not None else ()

    def record_lines(self) -> list[str]:
        """The canonical record: ``game spicy``, then every accepted line in canonical words
        (nothing before the first line: a table just opened has no record yet)."""
        if not self.header and not self.lines:
            return []
        return ["game spicy", *(line.canonical() for _, line in self.lines)]

    def record(self) -> str:
        """The canonical form of the record (``spicy replay --canonical``), with a final newline."""
        return "".join(line + "\n" for line in self.record_lines())

    def status(self) -> str:
        if self.over:
            return f"{counted(len(self.lines) + 1, 'line')}; the game is over: {' and '.join(self.winners())} won"
        waiting = f"; waiting for {self.waiting}" if self.waiting else ""
        return f"{counted(len(self.lines) + 1, 'line')} so far{waiting}"

    # -- applying a line -----------------------------------------------------------------------

    def parse(self, text: str) -> Line | None:
        """The line ``text`` names; a player's line typed without a name is the tracked seat's
        (``play chili-3 as chili 3``, ``challenge number``: moves as the house suggests them)."""
        try:
            return parse_line(text, self.names, self.deck)
        except ParseError:
            if self.me is None:
                raise
            with contextlib.suppress(ParseError):
                return parse_line(f"{self.names[self.me]} {text}", self.names, self.deck)
            raise

    def apply(self, line: Line, number: int) -> tuple[Table, tuple[Event, ...]]:
        """The table after ``line`` (record line ``number``) and the events it produced. Raises
        GameError and changes nothing."""
        if self.over:
            raise IllegalMove(f"the game is over: {' and '.join(self.winners())} won")
        table, events = _HANDLERS[line.verb](self, line, number)
        text = line.canonical()
        if line.verb is Verb.GAME:
            table = replace(table, placed=Placed("appended", text, 0))
        else:
            first = not self.header and not self.lines  # the header is written with it
            placed = Placed("rewritten", text) if first else Placed("appended", text, len(self.lines) + 1)
            table = replace(table, lines=(*table.lines, (number, line)), placed=placed)
        return table, (*events, *table._afterwards(self))

    def _afterwards(self, before: Table) -> Events:
        """What the table says once the line is applied: the end, what it waits for, or the
        seat's true plays on its turn."""
        s = self.state
        if s is None or not self.priced:
            return []
        if self.over:
            return [Over(self._ending())] if not before.over else []
        waiting = self.waiting
        if waiting is not None:
            return [Waiting(waiting)]
        if self.me is not None and s.turn.actor == self.me and s.turn.phase in (Phase.PLAY, Phase.WINDOW):
            return [YourTurn(true_plays(self.my_cards(), s.top_claim(), self.deck))]
        return []

    def _ending(self) -> str:
        s = self.state
        assert s is not None and s.turn.end is not None
        scores = s.scores()
        winners = s.winners()
        who = " and ".join(self.names[i] for i in winners)
        if s.turn.end is End.SECOND_TROPHY:
            return f"{who} takes a 2nd trophy and wins"
        why = "the last trophy is taken" if s.turn.end is End.LAST_TROPHY else "World's End"
        return f"{why}; {who} win{'s' * (len(winners) == 1)} with {counted(scores[winners[0]], 'point')}"

    # -- set-up --------------------------------------------------------------------------------

    def _game(self, line: Line, number: int) -> tuple[Table, Events]:
        if self.header or self.names:
            raise IllegalMove("'game spicy' comes once, first")
        return replace(self, header=True), []

    def _players(self, line: Line, number: int) -> tuple[Table, Events]:
        if self.names:
            raise IllegalMove(f"the players are already seated: {' '.join(self.names)}")
        state = new_game(line.names, self.deck, public=True)
        while state.turn.phase is Phase.DEAL:  # dealt unseen: the one outcome is an unknown card
            state = state.apply(state.chance_outcomes()[0][0])
        return replace(self, names=line.names, state=state), []

    def _me(self, line: Line, number: int) -> tuple[Table, Events]:
        if self.started or self.me is not None:
            raise IllegalMove("'me NAME' comes once, after players, before the first action")
        return replace(self, me=self.seat(str(line.player))), []

    def _hand(self, line: Line, number: int) -> tuple[Table, Events]:
        if self.me is None or self.hand_given or self.started:
            raise IllegalMove("'hand' gives the tracked seat's starting cards, once, after 'me NAME'")
        if len(line.cards) != self.deck.hand:
            raise IllegalMove(f"a starting hand has {self.deck.hand} cards, not {len(line.cards)}")
        s = self.state
        assert s is not None
        state = s._replace(hands=(*s.hands[: self.me], line.cards, *s.hands[self.me + 1 :]))
        state.check()  # no more copies than the deck has
        return replace(self, state=state, hand_given=True), []

    # -- actions and answers -------------------------------------------------------------------

    def _ready(self) -> State:
        """The state, if nothing is owed before a player may act; raises IllegalMove otherwise."""
        if not self.names:
            raise IllegalMove("no players yet (start with: players Ana Ben Cleo)")
        s = self.state
        assert s is not None
        waiting = self.waiting
        if waiting is not None:
            raise IllegalMove(f"the table waits for {waiting}")
        return s

    def resolve(self, line: Line) -> tuple[State, Move]:
        """The engine move a player's ``play``, ``pass`` or ``challenge`` line names now, and the
        state it is made in: the table's state once the windows the line closes are closed (a
        play or a pass lets the open top card stand; a challenge is asked of its challenger after
        the players before them let it stand). The one place a player's line becomes a move: the
        table applies it, a game against bots plays the person's. Raises IllegalMove (the line's
        reason); the engine's ``apply`` checks the rest (a claim the pile does not allow...).

        >>> t = replay("game spicy\\nplayers Ana Ben\\nme Ana\\n"
        ...            "hand chili-1 chili-2 chili-3 wasabi-4 wasabi-5 pepper-6\\n")
        >>> t.resolve(t.parse("play chili-3 as chili 3"))[1]
        Move(Kind.PLAY, 0, card=Card.parse('chili-3'), claim=Claim(Spice.CHILI, 3))
        """
        if line.verb is Verb.CHALLENGE:
            return self._challenged(str(line.player), line.trait)
        name = str(line.player)
        if line.verb not in (Verb.PLAY, Verb.PASS) or line.player is None:
            raise IllegalMove(f"'{line.canonical()}' is not a player's play, pass or challenge")
        s = self._ready()
        while s.turn.phase is Phase.WINDOW:
            s = s.apply(Move(Kind.DECLINE, s.turn.decider))
        seat = self.seat(name)
        if s.turn.actor != seat:
            raise IllegalMove(f"it is {self.names[s.turn.actor]}'s turn, not {name}'s")
        if line.verb is Verb.PASS:
            return s, Move(Kind.PASS, seat)
        claim = line.claim
        assert claim is not None
        if seat == self.me and line.card is None:
            raise IllegalMove(f"name the card you play: '{name} play CARD as {claim}'")
        if seat != self.me and line.card is not None:
            seen = "a spectator sees" if self.me is None else "you see"
            raise IllegalMove(f"{seen} no card of {name}'s: write '{name} play {claim}'")
        if not s.hands[seat]:
            raise IllegalMove(f"{name} has no card to play")
        return s, Move(Kind.PLAY, seat, card=line.card if line.card is not None else UNKNOWN, claim=claim)

    def _challenged(self, name: str, trait: Trait | None) -> tuple[State, Move]:
        assert trait is not None
        s = self.state
        if s is None or s.turn.phase not in (Phase.WINDOW, Phase.LAST_CARD):
            raise IllegalMove(self._no_challenge())
        top = s.top
        assert top is not None
        seat = self.seat(name)
        if seat == top.player:
            raise IllegalMove(f"{name} cannot challenge their own card")
        while s.turn.decider != seat:
            s = s.apply(Move(Kind.DECLINE, s.turn.decider))
        return s, Move(Kind.CHALLENGE, seat, trait=trait)

    def _play(self, line: Line, number: int) -> tuple[Table, Events]:
        s, move = self.resolve(line)
        name, claim, seat, card = str(line.player), move.claim, move.player, move.card
        assert claim is not None and card is not None
        after = s.apply(move)
        follows, hand = s.top_claim(), len(s.hands[seat])
        events: Events = []
        if seat == self.me or not self.priced:
            known = card if seat == self.me else None
            note = ClaimNote(number, name, claim, follows, hand, after.pile_size, card=known)
        else:
            odds = claim_odds(s.unseen(), hand, follows, claim, self.deck)
            note = ClaimNote(
                number, name, claim, follows, hand, after.pile_size, odds=odds, flag=flag(odds, self.threshold)
            )
            events = [Priced(note), *([Flagged(note, self.threshold)] if note.flag is not None else [])]
            events.append(Advised(top_advice(after, odds), name))
        if note.last and self.priced:
            events.append(self._last_card(after, seat))
        table = replace(self, state=after, ledger=self.ledger.claimed(note), started=True, drawn=None)
        return table, events

    def _last_card(self, s: State, seat: int) -> LastCard:
        trophies = s.trophies[seat] + 1
        ends = None
        if trophies >= TROPHIES_TO_WIN:
            ends = "takes a 2nd trophy and wins the game"
        elif sum(s.trophies) + 1 >= self.deck.trophies:
            scores = list(s.scores())
            scores[seat] += SCORE.trophy
            best = max(scores)
            who = " and ".join(self.names[i] for i, p in enumerate(scores) if p == best)
            ends = f"takes the last trophy and the game ends: {who} would win with {counted(best, 'point')}"
        return LastCard(self.names[seat], trophies, ends)

    def _pass(self, line: Line, number: int) -> tuple[Table, Events]:
        if line.player is None:
            return self._let_stand()
        s, move = self.resolve(line)
        return self._settled(s.apply(move)), []

    def _let_stand(self) -> tuple[Table, Events]:
        s = self.state
        if s is None or s.turn.phase is not Phase.LAST_CARD or s.top is None:
            raise IllegalMove("pass alone answers a last card (nobody challenges it); a player passes with 'Ben pass'")
        owner = s.top.player
        while s.turn.phase is Phase.LAST_CARD:
            s = s.apply(Move(Kind.DECLINE, s.turn.decider))
        table = self._settled(s)
        return table, [Trophy(self.names[owner], s.trophies[owner])]

    def _challenge(self, line: Line, number: int) -> tuple[Table, Events]:
        s, move = self.resolve(line)
        name, trait, top = str(line.player), move.trait, s.top
        assert trait is not None and top is not None
        known = top.card.is_known
        chance: Fraction | None = None
        if known:
            chance = Fraction(not true_on(top.card, trait, top.claim))
        elif self.priced:
            chance = 1 - top_odds(s).honest.of(trait)
        note = ChallengeNote(
            number, name, self.names[top.player], top.claim, self.ledger.top().line, trait, chance,
            s.pile_size, not s.hands[top.player], top.card if known else None,
        )  # fmt: skip
        after = s.apply(move)
        table = replace(self, state=after, ledger=self.ledger.challenged(note), started=True, drawn=None)
        if not known:
            return table, [Challenged(note, known)] if self.priced else []
        table = table._settled(after)
        assert table.state is not None
        return table, [Challenged(note, known), Resolved(note, _trophy(s, table.state, top.player))]

    def _no_challenge(self) -> str:
        s = self.state
        waiting = self.waiting
        if s is None or waiting is not None:
            return f"the table waits for {waiting}"
        if s.top is None:
            return "there is no card to challenge: the pile is empty"
        return f"{self.names[s.top.player]}'s last card was let stand: it can no longer be challenged"

    def _reveal(self, line: Line, number: int) -> tuple[Table, Events]:
        s = self.state
        if s is None or s.turn.phase is not Phase.REVEAL or s.top is None:
            raise IllegalMove("no card waits to be revealed (reveal follows a challenge of another player's card)")
        card = line.card
        assert card is not None
        owner = s.top.player
        after = s.apply(Move(Kind.REVEAL, owner, card=card))
        ledger = self.ledger.revealed(card)
        table = replace(self, ledger=ledger)._settled(after)
        assert table.state is not None
        return table, [Resolved(ledger.challenges[-1], _trophy(s, table.state, owner))]

    def _take_back(self, line: Line, number: int) -> tuple[Table, Events]:
        s = self.state
        name = str(line.player)
        if s is None or s.turn.phase is not Phase.LAST_CARD or s.top is None or s.top.player != self.seat(name):
            raise IllegalMove("take-back is for a last card not announced, by its player, before any challenge")
        after = s.apply(Move(Kind.TAKE_BACK, s.top.player))
        return replace(self, ledger=self.ledger.taken_back())._settled(after), []

    def _draw(self, line: Line, number: int) -> tuple[Table, Events]:
        s = self.state
        if self.me is None:
            raise IllegalMove("draw is the tracked seat's line (me NAME); other players' draws are counted")
        if s is None or s.turn.phase is not Phase.DRAW or s.turn.decider != self.me:
            raise IllegalMove(f"you draw nothing now: the table waits for {self.waiting or 'a play or a pass'}")
        owed, count = s.turn.owed, len(line.cards)
        if count > owed:
            raise IllegalMove(f"you draw {owed} card{'s' * (owed > 1)} now, not {count}")
        if count > len(s.draw):
            left = len(s.draw)
            them = "them" if left != 1 else "it"
            raise IllegalMove(f"the draw pile has only {left} card{'s' * (left != 1)}: draw {them}, then worlds-end")
        for card in line.cards:
            s = s.apply(Move(Kind.DRAW, self.me, card=card))
        return self._settled(s), []

    def _worlds_end(self, line: Line, number: int) -> tuple[Table, Events]:
        s = self.state
        if s is None or not self.started:
            raise IllegalMove("World's End shows only once cards are drawn: the game has not started")
        if line.after is not None:
            if self.drawn is None:
                raise IllegalMove("the last line made no draw of another player: write worlds-end alone")
            if line.after > self.drawn.cards:
                drew = counted(self.drawn.cards, "card")
                raise IllegalMove(f"the last line drew {drew} for other players, not {line.after}")
            s = self.drawn.before
            for _ in range(line.after):
                s = s.apply(Move(Kind.DRAW, s.turn.decider, card=UNKNOWN))
        elif s.turn.phase not in (Phase.PLAY, Phase.WINDOW, Phase.DRAW):
            raise IllegalMove(f"World's End cannot show now: the table waits for {self.waiting}")
        return replace(self, state=s.apply(Move(Kind.WORLDS_END, NOBODY)), drawn=None), []

    def _settled(self, s: State) -> Table:
        """The table at ``s`` once the other players' owed draws are made unseen (up to the
        seat's own draw, or the end of the draw pile), remembering them for World's End."""
        before, count = s, 0
        while s.turn.phase is Phase.DRAW and s.turn.decider != self.me and s.draw:
            s = s.apply(Move(Kind.DRAW, s.turn.decider, card=UNKNOWN))
            count += 1
        drawn = Drawn(before, count) if count else None
        return replace(self, state=s, started=True, drawn=drawn)


def _trophy(before: State, after: State, seat: int) -> bool:
    return after.trophies[seat] > before.trophies[seat]


_HANDLERS: dict[Verb, Callable[[Table, Line, int], tuple[Table, Events]]] = {
    Verb.GAME: Table._game,
    Verb.PLAYERS: Table._players,
    Verb.ME: Table._me,
    Verb.HAND: Table._hand,
    Verb.PLAY: Table._play,
    Verb.PASS: Table._pass,
    Verb.CHALLENGE: Table._challenge,
    Verb.REVEAL: Table._reveal,
    Verb.DRAW: Table._draw,
    Verb.TAKE_BACK: Table._take_back,
    Verb.WORLDS_END: Table._worlds_end,
}
"""How each kind of line is applied."""


def replay(text: str, deck: Deck = DECK, threshold: Fraction = UNLIKELY_BELOW) -> Table:
    """Apply every line of a record (its text); raises RecordError naming the line.

    >>> replay("game spicy\\nplayers Ana Ben\\nAna play chili 2\\nBen challenge number\\n").waiting
    'the card Ana played, challenged by Ben (reveal CARD)'
    """
    from ..records import replay as replay_lines

    return replay_lines(text.splitlines(), Table.new(deck, threshold))


__all__ = ["Drawn", "Table", "replay"]
