"""The Spicy table language (spicy.md, "The table language"): what is typed at the prompt,
journalled and stored in ``*.spicy`` records.

A line is parsed into a :class:`Line` (one small immutable value) and written back in its one
canonical form (English words, names in full, card lists sorted). The words live in
vocabularies (both languages, the first of each row written back): :data:`VERBS`,
:data:`TRAITS`, :data:`MARKERS`; card names and claims are the engine's
(:meth:`solver.spicy.Card.parse`, :meth:`solver.spicy.Claim.parse`).

>>> names = ("Ana", "Ben", "Cleo")
>>> parse_line("ben JOUE piment 5", names).canonical()
'Ben play chili 5'
>>> parse_line("Ana joue puissance au choix comme poivre 2", names).canonical()
'Ana play wild-number as pepper 2'
>>> parse_line("Cl conteste épice", names)
Line(Verb.CHALLENGE, player='Cleo', trait=Trait.SPICE)
>>> parse_line("fin du monde après 1", names).canonical()
'worlds-end after 1'
>>> french("Ben play chili-3 as chili 2")
'Ben joue piment-3 comme piment 2'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import Enum

from solver.errors import ParseError
from solver.spicy import DECK, Card, Claim, Deck, Spice, Trait
from solver.vocabulary import Vocabulary, fold

from ..language import PROMPT_WORDS as SHARED_PROMPT_WORDS
from ..language import Token, declare, typed
from ..language import french as in_french
from ..language import resolve_name as resolve
from ..language import tokenize as split

GAME_NAME = "spicy"
"""The word of the header line ``game spicy``."""


class Verb(Enum):
    """The canonical first word of a line (after the player's name, for a player's line)."""

    GAME = "game"
    PLAYERS = "players"
    ME = "me"
    HAND = "hand"
    PLAY = "play"
    PASS = "pass"
    CHALLENGE = "challenge"
    REVEAL = "reveal"
    DRAW = "draw"
    TAKE_BACK = "take-back"
    WORLDS_END = "worlds-end"

    def __repr__(self) -> str:
        return f"Verb.{self.name}"


SETUP = frozenset({Verb.GAME, Verb.PLAYERS, Verb.ME, Verb.HAND})
STANDALONE = SETUP | {Verb.PASS, Verb.REVEAL, Verb.DRAW, Verb.WORLDS_END}
"""Verbs that start a line (``pass`` alone answers a last card)."""
PLAYER_VERBS = frozenset({Verb.PLAY, Verb.PASS, Verb.CHALLENGE, Verb.TAKE_BACK})
"""Verbs that follow a player's name."""

VERBS: Vocabulary[Verb] = Vocabulary(
    [
        (Verb.GAME, ("game",), ("jeu",)),
        (Verb.PLAYERS, ("players",), ("joueurs",)),
        (Verb.ME, ("me",), ("moi",)),
        (Verb.HAND, ("hand",), ("main",)),
        (Verb.PLAY, ("play", "plays"), ("joue",)),
        (Verb.PASS, ("pass", "passes"), ("passe",)),
        (Verb.CHALLENGE, ("challenge", "challenges", "doubt"), ("conteste", "doute", "défie")),
        (Verb.REVEAL, ("reveal",), ("révèle",)),
        (Verb.DRAW, ("draw",), ("pioche",)),
        (Verb.TAKE_BACK, ("take-back", "takeback"), ("reprend",)),
        (Verb.WORLDS_END, ("worlds-end", "world's-end"), ("fin-du-monde",)),
    ]
)
"""Every verb in English and French (spicy.md's table); the first word of each is written back."""

TRAITS: Vocabulary[Trait] = Vocabulary(
    [(Trait.SPICE, ("spice",), ("épice",)), (Trait.NUMBER, ("number",), ("puissance",))]
)
"""What a challenge names."""

