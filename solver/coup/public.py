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

from collections.abc import Sequence
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


def pass_until(state: State, seat: int) -> State:
    """The state once everybody offered the open window before ``seat`` has passed, so that
    ``seat`` decides. Raises :class:`IllegalMove` saying why if ``seat`` is not offered it."""
    t = state.turn
    if seat not in still_to_answer(state):
        raise IllegalMove(f"{state.names[seat]} cannot answer now: {why_not_offered(state, seat)}")
    while state.turn.decider != seat:
        state = state.apply(Move(Kind.PASS, state.turn.decider))
    assert state.turn.phase is t.phase
    return state


def close_window(state: State) -> State:
    """The state once everybody still to answer the open window has passed (the window closes
    unanswered); ``state`` itself outside a window."""
    phase = state.turn.phase
    while state.turn.phase is phase and phase in WINDOWS:
        state = state.apply(Move(Kind.PASS, state.turn.decider))
    return state


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
    "Turn",
    "claim_of",
    "claimant",
    "close_window",
    "hidden_from",
    "opening",
    "pass_until",
    "reveal",
    "still_to_answer",
    "why_not_offered",
    "window_name",
]
