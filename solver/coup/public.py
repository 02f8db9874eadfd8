"""The game as a table sees it: the cards a seat has not seen are unknown (wildcards of the
engine), and what the table needs to know of the rules comes from here rather than from a
second copy: the set-up of a new game, what a move claims, who is still to answer a window,
passing until someone may speak, revealing an unknown card.

>>> from solver.coup.cards import Character as C, Variant, Draft
>>> s = opening(("Alice", "Bob", "Carol"), Variant.AMBASSADOR, Draft.DEALT_FIRST, me=2, cards=(C.DUKE, C.CAPTAIN))
>>> s.text()
'ambassador Alice:2:??:- Bob:2:??:- Carol:2:DK:- court=????????? aside=- phase=action actor=Alice'
>>> s = s.apply(Move(Kind.TAX, 0))
>>> still_to_answer(s)
(1, 2)
>>> pass_until(s, 2).turn.decider
2
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Literal

from ..errors import IllegalMove
from .cards import Character, Draft, Variant
from .moves import NOBODY, Move
from .rules import RULES, Blockers, Kind
from .state import WINDOWS, Phase, State, Turn, new_game

UNKNOWN = Character.UNKNOWN


def hidden_from(state: State, me: int | None) -> State:
    """``state`` as seat ``me`` sees it (None: a spectator): the other players' face-down
    cards and the court unknown. Cards set aside stay as they are.

    >>> hidden_from(State.from_text("ambassador A:1:DK:- B:2:AC:- court=DDAACKKBBBC aside=- "
    ...                             "phase=action actor=A"), 0).text()
    'ambassador A:1:DK:- B:2:??:- court=??????????? aside=- phase=action actor=A'
    """
    hidden = tuple(cards if seat == me else (UNKNOWN,) * len(cards) for seat, cards in enumerate(state.hidden))
    court = (UNKNOWN,) * len(state.court)
    if hidden == state.hidden and court == state.court:
        return state
    return state._replace(hidden=hidden, court=court)


def opening(
    names: Sequence[str],
    variant: Variant,
    draft: Draft,
    me: int | None = None,
    cards: tuple[Character, ...] = (),
    dealt: Character | None = None,
) -> State:
    """The public state at the start of the first turn, set up by the rules (:func:`new_game`:
    the deck, the coins, the draft's packs) and dealt through the engine, every card the seat
    ``me`` has not seen unknown. ``cards``: the seat's hand (or, in the draft, its dealt card
    and its pick, with ``dealt`` naming the dealt one). The seat's own draft pack is known to
    it: its four discards are set aside face up for it. Raises IllegalMove or ImpossibleTable.
    """
    names = tuple(names)
    start = new_game(names, variant, draft)
    n = len(names)
    if start.turn.phase is Phase.DEAL:
        hands = [cards if seat == me else (UNKNOWN, UNKNOWN) for seat in range(n)]
        blind = start._replace(court=(UNKNOWN,) * len(start.court))
        return blind.apply(Move(Kind.DEAL, NOBODY, cards=tuple(c for hand in hands for c in hand)))
    pack = variant.characters  # the draft: the third pack is the court, the two packs aside
    aside = tuple(sorted(pack + (UNKNOWN,) * len(pack))) if me is not None else (UNKNOWN,) * (2 * len(pack))
    state = start._replace(court=(UNKNOWN,) * len(start.court), aside=aside)
    pick = _pick(cards, dealt) if me is not None else UNKNOWN
    while state.turn.phase is not Phase.ACTION:
        if state.turn.phase is Phase.DRAFT_DEAL:
            deal = tuple(dealt if seat == me and dealt is not None else UNKNOWN for seat in range(n))
            state = state.apply(Move(Kind.DEAL, NOBODY, cards=deal))
        else:
            seat = state.turn.decider
            state = state.apply(Move(Kind.PICK, seat, cards=(pick if seat == me else UNKNOWN,)))
    return state


def _pick(cards: tuple[Character, ...], dealt: Character | None) -> Character:
    rest = list(cards)
    if dealt is not None:
        rest.remove(dealt)
    return rest[0]


def claim_of(state: State, move: Move) -> Character | None:
    """The character ``move`` claims at ``state``: an action's claim, a block's character; None
    for a move that claims nothing.

    >>> s = State.from_text("ambassador A:1:DK:- B:2:AC:- court=DDAACKKBBBC aside=- phase=action actor=A")
    >>> claim_of(s, Move(Kind.STEAL, 0, 1)), claim_of(s, Move(Kind.INCOME, 0))
    (Character.CAPTAIN, None)
    """
    if move.kind is Kind.BLOCK:
        return move.card
    rule = RULES[state.variant].get(move.kind)
    return rule.claim if rule is not None else None


def claimant(state: State) -> int:
    """In a challenge window (or a proof): the seat whose claim is open to a challenge."""
    t = state.turn
    return t.blocker if t.block is not None else t.actor


def still_to_answer(state: State) -> tuple[int, ...]:
    """In a window, the seats still to be offered it, in the order they are offered (the
    decider first); () outside a window."""
    t = state.turn
    if t.phase not in WINDOWS:
        return ()
    assert t.action is not None
    if t.phase is Phase.BLOCK and RULES[state.variant][t.action].blockers is Blockers.TARGET:
        return (t.decider,)
    stop = t.blocker if t.phase is Phase.BLOCK_CHALLENGE else t.actor
    seats: list[int] = []
    seat, n = t.decider, len(state.names)
    while seat != stop and len(seats) < n:
        if state.alive(seat):
            seats.append(seat)
        seat = (seat + 1) % n
    return tuple(seats)


def pass_until(state: State, seat: int, what: str = "answer") -> State:
    """The state once everybody offered the open window before ``seat`` has passed, so that
    ``seat`` decides. Raises :class:`IllegalMove` saying why if ``seat`` is not offered it
    (``what``: the word for what ``seat`` would do, in the reason)."""
    return play(state, passes_until(state, seat, what))


def passes_until(state: State, seat: int, what: str = "answer") -> tuple[Move, ...]:
    """The passes of those offered the open window before ``seat`` (see :func:`pass_until`)."""
    seats = still_to_answer(state)
    if seat not in seats:
        raise IllegalMove(f"{state.names[seat]} cannot {what} now: {why_not_offered(state, seat)}")
    return tuple(Move(Kind.PASS, s) for s in seats[: seats.index(seat)])


def window_passes(state: State) -> tuple[Move, ...]:
    """The passes that close the open window unanswered (everybody still to answer it); ()
    outside a window."""
    return tuple(Move(Kind.PASS, seat) for seat in still_to_answer(state))


def close_window(state: State) -> State:
    """The state once everybody still to answer the open window has passed (the window closes
    unanswered); ``state`` itself outside a window."""
    return play(state, window_passes(state))


def unseen_moves(state: State, me: int | None) -> tuple[Move, ...]:
    """The moves that follow ``state`` unseen by seat ``me`` (None: a spectator), up to the
    next line the table types: the other players' draws and kept cards (unknown cards), and a
    placeholder (an unknown card) for ``me``'s own replacement, whose ``draw`` line may come
    later. For a position as a seat sees it (:func:`hidden_from`).

    >>> s = State.from_text("ambassador A:2:??:- B:2:DK:- court=??????????? aside=- "
    ...                     "phase=exchange-draw actor=A action=exchange")
    >>> [m.text(s.names) for m in unseen_moves(s, 1)]
    ['A draw ? ?', 'A keep ? ?']
    """
    moves: list[Move] = []
    while True:
        t = state.turn
        if t.phase is Phase.REDRAW or (t.phase is Phase.SWAP_DRAW and t.decider != me):
            move = Move(Kind.DRAW, t.decider, cards=(UNKNOWN,))
        elif t.phase is Phase.EXCHANGE_DRAW and t.actor != me:
            move = Move(Kind.DRAW, t.actor, cards=(UNKNOWN,) * state.exchange_draws())
        elif t.phase is Phase.EXCHANGE_KEEP and t.actor != me:
            move = Move(Kind.KEEP, t.actor, cards=(UNKNOWN,) * len(state.hidden[t.actor]))
        else:
            return tuple(moves)
        moves.append(move)
        state = hidden_from(state.apply(move), me)


def after(state: State, move: Move, me: int | None) -> State:
    """The position seat ``me`` sees once ``move`` is played at ``state``, and what follows it
    unseen (:func:`unseen_moves`) too. Raises :class:`IllegalMove`."""
    state = hidden_from(state.apply(move), me)
    for unseen in unseen_moves(state, me):
        state = hidden_from(state.apply(unseen), me)
    return state


def play(state: State, moves: Sequence[Move], me: int | None = NOBODY) -> State:
    """``state`` after ``moves``, each followed by what follows it unseen by seat ``me``
    (:func:`after`; the default ``NOBODY``: the moves alone, nothing hidden). Raises
    :class:`IllegalMove`."""
    for move in moves:
        state = state.apply(move) if me == NOBODY else after(state, move, me)
    return state


Meaning = Callable[[State], Sequence[Move]]
"""What a typed line names at a position: its moves there (raises IllegalMove saying why it
names none)."""
RESPONSES = (Kind.PASS, Kind.CHALLENGE, Kind.BLOCK)
"""The moves that answer a window."""


def meant(state: State, means: Meaning, me: int | None, respond: bool = False) -> tuple[Move, ...]:
    """The decisions a typed line stands for at the position ``state`` seen from seat ``me``,
    windows closing implicitly included: the one place where a line is resolved against the
    legal moves (as python-chess's ``parse_san``). The line is tried at ``state``, then once
    each open window has closed unanswered; at the first position where the moves
    ``means(position)`` names are legal, they are returned after the passes of the windows
    closed and of those offered a window before the line's player. What follows each move
    unseen by ``me`` is not listed (:func:`after` plays it).

    ``respond``: the line answers a window (challenge, block, pass); if it fits nowhere, the
    reason given is the one at ``state`` (else the one at the last position tried). Raises
    :class:`IllegalMove`.

    >>> s = opening(("Alice", "Bob", "Carol"), Variant.AMBASSADOR, Draft.NONE, me=2,
    ...             cards=(Character.DUKE, Character.CAPTAIN))
    >>> s = after(s, Move(Kind.TAX, 0), 2)
    >>> meant(s, lambda position: (Move(Kind.CHALLENGE, 2),), 2, respond=True)
    (Move(Kind.PASS, 1), Move(Kind.CHALLENGE, 2))
    >>> meant(s, lambda position: (Move(Kind.INCOME, 1),), 2)
    (Move(Kind.PASS, 1), Move(Kind.PASS, 2), Move(Kind.INCOME, 1))
    """
    errors: list[IllegalMove] = []
    for closed, position in positions(state, me):
        try:
            return closed + _legal(position, tuple(means(position)), me)
        except IllegalMove as error:
            errors.append(error)
    raise errors[0] if respond else errors[-1]


def positions(state: State, me: int | None) -> Iterator[tuple[tuple[Move, ...], State]]:
    """The positions a line typed now may be played at, seen from seat ``me``, each with the
    passes that lead there: ``state``, then the position once each open window has closed
    unanswered (a turn opens at most three windows, one after the other)."""
    closed: tuple[Move, ...] = ()
    while True:
        yield closed, state
        if state.turn.phase not in WINDOWS:
            return
        passes = window_passes(state)
        state, closed = play(state, passes, me), closed + passes


def _legal(position: State, moves: tuple[Move, ...], me: int | None) -> tuple[Move, ...]:
    """``moves`` at ``position``, a window's answer after the passes of those offered it
    first; raises IllegalMove if they are not legal there."""
    first = moves[0] if moves else None
    if first is not None and first.kind in RESPONSES and position.turn.phase in WINDOWS:
        moves = passes_until(position, first.player, str(first.kind)) + moves
    play(position, moves, me)
    return moves


def why_not_offered(state: State, seat: int) -> str:
    """Why ``seat`` is not offered the open window, in words."""
    t = state.turn
    if t.phase not in WINDOWS:
        return "no window is open"
    if not state.alive(seat):
        return f"{state.names[seat]} is out of the game"
    if t.phase is Phase.CHALLENGE and seat == t.actor:
        return "nobody challenges their own claim"
    if t.phase is Phase.BLOCK_CHALLENGE and seat == t.blocker:
        return "nobody challenges their own block"
    if t.phase is Phase.BLOCK:
        return f"only {state.names[t.target]} may block that" if t.target != NOBODY else "nobody may block that"
    return "that window is closed"


def reveal(state: State, seat: int, card: Character) -> State:
    """``state`` with an unknown face-down card of ``seat`` known to be ``card`` (the seat's
    own replacement, typed after the fact). Raises :class:`IllegalMove` if ``seat`` has no
    unknown card."""
    hand = list(state.hidden[seat])
    if UNKNOWN not in hand:
        raise IllegalMove(f"{state.names[seat]} has no unknown card to reveal")
    hand.remove(UNKNOWN)
    hidden = state.hidden[:seat] + (tuple(sorted((*hand, card))),) + state.hidden[seat + 1 :]
    revealed = state._replace(hidden=hidden)
    revealed.check()
    return revealed


Window = Literal["challenge", "block", "block-challenge"]
"""The windows a claim or an action opens."""
WINDOW_NAMES: dict[Phase, Window] = {
    Phase.CHALLENGE: "challenge",
    Phase.BLOCK: "block",
    Phase.BLOCK_CHALLENGE: "block-challenge",
}


def window_name(state: State) -> Window | None:
    """``'challenge'``, ``'block'`` or ``'block-challenge'`` while that window is open, else None."""
    return WINDOW_NAMES.get(state.turn.phase)


__all__ = [
    "RESPONSES",
    "Meaning",
    "Turn",
    "after",
    "claim_of",
    "claimant",
    "close_window",
    "hidden_from",
    "meant",
    "opening",
    "pass_until",
    "passes_until",
    "play",
    "positions",
    "reveal",
    "still_to_answer",
    "unseen_moves",
    "why_not_offered",
    "window_name",
    "window_passes",
]
