"""Independent brute-force reference of the Spicy table companion (tests only).

Written from ``spec/spicy.md``, ``spec/table-language.md`` and ``spec/outputs.md`` alone, without
reading the project's Spicy code, so that two readings of the specification can be compared for
exact equality.  Plain rather than fast: the chance of a claim is found by enumerating the
claimant's possible hands and applying the ``honest`` model to each, never by a closed formula.

>>> text = "game spicy\\nplayers Ana Ben\\nme Ben\\nhand chili-1 chili-2 wasabi-3\\nAna play chili 1\\n"
>>> table = brute_replay(text, SMALL)
>>> table["turn"], table["pile"]["top"]["honest"]["both"], table["unseen"]["chili"]
('Ben', '29/31', [1, 1, 2, 2])

Readings of the specification where it is vague (one line each)
---------------------------------------------------------------
- The loser of a challenge takes the next turn and, like any turn, may play or pass (the generator
  below always has them play).
- A challenge may be typed whenever the top card is unchallenged and nothing is owed; a last card
  passed by the table (``pass``) can no longer be challenged, but it stays the top card.
- ``take-back`` is accepted only in the last-card window, by the card's player; it undoes the play
  and counts as that player's pass (draws 1, the next player clockwise plays), so the card below
  becomes the top card again and may be challenged (unless it was itself a declined last card).
- A flag stays in ``flags`` even if its card is taken back (the claim was typed).
- When a trophy ends the game nobody draws, not even the challenge loser's 2; the card's player
  still takes the pile (pile then trophy).
- ``worlds-end after K`` must follow the line whose implicit draws (other players' draws, in the
  rules' order: the loser's 2, then the trophy's 6) it interrupts; ``K`` counts the cards drawn by
  all of those draws together before World's End showed (so one line triggering two draws is not
  ambiguous); 0 <= K <= their total.  So World's End right after the seat's own complete draw, when
  another player's draw follows it (the loser's 2 before a trophy's 6), is ``worlds-end after 0``.
  Plain ``worlds-end`` is accepted whenever nothing but a draw of the seat is owed; the seat keeps
  the cards of its ``draw`` lines (a draw may be split over lines, each at most what is owed).
- The draw pile holds the cards in no hand, pile or won stack.  An implicit draw larger than it
  draws what is left and then only ``worlds-end`` is accepted; a seat ``draw`` larger than it is
  refused.
- ``turn`` is the player to play next by the rules as lines were accepted: the next player
  clockwise after a play (also a last card, while the table waits) or a pass, the loser after a
  challenge is resolved, unchanged while a reveal is owed; null once the game is over.  Compare it
  only when ``waiting`` is null.
- ``top.last`` is true when the top card was its player's last card (also after the table passed).
- ``winner`` is the name when one player wins, the list of names (seating order) on a shared win.
- ``waiting`` is a short text (compare only null / not null); flags carry no ``reason`` key.
- A revealed card must be one the seat has not seen (else the line is refused); ``reveal`` after a
  challenge of the seat's own card is refused (the seat knows it, the challenge is already decided).
- A play by the seat must name its card (``Ana play chili-3 as chili 2``); a card named in a play
  of another player (or of anyone, for a spectator) is refused.
- The first meaningful line must be ``game spicy``; comments and blank lines may precede it.
- A challenge line must name its trait (``doute`` too); a bare ``Dan challenge`` is refused.
- For a spectator every claim is priced and may be flagged (nobody is "the seat").
- The challenge's stake and the flags' human reasons are not in the JSON, so they are not produced.
- After a trophy a player draws ``Deck.hand_size`` cards (6 in the real game).
- ``flags`` and ``top`` use the ``honest`` model over the cards unseen at the moment the claim was
  typed (flags) or at the end of the record (top), with ``h`` the claimant's hand just before it.
  When ``honest`` cannot explain the claim, its spice and number chances are ``random``'s and its
  ``both`` is 0.

The enumeration (``hands``): ``"physical"`` takes every ``h``-subset of the unseen physical cards
(weight 1 each); ``"kinds"`` every multiset of card kinds, weighted by the product of
``comb(unseen copies, copies in hand)``; ``"roles"`` first merges the kinds that the model cannot
tell apart for the one claim asked (the claimed kind; other legal true kinds; other kinds by which
traits of the claim they make true) and then enumerates multisets of the merged kinds.  The three
are the same distribution; the tests check that they agree.
"""

from __future__ import annotations

import itertools
import math
import random
import re
import unicodedata
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache
from typing import Any, Literal, NamedTuple, NoReturn

from solver.errors import GameError

__all__ = [
    "SMALL",
    "Chances",
    "Deck",
    "Odds",
    "RandomGame",
    "RefusedLine",
    "brute_replay",
    "claim_joint",
    "claim_odds",
    "hands",
    "legal_claims",
    "random_game",
    "random_record",
]

WILD_NUMBER = "wild-number"
WILD_SPICE = "wild-spice"
Claim = tuple[str, int]
Method = Literal["auto", "physical", "kinds", "roles"]
UNLIKELY = Fraction(1, 4)


@dataclass(frozen=True)
class Deck:
    """The spice cards in play: ``copies`` of each (spice, number), plus the two kinds of wilds."""

    spices: tuple[str, ...] = ("chili", "wasabi", "pepper")
    numbers: int = 10
    copies: int = 3
    wild_number: int = 5
    wild_spice: int = 5
    hand_size: int = 6
    low: int = 3

    def kinds(self) -> tuple[str, ...]:
        """Every card kind in canonical order: by spice, then number, then the wilds."""
        numbered = tuple(f"{s}-{n}" for s in self.spices for n in range(1, self.numbers + 1))
        return (*numbered, WILD_NUMBER, WILD_SPICE)

    def copies_of(self, kind: str) -> int:
        """How many physical cards of ``kind`` the deck holds."""
        return {WILD_NUMBER: self.wild_number, WILD_SPICE: self.wild_spice}.get(kind, self.copies)

    def total(self) -> int:
        """The number of spice cards."""
        return sum(self.copies_of(kind) for kind in self.kinds())


