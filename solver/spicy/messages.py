"""The engine's messages in the game's words: what the table waits for, and why a move is
refused.

>>> from solver.spicy.state import State
>>> waiting_for(State.from_text("spicy Ana:C1:-:0 Ben:P3:-:0 top=Ana:W2:C2:2:-:open draw=rest "
...                             "phase=window actor=Ben decider=Ben"))
"Ben to challenge Ana's chili 2 (spice or number) or let it stand"
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from .cards import Card
from .moves import Kind, Move

if TYPE_CHECKING:
    from .state import State


def _name(s: State, seat: int) -> str:
    return s.names[seat] if 0 <= seat < len(s.names) else "nobody"


def _top(s: State) -> str:
    if s.top is None:
        return "the top card"
    return f"{_name(s, s.top.player)}'s {s.top.claim}"


def _draw_words(s: State) -> str:
    t = s.turn
    left = f"{t.owed} card{'s' if t.owed > 1 else ''}"
    return f"{_name(s, t.decider)} to draw {left}"


_WAITING: dict[str, Callable[[State], str]] = {
    "deal": lambda s: "the deal",
    "play": lambda s: f"{_name(s, s.turn.actor)} to play a card with a claim, or pass",
    "window": lambda s: f"{_name(s, s.turn.decider)} to challenge {_top(s)} (spice or number) or let it stand",
    "last-card": lambda s: (
        f"a challenge of {_name(s, s.top.player if s.top else -1)}'s last card ({s.top.claim if s.top else '?'}) "
        f"or everybody's pass; {_name(s, s.turn.decider)} is asked"
    ),
    "reveal": lambda s: f"the reveal of {_top(s)}, challenged by {_name(s, s.turn.challenger)}",
    "draw": _draw_words,
    "over": lambda s: "nothing: the game is over",
}


def waiting_for(s: State) -> str:
    """What the table waits for, in words: ``"Ben to play a card with a claim, or pass"``."""
    return _WAITING[str(s.turn.phase)](s)


_VERB = {
    Kind.PLAY: "play",
    Kind.PASS: "pass",
    Kind.DECLINE: "let the top card stand",
    Kind.CHALLENGE: "challenge",
    Kind.TAKE_BACK: "take a card back",
    Kind.DEAL: "be dealt a card",
    Kind.DRAW: "draw",
    Kind.REVEAL: "reveal a card",
    Kind.WORLDS_END: "end the game",
}


def out_of_turn(s: State, move: Move) -> str:
    """Why ``move`` cannot be made now (wrong phase or wrong player), in words."""
    from .state import Phase

    if s.turn.phase is Phase.OVER:
        return "the game is over"
    if move.kind is Kind.WORLDS_END:
        return f"World's End cannot show now: the table waits for {waiting_for(s)}"
    if move.kind is Kind.TAKE_BACK and s.turn.phase is not Phase.LAST_CARD:
        return "only a last card that was not announced is taken back, before anybody challenges it"
    who = _name(s, move.player) if 0 <= move.player < len(s.names) else "chance"
    return f"{who} cannot {_VERB[move.kind]} now: the table waits for {waiting_for(s)}"


def misshapen(s: State, move: Move) -> str:
    """Why ``move`` names too much or too little (a card, a claim, a trait)."""
    who = _name(s, move.player)
    if move.kind is Kind.PLAY:
        return f"{who} plays a card with a claim (a spice and a number), naming nothing else"
    if move.kind is Kind.CHALLENGE:
        return f"{who} challenges spice or number, never both, naming nothing else"
    if move.kind in (Kind.DEAL, Kind.DRAW, Kind.REVEAL):
        return f"{move.kind} names one card and nothing else"
    return f"{move.kind} names no card, claim or trait"


def holds_no(name: str, hand: tuple[Card, ...], card: Card) -> str:
    """Why a card cannot be played from ``hand``."""
    if not card.is_known:
        return f"{name}'s cards are known: name the card played"
    return f"{name} holds no {card}"


def unavailable(card: Card, copies: int) -> str:
    """Why a named card cannot stand for an unknown one: every copy is placed already."""
    if copies == 0:
        return f"there is no {card} in this deck"
    return f"all {copies} {card} are accounted for" if copies > 1 else f"the only {card} is accounted for"
