"""The table language: what is typed at the prompt, journalled, and stored in records.

A line is parsed into a :class:`Line` (one small immutable value) and written back in its one
canonical form (English words, names in full, cards in the order of the character table).

>>> names = ("Alice", "Bob", "Carol")
>>> parse_line("bob Contre comtesse", names).canonical()
'Bob block contessa'
>>> parse_line("Al assassinat Car", names).canonical()
'Alice coup Carol'
>>> parse_line("Carol inquisiteur", names)
Line(Verb.EXCHANGE, player='Carol')
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import Enum

from solver.coup import Character, Draft, IllegalMove, Kind, Move, ParseError, State, Variant
from solver.coup.cards import fold


class Verb(Enum):
    """The canonical first word of a table line (the table rows of table-language.md)."""

    PLAYERS = "players"
    VARIANT = "variant"
    DRAFT = "draft"
    ME = "me"
    HAND = "hand"
    DEALT = "dealt"
    PICK = "pick"
    COINS = "coins"
    INCOME = "income"
    AID = "aid"
    COUP = "coup"
    TAX = "tax"
    ASSASSINATE = "assassinate"
    STEAL = "steal"
    EXCHANGE = "exchange"
    EXAMINE = "examine"
    CHALLENGE = "challenge"
    BLOCK = "block"
    SHOW = "show"
    LOSE = "lose"
    SWAP = "swap"
    RETURN = "return"
    PASS = "pass"
    DRAW = "draw"
    KEEP = "keep"
    SAW = "saw"

    def __repr__(self) -> str:
        return f"Verb.{self.name}"


SETUP = frozenset({Verb.PLAYERS, Verb.VARIANT, Verb.DRAFT, Verb.ME, Verb.HAND, Verb.DEALT, Verb.PICK, Verb.COINS})
ACTIONS = (Verb.INCOME, Verb.AID, Verb.COUP, Verb.TAX, Verb.ASSASSINATE, Verb.STEAL, Verb.EXCHANGE, Verb.EXAMINE)
TARGETED = frozenset({Verb.COUP, Verb.ASSASSINATE, Verb.STEAL, Verb.EXAMINE})
PRIVATE = frozenset({Verb.DRAW, Verb.KEEP, Verb.SAW})
RESPONSES = frozenset({Verb.CHALLENGE, Verb.BLOCK, Verb.SHOW, Verb.LOSE, Verb.SWAP, Verb.RETURN})


@dataclass(frozen=True)
class Word:
    """One word of the language: what it means and which language it is in."""

    text: str
    verb: Verb
    french: bool


def _words() -> dict[str, list[Word]]:
    table: dict[str, list[Word]] = {}

    def add(verb: Verb, english: tuple[str, ...], french: tuple[str, ...]) -> None:
        for text in english:
            table.setdefault(text, []).append(Word(text, verb, False))
        for text in french:
            table.setdefault(fold(text), []).append(Word(text, verb, True))

    add(Verb.PLAYERS, ("players",), ("joueurs",))
    add(Verb.VARIANT, ("variant",), ("variante",))
    add(Verb.DRAFT, ("draft",), ())
    add(Verb.ME, ("me",), ("moi",))
    add(Verb.HAND, ("hand",), ("main",))
    add(Verb.DEALT, ("dealt",), ("tiré",))
    add(Verb.PICK, ("pick",), ("choisi",))
    add(Verb.COINS, ("coins",), ("pièces",))
    add(Verb.INCOME, ("income",), ("revenu",))
    add(Verb.AID, ("aid", "foreign-aid"), ("aide", "aide-étrangère"))
    add(Verb.COUP, ("coup",), ("assassinat", "coup-d'état"))
    add(Verb.TAX, ("tax", "duke"), ("taxe", "duchesse", "duc"))
    add(Verb.ASSASSINATE, ("assassinate", "assassin"), ("assassine",))
    add(Verb.STEAL, ("steal", "captain"), ("vole", "capitaine"))
    add(Verb.EXCHANGE, ("exchange", "ambassador", "inquisitor"), ("échange", "ambassadeur", "inquisiteur"))
    add(Verb.EXAMINE, ("examine",), ("interroge",))
    add(Verb.CHALLENGE, ("challenge",), ("doute",))
    add(Verb.BLOCK, ("block",), ("contre",))
    add(Verb.SHOW, ("show",), ("montre",))
    add(Verb.LOSE, ("lose",), ("perd",))
    add(Verb.SWAP, ("swap",), ("change",))
    add(Verb.RETURN, ("return",), ("rend",))
    add(Verb.PASS, ("pass",), ("passe",))
    add(Verb.DRAW, ("draw",), ("pioche",))
    add(Verb.KEEP, ("keep",), ("garde",))
    add(Verb.SAW, ("saw",), ("vu",))
    # the French "assassin" (the Assassin's power) is the English word too
    table["assassin"].append(Word("assassin", Verb.ASSASSINATE, True))
    return table


WORDS = _words()
"""Every word of the language, folded (lower case, no accents), with its meaning(s)."""
_EXAMINE_BY_INQUISITOR = frozenset({"inquisitor", "inquisiteur"})
_TWO_WORDS = (
    (("aide", "etrangere"), "aide-etrangere"),
    (("coup", "d'etat"), "coup-d'etat"),
    (("coup", "d", "etat"), "coup-d'etat"),
    (("foreign", "aid"), "foreign-aid"),
)
NAME_PATTERN = re.compile(r"^[^\W_][\w-]*$")


def is_reserved(word: str) -> bool:
    """True if ``word`` is a word of the language or a card name (so it cannot be a name)."""
    folded = fold(word)
    if folded in WORDS:
        return True
    try:
        Character.parse(folded)
    except ParseError:
        return folded in ("ambassador", "inquisitor", "dealt-first", "pick-first", "none")
    return True


@dataclass(frozen=True)
class Line:
    """One table line. ``player`` and ``target`` are names as declared; ``cards`` are sorted
    in the order of the character table except for ``show``/``lose``/``block`` (one card)."""

    verb: Verb
    player: str | None = None
    target: str | None = None
    cards: tuple[Character, ...] = ()
    names: tuple[str, ...] = ()  # `players`
    value: str | int | None = None  # `variant`, `draft`, `coins`
    french: bool = field(default=False, compare=False)  # typed in French (for completion)

    def __repr__(self) -> str:
        parts = [repr(self.verb)]
        for key in ("player", "target"):
            if getattr(self, key) is not None:
                parts.append(f"{key}={getattr(self, key)!r}")
        if self.cards:
            parts.append(f"cards=({', '.join(repr(c) for c in self.cards)}{',' if len(self.cards) == 1 else ''})")
        if self.names:
            parts.append(f"names={self.names!r}")
        if self.value is not None:
            parts.append(f"value={self.value!r}")
        return f"Line({', '.join(parts)})"

    def canonical(self) -> str:
        """The one canonical form of this line (table-language.md, "Canonical form")."""
        verb = self.verb.value
        cards = " ".join(c.name_en for c in self.cards)
        if self.verb is Verb.PLAYERS:
            return f"players {' '.join(self.names)}"
        if self.verb in (Verb.VARIANT, Verb.DRAFT):
            return f"{verb} {self.value}"
        if self.verb is Verb.ME:
            return f"me {self.player}"
        if self.verb is Verb.COINS:
            return f"coins {self.player} {self.value}"
        if self.verb in (Verb.HAND, Verb.DEALT, Verb.PICK, Verb.DRAW, Verb.KEEP, Verb.SAW):
            return f"{verb} {cards}"
        if self.verb is Verb.PASS:
            return "pass"
        words = [str(self.player), verb]
        if self.target is not None:
            words.append(self.target)
        if cards:
            words.append(cards)
        return " ".join(words)


class Token(str):
    """A word as the language compares it (folded), remembering how it was typed."""

    typed: str

    def __new__(cls, folded: str, typed: str) -> Token:
        token = super().__new__(cls, folded)
        token.typed = typed
        return token


def typed(word: str) -> str:
    """The word as it was typed (for messages)."""
    return getattr(word, "typed", word)


def tokenize(text: str) -> list[Token]:
    """The words of ``text`` (without its comment), folded, the two-word French forms joined."""
    raw = text.split("#", 1)[0].replace("\u2019", "'").split()
    tokens = [Token(fold(w), w) for w in raw]
    joined: list[Token] = []
    i = 0
    while i < len(tokens):
        for phrase, word in _TWO_WORDS:
            if tuple(tokens[i : i + len(phrase)]) == phrase:
                typed_text = " ".join(t.typed for t in tokens[i : i + len(phrase)])
                joined.append(Token(word, typed_text))
                i += len(phrase)
                break
        else:
            joined.append(tokens[i])
            i += 1
    return joined


def resolve_name(word: str, names: tuple[str, ...]) -> str:
    """Return the declared name ``word`` stands for: the exact name (any case, accents
    optional), else the one name it is a prefix of. Raises :class:`ParseError`."""
    folded = fold(word)
    exact = [n for n in names if fold(n) == folded]
    if exact:
        return exact[0]
    matches = [n for n in names if fold(n).startswith(folded)]
    if len(matches) == 1 and folded not in WORDS:
        return matches[0]
    if len(matches) > 1:
        raise ParseError(f"{typed(word)!r} could be {' or '.join(matches)}: type more of the name")
    if not names:
        raise ParseError(f"{typed(word)!r}: no players yet (start with: players Alice Bob Carol)")
    raise ParseError(f"{typed(word)!r} is not a player (players: {', '.join(names)})")


def parse_card(word: str) -> Character:
    """A card name (English or French). Raises :class:`ParseError`."""
    try:
        return Character.parse(word)
    except ParseError:
        raise ParseError(
            f"unknown card: {typed(word)!r} (cards: duke assassin contessa captain ambassador "
            "inquisitor, or duchesse comtesse capitaine ambassadeur inquisiteur)"
        ) from None


def parse_line(text: str, names: tuple[str, ...] = ()) -> Line | None:
    """Parse one line given the declared ``names``; None for a blank or comment-only line.

    Raises :class:`ParseError` with the reason, naming the offending word.
    """
    tokens = tokenize(text)
    if not tokens:
        return None
    head = tokens[0]
    meanings = WORDS.get(head, [])
    setup_or_private = [w for w in meanings if w.verb in SETUP or w.verb in PRIVATE or w.verb is Verb.PASS]
    if setup_or_private:
        word = setup_or_private[0]
        if word.verb is Verb.PLAYERS:  # names keep the case they are declared in
            return Line(Verb.PLAYERS, names=_declare(text.split("#", 1)[0].split()[1:]), french=word.french)
        return _parse_keyword_line(word, tokens[1:], names)
    if meanings and not any(fold(n) == head for n in names):
        raise ParseError(f"{typed(head)!r} needs a player first, e.g. 'Alice {typed(head)}'")
    player = resolve_name(head, names)
    if len(tokens) < 2:
        raise ParseError(f"what does {player} do? (e.g. '{player} income')")
    return _parse_player_line(player, tokens[1], tokens[2:], names)


def _parse_keyword_line(word: Word, rest: Sequence[str], names: tuple[str, ...]) -> Line:
    verb, french = word.verb, word.french
    if verb is Verb.PASS:
        if rest:
            raise ParseError("pass takes nothing after it: it closes the open window")
        return Line(Verb.PASS, french=french)
    if verb is Verb.PLAYERS:
        return Line(Verb.PLAYERS, names=_declare(rest), french=french)
    if verb is Verb.VARIANT:
        _count(verb, rest, 1)
        return Line(Verb.VARIANT, value=str(Variant.parse(rest[0])), french=french)
    if verb is Verb.DRAFT:
        _count(verb, rest, 1)
        return Line(Verb.DRAFT, value=str(Draft.parse(rest[0])), french=french)
    if verb is Verb.ME:
        _count(verb, rest, 1)
        return Line(Verb.ME, player=resolve_name(rest[0], names), french=french)
    if verb is Verb.COINS:
        _count(verb, rest, 2)
        if not rest[1].isdigit():
            raise ParseError(f"coins: {typed(rest[1])!r} is not a number of coins")
        return Line(Verb.COINS, player=resolve_name(rest[0], names), value=int(rest[1]), french=french)
    sizes = {Verb.HAND: (1, 2), Verb.DEALT: (1,), Verb.PICK: (1,), Verb.SAW: (1,), Verb.DRAW: (1, 2), Verb.KEEP: (1, 2)}
    if len(rest) not in sizes[verb]:
        counts = " or ".join(str(n) for n in sizes[verb])
        raise ParseError(f"{verb.value} names {counts} card{'s' if max(sizes[verb]) > 1 else ''}")
    cards = tuple(parse_card(w) for w in rest)
    return Line(verb, cards=tuple(sorted(cards)), french=french)


def _count(verb: Verb, rest: Sequence[str], n: int) -> None:
    if len(rest) != n:
        example = {
            Verb.VARIANT: "variant inquisitor",
            Verb.DRAFT: "draft dealt-first",
            Verb.ME: "me Carol",
            Verb.COINS: "coins Alice 5",
        }[verb]
        raise ParseError(f"{verb.value} takes {n} word{'s' if n > 1 else ''}, e.g. '{example}'")


def _declare(words: Sequence[str]) -> tuple[str, ...]:
    if not 2 <= len(words) <= 8:
        raise ParseError(f"players: 2 to 8 names, not {len(words)}")
    seen: set[str] = set()
    for word in words:
        if not NAME_PATTERN.match(word):
            raise ParseError(f"{word!r} is not a name: letters, digits, - and _ only")
        if is_reserved(word):
            raise ParseError(f"{word!r} cannot be a name: it is a word of the table language")
        if fold(word) in seen:
            raise ParseError(f"{word!r} is given twice")
        seen.add(fold(word))
    return tuple(words)


def _parse_player_line(player: str, verb_word: str, rest: Sequence[str], names: tuple[str, ...]) -> Line:
    meanings = [w for w in WORDS.get(verb_word, []) if w.verb not in SETUP and w.verb not in PRIVATE]
    if not meanings:
        if verb_word in WORDS:
            raise ParseError(f"{typed(verb_word)!r} is not something a player does: write it alone")
        raise ParseError(f"unknown word {typed(verb_word)!r} after {player}")
    word = meanings[0]
    verb, french = word.verb, word.french
    if verb_word in _EXAMINE_BY_INQUISITOR and rest:
        verb = Verb.EXAMINE
    if verb is Verb.PASS:
        raise ParseError("write 'pass' alone: it closes the open window for everybody")
    if verb in TARGETED:
        if len(rest) != 1:
            raise ParseError(f"{verb.value} needs one target, e.g. '{player} {verb.value} <player>'")
        return Line(verb, player=player, target=resolve_name(rest[0], names), french=french)
    if verb in (Verb.BLOCK, Verb.LOSE):
        if len(rest) != 1:
            raise ParseError(f"{verb.value} names one card, e.g. '{player} {verb.value} duke'")
        return Line(verb, player=player, cards=(parse_card(rest[0]),), french=french)
    if verb is Verb.SHOW:
        if len(rest) > 1:
            raise ParseError(f"show names at most one card, e.g. '{player} show duke'")
        return Line(verb, player=player, cards=tuple(parse_card(w) for w in rest), french=french)
    if rest:
        raise ParseError(f"{verb.value} takes nothing after it (got {' '.join(typed(w) for w in rest)!r})")
    return Line(verb, player=player, french=french)


def typed_move(text: str, state: State, seat: int, other: str = "it is not your move") -> Move:
    """The engine move of ``seat`` that a typed line names at ``state`` (a bare ``pass`` is
    the seat's; ``keep``/``draw`` lines may leave the name out). Raises ParseError or
    IllegalMove (``other`` when the line names another player's move)."""
    line = parse_line(text, state.names)
    if line is None:
        raise IllegalMove("nothing to play")
    typed = line.canonical()
    name = state.names[seat]
    for move in state.legal_moves():
        said = move.text(state.names)
        if typed in (said, said.removeprefix(f"{name} ")) or (typed == "pass" and move.kind is Kind.PASS):
            if move.player != seat:
                raise IllegalMove(f"{typed!r}: {other}")
            return move
    options = ", ".join(m.text(state.names) for m in state.legal_moves() if m.player == seat)
    raise IllegalMove(f"{typed!r} cannot be played now; you may: {options or 'nothing (not your move)'}")
