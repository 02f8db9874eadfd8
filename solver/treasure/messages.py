"""The engine's messages in the game's words: what the table waits for, and why a move is out of
turn.

>>> from solver.treasure.state import State
>>> s = State.from_text("tresor deck=1x2x2 Ana:5:1cn1ev1ev:0111NBF Ben:5:???:??????? "
...                     "removed=? domain=0,0:1cv phase=turn mover=Ana")
>>> waiting_for(s)
'Ana to place a card or pass'
>>> out_of_turn(s, Move(Kind.PASS, 1))
'Ben cannot pass now: the table waits for Ana to place a card or pass'
"""

from __future__ import annotations

from collections.abc import Callable

from .moves import Kind, Move
from .state import Phase, State


def _name(s: State, seat: int) -> str:
    return s.names[seat] if 0 <= seat < len(s.names) else "nobody"


def _turn(s: State) -> str:
    who = _name(s, s.turn.mover)
    return f"{who} to place a card or pass" + (" (deux cartes: place when you can)" if s.deux_cartes() else "")


def _bid(s: State) -> str:
    t = s.turn
    if t.decider == t.caller:
        return f"{_name(s, t.decider)} to bid: they called neuro"
    return f"{_name(s, t.decider)} to bid or not in {_name(s, t.caller)}'s round"


def _dealt_to(s: State) -> str:
    return _name(s, sum(map(len, s.hands)) % len(s.names))


_WAITING: dict[Phase, Callable[[State], str]] = {
    Phase.REMOVE: lambda s: "a card to be removed unseen",
    Phase.START: lambda s: "the start card",
    Phase.DEAL: lambda s: f"the deal of a card to {_dealt_to(s)}",
    Phase.TURN: _turn,
    Phase.NEURO: lambda s: f"{_name(s, s.turn.decider)} to call neuro or not after {_name(s, s.turn.mover)}'s turn",
    Phase.BID: _bid,
    Phase.REMOVED: lambda s: "the removed card to be shown",
    Phase.REVEAL: lambda s: f"{_name(s, s.turn.decider)} to reveal the markers of their bids",
    Phase.BREACH: lambda s: f"the table to say whether {_name(s, s.turn.decider)} breached deux cartes",
    Phase.OVER: lambda s: "nothing: the game is over",
}


def waiting_for(s: State) -> str:
    """What the table waits for, in words: ``'Ben to bid or not in Dan's round'``."""
    return _WAITING[s.turn.phase](s)


MOVE_WORDS = {
    Kind.REMOVE: "remove a card",
    Kind.START: "lay the start card",
    Kind.DEAL: "deal a card",
    Kind.PLACE: "place",
    Kind.PASS: "pass",
    Kind.NEURO: "call neuro",
    Kind.NO_NEURO: "decline to call neuro",
    Kind.BID: "bid",
    Kind.NO_BID: "decline to bid",
    Kind.REMOVED: "show the removed card",
    Kind.REVEAL: "reveal markers",
    Kind.BREACH: "be found in breach",
    Kind.NO_BREACH: "be cleared of a breach",
}
"""What a kind of move does, after "cannot"."""


def out_of_turn(s: State, move: Move) -> str:
    """Why ``move`` cannot be played now (wrong phase or wrong player), in words."""
    if s.turn.phase is Phase.OVER:
        winners = " and ".join(s.names[w] for w in s.winners())
        return f"the game is over: {winners} {'won' if len(s.winners()) == 1 else 'tie'}"
    who = s.names[move.player] if 0 <= move.player < len(s.names) else "chance"
    return f"{who} cannot {MOVE_WORDS[move.kind]} now: the table waits for {waiting_for(s)}"
