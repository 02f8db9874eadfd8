"""The turn machine: legal moves, apply and chance outcomes.

Functions here take a :class:`~solver.coup.state.State` and never change it; :meth:`State.apply`
and friends call them. The shape is OpenSpiel's (who decides and the returns are written once,
in :mod:`solver.game`). Everything about actions comes from the tables of
:mod:`solver.coup.rules`.

Unknown cards (:data:`Character.UNKNOWN`) are wildcards: losing, proving or showing a card,
or drawing one from a court, matches an unknown card when the named one is not there. This
lets a table that does not see every card drive the same machine.

>>> from solver.coup.state import State
>>> s = State.from_text("ambassador Alice:1:DK:- Bob:2:A:C court=DDAACCKKBBB aside=- phase=action actor=Alice")
>>> s = s.apply(Move(Kind.TAX, 0))
>>> s.current_player(), s.turn.phase
(1, Phase.CHALLENGE)
"""

from __future__ import annotations

import random
from collections.abc import Callable
from fractions import Fraction
from functools import cache
from itertools import combinations
from typing import TypeVar

from ..counting import draws
from ..errors import IllegalMove
from .cards import Character, Variant
from .messages import ACTION_WORDS, MOVE_WORDS, claimed, out_of_turn, waiting_for
from .moves import NOBODY, Move
from .rules import FORCED_COUP_COINS, RULES, ActionRule, Blockers, Kind, stolen
from .state import CHANCE_PHASES, After, Phase, State, Turn

T = TypeVar("T")
Hands = tuple[tuple[Character, ...], ...]
UNKNOWN = Character.UNKNOWN

# -- card multisets (sorted tuples), with unknown cards as wildcards --------------------------


def _without(cards: tuple[Character, ...], card: Character) -> tuple[Character, ...] | None:
    """``cards`` minus one ``card`` (or minus one unknown card); None if neither is there."""
    if card in cards:
        i = cards.index(card)
    elif UNKNOWN in cards:
        i = cards.index(UNKNOWN)
    else:
        return None
    return cards[:i] + cards[i + 1 :]


def _without_all(cards: tuple[Character, ...], taken: tuple[Character, ...]) -> tuple[Character, ...] | None:
    for card in taken:
        rest = _without(cards, card)
        if rest is None:
            return None
        cards = rest
    return cards


def _with(cards: tuple[Character, ...], *added: Character) -> tuple[Character, ...]:
    return tuple(sorted(cards + added))


def _replace(values: tuple[T, ...], seat: int, value: T) -> tuple[T, ...]:
    return values[:seat] + (value,) + values[seat + 1 :]


def _coins(coins: tuple[int, ...], seat: int, delta: int) -> tuple[int, ...]:
    return coins[:seat] + (coins[seat] + delta,) + coins[seat + 1 :]


def _hand(hidden: Hands, seat: int, cards: tuple[Character, ...]) -> Hands:
    return hidden[:seat] + (cards,) + hidden[seat + 1 :]


_new = tuple.__new__  # builds a NamedTuple without the Python-level __new__: this is the hot path


def _state(s: State, turn: Turn) -> State:
    return _new(State, (s.names, s.variant, s.coins, s.hidden, s.face_up, s.court, s.aside, turn))


# -- seating --------------------------------------------------------------------------------


def _next_alive(s: State, after: int, stop: int) -> int:
    """The first living seat after ``after`` in seating order, before reaching ``stop``."""
    n = len(s.names)
    hidden = s.hidden
    seat = (after + 1) % n
    while seat != stop:
        if hidden[seat]:
            return seat
        seat = (seat + 1) % n
    return NOBODY


def _end_turn(s: State) -> State:
    actor = s.turn.actor
    nxt = _next_alive(s, actor, actor)
    turn = _new(Turn, (Phase.ACTION, nxt, nxt, None, NOBODY, NOBODY, None, NOBODY, None, ()))
    return _new(State, (s.names, s.variant, s.coins, s.hidden, s.face_up, s.court, s.aside, turn))


