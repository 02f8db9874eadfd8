"""The Coup table language: what is typed at the prompt, journalled, and stored in records.

A line is parsed into a :class:`Line` (one small immutable value) and written back in its one
canonical form (English words, names in full, cards in the order of the character table). The
words live in :data:`VERBS` (one vocabulary, both languages); which word claims what and which
actions take a target come from the rules (:data:`solver.coup.RULES`), not from a copy here.

>>> names = ("Alice", "Bob", "Carol")
>>> parse_line("bob Contre comtesse", names).canonical()
'Bob block contessa'
>>> parse_line("Al assassinat Car", names).canonical()
'Alice coup Carol'
>>> parse_line("Carol inquisiteur", names)
Line(Verb.EXCHANGE, player='Carol')
>>> parse_line("Dave conteste", ("Dave", "Erin")).canonical()
'Dave challenge'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from enum import Enum

from solver.coup import NOBODY, RULES, Character, Draft, IllegalMove, Kind, Move, ParseError, Phase, State, Variant
from solver.coup.cards import CARD_WORDS, MAX_PLAYERS, MIN_PLAYERS
from solver.coup.messages import waiting_for
from solver.coup.public import meant
from solver.coup.state import WINDOWS
from solver.vocabulary import Vocabulary, fold

from ..language import PROMPT_WORDS as SHARED_PROMPT_WORDS
from ..language import Token, declare, typed
from ..language import french as in_french
from ..language import resolve_name as resolve
from ..language import tokenize as split

UNKNOWN = Character.UNKNOWN


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
PRIVATE = frozenset({Verb.DRAW, Verb.KEEP, Verb.SAW})
ACTION_KINDS: dict[Verb, Kind] = {Verb(str(kind)): kind for kind in Kind if kind.is_action}
"""The verb of each action line and the engine's kind (the same word)."""
ACTIONS = tuple(ACTION_KINDS)
TARGETED = frozenset(Verb(str(rule.action)) for rules in RULES.values() for rule in rules.values() if rule.targeted)
"""Actions that name a target (from the action table)."""

VERBS: Vocabulary[Verb] = Vocabulary(
    [
        (Verb.PLAYERS, ("players",), ("joueurs",)),
        (Verb.VARIANT, ("variant",), ("variante",)),
        (Verb.DRAFT, ("draft",), ()),
        (Verb.ME, ("me",), ("moi",)),
        (Verb.HAND, ("hand",), ("main",)),
        (Verb.DEALT, ("dealt",), ("tiré",)),
        (Verb.PICK, ("pick",), ("choisi",)),
        (Verb.COINS, ("coins",), ("pièces",)),
        (Verb.INCOME, ("income",), ("revenu",)),
        (Verb.AID, ("aid", "foreign-aid"), ("aide", "aide-étrangère")),
        (Verb.COUP, ("coup",), ("assassinat", "coup-d'état")),
        (Verb.TAX, ("tax",), ("taxe", "impôt")),
        (Verb.ASSASSINATE, ("assassinate",), ("assassine",)),
        (Verb.STEAL, ("steal",), ("vole",)),
        (Verb.EXCHANGE, ("exchange",), ("échange",)),
        (Verb.EXAMINE, ("examine",), ("interroge",)),
        (Verb.CHALLENGE, ("challenge", "doubt"), ("doute", "conteste", "défie", "défi")),
        (Verb.BLOCK, ("block", "counter"), ("contre", "bloque")),
        (Verb.SHOW, ("show",), ("montre",)),
        (Verb.LOSE, ("lose",), ("perd", "retourne")),
        (Verb.SWAP, ("swap",), ("change",)),
        (Verb.RETURN, ("return",), ("rend",)),
        (Verb.PASS, ("pass",), ("passe",)),
        (Verb.DRAW, ("draw",), ("pioche",)),
        (Verb.KEEP, ("keep",), ("garde",)),
        (Verb.SAW, ("saw",), ("vu",)),
    ]
)
"""Every verb of the language in English and French (the first word of each is written back).
French synonyms are the seed texts' own words ("mettre en doute", "contester", "défier")."""