SMALL = Deck(spices=("chili", "wasabi"), numbers=4, copies=2, wild_number=1, wild_spice=1, hand_size=3)
"""The 18-card deck of the fast tests."""


class RefusedLine(GameError):
    """A line the specification says the tracker refuses: ``line`` (1-based) and ``reason``."""

    def __init__(self, line: int, reason: str, *, input: str | None = None) -> None:
        super().__init__(f"line {line}: {reason}", input=input)
        self.line = line
        self.reason = reason


# ---------------------------------------------------------------- cards and claims


@cache
def card_claim(kind: str) -> Claim | None:
    """The (spice, number) a numbered card is true on both traits for; None for a wild."""
    if kind.startswith("wild-"):
        return None
    spice, number = kind.rsplit("-", 1)
    return spice, int(number)


@cache
def true_on_spice(kind: str, spice: str) -> bool:
    """Whether the card makes a claim of ``spice`` true on its spice."""
    claim = card_claim(kind)
    return kind == WILD_SPICE or (claim is not None and claim[0] == spice)


@cache
def true_on_number(kind: str, number: int) -> bool:
    """Whether the card makes a claim of ``number`` true on its number."""
    claim = card_claim(kind)
    return kind == WILD_NUMBER or (claim is not None and claim[1] == number)


def legal_claims(deck: Deck, spice: str | None, last: int | None) -> tuple[Claim, ...]:
    """The legal claims on a pile of ``spice`` whose last claim was ``last`` (None: empty pile).

    >>> legal_claims(SMALL, "chili", 2)
    (('chili', 3), ('chili', 4))
    """
    low = range(1, deck.low + 1)
    if spice is None or last is None:
        return tuple((s, n) for s in deck.spices for n in low)
    if last == deck.numbers:
        return tuple((spice, n) for n in low)
    return tuple((spice, n) for n in range(last + 1, deck.numbers + 1))


def claim_text(claim: Claim) -> str:
    return f"{claim[0]} {claim[1]}"


def sort_cards(deck: Deck, cards: Sequence[str]) -> list[str]:
    """The cards in canonical order."""
    order = {kind: i for i, kind in enumerate(deck.kinds())}
    return sorted(cards, key=order.__getitem__)


# ---------------------------------------------------------------- enumeration of hands


def hands(unseen: Mapping[str, int], h: int, method: Method = "physical") -> Iterator[tuple[tuple[str, ...], int]]:
    """Every hand of ``h`` cards out of the unseen cards, as (its cards, its weight): the weights
    are the numbers of physical hands, so they sum to comb(U, h).  ``method`` is "physical" or
    "kinds" (see the module docstring; "roles" is "kinds" over merged kinds, see ``claim_joint``).

    >>> sorted(hands({"chili-1": 2, "wild-spice": 1}, 2, "kinds"))
    [(('chili-1', 'chili-1'), 1), (('chili-1', 'wild-spice'), 2)]
    """
    if method == "physical":
        cards = [kind for kind, copies in unseen.items() for _ in range(copies)]
        for hand in itertools.combinations(cards, h):
            yield hand, 1
        return
    kinds = [kind for kind, copies in unseen.items() if copies > 0]
    for hand in itertools.combinations_with_replacement(kinds, h):
        weight = 1
        for kind, group in itertools.groupby(hand):
            weight *= math.comb(unseen[kind], len(list(group)))
        if weight:
            yield hand, weight


def honest_choices(
    hand: Sequence[str], legal: frozenset[Claim], only: Claim | None = None
) -> Iterator[tuple[int, str, Claim]]:
    """What an ``honest`` claimant holding ``hand`` (physical cards) does: every (denominator,
    card played, claim) with probability 1/denominator each.  With ``only``, just that claim.

    >>> list(honest_choices(("chili-1", "wasabi-4"), frozenset({("chili", 1), ("wasabi", 1)})))
    [(1, 'chili-1', ('chili', 1))]
    """
    true_cards = [card for card in hand if card_claim(card) in legal]
    if true_cards:
        for card in true_cards:
            claim = card_claim(card)
            assert claim is not None
            if only is None or claim == only:
                yield len(true_cards), card, claim
        return
    claims = sorted(legal) if only is None else [only]
    for card in hand:
        for claim in claims:
            yield len(hand) * len(legal), card, claim


def roles(unseen: Mapping[str, int], legal: frozenset[Claim], claim: Claim) -> dict[str, int]:
    """The unseen cards with the kinds that ``honest`` cannot tell apart for ``claim`` merged into
    the first kind of their group (the claimed kind; other legal true kinds; the other kinds by the
    traits of the claim they make true)."""
    merged: dict[str, int] = {}
    first: dict[tuple[bool, bool, bool, bool], str] = {}
    for kind, copies in unseen.items():
        if copies:
            role = (
                card_claim(kind) == claim,
                card_claim(kind) in legal,
                true_on_spice(kind, claim[0]),
                true_on_number(kind, claim[1]),
            )
            name = first.setdefault(role, kind)
            merged[name] = merged.get(name, 0) + copies
    return merged


