"""The turn machine: legal moves, apply and chance outcomes (who decides and the returns are
:mod:`solver.game`'s, written once).

Functions here take a :class:`~solver.treasure.state.State` and never change it; the state's
methods call them. One handler per phase and kind of move; every number comes from
:mod:`solver.treasure.rules`.

Unknown cards and markers are wildcards: a player whose hand holds unknown cards may place any
kind not already seen twice (the card then replaces an unknown one), and may pass under "deux
cartes" (the pass is remembered as a *suspect* one, which the table may prove a breach at the
end); a bid may be made with a face-down (unknown) marker, revealed at the end.

>>> from solver.treasure.state import State
>>> s = State.from_text("tresor deck=1x2x2 Ana:5:1cn1ev1ev:0111NBF Ben:5:???:??????? "
...                     "removed=? domain=0,0:1cv phase=turn mover=Ana")
>>> [m.text(s.names) for m in s.legal_moves()][:2], len(s.legal_moves())
(['Ana place 1cn at -1 0', 'Ana place 1cn at 0 -1'], 9)
>>> s = s.apply(Move(Kind.PASS, 0))
>>> s.turn.phase, s.vp
(Phase.REMOVED, (4, 5))
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from fractions import Fraction
from itertools import permutations
from typing import TypeVar

from ..errors import IllegalMove
from ..game import NOBODY
from .bids import Bid, unused_markers
from .cards import COPIES, UNKNOWN, Card
from .domain import Domain
from .messages import MOVE_WORDS, out_of_turn, waiting_for
from .moves import FIELDS, Kind, Move
from .rules import BREACH_VP, EXTRA_CARD_VP, MARKERS, PASS_VP, Marker, emptying_bonus
from .state import CHANCE_PHASES, Phase, State, Turn

T = TypeVar("T")

# -- small helpers -----------------------------------------------------------------------------------


def _replace(values: tuple[T, ...], seat: int, value: T) -> tuple[T, ...]:
    return values[:seat] + (value,) + values[seat + 1 :]


def _add(values: tuple[int, ...], seat: int, delta: int) -> tuple[int, ...]:
    return _replace(values, seat, values[seat] + delta)


def _without(items: tuple[T, ...], item: T) -> tuple[T, ...]:
    i = items.index(item)
    return items[:i] + items[i + 1 :]


def _illegal(message: str, s: State, move: Move) -> IllegalMove:
    error = IllegalMove(message, input=move.text(s.names))
    error.move, error.state = move, s
    return error


def _dealt_to(s: State) -> int:
    """The seat the next card of the deal goes to: clockwise from the first player."""
    return sum(map(len, s.hands)) % len(s.names)


# -- legal moves ---------------------------------------------------------------------------------


def _possible_kinds(s: State, hand: tuple[Card, ...]) -> list[Card]:
    """The kinds a hand may hold: its known cards, and any kind not seen twice if it holds unknown ones."""
    kinds = {c for c in hand if c.known}
    if UNKNOWN in hand:
        kinds.update(s.unseen())
    return sorted(kinds)


def placements(s: State, seat: int) -> tuple[Move, ...]:
    """Every legal placement of ``seat``'s cards (any kind it may hold), by card then cell."""
    return tuple(
        Move(Kind.PLACE, seat, card, r, c)
        for card in _possible_kinds(s, s.hands[seat])
        for (r, c), _ in s.domain.placements(card)
    )


def _forced(s: State, seat: int, moves: tuple[Move, ...]) -> Move | None:
    """Under deux cartes, a placement of one of ``seat``'s known cards that forbids passing."""
    if not s.deux_cartes():
        return None
    hand = s.hands[seat]
    return next((m for m in moves if m.card in hand), None)


def _bid_markers(s: State, seat: int) -> list[Marker]:
    """The markers ``seat`` may bid with: its known unused ones, and when some are face down,
    any marker they may be, or a face-down one."""
    held = s.markers[seat]
    found: set[Marker] = {m for m in held if m is not Marker.UNKNOWN}
    if Marker.UNKNOWN in held:
        left = unused_markers(held, (b.marker for b in s.bids if b.player == seat))
        assert left is not None
        found.update(m for m, count in left.items() if count > 0)
        found.add(Marker.UNKNOWN)
    return sorted(found)


