"""Hidden-card values for a person (outputs.md, "Hidden-card values"): `coup solve FILE
--hidden K` and `solve --hidden [K]` at the table. The K-turn game is solved exactly and
verified (:mod:`solver.coup.hidden_game`); this module picks the prior (the puzzle's, or the
spectator's view of the table's record), reads the answer for the player deciding now and the
hand they hold, and says it in words or as JSON.

>>> from solver.coup.puzzle import Puzzle
>>> p = Puzzle.from_mapping({"to_move": "Alice", "players": {
...     "Alice": {"coins": 3, "hand": ["contessa"], "face_up": ["contessa"]},
...     "Bob": {"coins": 1, "hand": ["ambassador"], "face_up": ["duke"]}},
...     "court": {"cards": ["assassin", "captain", "ambassador"]}})
>>> h = for_puzzle(p, 1)
>>> h.answer.value, h.answer.open_value
(Fraction(29, 45), Fraction(91, 135))
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from solver.coup import Character, Phase
from solver.coup.hidden import answer as open_answer
from solver.coup.hidden_game import Answer, HiddenGame, prior
from solver.coup.hidden_report import Report, report
from solver.coup.limits import HIDDEN_BUDGET
from solver.coup.puzzle import Puzzle
from solver.errors import GameError

from ..figures import columns, percent, value
from .tracker import Table

PRIVATE_LINES = ("me", "hand", "dealt", "pick", "draw", "keep", "saw")
"""Record lines only the tracked seat types: the spectator's view leaves them out."""


@dataclass(frozen=True)
class Hidden:
    """The K-turn game solved, with the report for the player deciding now when their hand is
    known (None otherwise) and that hand's open-hand value."""

    names: tuple[str, ...]
    answer: Answer
    report: Report | None
    hand_open_value: Fraction | None


def for_puzzle(
    puzzle: Puzzle, turns: int, limit: int = HIDDEN_BUDGET, tick: Callable[[], None] = lambda: None
) -> Hidden:
    """`coup solve FILE --hidden K`: the prior deals every hand card as "?"; the hand written
    for ``to_move`` (if it has no "?") gets its report and its open-hand value with the
    opponent's cards "?". Raises GameError (TooLarge past ``limit`` histories)."""
    game = HiddenGame(prior(puzzle), turns)
    solved = game.solve(tagged=True, limit=limit, tick=tick)
    hand = puzzle.hidden[puzzle.to_move]
    if Character.UNKNOWN in hand:
        return Hidden(puzzle.names, solved, None, None)
    blind = tuple(
        cards if seat == puzzle.to_move else tuple(Character.UNKNOWN for _ in cards)
        for seat, cards in enumerate(puzzle.hidden)
    )
    written = Puzzle(puzzle.names, puzzle.variant, puzzle.coins, blind, puzzle.face_up, puzzle.court, puzzle.to_move)
    hand_open = open_answer(written.hypotheses()).value
    return Hidden(puzzle.names, solved, report(game, solved, hand), hand_open)


def spectator(table: Table) -> Table:
    """The table as a spectator would have kept it: the same record without the tracked seat's
    private lines (its cards, draws, keeps, what it saw). Raises GameError if that record does
    not replay."""
    spec = Table.new(table.threshold, table.draft_model)
    for number, raw in enumerate(table.record_lines(), start=1):
        words = raw.split()
        if not words or words[0] in PRIVATE_LINES:
            continue
        view = spec.view
        if len(words) == 3 and words[1] == "show" and view is not None and view.turn.phase is Phase.EXAMINE_SHOW:
            raw = " ".join(words[:2])  # the examined seat's card, which a spectator does not see
        spec = spec.apply_text(raw, number)
    return spec


def for_table(table: Table, turns: int, limit: int = HIDDEN_BUDGET, tick: Callable[[], None] = lambda: None) -> Hidden:
    """`solve --hidden K` at the table: the prior is the spectator's view of the record, the
    game starts at the table's current point; the tracked seat, when it decides now, gets the
    report for its cards. Raises GameError with the reason (two players, a turn or a decision
    to start from, the limit)."""
    from .endgame import hypotheses, weigh

    found = hypotheses(spectator(table), mid_turn=True, most=None)  # the limit is on histories
    game = HiddenGame(found, turns)
    solved = game.solve(tagged=True, limit=limit, tick=tick)
    names = game.hypotheses[0].state.names
    me = table.me
    if me is None or table.names[me] not in names or solved.seat != names.index(table.names[me]):
        return Hidden(names, solved, None, None)
    hand = tuple(sorted(table.my_cards()))
    open_value = weigh(hypotheses(table, mid_turn=True), [None], me, HIDDEN_BUDGET)[0]
    return Hidden(names, solved, report(game, solved, hand), open_value)


