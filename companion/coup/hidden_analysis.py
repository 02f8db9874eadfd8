"""`coup analyze FILE --hidden K`: in a 2-player endgame, the hidden-card value of each decision
of the record's seat (of both players in a spectator's record), from the K-turn game that starts
at that decision with the spectator's view of the record as its prior (outputs.md, "Hidden-card
values"). A decision that lost hidden-card value is marked as the open-hand ones are: a pass
against an impossible claim, a challenge the equilibrium never makes.

Values are from the mover's side: before, the best the mover's hand can expect against the
opponent's reported strategy; after, what the move played gets against it. Without the mover's
cards (a spectator), both are averaged over the hands the spectator's view deals the mover, and
"before" is the best move on average.

>>> from companion.coup.tracker import replay
>>> from companion.coup.language import parse_line
>>> t = replay("players Alice Bob\\ndraft none\\nme Bob\\nhand duke captain\\ncoins Alice 7\\ncoins Bob 7\\n"
...            "Alice coup Bob\\nBob lose captain\\nBob coup Alice\\nAlice lose contessa\\nAlice tax\\n")
>>> mover, before, after, best = hidden_values(t, parse_line("pass", t.names), 1)
>>> mover, best, after < 0 < before
('Bob', 'Bob challenge', True)
"""

from __future__ import annotations

from fractions import Fraction

from solver.coup import NOBODY, GameError, Kind, Move
from solver.coup.hidden_game import HiddenGame
from solver.coup.hidden_report import report
from solver.coup.limits import HIDDEN_ANALYSIS_BUDGET

from .hidden_advice import spectator
from .language import Line, Verb, move_of
from .tracker import Table


def hidden_values(
    before: Table, line: Line, turns: int, limit: int = HIDDEN_ANALYSIS_BUDGET
) -> tuple[str, Fraction, Fraction, str] | None:
    """(mover, value before, value after, the best move) for the line's move, or None when the
    line is not a decision of the record's seat. Raises GameError when it cannot be valued
    (not at the mover's decision, more than two players, past the limit...)."""
    from .endgame import hypotheses

    view = before.view
    if view is None or view.current_player() < 0:
        raise GameError("not at a decision")
    # a bare pass is the window's decider's (two players: one decider)
    move = Move(Kind.PASS, view.current_player()) if line.verb is Verb.PASS else move_of(line, before.names)
    if before.me is not None and move.player != before.me:
        return None
    if before.me is None and move.kind is Kind.LOSE:
        return None  # which card to lose depends on the hand, which the spectator does not know
    if view.current_player() != move.player:
        raise GameError("not at the mover's decision (an implicit pass comes first)")
    game = HiddenGame(hypotheses(spectator(before), mid_turn=True, most=None), turns)
    answer = game.solve(tagged=True, limit=limit)
    names = game.hypotheses[0].state.names
    mover = before.names[move.player]
    seat = names.index(mover)
    target = names.index(before.names[move.target]) if move.target != NOBODY else NOBODY
    played = Move(move.kind, seat, target, move.cards)
    if before.me is not None:
        hands = [tuple(sorted(before.my_cards()))]
    else:
        hands = sorted({h.state.hidden[seat] for h in game.hypotheses})
    value_before = value_after = total = Fraction(0)
    worth: dict[Move, Fraction] | None = None  # the moves offered with every hand, weighted
    for hand in hands:
        r = report(game, answer, hand)
        if played not in r.options:
            continue
        value_before += r.probability * r.value
        value_after += r.probability * r.options[played]
        total += r.probability
        known = r.options if worth is None else worth
        worth = {m: (worth or {}).get(m, Fraction(0)) + r.probability * v for m, v in r.options.items() if m in known}
    if worth is None:
        raise GameError("the move is not possible in any hand the record allows")
    best = max(worth, key=lambda m: worth[m])  # ties: the engine's order (moves offered with every hand)
    if before.me is None:  # the spectator does not know the hand: the best move on average
        value_before = worth[best]
    return mover, value_before / total, value_after / total, best.text(names)