# -- legal moves ----------------------------------------------------------------------------


@cache
def _action_moves(variant: Variant, actor: int, coins: int, alive: tuple[bool, ...]) -> tuple[Move, ...]:
    targets = tuple(seat for seat, living in enumerate(alive) if living and seat != actor)
    if coins >= FORCED_COUP_COINS:
        return tuple(Move(Kind.COUP, actor, t) for t in targets)
    moves: list[Move] = []
    for rule in RULES[variant].values():
        if coins < rule.cost:
            continue
        if rule.targeted:
            moves.extend(Move(rule.action, actor, t) for t in targets)
        else:
            moves.append(Move(rule.action, actor))
    return tuple(moves)


@cache
def _window_moves(seat: int) -> tuple[Move, ...]:
    return (Move(Kind.PASS, seat), Move(Kind.CHALLENGE, seat))


@cache
def _block_moves(seat: int, block_with: tuple[Character, ...]) -> tuple[Move, ...]:
    return (Move(Kind.PASS, seat),) + tuple(Move(Kind.BLOCK, seat, cards=(c,)) for c in block_with)


@cache
def _card_moves(kind: Kind, seat: int, hand: tuple[Character, ...]) -> tuple[Move, ...]:
    return tuple(Move(kind, seat, cards=(c,)) for c in sorted(set(hand)))


@cache
def _proof_moves(seat: int, claim: Character, hand: tuple[Character, ...]) -> tuple[Move, ...]:
    prove = (Move(Kind.PROVE, seat, cards=(claim,)),) if claim in hand or UNKNOWN in hand else ()
    return prove + _card_moves(Kind.LOSE, seat, hand)


@cache
def _keep_moves(seat: int, pool: tuple[Character, ...], keep: int) -> tuple[Move, ...]:
    kept = sorted(set(combinations(pool, keep)))
    return tuple(Move(Kind.KEEP, seat, cards=k) for k in kept)


@cache
def _examine_decisions(seat: int) -> tuple[Move, ...]:
    return (Move(Kind.SWAP, seat), Move(Kind.RETURN, seat))


def legal_moves(s: State) -> tuple[Move, ...]:
    """Every legal move in a fixed order; at a chance node, the outcomes; none once over."""
    t = s.turn
    phase = t.phase
    if phase is Phase.ACTION:
        actor = t.actor
        coins = min(s.coins[actor], FORCED_COUP_COINS)
        return _action_moves(s.variant, actor, coins, tuple(map(bool, s.hidden)))
    if phase is Phase.CHALLENGE or phase is Phase.BLOCK_CHALLENGE:
        return _window_moves(t.decider)
    if phase is Phase.BLOCK:
        assert t.action is not None
        return _block_moves(t.decider, RULES[s.variant][t.action].block_with)
    if phase is Phase.PROOF:
        return _proof_moves(t.decider, claimed(s), s.hidden[t.decider])
    if phase is Phase.LOSE:
        return _card_moves(Kind.LOSE, t.decider, s.hidden[t.decider])
    if phase is Phase.EXCHANGE_KEEP:
        hand = s.hidden[t.actor]
        return _keep_moves(t.actor, tuple(sorted(hand + t.cards)), len(hand))
    if phase is Phase.EXAMINE_SHOW:
        return _card_moves(Kind.SHOW, t.decider, s.hidden[t.decider])
    if phase is Phase.EXAMINE_DECIDE:
        return _examine_decisions(t.actor)
    if phase is Phase.DRAFT_PICK:
        return tuple(Move(Kind.PICK, t.decider, cards=(c,)) for c in s.variant.characters)
    if phase is Phase.OVER:
        return ()
    return tuple(move for move, _ in chance_outcomes(s))


# -- chance ----------------------------------------------------------------------------------


