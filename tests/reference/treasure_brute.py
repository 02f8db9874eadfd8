"""Independent brute-force reference for Conquêtes et chasse au trésor (tests only).

Written from /work/shared/spec/treasure.md, table-language.md and outputs.md alone, without reading
the project's own implementation, so that two readings of the specification can be compared.
``brute_replay(text)`` returns the object ``tresor replay FILE --json`` prints; the first refused
line raises :class:`RefusedLine`. ``random_record(seed, players)`` writes a random legal game.

**The probabilities are enumerated, not taken from the spec's weight rule.** A *world* is: the
removed physical card, which physical copy each seen card is (the seat's dealt cards, the start
card, every card another player placed), and the deal of the remaining unseen physical cards to
the free places of the other players' hands (their current hand sizes). Every world is equally
likely: the deck is shuffled, so given where the seen cards lie, the unseen physical cards are a
uniform arrangement over the unseen places (one of them the removed place). On small decks every
deal is listed (``deals``); otherwise the deals are counted, ``multinomial(unseen; free places)``,
which is the same number for every removed card and copy choice, since it depends only on how many
cards are unseen. The treasure is the kind of the removed card.

Decisions where the spec is vague (one line each):

- A placed card is a physical card seen in a place (as the start card is); the other reading,
  "only evidence that the placer held one", weighs worlds where the placer also holds the twin
  differently (see the tests); the spec's treasure rule agrees with the first reading.
- The first meaningful line must be ``game tresor``; then ``players``; then ``me``, ``hand`` (after
  ``me``) and ``start`` once each, all before the first action; none after it.
- ``hand`` must list exactly as many cards as the seat is dealt; no kind may be seen three times.
- "Deux cartes" is on from the deal if someone is dealt two cards or fewer, else from the first
  placement leaving some player with two or fewer, and stays on.
- Every pass is accepted, even the seat's under "deux cartes" with a legal placement (a breach).
- ``X breach`` only after the end; each line is one breach (-10); a player has at most as many
  breaches as passes made under "deux cartes" (for the seat: such passes while it could place).
- ``neuro`` is refused before the first turn, after the end, while a round is open (one round per
  turn) and when the caller cannot bid (no marker or no base carton left).
- Bids follow the clockwise order from the caller, who bids first; a player may skip, not come
  back; ``place``/``pass`` before the caller's bid is refused.
- Other players' bids may not carry ``with`` (their markers are face down); the seat's must.
- ``reveal`` only after the end, once per bidder, exactly one marker per bid, within the
  player's 7 markers; the seat's own reveal is accepted only if it matches its bids.
- ``removed`` only after the end, once, and only a kind seen at most once.
- ``final`` needs the end, ``removed`` and every reveal, even when nobody bid.
- ``waiting`` is set while the caller's bid is owed, and after the end until ``removed`` and
  every reveal are in (and during an unfinished set-up); ``turn`` is null after the end.
- ``bids``: one entry per marker kind the seat still has; the largest base when the expected
  score is positive, else the smallest; order: value, then marker (0 1 nature fond force), row,
  column; empty once the game has ended or when no base carton is left.
- ``placements``: listed whenever the game is on, whoever's turn it is; ``vp`` is the placement
  points plus the emptying bonus when it is the seat's last card; one entry per kind and cell;
  order: vp + change of the seat's sets (largest first), then card (deck order), row, column.
- ``players[].vp`` leaves out breaches (they count in ``final.play``); a tied ``winner`` is a
  list in seating order; anyone may call ``neuro`` and bid, empty hand or not.
- Markers are written ``0 1 nature fond force`` in both languages (``background`` = ``fond``);
  French long card names (``2-etoile-vert``) are accepted.
- A record without ``me`` (so without ``hand``) is a spectator's (treasure.md, as in
  table-language.md): ``players`` and ``start`` complete its set-up; it sees the start card and the
  placed cards only (the worlds deal every unseen card, every player's hand a free place); no
  bid carries ``with``, every bidder reveals; ``players[].cards`` and ``bids`` are absent, and so
  is ``placements`` (the seat's, and there is none).
"""

from __future__ import annotations

import contextlib
import math
import random
import unicodedata
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations, permutations, product
from typing import Any

from solver.errors import GameError

__all__ = ["Deck", "Kind", "RefusedLine", "Replay", "brute_replay", "deals", "random_record", "treasure_worlds"]

Kind = tuple[int, str, str]  # force, nature initial, background initial
Cell = tuple[int, int]  # row, column
Physical = tuple[Kind, int]  # a kind and its copy (0 or 1)