MARKERS: Vocabulary[str] = Vocabulary(
    [("as", ("as",), ("comme",)), ("after", ("after",), ("après",)), (GAME_NAME, (GAME_NAME,), ())]
)
"""The small words inside lines: ``play CARD as CLAIM``, ``worlds-end after K``, ``game spicy``."""

SPICES: Vocabulary[Spice] = Vocabulary([(s, (s.name_en,), (s.name_fr,)) for s in Spice])
"""The spices of claims, for suggestions and for the French form of a line."""

_JOINED = (
    (("puissance", "au", "choix"), "puissance-au-choix"),
    (("epice", "au", "choix"), "epice-au-choix"),
    (("fin", "du", "monde"), "fin-du-monde"),
    (("take", "back"), "take-back"),
    (("worlds", "end"), "worlds-end"),
    (("world's", "end"), "world's-end"),
    (("wild", "number"), "wild-number"),
    (("wild", "spice"), "wild-spice"),
)
"""Forms of several words read as one."""


@dataclass(frozen=True)
class Line:
    """One table line: its verb and what it names. ``player`` is a name as declared; ``cards``
    (``hand``, ``draw``) are sorted; ``card`` is the seat's card in a play, or the revealed card."""

    verb: Verb
    player: str | None = None
    card: Card | None = None
    claim: Claim | None = None
    trait: Trait | None = None
    cards: tuple[Card, ...] = ()
    names: tuple[str, ...] = ()
    after: int | None = None
    french: bool = field(default=False, compare=False)  # typed in French (for completion)

    def __repr__(self) -> str:
        parts = [repr(self.verb)]
        for key in ("player", "card", "claim", "trait", "names", "after"):
            value = getattr(self, key)
            if value is not None and value != ():
                parts.append(f"{key}={value!r}")
        if self.cards:
            parts.append(f"cards=({', '.join(repr(c) for c in self.cards)}{',' if len(self.cards) == 1 else ''})")
        return f"Line({', '.join(parts)})"

    def canonical(self) -> str:
        """The one canonical form of this line (English words, names in full, cards sorted).

        >>> Line(Verb.DRAW, cards=(Card.parse("wild-spice"), Card.parse("chili-3"))).canonical()
        'draw chili-3 wild-spice'
        """
        verb = self.verb.value
        if self.verb is Verb.GAME:
            return f"game {GAME_NAME}"
        if self.verb is Verb.PLAYERS:
            return f"players {' '.join(self.names)}"
        if self.verb is Verb.ME:
            return f"me {self.player}"
        if self.verb in (Verb.HAND, Verb.DRAW):
            return f"{verb} {' '.join(c.text() for c in sorted(self.cards))}"
        if self.verb is Verb.REVEAL:
            return f"reveal {self.card}"
        if self.verb is Verb.WORLDS_END:
            return verb if self.after is None else f"{verb} after {self.after}"
        if self.player is None:
            return verb  # `pass`: nobody challenges the last card
        words = [self.player, verb]
        if self.card is not None:
            words += [self.card.text(), "as"]
        if self.claim is not None:
            words.append(self.claim.text())
        if self.trait is not None:
            words.append(str(self.trait))
        return " ".join(words)


def tokenize(text: str) -> list[Token]:
    """The words of ``text`` without its comment, folded, the forms of several words joined.

    >>> tokenize("Ben JOUE Puissance au choix # a comment")
    ['ben', 'joue', 'puissance-au-choix']
    """
    return split(text, _JOINED)


def is_card_or_claim(word: str) -> bool:
    """True if ``word`` reads as a card or a one-word claim (``chili7``, ``C5``, ``wild-spice``)."""
    for parse in (Card.parse, Claim.parse):
        try:
            parse(word)
        except ParseError:
            continue
        return True
    return False


PROMPT_WORDS = SHARED_PROMPT_WORDS | {"table", "odds"}
"""The prompt's commands: a player named so would be read as the command."""