def _deals(court: tuple[Character, ...], players: int, size: int) -> list[tuple[tuple[Character, ...], Fraction]]:
    """Every deal of ``size`` cards to each of ``players`` seats from ``court`` (concatenated,
    each hand sorted) with its probability. Hands are dealt in seat order."""
    if players == 0:
        return [((), Fraction(1))]
    deals = []
    for hand, p in draws(court, size):
        rest = _without_all(court, hand)
        assert rest is not None
        for others, q in _deals(rest, players - 1, size):
            deals.append((hand + others, p * q))
    return deals


def chance_outcomes(s: State) -> list[tuple[Move, Fraction]]:
    """At a chance node, every outcome and its exact probability; raises IllegalMove elsewhere.

    The deal enumerates every hand of every player: cheap for 2 or 3 players, very large
    beyond (use :func:`sample_chance` there).
    """
    t = s.turn
    phase = t.phase
    if phase is Phase.REDRAW or phase is Phase.SWAP_DRAW:
        return [(Move(Kind.DRAW, t.decider, cards=d), p) for d, p in draws(s.court, 1)]
    if phase is Phase.EXCHANGE_DRAW:
        return [(Move(Kind.DRAW, t.actor, cards=d), p) for d, p in draws(s.court, s.exchange_draws())]
    if phase is Phase.DRAFT_DEAL:
        return [(Move(Kind.DEAL, NOBODY, cards=d), p) for d, p in _deals(s.court, len(s.names), 1)]
    if phase is Phase.DEAL:
        return [(Move(Kind.DEAL, NOBODY, cards=d), p) for d, p in _deals(s.court, len(s.names), 2)]
    raise IllegalMove(f"no chance event now: the table waits for {waiting_for(s)}")


def sample_chance(s: State, rng: random.Random) -> Move:
    """Draw one chance outcome with the probabilities of :func:`chance_outcomes`, physically
    (shuffling the court) rather than by enumerating the outcomes."""
    t = s.turn
    phase = t.phase
    court = s.court
    if phase is Phase.REDRAW or phase is Phase.SWAP_DRAW:
        return Move(Kind.DRAW, t.decider, cards=(court[int(rng.random() * len(court))],))
    if phase is Phase.EXCHANGE_DRAW:
        return Move(Kind.DRAW, t.actor, cards=tuple(sorted(rng.sample(court, s.exchange_draws()))))
    if phase is Phase.DRAFT_DEAL or phase is Phase.DEAL:
        size = 1 if phase is Phase.DRAFT_DEAL else 2
        shuffled = rng.sample(court, size * len(s.names))
        hands = (sorted(shuffled[i : i + size]) for i in range(0, len(shuffled), size))
        return Move(Kind.DEAL, NOBODY, cards=tuple(c for hand in hands for c in hand))
    raise IllegalMove(f"no chance event now: the table waits for {waiting_for(s)}")


# -- apply -----------------------------------------------------------------------------------


def apply(s: State, move: Move) -> State:
    """Return the state after ``move``. Raises :class:`IllegalMove` with the reason in words."""
    t = s.turn
    kind = move.kind
    handler = _TABLE[t.phase][kind]
    if handler is None or (move.player != t.decider and t.phase not in CHANCE_PHASES):
        error = IllegalMove(out_of_turn(s, move))
        error.move, error.state = move, s
        raise error
    try:
        if kind > Kind.EXAMINE and (move.target != NOBODY or len(move.cards) != _NAMED[kind]):
            _check_shape(move)
        return handler(s, move)
    except IllegalMove as error:
        error.move, error.state = move, s
        raise


_CARDS_NAMED = {Kind.PASS: 0, Kind.CHALLENGE: 0, Kind.SWAP: 0, Kind.RETURN: 0}
_CARDS_NAMED.update({kind: 1 for kind in (Kind.BLOCK, Kind.PROVE, Kind.LOSE, Kind.SHOW, Kind.PICK)})
_NAMED = [_CARDS_NAMED.get(kind, -1) for kind in Kind]  # -1: any number, checked by the handler