def choose_method(unseen: Mapping[str, int], h: int) -> Method:
    """The most literal enumeration that stays fast (a few hundredths of a second): physical up to
    5 000 hands, kinds up to 20 000 multisets, else roles."""
    if math.comb(sum(unseen.values()), h) <= 5_000:
        return "physical"
    kinds = sum(1 for copies in unseen.values() if copies)
    return "kinds" if math.comb(kinds + h - 1, h) <= 20_000 else "roles"


def claim_joint(
    unseen: Mapping[str, int],
    h: int,
    legal: Sequence[Claim],
    *,
    only: Claim | None = None,
    method: Method = "physical",
) -> dict[tuple[Claim, bool, bool], Fraction]:
    """The ``honest`` joint law of (claim, played card true on its spice, true on its number) for a
    claimant of ``h`` cards uniform over ``unseen``; with ``only``, just the entries of that claim
    (needed for ``method="roles"``).  Sums to 1 without ``only``.

    >>> joint = claim_joint({"chili-1": 1, "wasabi-2": 1}, 1, [("chili", 1), ("wasabi", 1)])
    >>> for outcome, chance in sorted(joint.items()):
    ...     print(*outcome, chance)
    ('chili', 1) False False 1/4
    ('chili', 1) True True 1/2
    ('wasabi', 1) True False 1/4
    """
    legal_set = frozenset(legal)
    if method == "auto":
        method = choose_method(unseen, h)
    if method == "roles":
        assert only is not None, "roles merge kinds for one claim only"
        unseen, method = roles(unseen, legal_set, only), "kinds"
    sums: dict[tuple[tuple[Claim, bool, bool], int], int] = {}
    total = 0
    for hand, weight in hands(unseen, h, method):
        total += weight
        for denominator, card, claim in honest_choices(hand, legal_set, only):
            key = ((claim, true_on_spice(card, claim[0]), true_on_number(card, claim[1])), denominator)
            sums[key] = sums.get(key, 0) + weight
    assert total == math.comb(sum(unseen.values()), h)
    joint: dict[tuple[Claim, bool, bool], Fraction] = {}
    for (outcome, denominator), weight in sums.items():
        joint[outcome] = joint.get(outcome, Fraction(0)) + Fraction(weight, denominator * total)
    return joint


class Chances(NamedTuple):
    """The chances that a card is true on the claimed spice, on the claimed number, on both."""

    spice: Fraction
    number: Fraction
    both: Fraction


class Odds(NamedTuple):
    """A claim priced by both models; ``explained`` is False when ``honest`` gives the claim
    probability 0 (its chances are then ``random``'s, ``both`` 0)."""

    honest: Chances
    random: Chances
    explained: bool


def random_chances(unseen: Mapping[str, int], claim: Claim) -> Chances:
    """``random``: the card is uniform over the unseen physical cards."""
    cards = [kind for kind, copies in unseen.items() for _ in range(copies)]
    spice = sum(true_on_spice(card, claim[0]) for card in cards)
    number = sum(true_on_number(card, claim[1]) for card in cards)
    both = sum(true_on_spice(card, claim[0]) and true_on_number(card, claim[1]) for card in cards)
    return Chances(Fraction(spice, len(cards)), Fraction(number, len(cards)), Fraction(both, len(cards)))


def claim_odds(
    claim: Claim, unseen: Mapping[str, int], h: int, legal: Sequence[Claim], method: Method = "auto"
) -> Odds:
    """The chances of ``claim`` by a claimant of ``h`` cards, conditioned on the claim (Bayes).

    >>> claim_odds(("chili", 1), {"chili-1": 1, "wasabi-2": 1}, 1, [("chili", 1), ("wasabi", 1)]).honest
    Chances(spice=Fraction(2, 3), number=Fraction(2, 3), both=Fraction(2, 3))
    """
    joint = claim_joint(unseen, h, legal, only=claim, method=method)
    cell = {(s, n): joint.get((claim, s, n), Fraction(0)) for s in (True, False) for n in (True, False)}
    seen = random_chances(unseen, claim)
    chance = sum(cell.values(), Fraction(0))
    if chance == 0:
        return Odds(Chances(seen.spice, seen.number, Fraction(0)), seen, False)
    spice = (cell[True, True] + cell[True, False]) / chance
    number = (cell[True, True] + cell[False, True]) / chance
    return Odds(Chances(spice, number, cell[True, True] / chance), seen, True)


def flag_level(odds: Odds, threshold: Fraction = UNLIKELY) -> str | None:
    """``impossible``, ``bluff``, ``unlikely`` or None, by the rules of spicy.md."""
    if odds.random.spice == 0 or odds.random.number == 0:
        return "impossible"
    if odds.random.both == 0 or not odds.explained:
        return "bluff"
    return "unlikely" if odds.honest.both < threshold else None


def challenge_advice(odds: Odds) -> tuple[str, Fraction]:
    """The trait more likely false under ``honest`` (ties: number) and that chance."""
    spice_false, number_false = 1 - odds.honest.spice, 1 - odds.honest.number
    return ("spice", spice_false) if spice_false > number_false else ("number", number_false)


# ---------------------------------------------------------------- the table language