def _bids(s: State, seat: int) -> tuple[Move, ...]:
    markers = _bid_markers(s, seat)
    moves = tuple(
        Move(Kind.BID, seat, row=t.row, col=t.col, base=base, markers=(m,))
        for base in sorted(set(s.cartons))
        for t in s.domain.tiles
        for m in markers
    )
    return moves if seat == s.turn.caller else (*moves, Move(Kind.NO_BID, seat))


def _reveals(s: State, seat: int) -> tuple[Move, ...]:
    """Every way ``seat``'s face-down bid markers may turn out, the known ones kept."""
    used = [b.marker for b in s.bids if b.player == seat]
    known: Counter[Marker] = Counter(m for m in (*used, *s.markers[seat]) if m is not Marker.UNKNOWN)
    pool = Counter(MARKERS) - known
    slots = used.count(Marker.UNKNOWN)
    moves = []
    for filling in sorted(set(permutations(pool.elements(), slots))):
        it = iter(filling)
        markers = tuple(next(it) if m is Marker.UNKNOWN else m for m in used)
        moves.append(Move(Kind.REVEAL, seat, markers=markers))
    return tuple(moves)


def legal_moves(s: State) -> tuple[Move, ...]:
    """Every legal move in a fixed order; at a chance node, the outcomes; none once over."""
    t = s.turn
    phase = t.phase
    seat = t.decider
    if phase is Phase.TURN:
        moves = placements(s, seat)
        return moves if _forced(s, seat, moves) else (*moves, Move(Kind.PASS, seat))
    if phase is Phase.NEURO:
        return (Move(Kind.NEURO, seat), Move(Kind.NO_NEURO, seat))
    if phase is Phase.BID:
        return _bids(s, seat)
    if phase is Phase.REVEAL:
        return _reveals(s, seat)
    if phase is Phase.BREACH:
        return (Move(Kind.BREACH, seat), Move(Kind.NO_BREACH, seat))
    if phase is Phase.OVER:
        return ()
    return tuple(move for move, _ in chance_outcomes(s))


# -- chance ---------------------------------------------------------------------------------------

_SETUP_KIND = {Phase.REMOVE: Kind.REMOVE, Phase.START: Kind.START, Phase.DEAL: Kind.DEAL}


def chance_outcomes(s: State) -> list[tuple[Move, Fraction]]:
    """At a chance node, every outcome and its exact probability; raises IllegalMove elsewhere.

    The set-up draws a card of the stock uniformly; at the end, the removed card, if unknown,
    is each unseen kind with its share of the unseen copies."""
    phase = s.turn.phase
    kind = _SETUP_KIND.get(phase)
    if kind is not None:
        seat = _dealt_to(s) if kind is Kind.DEAL else NOBODY
        counts = Counter(s.stock)
        total = len(s.stock)
        return [(Move(kind, seat, card), Fraction(count, total)) for card, count in sorted(counts.items())]
    if phase is Phase.REMOVED:
        assert s.removed is not None
        if s.removed.known:
            return [(Move(Kind.REMOVED, card=s.removed), Fraction(1))]
        unseen = s.unseen()
        total = sum(unseen.values())
        return [(Move(Kind.REMOVED, card=card), Fraction(count, total)) for card, count in unseen.items()]
    raise IllegalMove(f"no chance event now: the table waits for {waiting_for(s)}")


def sample_chance(s: State, rng: random.Random) -> Move:
    """Draw one chance outcome with the probabilities of :func:`chance_outcomes` (the set-up
    draws a physical card of the stock)."""
    kind = _SETUP_KIND.get(s.turn.phase)
    if kind is not None and s.stock:
        seat = _dealt_to(s) if kind is Kind.DEAL else NOBODY
        return Move(kind, seat, s.stock[int(rng.random() * len(s.stock))])
    outcomes = chance_outcomes(s)
    x = Fraction(rng.random())
    for move, p in outcomes:
        if x < p:
            return move
        x -= p
    return outcomes[-1][0]


# -- apply ----------------------------------------------------------------------------------------