def _check_shape(move: Move) -> None:
    """Responses and chance outcomes take no target, and name the right number of cards."""
    if move.target != NOBODY:
        raise IllegalMove(f"{MOVE_WORDS[move.kind]} takes no target")
    named = _CARDS_NAMED.get(move.kind)
    if named is not None and len(move.cards) != named:
        raise IllegalMove(f"{MOVE_WORDS[move.kind]} names {('no card', 'one card')[named]}")
    if named is None and not move.cards:
        raise IllegalMove(f"{MOVE_WORDS[move.kind]} names the cards")


Handler = Callable[[State, Move], State]


def _announce(s: State, move: Move) -> State:
    actor = move.player
    rule = RULES[s.variant].get(move.kind)
    if rule is None:
        raise IllegalMove(f"{s.names[actor]} cannot {move.kind}: examine needs the inquisitor variant")
    _check_action(s, rule, move)
    coins = _coins(s.coins, actor, -rule.cost) if rule.cost else s.coins
    s = State(s.names, s.variant, coins, s.hidden, s.face_up, s.court, s.aside, s.turn)
    if rule.claim is not None:
        first = _next_alive(s, actor, actor)
        return _state(s, Turn(Phase.CHALLENGE, actor, first, move.kind, move.target))
    return _claim_stands(s, Turn(Phase.ACTION, actor, NOBODY, move.kind, move.target))


def _check_action(s: State, rule: ActionRule, move: Move) -> None:
    names, actor, target = s.names, move.player, move.target
    coins = s.coins[actor]
    if coins >= FORCED_COUP_COINS and rule.action is not Kind.COUP:
        raise IllegalMove(f"{names[actor]} has {coins} coins and must coup")
    if coins < rule.cost:
        raise IllegalMove(f"{names[actor]} has {coins} coins; {rule.action} costs {rule.cost}")
    if move.cards:
        raise IllegalMove(f"{rule.action} names no card")
    if not rule.targeted:
        if target != NOBODY:
            raise IllegalMove(f"{rule.action} takes no target")
        return
    if not 0 <= target < len(names):
        raise IllegalMove(f"{rule.action} needs a target: another player still in the game")
    if target == actor:
        raise IllegalMove(f"{names[actor]} cannot {rule.action} themselves")
    if not s.hidden[target]:
        raise IllegalMove(f"{names[target]} is out of the game")


def _claim_stands(s: State, t: Turn) -> State:
    """The action's claim was not challenged, or was proved: on to the block window or effect."""
    assert t.action is not None
    rule = RULES[s.variant][t.action]
    if rule.blockers is Blockers.TARGET:
        if s.hidden[t.target]:
            return _state(s, Turn(Phase.BLOCK, t.actor, t.target, t.action, t.target))
    elif rule.blockers is Blockers.ANYONE:
        first = _next_alive(s, t.actor, t.actor)
        return _state(s, Turn(Phase.BLOCK, t.actor, first, t.action, t.target))
    return _effect(s, t)


def _effect(s: State, t: Turn) -> State:
    """The action takes effect (a targeted action on an eliminated target does nothing more)."""
    actor, target, action = t.actor, t.target, t.action
    assert action is not None
    gain = RULES[s.variant][action].gain
    if gain:
        return _end_turn(
            State(s.names, s.variant, _coins(s.coins, actor, gain), s.hidden, s.face_up, s.court, s.aside, t)
        )
    if action is Kind.EXCHANGE:
        return _state(s, Turn(Phase.EXCHANGE_DRAW, actor, actor, action))
    if not s.hidden[target]:
        return _end_turn(_state(s, t))
    if action is Kind.STEAL:
        taken = stolen(s.coins[target])
        coins = _coins(_coins(s.coins, target, -taken), actor, taken)
        return _end_turn(State(s.names, s.variant, coins, s.hidden, s.face_up, s.court, s.aside, t))
    if action is Kind.EXAMINE:
        return _state(s, Turn(Phase.EXAMINE_SHOW, actor, target, action, target))
    return _state(s, Turn(Phase.LOSE, actor, target, action, target, after=After.END_TURN))