VERBS = {
    "game": "game",
    "jeu": "game",
    "players": "players",
    "joueurs": "players",
    "me": "me",
    "moi": "me",
    "hand": "hand",
    "main": "hand",
    "play": "play",
    "joue": "play",
    "pass": "pass",
    "passe": "pass",
    "challenge": "challenge",
    "conteste": "challenge",
    "doute": "challenge",
    "reveal": "reveal",
    "revele": "reveal",
    "draw": "draw",
    "pioche": "draw",
    "take-back": "take-back",
    "reprend": "take-back",
    "worlds-end": "worlds-end",
    "fin-du-monde": "worlds-end",
}
OTHER_WORDS = {
    "spicy",
    "as",
    "comme",
    "after",
    "apres",
    "spice",
    "epice",
    "number",
    "puissance",
    WILD_NUMBER,
    WILD_SPICE,
    "puissance-au-choix",
    "epice-au-choix",
}
SPICE_WORDS = {"chili": "chili", "piment": "chili", "wasabi": "wasabi", "pepper": "pepper", "poivre": "pepper"}
TRAITS = {"spice": "spice", "epice": "spice", "number": "number", "puissance": "number"}
TWO_WORDS = {
    "puissance au choix": "puissance-au-choix",
    "epice au choix": "epice-au-choix",
    "fin du monde": "fin-du-monde",
}


def fold(text: str) -> str:
    """Lower case without accents: ``Révèle`` -> ``revele``."""
    decomposed = unicodedata.normalize("NFD", text.casefold())
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


def words_of(line: str) -> list[str]:
    """The words of a line: comment dropped, folded, French two-word forms joined."""
    text = " ".join(fold(line.split("#", 1)[0]).split())
    for two, one in TWO_WORDS.items():
        text = re.sub(rf"\b{two}\b", one, text)
    return text.split()


def is_card_word(word: str) -> bool:
    return word in OTHER_WORDS or re.fullmatch(r"(chili|piment|wasabi|pepper|poivre)-?\d+", word) is not None


class PileCard(NamedTuple):
    """A card on the pile: the line of its play, its player, the claim, the card when the seat
    knows it, the claimant's hand just before, whether it was a last card, whether the table
    declined to challenge it (a last card passed)."""

    line: int
    player: int
    claim: Claim
    card: str | None
    hand_before: int
    last: bool
    declined: bool = False