def apply(s: State, move: Move) -> State:
    """Return the state after ``move``. Raises :class:`IllegalMove` with the reason in words."""
    t = s.turn
    handler = _HANDLERS.get((t.phase, move.kind))
    if handler is None or (t.phase not in CHANCE_PHASES and move.player != t.decider):
        raise _illegal(out_of_turn(s, move), s, move)
    if not move.well_formed():
        fields = ", ".join(FIELDS.get(move.kind, ("player",)))
        raise _illegal(f"to {MOVE_WORDS[move.kind]}, a move names {fields} and nothing else", s, move)
    try:
        return handler(s, move)
    except IllegalMove as error:
        error.move, error.state = move, s
        if error.input is None:
            error.input = move.text(s.names)
        raise


Handler = Callable[[State, Move], State]


def _setup_card(s: State, move: Move) -> tuple[Card, tuple[Card, ...]]:
    card = move.card
    if card is None or card not in s.stock:
        raise IllegalMove(f"there is no {card} left to {MOVE_WORDS[move.kind].split()[0]}")
    return card, _without(s.stock, card)


def _remove(s: State, move: Move) -> State:
    card, stock = _setup_card(s, move)
    return s._replace(removed=card, stock=stock, turn=Turn(Phase.START))


def _start(s: State, move: Move) -> State:
    card, stock = _setup_card(s, move)
    s = s._replace(domain=Domain.start(card), stock=stock, turn=Turn(Phase.DEAL))
    return s if stock else _begin(s)


def _deal(s: State, move: Move) -> State:
    seat = _dealt_to(s)
    if move.player != seat:
        raise IllegalMove(f"the next card of the deal goes to {s.names[seat]}")
    card, stock = _setup_card(s, move)
    hands = _replace(s.hands, seat, tuple(sorted((*s.hands[seat], card))))
    s = s._replace(hands=hands, stock=stock)
    return s if stock else _begin(s)


def _begin(s: State) -> State:
    """The deal is over: +1 VP for every player dealt one card more than the fewest, then the
    first player's turn (or the end, if at most one player holds cards)."""
    fewest = min(len(h) for h in s.hands)
    vp = tuple(v + (EXTRA_CARD_VP if len(h) > fewest else 0) for v, h in zip(s.vp, s.hands, strict=True))
    s = s._replace(vp=vp)
    if len(s.holders()) <= 1:
        return _end(s)
    return s._replace(turn=Turn(Phase.TURN, 0, 0))


def _place(s: State, move: Move) -> State:
    seat, card, row, col = move.player, move.card, move.row, move.col
    who = s.names[seat]
    assert card is not None
    if not card.known or not s.deck.has(card):
        raise IllegalMove(f"{who} must name a card of the deck to place")
    hand = s.hands[seat]
    if card in hand:
        rest = _without(hand, card)
    elif UNKNOWN in hand:
        if s.known_cards()[card] >= COPIES:
            raise IllegalMove(f"both {card} are already seen: {who} cannot hold one")
        rest = _without(hand, UNKNOWN)
    else:
        raise IllegalMove(f"{who} holds no {card} (hand: {' '.join(map(str, hand)) or 'none'})")
    refusal = s.domain.refusal(card, row, col)
    if refusal is not None:
        raise IllegalMove(refusal)
    gain = s.domain.points(card, row, col)
    if not rest:
        gain += emptying_bonus(sum(1 for h in s.hands if not h))
    s = s._replace(
        hands=_replace(s.hands, seat, rest),
        vp=_add(s.vp, seat, gain),
        domain=s.domain.place(card, row, col, seat),
        passes=0,
    )
    return _after_turn(s, seat)


def _pass(s: State, move: Move) -> State:
    seat = move.player
    suspects = s.suspects
    if s.deux_cartes():
        moves = placements(s, seat)
        forced = _forced(s, seat, moves)
        if forced is not None:
            where = f"{forced.card} fits at {forced.row} {forced.col}"
            raise IllegalMove(f"deux cartes: {s.names[seat]} must place when they can ({where})")
        if moves:  # face-down cards that might have fitted: the table may prove a breach at the end
            suspects = _add(suspects, seat, 1)
    s = s._replace(vp=_add(s.vp, seat, PASS_VP), passes=s.passes + 1, suspects=suspects)
    return _after_turn(s, seat)