def _pass(s: State, move: Move) -> State:
    t = s.turn
    phase = t.phase
    if phase is Phase.CHALLENGE:
        nxt = _next_alive(s, move.player, t.actor)
        if nxt == NOBODY:
            return _claim_stands(s, t)
    elif phase is Phase.BLOCK:
        assert t.action is not None
        nxt = NOBODY
        if RULES[s.variant][t.action].blockers is Blockers.ANYONE:
            nxt = _next_alive(s, move.player, t.actor)
        if nxt == NOBODY:
            return _effect(s, t)
    else:  # the block's challenge window: nobody challenged, the block stands
        nxt = _next_alive(s, move.player, t.blocker)
        if nxt == NOBODY:
            return _end_turn(s)
    return _state(s, Turn(phase, t.actor, nxt, t.action, t.target, t.blocker, t.block))


def _challenge(s: State, move: Move) -> State:
    t = s.turn
    claimant = t.actor if t.phase is Phase.CHALLENGE else t.blocker
    return _state(s, Turn(Phase.PROOF, t.actor, claimant, t.action, t.target, t.blocker, t.block, move.player))


def _block(s: State, move: Move) -> State:
    t = s.turn
    assert t.action is not None
    rule = RULES[s.variant][t.action]
    card = move.card if len(move.cards) == 1 else None
    if card not in rule.block_with:
        claims = " or ".join(c.name_en for c in rule.block_with)
        named = f"with the {card}" if card is not None else "without naming one card"
        raise IllegalMove(
            f"{s.names[move.player]} cannot block {ACTION_WORDS[t.action]} {named}: "
            f"only a {claims} claim blocks {ACTION_WORDS[t.action]}"
        )
    first = _next_alive(s, move.player, move.player)
    return _state(s, Turn(Phase.BLOCK_CHALLENGE, t.actor, first, t.action, t.target, move.player, card))


def _prove(s: State, move: Move) -> State:
    t = s.turn
    claim = claimed(s)
    seat = move.player
    if move.cards != (claim,):
        raise IllegalMove(f"{s.names[seat]} claimed the {claim}: only {claim.article} proves it")
    hand = _without(s.hidden[seat], claim)
    if hand is None:
        raise IllegalMove(f"{s.names[seat]} holds no {claim} to show")
    hidden = _hand(s.hidden, seat, hand)
    turn = Turn(Phase.REDRAW, t.actor, seat, t.action, t.target, t.blocker, t.block, t.challenger)
    return State(s.names, s.variant, s.coins, hidden, s.face_up, _with(s.court, claim), s.aside, turn)


def _redraw(s: State, move: Move) -> State:
    t = s.turn
    court = _drawn_from(s, move, 1)
    hidden = _hand(s.hidden, t.decider, _with(s.hidden[t.decider], move.card))
    after = After.ACTION_GOES_ON if t.block is None else After.END_TURN
    turn = Turn(Phase.LOSE, t.actor, t.challenger, t.action, t.target, t.blocker, t.block, after=after)
    return State(s.names, s.variant, s.coins, hidden, s.face_up, court, s.aside, turn)


def _drawn_from(s: State, move: Move, k: int) -> tuple[Character, ...]:
    """The court after ``move``'s cards are drawn from it; raises if they cannot be."""
    if len(move.cards) != k or move.player != s.turn.decider:
        raise IllegalMove(f"expected {s.names[s.turn.decider]} to draw {k} card{'s' if k > 1 else ''}")
    court = _without_all(s.court, move.cards)
    if court is None:
        drawn = " ".join(c.name_en for c in move.cards)
        raise IllegalMove(f"the court holds no {drawn} to draw")
    return court


