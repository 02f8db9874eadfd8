"""Random games written as records in the table language, from one seat's point of view.

The engine plays a full-information game; each move is written as the line a person at the
table would type (nothing the seat cannot see). Used by the demo, the tests (cross-checks
against a brute-force counter) and the benchmarks.

>>> text = random_record(players=3, seed=1, me=2)
>>> text.splitlines()[:3]
['players Alice Bob Carol', 'variant ambassador', 'me Carol']
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from solver.coup import Draft, Kind, Move, Phase, State, Variant, new_game
from solver.coup.messages import claimed
from solver.coup.public import claim_of, claimant
from solver.game import play

NAMES = ("Alice", "Bob", "Carol", "Dave", "Erin", "Frank", "Grace", "Heidi")


@dataclass(frozen=True)
class Style:
    """How the simulated players behave and how the record is written."""

    challenge: float = 0.15  # chance to challenge or block when offered
    honest: float = 0.0  # chance to choose only among the claims one can prove
    calm: float = 0.0  # chance to choose an action that costs nobody an influence (long games)
    challenge_true: float | None = None  # if set: the chance to challenge a claim that is true
    prove: float = 0.9  # chance to prove a claim one can prove
    explicit_pass: float = 0.5  # chance that a closed window is written as `pass`
    bare_show: float = 0.5  # chance that another player's shown card is written `Bob show`
    late_draw: float = 0.3  # chance that the seat types its replacement after the challenger's loss
    max_lines: int = 10_000
    exchange: tuple[float, ...] = ()  # per seat: chance to exchange whenever it may (adversarial records)
    examine: float = 0.0  # chance to examine someone whenever one may (inquisitor)


def _choose(state: State, rng: random.Random, style: Style) -> Move:
    moves = state.legal_moves()
    seat = state.current_player()
    if moves[0].kind.is_action and (style.exchange or style.examine):
        chance = style.exchange[seat] if seat < len(style.exchange) else 0.0
        for kind, p in ((Kind.EXAMINE, style.examine), (Kind.EXCHANGE, chance)):
            wanted = [m for m in moves if m.kind is kind]
            if wanted and p and rng.random() < p:
                return wanted[rng.randrange(len(wanted))]
    if style.honest and rng.random() < style.honest:
        held = state.hidden[state.current_player()]
        honest = tuple(m for m in moves if claim_of(state, m) in (None, *held))
        moves = honest or moves
    first = moves[0]
    if style.calm and first.kind.is_action and rng.random() < style.calm:
        peaceful = tuple(m for m in moves if m.kind not in (Kind.COUP, Kind.ASSASSINATE))
        moves = peaceful or moves
    if len(moves) == 1:
        return first
    if first.kind is Kind.PASS:
        rate = style.challenge
        if style.challenge_true is not None and moves[1].kind is Kind.CHALLENGE and _claim_is_true(state):
            rate = style.challenge_true
        return first if rng.random() >= rate else moves[rng.randrange(1, len(moves))]
    if first.kind is Kind.PROVE:
        return first if rng.random() < style.prove else moves[rng.randrange(1, len(moves))]
    return moves[rng.randrange(len(moves))]


def _claim_is_true(state: State) -> bool:
    """In a challenge window: does the claimant hold the claimed character? (Records are made
    by a simulation that may peek; the records themselves never show what was not seen.)"""
    return claimed(state) in state.hidden[claimant(state)]


def random_record(
    players: int,
    seed: int,
    me: int | None = 0,
    variant: Variant | None = None,
    draft: Draft = Draft.DEALT_FIRST,
    style: Style = Style(),
) -> str:
    """Play one random game and return its record (canonical lines, comments none)."""
    rng = random.Random(seed)
    variant = variant if variant is not None else Variant(rng.randrange(2))
    names = NAMES[:players]
    state = new_game(names, variant, draft)
    lines = [f"players {' '.join(names)}", f"variant {variant}"]
    if players == 2:
        lines.append(f"draft {draft}")
    if me is not None:
        lines.append(f"me {names[me]}")
    writer = RecordWriter(names, me, rng, style, lines)
    play(
        state,
        lambda s, r: _choose(s, r, style),
        rng,
        [lambda before, move, after: writer.write(before, move)],
        stop=lambda s: len(lines) >= style.max_lines,
    )
    writer.flush()
    return "".join(line + "\n" for line in lines)


ADVERSARIAL = ("exchanges", "examines", "failed-proofs", "crowd", "issue-19")
"""The shapes of record that stress the exact counting (benchmarks/table.py, the cross-checks):
every player exchanging whenever it may; the inquisitor's examines, swaps and one-card
exchanges; failed proofs (some of them bluffs that are not) amid exchanges, so that the
assumption about them is made, dropped and made again; 7-8 players exchanging (the seat
rarely), a few proofs among them; and issue 19's record (4 players: the seat and two others
exchanging again and again, the fourth taking income)."""


def adversarial_record(shape: str, players: int, seed: int, lines: int = 120) -> str:
    """A random record of one of the ADVERSARIAL shapes, the seat first, at most ``lines`` long.

    >>> adversarial_record("issue-19", 4, seed=1, lines=12).splitlines()[4:7]
    ['Alice exchange', 'draw contessa captain', 'keep duke contessa']
    """
    everyone, some = (1.0,) * players, (0.4,) * players
    inquisitor, ambassador = Variant.INQUISITOR, Variant.AMBASSADOR
    styles = {
        "exchanges": (Style(challenge=0.0, exchange=everyone, max_lines=lines), None),
        "examines": (Style(challenge=0.08, exchange=everyone, examine=0.5, max_lines=lines), inquisitor),
        "failed-proofs": (Style(challenge=0.2, prove=0.3, honest=0.95, exchange=some, max_lines=lines), None),
        "crowd": (Style(challenge=0.02, exchange=(0.1, *everyone[1:]), max_lines=lines), None),
        "issue-19": (Style(challenge=0.0, exchange=(1.0, 1.0, 1.0, 0.0), calm=1.0, max_lines=lines), ambassador),
    }
    style, variant = styles[shape]
    return random_record(players, seed, me=0, variant=variant, draft=Draft.NONE, style=style)


class RecordWriter:
    """Turns engine moves into the table lines one seat would type (``me``; None: a spectator)."""

    def __init__(
        self, names: tuple[str, ...], me: int | None, rng: random.Random, style: Style, lines: list[str]
    ) -> None:
        self.names, self.me, self.rng, self.style, self.lines = names, me, rng, style, lines
        self.held_draw: str | None = None  # the seat's replacement, typed after the challenger's loss

    def flush(self) -> None:
        if self.held_draw is not None:
            self.lines.append(self.held_draw)
            self.held_draw = None

    def write(self, state: State, move: Move) -> None:
        names, me, t = self.names, self.me, state.turn
        kind = move.kind
        if kind is Kind.DEAL:
            self._deal(state, move)
            return
        if kind is Kind.PICK:
            if move.player == me:
                self.lines.append(f"pick {move.card.name_en}")
            return
        if kind is Kind.PASS:
            after = state.apply(move)
            closed = after.turn.phase is not t.phase or after.turn.actor != t.actor
            if closed and self.rng.random() < self.style.explicit_pass:
                self.lines.append("pass")
            return
        if kind is Kind.DRAW:
            if move.player != me:
                return
            text = "draw " + " ".join(c.name_en for c in move.cards)
            if t.phase is Phase.REDRAW and self.rng.random() < self.style.late_draw:
                self.held_draw = text
                return
            self.lines.append(text)
            return
        if kind is Kind.KEEP:
            if move.player == me:
                self.lines.append("keep " + " ".join(c.name_en for c in move.cards))
            return
        if kind is Kind.SHOW:
            if move.player == me:
                self.lines.append(f"{names[move.player]} show {move.card.name_en}")
            elif t.actor == me:
                self.lines.append(f"saw {move.card.name_en}")
            elif self.rng.random() < self.style.bare_show:
                self.lines.append(f"{names[move.player]} show")
            return
        self.lines.append(move.text(names))
        if kind is Kind.LOSE and t.phase is Phase.LOSE:
            if state.apply(move).is_terminal():
                self.held_draw = None  # the game ended: nothing more is written
            self.flush()

    def _deal(self, state: State, move: Move) -> None:
        me = self.me
        if state.turn.phase is Phase.DRAFT_DEAL:
            if me is not None:
                self.lines.append(f"dealt {move.cards[me].name_en}")
            return
        if me is not None:
            hand = move.cards[2 * me : 2 * me + 2]
            self.lines.append("hand " + " ".join(c.name_en for c in sorted(hand)))