def _after_turn(s: State, mover: int) -> State:
    """After a placement or a pass: the end, else the neuro window, else the next turn."""
    if s.passes >= len(s.holders()) - 1:
        return _end(s)
    window = _window(s, mover)
    if window:
        return s._replace(turn=Turn(Phase.NEURO, mover, window[0]))
    return _next_turn(s, mover)


def _window(s: State, mover: int) -> list[int]:
    """Who may call neuro after ``mover``'s turn, nearest clockwise first (the mover last):
    every player with an unused marker, while a base carton is left."""
    if not s.cartons:
        return []
    n = len(s.names)
    seats = ((mover + k) % n for k in range(1, n + 1))
    return [seat for seat in seats if s.markers[seat]]


def _next_turn(s: State, after: int) -> State:
    n = len(s.names)
    seat = next((after + k) % n for k in range(1, n + 1) if s.hands[(after + k) % n])
    return s._replace(turn=Turn(Phase.TURN, seat, seat))


def next_mover(s: State) -> int | None:
    """The seat whose turn it is or comes next: the mover while they place or pass; during the
    neuro window and the bidding round after a turn, the next player clockwise holding cards;
    None during the set-up and once the building of the domain is over.

    >>> from solver.treasure.state import State
    >>> s = State.from_text("tresor deck=1x2x2 Ana:5:1cn1ev1ev:0111NBF Ben:5:???:??????? "
    ...                     "removed=? domain=0,0:1cv phase=turn mover=Ana")
    >>> s = s.apply(Move(Kind.PLACE, 0, Card.parse("1cn"), 0, 1))
    >>> s.turn.phase, next_mover(s)
    (Phase.NEURO, 1)
    """
    t = s.turn
    if t.phase is Phase.TURN:
        return t.mover
    if t.phase in (Phase.NEURO, Phase.BID):
        return _next_turn(s, t.mover).turn.mover
    return None


def _neuro(s: State, move: Move) -> State:
    t = s.turn
    return s._replace(turn=Turn(Phase.BID, t.mover, move.player, move.player))


def _no_neuro(s: State, move: Move) -> State:
    t = s.turn
    window = _window(s, t.mover)
    later = window[window.index(move.player) + 1 :]
    if later:
        return s._replace(turn=Turn(Phase.NEURO, t.mover, later[0]))
    return _next_turn(s, t.mover)


def _bid(s: State, move: Move) -> State:
    seat, base, row, col, marker = move.player, move.base, move.row, move.col, move.marker
    who = s.names[seat]
    if base not in s.cartons:
        left = " ".join(map(str, s.cartons))
        raise IllegalMove(f"no base carton {base} is left (left: {left})")
    if s.domain.at(row, col) is None:
        raise IllegalMove(f"there is no domain card at {row} {col} to bid on")
    held = s.markers[seat]
    if marker in held:
        rest = _without(held, marker)
    elif Marker.UNKNOWN in held and marker in _bid_markers(s, seat):
        rest = _without(held, Marker.UNKNOWN)
    elif marker is Marker.UNKNOWN:
        raise IllegalMove(f"{who}'s markers are known: name the marker (0, 1, nature, fond or force)")
    else:
        raise IllegalMove(f"{who} has no unused {marker} marker")
    s = s._replace(
        cartons=_without(s.cartons, base),
        markers=_replace(s.markers, seat, rest),
        bids=(*s.bids, Bid(seat, base, row, col, marker)),
    )
    return _next_bidder(s, seat)


def _no_bid(s: State, move: Move) -> State:
    if move.player == s.turn.caller:
        raise IllegalMove(f"{s.names[move.player]} called neuro and must bid")
    return _next_bidder(s, move.player)


def _next_bidder(s: State, after: int) -> State:
    """The next player clockwise in the round who may still bid, or the next turn."""
    t = s.turn
    n = len(s.names)
    if s.cartons:
        for k in range(1, n):
            seat = (after + k) % n
            if seat == t.caller:
                break
            if s.markers[seat]:
                return s._replace(turn=Turn(Phase.BID, t.mover, seat, t.caller))
    return _next_turn(s, t.mover)