@dataclass
class Table:
    """The tracker: the table after each accepted line, from the seat's point of view."""

    deck: Deck
    threshold: Fraction = UNLIKELY
    method: Method = "auto"
    started: bool = False  # `game spicy` seen
    names: list[str] = field(default_factory=list)
    me: int | None = None
    hand_given: bool = False
    acting: bool = False  # the first action has been typed
    hands: list[int] = field(default_factory=list)
    won: list[int] = field(default_factory=list)
    trophies: list[int] = field(default_factory=list)
    mine: Counter[str] = field(default_factory=Counter)  # the seat's hand
    seen: Counter[str] = field(default_factory=Counter)  # every card the seat has seen
    pile: list[PileCard] = field(default_factory=list)
    turn: int = 0
    reveal_owed: tuple[int, str] | None = None  # (challenger, trait)
    window: bool = False  # a last card waits for a challenge or pass
    owed: list[list[int]] = field(default_factory=list)  # draws still to make: [player, cards]
    must_end: bool = False  # the draw pile ran out: World's End shows
    over: bool = False
    winner: list[int] = field(default_factory=list)
    flags: list[dict[str, Any]] = field(default_factory=list)
    line_draws: list[list[int]] = field(default_factory=list)  # implicit draws of the current line
    last_draws: list[list[int]] = field(default_factory=list)  # ... and of the previous line

    # -------------------------------------------------- reading

    def read(self, number: int, line: str) -> None:
        """Apply one line of the record; raises RefusedLine."""
        self.number, self.line = number, line
        words = words_of(line)
        if not words:
            return
        self.last_draws, self.line_draws = self.line_draws, []
        verb = VERBS.get(words[0])
        if not self.started:
            if verb != "game":
                self.refuse("a Spicy record starts with `game spicy`")
            if words[1:] != ["spicy"]:
                self.refuse("this companion keeps Spicy records: `game spicy`")
            self.started = True
            return
        if self.over:
            self.refuse("the game is over")
        if verb in ("game", "players", "me", "hand"):
            getattr(self, "set_" + verb)(words[1:])
        elif verb in ("reveal", "draw", "worlds-end", "pass"):
            getattr(self, "on_" + verb.replace("-", "_"))(words[1:])
        elif verb is not None:
            self.refuse(f"`{words[0]}` needs a player's name before it")
        else:
            self.player_line(self.name(words[0]), words[1:])

    def refuse(self, reason: str) -> NoReturn:
        raise RefusedLine(self.number, reason, input=self.line)

    def name(self, word: str) -> int:
        folded = [fold(name) for name in self.names]
        if word in folded:
            return folded.index(word)
        matches = [i for i, name in enumerate(folded) if name.startswith(word)]
        if len(matches) != 1:
            self.refuse(f"`{word}` is not a player" if not matches else f"`{word}` could be several players")
        return matches[0]

    def card(self, word: str) -> str:
        if word in (WILD_NUMBER, "puissance-au-choix"):
            return WILD_NUMBER
        if word in (WILD_SPICE, "epice-au-choix"):
            return WILD_SPICE
        match = re.fullmatch(r"([a-z]+)-?(\d+)", word)
        if match is None or SPICE_WORDS.get(match[1]) not in self.deck.spices:
            return self.refuse(f"`{word}` is not a card")
        if not 1 <= int(match[2]) <= self.deck.numbers:
            self.refuse(f"there is no {match[1]} {match[2]}: numbers go from 1 to {self.deck.numbers}")
        return f"{SPICE_WORDS[match[1]]}-{int(match[2])}"

    def claim(self, words: list[str]) -> Claim:
        if len(words) == 1:
            match = re.fullmatch(r"([a-z]+)-?(\d+)", words[0])
            words = [match[1], match[2]] if match else words
        if len(words) != 2 or SPICE_WORDS.get(words[0]) not in self.deck.spices or not words[1].isdigit():
            return self.refuse("a claim is a spice and a number, e.g. `chili 5`")
        if not 1 <= int(words[1]) <= self.deck.numbers:
            self.refuse(f"a claim's number goes from 1 to {self.deck.numbers}")
        return SPICE_WORDS[words[0]], int(words[1])

    def cards(self, words: list[str]) -> list[str]:
        cards = [self.card(word) for word in words]
        for kind, count in Counter(cards).items():
            if count > self.unseen()[kind]:
                left = self.unseen()[kind]
                self.refuse(f"only {left} {kind} unseen: the others are accounted for")
        return cards

    # -------------------------------------------------- what the table knows

    def unseen(self) -> dict[str, int]:
        return {kind: self.deck.copies_of(kind) - self.seen[kind] for kind in self.deck.kinds()}

    def draw_pile(self) -> int:
        return self.deck.total() - sum(self.hands) - len(self.pile) - sum(self.won)

    def next_seat(self, seat: int) -> int:
        return (seat + 1) % len(self.names)

    def legal(self) -> tuple[Claim, ...]:
        if not self.pile:
            return legal_claims(self.deck, None, None)
        return legal_claims(self.deck, self.pile[-1].claim[0], self.pile[-1].claim[1])

    def waiting(self) -> str | None:
        """What the table waits for, or None."""
        if self.over:
            return None
        if not self.names:
            return "the players"
        if self.me is not None and not self.hand_given:
            return f"{self.names[self.me]}'s starting hand"
        if self.reveal_owed is not None:
            return f"the card {self.names[self.pile[-1].player]} played, revealed"
        if self.window:
            return f"a challenge or pass on {self.names[self.pile[-1].player]}'s last card"
        if self.owed:
            return f"{self.names[self.owed[0][0]]} draws {self.owed[0][1]}"
        return "World's End (the draw pile is empty)" if self.must_end else None

    def expect_action(self) -> None:
        """Refuse the line unless nothing is owed."""
        owed = self.waiting()
        if owed is not None:
            self.refuse(f"waiting for {owed}")
        self.acting = True

    # -------------------------------------------------- set-up lines

    def set_game(self, words: list[str]) -> None:
        self.refuse("`game spicy` comes once, first")

    def set_players(self, words: list[str]) -> None:
        if self.names:
            self.refuse("the players are already seated")
        folded = [fold(word) for word in words]
        if not 2 <= len(words) <= 6:
            self.refuse("Spicy is for 2 to 6 players")
        for word in folded:
            if not re.fullmatch(r"[\w-]+", word) or word in VERBS or word in SPICE_WORDS or is_card_word(word):
                self.refuse(f"`{word}` cannot be a player's name")
        if len(set(folded)) != len(folded):
            self.refuse("two players have the same name")
        if len(words) * self.deck.hand_size > self.deck.total():
            self.refuse("not enough cards to deal")
        original = self.line.split("#", 1)[0].split()[1:]
        self.names = original
        count = len(words)
        self.hands, self.won, self.trophies = [self.deck.hand_size] * count, [0] * count, [0] * count

    def set_me(self, words: list[str]) -> None:
        if not self.names or self.me is not None or self.acting or len(words) != 1:
            self.refuse("`me NAME` comes once, after `players`, before the first action")
        self.me = self.name(words[0])

    def set_hand(self, words: list[str]) -> None:
        if self.me is None or self.hand_given or self.acting:
            self.refuse("`hand` gives the tracked seat's starting cards, once, after `me`")
        if len(words) != self.deck.hand_size:
            self.refuse(f"a starting hand has {self.deck.hand_size} cards")
        cards = self.cards(words)
        self.mine.update(cards)
        self.seen.update(cards)
        self.hand_given = True

    # -------------------------------------------------- actions and responses

    def player_line(self, player: int, words: list[str]) -> None:
        verb = VERBS.get(words[0]) if words else None
        if verb == "play":
            self.on_play(player, words[1:])
        elif verb == "pass" and len(words) == 1:
            self.expect_action()
            self.own_turn(player)
            self.turn = self.next_seat(player)
            self.draw(player, 1)
        elif verb == "challenge" and len(words) == 2 and words[1] in TRAITS:
            self.on_challenge(player, TRAITS[words[1]])
        elif verb == "challenge":
            self.refuse("a challenge names `spice` or `number`, never both")
        elif verb == "take-back" and len(words) == 1:
            self.on_take_back(player)
        else:
            self.refuse("after a name: `play`, `pass`, `challenge spice|number` or `take-back`")

    def own_turn(self, player: int) -> None:
        if player != self.turn:
            self.refuse(f"it is {self.names[self.turn]}'s turn")

    def on_play(self, player: int, words: list[str]) -> None:
        self.expect_action()
        self.own_turn(player)
        card: str | None = None
        as_at = [i for i, word in enumerate(words) if word in ("as", "comme")]
        if player == self.me:
            if len(as_at) != 1:
                self.refuse("the tracked seat names its card: `play chili-3 as chili 2`")
            card = self.card(" ".join(words[: as_at[0]]))
            if self.mine[card] == 0:
                self.refuse(f"{self.names[player]} holds no {card}")
            words = words[as_at[0] + 1 :]
        elif as_at:
            self.refuse(f"the tracked seat cannot see {self.names[player]}'s card")
        claim = self.claim(words)
        legal = self.legal()
        if claim not in legal:
            self.refuse(f"{claim_text(claim)} is not a legal claim here: {self.legal_text(legal)}")
        if self.hands[player] == 0:
            self.refuse(f"{self.names[player]} has no card")
        h = self.hands[player]
        if card is None:
            odds = claim_odds(claim, self.unseen(), h, legal, self.method)
            level = flag_level(odds, self.threshold)
            if level is not None:
                probability = odds.honest.both if level == "unlikely" else Fraction(0)
                self.flags.append(
                    {
                        "line": self.number,
                        "player": self.names[player],
                        "claim": claim_text(claim),
                        "level": level,
                        "probability": str(probability),
                    }
                )
        else:
            self.mine[card] -= 1
        self.hands[player] -= 1
        self.pile.append(PileCard(self.number, player, claim, card, h, h == 1))
        self.turn = self.next_seat(player)
        self.window = h == 1

    def legal_text(self, legal: Sequence[Claim]) -> str:
        if len({spice for spice, _ in legal}) > 1:
            return f"a new pile opens with 1 to {self.deck.low}"
        return f"the pile needs {legal[0][0]} {legal[0][1]} to {legal[-1][1]}"

    def on_challenge(self, challenger: int, trait: str) -> None:
        if self.window:
            self.acting = True
        else:
            self.expect_action()
        if not self.pile or self.pile[-1].declined:
            self.refuse("there is no card to challenge")
        top = self.pile[-1]
        if top.player == challenger:
            self.refuse(f"{self.names[challenger]} cannot challenge their own card")
        self.window = False
        if top.card is not None:
            self.resolve(challenger, trait, top.card)
        else:
            self.reveal_owed = challenger, trait

    def on_reveal(self, words: list[str]) -> None:
        if self.reveal_owed is None:
            self.refuse("no card waits to be revealed")
        if len(words) != 1:
            self.refuse("`reveal` names one card")
        card = self.cards(words)[0]
        self.seen[card] += 1
        challenger, trait = self.reveal_owed
        self.reveal_owed = None
        self.resolve(challenger, trait, card)

    def resolve(self, challenger: int, trait: str, card: str) -> None:
        top = self.pile[-1]
        claim_true = true_on_spice(card, top.claim[0]) if trait == "spice" else true_on_number(card, top.claim[1])
        winner, loser = (top.player, challenger) if claim_true else (challenger, top.player)
        self.won[winner] += len(self.pile)
        self.pile = []
        self.turn = loser
        self.owed.append([loser, 2])
        if top.last and winner == top.player:
            self.take_trophy(top.player)
        self.make_draws()

    def on_pass(self, words: list[str]) -> None:
        if words or not self.window:
            self.refuse("`pass` alone answers a last card: nobody challenges it")
        self.window = False
        top = self.pile[-1]
        self.pile[-1] = top._replace(declined=True)
        self.take_trophy(top.player)
        self.make_draws()

    def on_take_back(self, player: int) -> None:
        if not self.window or self.pile[-1].player != player:
            self.refuse("`take-back` is for a last card not announced, by its player, before any challenge")
        top = self.pile.pop()
        self.window = False
        if top.card is not None:
            self.mine[top.card] += 1
        self.hands[player] += 1
        self.turn = self.next_seat(player)
        self.draw(player, 1)

    def take_trophy(self, player: int) -> None:
        self.trophies[player] += 1
        if self.trophies[player] == 2:
            self.end([player])
        elif sum(self.trophies) == 3:
            self.end_by_score()
        else:
            self.owed.append([player, self.deck.hand_size])

    # -------------------------------------------------- draws and the end

    def draw(self, player: int, count: int) -> None:
        self.owed.append([player, count])
        self.make_draws()

    def make_draws(self) -> None:
        """Make the other players' owed draws in order, up to the seat's next draw."""
        while self.owed and not self.over and self.owed[0][0] != self.me and not self.must_end:
            player, count = self.owed.pop(0)
            got = min(count, self.draw_pile())
            self.hands[player] += got
            self.line_draws.append([player, got])
            self.must_end = got < count

    def on_draw(self, words: list[str]) -> None:
        if not self.owed or self.owed[0][0] != self.me or self.reveal_owed is not None or self.window:
            self.refuse(f"waiting for {self.waiting()}" if self.waiting() else "the tracked seat draws nothing now")
        if not words or len(words) > self.owed[0][1]:
            self.refuse(f"{self.names[self.owed[0][0]]} draws {self.owed[0][1]} card(s)")
        if len(words) > self.draw_pile():
            self.refuse(f"the draw pile has only {self.draw_pile()} card(s)")
        cards = self.cards(words)
        self.mine.update(cards)
        self.seen.update(cards)
        self.hands[self.owed[0][0]] += len(cards)
        self.owed[0][1] -= len(cards)
        if self.owed[0][1] == 0:
            self.owed.pop(0)
            self.make_draws()

    def on_worlds_end(self, words: list[str]) -> None:
        others_owed = bool(self.owed) and self.owed[0][0] != self.me and not self.must_end
        if self.reveal_owed is not None or self.window or not self.acting or others_owed:
            self.refuse(f"waiting for {self.waiting()}" if self.waiting() else "World's End cannot show now")
        if words:
            if len(words) != 2 or words[0] not in ("after", "apres") or not words[1].isdigit():
                self.refuse("`worlds-end` or `worlds-end after N`")
            total = sum(got for _, got in self.last_draws)
            if not self.last_draws or int(words[1]) > total:
                self.refuse(f"no draw of another player of {words[1]} card(s) just happened")
            keep = int(words[1])
            for player, got in self.last_draws:
                self.hands[player] -= got - min(got, keep)
                keep -= min(got, keep)
        self.end_by_score()

    def scores(self) -> list[int]:
        tables = zip(self.won, self.trophies, self.hands, strict=True)
        return [won + 10 * trophies - hand for won, trophies, hand in tables]

    def end_by_score(self) -> None:
        best = max(self.scores())
        self.end([i for i, score in enumerate(self.scores()) if score == best])

    def end(self, winners: list[int]) -> None:
        self.over, self.winner, self.owed, self.window, self.must_end = True, winners, [], False, False

    # -------------------------------------------------- the JSON table

    def top(self) -> dict[str, Any] | None:
        if not self.pile or self.pile[-1].card is not None:
            return None
        top = self.pile[-1]
        below = self.pile[-2].claim if len(self.pile) > 1 else None
        legal = legal_claims(self.deck, None if below is None else below[0], None if below is None else below[1])
        odds = claim_odds(top.claim, self.unseen(), top.hand_before, legal, self.method)
        trait, wins = challenge_advice(odds)
        return {
            "line": top.line,
            "player": self.names[top.player],
            "claim": claim_text(top.claim),
            "last": top.last,
            "honest": {key: str(value) for key, value in odds.honest._asdict().items()},
            "random": {key: str(value) for key, value in odds.random._asdict().items()},
            "challenge": trait,
            "challenge_wins": str(wins),
        }

    def json(self) -> dict[str, Any]:
        unseen = self.unseen()
        players = []
        for i, name in enumerate(self.names):
            entry: dict[str, Any] = {
                "name": name,
                "hand": self.hands[i],
                "won": self.won[i],
                "trophies": self.trophies[i],
                "score": self.scores()[i],
            }
            if i == self.me:
                entry["cards"] = sort_cards(self.deck, list(self.mine.elements()))
            players.append(entry)
        winner: str | list[str] | None = None
        if self.over:
            names = [self.names[i] for i in self.winner]
            winner = names[0] if len(names) == 1 else names
        return {
            "game": "spicy",
            "me": None if self.me is None else self.names[self.me],
            "turn": None if self.over or not self.names else self.names[self.turn],
            "waiting": self.waiting(),
            "winner": winner,
            "pile": {"size": len(self.pile), "spice": self.pile[0].claim[0] if self.pile else None, "top": self.top()},
            "unseen": {
                **{
                    spice: [unseen[f"{spice}-{n}"] for n in range(1, self.deck.numbers + 1)]
                    for spice in self.deck.spices
                },
                WILD_NUMBER: unseen[WILD_NUMBER],
                WILD_SPICE: unseen[WILD_SPICE],
            },
            "players": players,
            "flags": list(self.flags),
        }


