"""Independent brute-force reference of the table assistant's card counting (tests only).

Written from docs/spec/{rules,table-language,outputs}.md alone, without reading the project's own
implementation, so that the two readings of the specification can be cross-checked.

A *world* is one complete assignment of the face-down cards: a count vector (5 ints, one per
character in the order of the character table) for every player's face-down hand, one for the
court, and one for the *pool*, the cards of the hands no event has touched yet (their hand is
``None``); the tracked seat's own hand is included (it is the same in every world).  Untouched
hands are a uniformly random partition of the pool, so a hand is dealt out of the pool (uniform
2-subset of its physical cards) only when an event first involves it (``lazy=False`` deals every
hand at once; the results are identical, only slower).  Worlds are kept in a
dict ``{(locations, mask): weight}`` with exact integer weights (every random step in the model is
uniform over physical cards whose number is the same in every world, so the common denominators are
dropped and probabilities are ratios of sums of weights).  ``mask`` is the set (bit mask) of
behavioural assumptions ("a player who failed a proof does not hold the claimed character among
its remaining face-down cards") that the world violates: instead of deleting such worlds they are
tagged, so that an assumption can later be dropped retroactively, exactly as if the record had been
replayed without it.  Probabilities are always taken over the worlds whose mask avoids every
assumption still in force.

``brute_replay(text)`` returns the dict that ``coup replay FILE --json`` prints; a rejected line
raises ``ValueError("line N: reason")``.
"""

from __future__ import annotations

import math
from collections import defaultdict
from fractions import Fraction
from functools import cache

__all__ = ["Replay", "brute_replay"]

BASE = ("duke", "assassin", "contessa", "captain")
DUKE, ASSASSIN, CONTESSA, CAPTAIN, EXCHANGER = range(5)
WINDOWS = ("challenge", "block", "bchallenge")
OPEN_NAMES = {"challenge": "challenge", "block": "block", "bchallenge": "block-challenge"}
SETUP_WORDS = ("players", "variant", "draft", "me", "hand", "dealt", "pick", "coins")
LANGUAGE_WORDS = set(SETUP_WORDS) | {
    "income",
    "aid",
    "foreign-aid",
    "coup",
    "tax",
    "assassinate",
    "steal",
    "exchange",
    "examine",
    "challenge",
    "block",
    "show",
    "lose",
    "swap",
    "return",
    "pass",
    "draw",
    "keep",
    "saw",
    "duke",
    "assassin",
    "contessa",
    "captain",
    "ambassador",
    "inquisitor",
    "dealt-first",
    "pick-first",
    "none",
}


# --------------------------------------------------------------------------- combinatorics


@cache
def multisubsets(counts: tuple, k: int) -> tuple:
    """Every count vector d <= counts with sum k, with the number of k-subsets of the physical
    cards (counts[c] distinguishable copies of character c) that have that composition."""
    out = []

    def rec(i, left, cur, ways):
        if i == len(counts):
            if left == 0:
                out.append((tuple(cur), ways))
            return
        for j in range(min(counts[i], left) + 1):
            cur.append(j)
            rec(i + 1, left - j, cur, ways * math.comb(counts[i], j))
            cur.pop()

    rec(0, k, [], 1)
    return tuple(out)


def add(a: tuple, b: tuple) -> tuple:
    return tuple(x + y for x, y in zip(a, b, strict=True))


def sub(a: tuple, b: tuple) -> tuple:
    return tuple(x - y for x, y in zip(a, b, strict=True))


def unit(c: int) -> tuple:
    return tuple(1 if i == c else 0 for i in range(5))


def counts_of(cards) -> tuple:
    v = [0] * 5
    for c in cards:
        v[c] += 1
    return tuple(v)


def expand(v: tuple) -> list:
    return [c for c in range(5) for _ in range(v[c])]


def setloc(locs: tuple, i: int, v: tuple) -> tuple:
    return locs[:i] + (v,) + locs[i + 1 :]


# --------------------------------------------------------------------------- the replay