def is_reserved(word: str) -> bool:
    """True if ``word`` is a word of the language, a spice, a card or a command of the prompt (so
    it cannot be a name).

    >>> is_reserved("Passe"), is_reserved("piment"), is_reserved("Save"), is_reserved("Cleo")
    (True, True, True, False)
    """
    vocabulary = any(word in v for v in (VERBS, TRAITS, MARKERS, SPICES))
    return vocabulary or fold(word) in PROMPT_WORDS or is_card_or_claim(word)


def resolve_name(word: str, names: tuple[str, ...]) -> str:
    """Return the declared name ``word`` stands for: the exact name (any case, accents
    optional), else the one name it is a prefix of. Raises :class:`ParseError`.

    >>> resolve_name("cl", ("Ana", "Ben", "Cleo"))
    'Cleo'
    """
    return resolve(word, names, is_reserved, "Ana Ben Cleo")


def parse_line(text: str, names: tuple[str, ...] = (), deck: Deck = DECK) -> Line | None:
    """Parse one line given the declared ``names`` and the ``deck`` (its cards and numbers);
    None for a blank or comment-only line.

    Raises :class:`ParseError` with the reason, naming the offending word (and the nearest known
    word for an unknown one).

    >>> parse_line("Ben challenge", ("Ana", "Ben"))
    Traceback (most recent call last):
    solver.errors.ParseError: a challenge names spice or number, never both: 'Ben challenge number'
    """
    tokens = tokenize(text)
    if not tokens:
        return None
    head, rest = tokens[0], tokens[1:]
    verbs = [w for w in VERBS.words(head) if w.meaning in STANDALONE]
    if verbs and not any(fold(n) == head for n in names):
        verb, french = verbs[0].meaning, verbs[0].french
        if verb is Verb.PLAYERS:  # names keep the case they are declared in
            return Line(Verb.PLAYERS, names=_declare(text.split("#", 1)[0].split()[1:], deck), french=french)
        return _standalone(verb, french, rest, names, deck)
    if head in VERBS and not any(fold(n) == head for n in names):
        raise ParseError(f"{typed(head)!r} needs a player first, e.g. 'Ana {typed(head)}'", input=text)
    if not names and (is_card_or_claim(head) or head in TRAITS or head in MARKERS):
        raise ParseError(f"{typed(head)!r} cannot start a line (start with: players Ana Ben Cleo)", input=text)
    player = resolve_name(head, names)
    if not rest:
        raise ParseError(f"what does {player} do? (e.g. '{player} play chili 2', '{player} pass')", input=text)
    return _player_line(player, rest[0], rest[1:], deck)


def _standalone(verb: Verb, french: bool, rest: Sequence[str], names: tuple[str, ...], deck: Deck) -> Line:
    if verb is Verb.GAME:
        if len(rest) != 1 or rest[0] != GAME_NAME:
            game = " ".join(typed(w) for w in rest) or "nothing"
            raise ParseError(f"this companion keeps Spicy records ('game spicy'), not {game!r}", input=game)
        return Line(Verb.GAME, french=french)
    if verb is Verb.ME:
        if len(rest) != 1:
            raise ParseError("me names one player, e.g. 'me Ana'")
        return Line(Verb.ME, player=resolve_name(rest[0], names), french=french)
    if verb in (Verb.HAND, Verb.DRAW):
        if not rest:
            raise ParseError(f"{verb.value} names the cards, e.g. '{verb.value} chili-3 wasabi-7'")
        return Line(verb, cards=tuple(sorted(_card(w, deck) for w in rest)), french=french)
    if verb is Verb.REVEAL:
        if len(rest) != 1:
            raise ParseError("reveal names the one card turned over, e.g. 'reveal wasabi-5'")
        return Line(Verb.REVEAL, card=_card(rest[0], deck), french=french)
    if verb is Verb.WORLDS_END:
        return Line(Verb.WORLDS_END, after=_after(rest), french=french)
    if rest:  # Verb.PASS
        raise ParseError("pass alone answers a last card (nobody challenges it); a player passes with 'Ben pass'")
    return Line(Verb.PASS, french=french)


