"""The turn machine: legal moves, apply and chance outcomes (who decides and the returns are
:mod:`solver.game`'s, written once).

Functions here take a :class:`~solver.spicy.state.State` and never change it; the state's
methods call them. Everything about claims, truth, scores and draws comes from
:mod:`solver.spicy.rules`.

**One decider at a time.** A top card may be challenged by any other player until the next
card is played on it, passes in between included. The engine offers it in *windows*: whenever
a turn starts with an open top card (after a play, and again after each pass and its draw), the
players other than the card's player are asked in seating order from the card's player on, each
declining or challenging (spice or number); the first challenge closes the window, and when all
decline the player whose turn it is plays. The last card of a hand opens the last-card window:
a challenge or a decline by everybody (then its player takes a trophy), nothing else, except
``take-back`` by the card's player (who forgot to announce it: the card returns, they pass).

**Unknown cards** (:data:`~solver.spicy.cards.UNKNOWN`) are wildcards: playing, dealing,
drawing or revealing a named card matches an unknown one when the named one is not there (if
the deck still has a copy unaccounted for). A challenged unknown card waits for its reveal (a
chance node over the unaccounted cards). **World's End** shows by itself in a full-information
state, once the draw pile is down to its depth (a draw in progress stops there); in a public
state its depth is :data:`~solver.spicy.state.HIDDEN` and the table reports it with
``Move(Kind.WORLDS_END, NOBODY)``, accepted whenever a player is to play, in a window after a
play or a pass, or in the middle of a draw (the drawer keeps the cards drawn before it).

>>> from solver.spicy import Card, Claim, Spice, State, Trait
>>> s = State.from_text("spicy Ana:C1W2:-:0 Ben:P3:-:0 draw=rest phase=play actor=Ana")
>>> s = s.apply(Move(Kind.PLAY, 0, card=Card.parse("wasabi-2"), claim=Claim(Spice.CHILI, 2)))
>>> s.turn.phase, s.current_player()
(Phase.WINDOW, 1)
>>> s = s.apply(Move(Kind.CHALLENGE, 1, trait=Trait.NUMBER))
>>> s.won, s.turn.phase, s.turn.decider, s.turn.owed
(((Card.parse('wasabi-2'),), ()), Phase.DRAW, 1, 2)
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from fractions import Fraction
from functools import lru_cache
from itertools import product

from ..errors import IllegalMove
from .cards import UNKNOWN, Card
from .messages import holds_no, misshapen, out_of_turn, unavailable
from .moves import NOBODY, Kind, Move
from .rules import TROPHIES_TO_WIN, Claim, Draw, Trait, legal_claims, refusal, true_on
from .state import HIDDEN, End, Phase, State, Top, Turn

__all__ = [
    "apply",
    "chance_outcomes",
    "legal_moves",
    "sample_chance",
    "start_turn",
]

Cards = tuple[Card, ...]
WORLDS_END = Move(Kind.WORLDS_END, NOBODY)
_WORLDS_END_PHASES = frozenset({Phase.PLAY, Phase.WINDOW, Phase.DRAW})

# -- card multisets (sorted tuples), with unknown cards as wildcards --------------------------


def _without(cards: Cards, card: Card) -> tuple[Cards, bool] | None:
    """``cards`` minus ``card`` (or, failing that, minus an unknown card, then True); None if neither."""
    if card in cards:
        i = cards.index(card)
        matched = False
    elif not card.is_known or UNKNOWN not in cards:
        return None
    else:
        i = cards.index(UNKNOWN)
        matched = True
    return cards[:i] + cards[i + 1 :], matched


def _with(cards: Cards, *added: Card) -> Cards:
    return tuple(sorted(cards + added))


def _replace(values: tuple[Cards, ...], seat: int, value: Cards) -> tuple[Cards, ...]:
    return values[:seat] + (value,) + values[seat + 1 :]


def _check_available(s: State, card: Card) -> None:
    """A named card that stands for an unknown one: the deck must have a copy not named yet."""
    copies = s.deck.copies_of(card)
    named = sum(group.count(card) for group in (*s.hands, s.draw, s.pile, *s.won))
    if named + (s.top is not None and s.top.card == card) >= copies:
        raise IllegalMove(unavailable(card, copies))


def _state(s: State, turn: Turn) -> State:
    return s._replace(turn=turn)


def _next(s: State, seat: int) -> int:
    return (seat + 1) % len(s.names)


# -- turns, windows, draws --------------------------------------------------------------------


def start_turn(s: State, actor: int) -> State:
    """``actor``'s turn: the window of the open top card first (if it is open), then the play."""
    top = s.top
    if top is not None and top.open:
        return _state(s, Turn(Phase.WINDOW, actor, _next(s, top.player)))
    return _state(s, Turn(Phase.PLAY, actor))