CLAIMED_BY: dict[Character, tuple[Kind, ...]] = {}
"""For each character, the actions claiming it (in either variant): ``Alice duke`` is a tax,
``Alice inquisitor Bob`` an examine (the targeted one), ``Alice inquisitor`` an exchange."""
for _rules in RULES.values():
    for _rule in _rules.values():
        if _rule.claim is not None and _rule.action not in CLAIMED_BY.get(_rule.claim, ()):
            CLAIMED_BY[_rule.claim] = (*CLAIMED_BY.get(_rule.claim, ()), _rule.action)

_TWO_WORDS = (
    (("aide", "etrangere"), "aide-etrangere"),
    (("coup", "d'etat"), "coup-d'etat"),
    (("coup", "d", "etat"), "coup-d'etat"),
    (("foreign", "aid"), "foreign-aid"),
)
RESERVED = frozenset({"ambassador", "inquisitor", "dealt-first", "pick-first", "none"})
PROMPT_WORDS = SHARED_PROMPT_WORDS | {"table", "odds", "solve", "rules"}
"""The prompt's commands: a player named so would be read as the command."""


def is_reserved(word: str) -> bool:
    """True if ``word`` is a word of the language, a card name or a command of the prompt (so
    it cannot be a name)."""
    return word in VERBS or word in CARD_WORDS or fold(word) in RESERVED or fold(word) in PROMPT_WORDS


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
            return "pass" if self.player is None else f"{self.player} pass"
        words = [str(self.player), verb]
        if self.target is not None:
            words.append(self.target)
        if cards:
            words.append(cards)
        return " ".join(words)


def tokenize(text: str) -> list[Token]:
    """The words of ``text`` (without its comment), folded, the two-word French forms joined."""
    return split(text, _TWO_WORDS)


def resolve_name(word: str, names: tuple[str, ...]) -> str:
    """Return the declared name ``word`` stands for: the exact name (any case, accents
    optional), else the one name it is a prefix of. Raises :class:`ParseError`."""
    return resolve(word, names, is_reserved)


def parse_card(word: str) -> Character:
    """A card name (English or French). Raises :class:`ParseError` naming the nearest card."""
    return CARD_WORDS.meaning(typed(word), "card")


def parse_line(text: str, names: tuple[str, ...] = ()) -> Line | None:
    """Parse one line given the declared ``names``; None for a blank or comment-only line.

    Raises :class:`ParseError` with the reason, naming the offending word (and the nearest
    known word for an unknown one).
    """
    tokens = tokenize(text)
    if not tokens:
        return None
    head = tokens[0]
    standalone = [w for w in VERBS.words(head) if w.meaning in SETUP or w.meaning in PRIVATE or w.meaning is Verb.PASS]
    if standalone:
        word = standalone[0]
        if word.meaning is Verb.PLAYERS:  # names keep the case they are declared in
            return Line(Verb.PLAYERS, names=_declare(text.split("#", 1)[0].split()[1:]), french=word.french)
        return _parse_keyword_line(word.meaning, word.french, tokens[1:], names)
    if (head in VERBS or head in CARD_WORDS) and not any(fold(n) == head for n in names):
        raise ParseError(f"{typed(head)!r} needs a player first, e.g. 'Alice {typed(head)}'", input=text)
    player = resolve_name(head, names)
    if len(tokens) < 2:
        raise ParseError(f"what does {player} do? (e.g. '{player} income')", input=text)
    return _parse_player_line(player, tokens[1], tokens[2:], names)


_SIZES = {Verb.HAND: (1, 2), Verb.DEALT: (1,), Verb.PICK: (1,), Verb.SAW: (1,), Verb.DRAW: (1, 2), Verb.KEEP: (1, 2)}
_EXAMPLES = {
    Verb.VARIANT: "variant inquisitor",
    Verb.DRAFT: "draft dealt-first",
    Verb.ME: "me Carol",
    Verb.COINS: "coins Alice 5",
}