NATURES = {"c": "coeur", "e": "etoile", "r": "rose"}
BACKGROUNDS = {"n": "noir", "v": "vert", "b": "bleu"}
MARKERS = ("0", "1", "nature", "fond", "force")
MARKER_STOCK = {"0": 1, "1": 3, "nature": 1, "fond": 1, "force": 1}
ATTRIBUTE_OF = {"force": 0, "nature": 1, "fond": 2}
ONE_MARKER = {3: 3, 2: 1, 1: -1, 0: -2}  # shared attributes with the treasure -> multiple of x
BASE_STOCK = {1: 10, 2: 1, 3: 1, 4: 1, 5: 1}
PLACEMENT_VP = {1: 0, 2: 1, 3: 5, 4: 20}  # compatible touching cards -> VP
HAND_PENALTY = {0: 0, 1: 0, 2: -1, 3: -5}  # 4 or more: -20
START_VP, PASS_VP, BREACH_VP, BIG_BONUS, SMALL_BONUS = 5, -1, -10, 2, 1
MAX_ROWS, MAX_COLS = 6, 11
NEIGHBOURS = ((-1, 0), (1, 0), (0, -1), (0, 1))
WORDS = {
    **{w: w for w in ("game", "players", "me", "hand", "start", "place", "at", "pass", "neuro", "bid")},
    **{w: w for w in ("on", "with", "removed", "reveal", "breach", "tresor", *MARKERS)},
    **{"jeu": "game", "joueurs": "players", "moi": "me", "main": "hand", "depart": "start", "pose": "place"},
    **{"en": "at", "passe": "pass", "mise": "bid", "sur": "on", "avec": "with", "retiree": "removed"},
    **{"revele": "reveal", "faute": "breach", "background": "fond"},
}
LINE_WORDS = ("game", "players", "me", "hand", "start", "removed")
NAMES = ("Ana", "Ben", "Cleo", "Dan", "Eve", "Finn", "Gus", "Hana")
WORLD_LIMIT = 150_000  # list every deal when there are at most this many worlds


class RefusedLine(GameError):
    """A record line the spec refuses: ``line`` (1-based, every line counted) and ``reason``."""

    def __init__(self, line: int, reason: str, *, input: str | None = None) -> None:
        super().__init__(f"line {line}: {reason}", input=input)
        self.line, self.reason = line, reason

    def __repr__(self) -> str:
        return f"RefusedLine({self.line!r}, {self.reason!r})"


class _No(Exception):
    """A refusal before its line number is known."""


def norm(word: str) -> str:
    """Lower case, accents dropped: ``norm('Révèle')`` is ``'revele'``."""
    word = word.lower().replace("œ", "oe").replace("æ", "ae")
    return "".join(ch for ch in unicodedata.normalize("NFD", word) if not unicodedata.combining(ch))


@dataclass(frozen=True)
class Deck:
    """A neurotrio deck: every kind (force, nature, background) twice.

    >>> Deck(forces=(1, 2), natures=("c", "e"), backgrounds=("n", "v")).size
    16
    """

    forces: tuple[int, ...] = (1, 2, 3)
    natures: tuple[str, ...] = ("c", "e", "r")  # coeur, etoile, rose
    backgrounds: tuple[str, ...] = ("n", "v", "b")  # noir, vert, bleu

    @property
    def kinds(self) -> tuple[Kind, ...]:
        """Every kind, in the canonical order (force, nature, background)."""
        return tuple(product(self.forces, self.natures, self.backgrounds))

    @property
    def size(self) -> int:
        return 2 * len(self.kinds)

    def parse(self, word: str) -> Kind | None:
        """The kind named ``2ev`` or ``2-etoile-vert`` (accents optional), or None."""
        w = norm(word)
        parts = w.split("-")
        if len(parts) == 3:
            nat = {v: k for k, v in NATURES.items()}.get(parts[1], "?")
            bg = {v: k for k, v in BACKGROUNDS.items()}.get(parts[2], "?")
            w = parts[0] + nat + bg
        if len(w) < 3 or not w[:-2].isdigit():
            return None
        kind = (int(w[:-2]), w[-2], w[-1])
        return kind if kind in self.kinds else None


def name(kind: Kind) -> str:
    return f"{kind[0]}{kind[1]}{kind[2]}"


def shared(a: Kind, b: Kind) -> int:
    """How many of the three attributes ``a`` and ``b`` share (compatible: 2 or more)."""
    return sum(x == y for x, y in zip(a, b, strict=True))


def hand_penalty(cards: int) -> int:
    return HAND_PENALTY.get(cards, -20)


def bid_score(marker: str, card: Kind, treasure: Kind) -> int:
    """The score of a bid of base 1 with ``marker`` on ``card`` when ``treasure`` is the treasure."""
    if marker == "0":
        return 0
    if marker == "1":
        return ONE_MARKER[shared(card, treasure)]
    i = ATTRIBUTE_OF[marker]
    return 1 if card[i] == treasure[i] else -1


