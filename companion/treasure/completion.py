"""What can be typed now: every legal table line, for completion word by word, in English or in
French. The lines come from the engine's legal moves at the tracked position (the neuro window
and the bidding round walked as the tracker walks them: a player may call or bid once those
before them let it go), the words from the language's vocabularies.

>>> from solver.treasure import Deck
>>> from companion.treasure.tracker import replay
>>> t = replay("game tresor\\nplayers Ana Ben\\nme Ana\\nhand 1cn 1ev 1ev\\nstart 1cv\\n", Deck(1, 2, 2))
>>> legal_lines(t, "Ana")[:3]
['Ana place 1cn at -1 0', 'Ana place 1cn at 0 -1', 'Ana place 1cn at 0 1']
>>> completions(t, "Ana pose 1cn en 0 ")
['-1', '1']
>>> completions(t, "Ana pa"), completions(t, "Ben ")
(['pass', 'passe'], [])
"""

from __future__ import annotations

from collections.abc import Iterable

from solver.errors import GameError
from solver.treasure import Kind, Marker, Move, Phase, State
from solver.vocabulary import fold

from .language import MARKERS, WORDS, Verb, french, resolve_name
from .tracker import Table

_MARKER_WORDS = [MARKERS.english(m) for m in (Marker.ZERO, Marker.ONE, Marker.NATURE, Marker.BACKGROUND, Marker.FORCE)]


def legal_lines(table: Table, who: str | None = None) -> list[str]:
    """Every canonical line the table would accept now (only ``who``'s lines when given); a
    hand and a reveal are completed word by word instead (see :func:`completions`)."""
    if not table.count:
        return ["game tresor", "players"]
    if not table.names:
        return ["players"]
    s = table.state
    if s is None:
        return _setup_lines(table)
    if s.ended():
        return _end_lines(table, s, who)
    return _play_lines(table, s, who)


def _setup_lines(table: Table) -> list[str]:
    setup = table.setup
    lines = [] if setup.me is not None else [f"me {name}" for name in table.names]
    if setup.me is not None and setup.hand is None:
        lines.append("hand")
    if setup.start is None:
        lines += [f"start {card}" for card in table.deck.kinds()]
    return lines


def _end_lines(table: Table, s: State, who: str | None) -> list[str]:
    base = table.end_base
    assert base is not None
    lines = []
    if table.ending.removed is None and who is None:
        seen = base.known_cards()
        lines += [f"removed {card}" for card in table.deck.kinds() if seen[card] < 2]
    for seat in table.owed_reveals():
        lines.append(f"{table.names[seat]} reveal")
    for seat, name in enumerate(table.names):
        if base.suspects[seat] > table.ending.breaches[seat]:
            lines.append(f"{name} breach")
    return [line for line in lines if who is None or line.startswith(f"{who} ")]


def _play_lines(table: Table, s: State, who: str | None) -> list[str]:
    names, seat = table.names, None if who is None else table.seat(who)
    lines: list[str] = []
    if s.turn.phase is Phase.NEURO:
        while s.turn.phase is Phase.NEURO:
            if seat in (None, s.turn.decider):
                lines.append(f"{names[s.turn.decider]} neuro")
            s = s.apply(Move(Kind.NO_NEURO, s.turn.decider))
    elif s.turn.phase is Phase.BID:
        caller_owes = s.turn.decider == s.turn.caller
        while s.turn.phase is Phase.BID:
            if seat in (None, s.turn.decider):
                lines += [m.text(names) for m in s.legal_moves() if _shown(table, m)]
            if caller_owes:
                return lines
            s = s.apply(Move(Kind.NO_BID, s.turn.decider))
    if s.turn.phase is Phase.TURN and seat in (None, s.turn.mover):
        lines += [m.text(names) for m in s.legal_moves()]
    return list(dict.fromkeys(lines))


def _shown(table: Table, move: Move) -> bool:
    """A bid as the table writes it: the seat's with its marker, the others' without."""
    return move.kind is Kind.BID and (move.player == table.me) == (move.marker is not Marker.UNKNOWN)


def _first_words(table: Table) -> list[str]:
    heads = [line.split()[0] for line in legal_lines(table) if line]
    return list(dict.fromkeys(heads))


def completions(table: Table, before_cursor: str, commands: Iterable[str] = ()) -> list[str]:
    """The words that may come next after ``before_cursor`` (the last word may be partial):
    command names first on an empty line, then the next word of every legal line, in the
    language being typed."""
    words = before_cursor.split()
    partial = "" if before_cursor.endswith(" ") or not words else words.pop()
    candidates = list(commands) if not words else []
    if not words:
        candidates += _first_words(table)
    else:
        candidates += _next_words(table, words)
    folded = fold(partial)
    return [c for c in dict.fromkeys(candidates) if c and fold(c).startswith(folded)]


def _next_words(table: Table, typed: list[str]) -> list[str]:
    who = None
    if typed[0] not in WORDS:
        try:
            who = resolve_name(typed[0], table.names)
        except GameError:
            return []
    at = 1 if who is not None else 0
    verb = WORDS.meaning(typed[at]) if len(typed) > at and typed[at] in WORDS else None
    if verb is Verb.HAND:
        return [str(card) for card in table.deck.kinds()]
    if verb is Verb.REVEAL:
        return _MARKER_WORDS
    in_french = any(WORDS.is_french(w) for w in typed)
    in_english = any(WORDS.is_english(w) for w in typed)
    out = []
    for line in legal_lines(table, who):
        forms = [french(line)] if in_french else [line] if in_english else [line, french(line)]
        for form in forms:
            parts = form.split()
            if len(parts) > len(typed) and _matches(parts, typed, who):
                out.append(parts[len(typed)])
    return out


def _matches(parts: list[str], typed: list[str], who: str | None) -> bool:
    for i, word in enumerate(typed):
        if i == 0 and who is not None:
            if parts[0] != who:
                return False
        elif fold(parts[i]) != fold(word):
            return False
    return True