def brute_replay(
    text: str, deck: Deck = Deck(), *, threshold: Fraction = UNLIKELY, method: Method = "auto"
) -> dict[str, Any]:
    """The JSON object ``spicy replay --json`` prints after the last line of the record ``text``.

    Raises RefusedLine(line_number, reason) on the first line the specification refuses.

    >>> try:
    ...     brute_replay("game spicy\\nplayers Ana Ben\\nBen play chili 1\\n", SMALL)
    ... except RefusedLine as refused:
    ...     print(refused.line, refused.reason)
    3 it is Ana's turn
    """
    table = Table(deck, threshold, method)
    for number, line in enumerate(text.split("\n"), start=1):
        table.read(number, line)
    return table.json()


# ---------------------------------------------------------------- random records

NAMES = ("Ana", "Ben", "Cleo", "Dan", "Eva", "Finn")


class RandomGame(NamedTuple):
    """A random game: its record, and the truth at its end (hand sizes, won cards, trophies, the
    seat's hand in canonical order, the winners' names, whether it is over)."""

    record: str
    hands: list[int]
    won: list[int]
    trophies: list[int]
    cards: list[str]
    winner: list[str]
    over: bool


@dataclass
class _Sim:
    """A physical game: every card where it is, World's End under ``below`` cards of the draw pile."""

    rng: random.Random
    deck: Deck
    names: list[str]
    seat: int | None
    lines: list[str] = field(default_factory=list)
    hands: list[list[str]] = field(default_factory=list)
    stock: list[str] = field(default_factory=list)  # the draw pile, top card last
    below: int = 0
    pile: list[tuple[int, str, Claim]] = field(default_factory=list)
    declined: set[int] = field(default_factory=set)  # pile heights of last cards the table passed
    won: list[int] = field(default_factory=list)
    trophies: list[int] = field(default_factory=list)
    honesty: list[float] = field(default_factory=list)
    turn: int = 0
    over: bool = False
    winner: list[int] = field(default_factory=list)

    def deal(self) -> None:
        cards = [kind for kind in self.deck.kinds() for _ in range(self.deck.copies_of(kind))]
        if len(cards) <= len(self.names) * self.deck.hand_size:
            raise GameError("the deck leaves no draw pile for this many players", input=repr(self.deck))
        self.rng.shuffle(cards)
        self.hands = [[cards.pop() for _ in range(self.deck.hand_size)] for _ in self.names]
        self.stock, self.below = cards, self.rng.choice([0, self.rng.randrange(len(cards))])
        self.won, self.trophies = [0] * len(self.names), [0] * len(self.names)
        self.honesty = [self.rng.choice([0.3, 0.7, 0.95]) for _ in self.names]
        self.lines += ["game spicy", "players " + " ".join(self.names)]
        if self.seat is not None:
            hand = sort_cards(self.deck, self.hands[self.seat])
            self.lines += [f"me {self.names[self.seat]}", "hand " + " ".join(hand)]

    def draws(self, queue: list[tuple[int, int]]) -> None:
        """Make the draws in order, writing the seat's draws and World's End when it shows."""
        segment = 0  # cards of other players' draws since the last line
        for i, (player, count) in enumerate(queue):
            got: list[str] = []
            while len(got) < count and len(self.stock) > self.below:
                got.append(self.stock.pop())
            self.hands[player] += got
            if player == self.seat:
                self.lines.append("draw " + " ".join(sort_cards(self.deck, got)))
                segment = 0
            else:
                segment += len(got)
            if len(self.stock) == self.below:
                # the replay made, on the last line written, the other players' draws up to the seat's next one
                rest = sum(n for _, n in itertools.takewhile(lambda entry: entry[0] != self.seat, queue[i + 1 :]))
                if player == self.seat:
                    drawn, implicit = 0, rest if len(got) == count else 0
                else:
                    drawn, implicit = segment, segment - len(got) + count + rest
                self.lines.append("worlds-end" if drawn == implicit else f"worlds-end after {drawn}")
                return self.end_by_score()

    def legal(self) -> tuple[Claim, ...]:
        last = self.pile[-1][2] if self.pile else None
        return legal_claims(self.deck, None if last is None else last[0], None if last is None else last[1])

    def play(self) -> None:
        player, legal = self.turn, self.legal()
        hand = self.hands[player]
        true_cards = [card for card in hand if card_claim(card) in legal]
        if true_cards and self.rng.random() < self.honesty[player]:
            card = self.rng.choice(true_cards)
            claim = card_claim(card)
            assert claim is not None
        else:
            card, claim = self.rng.choice(hand), self.rng.choice(legal)
        hand.remove(card)
        self.pile.append((player, card, claim))
        name = self.names[player]
        self.lines.append(
            f"{name} play {card} as {claim_text(claim)}" if player == self.seat else f"{name} play {claim_text(claim)}"
        )
        self.turn = (player + 1) % len(self.names)
        if hand:
            return
        luck = self.rng.random()
        if luck < 0.1:
            self.lines.append(f"{name} take-back")
            hand.append(self.pile.pop()[1])
            self.draws([(player, 1)])
        elif luck < 0.55:
            self.challenge()
        else:
            self.lines.append("pass")
            self.declined.add(len(self.pile))
            self.trophy(player, [])

    def challenge(self) -> None:
        player, card, claim = self.pile[-1]
        challenger = self.rng.choice([i for i in range(len(self.names)) if i != player])
        trait = self.rng.choice(["spice", "number"])
        self.lines.append(f"{self.names[challenger]} challenge {trait}")
        if player != self.seat:
            self.lines.append(f"reveal {card}")
        holds = true_on_spice(card, claim[0]) if trait == "spice" else true_on_number(card, claim[1])
        winner, loser = (player, challenger) if holds else (challenger, player)
        self.won[winner] += len(self.pile)
        self.pile, self.turn = [], loser
        self.declined.clear()
        if not self.hands[player] and winner == player:
            self.trophy(player, [(loser, 2)])
        else:
            self.draws([(loser, 2)])

    def trophy(self, player: int, queue: list[tuple[int, int]]) -> None:
        self.trophies[player] += 1
        if self.trophies[player] == 2:
            self.over, self.winner = True, [player]
        elif sum(self.trophies) == 3:
            self.end_by_score()
        else:
            self.draws([*queue, (player, self.deck.hand_size)])

    def end_by_score(self) -> None:
        scores = [w + 10 * t - len(h) for w, t, h in zip(self.won, self.trophies, self.hands, strict=True)]
        self.over, self.winner = True, [i for i, score in enumerate(scores) if score == max(scores)]

    def step(self) -> None:
        open_top = bool(self.pile) and len(self.pile) not in self.declined
        if open_top and self.rng.random() < min(0.6, 0.1 + 0.08 * len(self.pile)):
            return self.challenge()
        if self.rng.random() < 0.12:
            self.lines.append(f"{self.names[self.turn]} pass")
            player, self.turn = self.turn, (self.turn + 1) % len(self.names)
            return self.draws([(player, 1)])
        self.play()