# --------------------------------------------------------------------------- the domain


def placement_vp(domain: Mapping[Cell, Kind], card: Kind, cell: Cell) -> int:
    """The VP of placing ``card`` at ``cell``; raises _No with the reason when it is refused."""
    if cell in domain:
        raise _No(f"{cell[0]} {cell[1]} already holds {name(domain[cell])}")
    check_limits(domain, cell)
    return touching_vp(domain, card, cell)


def touching_vp(domain: Mapping[Cell, Kind], card: Kind, cell: Cell) -> int:
    """The VP from the cards ``card`` would touch at the empty ``cell``; raises _No when refused."""
    touching = [domain[(cell[0] + dr, cell[1] + dc)] for dr, dc in NEIGHBOURS if (cell[0] + dr, cell[1] + dc) in domain]
    if not touching:
        raise _No(f"{cell[0]} {cell[1]} does not touch the domain by an edge")
    compatible = sum(shared(card, other) >= 2 for other in touching)
    if len(touching) == 1 and compatible == 0:
        raise _No(f"{name(card)} is not compatible with {name(touching[0])}")
    if len(touching) > 1 and compatible < 2:
        raise _No(f"{name(card)} touches {len(touching)} cards and is compatible with {compatible} (2 needed)")
    return PLACEMENT_VP[compatible]


def check_limits(domain: Mapping[Cell, Kind], cell: Cell) -> None:
    """Raises _No when a card at ``cell`` would break the open rows and columns limits."""
    rows = len({r for r, _ in domain} | {cell[0]})
    cols = len({c for _, c in domain} | {cell[1]})
    if cols > 2 * rows or rows > 2 * cols:
        raise _No(f"{rows} open rows and {cols} open columns: neither may exceed twice the other")
    if rows > MAX_ROWS or cols > MAX_COLS:
        raise _No(f"{rows} open rows and {cols} open columns: at most {MAX_ROWS} rows and {MAX_COLS} columns")


def legal_placements(domain: Mapping[Cell, Kind], cards: Counter[Kind]) -> list[tuple[Kind, Cell, int]]:
    """Every (kind, cell, placement VP) a hand ``cards`` may place on ``domain``, by kind then cell."""
    out = []
    for cell in sorted({(r + dr, c + dc) for r, c in domain for dr, dc in NEIGHBOURS} - set(domain)):
        try:
            check_limits(domain, cell)
        except _No:
            continue
        for kind in (k for k, n in cards.items() if n > 0):
            with contextlib.suppress(_No):
                out.append((kind, cell, touching_vp(domain, kind, cell)))
    return sorted(out)


def set_score(owned: set[Cell]) -> int:
    """The connected-set score of one owner's cells: each largest edge-joined group of n scores n - 2."""
    left, total = set(owned), 0
    while left:
        group, todo = 0, [left.pop()]
        while todo:
            r, c = todo.pop()
            group += 1
            for dr, dc in NEIGHBOURS:
                if (r + dr, c + dc) in left:
                    left.remove((r + dr, c + dc))
                    todo.append((r + dr, c + dc))
        total += group - 2
    return total


# --------------------------------------------------------------------------- the worlds


def deals(cards: Sequence[Physical], sizes: Sequence[int]) -> Iterator[tuple[tuple[Physical, ...], ...]]:
    """Every way to deal ``cards`` into hands of ``sizes`` (each hand a set).

    >>> sum(1 for _ in deals([((1, "c", "n"), 0), ((1, "c", "n"), 1), ((2, "c", "n"), 0)], (2, 1)))
    3
    """
    if not sizes:
        if not cards:
            yield ()
        return
    for first in combinations(cards, sizes[0]):
        rest = [c for c in cards if c not in first]
        for tail in deals(rest, sizes[1:]):
            yield (first, *tail)


def multinomial(sizes: Sequence[int]) -> int:
    total, out = 0, 1
    for n in sizes:
        total += n
        out *= math.comb(total, n)
    return out