class Replay:
    def __init__(self, lazy: bool = True) -> None:
        self.lazy = lazy
        self.names: list[str] | None = None
        self.variant = "ambassador"
        self.draft: str | None = None
        self.me: int | None = None
        self.hand: tuple | None = None  # tracked seat's starting hand (count vector)
        self.dealt: int | None = None
        self.pick: int | None = None
        self.coins: list[int] = []
        self.coins_set: dict[int, int] = {}
        self.started = False
        self.over = False
        self.winner: int | None = None
        # public table
        self.alive: list[bool] = []
        self.hidden: list[int] = []
        self.face_up: list[list[int]] = []
        self.turn: int | None = None
        self.act: dict | None = None
        self.stage: str | None = None
        # beliefs
        self.worlds: dict = {}
        self.active = 0  # bit mask of assumptions in force
        self.next_bit = 0
        self.assumptions: list[dict] = []  # bit index -> info
        self.claims: list[dict] = []  # recorded claims (for flags)
        self.lineno = 0

    # ------------------------------------------------------------------ helpers
    def err(self, msg: str):
        raise ValueError(f"line {self.lineno}: {msg}")

    @property
    def n(self) -> int:
        return len(self.names)

    @property
    def court(self) -> int:
        return self.n

    @property
    def pool(self) -> int:
        return self.n + 1

    def card(self, word: str) -> int:
        if word in BASE:
            return BASE.index(word)
        if word == self.variant:
            return EXCHANGER
        if word in ("ambassador", "inquisitor"):
            self.err(f"there is no {word} in the {self.variant} variant")
        self.err(f"unknown card {word!r}")

    def card_name(self, c: int) -> str:
        return BASE[c] if c < 4 else self.variant

    def player(self, word: str) -> int:
        for i, name in enumerate(self.names or []):
            if name.lower() == word:
                return i
        self.err(f"unknown player {word!r}")

    def copies(self) -> int:
        return 4 if self.n >= 7 else 3

    def is_draft(self) -> bool:
        return self.n == 2 and self.draft in ("dealt-first", "pick-first")

    # ------------------------------------------------------------------ world operations
    def transform(self, fn) -> None:
        """Replace each world by the worlds fn(locs) yields, as (new_locs, factor)."""
        out: dict = defaultdict(int)
        for (locs, mask), w in self.worlds.items():
            for nl, f in fn(locs):
                if f:
                    out[(nl, mask)] += w * f
        self.worlds = dict(out)
        self.normalise()

    def normalise(self) -> None:
        if self.worlds:
            g = math.gcd(*self.worlds.values())
            if g > 1:
                self.worlds = {k: v // g for k, v in self.worlds.items()}

    def materialize(self, p: int) -> None:
        """Deal p's hand out of the pool of untouched hands (lazy dealing).

        Until an event touches a player's hand, the hands of all untouched players are, given
        the multiset of their cards (the pool), a uniformly random partition of the pool's
        physical cards: nothing that happened so far distinguished them.  So p's hand is a
        uniformly random 2-subset of the pool, and the pool loses it."""
        P = self.pool
        if not self.worlds or next(iter(self.worlds))[0][p] is not None:
            return

        def fn(locs):
            for h, ways in multisubsets(locs[P], 2):
                yield setloc(setloc(locs, p, h), P, sub(locs[P], h)), ways

        self.transform(fn)

    def take(self, p: int, c: int):
        """Evidence that p holds a face-down c, which then leaves p's hand (filter + remove)."""
        self.materialize(p)

        def fn(locs):
            if locs[p][c] >= 1:
                yield setloc(locs, p, sub(locs[p], unit(c))), 1

        self.transform(fn)

    def filter_holds(self, p: int, c: int) -> None:
        self.materialize(p)

        def fn(locs):
            if locs[p][c] >= 1:
                yield locs, 1

        self.transform(fn)

    def to_court(self, v: tuple) -> None:
        C = self.court
        self.transform(lambda locs: [(setloc(locs, C, add(locs[C], v)), 1)])

    def random_draw(self, p: int, k: int) -> None:
        """p draws k cards from the court, each k-subset of its physical cards equally likely."""
        self.materialize(p)
        C = self.court

        def fn(locs):
            for d, ways in multisubsets(locs[C], k):
                yield setloc(setloc(locs, C, sub(locs[C], d)), p, add(locs[p], d)), ways

        self.transform(fn)

    def observed_draw(self, p: int, v: tuple) -> None:
        """The tracked seat draws exactly the cards v (an observation of the court)."""
        self.materialize(p)
        C = self.court

        def fn(locs):
            ways = 1
            for c in range(5):
                ways *= math.comb(locs[C][c], v[c])
            if ways:
                yield setloc(setloc(locs, C, sub(locs[C], v)), p, add(locs[p], v)), ways

        self.transform(fn)

    def hidden_exchange(self, p: int, k: int) -> None:
        """An exchange nobody tracked sees: draw k uniformly, keep a uniform subset of the
        physical cards of hand + drawn, the rest back to the court."""
        self.materialize(p)
        C = self.court

        def fn(locs):
            hand = locs[p]
            h = sum(hand)
            for d, wd in multisubsets(locs[C], k):
                pool = add(hand, d)
                rest = sub(locs[C], d)
                for keep, wk in multisubsets(pool, h):
                    nl = setloc(setloc(locs, p, keep), C, add(rest, sub(pool, keep)))
                    yield nl, wd * wk

        self.transform(fn)

    def hidden_swap(self, p: int) -> None:
        """Forced swap after an examine whose shown card the tracked seat did not see: the shown
        card is uniform over p's physical face-down cards; p draws, then it goes to the court."""
        self.materialize(p)
        C = self.court

        def fn(locs):
            for s in range(5):
                m = locs[p][s]
                if not m:
                    continue
                hand = sub(locs[p], unit(s))
                for x in range(5):
                    cx = locs[C][x]
                    if not cx:
                        continue
                    court = add(sub(locs[C], unit(x)), unit(s))
                    yield setloc(setloc(locs, p, add(hand, unit(x))), C, court), m * cx

        self.transform(fn)

    def weight_under(self, active: int) -> int:
        return sum(w for (locs, mask), w in self.worlds.items() if not mask & active)

    def hold_weights(self, locs: tuple, p: int, c: int) -> tuple[int, int]:
        """(ways p holds a face-down c, all ways) in this world; for an untouched hand, over
        its uniformly random 2-subsets of the pool."""
        if locs[p] is not None:
            return (1 if locs[p][c] else 0), 1
        pool = locs[self.pool]
        size = sum(pool)
        allw = math.comb(size, 2)
        return allw - math.comb(size - pool[c], 2), allw

    def prob_holds(self, p: int, c: int, active: int) -> Fraction:
        tot = hold = 0
        for (locs, mask), w in self.worlds.items():
            if mask & active:
                continue
            h, a = self.hold_weights(locs, p, c)
            tot += w * a
            hold += w * h
        return Fraction(hold, tot)

    # ------------------------------------------------------------------ assumptions
    def add_assumption(self, p: int, c: int) -> None:
        """p failed to prove c: assume no face-down c remains in p's hand (tag violators)."""
        if p == self.me or self.hidden[p] == 0:
            return  # known hand / nothing face down: the assumption says nothing
        self.materialize(p)
        bit = 1 << self.next_bit
        tagged = False
        out: dict = defaultdict(int)
        for (locs, mask), w in self.worlds.items():
            if locs[p][c]:
                mask |= bit
                tagged = True
            out[(locs, mask)] += w
        if not tagged:
            return  # no world violates it: it can never matter
        self.worlds = dict(out)
        self.next_bit += 1
        self.assumptions.append({"line": self.lineno, "player": p, "claim": c, "bit": bit})
        self.active |= bit

    def check_possible(self) -> None:
        """After each line: refuse a physically impossible table; drop the assumptions that
        cause a contradiction with a physically possible line."""
        if not self.started:
            return
        if self.weight_under(self.active) > 0:
            return
        if self.weight_under(0) == 0:
            self.err("this line is impossible with the cards in the game")
        by_mask: dict = defaultdict(int)
        for (_locs, mask), w in self.worlds.items():
            by_mask[mask & self.active] += w
        bits = [1 << i for i in range(self.next_bit) if self.active >> i & 1]

        def conflicting(t: int) -> bool:
            return all(w == 0 or m & t for m, w in by_mask.items())

        culprits = 0
        for size in range(1, len(bits) + 1):
            for t in _subsets_of_size(bits, size):
                if conflicting(t) and not any(conflicting(t & ~b) for b in bits if t & b):
                    culprits |= t  # t is a minimal set of assumptions the line contradicts
        assert culprits and self.weight_under(self.active & ~culprits) > 0
        self.active &= ~culprits
        for a in self.assumptions:
            if a["bit"] & culprits:
                a["dropped_at"] = self.lineno
        # bits no longer in force are irrelevant from now on: merge the worlds they split
        out: dict = defaultdict(int)
        for (locs, mask), w in self.worlds.items():
            out[(locs, mask & self.active)] += w
        self.worlds = dict(out)

    # ------------------------------------------------------------------ claims (flags)
    def record_claim(self, p: int, c: int) -> None:
        if p == self.me:
            return
        agg: dict = defaultdict(lambda: [0, 0])
        for (locs, mask), w in self.worlds.items():
            a = agg[mask]
            h, t = self.hold_weights(locs, p, c)
            a[1] += w * t
            a[0] += w * h
        self.claims.append({"line": self.lineno, "player": p, "claim": c, "agg": dict(agg)})

    # ------------------------------------------------------------------ set-up
    def setup(self, toks: list[str]) -> None:
        word, args = toks[0], toks[1:]
        if word == "coins":
            return self.coins_line(args)
        if self.started:
            self.err(f"{word!r} is a set-up line and the game has started")
        if word == "players":
            if self.names is not None:
                self.err("players already given")
            if not 2 <= len(args) <= 8:
                self.err("2 to 8 players")
            if len(set(args)) != len(args):
                self.err("player names must be distinct")
            for a in args:
                if a in LANGUAGE_WORDS or not all(ch.isalnum() or ch in "-_" for ch in a):
                    self.err(f"{a!r} cannot be a player name")
            raw = self.raw_tokens[1:]
            self.names = raw
            self.coins = [2] * len(raw)
            if len(raw) == 2:
                self.coins[0] = 1
                self.draft = "dealt-first"
            return
        if self.names is None:
            self.err("players must come first")
        if word == "variant":
            if len(args) != 1 or args[0] not in ("ambassador", "inquisitor"):
                self.err("variant ambassador or inquisitor")
            self.variant = args[0]
        elif word == "draft":
            if self.n != 2:
                self.err("draft is for 2 players only")
            if len(args) != 1 or args[0] not in ("dealt-first", "pick-first", "none"):
                self.err("draft dealt-first, pick-first or none")
            self.draft = args[0]
        elif word == "me":
            if len(args) != 1:
                self.err("me NAME")
            self.me = self.player(args[0])
        elif word == "hand":
            if self.me is None:
                self.err("hand needs me first")
            if self.is_draft():
                self.err("in the draft, give dealt and pick")
            if len(args) != 2:
                self.err("hand needs 2 cards")
            self.hand = counts_of(self.card(a) for a in args)
        elif word in ("dealt", "pick"):
            if self.me is None:
                self.err(f"{word} needs me first")
            if not self.is_draft():
                self.err(f"{word} is for the 2-player draft")
            if len(args) != 1:
                self.err(f"{word} CARD")
            setattr(self, word, self.card(args[0]))

    def coins_line(self, args: list[str]) -> None:
        if self.names is None:
            self.err("players must come first")
        if len(args) != 2 or not args[1].isdigit():
            self.err("coins NAME N")
        p = self.player(args[0])
        if not self.started:
            self.coins[p] = int(args[1])
            return
        self.in_game(("coins", p, int(args[1])))

    def start(self) -> None:
        if self.names is None:
            self.err("no players")
        n = self.n
        if self.me is not None:
            if self.is_draft():
                if self.dealt is None or self.pick is None:
                    self.err("the table waits for the tracked seat's dealt and pick cards")
                self.hand = counts_of([self.dealt, self.pick])
            elif self.hand is None:
                self.err("the table waits for the tracked seat's hand")
        copies = self.copies()
        if self.hand is not None and max(self.hand) > copies:
            self.err("more copies than the deck holds")
        self.alive = [True] * n
        self.hidden = [2] * n
        self.face_up = [[] for _ in range(n)]
        self.turn = 0
        self.started = True
        self.worlds = self.prior()

    def prior(self) -> dict:
        """The deal, as worlds ``(hands..., court, pool)``.  Outside the draft, the court is
        dealt first and every hand other than the tracked seat's is left in the pool of
        untouched hands (see materialize); ``lazy=False`` deals every hand at once."""
        n = self.n
        empty = (0,) * 5
        worlds: dict = defaultdict(int)
        if self.is_draft():
            pack = (1,) * 5
            if self.me is not None:
                o = 1 - self.me
                for d in range(5):  # the opponent's dealt card: uniform over the other four
                    if d == self.dealt:
                        continue
                    for p in range(5):  # its pick: uniform over its pack, independent
                        locs = [None, None, sub(sub(pack, unit(self.dealt)), unit(d)), empty]
                        locs[self.me] = self.hand
                        locs[o] = add(unit(d), unit(p))
                        worlds[(tuple(locs), 0)] += 1
            else:
                for d0 in range(5):
                    for d1 in range(5):
                        if d1 == d0:
                            continue
                        for p0 in range(5):
                            for p1 in range(5):
                                court = sub(sub(pack, unit(d0)), unit(d1))
                                hands = (add(unit(d0), unit(p0)), add(unit(d1), unit(p1)))
                                worlds[(hands + (court, empty), 0)] += 1
            return dict(worlds)
        rem = (self.copies(),) * 5
        if self.me is not None:
            rem = sub(rem, self.hand)
        court_size = sum(rem) - 2 * (n - (self.me is not None))
        for court, ways in multisubsets(rem, court_size):
            locs = tuple(self.hand if i == self.me else None for i in range(n))
            worlds[(locs + (court, sub(rem, court)), 0)] += ways
        self.worlds = dict(worlds)
        if not self.lazy:
            for i in range(n):
                self.materialize(i)
        return self.worlds

    # ------------------------------------------------------------------ parsing in-game lines
    def parse(self, toks: list[str]):
        w = toks[0]
        if w == "pass":
            if len(toks) != 1:
                self.err("pass takes no words")
            return ("pass",)
        if w in ("draw", "keep"):
            if not 2 <= len(toks) <= 3:
                self.err(f"{w} CARD [CARD]")
            return (w, counts_of(self.card(t) for t in toks[1:]))
        if w == "saw":
            if len(toks) != 2:
                self.err("saw CARD")
            return ("saw", self.card(toks[1]))
        p = self.player(w)
        if len(toks) < 2:
            self.err("a player's line needs a verb")
        v, args = toks[1], toks[2:]

        def want(k):
            if len(args) != k:
                self.err(f"wrong number of words for {v}")

        if v == "income":
            want(0)
            return (p, "income")
        if v in ("aid", "foreign-aid"):
            want(0)
            return (p, "aid")
        if v == "coup":
            want(1)
            return (p, "coup", self.player(args[0]))
        if v in ("tax", "duke"):
            want(0)
            return (p, "tax")
        if v in ("assassinate", "assassin"):
            want(1)
            return (p, "assassinate", self.player(args[0]))
        if v in ("steal", "captain"):
            want(1)
            return (p, "steal", self.player(args[0]))
        if v in ("exchange", "ambassador", "inquisitor"):
            if v != "exchange" and v != self.variant:
                self.err(f"there is no {v} in the {self.variant} variant")
            if v == "inquisitor" and len(args) == 1:
                return (p, "examine", self.player(args[0]))
            want(0)
            return (p, "exchange")
        if v == "examine":
            want(1)
            if self.variant != "inquisitor":
                self.err("examine needs the inquisitor variant")
            return (p, "examine", self.player(args[0]))
        if v == "challenge":
            want(0)
            return (p, "challenge")
        if v == "block":
            want(1)
            return (p, "block", self.card(args[0]))
        if v == "show":
            if len(args) > 1:
                self.err("show [CARD]")
            return (p, "show", self.card(args[0]) if args else None)
        if v == "lose":
            want(1)
            return (p, "lose", self.card(args[0]))
        if v in ("swap", "return"):
            want(0)
            return (p, v)
        self.err(f"unknown word {v!r}")

    # ------------------------------------------------------------------ the turn machine
    def in_game(self, ev) -> None:
        if self.over:
            self.err("the game is over")
        if not self.started:
            self.start()
        while self.stage in WINDOWS:
            if self.window_accepts(ev):
                self.window_respond(ev)
                return
            self.close_window()  # implicit pass
            if self.over:
                self.err("the game is over")
        if ev[0] == "pass":
            self.err("pass: no window is open")
        if self.act is not None:
            self.owed(ev)
        elif ev[0] == "coins":
            self.coins[ev[1]] = ev[2]
        else:
            self.new_action(ev)

    def claimant(self) -> tuple[int, int]:
        a = self.act
        if self.stage in ("challenge", "ch_show", "ch_after"):
            return a["actor"], a["claim"]
        return a["blocker"], a["block_claim"]

    def block_options(self) -> tuple[list[int], tuple]:
        a = self.act
        k = a["kind"]
        if k == "aid":
            return [i for i in range(self.n) if self.alive[i] and i != a["actor"]], (DUKE,)
        if k == "assassinate":
            return ([a["target"]] if self.alive[a["target"]] else []), (CONTESSA,)
        if k == "steal":
            return ([a["target"]] if self.alive[a["target"]] else []), (CAPTAIN, EXCHANGER)
        return [], ()

    def window_accepts(self, ev) -> bool:
        if ev[0] == "pass":
            return True
        if len(ev) < 2 or not isinstance(ev[0], int):
            return False
        p, verb = ev[0], ev[1]
        if self.stage in ("challenge", "bchallenge"):
            claimant, _ = self.claimant()
            return verb == "challenge" and self.alive[p] and p != claimant
        if self.stage == "block":
            who, cards = self.block_options()
            return verb == "block" and p in who and ev[2] in cards
        return False

    def window_respond(self, ev) -> None:
        if ev[0] == "pass":
            self.close_window()
            return
        p, verb = ev[0], ev[1]
        if verb == "challenge":
            self.act["challenger"] = p
            self.stage = "ch_show" if self.stage == "challenge" else "bch_show"
        else:  # block
            self.record_claim(p, ev[2])
            self.act["blocker"] = p
            self.act["block_claim"] = ev[2]
            self.stage = "bchallenge"

    def close_window(self) -> None:
        if self.stage == "challenge":
            self.block_or_effect()
        elif self.stage == "block":
            self.effect()
        elif self.stage == "bchallenge":
            self.end_turn()  # the block stands

    def block_or_effect(self) -> None:
        who, _ = self.block_options()
        if who:
            self.stage = "block"
        else:
            self.effect()

    def new_action(self, ev) -> None:
        if ev[0] in ("draw", "keep", "saw") or ev[1] not in (
            "income",
            "aid",
            "coup",
            "tax",
            "assassinate",
            "steal",
            "exchange",
            "examine",
        ):
            self.err("nothing is waiting for this line")
        p, kind = ev[0], ev[1]
        target = ev[2] if len(ev) > 2 else None
        if p != self.turn:
            self.err(f"it is {self.names[self.turn]}'s turn")
        if self.coins[p] >= 10 and kind != "coup":
            self.err("with 10 coins or more one must coup")
        if target is not None and (target == p or not self.alive[target]):
            self.err("the target must be another living player")
        cost = {"coup": 7, "assassinate": 3}.get(kind, 0)
        if self.coins[p] < cost:
            self.err("not enough coins")
        if kind == "examine" and self.variant != "inquisitor":
            self.err("examine needs the inquisitor variant")
        claim = {
            "tax": DUKE,
            "assassinate": ASSASSIN,
            "steal": CAPTAIN,
            "exchange": EXCHANGER,
            "examine": EXCHANGER,
        }.get(kind)
        self.coins[p] -= cost
        self.act = {"kind": kind, "actor": p, "target": target, "claim": claim, "cost": cost}
        if claim is not None:
            self.record_claim(p, claim)
            self.stage = "challenge"
        elif kind == "aid":
            self.stage = "block"
        else:
            self.effect()

    def effect(self) -> None:
        a = self.act
        k, p, t = a["kind"], a["actor"], a["target"]
        self.stage = "effect"
        if k == "income":
            self.coins[p] += 1
        elif k == "aid":
            self.coins[p] += 2
        elif k == "tax":
            self.coins[p] += 3
        elif k == "steal":
            if self.alive[t]:
                got = min(2, self.coins[t])
                self.coins[t] -= got
                self.coins[p] += got
        elif k in ("coup", "assassinate"):
            if self.alive[t]:
                self.stage = "target_lose"
                return
        elif k == "exchange":
            draws = 2 if self.variant == "ambassador" else 1
            if p == self.me:
                self.stage = "ex_draw"
                return
            self.hidden_exchange(p, draws)
        elif k == "examine" and self.alive[t]:
            self.stage = "ex_show"
            a["bare_show"] = False
            return
        self.end_turn()

    def end_turn(self) -> None:
        actor = self.act["actor"]
        self.act = None
        self.stage = None
        if self.over:
            return
        i = actor
        for _ in range(self.n):
            i = (i + 1) % self.n
            if self.alive[i]:
                self.turn = i
                return

    def lose_card(self, p: int, c: int) -> None:
        if not self.alive[p] or self.hidden[p] == 0:
            self.err(f"{self.names[p]} has no face-down card")
        if p == self.me and not self.hand_now()[c]:
            self.err(f"{self.names[p]} has no {self.card_name(c)}")
        self.take(p, c)
        self.face_up[p].append(c)
        self.hidden[p] -= 1
        if self.hidden[p] == 0:
            self.alive[p] = False
            self.coins[p] = 0
            living = [i for i in range(self.n) if self.alive[i]]
            if len(living) == 1:
                self.over = True
                self.winner = living[0]
                self.act = None
                self.stage = None
                self.turn = None

    def hand_now(self) -> tuple:
        for locs, _mask in self.worlds:
            return locs[self.me]
        return (0,) * 5

    def owed(self, ev) -> None:
        a = self.act
        st = self.stage
        who = ev[0] if isinstance(ev[0], int) else None
        verb = ev[1] if who is not None else ev[0]
        if st in ("ch_show", "bch_show"):
            claimant, claim = self.claimant()
            if who == claimant and verb == "show":
                if ev[2] != claim:
                    self.err(f"the claim was {self.card_name(claim)}")
                self.prove(claimant, claim)
                self.stage = "ch_after" if st == "ch_show" else "bch_after"
                return
            if who == claimant and verb == "lose":
                self.lose_card(claimant, ev[2])
                if self.over:
                    return
                self.add_assumption(claimant, claim)
                if st == "ch_show":  # the action is cancelled; an eliminated claimant's refund
                    # goes to the treasury with the rest of its coins (fixed by the main engineer)
                    if self.alive[claimant]:
                        self.coins[claimant] += a["cost"] if a["kind"] == "assassinate" else 0
                    self.end_turn()
                else:  # the block fails, the action goes on
                    self.effect()
                return
            self.err(f"waiting for {self.names[claimant]} to show or lose")
        if st in ("ch_after", "bch_after"):
            if who == a["challenger"] and verb == "lose" and not a.get("lost"):
                a["lost"] = True
                self.lose_card(who, ev[2])
                if self.over:
                    return
            elif verb == "draw" and who is None and a.get("need_draw"):
                if sum(ev[1]) != 1:
                    self.err("draw one replacement card")
                a["need_draw"] = False
                self.observed_draw(self.me, ev[1])
            else:
                self.err("waiting for the challenger's lose or the replacement draw")
            if a.get("lost") and not a.get("need_draw"):
                a["lost"] = False
                if st == "ch_after":
                    self.block_or_effect()
                else:
                    self.end_turn()  # the block stands
            return
        if st == "target_lose":
            if who == a["target"] and verb == "lose":
                self.lose_card(who, ev[2])
                if not self.over:
                    self.end_turn()
                return
            self.err(f"waiting for {self.names[a['target']]} to lose an influence")
        if st == "ex_draw":
            draws = 2 if self.variant == "ambassador" else 1
            if verb == "draw" and who is None and sum(ev[1]) == draws:
                self.observed_draw(self.me, ev[1])
                self.stage = "ex_keep"
                return
            self.err(f"waiting for the tracked seat's draw of {draws}")
        if st == "ex_keep":
            if verb == "keep" and who is None and sum(ev[1]) == self.hidden[self.me]:
                pool = self.hand_now()
                keep = ev[1]
                if any(k > h for k, h in zip(keep, pool, strict=True)):
                    self.err("kept cards must come from the hand and the draw")
                back = sub(pool, keep)
                C, me = self.court, self.me
                self.transform(lambda locs: [(setloc(setloc(locs, me, keep), C, add(locs[C], back)), 1)])
                self.end_turn()
                return
            self.err("waiting for the tracked seat's keep")
        if st == "ex_show":
            t, p = a["target"], a["actor"]
            if t == self.me:
                if who == t and verb == "show" and ev[2] is not None:
                    if not self.hand_now()[ev[2]]:
                        self.err(f"{self.names[t]} has no {self.card_name(ev[2])}")
                    a["shown"] = ev[2]
                    self.stage = "ex_decide"
                    return
                self.err(f"waiting for {self.names[t]} to show a card")
            if who == t and verb == "show" and ev[2] is None and not a["bare_show"]:
                a["bare_show"] = True
                if p != self.me:
                    self.stage = "ex_decide"
                return
            if who == t and verb == "show":
                self.err("the card shown is written only when the tracked seat is examined")
            if p == self.me:
                if verb == "saw":
                    self.filter_holds(t, ev[1])
                    a["shown"] = ev[1]
                    self.stage = "ex_decide"
                    return
                self.err("waiting for saw CARD")
            self.stage = "ex_decide"  # the bare show is optional
            st = "ex_decide"
        if st == "ex_decide":
            t, p = a["target"], a["actor"]
            if who == p and verb in ("swap", "return"):
                if verb == "return":
                    self.end_turn()
                elif t == self.me:
                    self.stage = "ex_swapdraw"
                elif p == self.me:
                    s = a["shown"]
                    self.take(t, s)
                    self.random_draw(t, 1)
                    self.to_court(unit(s))
                    self.end_turn()
                else:
                    self.hidden_swap(t)
                    self.end_turn()
                return
            self.err(f"waiting for {self.names[p]} to swap or return")
        if st == "ex_swapdraw":
            if verb == "draw" and who is None and sum(ev[1]) == 1:
                s = a["shown"]
                self.observed_draw(self.me, ev[1])  # draw first ...
                self.take(self.me, s)  # ... then the shown card goes to the court
                self.to_court(unit(s))
                self.end_turn()
                return
            self.err("waiting for the tracked seat's new card")
        self.err("unexpected line")

    def prove(self, p: int, c: int) -> None:
        """p shows c: it goes into the court, p draws a replacement (observed if p is tracked)."""
        if p == self.me:
            if not self.hand_now()[c]:
                self.err(f"{self.names[p]} has no {self.card_name(c)}")
            self.take(p, c)
            self.to_court(unit(c))
            self.act["need_draw"] = True
        else:
            self.take(p, c)
            self.to_court(unit(c))
            self.random_draw(p, 1)

    # ------------------------------------------------------------------ entry point
    def feed(self, lineno: int, raw: str) -> None:
        self.lineno = lineno
        line = raw.split("#", 1)[0].strip()
        if not line:
            return
        self.raw_tokens = line.split()
        toks = line.lower().split()
        if toks[0] in SETUP_WORDS:
            self.setup(toks)
        else:
            if self.names is None:
                self.err("players must come first")
            self.in_game(self.parse(toks))
        self.check_possible()

    # ------------------------------------------------------------------ output
    def waiting(self) -> str | None:
        if self.over or self.act is None or self.stage in WINDOWS:
            if not self.started and self.names is not None and self.me is not None:
                if self.is_draft() and (self.dealt is None or self.pick is None):
                    return f"{self.names[self.me]}'s dealt and picked cards"
                if not self.is_draft() and self.hand is None:
                    return f"{self.names[self.me]}'s hand"
            return None
        a, st = self.act, self.stage
        nm = self.names
        if st in ("ch_show", "bch_show"):
            return f"{nm[self.claimant()[0]]} shows or loses"
        if st in ("ch_after", "bch_after"):
            return f"{nm[a['challenger']]} loses an influence / replacement draw"
        if st == "target_lose":
            return f"{nm[a['target']]} loses an influence"
        if st in ("ex_draw", "ex_keep", "ex_swapdraw"):
            return f"{nm[self.me]} {st[3:]}s"
        if st == "ex_show":
            return f"{nm[a['target']]} shows a card"
        if st == "ex_decide":
            return f"{nm[a['actor']]} swaps or returns"
        return st

    def result(self) -> dict:
        if self.names is None:
            raise ValueError("empty record")
        waiting = self.waiting()
        if not self.started:
            self.start_for_output()
        n = self.n
        copies = self.copies()
        unseen = [copies] * 5
        for i in range(n):
            for c in self.face_up[i]:
                unseen[c] -= 1
        if self.me is not None:
            mine = self.hand_now()
            unseen = [u - m for u, m in zip(unseen, mine, strict=True)]
            if self.is_draft():
                unseen = [u - (0 if c == self.pick else 1) for c, u in enumerate(unseen)]
        cn = [self.card_name(c) for c in range(5)]
        players = []
        for i in range(n):
            d = {
                "name": self.names[i],
                "coins": self.coins[i],
                "alive": self.alive[i],
                "hidden": self.hidden[i],
                "face_up": [cn[c] for c in self.face_up[i]],
            }
            if i == self.me:
                d["cards"] = [cn[c] for c in expand(self.hand_now())] if self.alive[i] else []
            elif self.alive[i] and self.worlds:
                d["holds"] = {cn[c]: str(self.prob_holds(i, c, self.active)) for c in range(5)}
            players.append(d)
        flags = []
        for cl in self.claims:
            prob = self.claim_prob(cl, self.active)
            if prob >= Fraction(1, 4):
                continue
            level = "impossible" if prob == 0 else "unlikely"
            raw = self.claim_prob(cl, 0)
            same = raw == 0 if prob == 0 else raw < Fraction(1, 4)
            flags.append(
                {
                    "line": cl["line"],
                    "player": self.names[cl["player"]],
                    "claim": cn[cl["claim"]],
                    "probability": str(prob),
                    "level": level,
                    "because": "count" if same else "assumption",
                }
            )
        out = {
            "variant": self.variant,
            "me": self.names[self.me] if self.me is not None else None,
            "turn": None if self.over else self.names[self.act["actor"] if self.act else self.turn],
            "waiting": waiting,
            "open": OPEN_NAMES.get(self.stage) if not self.over else None,
            "unseen": dict(zip(cn, unseen, strict=True)),
            "players": players,
            "flags": flags,
        }
        if self.over:
            out["winner"] = self.names[self.winner]
        return out

    def start_for_output(self) -> None:
        """A record of set-up lines only: the table before the first action.  If the tracked
        seat's cards are still owed there are no beliefs yet (holds are left out)."""
        try:
            self.start()
        except ValueError:
            self.alive = [True] * self.n
            self.hidden = [2] * self.n
            self.face_up = [[] for _ in range(self.n)]
            self.turn = 0
            self.worlds = {}

    @staticmethod
    def claim_prob(cl: dict, active: int) -> Fraction:
        hold = tot = 0
        for mask, (h, t) in cl["agg"].items():
            if not mask & active:
                hold += h
                tot += t
        return Fraction(hold, tot)


def _subsets_of_size(bits: list[int], size: int):
    from itertools import combinations

    for combo in combinations(bits, size):
        t = 0
        for b in combo:
            t |= b
        yield t


def brute_replay(text: str, lazy: bool = True) -> dict:
    """Replay a record and return the table after its last line, as `coup replay --json`.

    ``lazy=False`` deals every hand at the start (slower; the same result)."""
    r = Replay(lazy=lazy)
    for i, raw in enumerate(text.splitlines(), start=1):
        r.feed(i, raw)
    return r.result()