def _draws(s: State, draws: tuple[tuple[int, int], ...], actor: int) -> State:
    """The draws owed, in order (each (seat, cards)), then ``actor``'s turn."""
    draws = tuple((seat, k) for seat, k in draws if k > 0)
    if not draws:
        return start_turn(s, actor)
    (seat, k), rest = draws[0], draws[1:]
    return _state(s, Turn(Phase.DRAW, actor, seat, k, rest))


def _over(s: State, end: End) -> State:
    return _state(s, Turn(Phase.OVER, s.turn.actor, end=end))


def _take_trophy(s: State, seat: int, before: tuple[tuple[int, int], ...], actor: int) -> State:
    """``seat`` takes a trophy: the game ends on their 2nd or on the last one (nobody draws);
    else the draws ``before`` (a challenge loser's 2), then the trophy taker's new hand."""
    trophies = s.trophies[:seat] + (s.trophies[seat] + 1,) + s.trophies[seat + 1 :]
    s = s._replace(trophies=trophies)
    if trophies[seat] >= TROPHIES_TO_WIN:
        return _over(s, End.SECOND_TROPHY)
    if sum(trophies) >= s.deck.trophies:
        return _over(s, End.LAST_TROPHY)
    return _draws(s, (*before, (seat, Draw.TROPHY.count(s.deck))), actor)


# -- legal moves ------------------------------------------------------------------------------


@lru_cache(maxsize=8192)
def _play_moves(seat: int, hand: Cards, claims: tuple[Claim, ...]) -> tuple[Move, ...]:
    plays = tuple(Move(Kind.PLAY, seat, card=c, claim=k) for c, k in product(sorted(set(hand)), claims))
    return (*plays, Move(Kind.PASS, seat))


@lru_cache(maxsize=64)
def _window_moves(seat: int, owner: int, last: bool) -> tuple[Move, ...]:
    moves = (
        Move(Kind.DECLINE, seat),
        Move(Kind.CHALLENGE, seat, trait=Trait.SPICE),
        Move(Kind.CHALLENGE, seat, trait=Trait.NUMBER),
    )
    return (*moves, Move(Kind.TAKE_BACK, owner)) if last else moves


def legal_moves(s: State) -> tuple[Move, ...]:
    """Every move :func:`apply` accepts (for a public state, every one with its unknown cards as
    they are), in a fixed order; none once over.

    To play: every (distinct card, legal claim), then pass. In a window: decline, challenge
    spice, challenge number, and in the last-card window the card's player's take-back. At a
    chance node: the outcomes of :func:`chance_outcomes`. In a public state, World's End is
    listed last where the table may report it (see the module docstring).
    """
    t = s.turn
    phase = t.phase
    if phase is Phase.PLAY:
        moves = _play_moves(t.actor, s.hands[t.actor], legal_claims(s.deck, s.top_claim()))
    elif phase is Phase.WINDOW or phase is Phase.LAST_CARD:
        assert s.top is not None
        moves = _window_moves(t.decider, s.top.player, phase is Phase.LAST_CARD)
    elif phase is Phase.OVER:
        return ()
    else:
        moves = tuple(move for move, _ in chance_outcomes(s) if move.kind is not Kind.WORLDS_END)
    if s.worlds_end == HIDDEN and phase in _WORLDS_END_PHASES:
        return (*moves, WORLDS_END)
    return moves


# -- chance -----------------------------------------------------------------------------------


@lru_cache(maxsize=4096)
def _one_of(cards: Cards) -> tuple[tuple[Card, Fraction], ...]:
    """Each kind of card in ``cards`` with the chance that a uniformly drawn card is of it."""
    return tuple((card, Fraction(k, len(cards))) for card, k in sorted(Counter(cards).items()))


def _dealt_seat(s: State) -> int:
    """The seat the next card of the deal goes to: the first with an incomplete hand."""
    return next(i for i, hand in enumerate(s.hands) if len(hand) < s.deck.hand)


def _unaccounted(s: State) -> Cards:
    """The physical cards not named in the state (what an unknown card may be), sorted."""
    return tuple(s.unseen().elements())