def treasure_worlds(
    deck: Deck, seen: Counter[Kind], free: Sequence[int], removed: Kind | None = None, *, listed: bool | None = None
) -> Counter[Kind]:
    """The number of worlds (module docstring) for each treasure kind, given the seat's ``seen``
    cards, the other players' current hand sizes ``free`` and, once shown, the ``removed`` kind.
    ``listed`` chooses listing every deal (True) or counting them (False); None lists when small.

    >>> deck = Deck(forces=(1,), natures=("c",), backgrounds=("n", "v"))
    >>> dict(treasure_worlds(deck, Counter({(1, "c", "n"): 1, (1, "c", "v"): 1}), (1,)))
    {(1, 'c', 'n'): 4, (1, 'c', 'v'): 4}
    """
    physical = [(kind, copy) for kind in deck.kinds for copy in (0, 1)]
    if listed is None:
        listed = sum(treasure_worlds(deck, seen, free, removed, listed=False).values()) <= WORLD_LIMIT
    out: Counter[Kind] = Counter()
    for gone in physical:
        if removed is not None and gone[0] != removed:
            continue
        rest = [p for p in physical if p != gone]
        choices = [list(permutations([p for p in rest if p[0] == kind], n)) for kind, n in seen.items() if n]
        if not listed:  # the copy choices multiply, and every choice leaves as many deals
            assert sum(free) == len(rest) - sum(seen.values()), "the hand sizes do not add up"
            out[gone[0]] += math.prod(len(c) for c in choices) * multinomial(free)
            continue
        for choice in product(*choices):
            taken = {p for copies in choice for p in copies}
            count = sum(1 for _ in deals([p for p in rest if p not in taken], free))
            out[gone[0]] += count
    return +out


# --------------------------------------------------------------------------- the record


@dataclass(frozen=True)
class Bid:
    player: int
    base: int
    cell: Cell
    marker: str | None  # None: another player's face-down marker


@dataclass
class Round:
    caller: int
    order: list[int]  # clockwise from the caller
    last: int = -1  # position in ``order`` of the last bidder


