"""What can be typed now: every legal table line, in English and French, for completion. The
lines come from the engine's legal moves at each position a line may be played at now
(:func:`solver.coup.public.positions`, the tracker's too; who is still to answer comes from
:func:`solver.coup.public.still_to_answer`), the words from the language's vocabulary.

>>> from companion.coup.tracker import replay
>>> t = replay("players Alice Bob Carol\\nme Carol\\nhand duke captain\\nAlice steal Bob\\n")
>>> [line for line in legal_lines(t) if line.startswith("Bob")][:3]
['Bob challenge', 'Bob block captain', 'Bob block ambassador']
>>> completions(t, "Carol cha")
['challenge']
>>> completions(t, "Bob contre ")
['capitaine', 'ambassadeur']
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import combinations_with_replacement

from solver.coup import RULES, Character, GameError, Kind, Phase, State
from solver.coup.cards import CARD_WORDS
from solver.coup.messages import claimed
from solver.coup.public import positions, still_to_answer

from ..language import next_words
from .language import VERBS, french, resolve_name
from .tracker import Table


def legal_lines(table: Table) -> list[str]:
    """Every canonical line the table would accept now (windows closed implicitly included)."""
    if not table.names:
        return ["players"]
    if table.over:
        return []
    if not table.started:
        return _setup_lines(table)
    state = table.view
    assert state is not None
    lines: list[str] = []
    if table.owed_redraw:
        lines = [f"draw {c}" for c in table.variant.characters]
        if state.turn.phase is Phase.LOSE and table.deferred is None:
            lines += _phase_lines(table, state)
        return lines
    for _, position in positions(state, table.me):
        lines += _phase_lines(table, position)
    return list(dict.fromkeys(lines))


def _setup_lines(table: Table) -> list[str]:
    names = table.names
    chars = table.variant.characters
    lines = ["variant ambassador", "variant inquisitor"]
    if len(names) == 2:
        lines += ["draft dealt-first", "draft pick-first", "draft none"]
    lines += [f"me {n}" for n in names] + [f"coins {n}" for n in names]
    if table.me is not None:
        lines += [f"hand {a} {b}" for a, b in combinations_with_replacement(chars, 2)]
        lines += [f"dealt {c}" for c in chars] + [f"pick {c}" for c in chars]
    try:
        started = table.start()
    except GameError:
        return lines
    return lines + legal_lines(started)


def _phase_lines(table: Table, s: State) -> list[str]:
    names, t = s.names, s.turn
    chars = [c.name_en for c in s.variant.characters]
    phase = t.phase

    def cards_of(seat: int) -> list[str]:
        return [c.name_en for c in s.hidden[seat] if c is not Character.UNKNOWN] if seat == table.me else chars

    if phase is Phase.ACTION:
        return [m.text(names) for m in s.legal_moves()]
    if phase in (Phase.CHALLENGE, Phase.BLOCK_CHALLENGE):
        return ["pass"] + [f"{names[p]} challenge" for p in still_to_answer(s)]
    if phase is Phase.BLOCK:
        assert t.action is not None
        block_with = RULES[s.variant][t.action].block_with
        return ["pass"] + [f"{names[p]} block {c.name_en}" for p in still_to_answer(s) for c in block_with]
    if phase is Phase.PROOF:
        who = names[t.decider]
        proofs = [f"{who} show {claimed(s)}" for m in s.legal_moves() if m.kind is Kind.PROVE]
        return proofs + [f"{who} lose {c}" for c in dict.fromkeys(cards_of(t.decider))]
    if phase is Phase.LOSE:
        return [f"{names[t.decider]} lose {c}" for c in dict.fromkeys(cards_of(t.decider))]
    if phase is Phase.EXAMINE_SHOW:
        if t.decider == table.me:
            return [f"{names[t.decider]} show {c}" for c in dict.fromkeys(cards_of(t.decider))]
        if t.actor == table.me:
            return [f"saw {c}" for c in chars]
        return [f"{names[t.decider]} show", f"{names[t.actor]} swap", f"{names[t.actor]} return"]
    if phase is Phase.EXAMINE_DECIDE:
        return [f"{names[t.actor]} swap", f"{names[t.actor]} return"]
    if phase is Phase.EXCHANGE_DRAW:
        return ["draw " + " ".join(combo) for combo in combinations_with_replacement(chars, s.variant.exchange_draw)]
    if phase is Phase.EXCHANGE_KEEP:
        return ["keep " + " ".join(c.name_en for c in m.cards) for m in s.legal_moves() if m.kind is Kind.KEEP]
    if phase is Phase.SWAP_DRAW:
        return [f"draw {c}" for c in chars]
    return []


def completions(table: Table, before_cursor: str, commands: Iterable[str] = ()) -> list[str]:
    """The words that may come next after ``before_cursor`` (the last word may be partial):
    command names first on an empty line, then the next word of every legal line, in the
    language being typed."""
    return next_words(
        legal_lines(table), before_cursor, table.names, (VERBS, CARD_WORDS), french, resolve_name, commands
    )