def chance_outcomes(s: State) -> list[tuple[Move, Fraction]]:
    """At a chance node, every outcome and its exact probability; raises IllegalMove elsewhere.

    The deal and a draw give one card, uniform over the draw pile (in a public state, an
    unknown card); a reveal, uniform over the cards the state does not name. A public draw
    from an empty draw pile can only be World's End.
    """
    t = s.turn
    if t.phase is Phase.DEAL or t.phase is Phase.DRAW:
        kind = Kind.DEAL if t.phase is Phase.DEAL else Kind.DRAW
        seat = _dealt_seat(s) if kind is Kind.DEAL else t.decider
        if not s.draw and kind is Kind.DRAW:
            return [(WORLDS_END, Fraction(1))]
        return [(Move(kind, seat, card=c), p) for c, p in _one_of(s.draw)]
    if t.phase is Phase.REVEAL:
        assert s.top is not None
        return [(Move(Kind.REVEAL, s.top.player, card=c), p) for c, p in _one_of(_unaccounted(s))]
    raise IllegalMove(f"no chance event now: {out_of_turn(s, Move(Kind.DRAW, NOBODY))}")


def sample_chance(s: State, rng: random.Random) -> Move:
    """Draw one chance outcome with the probabilities of :func:`chance_outcomes`, physically
    (a uniform card of the draw pile, or of the unaccounted cards)."""
    t = s.turn
    if t.phase is Phase.DEAL or t.phase is Phase.DRAW:
        if not s.draw and t.phase is Phase.DRAW:
            return WORLDS_END
        card = s.draw[int(rng.random() * len(s.draw))]
        if t.phase is Phase.DEAL:
            return Move(Kind.DEAL, _dealt_seat(s), card=card)
        return Move(Kind.DRAW, t.decider, card=card)
    if t.phase is Phase.REVEAL:
        assert s.top is not None
        pool = _unaccounted(s)
        return Move(Kind.REVEAL, s.top.player, card=pool[int(rng.random() * len(pool))])
    raise IllegalMove(f"no chance event now: {out_of_turn(s, Move(Kind.DRAW, NOBODY))}")


# -- apply ------------------------------------------------------------------------------------


def apply(s: State, move: Move) -> State:
    """Return the state after ``move``. Raises :class:`IllegalMove` with the reason in words
    (its ``move`` and ``state`` set)."""
    try:
        handler = _HANDLERS.get((s.turn.phase, move.kind))
        if handler is None or move.player != _mover(s, move):
            raise IllegalMove(out_of_turn(s, move))
        shape = (move.card is not None, move.claim is not None, move.trait is not None)
        if shape != _SHAPES[move.kind]:
            raise IllegalMove(misshapen(s, move))
        return handler(s, move)
    except IllegalMove as error:
        error.move, error.state = move, s
        raise


_SHAPES = {kind: (False, False, False) for kind in Kind}
_SHAPES.update({Kind.PLAY: (True, True, False), Kind.CHALLENGE: (False, False, True)})
_SHAPES.update({kind: (True, False, False) for kind in (Kind.DEAL, Kind.DRAW, Kind.REVEAL)})
"""What each kind of move names: (a card, a claim, a trait)."""


def _mover(s: State, move: Move) -> int:
    """The seat that may make ``move`` now (NOBODY for World's End)."""
    t = s.turn
    kind = move.kind
    if kind is Kind.WORLDS_END:
        return NOBODY
    if kind is Kind.TAKE_BACK or kind is Kind.REVEAL:
        return s.top.player if s.top is not None else NOBODY
    if kind is Kind.DEAL:
        return _dealt_seat(s)
    return t.actor if t.phase is Phase.PLAY else t.decider


Handler = Callable[[State, Move], State]


def _play(s: State, move: Move) -> State:
    seat, card, claim = move.player, move.card, move.claim
    name = s.names[seat]
    assert card is not None and claim is not None
    taken = _without(s.hands[seat], card)
    if taken is None:
        raise IllegalMove(holds_no(name, s.hands[seat], card))
    why = refusal(s.deck, s.top_claim(), claim)
    if why is not None:
        raise IllegalMove(f"{name} cannot claim {claim}: {why}")
    hand, matched = taken
    if matched:
        _check_available(s, card)
    old = s.top
    pile = _with(s.pile, old.card) if old is not None else s.pile
    top = Top(seat, card, claim, len(s.hands[seat]), s.top_claim())
    s = s._replace(hands=_replace(s.hands, seat, hand), pile=pile, top=top)
    if not hand:
        return _state(s, Turn(Phase.LAST_CARD, seat, _next(s, seat), covered=old))
    return start_turn(s, _next(s, seat))


def _pass(s: State, move: Move) -> State:
    seat = move.player
    return _state(s, Turn(Phase.DRAW, _next(s, seat), seat, Draw.PASS.count(s.deck)))


def _decline(s: State, move: Move) -> State:
    t = s.turn
    assert s.top is not None
    owner = s.top.player
    nxt = _next(s, move.player)
    if nxt != owner:
        return _state(s, t._replace(decider=nxt))
    if t.phase is Phase.WINDOW:
        return _state(s, Turn(Phase.PLAY, t.actor))
    s = s._replace(top=s.top._replace(open=False))  # the last card stands: a trophy, the pile stays
    return _take_trophy(s, owner, (), _next(s, owner))