def _parse_keyword_line(verb: Verb, french: bool, rest: Sequence[str], names: tuple[str, ...]) -> Line:
    if verb is Verb.PASS:
        if rest:
            raise ParseError("pass takes nothing after it: it closes the open window")
        return Line(Verb.PASS, french=french)
    if verb is Verb.PLAYERS:
        return Line(Verb.PLAYERS, names=_declare(rest), french=french)
    if verb in _EXAMPLES:
        words = 2 if verb is Verb.COINS else 1
        if len(rest) != words:
            raise ParseError(f"{verb.value} takes {words} word{'s' * (words > 1)}, e.g. '{_EXAMPLES[verb]}'")
    if verb is Verb.VARIANT:
        return Line(Verb.VARIANT, value=str(Variant.parse(rest[0])), french=french)
    if verb is Verb.DRAFT:
        return Line(Verb.DRAFT, value=str(Draft.parse(rest[0])), french=french)
    if verb is Verb.ME:
        return Line(Verb.ME, player=resolve_name(rest[0], names), french=french)
    if verb is Verb.COINS:
        if not rest[1].isdigit():
            raise ParseError(f"coins: {typed(rest[1])!r} is not a number of coins", input=typed(rest[1]))
        return Line(Verb.COINS, player=resolve_name(rest[0], names), value=int(rest[1]), french=french)
    if len(rest) not in _SIZES[verb]:
        counts = " or ".join(str(n) for n in _SIZES[verb])
        raise ParseError(f"{verb.value} names {counts} card{'s' if max(_SIZES[verb]) > 1 else ''}")
    cards = tuple(parse_card(w) for w in rest)
    return Line(verb, cards=tuple(sorted(cards)), french=french)


def _declare(words: Sequence[str]) -> tuple[str, ...]:
    return declare(words, is_reserved, MIN_PLAYERS, MAX_PLAYERS)


def _player_verb(verb_word: str, rest: Sequence[str], player: str) -> tuple[Verb, bool]:
    """The verb a player's second word means (a verb, or a character naming its claim) and
    whether it is French."""
    verbs = [w for w in VERBS.words(verb_word) if w.meaning not in SETUP and w.meaning not in PRIVATE]
    if verbs:
        return verbs[0].meaning, verbs[0].french
    cards = [w for w in CARD_WORDS.words(verb_word) if w.meaning in CLAIMED_BY]
    if cards:
        actions = CLAIMED_BY[cards[0].meaning]  # the targeted one when a target follows
        chosen = next((k for k in actions if (Verb(str(k)) in TARGETED) == bool(rest)), actions[0])
        return Verb(str(chosen)), cards[0].french and not CARD_WORDS.is_english(verb_word)
    if verb_word in VERBS:
        raise ParseError(f"{typed(verb_word)!r} is not something a player does: write it alone", input=typed(verb_word))
    near = VERBS.suggest(verb_word) or CARD_WORDS.suggest(verb_word)
    hint = f": did you mean {near!r}?" if near else ""
    raise ParseError(f"unknown word {typed(verb_word)!r} after {player}{hint}", input=typed(verb_word))


def _parse_player_line(player: str, verb_word: str, rest: Sequence[str], names: tuple[str, ...]) -> Line:
    private = [w for w in VERBS.words(verb_word) if w.meaning in PRIVATE]
    if private:  # the tracked seat's own draw, keep or saw, with its name (as a move is printed)
        return replace(_parse_keyword_line(private[0].meaning, private[0].french, rest, names), player=player)
    verb, french = _player_verb(verb_word, rest, player)
    if verb is Verb.PASS:  # this player lets the open window go (bare `pass`: everybody still to speak)
        if rest:
            raise ParseError(f"pass takes nothing after it, e.g. '{player} pass'")
        return Line(Verb.PASS, player=player, french=french)
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


_PLAYER_MOVES = {verb: kind for verb, kind in ACTION_KINDS.items()} | {
    Verb(str(kind)): kind for kind in (Kind.CHALLENGE, Kind.BLOCK, Kind.LOSE, Kind.SWAP, Kind.RETURN)
}


def move_of(line: Line, names: tuple[str, ...]) -> Move:
    """The engine move a player's line names: an action (with its target), a challenge, a
    block or a lost card (with its card), an examiner's swap or return.

    >>> move_of(parse_line("Bob block contessa", ("Alice", "Bob")), ("Alice", "Bob"))
    Move(Kind.BLOCK, 1, cards=(Character.CONTESSA,))
    """
    kind = _PLAYER_MOVES[line.verb]
    target = names.index(line.target) if line.target is not None else NOBODY
    return Move(kind, names.index(str(line.player)), target, line.cards)