# -- words and JSON --------------------------------------------------------------------------


def hidden_json(h: Hidden) -> dict[str, Any]:
    """The ``"hidden"`` object of outputs.md (plus ``doubt`` in a challenge window, and the
    size and time of the game)."""
    a, r = h.answer, h.report
    out: dict[str, Any] = {
        "turns": a.turns,
        "value": str(a.value),
        "open_value": str(a.open_value),
        "hand_value": None if r is None else str(r.value),
        "hand_open_value": None if h.hand_open_value is None else str(h.hand_open_value),
        "options": None if r is None else {m.text(h.names): str(v) for m, v in r.options.items()},
        "strategy": None if r is None else {m.text(h.names): str(p) for m, p in r.strategy.items() if p},
        "opponent": None if r is None else {c.name_en: str(p) for c, p in r.opponent.items()},
    }
    if r is not None and r.doubt is not None:
        d = r.doubt
        out["doubt"] = {
            "claimant": h.names[d.claimant],
            "claim": d.claim.name_en,
            "threshold": None if d.threshold is None else str(d.threshold),
            "always": None if d.always is None else str(d.always),
            "bluff": str(d.bluff),
            "challenge": str(d.doubt),
        }
    out["histories"] = a.tree.nodes
    out["sequences"] = list(a.tree.sequences)
    out["seconds"] = round(a.seconds, 3)
    return out


def hidden_text(h: Hidden) -> str:
    """The answer in words, from the side of the player deciding now."""
    a, r = h.answer, h.report
    who = h.names[a.seat]
    turns = f"{a.turns} turn{'s' if a.turns != 1 else ''}"
    rows = [
        f"Hidden cards over {turns}: {who}'s value {value(a.value)} (open hands: {value(a.open_value)}), "
        "before anyone looks at a card",
    ]
    if r is not None:
        cards = " ".join(c.name_en for c in r.hand)
        hand_open = "" if h.hand_open_value is None else f" (open hands: {value(h.hand_open_value)})"
        rows.append(f"with {cards}: value {value(r.value)}{hand_open}")
        rows.extend(_options(h, r))
        if r.doubt is not None:
            rows.append(_doubt_text(h, r))
        other = h.names[1 - a.seat]
        held = ", ".join(f"{c.name_en} {percent(p)}" for c, p in r.opponent.items() if p)
        rows.append(f"{other} holds (at least one): {held}")
    rows.append(
        f"exact and verified (each side's strategy a best response to the other): K = {a.turns}, "
        f"{a.tree.nodes:,} histories, {a.seconds:.2f} s"
    )
    return "\n".join(rows)


def _options(h: Hidden, r: Report) -> list[str]:
    if not r.options:
        return []
    rows = []
    for move, worth in sorted(r.options.items(), key=lambda mv: -mv[1]):
        p = r.strategy.get(move, Fraction(0))
        rows.append([move.text(h.names), value(worth), f"play {percent(p)}" if p else ""])
    return [line.rstrip() for line in columns(rows, align="<>", indent="  ")]


def _doubt_text(h: Hidden, r: Report) -> str:
    d = r.doubt
    assert d is not None
    claimant = h.names[d.claimant]
    if d.threshold is None:
        verb = "challenge" if str(d.always) == "challenge" else "pass"
        head = f"{verb} whatever you think of {claimant}'s {d.claim.name_en}"
    else:
        head = f"challenge if you think {claimant} bluffs more than {percent(d.threshold)} of the time"
    return (
        f"{head}; the equilibrium doubts {percent(d.doubt)} "
        f"(before the claim, {claimant} lacked a {d.claim.name_en} {percent(d.bluff)} of the time)"
    )


def check_turns(turns: int) -> int:
    """K as typed; raises GameError unless it is a whole number of turns from 0."""
    if turns < 0:
        raise GameError(f"--hidden {turns}: the number of turns is 0 or more", input=str(turns))
    return turns
