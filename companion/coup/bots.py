"""Bots that play Coup from their own seat: each keeps its own table (the tracker, fed the
lines its seat would see at a real table) and decides from it alone, so it never sees a card
its seat has not seen. Personalities:

- ``honest``: claims only what it holds; challenges only impossible claims.
- ``bluffer``: claims whatever serves it; rarely challenges.
- ``counter``: challenges when the exact chance that a claim is true is below 1/8 (or, with
  its last card under an assassin, below 1/2); bluffs only claims that no single hand can see
  to be false, and only while every other player has challenged seldom; does not go round a
  steal or an assassination the target has already blocked.
- ``random``: a uniformly random legal move (the baseline).

>>> bot = Bot("honest", seat=0, names=("Alice", "Bob", "Carol"))
>>> bot.setup("ambassador")
>>> bot.personality, bot.table.me, bot.lines
('honest', 0, ['players Alice Bob Carol', 'variant ambassador', 'me Alice'])
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from solver.coup import Character, Draft, GameError, Kind, Move, State, Variant, new_game
from solver.coup.messages import claimed, decision
from solver.coup.public import claim_of, claimant
from solver.game import Observer, play, repeated

from ..figures import counted
from ..records import replay
from ..session import YOU, BotGame, Command, Message, check_personality, playing_as, seat_commands, seat_seed
from .endgame import common_moves, open_hypotheses, weigh
from .language import Verb, typed_move
from .simulate import NAMES, RecordWriter, Style
from .tracker import Table

PERSONALITIES = ("honest", "bluffer", "counter", "random")
DOUBT = Fraction(1, 8)
"""The counter challenges claims less likely than this to be true (or impossible ones)."""
ENDGAME_HYPOTHESES, ENDGAME_BUDGET = 200, 600_000
"""Limits of the endgame tables' use by a bot (per decision): hypotheses weighed, positions
generated on the spot when a table is missing."""
LOOPING = {Kind.STEAL: Verb.STEAL, Kind.ASSASSINATE: Verb.ASSASSINATE}
"""Actions a target can answer with a block, round and round."""
QUIET = 0.1
"""The counter bluffs only while every other player challenges less often than this."""
VIEW = Style(explicit_pass=1.0, bare_show=1.0, late_draw=0.0)
"""How a bot's table is told the game: every closed window written, nothing deferred."""