def line_moves(line: Line, state: State, me: int | None) -> tuple[Move, ...]:
    """The moves a play line names at the position ``state`` seen from seat ``me`` (None: a
    spectator): what :func:`solver.coup.public.meant` resolves against the legal moves,
    windows closing included. A card shown to an examiner is unknown unless ``me`` sees it;
    an examiner's ``swap``/``return`` typed without the card shown comes after it, unknown.
    Raises IllegalMove saying why the line names no move there.

    >>> from solver.coup import Draft, Variant
    >>> from solver.coup.public import opening
    >>> s = opening(("Alice", "Bob"), Variant.AMBASSADOR, Draft.NONE, me=1, cards=(Character.DUKE,) * 2)
    >>> line_moves(parse_line("Bob lose duke", s.names), s, 1)
    (Move(Kind.LOSE, 1, cards=(Character.DUKE,)),)
    """
    seat = state.names.index(line.player) if line.player is not None else None
    t = state.turn
    verb = line.verb
    if seat is not None and (verb in ACTIONS or verb in (Verb.LOSE, Verb.BLOCK)):
        if verb is Verb.BLOCK and t.phase is not Phase.BLOCK:
            raise IllegalMove(f"{line.player} cannot block now: the table waits for {waiting_for(state)}")
        return (move_of(line, state.names),)
    if seat is not None and verb in (Verb.CHALLENGE, Verb.PASS):
        if t.phase not in (WINDOWS if verb is Verb.PASS else (Phase.CHALLENGE, Phase.BLOCK_CHALLENGE)):
            raise IllegalMove(f"{line.player} cannot {verb.value} now: the table waits for {waiting_for(state)}")
        return (Move(Kind.PASS if verb is Verb.PASS else Kind.CHALLENGE, seat),)
    if seat is not None and verb is Verb.SHOW:
        return (_shown(line, seat, state, me),)
    if seat is not None and verb in (Verb.SWAP, Verb.RETURN):
        return _decided(line, seat, state, me)
    return _private(line, state, me)


def _shown(line: Line, seat: int, s: State, me: int | None) -> Move:
    """A proof, or the card shown to an examiner (unknown unless ``me`` sees it)."""
    if s.turn.phase is not Phase.EXAMINE_SHOW:
        if not line.cards:
            raise IllegalMove(f"show which card? ({line.player} show CARD)")
        return Move(Kind.PROVE, seat, cards=line.cards)
    if seat == me:
        if not line.cards:
            raise IllegalMove(f"which card do you show? ({line.player} show CARD)")
        return Move(Kind.SHOW, seat, cards=line.cards)
    if line.cards and s.turn.actor == me:  # the card shown to the seat: its `saw` line
        return Move(Kind.SHOW, seat, cards=line.cards)
    if line.cards:
        raise IllegalMove(
            f"only {s.names[s.turn.actor]} sees the card: write '{line.player} show' "
            "(or 'saw CARD' if you are the one examining)"
        )
    if s.turn.actor == me:
        raise IllegalMove("write what you saw: saw CARD")
    return Move(Kind.SHOW, seat, cards=(UNKNOWN,))


def _decided(line: Line, seat: int, s: State, me: int | None) -> tuple[Move, ...]:
    """An examiner's swap or return, after the card shown it (unknown) if not typed."""
    t = s.turn
    if t.phase is Phase.EXAMINE_SHOW and t.actor == seat:
        if seat == me:
            raise IllegalMove("first write what you saw: saw CARD")
        if t.decider == me:
            raise IllegalMove(f"first write the card you showed: {s.names[t.decider]} show CARD")
        return (Move(Kind.SHOW, t.decider, cards=(UNKNOWN,)), move_of(line, s.names))
    return (move_of(line, s.names),)