def _challenge(s: State, move: Move) -> State:
    top = s.top
    assert top is not None and move.trait is not None
    if not top.card.is_known:
        turn = Turn(Phase.REVEAL, s.turn.actor, top.player, challenger=move.player, trait=move.trait)
        return _state(s, turn)
    return _resolve(s, move.player, move.trait)


def _reveal(s: State, move: Move) -> State:
    top = s.top
    assert top is not None
    card = move.card
    if card is None or not card.is_known:
        raise IllegalMove(f"the challenged card of {s.names[top.player]} is revealed: name it")
    _check_available(s, card)
    s = s._replace(top=top._replace(card=card))
    return _resolve(s, s.turn.challenger, s.turn.trait)


def _resolve(s: State, challenger: int, trait: Trait | None) -> State:
    """The top card is checked on ``trait``: the winner takes the pile, the loser draws 2 and
    starts the next pile; a last card that proves true also takes a trophy."""
    top = s.top
    assert top is not None and trait is not None
    owner = top.player
    last = not s.hands[owner]
    truth = true_on(top.card, trait, top.claim)
    winner, loser = (owner, challenger) if truth else (challenger, owner)
    won = _replace(s.won, winner, _with(s.won[winner], *s.pile, top.card))
    s = s._replace(won=won, pile=(), top=None)
    lost = ((loser, Draw.LOST_CHALLENGE.count(s.deck)),)
    if last and truth:
        return _take_trophy(s, owner, lost, loser)
    return _draws(s, lost, loser)


def _take_back(s: State, move: Move) -> State:
    top, covered = s.top, s.turn.covered
    assert top is not None
    seat = top.player
    pile = s.pile
    if covered is not None:
        i = pile.index(covered.card)
        pile = pile[:i] + pile[i + 1 :]
    s = s._replace(hands=_replace(s.hands, seat, (top.card,)), pile=pile, top=covered)
    return _state(s, Turn(Phase.DRAW, _next(s, seat), seat, Draw.PASS.count(s.deck)))


def _deal(s: State, move: Move) -> State:
    seat = move.player
    draw = _take_from_draw(s, move)
    hands = _replace(s.hands, seat, _with(s.hands[seat], *_card(move)))
    s = s._replace(hands=hands, draw=draw)
    if all(len(h) == s.deck.hand for h in hands):
        return start_turn(s, 0)
    return s


def _draw(s: State, move: Move) -> State:
    t = s.turn
    seat = move.player
    draw = _take_from_draw(s, move)
    s = s._replace(hands=_replace(s.hands, seat, _with(s.hands[seat], *_card(move))), draw=draw)
    if s.worlds_end != HIDDEN and len(draw) <= s.worlds_end:
        return _over(s, End.WORLDS_END)  # World's End shows: the draw stops here
    if t.owed > 1:
        return _state(s, t._replace(owed=t.owed - 1))
    return _draws(s, t.then, t.actor)


def _card(move: Move) -> Cards:
    return (move.card,) if move.card is not None else ()


def _take_from_draw(s: State, move: Move) -> Cards:
    """The draw pile without the card ``move`` names (a named card may stand for an unknown one)."""
    assert move.card is not None
    taken = _without(s.draw, move.card)
    if taken is None:
        raise IllegalMove(f"the draw pile holds no {move.card}")
    draw, matched = taken
    if matched:
        _check_available(s, move.card)
    return draw


def _worlds_end(s: State, move: Move) -> State:
    if s.worlds_end != HIDDEN:
        raise IllegalMove(
            f"World's End lies {s.worlds_end} cards deep in this game: it shows by itself "
            f"when the draw pile is down to it ({len(s.draw)} card{'s' * (len(s.draw) != 1)} left)"
        )
    return _over(s, End.WORLDS_END)


_HANDLERS: dict[tuple[Phase, Kind], Handler] = {
    (Phase.PLAY, Kind.PLAY): _play,
    (Phase.PLAY, Kind.PASS): _pass,
    (Phase.WINDOW, Kind.DECLINE): _decline,
    (Phase.WINDOW, Kind.CHALLENGE): _challenge,
    (Phase.LAST_CARD, Kind.DECLINE): _decline,
    (Phase.LAST_CARD, Kind.CHALLENGE): _challenge,
    (Phase.LAST_CARD, Kind.TAKE_BACK): _take_back,
    (Phase.REVEAL, Kind.REVEAL): _reveal,
    (Phase.DEAL, Kind.DEAL): _deal,
    (Phase.DRAW, Kind.DRAW): _draw,
    **{(phase, Kind.WORLDS_END): _worlds_end for phase in _WORLDS_END_PHASES},
}