@dataclass
class Bot:
    """One seat played by a personality, with the seat's own table."""

    personality: str
    seat: int
    names: tuple[str, ...]
    seed: int = 0
    solver: bool = False  # once two players are left, play the endgame tables' best move
    lines: list[str] = field(default_factory=list)
    table: Table = field(init=False)
    writer: RecordWriter = field(init=False)

    def __post_init__(self) -> None:
        check_personality(self.personality, PERSONALITIES)
        self.table = Table.new()
        self.writer = RecordWriter(self.names, self.seat, random.Random(0), VIEW, self.lines)

    def setup(self, variant: str) -> None:
        for text in setup_lines(self.names, variant, self.seat):
            self._tell(text)

    def observe(self, state: State, move: Move) -> None:
        """Tell the bot's table what its seat sees of ``move`` (played at ``state``)."""
        before = len(self.lines)
        self.writer.write(state, move)
        new = self.lines[before:]
        del self.lines[before:]
        for text in new:
            self._tell(text)

    def _tell(self, text: str) -> None:
        self.lines.append(text)
        self.table = replay([text], self.table, f"<{self.names[self.seat]}'s table>", first=len(self.lines))

    def decide(self, moves: list[Move]) -> Move:
        """The bot's move among ``moves`` (its legal moves), from its table alone."""
        if self.table.view is None:  # the first turn: nothing typed yet
            self.table = self.table.start()
        view = self.table.view
        assert view is not None
        rng = random.Random(seat_seed(self.lines, self.seed))
        if len(moves) == 1:
            return moves[0]
        if self.personality == "random":
            return moves[rng.randrange(len(moves))]
        if self.solver:
            best = self._solved(view, moves)
            if best is not None:
                return best
        kind = moves[0].kind
        if kind.is_action:
            return self._action(view, moves, rng)
        if kind is Kind.PASS:
            return self._respond(view, moves, rng)
        if kind is Kind.PROVE:
            return moves[0]  # show the card when it can
        return self._keep_best(moves)

    def _solved(self, view: State, moves: list[Move]) -> Move | None:
        """Once two players are left: the move with the best value, exact (from the endgame
        tables), weighted over what this seat knows (None if the position is beyond them here)."""
        if len(view.living()) != 2:
            return None
        try:
            found = open_hypotheses(self.table, view)
            if len(found) > ENDGAME_HYPOTHESES:
                return None
            options = [m for m in common_moves(found) if m in moves]
            worth = weigh(found, options, self.seat, ENDGAME_BUDGET)
        except GameError:
            return None
        return options[max(range(len(options)), key=lambda j: worth[j])] if options else None

    # -- actions -------------------------------------------------------------------------------

    def _holds(self, character: Character | None) -> bool:
        return character is None or character in self.table.my_cards()

    def _action(self, view: State, moves: list[Move], rng: random.Random) -> Move:
        def claim(m: Move) -> Character | None:
            return claim_of(view, m)

        def score(m: Move) -> float:
            target_weight = 0.0
            if m.target >= 0:
                target_weight = 0.1 * len(view.hidden[m.target]) + 0.01 * view.coins[m.target]
            base = {
                Kind.COUP: 10.0,
                Kind.ASSASSINATE: 8.0,
                Kind.TAX: 6.0,
                Kind.STEAL: 5.0 if m.target >= 0 and view.coins[m.target] >= 2 else 1.0,
                Kind.EXCHANGE: 3.0,
                Kind.EXAMINE: 2.5,
                Kind.AID: 2.0,
                Kind.INCOME: 1.5,
            }.get(m.kind, 0.0)
            if m.kind in LOOPING and (LOOPING[m.kind], self.names[m.target]) in blocked:
                base -= 5.0  # do not go round a loop the target has already answered
            return base + target_weight + rng.random() * 0.5

        blocked = self._blocked()
        allowed = [m for m in moves if self._claim_allowed(claim(m), rng)]
        allowed = allowed or [m for m in moves if claim(m) is None]
        return max(allowed, key=score)

    def _blocked(self) -> set[tuple[Verb, str]]:
        """(action, target) of this seat's steals and assassinations whose last try the
        target blocked (read once per decision from the seat's lines)."""
        me = self.names[self.seat]
        lines = [line for _, line in self.table.lines]
        last: dict[tuple[Verb, str], bool] = {}
        for i, line in enumerate(lines):
            if line.player == me and line.verb in LOOPING.values() and line.target is not None:
                answers = lines[i + 1 : i + 4]
                last[(line.verb, line.target)] = any(a.verb is Verb.BLOCK and a.player == line.target for a in answers)
        return {key for key, was in last.items() if was}

    def _claim_allowed(self, character: Character | None, rng: random.Random) -> bool:
        if character is None or self._holds(character):
            return True
        if self.personality == "bluffer":
            return rng.random() < 0.7
        if self.personality == "counter":  # bluff what nobody can disprove, at a quiet table
            return self._safe_bluff(character) and self._quiet_table()
        return False

    def _quiet_table(self) -> bool:
        """Every other player still in has challenged seldom so far (what the seat has seen:
        challenges per claim by others, with a prior of 1 in 6)."""
        view = self.table.view
        assert view is not None
        for seat in view.living():
            if seat == self.seat:
                continue
            name = self.names[seat]
            made = sum(1 for n in self.table.challenges if n.challenger == name)
            seen = sum(1 for c in self.table.claims if c.player != name)
            if (made + 1) / (seen + 6) >= QUIET:
                return False
        return True

    def _safe_bluff(self, character: Character) -> bool:
        """A claim no other seat can know to be false: at least two copies of it are out of
        sight (not face up, not in this seat's hand), so no single hand of two can hold them
        all and see the claim as impossible."""
        return self.table.unseen().get(character, 0) >= 3

    # -- responses -----------------------------------------------------------------------------

    def _respond(self, view: State, moves: list[Move], rng: random.Random) -> Move:
        """A window: challenge, block, or pass."""
        kinds = {m.kind for m in moves}
        if Kind.CHALLENGE in kinds and self._should_challenge(view, rng):
            return next(m for m in moves if m.kind is Kind.CHALLENGE)
        blocks = [m for m in moves if m.kind is Kind.BLOCK]
        mine = [m for m in blocks if self._holds(m.card)]
        if mine:
            return mine[0]
        if blocks and self.personality == "bluffer" and rng.random() < 0.5:
            return blocks[0]
        if blocks and self.personality == "counter" and view.turn.target == self.seat:
            safe = [m for m in blocks if self._safe_bluff(m.card)]
            last_card = len(view.hidden[self.seat]) == 1
            if safe and (last_card or view.turn.action is Kind.STEAL):
                return safe[0]  # a block nobody can disprove, or the last chance to live
        return moves[0]  # pass

    def _should_challenge(self, view: State, rng: random.Random) -> bool:
        t = view.turn
        character = claimed(view)
        p = self.table.probability_holds(claimant(view), character)
        if p == 0:
            return True
        if self.personality == "counter":
            last_card = len(view.hidden[self.seat]) == 1
            dying = last_card and t.target == self.seat and t.action is Kind.ASSASSINATE and t.block is None
            return p < DOUBT or (dying and p < Fraction(1, 2) and not self._holds(Character.CONTESSA))
        if self.personality == "bluffer":
            return rng.random() < 0.05
        return False

    def _keep_best(self, moves: list[Move]) -> Move:
        """Lose, keep or return: keep the most useful characters."""
        order = (
            Character.DUKE,
            Character.ASSASSIN,
            Character.CAPTAIN,
            Character.CONTESSA,
            Character.INQUISITOR,
            Character.AMBASSADOR,
        )
        worth = {c: len(order) - i for i, c in enumerate(order)}
        if moves[0].kind is Kind.LOSE:
            return min(moves, key=lambda m: worth.get(m.card, 0))
        if moves[0].kind is Kind.KEEP:
            return max(moves, key=lambda m: sum(worth.get(c, 0) for c in m.cards))
        return moves[0]