def _lose(s: State, move: Move) -> State:
    """``move.player`` turns ``move.card`` face up: after a failed proof (phase PROOF) or
    because they owed an influence (phase LOSE)."""
    t = s.turn
    caught = t.phase is Phase.PROOF and t.block is None  # the action's claim failed: cancelled
    if caught:
        assert t.action is not None
        refund = RULES[s.variant][t.action].cost  # the assassin's coins are given back
        if refund:
            s = State(s.names, s.variant, _coins(s.coins, t.actor, refund), s.hidden, s.face_up, s.court, s.aside, t)
    s = turn_face_up(s, move)
    if not s.hidden[move.player] and sum(1 for h in s.hidden if h) == 1:
        return _state(s, Turn(Phase.OVER, t.actor))
    if caught:
        return _end_turn(s)
    if t.phase is Phase.PROOF:  # the block failed and is dropped: the action goes on
        return _effect(s, Turn(Phase.ACTION, t.actor, NOBODY, t.action, t.target))
    if t.after is After.ACTION_GOES_ON:
        return _claim_stands(s, t)
    return _end_turn(s)


def turn_face_up(s: State, move: Move) -> State:
    """``s`` with ``move.player``'s face-down ``move.card`` turned face up (an influence lost)
    and, if it was the last one, the player's coins back to the treasury; the turn itself is
    unchanged (what follows is :func:`apply`'s). Raises :class:`IllegalMove` if the player has
    no such face-down card."""
    seat = move.player
    hand = _without(s.hidden[seat], move.card) if len(move.cards) == 1 else None
    if hand is None:
        raise IllegalMove(f"{s.names[seat]} has no face-down {_card_word(move)}")
    coins = s.coins if hand else _replace(s.coins, seat, 0)  # eliminated: the coins go back
    face_up = _replace(s.face_up, seat, _with(s.face_up[seat], move.card))
    return State(s.names, s.variant, coins, _hand(s.hidden, seat, hand), face_up, s.court, s.aside, s.turn)


def _card_word(move: Move) -> str:
    return move.card.name_en if len(move.cards) == 1 else "card of that name (name one card)"


def _exchange_draw(s: State, move: Move) -> State:
    t = s.turn
    court = _drawn_from(s, move, s.exchange_draws())
    turn = Turn(Phase.EXCHANGE_KEEP, t.actor, t.actor, t.action, cards=move.cards)
    return State(s.names, s.variant, s.coins, s.hidden, s.face_up, court, s.aside, turn)


def _keep(s: State, move: Move) -> State:
    t = s.turn
    seat = t.actor
    hand = s.hidden[seat]
    pool = _with(hand, *t.cards)
    returned = _without_all(pool, move.cards)
    if len(move.cards) != len(hand) or returned is None:
        offered = " ".join(c.name_en for c in pool)
        raise IllegalMove(f"{s.names[seat]} keeps {len(hand)} of {offered}")
    hidden = _hand(s.hidden, seat, tuple(sorted(move.cards)))
    court = _with(s.court, *returned)
    return _end_turn(State(s.names, s.variant, s.coins, hidden, s.face_up, court, s.aside, t))


def _show(s: State, move: Move) -> State:
    t = s.turn
    if len(move.cards) != 1 or _without(s.hidden[move.player], move.card) is None:
        raise IllegalMove(f"{s.names[move.player]} has no face-down {_card_word(move)} to show")
    return _state(s, Turn(Phase.EXAMINE_DECIDE, t.actor, t.actor, t.action, t.target, cards=move.cards))


def _return(s: State, move: Move) -> State:
    return _end_turn(s)


def _swap(s: State, move: Move) -> State:
    t = s.turn
    return _state(s, Turn(Phase.SWAP_DRAW, t.actor, t.target, t.action, t.target, cards=t.cards))


def _swap_draw(s: State, move: Move) -> State:
    """The examined target draws a new card, then the shown card goes into the court."""
    t = s.turn
    court = _drawn_from(s, move, 1)
    hand = _without(s.hidden[t.target], t.cards[0])
    assert hand is not None
    hidden = _hand(s.hidden, t.target, _with(hand, move.card))
    return _end_turn(State(s.names, s.variant, s.coins, hidden, s.face_up, _with(court, t.cards[0]), s.aside, t))


