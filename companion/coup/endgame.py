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
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from solver.coup import Character, GameError, Move, Phase, State
from solver.coup.cards import sort_cards
from solver.coup.counting import ASIDE, COURT
from solver.coup.hidden import Answer, answer, open_values
from solver.coup.limits import TABLE_BUDGET
from solver.coup.puzzle import Hypothesis
from solver.errors import TooLarge, Unsupported

from ..language import percent
from .tracker import Table

MAX_HYPOTHESES = 400
"""More hypotheses than this are refused (each is a probe of the endgame tables)."""


def hypotheses(table: Table, mid_turn: bool = False) -> list[Hypothesis]:
    """The open-hand positions the table may be in, with their exact probabilities.

    Before the first action (the set-up complete) the opening position is solved. Raises
    :class:`~solver.errors.GameError` unless two players are left and a turn is starting (or, with
    ``mid_turn``, a player is to decide), and TooLarge beyond MAX_HYPOTHESES.
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
    if len(found) > MAX_HYPOTHESES:
        raise TooLarge(f"{len(found)} possible hands and courts; the solver takes at most {MAX_HYPOTHESES}")
    return found


@dataclass(frozen=True)
class Decision:
    """`solve` in the middle of a turn: the value for the player to decide, each option's."""

    player: str
    value: Fraction
    options: list[tuple[str, Fraction]]  # best first
    hypotheses: int
    seconds: float

    def text(self) -> str:
        best, value = self.options[0]
        rows = [f"{self.player} to decide: value {self.value}; best: {best} (value {value})"]
        rows += [f"  {move}: {v}" for move, v in self.options[1:]]
        rows.append(f"solved exactly in {self.seconds:.2f} s over {self.hypotheses} hypotheses")
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
    worth = weigh(found, moves, seat, budget)
    order = sorted(range(len(moves)), key=lambda j: (-worth[j], j))
    options = [(moves[j].text(view.names), worth[j]) for j in order]
    return Decision(view.names[seat], options[0][1], options, len(found), time.perf_counter() - started)


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
    return answer(found, budget=budget, tick=tick)


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


def solve_text(result: Answer, explain: bool = False) -> str:
    """The answer for a person."""
    data = solve_json(result, explain)
    rows = [
        f"{result.to_move} to move: value {data['value']} "
        f"(wins {percent(result.win)}, loses {percent(result.loss)}, draws {percent(result.draw)})",
        f"best move: {data['best']}" + (f" (value {data['best_value']})" if result.hypotheses > 1 else ""),
        ("line (the most likely hypothesis): " if result.hypotheses > 1 else "line: ") + ", ".join(data["line"]),
        _how(result),
    ]
    if explain:
        for h in data["explain"]:
            rows.append(f"  p = {h['probability']:<8} value {h['value']:<8} {h['position']}")
    return "\n".join(rows)