def setup_lines(names: tuple[str, ...], variant: str, me: int) -> list[str]:
    """The set-up of a game played here: 2 players are dealt plainly (``draft none``)."""
    lines = [f"players {' '.join(names)}", f"variant {variant}"]
    if len(names) == 2:
        lines.append("draft none")
    return [*lines, f"me {names[me]}"]


def start(names: tuple[str, ...], variant: Variant) -> State:
    return new_game(names, variant, Draft.NONE if len(names) == 2 else Draft.DEALT_FIRST)


def bot_game(
    personalities: list[str],
    variant: Variant,
    seed: int,
    max_moves: int = 5000,
    observers: Sequence[Observer[State, Move]] = (),
) -> int | None:
    """A game between bots (seat i plays ``personalities[i]``); the winner, or None for a draw:
    the same position a third time (bots going round a loop, say an assassination blocked by a
    contessa again and again) or still going after ``max_moves`` moves. ``observers``
    are told every move as the bots are (``observe(before, move, after)``)."""
    names = NAMES[: len(personalities)]
    bots = [Bot(p, i, names, seed) for i, p in enumerate(personalities)]
    for bot in bots:
        bot.setup(str(variant))

    def tell(before: State, move: Move, after: State) -> None:
        for bot in bots:
            bot.observe(before, move)

    def choose(s: State, rng: random.Random) -> Move:
        return bots[s.current_player()].decide(list(s.legal_moves()))

    end, _ = play(start(names, variant), choose, random.Random(seed), [tell, *observers], max_moves, repeated(3))
    return end.winner() if end.is_terminal() else None


def tournament_game(personalities: list[str], seed: int) -> tuple[int, ...]:
    """A game of a tournament (:mod:`companion.tournament`): the winning seat (none: a draw),
    in the variant drawn from the seed. Raises GameError for a player count Coup does not have."""
    if not 2 <= len(personalities) <= 6:
        raise GameError(f"{len(personalities)} bots: Coup's bots play 2 to 6")
    winner = bot_game(personalities, Variant(seed % 2), seed)
    return () if winner is None else (winner,)