def _after(rest: Sequence[str]) -> int | None:
    if not rest:
        return None
    if len(rest) != 2 or rest[0] not in MARKERS or MARKERS.meaning(rest[0]) != "after":
        raise ParseError("worlds-end alone, or 'worlds-end after 1' (cards of another player's draw before it)")
    if not rest[1].isdigit():
        raise ParseError(f"worlds-end after: {typed(rest[1])!r} is not a number of cards", input=typed(rest[1]))
    return int(rest[1])


def _declare(words: Sequence[str], deck: Deck) -> tuple[str, ...]:
    return declare(words, is_reserved, deck.min_players, deck.max_players)


def _card(word: str, deck: Deck) -> Card:
    if word == "?":
        raise ParseError("name the card: '?' is for positions, not for the table", input=word)
    return Card.parse(typed(word), deck)


def _claim(words: Sequence[str], player: str, deck: Deck) -> Claim:
    if not words:
        raise ParseError(f"what does {player} claim? (a spice and a number, e.g. '{player} play chili 2')")
    text = " ".join(typed(w) for w in words)
    try:
        claim = Claim.parse(text)
    except ParseError:
        if words[0] in SPICES or is_card_or_claim(words[0]):
            raise
        near = SPICES.suggest(words[0])
        hint = f": did you mean {near!r}?" if near else " (chili, wasabi or pepper)"
        raise ParseError(f"unknown spice {typed(words[0])!r}{hint}", input=typed(words[0])) from None
    if claim.spice >= deck.spices:
        raise ParseError(f"no {claim.spice} in this deck ({', '.join(str(s) for s in deck.spice_list)})", input=text)
    if not 1 <= claim.number <= deck.numbers:
        raise ParseError(f"a claim's number goes from 1 to {deck.numbers}, not {claim.number}", input=text)
    return claim


def _player_line(player: str, verb_word: str, rest: Sequence[str], deck: Deck) -> Line:
    found = [w for w in VERBS.words(verb_word) if w.meaning in PLAYER_VERBS]
    if not found:
        if verb_word in VERBS:
            raise ParseError(f"{typed(verb_word)!r} is not something a player does: write it alone")
        raise VERBS.unknown(typed(verb_word), f"word after {player}:")
    verb, french = found[0].meaning, found[0].french
    if verb is Verb.PLAY:
        marks = [i for i, w in enumerate(rest) if w in MARKERS and MARKERS.meaning(w) == "as"]
        if not marks:
            return Line(Verb.PLAY, player=player, claim=_claim(rest, player, deck), french=french)
        at = marks[0]
        if at != 1:
            raise ParseError(f"{player} plays one card: '{player} play chili-3 as chili 2'")
        card = _card(rest[0], deck)
        return Line(Verb.PLAY, player=player, card=card, claim=_claim(rest[at + 1 :], player, deck), french=french)
    if verb is Verb.CHALLENGE:
        if len(rest) != 1 or rest[0] not in TRAITS:
            raise ParseError(f"a challenge names spice or number, never both: '{player} challenge number'")
        return Line(Verb.CHALLENGE, player=player, trait=TRAITS.meaning(rest[0]), french=french)
    if rest:
        raise ParseError(f"{verb.value} takes nothing after it (got {' '.join(typed(w) for w in rest)!r})")
    return Line(verb, player=player, french=french)


def french(line: str) -> str:
    """The French form of a canonical line (names unchanged): what completion offers a person
    typing in French.

    >>> french("Ben play chili 5")
    'Ben joue piment 5'
    """

    def card(word: str) -> str:
        return Card.parse(word).name_fr if "-" in word and is_card_or_claim(word) else word

    return in_french(line, (VERBS, TRAITS, MARKERS, SPICES), card)