def _private(line: Line, s: State, me: int | None) -> tuple[Move, ...]:
    """The tracked seat's own lines: what it saw, drew or kept."""
    t = s.turn
    if line.verb is Verb.SAW:
        if me is None or t.phase is not Phase.EXAMINE_SHOW or t.actor != me:
            raise IllegalMove("saw is for the tracked seat's examine, once its windows are closed")
        return (Move(Kind.SHOW, t.decider, cards=line.cards),)
    if line.verb is Verb.KEEP:
        if me is None:
            raise IllegalMove("keep is the tracked seat's line (me NAME)")
        return (Move(Kind.KEEP, me, cards=line.cards),)
    if line.verb is Verb.DRAW:
        if me is None:
            raise IllegalMove("draw is the tracked seat's line (me NAME)")
        if (t.phase is Phase.EXCHANGE_DRAW and t.actor == me) or (t.phase is Phase.SWAP_DRAW and t.decider == me):
            return (Move(Kind.DRAW, me, cards=line.cards),)
        raise IllegalMove(f"nothing to draw now: the table waits for {waiting(s, me) or waiting_for(s)}")
    raise IllegalMove(f"{line.canonical()!r} cannot be played now")


def waiting(state: State, me: int | None) -> str | None:
    """What the table of seat ``me`` waits for at ``state``, in words; None when nothing is
    owed (an action, a window's answer, or the end)."""
    t = state.turn
    if t.phase in WINDOWS or t.phase is Phase.ACTION or t.phase is Phase.OVER:
        return None
    if t.phase is Phase.EXAMINE_SHOW and me not in (t.decider, t.actor):
        return f"{state.names[t.actor]} to swap or return"
    if t.phase is Phase.EXAMINE_SHOW and t.actor == me:
        return f"the card {state.names[t.decider]} shows you (saw CARD)"
    return waiting_for(state)


def french(line: str) -> str:
    """The French form of a canonical line (names unchanged).

    >>> french("Bob block contessa")
    'Bob contre comtesse'
    """
    return in_french(line, (VERBS, CARD_WORDS))


def resolve_move(text: str, state: State) -> Move:
    """The move (a decision or a chance outcome) that ``text`` names at the full position
    ``state``. A move is accepted as the house prints it (:meth:`~solver.coup.Move.text`, any
    case and spacing) and in the table language, resolved against the legal moves by the
    tracker's own path (:func:`solver.coup.public.meant` over :func:`line_moves`, seen by the
    decider; a bare ``pass`` is the decider's). A line that needs others to pass first names
    no move now. Raises ParseError or IllegalMove.

    >>> from solver.coup import Draft, Variant, new_game
    >>> s = new_game(("Alice", "Bob"), Variant.AMBASSADOR, Draft.NONE)
    >>> while s.is_chance_node():
    ...     s = s.apply(s.chance_outcomes()[0][0])
    >>> resolve_move("alice  TAX", s), resolve_move("Alice duke", s)
    (Move(Kind.TAX, 0), Move(Kind.TAX, 0))
    """
    moves = [m for m, _ in state.chance_outcomes()] if state.is_chance_node() else list(state.legal_moves())
    folded = " ".join(fold(text.split("#", 1)[0]).split())
    for move in moves:
        if fold(move.text(state.names)) == folded:
            return move
    line = parse_line(text, state.names)
    if line is None:
        raise IllegalMove("nothing to play", input=text)
    decider = state.turn.decider
    if line.verb is Verb.PASS and line.player is None and state.turn.phase in WINDOWS:
        line = replace(line, player=state.names[decider])
    try:
        named = meant(state, lambda position: line_moves(line, position, decider), NOBODY)
    except IllegalMove:
        named = ()
    if len(named) == 1 and named[0] in moves:
        return named[0]
    options = ", ".join(m.text(state.names) for m in moves)
    raise IllegalMove(f"{line.canonical()!r} cannot be played now; the moves now: {options or 'none'}", input=text)


def typed_move(text: str, state: State, seat: int, other: str = "it is not your move") -> Move:
    """The engine move of ``seat`` that a typed line names at ``state`` (:func:`resolve_move`).
    Raises ParseError or IllegalMove (``other`` when the line names another player's move)."""
    try:
        move = resolve_move(text, state)
    except IllegalMove:
        options = ", ".join(m.text(state.names) for m in state.legal_moves() if m.player == seat)
        said = parse_line(text, state.names)
        shown = said.canonical() if said is not None else text.strip()
        raise IllegalMove(
            f"{shown!r} cannot be played now; you may: {options or 'nothing (not your move)'}", input=text
        ) from None
    if move.player != seat or state.is_chance_node():
        raise IllegalMove(f"{move.text(state.names)!r}: {other}", input=text)
    return move