@dataclass
class BotTable(BotGame[State, Move, Bot]):
    """``coup play``: the player holds seat 0 (named ``name``, "You" by default) against bots;
    lines in, messages out. The game is told in the table's words from the player's seat and
    kept as a record, which the player's own table (:attr:`table`, the tracker) follows: the
    table's ``table``, ``odds`` and ``rules`` answer at this prompt too."""

    players: int = 4
    variant: Variant = Variant.AMBASSADOR
    seed: int | None = None
    personalities: tuple[str, ...] = ()
    finished: bool = False
    record: list[str] = field(default_factory=list)
    name: str = YOU

    def __post_init__(self) -> None:
        if not 2 <= self.players <= 6:
            raise GameError("play with 2 to 6 players")
        self.rng = random.Random(self.seed)
        self.names = (self.name, *NAMES[1 : self.players])
        self.table = Table.new().apply_text(f"players {' '.join(self.names)}")  # a name the records can hold
        kinds = self.personalities or tuple(self.rng.choice(PERSONALITIES[:3]) for _ in range(self.players - 1))
        self.bots = {
            seat: Bot(kinds[seat - 1], seat, self.names, self.rng.randrange(2**31), solver=True)
            for seat in range(1, self.players)
        }
        self.state = start(self.names, self.variant)
        for bot in self.bots.values():
            bot.setup(str(self.variant))
        self.record.extend(setup_lines(self.names, str(self.variant), 0))
        self.table, self.fed = replay(self.record, Table.new(), "<your table>"), len(self.record)
        self.writer = RecordWriter(self.names, 0, random.Random(0), VIEW, self.record)
        self.hello = f"Type your moves as at the table ('{self.name} tax', 'pass', '{self.name} challenge')."

    def record_text(self) -> str:
        """The game so far as a record, from the player's seat."""
        return "".join(line + "\n" for line in self.record)

    def history_lines(self) -> list[str]:
        return list(self.record)

    def intro(self) -> list[Message]:
        who = ", ".join(f"{self.names[s]} ({b.personality})" for s, b in self.bots.items())
        rows: list[Message] = [
            ("info", f"You play {self.variant!s}{playing_as(self.name)} against {who}. Type your moves ('help').")
        ]
        return [*rows, *self._run()]

    def moves(self) -> list[str]:
        if self.finished or self.state.is_terminal() or self.state.current_player() != 0:
            return []
        return [m.text(self.names) for m in self.state.legal_moves()]

    def own_commands(self) -> list[Command[Any]]:
        from .commands import COMMANDS

        return seat_commands(COMMANDS, lambda game: game.table, ("table", "odds", "rules"))

    def seat_move(self, text: str) -> Move:
        return typed_move(text, self.state, 0)

    def play(self, typed: str, move: Move) -> list[Message]:
        return self._apply(move) + self._run()

    def _apply(self, move: Move) -> list[Message]:
        before = len(self.record)
        self.writer.write(self.state, move)
        for bot in self.bots.values():
            bot.observe(self.state, move)
        self.state = self.state.apply(move)
        self._follow()
        return [("info" if move.player == 0 else "", f"  {line}") for line in self.record[before:]]

    def _follow(self) -> None:
        """Tell the player's table the record's new lines."""
        self.table = replay(self.record[self.fed :], self.table, "<your table>", first=self.fed + 1)
        self.fed = len(self.record)

    def _question(self) -> str | None:
        moves = self.state.legal_moves()
        if len(moves) == 1:
            return None
        options = ", ".join(m.text(self.names) for m in moves)
        return f"Your move: {decision(self.state)} ({options}). {self._cards()}"

    def _forced(self) -> Move:
        return self.state.legal_moves()[0]

    def _ended(self) -> list[Message]:
        self.writer.flush()
        self._follow()
        winner = self.state.winner() or 0
        return [("over", "You win." if winner == 0 else f"{self.names[winner]} wins.")]

    def _cards(self) -> str:
        s = self.state
        mine = " ".join(c.name_en for c in s.hidden[0]) or "none"
        others = "; ".join(
            f"{self.names[i]} {counted(s.coins[i], 'coin')}, {counted(len(s.hidden[i]), 'card')}"
            for i in range(1, len(self.names))
            if s.alive(i)
        )
        return f"You hold {mine}, {counted(s.coins[0], 'coin')}. {others}."