class Replay:
    """The tracked seat's table after the lines given to :meth:`line` (one line's words at a time)."""

    def __init__(self, deck: Deck = Deck()) -> None:
        self.deck = deck
        self.game = False
        self.names: list[str] = []
        self.me: int | None = None
        self.dealt_hand: Counter[Kind] | None = None
        self.start: Kind | None = None
        self.began = self.ended = self.deux = False
        self.domain: dict[Cell, tuple[Kind, int | None]] = {}
        self.hands: list[int] = []
        self.vp: list[int] = []
        self.placed: list[Counter[Kind]] = []
        self.turn = self.passes = self.emptied = self.turns = 0
        self.round: Round | None = None
        self.round_done = False  # a round was held since the last turn
        self.bases: Counter[int] = Counter(BASE_STOCK)
        self.bids: list[Bid] = []
        self.revealed: dict[int, list[str]] = {}
        self.removed: Kind | None = None
        self.breaches: Counter[int] = Counter()
        self.deux_passes: Counter[int] = Counter()  # passes that may be proven breaches

    def __repr__(self) -> str:
        return f"Replay({self.deck!r})"

    # ------------------------------------------------------------------ reading words
    def player(self, word: str) -> int:
        w = norm(word)
        keys = [norm(n) for n in self.names]
        if w in keys:
            return keys.index(w)
        hits = [i for i, k in enumerate(keys) if k.startswith(w)]
        if len(hits) != 1:
            raise _No(f"{word!r} is {'no player' if not hits else 'more than one player'}")
        return hits[0]

    def card(self, word: str) -> Kind:
        kind = self.deck.parse(word)
        if kind is None:
            raise _No(f"{word!r} is not a card of the deck")
        return kind

    @staticmethod
    def number(word: str) -> int:
        try:
            return int(word)
        except ValueError:
            raise _No(f"{word!r} is not a number") from None

    def cell(self, words: Sequence[str], joiner: str) -> Cell:
        if len(words) != 3 or WORDS.get(norm(words[0])) != joiner:
            raise _No(f"write the cell as '{joiner} ROW COLUMN'")
        return self.number(words[1]), self.number(words[2])

    # ------------------------------------------------------------------ views
    def my_hand(self) -> Counter[Kind]:
        assert self.dealt_hand is not None and self.me is not None
        return self.dealt_hand - self.placed[self.me]

    def seen(self) -> Counter[Kind]:
        assert self.start is not None and (self.me is None or self.dealt_hand is not None)
        others = sum((c for i, c in enumerate(self.placed) if i != self.me), Counter[Kind]())
        return (self.dealt_hand or Counter()) + Counter([self.start]) + others

    def kinds(self) -> dict[Cell, Kind]:
        return {cell: kind for cell, (kind, _) in self.domain.items()}

    def ready(self) -> bool:
        seat = self.me is None or self.dealt_hand is not None  # a spectator's record has no hand
        return bool(self.names) and seat and self.start is not None

    def can_bid(self, p: int) -> bool:
        markers = sum(self.markers_left().values()) if p == self.me else 7 - self.bid_count(p)
        return markers > 0 and sum(self.bases.values()) > 0

    def bid_count(self, p: int) -> int:
        return sum(b.player == p for b in self.bids)

    def markers_left(self) -> Counter[str]:
        return Counter(MARKER_STOCK) - Counter(b.marker for b in self.bids if b.player == self.me and b.marker)

    def after(self, p: int) -> int:
        """The next player after ``p`` in seating order who holds cards."""
        n = len(self.names)
        return next(q % n for q in range(p + 1, p + n + 1) if self.hands[q % n] > 0)

    # ------------------------------------------------------------------ one line
    def line(self, words: list[str]) -> None:
        """Apply one line (its words, comment dropped); raises _No with the reason when refused."""
        first = WORDS.get(norm(words[0]))
        if not self.game:
            if first != "game" or [WORDS.get(norm(w)) for w in words[1:]] != ["tresor"]:
                raise _No("a record starts with 'game tresor'")
            self.game = True
        elif first in LINE_WORDS:
            getattr(self, "do_" + first)(words[1:])
        elif first is not None:
            raise _No(f"a line starts with a player's name or a set-up word, not {words[0]!r}")
        elif not self.names:
            raise _No("the players come first")
        else:
            p = self.player(words[0])
            verb = WORDS.get(norm(words[1])) if len(words) > 1 else None
            if verb not in ("place", "pass", "neuro", "bid", "reveal", "breach"):
                raise _No("after a name: place, pass, neuro, bid, reveal or breach")
            if verb not in ("reveal", "breach"):
                self.check_playing(p, verb)
            getattr(self, "do_" + verb)(p, words[2:])

    def check_setup(self, what: str, needs: bool, already: object) -> None:
        if self.began:
            raise _No(f"'{what}' is a set-up line; the game has begun")
        if not needs:
            raise _No(f"'{what}' comes after " + ("players" if what in ("me", "start") else "me"))
        if already:
            raise _No(f"'{what}' was already given")

    def do_game(self, words: list[str]) -> None:
        raise _No("the record has already begun")

    def do_players(self, words: list[str]) -> None:
        self.check_setup("players", True, self.names)
        keys = [norm(w) for w in words]
        if not 2 <= len(words) <= 8:
            raise _No("2 to 8 players")
        for w in words:
            if not all(ch.isalnum() or ch in "-_" for ch in w) or norm(w) in WORDS or self.deck.parse(w):
                raise _No(f"{w!r} cannot be a name")
        if len(set(keys)) < len(keys):
            raise _No("two players have the same name")
        n, (q, extra) = len(words), divmod(self.deck.size - 2, len(words))
        self.names, self.placed = list(words), [Counter() for _ in words]
        self.hands = [q + (i < extra) for i in range(n)]
        self.vp = [START_VP + (h > min(self.hands)) for h in self.hands]
        self.deux = min(self.hands) <= 2
        self.ended = sum(h > 0 for h in self.hands) <= 1
        self.turn = 0 if self.hands[0] > 0 or self.ended else self.after(0)

    def do_me(self, words: list[str]) -> None:
        self.check_setup("me", bool(self.names), self.me is not None)
        if len(words) != 1:
            raise _No("me NAME")
        self.me = self.player(words[0])

    def do_hand(self, words: list[str]) -> None:
        self.check_setup("hand", self.me is not None, self.dealt_hand is not None)
        assert self.me is not None
        cards = Counter(self.card(w) for w in words)
        if len(words) != self.hands[self.me]:
            raise _No(f"{self.names[self.me]} is dealt {self.hands[self.me]} cards, not {len(words)}")
        self.check_copies(cards + Counter([self.start] if self.start else []))
        self.dealt_hand = cards

    def do_start(self, words: list[str]) -> None:
        self.check_setup("start", bool(self.names), self.start is not None)
        if len(words) != 1:
            raise _No("start CARD")
        kind = self.card(words[0])
        self.check_copies((self.dealt_hand or Counter()) + Counter([kind]))
        self.start = kind
        self.domain[(0, 0)] = (kind, None)

    @staticmethod
    def check_copies(seen: Counter[Kind]) -> None:
        for kind, n in seen.items():
            if n > 2:
                raise _No(f"there are only two {name(kind)} in the deck")

    def check_playing(self, p: int, verb: str) -> None:
        if not self.ready():
            raise _No("the set-up (players, me, hand, start) comes first")
        if self.ended:
            raise _No("the game is over")
        self.began = True
        if self.round is not None and self.round.last < 0 and verb != "bid":
            raise _No(f"{self.names[self.round.caller]} called neuro and must bid first")
        if verb in ("place", "pass") and p != self.turn:
            raise _No(f"it is {self.names[self.turn]}'s turn")

    def do_place(self, p: int, words: list[str]) -> None:
        if len(words) != 4:
            raise _No("NAME place CARD at ROW COLUMN")
        kind, cell = self.card(words[0]), self.cell(words[1:], "at")
        if p == self.me and self.my_hand()[kind] == 0:
            raise _No(f"{self.names[p]} holds no {name(kind)}")
        if p != self.me and self.seen()[kind] >= 2:
            raise _No(f"both {name(kind)} have already been seen")
        self.vp[p] += placement_vp(self.kinds(), kind, cell)
        self.domain[cell] = (kind, p)
        self.placed[p][kind] += 1
        self.hands[p] -= 1
        if self.hands[p] == 0:
            self.emptied += 1
            self.vp[p] += BIG_BONUS if self.emptied <= 3 else SMALL_BONUS
        self.deux = self.deux or self.hands[p] <= 2
        self.passes = 0
        self.end_turn(p, sum(h > 0 for h in self.hands) <= 1)

    def do_pass(self, p: int, words: list[str]) -> None:
        if words:
            raise _No("NAME pass")
        if self.deux and (p != self.me or legal_placements(self.kinds(), self.my_hand())):
            self.deux_passes[p] += 1
        self.vp[p] += PASS_VP
        self.passes += 1
        self.end_turn(p, self.passes >= sum(h > 0 for h in self.hands) - 1)

    def end_turn(self, p: int, end: bool) -> None:
        self.round, self.round_done = None, False
        self.turns += 1
        self.ended = end
        if not end:
            self.turn = self.after(p)

    def do_neuro(self, p: int, words: list[str]) -> None:
        if words:
            raise _No("NAME neuro")
        if self.turns == 0:
            raise _No("neuro is called right after a turn")
        if self.round_done:
            raise _No("a bidding round was already opened after this turn")
        if not self.can_bid(p):
            raise _No(f"{self.names[p]} cannot bid (no marker or no base carton left)")
        n = len(self.names)
        self.round = Round(p, [(p + i) % n for i in range(n)])
        self.round_done = True

    def do_bid(self, p: int, words: list[str]) -> None:
        if self.round is None:
            raise _No("no bidding round is open (neuro opens one)")
        if len(words) not in (4, 6):
            raise _No("NAME bid BASE on ROW COLUMN (with MARKER for the seat)")
        base, cell = self.number(words[0]), self.cell(words[1:4], "on")
        position = self.round.order.index(p)
        if position <= self.round.last:
            raise _No(f"{self.names[p]}'s chance to bid in this round has passed")
        if self.round.last < 0 and p != self.round.caller:
            raise _No(f"{self.names[self.round.caller]} called neuro and bids first")
        if self.bases[base] == 0:
            raise _No(f"no base carton {base} is left")
        if cell not in self.domain:
            raise _No(f"no domain card at {cell[0]} {cell[1]}")
        marker = None
        if len(words) == 6:
            if p != self.me or WORDS.get(norm(words[4])) != "with":
                raise _No("only the seat writes its marker, as 'with MARKER'" if p != self.me else "with MARKER")
            marker = WORDS.get(norm(words[5]))
            if marker not in MARKERS or self.markers_left()[marker] == 0:
                raise _No(f"{self.names[p]} has no marker {words[5]!r} left")
        elif p == self.me:
            raise _No("the seat's bid gives its marker: 'with 0', '1', 'nature', 'fond' or 'force'")
        if not self.can_bid(p):
            raise _No(f"{self.names[p]} has no marker left")
        self.bases[base] -= 1
        self.bids.append(Bid(p, base, cell, marker))
        self.round.last = position

    def check_end(self, what: str) -> None:
        if not self.ended:
            raise _No(f"'{what}' comes at the end of the game")

    def do_removed(self, words: list[str]) -> None:
        self.check_end("removed")
        if not self.ready() or len(words) != 1 or self.removed is not None:
            raise _No("the removed card is shown once: removed CARD")
        kind = self.card(words[0])
        if self.seen()[kind] >= 2:
            raise _No(f"both {name(kind)} have been seen: it cannot be the removed card")
        self.removed = kind

    def do_reveal(self, p: int, words: list[str]) -> None:
        self.check_end("reveal")
        markers = [WORDS.get(norm(w), "?") for w in words]
        mine = [b.marker for b in self.bids if b.player == p]
        if p in self.revealed or not mine:
            raise _No(f"{self.names[p]} has {'already revealed' if mine else 'made no bid'}")
        if len(markers) != len(mine) or any(m not in MARKERS for m in markers):
            raise _No(f"{self.names[p]} made {len(mine)} bids: one marker (0 1 nature fond force) for each")
        if Counter(markers) - Counter(MARKER_STOCK):
            raise _No(f"{self.names[p]} has only {', '.join(f'{n} × {m}' for m, n in MARKER_STOCK.items())}")
        if p == self.me and markers != mine:
            raise _No(f"{self.names[p]}'s markers were {' '.join(str(m) for m in mine)}")
        self.revealed[p] = [str(m) for m in markers]

    def do_breach(self, p: int, words: list[str]) -> None:
        self.check_end("breach")
        if words:
            raise _No("NAME breach")
        if self.breaches[p] >= self.deux_passes[p]:
            raise _No(f"{self.names[p]} made no other pass under 'deux cartes' that could be a breach")
        self.breaches[p] += 1

    # ------------------------------------------------------------------ the JSON
    def treasure(self) -> dict[Kind, Fraction]:
        """The exact chance of every treasure kind (enumerated worlds)."""
        free = [h for i, h in enumerate(self.hands) if i != self.me]
        worlds = treasure_worlds(self.deck, self.seen(), free, self.removed)
        total = sum(worlds.values())
        return {k: Fraction(worlds[k], total) for k in self.deck.kinds if worlds[k]}

    def bid_values(self, chance: Mapping[Kind, Fraction]) -> list[dict[str, Any]]:
        bases = sorted(b for b, n in self.bases.items() if n > 0)
        if self.ended or not bases:
            return []
        out = []
        for marker in (m for m in MARKERS if self.markers_left()[m] > 0):
            for (row, col), (card, _) in sorted(self.domain.items()):
                mean = sum((p * bid_score(marker, card, t) for t, p in chance.items()), Fraction(0))
                base = bases[-1] if mean > 0 else bases[0]
                out.append((-base * mean, MARKERS.index(marker), row, col, base))
        out.sort()
        return [{"marker": MARKERS[m], "row": r, "col": c, "base": b, "value": str(-v)} for v, m, r, c, b in out]

    def placements(self) -> list[dict[str, Any]]:
        assert self.me is not None
        if self.ended:
            return []
        mine = {cell for cell, (_, owner) in self.domain.items() if owner == self.me}
        bonus = (BIG_BONUS if self.emptied < 3 else SMALL_BONUS) if self.hands[self.me] == 1 else 0
        out = []
        for kind, cell, vp in legal_placements(self.kinds(), self.my_hand()):
            gain = vp + bonus + set_score(mine | {cell}) - set_score(mine)
            entry = {"card": name(kind), "row": cell[0], "col": cell[1], "vp": vp + bonus}
            out.append((-gain, self.deck.kinds.index(kind), cell, entry))
        out.sort(key=lambda e: e[:3])
        return [e[3] for e in out]

    def json(self) -> dict[str, Any]:
        """The object ``tresor replay --json`` prints (treasure.md, "Outputs")."""
        ready = self.ready()
        chance = self.treasure() if ready else {}
        return {
            "game": "tresor",
            "me": self.names[self.me] if self.me is not None else None,
            "turn": self.names[self.turn] if self.names and not self.ended else None,
            "waiting": self.waiting(),
            "deux_cartes": self.deux,
            "domain": [
                {"row": r, "col": c, "card": name(k), "owner": None if o is None else self.names[o]}
                for (r, c), (k, o) in self.domain.items()
            ],
            "players": [self.player_json(i) for i in range(len(self.names))],
            "treasure": {name(k): str(p) for k, p in chance.items()},
            **self.seat_json(chance, ready),
            **self.result(),
        }

    def seat_json(self, chance: Mapping[Kind, Fraction], ready: bool) -> dict[str, Any]:
        """The seat's bids and placements; none at all (absent) in a spectator's record."""
        if self.me is None:
            return {}
        return {"bids": self.bid_values(chance) if ready else [], "placements": self.placements() if ready else []}

    def player_json(self, i: int) -> dict[str, Any]:
        out: dict[str, Any] = {"name": self.names[i], "hand": self.hands[i], "vp": self.vp[i]}
        out["bids"] = self.bid_count(i)
        if i == self.me and self.dealt_hand is not None:
            out["cards"] = [name(k) for k in sorted(self.my_hand().elements(), key=self.deck.kinds.index)]
        return out

    def waiting(self) -> str | None:
        if not self.ready():
            return "the set-up: players, me, hand and start"
        if self.round is not None and self.round.last < 0:
            return f"{self.names[self.round.caller]} bids"
        if self.ended and self.removed is None:
            return "the removed card"
        missing = [p for p in range(len(self.names)) if p != self.me and self.bid_count(p) and p not in self.revealed]
        if self.ended and missing:
            return f"{self.names[missing[0]]} reveals"
        return None

    def result(self) -> dict[str, Any]:
        if not self.ended or self.removed is None or self.waiting() is not None:
            return {"winner": None, "final": None}
        final = {}
        for i, who in enumerate(self.names):
            markers = iter(self.revealed.get(i, []))
            bids = 0
            for b in (b for b in self.bids if b.player == i):
                marker = b.marker if b.marker is not None else next(markers)
                bids += b.base * bid_score(marker, self.domain[b.cell][0], self.removed)
            sets = set_score({cell for cell, (_, owner) in self.domain.items() if owner == i})
            play = self.vp[i] + BREACH_VP * self.breaches[i]
            part = {"play": play, "sets": sets, "hand": hand_penalty(self.hands[i]), "bids": bids}
            part["total"] = sum(part.values())
            final[who] = part
        best = max(p["total"] for p in final.values())
        winners = [who for who, p in final.items() if p["total"] == best]
        return {"winner": winners[0] if len(winners) == 1 else winners, "final": final}