# -- the end ----------------------------------------------------------------------------------------


def _end(s: State) -> State:
    """No more turns nor bids: the removed card is shown next."""
    return s._replace(turn=Turn(Phase.REMOVED))


def _removed(s: State, move: Move) -> State:
    card = move.card
    assert card is not None and s.removed is not None
    if not card.known or not s.deck.has(card):
        raise IllegalMove("name the removed card, a card of the deck")
    if s.removed.known and card != s.removed:
        raise IllegalMove(f"the removed card is {s.removed}, not {card}")
    if not s.removed.known and s.known_cards()[card] >= COPIES:
        raise IllegalMove(f"both {card} are seen: the removed card cannot be one")
    return _next_reveal(s._replace(removed=card), 0)


def _next_reveal(s: State, first: int) -> State:
    """The first seat from ``first`` on with a bid to reveal decides, else the breaches."""
    for seat in range(first, len(s.names)):
        if any(b.player == seat and b.marker is Marker.UNKNOWN for b in s.bids):
            return s._replace(turn=Turn(Phase.REVEAL, decider=seat))
    return _next_breach(s, 0)


def _reveal(s: State, move: Move) -> State:
    seat = move.player
    who = s.names[seat]
    mine = [i for i, b in enumerate(s.bids) if b.player == seat]
    if len(move.markers) != len(mine) or Marker.UNKNOWN in move.markers:
        raise IllegalMove(f"{who} made {len(mine)} bids: reveal {len(mine)} markers, in the order of the bids")
    bids = list(s.bids)
    for i, marker in zip(mine, move.markers, strict=True):
        b = bids[i]
        if b.marker is not Marker.UNKNOWN and b.marker != marker:
            raise IllegalMove(f"{who}'s bid on {b.row} {b.col} was made with {b.marker}, not {marker}")
        bids[i] = b._replace(marker=marker)
    left = unused_markers(s.markers[seat], move.markers)
    if left is None:
        shown = " ".join(str(m) for m in move.markers)
        raise IllegalMove(f"{shown} cannot be {who}'s: a player has one 0, three 1, one nature, fond and force")
    held = tuple(sorted((Counter(MARKERS) - Counter(move.markers)).elements()))
    return _next_reveal(s._replace(bids=tuple(bids), markers=_replace(s.markers, seat, held)), seat + 1)


def _next_breach(s: State, first: int) -> State:
    """The first seat from ``first`` on still suspected of a breach decides, else the game is over."""
    for seat in range(first, len(s.names)):
        if s.suspects[seat] > s.breaches[seat]:
            return s._replace(turn=Turn(Phase.BREACH, decider=seat))
    return s._replace(turn=Turn(Phase.OVER))


def _breach(s: State, move: Move) -> State:
    seat = move.player
    s = s._replace(breaches=_add(s.breaches, seat, 1), vp=_add(s.vp, seat, BREACH_VP))
    if s.suspects[seat] > s.breaches[seat]:
        return s
    return _next_breach(s, seat + 1)


def _no_breach(s: State, move: Move) -> State:
    return _next_breach(s, move.player + 1)


_HANDLERS: dict[tuple[Phase, Kind], Handler] = {
    (Phase.REMOVE, Kind.REMOVE): _remove,
    (Phase.START, Kind.START): _start,
    (Phase.DEAL, Kind.DEAL): _deal,
    (Phase.TURN, Kind.PLACE): _place,
    (Phase.TURN, Kind.PASS): _pass,
    (Phase.NEURO, Kind.NEURO): _neuro,
    (Phase.NEURO, Kind.NO_NEURO): _no_neuro,
    (Phase.BID, Kind.BID): _bid,
    (Phase.BID, Kind.NO_BID): _no_bid,
    (Phase.REMOVED, Kind.REMOVED): _removed,
    (Phase.REVEAL, Kind.REVEAL): _reveal,
    (Phase.BREACH, Kind.BREACH): _breach,
    (Phase.BREACH, Kind.NO_BREACH): _no_breach,
}
