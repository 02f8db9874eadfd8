"""The engine's messages in the game's words: what the table waits for, why a move is out of
turn, and the character a challenged claim names.

>>> from solver.coup.state import State
>>> waiting_for(State.from_text("ambassador Alice:1:DK:- Bob:2:A:C court=DDAACCKKBBB aside=- "
...                             "phase=challenge actor=Alice decider=Bob action=tax"))
"Bob to challenge Alice's tax or pass"
"""

from __future__ import annotations

from collections.abc import Callable

from .cards import Character
from .moves import Move
from .rules import RULES, Kind
from .state import Phase, State, Turn


def claimed(s: State) -> Character:
    """The character of the claim open to a challenge: the block's once there is one, else the
    action's. (Only in a window, proof or redraw of a claiming action.)"""
    t = s.turn
    if t.block is not None:
        return t.block
    assert t.action is not None
    claim = RULES[s.variant][t.action].claim
    assert claim is not None
    return claim


ACTION_WORDS = {
    Kind.INCOME: "income",
    Kind.AID: "foreign aid",
    Kind.COUP: "a coup",
    Kind.TAX: "tax",
    Kind.ASSASSINATE: "an assassination",
    Kind.STEAL: "stealing",
    Kind.EXCHANGE: "an exchange",
    Kind.EXAMINE: "an examination",
}


def waiting_for(s: State) -> str:
    """What the table waits for, in words: ``'Bob to challenge Alice's tax or pass'``."""
    t = s.turn
    texts = _WAITING[t.phase]
    return texts(s, t, s.names)


def decision(s: State) -> str:
    """What the player deciding now is to decide, in words: ``"challenge Alice's tax or pass"``
    (:func:`waiting_for` without the player's name)."""
    text = waiting_for(s)
    return text.partition(" to ")[2] or text


def _cards(n: int) -> str:
    return f"{n} card" if n == 1 else f"{n} cards"


def _name(names: tuple[str, ...], seat: int) -> str:
    return names[seat] if 0 <= seat < len(names) else "nobody"


_WAITING: dict[Phase, Callable[[State, Turn, tuple[str, ...]], str]] = {
    Phase.DEAL: lambda s, t, n: "the deal",
    Phase.DRAFT_DEAL: lambda s, t, n: "the deal of the third pack",
    Phase.DRAFT_PICK: lambda s, t, n: f"{_name(n, t.decider)} to pick a card",
    Phase.ACTION: lambda s, t, n: f"{_name(n, t.actor)} to take an action",
    Phase.CHALLENGE: lambda s, t, n: f"{_name(n, t.decider)} to challenge {_name(n, t.actor)}'s {t.action} or pass",
    Phase.BLOCK: lambda s, t, n: f"{_name(n, t.decider)} to block {_name(n, t.actor)}'s {t.action} or pass",
    Phase.BLOCK_CHALLENGE: lambda s, t, n: f"{_name(n, t.decider)} to challenge {_name(n, t.blocker)}'s block or pass",
    Phase.PROOF: lambda s, t, n: f"{_name(n, t.decider)} to show {claimed(s).article} or lose an influence",
    Phase.REDRAW: lambda s, t, n: f"{_name(n, t.decider)} to draw a replacement",
    Phase.LOSE: lambda s, t, n: f"{_name(n, t.decider)} to lose an influence",
    Phase.EXCHANGE_DRAW: lambda s, t, n: f"{_name(n, t.actor)} to draw from the court",
    Phase.EXCHANGE_KEEP: lambda s, t, n: f"{_name(n, t.actor)} to keep {_cards(len(s.hidden[t.actor]))}",
    Phase.EXAMINE_SHOW: lambda s, t, n: f"{_name(n, t.decider)} to show a card to {_name(n, t.actor)}",
    Phase.EXAMINE_DECIDE: lambda s, t, n: f"{_name(n, t.actor)} to swap or return",
    Phase.SWAP_DRAW: lambda s, t, n: f"{_name(n, t.decider)} to draw a new card",
    Phase.OVER: lambda s, t, n: "nothing: the game is over",
}


def out_of_turn(s: State, move: Move) -> str:
    """Why ``move`` cannot be played now (wrong phase or wrong player), in words."""
    if s.turn.phase is Phase.OVER:
        winner = s.winner()
        return f"the game is over: {s.names[winner] if winner is not None else 'nobody'} won"
    who = s.names[move.player] if 0 <= move.player < len(s.names) else "chance"
    return f"{who} cannot {MOVE_WORDS.get(move.kind, str(move.kind))} now: the table waits for {waiting_for(s)}"


MOVE_WORDS = {kind: str(kind) for kind in Kind}
MOVE_WORDS.update({Kind.PROVE: "show a card", Kind.LOSE: "lose an influence", Kind.DRAW: "draw"})