def brute_replay(text: str, deck: Deck = Deck()) -> dict[str, Any]:
    """The JSON object ``tresor replay --json`` prints after the last line of the record ``text``
    (treasure.md, "Outputs"); raises RefusedLine(line_number, reason) on the first refused line.

    >>> out = brute_replay("game tresor\\nplayers Ana Ben\\nme Ana\\nhand 1cn 1cn\\nstart 1cv\\n",
    ...                    Deck(forces=(1,), natures=("c",)))
    >>> out["treasure"], out["players"][0]["vp"], out["deux_cartes"]
    ({'1cv': '1/3', '1cb': '2/3'}, 5, True)
    """
    table = Replay(deck)
    for number, raw in enumerate(text.split("\n"), 1):
        words = raw.split("#", 1)[0].split()
        if words:
            try:
                table.line(words)
            except _No as no:
                raise RefusedLine(number, str(no), input=raw.strip()) from None
    if not table.game:
        raise RefusedLine(1, "a record starts with 'game tresor'")
    return table.json()


def random_record(
    seed: int,
    players: int,
    deck: Deck = Deck(),
    *,
    breaches: bool = True,
    me: int | None = None,
    spectator: bool = False,
) -> str:
    """A random legal game in canonical English lines, from seat ``me`` (default: a random seat; the
    game itself depends only on ``seed``, ``players`` and ``deck``), or with ``spectator`` as a
    spectator writes it (no ``me`` nor ``hand``, no marker, every bidder's ``reveal``). Random
    placements and passes (under "deux cartes" a pass with a legal placement only when
    ``breaches``, then proven or not at the end), up to three bidding rounds, then ``removed``,
    every other bidder's ``reveal`` and the ``breach`` lines. Any prefix after the set-up is a record.

    >>> random_record(1, 2, Deck(forces=(1, 2), natures=("c", "e"), backgrounds=("n", "v"))).split("\\n")[:2]
    ['game tresor', 'players Ana Ben']
    """
    rng = random.Random(seed)
    names, seat = NAMES[:players], rng.randrange(players)
    me = seat if me is None else me
    cards = [kind for kind in deck.kinds for _ in range(2)]
    rng.shuffle(cards)
    hands = [Counter(cards[2 + i :: players]) for i in range(players)]
    table, lines = Replay(deck), list[str]()

    def say(line: str) -> None:
        table.line(line.split())
        lines.append(line)

    say("game tresor")
    say("players " + " ".join(names))
    if spectator:
        me = -1  # nobody's seat: no hand, every marker face down
    else:
        say(f"me {names[me]}")
        say("hand " + " ".join(name(k) for k in sorted(hands[me].elements(), key=deck.kinds.index)))
    say(f"start {name(cards[1])}")
    left = [[m for m, n in MARKER_STOCK.items() for _ in range(n)] for _ in names]
    used: list[list[str]] = [[] for _ in names]
    pass_rate, rounds, faults = rng.choice((0.02, 0.05, 0.15)), 0, []
    while not table.ended:
        p = table.turn
        options = legal_placements(table.kinds(), hands[p])
        passing = not options or rng.random() < pass_rate
        if passing and options and table.deux:
            passing = breaches and rng.random() < 0.2
            faults += [p] if passing else []
        if passing:
            say(f"{names[p]} pass")
        else:
            kind, cell, _ = rng.choice(options)
            hands[p][kind] -= 1
            say(f"{names[p]} place {name(kind)} at {cell[0]} {cell[1]}")
        callers = [q for q in range(players) if table.can_bid(q)]
        if table.ended or rounds == 3 or not callers or rng.random() > 0.1:
            continue
        rounds += 1
        say(f"{names[rng.choice(callers)]} neuro")
        assert table.round is not None
        for q in table.round.order:
            if table.can_bid(q) and (table.round.last < 0 or rng.random() < 0.5):
                base = rng.choice(sorted(b for b, n in table.bases.items() if n))
                cell = rng.choice(sorted(table.domain))
                used[q].append(left[q].pop(rng.randrange(len(left[q]))))
                say(f"{names[q]} bid {base} on {cell[0]} {cell[1]}" + (f" with {used[q][-1]}" if q == me else ""))
    say(f"removed {name(cards[0])}")
    for q in range(players):
        if q != me and used[q]:
            say(f"{names[q]} reveal " + " ".join(used[q]))
    for q in faults:
        if rng.random() < 0.5:
            say(f"{names[q]} breach")
    return "\n".join(lines) + "\n"