def _deal(s: State, move: Move) -> State:
    t = s.turn
    n = len(s.names)
    size = 1 if t.phase is Phase.DRAFT_DEAL else 2
    if move.player != NOBODY:
        raise IllegalMove("the deal is chance's, no player's")
    if len(move.cards) != size * n:
        raise IllegalMove(f"a deal gives {size} card{'s' if size > 1 else ''} to each of the {n} players")
    court = _without_all(s.court, move.cards)
    if court is None:
        raise IllegalMove("the deal names cards that are not in the deck")
    hidden = tuple(_with(s.hidden[i], *move.cards[i * size : (i + 1) * size]) for i in range(n))
    s = State(s.names, s.variant, s.coins, hidden, s.face_up, court, s.aside, t)
    return _after_draft_step(s)


def _pick(s: State, move: Move) -> State:
    seat = move.player
    card = move.card if len(move.cards) == 1 else None
    known = card in s.variant.characters or card is UNKNOWN  # UNKNOWN: a pick the viewer did not see
    aside = _without(s.aside, card) if known and card is not None else None
    if aside is None or card is None:
        raise IllegalMove(f"{s.names[seat]} picks one of {', '.join(c.name_en for c in s.variant.characters)}")
    hidden = _hand(s.hidden, seat, _with(s.hidden[seat], card))
    s = State(s.names, s.variant, s.coins, hidden, s.face_up, s.court, aside, s.turn)
    if seat == 0:
        return _state(s, Turn(Phase.DRAFT_PICK, 0, 1))
    return _after_draft_step(s)


def _after_draft_step(s: State) -> State:
    """After the deal or the second pick: the first turn if both have 2 cards, else the step left."""
    if all(len(h) == 2 for h in s.hidden):
        return _state(s, Turn(Phase.ACTION, 0, 0))
    if s.turn.phase is Phase.DRAFT_PICK:
        return _state(s, Turn(Phase.DRAFT_DEAL, 0))
    return _state(s, Turn(Phase.DRAFT_PICK, 0, 0))


_HANDLERS: dict[tuple[Phase, Kind], Handler] = {
    **{(Phase.ACTION, kind): _announce for kind in Kind if kind.is_action},
    (Phase.CHALLENGE, Kind.PASS): _pass,
    (Phase.CHALLENGE, Kind.CHALLENGE): _challenge,
    (Phase.BLOCK, Kind.PASS): _pass,
    (Phase.BLOCK, Kind.BLOCK): _block,
    (Phase.BLOCK_CHALLENGE, Kind.PASS): _pass,
    (Phase.BLOCK_CHALLENGE, Kind.CHALLENGE): _challenge,
    (Phase.PROOF, Kind.PROVE): _prove,
    (Phase.PROOF, Kind.LOSE): _lose,
    (Phase.REDRAW, Kind.DRAW): _redraw,
    (Phase.LOSE, Kind.LOSE): _lose,
    (Phase.EXCHANGE_DRAW, Kind.DRAW): _exchange_draw,
    (Phase.EXCHANGE_KEEP, Kind.KEEP): _keep,
    (Phase.EXAMINE_SHOW, Kind.SHOW): _show,
    (Phase.EXAMINE_DECIDE, Kind.SWAP): _swap,
    (Phase.EXAMINE_DECIDE, Kind.RETURN): _return,
    (Phase.SWAP_DRAW, Kind.DRAW): _swap_draw,
    (Phase.DEAL, Kind.DEAL): _deal,
    (Phase.DRAFT_DEAL, Kind.DEAL): _deal,
    (Phase.DRAFT_PICK, Kind.PICK): _pick,
}
_TABLE: list[list[Handler | None]] = [[_HANDLERS.get((phase, kind)) for kind in Kind] for phase in Phase]