def random_game(
    seed: int,
    players: int | Sequence[str] = 3,
    deck: Deck = Deck(),
    *,
    seat: int | Literal["random"] | None = "random",
    max_events: int = 400,
) -> RandomGame:
    """A random legal game (players more or less honest, random challenges, trophies, take-backs,
    World's End at a random height) written as a canonical English record from ``seat``'s point of
    view (None: a spectator; "random": drawn from the seed, spectator included); it stops after
    ``max_events`` turns or challenges if the game has not ended."""
    rng = random.Random(seed)
    names = list(NAMES[:players]) if isinstance(players, int) else list(players)
    choice: list[int | None] = [*range(len(names)), None]
    tracked = rng.choice(choice) if seat == "random" else seat
    sim = _Sim(rng, deck, names, tracked)
    sim.deal()
    for _ in range(max_events):
        if sim.over:
            break
        sim.step()
    cards = [] if tracked is None else sort_cards(deck, sim.hands[tracked])
    return RandomGame(
        "\n".join(sim.lines) + "\n",
        [len(h) for h in sim.hands],
        sim.won,
        sim.trophies,
        cards,
        [names[i] for i in sim.winner],
        sim.over,
    )


def random_record(
    seed: int,
    players: int | Sequence[str] = 3,
    deck: Deck = Deck(),
    *,
    seat: int | Literal["random"] | None = "random",
    max_events: int = 400,
) -> str:
    """The record of ``random_game`` (same arguments).

    >>> brute_replay(random_record(1, 2, SMALL, seat=0), SMALL)["me"]
    'Ana'
    """
    return random_game(seed, players, deck, seat=seat, max_events=max_events).record
