"""What can be typed now: every legal table line, in English and French, for completion.

>>> from companion.coup.table import replay
>>> t = replay("players Alice Bob Carol\\nme Carol\\nhand duke captain\\nAlice steal Bob\\n")
>>> [line for line in legal_lines(t) if line.startswith("Bob")][:3]
['Bob challenge', 'Bob block captain', 'Bob block ambassador']
>>> completions(t, "Carol cha")
['challenge']
>>> completions(t, "Bob contre ")
['capitaine', 'ambassadeur']
"""

from __future__ import annotations

from itertools import combinations_with_replacement

from solver.coup import NOBODY, RULES, Character, GameError, Kind, Move, Phase, State
from solver.coup.cards import fold
from solver.coup.messages import claimed

from .language import WORDS, resolve_name
from .session import COMMANDS
from .table import WINDOW_NAMES, Table

_FRENCH_VERBS = {
    "players": "joueurs",
    "variant": "variante",
    "me": "moi",
    "hand": "main",
    "dealt": "tiré",
    "pick": "choisi",
    "coins": "pièces",
    "income": "revenu",
    "aid": "aide",
    "coup": "assassinat",
    "tax": "taxe",
    "assassinate": "assassine",
    "steal": "vole",
    "exchange": "échange",
    "examine": "interroge",
    "challenge": "doute",
    "block": "contre",
    "show": "montre",
    "lose": "perd",
    "swap": "change",
    "return": "rend",
    "pass": "passe",
    "draw": "pioche",
    "keep": "garde",
    "saw": "vu",
}
_FRENCH_CARDS = {c.name_en: c.name_fr for c in Character if c is not Character.UNKNOWN}
_ENGLISH_ONLY = {w for w in WORDS if not any(m.french for m in WORDS[w])}
_FRENCH_ONLY = {w for w in WORDS if all(m.french for m in WORDS[w])}


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
    for _ in range(4):
        lines += _phase_lines(table, state)
        if state.turn.phase not in WINDOW_NAMES:
            break
        while state.turn.phase in WINDOW_NAMES:
            phase = state.turn.phase
            state = state.apply(Move(Kind.PASS, state.turn.decider))
            if state.turn.phase is not phase:
                break
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
        stop = t.actor if phase is Phase.CHALLENGE else t.blocker
        return ["pass"] + [f"{names[p]} challenge" for p in _window(s, t.decider, stop)]
    if phase is Phase.BLOCK:
        assert t.action is not None
        rule = RULES[s.variant][t.action]
        seats = _window(s, t.decider, t.actor) if t.target == NOBODY else [t.target]
        return ["pass"] + [f"{names[p]} block {c.name_en}" for p in seats for c in rule.block_with]
    if phase is Phase.PROOF:
        who = names[t.decider]
        return [f"{who} show {claimed(s)}"] + [f"{who} lose {c}" for c in dict.fromkeys(cards_of(t.decider))]
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
        k = s.variant.exchange_draw
        return ["draw " + " ".join(combo) for combo in combinations_with_replacement(chars, k)]
    if phase is Phase.EXCHANGE_KEEP:
        return ["keep " + " ".join(c.name_en for c in m.cards) for m in s.legal_moves()]
    if phase is Phase.SWAP_DRAW:
        return [f"draw {c}" for c in chars]
    return []


def _window(s: State, first: int, stop: int) -> list[int]:
    """The seats offered the open window, from ``first`` in seating order until ``stop``."""
    seats: list[int] = []
    seat, n = first, len(s.names)
    while seat != stop and len(seats) < n:
        if s.alive(seat):
            seats.append(seat)
        seat = (seat + 1) % n
    return seats


def french(line: str) -> str:
    """The French form of a canonical line (names unchanged)."""
    return " ".join(_FRENCH_VERBS.get(w, _FRENCH_CARDS.get(w, w)) for w in line.split())


def completions(table: Table, before_cursor: str) -> list[str]:
    """The words that may come next after ``before_cursor`` (the last word may be partial)."""
    words = before_cursor.split()
    partial = "" if before_cursor.endswith(" ") or not words else words.pop()
    typed = [fold(w) for w in words]
    languages = _languages(typed + ([fold(partial)] if partial else []))
    candidates: list[str] = []
    if not words:
        candidates += [name for name in COMMANDS]
    for line in legal_lines(table):
        forms = ([line] if "en" in languages else []) + ([french(line)] if "fr" in languages else [])
        for form in forms:
            parts = form.split()
            if len(parts) > len(typed) and _matches(parts[: len(typed)], typed, table.names):
                candidates.append(parts[len(typed)])
    folded = fold(partial)
    return [c for c in dict.fromkeys(candidates) if fold(c).startswith(folded)]


def _languages(typed: list[str]) -> set[str]:
    if any(w in _FRENCH_ONLY for w in typed):
        return {"fr"}
    if any(w in _ENGLISH_ONLY for w in typed):
        return {"en"}
    return {"en", "fr"}


def _matches(parts: list[str], typed: list[str], names: tuple[str, ...]) -> bool:
    for part, word in zip(parts, typed, strict=True):
        if fold(part) == word:
            continue
        if part in names:
            try:
                if resolve_name(word, names) == part:
                    continue
            except GameError:
                return False
        return False
    return True
