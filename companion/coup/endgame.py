"""`solve` at the table: once two players are left, the seat's knowledge (its cards, the exact
distribution of the opponent's cards and of the court) becomes hypotheses for the exact solver;
and the solver's answers in words and as outputs.md's JSON ("Puzzles").

>>> from companion.coup.tracker import replay
>>> t = replay("players Alice Bob\\ndraft none\\nme Alice\\nhand duke captain\\ncoins Alice 7\\n"
...            "Alice coup Bob\\nBob lose contessa\\n")
>>> [str(h.probability) for h in hypotheses(t)][:2]
['2/11', '3/11']
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from solver.coup import Character, GameError, Move, Phase, State
from solver.coup.cards import sort_cards
from solver.coup.counting import ASIDE, COURT
from solver.coup.hidden import Answer, answer, open_values
from solver.coup.limits import TABLE_BUDGET
from solver.coup.messages import decision
from solver.coup.puzzle import Hypothesis
from solver.errors import TooLarge, Unsupported

from ..figures import columns, probability, value
from .language import PRIVATE, Verb, parse_line
from .tracker import Table

LINE_SHOWN = 12
"""A principal line is shown this long in words (``--json`` has it whole)."""
MAX_HYPOTHESES = 400
"""More hypotheses than this are refused (each is a probe of the endgame tables)."""


def hypotheses(table: Table, mid_turn: bool = False, most: int | None = MAX_HYPOTHESES) -> list[Hypothesis]:
    """The open-hand positions the table may be in, with their exact probabilities.

    Before the first action (the set-up complete) the opening position is solved. Raises
    :class:`~solver.errors.GameError` unless two players are left and a turn is starting (or, with
    ``mid_turn``, a player is to decide), and TooLarge beyond ``most`` hypotheses (None: no limit).
    """
    if not table.started:
        table = table.start()  # raises while the set-up owes something
    state = table.view
    if state is None or table.beliefs is None:
        raise GameError("the game has not started")
    if state.is_terminal():
        raise GameError("the game is over")
    living = state.living()
    if len(living) != 2:
        raise Unsupported(f"the exact solver covers two living players; {len(living)} are left")
    if table.waiting is not None and not mid_turn:
        raise GameError(f"the table waits for {table.waiting}")
    if state.is_chance_node():
        raise GameError("a card is being drawn: solve once it is known")
    if not mid_turn and state.turn.phase is not Phase.ACTION:
        raise GameError("solve at the start of a turn (finish the current one first)")
    found = open_hypotheses(table, state)
    if most is not None and len(found) > most:
        raise TooLarge(f"{len(found)} possible hands and courts; the solver takes at most {most}")
    return found


@dataclass(frozen=True)
class Decision:
    """`solve` in the middle of a turn: what the player deciding decides, and each option's
    value for that player, weighted over the hypotheses (best first)."""

    player: str
    value: Fraction
    options: list[tuple[str, Fraction]]  # best first
    hypotheses: int
    seconds: float
    decides: str = "decide"  # what is decided, in words ("challenge Alice's tax or pass")

    def text(self, seat: str | None = None) -> str:
        """The options for a person, each valued for ``seat`` (one of the two players; None: a
        spectator's table, for the player deciding)."""
        viewer = seat if seat is not None else self.player
        sign = 1 if viewer == self.player else -1
        whose = "your" if seat == self.player else f"{self.player}'s"
        head = f"your move ({self.player}): " if seat == self.player else f"{self.player} to "
        whom = "you" if seat == self.player else _who(viewer, seat)
        rows = [f"{head}{self.decides}; values for {whom} (P(win) - P(loss) with best play after the choice):"]
        table = [[move, value(sign * v)] for move, v in self.options]
        table[0].append(f"({whose} best)")
        rows += columns(table, "<>", indent="  ")
        over = f"averaged over {_ways(self.hypotheses, seat)}; " if self.hypotheses > 1 else ""
        rows.append(f"{over}solved exactly in {self.seconds:.2f} s")
        return "\n".join(rows)


def solve_decision(table: Table, budget: int = TABLE_BUDGET) -> Decision:
    """The exact value of each option of the player deciding now (a challenge, a block, a card
    to lose...), weighted over the seat's hypotheses; the rest of the turn is solved backwards
    from the turn starts it leads to. Raises GameError / TooLarge with the reason."""
    started = time.perf_counter()
    found = hypotheses(table, mid_turn=True)
    view = found[0].state
    seat = view.current_player()
    moves = common_moves(found)
    if not moves:  # which card to show or lose: the choice depends on cards the seat cannot see
        raise GameError(f"{view.names[seat]} chooses among cards you cannot see: solve once the choice is made")
    worth = weigh(found, moves, seat, budget)
    order = sorted(range(len(moves)), key=lambda j: (-worth[j], j))
    options = [(moves[j].text(view.names), worth[j]) for j in order]
    seconds = time.perf_counter() - started
    return Decision(view.names[seat], options[0][1], options, len(found), seconds, decision(view))


def common_moves(found: list[Hypothesis]) -> list[Move]:
    """The moves legal in every hypothesis (in the engine's order)."""
    return [m for m in found[0].state.legal_moves() if all(m in h.state.legal_moves() for h in found[1:])]


def weigh(found: list[Hypothesis], moves: Sequence[Move | None], seat: int, budget: int) -> list[Fraction]:
    """For each move (None: none, the position itself), the exact open-hand value for ``seat``
    of the position after it, weighted over the hypotheses; one solve for them all. Raises
    TooLarge or NotCertified."""
    states = [h.state if m is None else h.state.apply(m) for h in found for m in moves]
    values = open_values(states, budget, seat=seat)
    k = len(moves)
    return [sum((h.probability * values[i * k + j] for i, h in enumerate(found)), Fraction(0)) for j in range(k)]


def open_hypotheses(table: Table, state: State) -> list[Hypothesis]:
    """``state`` (the table's view, at any point of a turn) with its unseen cards filled in
    every way the seat's knowledge allows, each with its exact probability.

    Raises GameError when cards in play outside the hands and the court are unseen (another
    player's exchange in progress)."""
    beliefs = table.beliefs
    assert beliefs is not None
    if Character.UNKNOWN in state.turn.cards:
        raise GameError("another player's exchange is in progress: its drawn cards are unseen")
    unknown = [p for p in beliefs.places if p != ASIDE or len(state.aside)]
    chars = beliefs.characters
    merged: dict[State, Fraction] = {}
    for contents, p in beliefs.joint(tuple(unknown)).items():
        cards = {place: _cards(chars, y) for place, y in zip(unknown, contents, strict=True)}
        hidden = tuple(h if Character.UNKNOWN not in h else cards.get(seat, ()) for seat, h in enumerate(state.hidden))
        aside = tuple(c for c in state.aside if c is not Character.UNKNOWN) + cards.get(ASIDE, ())
        position = state._replace(
            hidden=tuple(sort_cards(h) for h in hidden),
            court=sort_cards(cards.get(COURT, ())),
            aside=sort_cards(aside),
        )
        position.check()
        merged[position] = merged.get(position, Fraction(0)) + p
    return [Hypothesis(s, merged[s]) for s in sorted(merged, key=lambda s: (s.hidden, s.court))]


def _cards(chars: tuple[Character, ...], counts: tuple[int, ...]) -> tuple[Character, ...]:
    return tuple(c for c, n in zip(chars, counts, strict=True) for _ in range(n))


def solve_table(
    table: Table,
    budget: int = TABLE_BUDGET,
    tick: Callable[[], None] = lambda: None,
    found: list[Hypothesis] | None = None,
) -> Answer:
    """The exact answer for the table now: value, win chance and best move for the player
    to move, weighted over the hypotheses (``found``, if the caller has them; ``tick()``
    after each). Raises GameError / TooLarge with the reason."""
    found = hypotheses(table) if found is None else found
    result = answer(found, budget=budget, tick=tick)
    return replace(result, line=seat_line(table, result.line))


def seat_line(table: Table, line: Sequence[str]) -> list[str]:
    """A principal line (open-hand, in the table's words) as the seat types it at its table:
    every move the table then accepts as printed, another player's draws and keeps left out
    (the table plays them unseen), a card shown to someone else written bare (``Bob show``);
    it stops at the first move the seat's table cannot follow."""
    me = table.names[table.me] if table.me is not None else None
    out: list[str] = []
    for text in line:
        parsed = parse_line(text, table.names)
        if parsed is None or (parsed.verb in PRIVATE and parsed.player != me):
            continue
        tries = [text, f"{parsed.player} show"] if parsed.verb is Verb.SHOW and parsed.cards else [text]
        for typed in tries:
            try:
                table = table.apply_text(typed)
            except GameError:
                continue
            out.append(typed)
            break
        else:
            break
    return out


def solve_json(result: Answer, explain: bool = False) -> dict[str, Any]:
    """The answer exactly in the shape of outputs.md (plus ``best_value`` and, with
    ``explain``, the hypotheses)."""
    root = result.solved[0].hypothesis.state
    other = root.names[1 - root.names.index(result.to_move)]
    out: dict[str, Any] = {
        "to_move": result.to_move,
        "value": str(result.value),
        "win": {result.to_move: str(result.win), other: str(result.loss)},
        "draw": str(result.draw),
        "best": result.best.text(root.names),
        "best_value": str(result.best_value),
        "line": result.line,
        "hypotheses": result.hypotheses,
        "states": result.states,
        "seconds": round(result.seconds, 3),
    }
    if explain:
        out["explain"] = [
            {
                "probability": str(s.hypothesis.probability),
                "position": s.hypothesis.state.text(),
                "value": str(s.value),
            }
            for s in result.solved
        ]
    return out


def _how(result: Answer) -> str:
    over = f" over {result.hypotheses} hypotheses" if result.hypotheses > 1 else ""
    if result.states:
        spot = f" and {result.states:,} positions solved on the spot"
        return f"exact, from the endgame tables{spot}, in {result.seconds:.2f} s{over}"
    return f"exact, from the endgame tables, in {result.seconds:.2f} s{over}"


def solve_text(result: Answer, explain: bool = False, seat: str | None = None, note: str = "") -> str:
    """The answer for a person, from ``seat``'s side (one of the two players: "you"; None: a
    spectator's table or a puzzle, for the player to move, named), each figure said in words;
    ``note`` added after the figures.

    >>> from solver.coup.puzzle import Puzzle
    >>> p = Puzzle.from_mapping({"to_move": "Alice", "players": {
    ...     "Alice": {"coins": 7, "hand": ["duke"]}, "Bob": {"coins": 1, "hand": ["contessa"]}}})
    >>> print(solve_text(answer(p.hypotheses()), seat="Bob").splitlines()[0])
    Alice to move: you (Bob) lose 100% with best play on both sides (value -1)
    """
    mover = result.to_move
    viewer = seat if seat is not None else mover
    sign = 1 if viewer == mover else -1
    win, loss = (result.win, result.loss) if sign == 1 else (result.loss, result.win)
    head = f"your move ({mover}): you" if seat == mover else f"{mover} to move: " + _who(viewer, seat)
    chances = _chances(win, loss, result.draw, seat)
    rows = [f"{head} {chances} with best play on both sides (value {value(sign * result.value)})"]
    if result.hypotheses > 1:
        rows.append(f"  {_average(result.hypotheses, seat)}")
    best = result.best.text(result.solved[0].hypothesis.state.names)
    if result.hypotheses == 1:
        rows.append(f"best move: {best}")
    else:
        whose = "your" if seat == mover else f"{mover}'s"
        worth = value(sign * result.best_value)
        rows.append(f"{whose} best single move against all {result.hypotheses} at once: {best}, value {worth} for "
                    f"{_whom(viewer, seat)}")  # fmt: skip
        if result.best_value != result.value:
            rows.append("  (chosen without knowing which is true, a move is worth less to its player than the average)")
    if note:
        rows.append(note)
    rows.append(("line, in the likeliest of them: " if result.hypotheses > 1 else "line: ") + _line(result.line))
    rows.append(_how(result))
    if explain:
        table = [
            [probability(s.hypothesis.probability), value(sign * s.value), s.hypothesis.state.text()]
            for s in result.solved
        ]
        rows.append(f"the hypotheses (probability, value for {_whom(viewer, seat)}, position):")
        rows += columns(table, "<>", indent="  ")
    return "\n".join(rows)


def _line(moves: list[str]) -> str:
    """The first :data:`LINE_SHOWN` moves of a principal line, and how many more there are."""
    more = f", ... ({len(moves) - LINE_SHOWN} more)" if len(moves) > LINE_SHOWN else ""
    return ", ".join(moves[:LINE_SHOWN]) + more


def _chances(win: Fraction, loss: Fraction, draw: Fraction, seat: str | None) -> str:
    """``'win 76%, lose 24%'`` (``wins``, ``loses`` for a named player), draws only if any."""
    s = "" if seat is not None else "s"
    parts = [f"win{s} {probability(win)}" if win else "", f"lose{s} {probability(loss)}" if loss else ""]
    parts.append(f"draw{s} {probability(draw)}" if draw else "")
    return ", ".join(p for p in parts if p) or f"draw{s} 100%"


def _who(viewer: str, seat: str | None) -> str:
    return f"you ({viewer})" if seat is not None else viewer


def _whom(viewer: str, seat: str | None) -> str:
    return "you" if seat is not None else viewer


def _ways(hypotheses: int, seat: str | None) -> str:
    unseen = "the cards you cannot see" if seat is not None else "the unseen cards"
    return f"the {hypotheses} ways {unseen} may lie"


def _average(hypotheses: int, seat: str | None) -> str:
    return f"(the average over {_ways(hypotheses, seat)}, each played with every card known)"
